"""Qt fixtures for the window tests: offscreen, one shared engine, no user settings."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
import torch  # noqa: E402,F401  (before Qt, as in main.py)

from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402

WAIT_MS = 20_000


@pytest.fixture(scope="session")
def engine():
    return Engine()


@pytest.fixture(autouse=True)
def _fresh_settings(tmp_path, monkeypatch):
    """Nothing reads or writes the real user settings."""
    from PySide6 import QtCore

    QtCore.QSettings.setDefaultFormat(QtCore.QSettings.Format.IniFormat)
    QtCore.QSettings.setPath(
        QtCore.QSettings.Format.IniFormat, QtCore.QSettings.Scope.UserScope, str(tmp_path / "settings")
    )
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


@pytest.fixture
def make_window(qtbot, engine):
    """make_window(config) -> a shown MainWindow whose first trace is drawn."""
    from explorer.gui.main_window import MainWindow

    def make(config: AttentionConfig | None = None, size=(1400, 900)):
        window = MainWindow(engine, config)
        qtbot.addWidget(window)
        window.resize(*size)
        with qtbot.waitSignal(window.rendered, timeout=WAIT_MS):
            window.show()
        return window

    return make


@pytest.fixture
def window(make_window):
    return make_window(
        AttentionConfig(sentence="The animal didn't cross the street because it was too tired")
    )
