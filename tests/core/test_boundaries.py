"""The Qt-free parts never load Qt; nothing loads files with pickle."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_core_and_models_never_import_qt():
    code = (
        "import sys, explorer.core, explorer.core.engine, explorer.models.loader, explorer.cli;"
        "from explorer.core import Engine, AttentionConfig;"
        "Engine().trace(AttentionConfig(weights='random'));"
        "bad=[m for m in sys.modules if m.startswith(('PySide6','PyQt','shiboken','pyqtgraph'))];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_sources_do_not_mention_qt():
    for path in [*(ROOT / "explorer" / "core").rglob("*.py"), *(ROOT / "explorer" / "models").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        assert "PySide6" not in text and "pyqtgraph" not in text, path


def test_no_pickle_loading_anywhere():
    for path in (ROOT / "explorer").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for needle in ("import pickle", "allow_pickle=True", "torch.load(", "weights_only=False"):
            assert needle not in text, f"{path} uses {needle}"
