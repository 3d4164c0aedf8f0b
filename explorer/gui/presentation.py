"""The classroom around the window: presentation mode, the lesson, themes, languages, keys.

``Classroom(window)`` adds to a MainWindow, without the window knowing the details:

- the View menu (presentation mode F11, the lesson and its steps ← →, zoom Ctrl+= / Ctrl+-,
  zoom into one stage, theme, language) and the Help menu (the keyboard shortcut sheet);
- a toolbar with the same controls, so a teacher never needs a key;
- presentation mode: full screen, one large font for every widget (22 px: at 1024×768
  nothing is under 20 px), the plots' ticks, titles and cell values at the same size,
  values printed in every cell large enough to hold them, taller rows in two columns,
  the controls and status bar out of the way, and the lesson panel shown;
- the step-through lesson panel, which highlights the current stage's panels.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.gui import i18n
from explorer.gui import theme as themes
from explorer.gui.lesson_panel import LessonPanel
from explorer.gui.pipeline_view import LAYOUT, STAGE_PANELS

ZOOM_STEP_PX = 2
ZOOM_MIN, ZOOM_MAX = -3, 12
PRESENTATION_ROW_PX = 17  # row height of the pipeline in presentation mode, in font sizes

# Keys that are not menu actions, for the shortcut sheet (the actions list themselves).
OTHER_KEYS = (
    ("1 … 9", QtCore.QT_TRANSLATE_NOOP("Classroom", "Select head 0 … 8")),
    ("Ctrl+L", QtCore.QT_TRANSLATE_NOOP("Classroom", "Edit the sentence")),
    ("Ctrl+K", QtCore.QT_TRANSLATE_NOOP("Classroom", "Edit the query")),
    ("Esc", QtCore.QT_TRANSLATE_NOOP("Classroom", "Clear the selected cell")),
    ("Ctrl+Q", QtCore.QT_TRANSLATE_NOOP("Classroom", "Quit")),
    (
        QtCore.QT_TRANSLATE_NOOP("Classroom", "Double-click a panel"),
        QtCore.QT_TRANSLATE_NOOP("Classroom", "Zoom into that stage, or back to every stage"),
    ),
)


def _ctx(text: str) -> str:
    return QtCore.QCoreApplication.translate("Classroom", text)


def zoom_choices() -> list[tuple[str, tuple[str, ...] | None]]:
    """(label, panel names) for the "Zoom into" picker: every stage, then each lesson stage."""
    names = [n for row in LAYOUT for n in row]
    seen, out = set(), [(None, None)]
    for step in STEPS:
        panels = STAGE_PANELS.get(step.stage)
        if panels and panels not in seen and all(p in names for p in panels):
            seen.add(panels)
            out.append((step.title, panels))
    return out


class ShortcutSheet(QtWidgets.QDialog):
    """Help > Keyboard shortcuts: every key of the window in a two-column table."""

    def __init__(self, rows: list[tuple[str, str]], parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        layout = QtWidgets.QVBoxLayout(self)
        self.table = QtWidgets.QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels([self.tr("Key"), self.tr("Action")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        for r, (key, text) in enumerate(rows):
            self.table.setItem(r, 0, QtWidgets.QTableWidgetItem(key))
            self.table.setItem(r, 1, QtWidgets.QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table)
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(640, 560)

    def keys(self) -> list[str]:
        return [self.table.item(r, 0).text() for r in range(self.table.rowCount())]


class Classroom(QtCore.QObject):
    """Presentation mode, lesson steps, themes, language and zoom for one MainWindow."""

    presentationChanged = QtCore.Signal(bool)

    def __init__(self, window: QtWidgets.QMainWindow):
        super().__init__(window)
        self.window = window
        self.active = False
        self.theme_name = themes.DEFAULT_THEME
        self.zoom_level = 0
        self._styled = False
        self._restore: dict = {}
        self.sheet: ShortcutSheet | None = None
        themes.ensure_cjk_fallback()

        # the lesson panel, above the tabs
        self.lesson = LessonPanel()
        self.lesson.setVisible(False)
        self.lesson.stepChanged.connect(self._on_step)
        tabs = window.tabs
        host = tabs.parentWidget().layout()
        host.insertWidget(host.indexOf(tabs), self.lesson)
        window.pipeline.zoomChanged.connect(self._on_zoom_changed)

        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        window.installEventFilter(self)
        self.retranslate()

    # -- actions, menus, toolbar ---------------------------------------------------------------
    def _action(self, slot, keys=(), checkable=False) -> QtGui.QAction:
        action = QtGui.QAction(self.window)
        action.setCheckable(checkable)
        if keys:
            action.setShortcuts([QtGui.QKeySequence(k) for k in keys])
        (action.toggled if checkable else action.triggered).connect(slot)
        self.window.addAction(action)  # the keys work even while the menu bar is hidden
        return action

    def _build_actions(self) -> None:
        self.act_present = self._action(self.set_presentation, ["F11"], checkable=True)
        self.act_lesson = self._action(self.show_lesson, [], checkable=True)
        self.act_prev = self._action(lambda: self._step_key(-1), ["Left"])
        self.act_next = self._action(lambda: self._step_key(+1), ["Right"])
        self.act_play = self._action(lambda: self.lesson.set_playing(not self.lesson.timer.isActive()))
        self.act_zoom_in = self._action(self.zoom_in, ["Ctrl+=", "Ctrl++"])
        self.act_zoom_out = self._action(self.zoom_out, ["Ctrl+-"])
        self.act_zoom_reset = self._action(self.zoom_reset, ["Ctrl+0"])
        self.act_shortcuts = self._action(self.show_shortcuts, ["F1"])
        self.theme_group = QtGui.QActionGroup(self.window)
        self.act_themes = {}
        for name in themes.THEMES:
            a = QtGui.QAction(self.window, checkable=True)
            a.setChecked(name == self.theme_name)
            a.triggered.connect(lambda _=False, n=name: self.set_theme(n))
            self.theme_group.addAction(a)
            self.act_themes[name] = a
        self.language_group = QtGui.QActionGroup(self.window)
        self.act_languages = {}
        for code, native in i18n.LANGUAGES.items():
            a = QtGui.QAction(native, self.window, checkable=True)  # each language in its own words
            a.setChecked(code == i18n.current_language())
            a.triggered.connect(lambda _=False, c=code: self.set_language(c))
            self.language_group.addAction(a)
            self.act_languages[code] = a

    def _build_menus(self) -> None:
        bar = self.window.menuBar()
        self.view_menu = bar.addMenu("")
        m = self.view_menu
        m.addAction(self.act_present)
        m.addSeparator()
        m.addAction(self.act_lesson)
        m.addAction(self.act_prev)
        m.addAction(self.act_next)
        m.addAction(self.act_play)
        m.addSeparator()
        m.addAction(self.act_zoom_in)
        m.addAction(self.act_zoom_out)
        m.addAction(self.act_zoom_reset)
        self.theme_menu = m.addMenu("")
        for a in self.act_themes.values():
            self.theme_menu.addAction(a)
        self.language_menu = m.addMenu("")
        for a in self.act_languages.values():
            self.language_menu.addAction(a)
        self.help_menu = bar.addMenu("")
        self.help_menu.addAction(self.act_shortcuts)

    def _build_toolbar(self) -> None:
        tb = QtWidgets.QToolBar(self.window)
        tb.setObjectName("ClassroomToolBar")
        tb.setMovable(False)
        tb.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextOnly)
        tb.addAction(self.act_present)
        tb.addAction(self.act_lesson)
        tb.addSeparator()
        tb.addAction(self.act_zoom_out)
        tb.addAction(self.act_zoom_in)
        tb.addSeparator()
        self.zoom_label = QtWidgets.QLabel()
        self.zoom_combo = QtWidgets.QComboBox()
        self.zoom_combo.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.zoom_combo.activated.connect(self._on_zoom_combo)
        tb.addWidget(self.zoom_label)
        tb.addWidget(self.zoom_combo)
        self.toolbar = tb
        self.window.addToolBar(QtCore.Qt.ToolBarArea.TopToolBarArea, tb)

    # -- presentation mode --------------------------------------------------------------------
    def font_px(self) -> int:
        base = themes.PRESENTATION_FONT_PX if self.active else themes.font_px_for(0)
        return max(8, base + ZOOM_STEP_PX * self.zoom_level)

    def toggle_presentation(self) -> None:
        self.set_presentation(not self.active)

    def set_presentation(self, on: bool, fullscreen: bool = True) -> None:
        on = bool(on)
        w = self.window
        if on == self.active:
            return
        self.active = on
        side = w.centralWidget().widget(0) if isinstance(w.centralWidget(), QtWidgets.QSplitter) else None
        if on:
            self._restore = dict(
                maximized=w.isMaximized(),
                fullscreen=w.isFullScreen(),
                values=w.pipeline.values_box.isChecked(),
                lesson=self.lesson.isVisible(),
                side=side.isVisible() if side is not None else True,
            )
            if side is not None:
                side.setVisible(False)
            dock = getattr(w, "worked_dock", None)  # the stage needs the whole width on a projector
            self._restore["worked"] = dock is not None and not dock.isHidden()
            if dock is not None:
                dock.setVisible(False)
            w.statusBar().setVisible(False)
            w.pipeline.values_box.setChecked(True)
            self.show_lesson(True)
            w.tabs.setCurrentIndex(0)
            # one stage at a time, large: the zoom then follows the lesson (Show: every stage undoes it)
            w.pipeline.set_zoom(STAGE_PANELS.get(self.current_stage()))
            if fullscreen and not w.isFullScreen():
                w.showFullScreen()
        else:
            r = self._restore
            if side is not None:
                side.setVisible(r.get("side", True))
            w.statusBar().setVisible(True)
            if r.get("worked") and getattr(w, "worked_dock", None) is not None:
                w.worked_dock.setVisible(True)
            w.pipeline.values_box.setChecked(r.get("values", False))
            w.pipeline.set_zoom(None)
            self.show_lesson(r.get("lesson", False))
            if w.isFullScreen() and not r.get("fullscreen"):
                w.showMaximized() if r.get("maximized") else w.showNormal()
        self.act_present.blockSignals(True)
        self.act_present.setChecked(on)
        self.act_present.blockSignals(False)
        self.apply_style()
        self.presentationChanged.emit(on)

    def zoom_in(self) -> None:
        self.zoom_level = min(ZOOM_MAX, self.zoom_level + 1)
        self.apply_style()

    def zoom_out(self) -> None:
        self.zoom_level = max(ZOOM_MIN, self.zoom_level - 1)
        self.apply_style()

    def zoom_reset(self) -> None:
        self.zoom_level = 0
        self.apply_style()

    def set_theme(self, name: str) -> None:
        self.theme_name = themes.theme(name).name
        self.act_themes[self.theme_name].setChecked(True)
        self._styled = True
        self.apply_style()

    def apply_style(self) -> None:
        """Fonts and colours of the whole window for the mode, zoom and theme."""
        w = self.window
        t = themes.apply_theme(self.theme_name)
        custom = self.active or self.zoom_level != 0
        px = self.font_px()
        w.setStyleSheet(themes.font_style_sheet(px) if custom else "")
        self.lesson.set_accent(t.accent)
        self.lesson.formula_label.setStyleSheet(
            f"font-size: {round(px * 1.25)}px;" if custom else "font-size: 15px;"
        )
        if not (custom or self._styled):
            return  # the window keeps its own plot sizes until anything is changed
        self._styled = True
        row = round(px * PRESENTATION_ROW_PX) if self.active else None
        w.pipeline.set_style(px, t, row_height=row, wide_columns=2 if self.active else 4)
        for view in (w.heads, w.overview):
            if hasattr(view, "set_style"):
                view.set_style(px, t)

    # -- the lesson ------------------------------------------------------------------------------
    def show_lesson(self, on: bool = True) -> None:
        self.lesson.setVisible(bool(on))
        self.act_lesson.blockSignals(True)
        self.act_lesson.setChecked(bool(on))
        self.act_lesson.blockSignals(False)
        self._on_step(self.lesson.index) if on else self.window.pipeline.set_highlight(())

    def _step_key(self, delta: int) -> None:
        focus = QtWidgets.QApplication.focusWidget()
        if isinstance(focus, QtWidgets.QAbstractSlider):  # arrows keep moving a slider
            focus.triggerAction(
                QtWidgets.QAbstractSlider.SliderAction.SliderSingleStepAdd
                if delta > 0
                else QtWidgets.QAbstractSlider.SliderAction.SliderSingleStepSub
            )
            return
        if not self.lesson.isVisible():
            self.show_lesson(True)
            return
        self.lesson.go(self.lesson.index + delta)

    def _on_step(self, index: int) -> None:
        w = self.window
        panels = STAGE_PANELS.get(STEPS[index].stage, ())
        if w.tabs.currentIndex() != 0:
            w.tabs.setCurrentIndex(0)
        if w.pipeline.zoom:
            w.pipeline.set_zoom(panels)  # a zoomed view follows the lesson
        w.pipeline.set_highlight(panels)

    def current_stage(self) -> str:
        return STEPS[self.lesson.index].stage

    # -- zoom into a stage ---------------------------------------------------------------------
    def _on_zoom_combo(self, index: int) -> None:
        data = self.zoom_combo.itemData(index) or ""
        self.window.pipeline.set_zoom(tuple(data.split(",")) if data else None)

    def _on_zoom_changed(self, names) -> None:
        index = self.zoom_combo.findData(",".join(names)) if names else 0
        self.zoom_combo.setCurrentIndex(max(index, 0))

    # -- language ------------------------------------------------------------------------------
    def set_language(self, code: str) -> None:
        i18n.set_language(code)
        self.act_languages[i18n.current_language()].setChecked(True)

    def eventFilter(self, obj, event):  # noqa: N802
        if obj is self.window and event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        return False

    def retranslate(self) -> None:
        self.view_menu.setTitle(self.tr("&View"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.theme_menu.setTitle(self.tr("Theme"))
        self.language_menu.setTitle(self.tr("Language"))
        self.act_present.setText(self.tr("Presentation mode"))
        self.act_present.setIconText(self.tr("Presentation"))
        self.act_present.setToolTip(
            self.tr("Full screen, large fonts and values in the cells, for a projector (F11)")
        )
        self.act_lesson.setText(self.tr("Lesson steps"))
        self.act_lesson.setIconText(self.tr("Lesson"))
        self.act_lesson.setToolTip(self.tr("Walk the stages one at a time with ← and →"))
        self.act_prev.setText(self.tr("Previous stage"))
        self.act_next.setText(self.tr("Next stage"))
        self.act_play.setText(self.tr("Play / pause the lesson"))
        self.act_zoom_in.setText(self.tr("Larger text"))
        self.act_zoom_in.setIconText("A+")
        self.act_zoom_in.setToolTip(self.tr("Larger text and plots (Ctrl+=)"))
        self.act_zoom_out.setText(self.tr("Smaller text"))
        self.act_zoom_out.setIconText("A−")
        self.act_zoom_out.setToolTip(self.tr("Smaller text and plots (Ctrl+-)"))
        self.act_zoom_reset.setText(self.tr("Normal text size"))
        self.act_shortcuts.setText(self.tr("Keyboard shortcuts"))
        self.act_themes["light"].setText(self.tr("Light (high contrast)"))
        self.act_themes["dark"].setText(self.tr("Dark"))
        self.toolbar.setWindowTitle(self.tr("Classroom"))
        self.zoom_label.setText(self.tr("Show:") + " ")
        self.zoom_combo.setToolTip(self.tr("Show one stage large, or every stage (or double-click a panel)"))
        current = self.window.pipeline.zoom
        self.zoom_combo.clear()
        for title, panels in zoom_choices():
            label = (
                self.tr("Every stage")
                if panels is None
                else QtCore.QCoreApplication.translate("Lesson", title)
            )
            self.zoom_combo.addItem(label, ",".join(panels) if panels else "")
        self._on_zoom_changed(current)
        if hasattr(self.window, "retranslate"):
            self.window.retranslate()
        if self.sheet is not None:
            self.sheet.close()
            self.sheet = None

    # -- the shortcut sheet ----------------------------------------------------------------------
    def shortcut_rows(self) -> list[tuple[str, str]]:
        rows, seen = [], set()
        for action in self.window.findChildren(QtGui.QAction):
            keys = [k.toString(QtGui.QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()]
            keys = [k for k in keys if k]
            text = action.text().replace("&", "")
            if not keys or not text or (tuple(keys), text) in seen:
                continue
            seen.add((tuple(keys), text))
            rows.append((" / ".join(keys), text))
        rows += [(_ctx(k), _ctx(t)) for k, t in OTHER_KEYS]
        return rows

    def show_shortcuts(self) -> ShortcutSheet:
        if self.sheet is not None:
            self.sheet.close()
        self.sheet = ShortcutSheet(self.shortcut_rows(), self.window)
        self.sheet.show()
        return self.sheet
