"""The test suite's shared fixtures, in one place.

Session-wide: the app's log file and data (converted weights) go to temporary folders, never the real home; Qt runs
offscreen and is configured as app.py configures it; no test reads or writes the real
user settings; one engine serves every test (its caches make the suite fast).
"""

import os
import tempfile

# Set before any test (and every subprocess a test starts, which inherits it) runs the app.
os.environ.setdefault("EXPLORER_LOG_DIR", tempfile.mkdtemp(prefix="explorer-test-logs-"))
os.environ.setdefault("EXPLORER_DATA_DIR", tempfile.mkdtemp(prefix="explorer-test-data-"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import torch  # noqa: F401  (before Qt, as in main.py)

from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from tests.gui.helpers import ANIMAL, WAIT_MS


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine()


@pytest.fixture(scope="session")
def qapp(qapp_args, pytestconfig):
    """The application, configured as app.py configures it (fonts, palette, GUI-thread gc)."""
    from explorer.gui.app_setup import configure_app

    return configure_app(list(qapp_args) or ["pytest"])


@pytest.fixture(autouse=True)
def _fresh_settings(tmp_path, monkeypatch):
    """Nothing reads or writes the real user settings (napari's _fresh_settings idea)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    import sys

    if "PySide6.QtCore" not in sys.modules:
        return  # a Qt-free test: nothing of Qt to point elsewhere
    from PySide6 import QtCore

    QtCore.QSettings.setDefaultFormat(QtCore.QSettings.Format.IniFormat)
    QtCore.QSettings.setPath(
        QtCore.QSettings.Format.IniFormat, QtCore.QSettings.Scope.UserScope, str(tmp_path / "settings")
    )


@pytest.fixture
def make_window(qtbot, engine):
    """make_window(config) -> a shown MainWindow whose first trace is drawn."""
    from explorer.gui import i18n
    from explorer.gui.main_window import MainWindow

    def make(config: AttentionConfig | None = None, size=(1400, 900), settings=None):
        window = MainWindow(engine, config, settings=settings)
        qtbot.addWidget(window)
        window.resize(*size)
        with qtbot.waitSignal(window.rendered, timeout=WAIT_MS):
            window.show()
        return window

    yield make
    i18n.set_language("en")  # the language is application-wide: leave it as found


@pytest.fixture
def window(make_window):
    return make_window(AttentionConfig(sentence=ANIMAL))


@pytest.fixture
def run(capsys):
    """run(*argv): a command of ``python -m explorer`` in this process (status, stdout, stderr)."""
    import subprocess

    from explorer.cli import main

    def go(*args: str) -> subprocess.CompletedProcess:
        capsys.readouterr()  # what came before (building a folder prints a progress bar)
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code
        captured = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, captured.out, captured.err)

    return go
