"""What the explorer remembers between runs: window geometry, theme, language, recent sessions,
recent model folders and the folder its file dialogs last used.

Stored with QSettings. ``Preferences(settings)`` takes the QSettings to use, so tests (and
portable builds) can point it at their own file; the default is the user's INI file
(which the test fixtures redirect to a temporary folder). Headless runs pass a
``MemorySettings``: they never touch the user's file.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore

from explorer import reading
from explorer.appstate.state import LANGUAGES, THEMES

MAX_RECENT = 8
ORGANIZATION = "AttentionExplorer"
APPLICATION = "attention-explorer"


def default_settings() -> QtCore.QSettings:
    return QtCore.QSettings(
        QtCore.QSettings.Format.IniFormat, QtCore.QSettings.Scope.UserScope, ORGANIZATION, APPLICATION
    )


class MemorySettings:
    """The few QSettings methods Preferences uses, kept in memory only: headless runs
    (``--screenshot``, ``--first-paint-exit``, ``--self-test``) neither read the user's
    preferences (a saved dark theme or Chinese would change a screenshot) nor write them."""

    def __init__(self):
        self.values: dict[str, object] = {}

    def value(self, key: str, default=None):
        return self.values.get(key, default)

    def setValue(self, key: str, value) -> None:  # QSettings' name
        self.values[key] = value

    def sync(self) -> None:
        pass


class Preferences:
    def __init__(self, settings: QtCore.QSettings | MemorySettings | str | Path | None = None):
        if settings is None:
            settings = default_settings()
        elif not isinstance(settings, (QtCore.QSettings, MemorySettings)):
            settings = QtCore.QSettings(str(settings), QtCore.QSettings.Format.IniFormat)
        self.settings = settings

    # -- geometry -----------------------------------------------------------------
    def geometry(self) -> QtCore.QByteArray | None:
        value = self.settings.value("window/geometry")
        return value if isinstance(value, QtCore.QByteArray) and not value.isEmpty() else None

    def set_geometry(self, geometry: QtCore.QByteArray) -> None:
        self.settings.setValue("window/geometry", geometry)

    # -- theme and language ----------------------------------------------------------
    def theme(self) -> str:
        value = self.settings.value("ui/theme", "light")
        return value if value in THEMES else "light"

    def set_theme(self, theme: str) -> None:
        if theme in THEMES:
            self.settings.setValue("ui/theme", theme)

    def language(self) -> str:
        value = self.settings.value("ui/language", "en")
        return value if value in LANGUAGES else "en"

    def set_language(self, language: str) -> None:
        if language in LANGUAGES:
            self.settings.setValue("ui/language", language)

    # -- recent sessions --------------------------------------------------------------------
    def recent(self) -> list[str]:
        return self._list("sessions/recent")

    def add_recent(self, path: str | Path) -> list[str]:
        return self._add("sessions/recent", path)

    # -- recent model folders (the model picker's list) ------------------------------------
    def recent_models(self) -> list[str]:
        return self._list("models/recent")

    def add_recent_model(self, folder: str | Path) -> list[str]:
        """Put a folder that loaded first; at most MAX_RECENT, most recent first."""
        return self._add("models/recent", folder)

    def _list(self, key: str) -> list[str]:
        value = self.settings.value(key, [])
        if isinstance(value, str):  # QSettings returns one string for a one-item list
            value = [value]
        return [str(v) for v in (value or []) if v][:MAX_RECENT]

    def _add(self, key: str, path: str | Path) -> list[str]:
        path = str(reading.canonical(path))
        recent = ([path] + [p for p in self._list(key) if p != path])[:MAX_RECENT]
        self.settings.setValue(key, recent)
        return recent

    # -- where file dialogs open ---------------------------------------------------------------
    def dialog_folder(self) -> str:
        """The folder the last file dialog used, else the user's Documents, else home (never
        the working directory: from source that was the repository)."""
        last = self.settings.value("dialogs/folder", "")
        if isinstance(last, str) and last and Path(last).is_dir():
            return last
        return default_folder()

    def dialog_start(self, name: str = "") -> str:
        """What a dialog is given to start in: the folder, or a file name in it."""
        folder = self.dialog_folder()
        return str(Path(folder) / name) if name else folder

    def remember_dialog(self, path: str | Path, folder: bool = False) -> None:
        """A dialog's answer: a file (its folder is remembered) or, ``folder``, a folder."""
        if not path:
            return
        path = Path(path).expanduser()
        self.settings.setValue("dialogs/folder", str(path if folder else path.parent))

    def sync(self) -> None:
        self.settings.sync()


def default_folder() -> str:
    documents = QtCore.QStandardPaths.writableLocation(
        QtCore.QStandardPaths.StandardLocation.DocumentsLocation
    )
    if documents and Path(documents).is_dir():
        return documents
    return str(Path.home())
