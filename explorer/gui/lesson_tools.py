"""The classroom tools of the window: worked arithmetic, compare mode, export, sessions, preferences.

``LessonToolsMixin`` is mixed into ``MainWindow``; it uses the window's ``state``, ``engine``,
``bridge``, ``tabs``, ``trace`` and ``show_error`` and adds the File menu (Ctrl+O, Ctrl+S,
Ctrl+E), the "Worked arithmetic" dock and the "Compare" tab. It computes nothing itself:
the compare pair comes from the engine on the worker's "compare" channel.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate import data_export
from explorer.appstate.session import Session, SessionError, load_session, save_session
from explorer.appstate.state import GRID_STAGES
from explorer.appstate.worker import Result
from explorer.core.config import AttentionConfig, ConfigError
from explorer.gui import export as image_export
from explorer.gui.compare_view import CompareView
from explorer.gui.preferences import Preferences
from explorer.gui.worked_panel import WorkedPanel

SESSION_FILTER = QtCore.QT_TRANSLATE_NOOP(
    "LessonToolsMixin", "Attention Explorer session (*.aexp.json *.json)"
)


def translate(context: str, text: str) -> str:
    """The text in the interface language. The mixin's methods run as MainWindow's, whose
    ``self.tr`` would look under "MainWindow"; pyside6-lupdate files every
    ``translate("LessonToolsMixin", "…")`` call under that context (checked)."""
    return QtCore.QCoreApplication.translate(context, text)


class LessonToolsMixin:
    """Methods for MainWindow; call ``_init_lesson_tools(settings)`` at the end of __init__."""

    # -- set-up ---------------------------------------------------------------------
    def _init_lesson_tools(self, settings=None) -> None:
        self.prefs = Preferences(settings)
        self.session_path: str | None = None
        self.session_message = ""
        self.export_message = ""
        if not hasattr(self, "theme"):
            self.theme = "light"
        if not hasattr(self, "language"):
            self.language = "en"
        self._apply_look(self.prefs.theme(), self.prefs.language())

        self.worked = WorkedPanel()
        self.worked_dock = QtWidgets.QDockWidget(self)
        self.worked_dock.setObjectName("workedArithmeticDock")
        self.worked_dock.setWidget(self.worked)
        self.worked.setMinimumWidth(220)  # small windows still fit; sizeHint asks for more
        self.addDockWidget(QtCore.Qt.DockWidgetArea.RightDockWidgetArea, self.worked_dock)
        # Hidden at first: beside the other views it needs a wide window. View > Worked arithmetic
        # (Ctrl+Shift+W) opens it; selecting a cell fills it.
        self.worked_dock.setVisible(False)
        self.worked_action = self.worked_dock.toggleViewAction()
        self.worked_action.setShortcut(QtGui.QKeySequence("Ctrl+Shift+W"))
        view_menu = getattr(getattr(self, "classroom", None), "view_menu", None)
        if view_menu is not None:
            view_menu.addSeparator()
            view_menu.addAction(self.worked_action)
        else:
            self.addAction(self.worked_action)

        self.compare = CompareView()
        self.tab_compare = self.tabs.addTab(self.compare, "")
        self._compare_for: tuple[AttentionConfig, AttentionConfig] | None = None
        self._compare_wanted: tuple[AttentionConfig, AttentionConfig] | None = None
        self.compare.changed.connect(self._compare_if_visible)
        self.compare.cellSelected.connect(self._select_cell)
        self.tabs.currentChanged.connect(self._tools_on_tab)
        self.state.subscribe(self._tools_on_state)
        self._build_file_menu()
        self.retranslate_lesson_tools()

    def retranslate_lesson_tools(self) -> None:
        """The File menu, the worked-arithmetic dock and the Compare tab in the interface
        language (MainWindow.retranslate calls this on every language switch)."""
        if not hasattr(self, "file_menu"):
            return  # called by the window before the tools exist
        self.worked_dock.setWindowTitle(translate("LessonToolsMixin", "Worked arithmetic"))
        self.worked_action.setText(translate("LessonToolsMixin", "Worked arithmetic"))
        self.worked_action.setStatusTip(
            translate("LessonToolsMixin", "Show the actual numbers behind the selected cell")
        )
        self.tabs.setTabText(self.tab_compare, translate("LessonToolsMixin", "Compare"))
        self.tabs.setTabToolTip(
            self.tab_compare,
            translate(
                "LessonToolsMixin",
                "The selected head's weights for the current settings (A) and for B, and B − A",
            ),
        )
        self.file_menu.setTitle(translate("LessonToolsMixin", "&File"))
        texts = {
            self.open_action: (
                translate("LessonToolsMixin", "&Open session…"),
                translate(
                    "LessonToolsMixin", "Open a saved lesson: inputs, options, selection, theme, language"
                ),
            ),
            self.save_action: (
                translate("LessonToolsMixin", "&Save session"),
                translate("LessonToolsMixin", "Save the whole state to the current session file"),
            ),
            self.save_as_action: (translate("LessonToolsMixin", "Save session &as…"), None),
            self.export_action: (
                translate("LessonToolsMixin", "&Export…"),
                translate(
                    "LessonToolsMixin",
                    "A panel as PNG or SVG, the window as PNG, the data as CSV, NPY or JSON",
                ),
            ),
            self.export_window_action: (translate("LessonToolsMixin", "Export the window as PNG…"), None),
            self.copy_action: (translate("LessonToolsMixin", "Copy the current view to the clipboard"), None),
            self.quit_action: (translate("LessonToolsMixin", "&Quit"), None),
        }
        for act, (text, tip) in texts.items():
            act.setText(text)
            if tip:
                act.setStatusTip(tip)
        self.recent_menu.setTitle(translate("LessonToolsMixin", "Recent sessions"))
        self._fill_recent()
        self.compare.retranslate()
        self.worked.retranslate()

    def _apply_look(self, theme: str, language: str) -> None:
        """Theme and language through the presentation code (``self.classroom``) when it is
        there; otherwise they are only stored on the window."""
        classroom = getattr(self, "classroom", None)
        if classroom is not None and hasattr(classroom, "set_theme"):
            if getattr(classroom, "theme_name", None) != theme:
                classroom.set_theme(theme)
            if self.current_language() != language:
                classroom.set_language(language)
        self.theme, self.language = theme, language

    def current_theme(self) -> str:
        classroom = getattr(self, "classroom", None)
        return getattr(classroom, "theme_name", None) or getattr(self, "theme", "light")

    def current_language(self) -> str:
        if getattr(self, "classroom", None) is not None:
            from explorer.gui import i18n

            return i18n.current_language()
        return getattr(self, "language", "en")

    def _build_file_menu(self) -> None:
        """The File menu's actions; their texts come from ``retranslate_lesson_tools``."""
        bar = self.menuBar()
        menu = QtWidgets.QMenu(self)
        first = bar.actions()[0] if bar.actions() else None
        if first is not None:
            bar.insertMenu(first, menu)  # File comes first, whoever built the other menus
        else:
            bar.addMenu(menu)
        self.file_menu = menu

        def action(slot, shortcut=None):
            act = QtGui.QAction(self)
            if shortcut:
                act.setShortcut(QtGui.QKeySequence(shortcut))
            act.triggered.connect(slot)
            menu.addAction(act)
            return act

        self.open_action = action(self.open_session_dialog, "Ctrl+O")
        self.recent_menu = menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.save_action = action(self.save_session_action, "Ctrl+S")
        self.save_as_action = action(self.save_session_dialog, "Ctrl+Shift+S")
        menu.addSeparator()
        self.export_action = action(self.export_dialog, "Ctrl+E")
        self.export_window_action = action(self._export_window_dialog)
        self.copy_action = action(lambda: self.copy_panel(self._current_panel()), "Ctrl+Shift+C")
        menu.addSeparator()
        self.quit_action = action(self.close)  # Ctrl+Q is the window's own shortcut
        self.quit_action.setShortcutVisibleInContextMenu(False)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.prefs.recent()
        for path in recent:
            act = self.recent_menu.addAction(Path(path).name)
            act.setToolTip(path)
            act.setStatusTip(path)
            act.triggered.connect(lambda _=False, p=path: self.open_session(p, interactive=True))
        if not recent:
            none = self.recent_menu.addAction(translate("LessonToolsMixin", "(none yet)"))
            none.setEnabled(False)

    # -- events ------------------------------------------------------------------------
    def _tools_on_state(self, event: str, state) -> None:
        if event in ("cell", "head"):
            self._update_worked()
            if self.compare.trace_a is not None and self._compare_for is not None:
                if event == "head":
                    self.compare.show_pair(
                        self.compare.trace_a, self.compare.trace_b, state.selected_head, state.selected_cell
                    )
                else:
                    self.compare.set_selection(state.selected_cell)
        elif event == "config":
            self._compare_if_visible()

    def _tools_on_trace(self) -> None:
        """Called by the window after a new trace is drawn."""
        if not self.bridge.busy("trace"):
            self.status_text.setText(self._status_line())  # also when the Compare tab is in front
        self._update_worked()
        self._compare_if_visible()

    def _tools_on_tab(self, index: int) -> None:
        if index == self.tab_compare:
            self._compare_if_visible()

    def _update_worked(self) -> None:
        self.worked.show_cell(self.trace, self.state.selected_head, self.state.selected_cell)

    # -- compare -------------------------------------------------------------------------
    def _compare_if_visible(self) -> None:
        if self.tabs.currentIndex() == self.tab_compare:
            self.request_compare()

    def request_compare(self) -> None:
        a = self.state.config
        try:
            b = self.compare.config_b(a)
        except ConfigError as exc:
            self.compare.show_message(translate("LessonToolsMixin", "B cannot be computed: {0}").format(exc))
            return
        key = (a, b)
        if key == self._compare_for or key == self._compare_wanted:
            return
        self._compare_wanted = key
        self.compare.show_message(translate("LessonToolsMixin", "Computing A and B…"))
        engine = self.engine
        self.bridge.submit("compare", lambda: (key, engine.trace(a), engine.trace(b)))

    def _on_compare_result(self, result: Result) -> None:
        self._compare_wanted = None
        if not result.ok:
            from explorer.gui.main_window import error_message

            self.compare.show_message(error_message(result.error))
            return
        key, ta, tb = result.value
        self._compare_for = key
        self.compare.show_pair(ta, tb, self.state.selected_head, self.state.selected_cell)
        self.compare.rendered.emit()
        if key != (self.state.config, self.compare.config_b(self.state.config)):
            self._compare_if_visible()  # something changed meanwhile

    # -- sessions ------------------------------------------------------------------------
    def current_session(self) -> Session:
        s = self.state
        return Session(
            s.config,
            s.selected_head,
            s.selected_cell,
            s.grid_stage,
            self.current_theme(),
            self.current_language(),
        )

    def open_session(self, path: str | Path, interactive: bool = False) -> bool:
        """Load a session; on a bad file show why (banner, and a message box when interactive)
        and leave everything as it was."""
        try:
            session = load_session(path)
        except SessionError as exc:
            self.session_message = translate("LessonToolsMixin", "Cannot open the session: {0}").format(exc)
            self.show_error(self.session_message)
            if interactive:
                QtWidgets.QMessageBox.warning(
                    self, translate("LessonToolsMixin", "Open session"), self.session_message
                )
            return False
        s = self.state
        s.set_config(session.config)
        s.select_head(session.selected_head)
        s.select_cell(session.selected_cell)
        if session.stage in GRID_STAGES:
            s.set_grid_stage(session.stage)
        self._apply_look(session.theme, session.language)
        self.session_path = str(path)
        self.session_message = translate("LessonToolsMixin", "Opened {0}").format(Path(path).name)
        self.prefs.add_recent(path)
        self._fill_recent()
        self.banner.setVisible(False)
        self.statusBar().showMessage(self.session_message, 5000)
        self._session_title()
        return True

    def save_session(self, path: str | Path, interactive: bool = False) -> bool:
        try:
            save_session(path, self.current_session())
        except OSError as exc:
            self.session_message = translate("LessonToolsMixin", "Cannot save the session: {0}").format(
                exc.strerror or exc
            )
            self.show_error(self.session_message)
            if interactive:
                QtWidgets.QMessageBox.warning(
                    self, translate("LessonToolsMixin", "Save session"), self.session_message
                )
            return False
        self.session_path = str(path)
        self.session_message = translate("LessonToolsMixin", "Saved {0}").format(Path(path).name)
        self.prefs.add_recent(path)
        self._fill_recent()
        self.statusBar().showMessage(self.session_message, 5000)
        self._session_title()
        return True

    def _session_title(self) -> None:
        name = Path(self.session_path).name if self.session_path else None
        self.setWindowTitle(f"{name} — Attention Explorer" if name else "Attention Explorer")

    def open_session_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self,
            translate("LessonToolsMixin", "Open session"),
            "",
            translate("LessonToolsMixin", SESSION_FILTER),
        )
        if path:
            self.open_session(path, interactive=True)

    def save_session_action(self) -> None:
        if self.session_path:
            self.save_session(self.session_path, interactive=True)
        else:
            self.save_session_dialog()

    def save_session_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self,
            translate("LessonToolsMixin", "Save session"),
            "lesson.aexp.json",
            translate("LessonToolsMixin", SESSION_FILTER),
        )
        if path:
            if not path.lower().endswith(".json"):
                path += ".aexp.json"
            self.save_session(path, interactive=True)

    # -- export --------------------------------------------------------------------------------
    def export_panels(self) -> dict[str, tuple[str, object]]:
        """name -> (label, PlotItem or QWidget) of every panel that can be exported."""
        panels = {
            "pipeline": (
                translate("LessonToolsMixin", "Pipeline: every stage of the head"),
                self.pipeline.graphics,
            )
        }
        for name, hm in self.pipeline.maps.items():
            panels[f"pipeline:{name}"] = (
                translate("LessonToolsMixin", "Pipeline stage: {0}").format(name),
                hm.plot,
            )
        panels["heads"] = (translate("LessonToolsMixin", "All heads"), self.heads.graphics)
        panels["overview"] = (translate("LessonToolsMixin", "Model overview"), self.overview)
        panels["compare"] = (translate("LessonToolsMixin", "Compare: A, B and B − A"), self.compare.graphics)
        for name, hm in self.compare.maps.items():
            panels[f"compare:{name}"] = (translate("LessonToolsMixin", "Compare: {0}").format(name), hm.plot)
        panels["worked"] = (translate("LessonToolsMixin", "Worked arithmetic"), self.worked.view)
        return panels

    def _current_panel(self) -> str:
        index = self.tabs.currentIndex()
        return {0: "pipeline", 1: "heads", 2: "overview", self.tab_compare: "compare"}.get(index, "pipeline")

    def _panel_target(self, name: str):
        panels = self.export_panels()
        if name not in panels:
            raise KeyError(name)
        tab_of = {"pipeline": 0, "heads": 1, "compare": self.tab_compare}
        tab = tab_of.get(name.split(":")[0])
        if tab is not None and self.tabs.currentIndex() != tab:
            self.tabs.setCurrentIndex(tab)  # draws it with the current trace
        return panels[name][1]

    def _export_done(self, message: str | None, what: str) -> str | None:
        self.export_message = message or translate("LessonToolsMixin", "Exported {0}").format(what)
        if message:
            self.show_error(message)
        else:
            self.statusBar().showMessage(self.export_message, 5000)
        return message

    def export_panel(self, name: str, path: str | Path, fmt: str | None = None) -> str | None:
        """Write one panel as PNG or SVG (by ``fmt`` or the file suffix); returns an error or None."""
        fmt = (fmt or Path(path).suffix.lstrip(".")).lower()
        try:
            target = self._panel_target(name)
            if fmt == "png":
                image_export.save_png(target, path)
            elif fmt == "svg":
                image_export.save_svg(target, path)
            else:
                raise ValueError(translate("LessonToolsMixin", "{0}: choose PNG or SVG").format(path))
        except (OSError, ValueError, KeyError) as exc:
            return self._export_done(translate("LessonToolsMixin", "Export failed: {0}").format(exc), path)
        return self._export_done(None, Path(path).name)

    def export_window(self, path: str | Path) -> str | None:
        image = self.grab().toImage()
        if image.isNull() or not image.save(str(path), "PNG"):
            return self._export_done(
                translate("LessonToolsMixin", "Export failed: cannot write {0}").format(path), path
            )
        return self._export_done(None, Path(path).name)

    def export_data(self, fmt: str, path: str | Path) -> str | None:
        """Every stage of the current trace: csv / npy (into a folder) or json (one file)."""
        if self.trace is None:
            return self._export_done(
                translate("LessonToolsMixin", "Nothing to export yet: no result has been computed"), path
            )
        try:
            data_export.export_data(self.trace, fmt, path)
        except (OSError, ValueError) as exc:
            return self._export_done(translate("LessonToolsMixin", "Export failed: {0}").format(exc), path)
        return self._export_done(None, Path(path).name)

    def copy_panel(self, name: str) -> str | None:
        try:
            target = self if name == "window" else self._panel_target(name)
            image_export.copy_to_clipboard(target)
        except (KeyError, OSError) as exc:
            return self._export_done(translate("LessonToolsMixin", "Copy failed: {0}").format(exc), name)
        return self._export_done(None, translate("LessonToolsMixin", "{0} to the clipboard").format(name))

    def export_dialog(self) -> None:
        image_export.ExportDialog(self).exec()

    def _export_window_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, translate("LessonToolsMixin", "Export the window"), "window.png", "PNG (*.png)"
        )
        if path:
            self.export_window(path if path.lower().endswith(".png") else path + ".png")

    # -- preferences ---------------------------------------------------------------------------
    def restore_geometry(self) -> bool:
        geometry = self.prefs.geometry()
        return bool(geometry is not None and self.restoreGeometry(geometry))

    def save_preferences(self) -> None:
        self.prefs.set_geometry(self.saveGeometry())
        self.prefs.set_theme(self.current_theme())
        self.prefs.set_language(self.current_language())
        self.prefs.sync()
