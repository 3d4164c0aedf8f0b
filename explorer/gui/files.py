"""Sessions on disk: open, save, save as, recent sessions, and their dialogs and actions.

A session is a snapshot of the ExplorerState (``explorer.appstate.session``): opening one
sets the state, and the views follow. A bad file changes nothing and says why (in the
banner, and in a message box when the user opened it from a dialog).
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.session import (
    Session,
    SessionError,
    apply_session,
    load_session,
    save_session,
    session_of,
)
from explorer.gui.core_text import error_text
from explorer.gui.i18n import translate
from explorer.gui.preferences import Preferences

SESSION_FILTER = QtCore.QT_TRANSLATE_NOOP("SessionFiles", "Attention Explorer session (*.aexp.json *.json)")


def tr(text: str) -> str:  # for texts extracted elsewhere (SESSION_FILTER)
    return QtCore.QCoreApplication.translate("SessionFiles", text)


class SessionFiles(QtCore.QObject):
    """Collaborators: the window (dialogs' parent, banner, status bar, title) and its state."""

    def __init__(self, window, prefs: Preferences):
        super().__init__(window)
        self.window, self.state, self.prefs = window, window.state, prefs
        self.path: str | None = None
        self.message = ""  # the last outcome, for the status bar and the tests
        self._clean = self.lesson()  # the lesson as last saved or opened (or as it opened)
        w = window
        self.open_action = self._action(self.open_dialog, "Ctrl+O")
        self.recent_menu = QtWidgets.QMenu(w)
        self.recent_menu.aboutToShow.connect(self.fill_recent)
        self.save_action = self._action(self.save_current, "Ctrl+S")
        self.save_as_action = self._action(self.save_dialog, "Ctrl+Shift+S")
        self.retranslate()

    def _action(self, slot, shortcut: str) -> QtGui.QAction:
        action = QtGui.QAction(self.window)
        action.setShortcut(QtGui.QKeySequence(shortcut))
        action.triggered.connect(slot)
        return action

    def current(self) -> Session:
        return session_of(self.state)

    # -- unsaved changes ---------------------------------------------------------------------
    def lesson(self) -> tuple:
        """What a teacher prepares and would lose: every setting a session keeps (the inputs
        and options, B of the compare view, the board, the lines, the questions, the
        Translation and Vision tabs' choices), but not what only looks around (the
        selections, the tab, the page, the theme or the text size: browsing is no change)."""
        s = self.state
        labs = tuple(lab.prepared() for lab in s.labs.values())
        return (s.config, s.compare, s.board.board, s.lines.options, s.predict.enabled, labs)

    def mark_clean(self) -> None:
        self._clean = self.lesson()

    def changed(self) -> bool:
        return self.lesson() != self._clean

    # -- open and save ------------------------------------------------------------------------
    def open(self, path: str | Path, interactive: bool = False) -> bool:
        """Load a session into the state; on a bad file say why and leave everything as it was.
        The teacher's open (Ctrl+O, a recent session) asks first about unsaved changes, as
        quitting does: opening replaces the lesson."""
        if interactive and not self.window.ask_to_save(opening=True):
            return False
        try:
            session = load_session(path)
        except SessionError as exc:
            self._failed(
                translate("SessionFiles", "Cannot open the session: {0}").format(error_text(exc)),
                interactive,
                True,
            )
            return False
        apply_session(self.state, session)
        self._done(path, translate("SessionFiles", "Opened {0}").format(Path(path).name))
        self.window.hide_banner()
        return True

    def save(self, path: str | Path, interactive: bool = False) -> bool:
        try:
            save_session(path, self.current())
        except OSError as exc:
            self._failed(
                translate("SessionFiles", "Cannot save the session: {0}").format(exc.strerror or exc),
                interactive,
                False,
            )
            return False
        self._done(path, translate("SessionFiles", "Saved {0}").format(Path(path).name))
        return True

    def _failed(self, message: str, interactive: bool, opening: bool) -> None:
        self.message = message
        self.window.show_error(message)
        if interactive:
            title = (
                translate("SessionFiles", "Open session")
                if opening
                else translate("SessionFiles", "Save session")
            )
            QtWidgets.QMessageBox.warning(self.window, title, message)

    def _done(self, path: str | Path, message: str) -> None:
        self.path, self.message = str(path), message
        self.mark_clean()
        self.prefs.add_recent(path)
        self.fill_recent()
        self.window.statusBar().showMessage(message, 5000)
        self.window.update_title()

    # -- dialogs ---------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self.window,
            translate("SessionFiles", "Open session"),
            self.prefs.dialog_start(),
            tr(SESSION_FILTER),
        )
        self.prefs.remember_dialog(path)
        if path:
            self.open(path, interactive=True)

    def save_current(self) -> bool:
        """Save (asking where when the lesson has no file yet); True when it was saved."""
        if self.path:
            return self.save(self.path, interactive=True)
        return self.save_dialog()

    def save_dialog(self) -> bool:
        start = self.path or self.prefs.dialog_start("lesson.aexp.json")
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.window, translate("SessionFiles", "Save session"), start, tr(SESSION_FILTER)
        )
        self.prefs.remember_dialog(path)
        if not path:
            return False
        if not path.lower().endswith(".json"):
            path += ".aexp.json"
        return self.save(path, interactive=True)

    def fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.prefs.recent()
        for path in recent:
            act = self.recent_menu.addAction(Path(path).name)
            act.setToolTip(path)
            act.setStatusTip(path)
            act.triggered.connect(lambda _=False, p=path: self.open(p, interactive=True))
        if not recent:
            self.recent_menu.addAction(translate("SessionFiles", "(none yet)")).setEnabled(False)

    def retranslate(self) -> None:
        self.open_action.setText(translate("SessionFiles", "&Open session…"))
        self.open_action.setStatusTip(
            translate("SessionFiles", "Open a saved lesson: inputs, options, selection, theme, language")
        )
        self.save_action.setText(translate("SessionFiles", "&Save session"))
        self.save_action.setStatusTip(
            translate("SessionFiles", "Save the whole state to the current session file")
        )
        self.save_as_action.setText(translate("SessionFiles", "Save session &as…"))
        self.recent_menu.setTitle(translate("SessionFiles", "Recent sessions"))
        self.fill_recent()
