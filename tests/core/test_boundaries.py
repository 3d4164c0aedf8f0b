"""The Qt-free parts never load Qt; nothing loads files with pickle."""

import pathlib
import re
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
    """torch.load only with weights_only=True (convert_bin.py reads pytorch_model.bin so)."""
    for path in (ROOT / "explorer").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for needle in (
            "import pickle",
            "pickle.load",
            "Unpickler(",
            "allow_pickle=True",
            "weights_only=False",
        ):
            assert needle not in text, f"{path} uses {needle}"
        calls = re.findall(r"torch\.load\([^)]*\)", text)
        assert text.count("torch.load(") == len(calls), f"{path}: a torch.load call spans lines"
        for call in calls:
            assert "weights_only=True" in call, f"{path}: {call}"
