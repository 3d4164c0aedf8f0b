"""The classroom around the window: presentation mode, the lesson, themes, languages, zoom, keys.

``Classroom(window)`` adds the View menu (presentation mode F11, the lesson and its steps
← →, text size Ctrl+= / Ctrl+-, one stage large, theme, language) and the Help menu (the
keyboard shortcut sheet), and a toolbar with the same controls, so a teacher never needs
a key. Every choice is the ExplorerState's; this class turns the state into the window's
look: the palette, one font size for every widget, the controls and status bar out of the
way in presentation mode (22 px: at 1024×768 nothing is under 20 px), and the lesson dock.
"""

from __future__ import annotations

import re
import sys

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.state import LANGUAGES, THEMES, ZOOM_ONLY_PANELS
from explorer.gui import i18n, theme
from explorer.gui.docks.controls import show_text
from explorer.gui.docks.registry import Dock
from explorer.gui.elided import ElidedCombo
from explorer.gui.i18n import translate
from explorer.gui.key_hint import KeyHint, typing_in
from explorer.gui.views import stages

# Keys that are not menu actions, for the shortcut sheet (the actions list themselves).
OTHER_KEYS = (
    ("0 … 9", QtCore.QT_TRANSLATE_NOOP("Classroom", "Select the head of that number (0 … 9)")),
    (
        "Ctrl+L",
        QtCore.QT_TRANSLATE_NOOP(
            "Classroom", "Edit the sentence (the window opens with the keys on the stage; a click types too)"
        ),
    ),
    ("Ctrl+K", QtCore.QT_TRANSLATE_NOOP("Classroom", "Edit the query")),
    ("Esc", QtCore.QT_TRANSLATE_NOOP("Classroom", "Clear the selected cell")),
    ("Ctrl+Q", QtCore.QT_TRANSLATE_NOOP("Classroom", "Quit")),
    (
        QtCore.QT_TRANSLATE_NOOP("Classroom", "Double-click a panel"),
        QtCore.QT_TRANSLATE_NOOP("Classroom", "Zoom into that stage, or back to every stage"),
    ),
    (
        QtCore.QT_TRANSLATE_NOOP("Classroom", "Ctrl + wheel, drag"),
        QtCore.QT_TRANSLATE_NOOP(
            "Classroom", "Zoom into an attention matrix about the mouse; move the zoomed view"
        ),
    ),
    (
        "+ / − / 0",
        QtCore.QT_TRANSLATE_NOOP("Classroom", "Zoom the matrix in, out, back to the whole matrix"),
    ),
    (
        QtCore.QT_TRANSLATE_NOOP("Classroom", "Shift + arrows"),
        QtCore.QT_TRANSLATE_NOOP("Classroom", "Move the zoomed matrix"),
    ),
)


AHEAD_MS = 300  # this long after a lesson step, the tabs of the steps beside it are built
ZOOMED_TABS = ("pipeline", "board")  # the tabs that show the "Show:" picker's stage


# "退出(&Q)": the mnemonic a translation adds in brackets (the English "&Quit" has it inline)
MNEMONIC = re.compile(r"\s*\(&\w\)")
ARROWS = {"Left": "←", "Right": "→", "Up": "↑", "Down": "↓"}


def key_text(key: QtGui.QKeySequence) -> str:
    """A key as its cap says: "Ctrl+Shift+→", never the translated "右方向" of Qt's native text."""
    text = key.toString(QtGui.QKeySequence.SequenceFormat.PortableText)
    return "+".join(ARROWS.get(part, part) for part in text.split("+")) if text else ""


def _ctx(text: str) -> str:
    return QtCore.QCoreApplication.translate("Classroom", text)


def zoom_choices() -> list[tuple[str | None, tuple[str, ...] | None]]:
    """(lesson title, panel names) for the "Show:" picker: every stage, then each lesson stage."""
    seen, out = set(), [(None, None)]
    for step in STEPS:
        panels = stages.STAGE_PANELS.get(step.stage)
        if panels and panels not in seen:
            seen.add(panels)
            out.append((step.title, panels))
    return out


def step_panels(state) -> tuple[str, ...] | None:
    return stages.STAGE_PANELS.get(STEPS[state.lesson_step].stage)


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
        # the keys whole at any text size (a column sized before the window's font applied
        # cut them to "Ctrl+…"); long actions wrap rather than being cut
        self.table.setTextElideMode(QtCore.Qt.TextElideMode.ElideNone)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table)
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        room = parent.size() if parent is not None else QtCore.QSize(1024, 768)
        self.resize(min(900, room.width() - 40), min(700, room.height() - 40))

    def event(self, event) -> bool:
        # Esc closes the sheet: the window's own Esc (clear the selection) would take it first
        if event.type() == QtCore.QEvent.Type.ShortcutOverride and event.key() == QtCore.Qt.Key.Key_Escape:
            event.accept()
            return True
        return super().event(event)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.table.resizeColumnToContents(0)  # measured in the font it is shown in
        self.table.resizeRowsToContents()

    def keys(self) -> list[str]:
        return [self.table.item(r, 0).text() for r in range(self.table.rowCount())]


class SentenceBar(QtWidgets.QWidget):
    """Presentation mode's inputs, on screen: the sentence (Ctrl+L) and the query (Ctrl+K).
    They show the controls' texts and edit through the controls' fields (one path to the
    state, the same checks), so what the teacher types is what the class sees."""

    def __init__(self, controls, parent=None):
        super().__init__(parent)
        self.controls = controls
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        self.sentence_label = QtWidgets.QLabel()
        self.sentence = QtWidgets.QLineEdit()
        self.query_label = QtWidgets.QLabel()
        self.query = QtWidgets.QLineEdit()
        for label, field, twin, stretch in (
            (self.sentence_label, self.sentence, controls.sentence, 3),
            (self.query_label, self.query, controls.query, 1),
        ):
            field.setMaxLength(twin.maxLength())
            show_text(field, twin.text())
            field.setMinimumWidth(60)
            label.setBuddy(field)
            layout.addWidget(label)
            layout.addWidget(field, stretch)
            field.textEdited.connect(lambda text, twin=twin: show_text(twin, text))
            twin.textChanged.connect(lambda text, field=field: show_text(field, text))
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
        self.retranslate()

    def retranslate(self) -> None:
        self.sentence_label.setText(self.tr("Sentence"))
        self.query_label.setText(self.tr("Query"))
        self.sentence.setToolTip(
            self.tr("The sentence, as the class sees it (Ctrl+L); Enter: back to the stage")
        )
        self.query.setToolTip(
            self.tr("The query, empty for self-attention (Ctrl+K); Enter: back to the stage")
        )
        # whole in the bar's quarter beside the lesson at 1024×768 ("empty: self-attention" elided)
        self.query.setPlaceholderText(self.tr("= sentence"))

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


LESSON_KEYS = "explorer-lesson-keys"  # a widget's property: a tab's own sentence field (lesson_keys)


def lesson_keys(field: QtWidgets.QLineEdit | QtWidgets.QComboBox) -> None:
    """A tab's own sentence field (a lab's, built when its tab is) gets the lesson's keys as
    the window's sentence fields have them (``Classroom.watch_text_field``): Enter and Esc hand
    the keys back to the stage, → at the end of the text and ← at its start step the lesson.
    The classroom starts watching it when it first takes the focus."""
    field.setProperty(LESSON_KEYS, True)


def _within(widget, window) -> bool:
    try:
        return widget.window() is window
    except RuntimeError:  # deleted
        return False


def _vanished(old, window) -> bool:
    """Whether the focus left ``old`` because it was hidden, disabled or deleted (rather
    than by a click, a key or a window switch)."""
    if old is None:
        return False
    try:
        return old.window() is window and not (old.isVisible() and old.isEnabled())
    except RuntimeError:  # deleted: the focus moved on as it went
        return True


class Classroom(QtCore.QObject):
    """Presentation mode, lesson steps, themes, language and text size for one MainWindow."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.state = window.state
        self._before: dict = {}  # what presentation mode changed, to put back when it ends
        self.sheet: ShortcutSheet | None = None
        self._lesson_watched = None  # the lesson panel whose question hands us the keys
        self._ahead = QtCore.QTimer(self, singleShot=True, interval=AHEAD_MS)
        self._step_zoom: tuple[str, ...] | None = None  # the zoom a step's own picture needed
        self._ahead.timeout.connect(self._build_ahead)
        self.key_hint = KeyHint(window)  # under a watched field while it has the keys
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        window.installEventFilter(self)
        for field in (
            window.sentence_bar.sentence,
            window.sentence_bar.query,
            window.controls.sentence,
            window.controls.query,
        ):
            self.watch_text_field(field)
        QtWidgets.QApplication.instance().focusChanged.connect(self._on_focus_changed)
        self.state.subscribe(
            self._on_state, ("theme", "language", "presentation", "zoom", "lesson", "stage_zoom", "tab")
        )
        self._show_zoom_picker()
        self.retranslate()

    # -- actions, menus, toolbar ------------------------------------------------------------------
    def _action(self, slot, keys=(), checkable=False) -> QtGui.QAction:
        action = QtGui.QAction(self.window)
        action.setCheckable(checkable)
        if keys:
            action.setShortcuts([QtGui.QKeySequence(k) for k in keys])
        action.triggered.connect(slot)  # the user's (checked for a checkable one), never setChecked
        self.window.addAction(action)  # the keys work even while the menu bar is hidden
        return action

    def _build_actions(self) -> None:
        s = self.state
        self.act_present = self._action(self.set_presentation, ["F11"], checkable=True)
        self.act_lesson = self._action(s.show_lesson, [], checkable=True)
        self.act_prev = self._action(lambda: self._step_key(-1), ["Left"])
        self.act_next = self._action(lambda: self._step_key(+1), ["Right"])
        self.act_play = self._action(self._toggle_play)
        self.act_zoom_in = self._action(lambda: s.set_text_zoom(s.text_zoom + 1), ["Ctrl+=", "Ctrl++"])
        self.act_zoom_out = self._action(lambda: s.set_text_zoom(s.text_zoom - 1), ["Ctrl+-"])
        self.act_zoom_reset = self._action(lambda: s.set_text_zoom(0), ["Ctrl+0"])
        self.act_shortcuts = self._action(self.show_shortcuts, ["F1"])
        self.theme_group = QtGui.QActionGroup(self.window)
        self.act_themes = {}
        for name in THEMES:
            a = QtGui.QAction(self.window, checkable=True)
            a.setChecked(name == s.theme)
            a.triggered.connect(lambda _=False, n=name: s.set_theme(n))
            self.theme_group.addAction(a)
            self.act_themes[name] = a
        self.language_group = QtGui.QActionGroup(self.window)
        self.act_languages = {}
        for code, native in LANGUAGES.items():
            a = QtGui.QAction(native, self.window, checkable=True)  # each language in its own words
            a.setChecked(code == s.language)
            a.triggered.connect(lambda _=False, c=code: s.set_language(c))
            self.language_group.addAction(a)
            self.act_languages[code] = a

    def _build_menus(self) -> None:
        bar = self.window.menuBar()
        self.view_menu = m = bar.addMenu("")
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
        m.addSeparator()
        for action in self.window.docks.menu_actions():
            m.addAction(action)
        self.help_menu = bar.addMenu("")
        self.help_menu.addAction(self.act_shortcuts)

    def _build_toolbar(self) -> None:
        tb = QtWidgets.QToolBar(self.window)
        tb.setObjectName("ClassroomToolBar")
        tb.setMovable(False)
        tb.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextOnly)
        # presentation mode hides the menu bar (the stage needs the height): its menus are here
        self.menu_button = QtWidgets.QToolButton()
        self.menu_button.setText("☰")
        self.menu_button.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_button.setMenu(QtWidgets.QMenu(self.menu_button))
        self.menu_button.menu().aboutToShow.connect(self._fill_menu_button)
        self.act_menu_button = tb.addWidget(self.menu_button)
        self.act_menu_button.setVisible(False)
        tb.addAction(self.act_present)
        tb.addAction(self.act_lesson)
        tb.addSeparator()
        tb.addAction(self.act_zoom_out)
        tb.addAction(self.act_zoom_in)
        tb.addSeparator()
        self.zoom_label = QtWidgets.QLabel()
        self.zoom_combo = ElidedCombo(min_chars=12)  # a long stage title never widens the window
        self.zoom_combo.activated.connect(self._on_zoom_combo)
        # the stages of the tabs that zoom into them only (on a lab's tab it named a stage the
        # class could not see)
        self.zoom_actions = (tb.addWidget(self.zoom_label), tb.addWidget(self.zoom_combo))
        self.window.addToolBar(QtCore.Qt.ToolBarArea.TopToolBarArea, tb)
        self.toolbar = tb

    def _fill_menu_button(self) -> None:
        menu = self.menu_button.menu()
        menu.clear()
        for action in self.window.menuBar().actions():
            if action.menu() is not None:
                menu.addMenu(action.menu())

    # -- presentation mode ------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.state.presentation

    def set_presentation(self, on: bool, fullscreen: bool = True) -> None:
        """The teacher's switch (F11): besides the state's presentation flag, the values on
        cells, the lesson, the pipeline zoomed into the lesson's stage, and full screen;
        switching off puts back what it changed."""
        on, s, w = bool(on), self.state, self.window
        if on == s.presentation:
            return
        if on:
            self._before = dict(
                values=s.values_on_cells,
                lesson=s.lesson_visible,
                maximized=w.isMaximized(),
                fullscreen=w.isFullScreen(),
            )
            s.set_presentation(True)
            s.set_values_on_cells(True)
            s.show_lesson(True)
            s.set_lesson_step(s.lesson_step)  # the step's own tab and picture, beside its words
            # one stage at a time, large: the zoom then follows the lesson (Show: every stage undoes it)
            s.set_stage_zoom(step_panels(s))
            if fullscreen and not w.isFullScreen():
                w.showFullScreen()
        else:
            before = self._before
            s.set_presentation(False)
            s.set_values_on_cells(before.get("values", False))
            s.set_stage_zoom(None)
            s.show_lesson(before.get("lesson", False))
            if w.isFullScreen() and not before.get("fullscreen"):
                w.showMaximized() if before.get("maximized") else w.showNormal()
            # the ordinary layout (controls dock, status bar) laid out again: never taller or
            # wider than the screen (a 1024×768 projector got an 845 px tall window back)
            QtCore.QTimer.singleShot(
                0, w, lambda: w.isMaximized() or w.resize_within_screen(w.width(), w.height())
            )

    def _apply_presentation(self) -> None:
        """The layout for the mode, designed at 1024×768: the controls, the status bar and the
        menu bar (its menus behind ☰) make room; the sentence stays on screen in a bar; the
        lesson stands beside the stage, which keeps the height a 16-token matrix needs."""
        w, on = self.window, self.state.presentation
        w.statusBar().setVisible(not on)
        w.menuBar().setVisible(not on)
        self.act_menu_button.setVisible(on)
        w.place_inputs()  # the settings column and the sentence bar
        worked = w.docks.widget(Dock.WORKED)
        if on:
            self._before["worked"] = not worked.isHidden()
            worked.setVisible(False)
        elif self._before.pop("worked", False):
            worked.setVisible(True)
        self._place_lesson()
        self._check(self.act_present, on)

    def _fit_text_to_screen(self) -> None:
        """Presentation text in proportion to the window (it fills the projector); the state
        says "zoom" when it changes, and every view restyles."""
        size = self.window.size()
        self.state.set_presentation_px(theme.presentation_px_for(size.width(), size.height()))

    def lesson_width(self) -> int:
        """The lesson column's width in presentation mode: 30 % of the window, 280 to 480 px."""
        return int(min(480, max(280, 0.3 * self.window.width())))

    def _place_lesson(self) -> None:
        w, on = self.window, self.state.presentation
        dock = w.docks.widget(Dock.LESSON)
        area = (
            QtCore.Qt.DockWidgetArea.RightDockWidgetArea if on else QtCore.Qt.DockWidgetArea.TopDockWidgetArea
        )
        if w.dockWidgetArea(dock) != area:
            visible = not dock.isHidden()
            w.addDockWidget(area, dock)
            dock.setVisible(visible)
        panel = w.docks.built(Dock.LESSON)
        if panel is not None:
            panel.set_side(on)
            w.show_notes()
        if on:
            dock.setFixedWidth(self.lesson_width())
        else:
            dock.setMinimumWidth(0)
            dock.setMaximumWidth(16777215)

    def apply_look(self) -> None:
        """Palette and fonts of the whole window for the theme, mode and text size."""
        look = theme.look(self.state)
        theme.apply_palette(look.theme)
        sheet = theme.font_style_sheet(look.widget_px)
        if sheet != self.window.styleSheet():  # a new sheet re-polishes every widget: 80 ms
            self.window.setStyleSheet(sheet)
        px = look.widget_px or theme.platform_font_px()
        font = QtGui.QFont(self.window.font())
        font.setPixelSize(px)
        self.window.strip.fit_height(font)  # its wrapped text needs another height
        self._style_lesson()
        if "pyqtgraph" in sys.modules:  # a tab plots with it: its new plots follow the theme
            from explorer.gui.app_setup import configure_pyqtgraph

            configure_pyqtgraph(look.theme.name)

    def _style_lesson(self) -> None:
        """The lesson's formula a quarter larger than the window's text."""
        lesson = self.window.docks.built(Dock.LESSON)
        if lesson is not None:
            px = theme.look(self.state).widget_px or theme.platform_font_px()
            lesson.formula_label.setStyleSheet(f"font-size: {round(px * 1.25)}px;")

    # -- the state --------------------------------------------------------------------------------
    def _on_state(self, event: str, state) -> None:
        if event == "theme":
            self._check(self.act_themes[state.theme], True)
            self.apply_look()
        elif event == "language":
            if not i18n.set_language(state.language):  # our translation is missing: stay in English
                state.set_language(i18n.current_language())
                return
            self._check(self.act_languages[state.language], True)
        elif event == "presentation":
            if state.presentation:
                self._fit_text_to_screen()
            self._apply_presentation()
            self.apply_look()
        elif event == "zoom":
            self.apply_look()
        elif event == "lesson":
            self._on_lesson()
        elif event == "stage_zoom":
            self._show_stage_zoom()
        elif event == "tab":
            self._show_zoom_picker()
        if event in ("presentation", "lesson") and self.key_hint.field is not None:
            self._show_key_hint(self.key_hint.field)  # its words (or none) for the mode now

    def _on_lesson(self) -> None:
        s = self.state
        self.window.docks.set_visible(Dock.LESSON, s.lesson_visible)
        self._check(self.act_lesson, s.lesson_visible)
        if not s.lesson_visible:
            self._leave_step_zoom()
            return
        if self._lesson_watched is not self.lesson:  # built just now
            self._lesson_watched = self.lesson
            self.lesson.question.letting_go.connect(self.focus_stage)
        self.window.show_notes()  # a panel built just now shows the result's notes too
        self._style_lesson()  # a panel built just now: its formula's size
        s.set_tab(STEPS[s.lesson_step].tab)  # the step's own tab (a lab's step is on its tab)
        self._ahead.start()  # the tabs of the steps beside it built while the teacher talks
        panels = step_panels(s)
        zoom_only = bool(panels) and bool(set(panels) & set(ZOOM_ONLY_PANELS))
        if zoom_only and not s.stage_zoom and not s.presentation:
            # a picture only a zoom shows (the split into heads): with every stage framed the
            # step showed Q alone, step 3's picture (trial 10); the next step undoes the zoom
            self._step_zoom = panels
            s.set_stage_zoom(panels)
            return
        if panels and not zoom_only and self._leave_step_zoom():
            return
        if s.stage_zoom and panels:  # a zoomed view follows the lesson; a lab's step (its own
            s.set_stage_zoom(panels)  # tab) leaves it be, for the way back

    def _leave_step_zoom(self) -> bool:
        """Every stage again if the zoom on show is the one a step's own picture made (one
        the teacher chose stays); says whether it undid one."""
        zoom, self._step_zoom = self._step_zoom, None
        if zoom is None or self.state.stage_zoom != zoom or self.state.presentation:
            return False
        self.state.set_stage_zoom(None)
        return True

    @staticmethod
    def _check(action: QtGui.QAction, on: bool) -> None:
        action.setChecked(on)  # says nothing back: the actions listen to triggered only

    # -- the lesson ------------------------------------------------------------------------------
    @property
    def lesson(self):
        """The lesson panel (built when first needed)."""
        return self.window.docks.content(Dock.LESSON)

    def show_lesson(self, on: bool = True) -> None:
        self.state.show_lesson(on)

    def _toggle_play(self) -> None:
        self.lesson.set_playing(not self.lesson.timer.isActive())

    def _step_key(self, delta: int) -> None:
        focus = QtWidgets.QApplication.focusWidget()
        if isinstance(focus, QtWidgets.QAbstractSlider):  # arrows keep moving a slider
            focus.triggerAction(
                QtWidgets.QAbstractSlider.SliderAction.SliderSingleStepAdd
                if delta > 0
                else QtWidgets.QAbstractSlider.SliderAction.SliderSingleStepSub
            )
            return
        if not self.state.lesson_visible:
            self.state.show_lesson(True)
            return
        self.state.step_lesson(delta)

    def _build_ahead(self) -> None:
        """The tabs of the steps either side of this one, built a piece a turn (their keys
        then only show them)."""
        s = self.state
        if not s.lesson_visible:
            return
        steps = s.lesson_steps()
        at = steps.index(s.lesson_step) if s.lesson_step in steps else 0
        for position in (at + 1, at - 1):
            if 0 <= position < len(steps):
                self.window.tabs.prepare(STEPS[steps[position]].tab)

    def current_stage(self) -> str:
        return STEPS[self.state.lesson_step].stage

    # -- one stage large -------------------------------------------------------------------------
    def _show_zoom_picker(self) -> None:
        for action in self.zoom_actions:
            action.setVisible(self.state.tab in ZOOMED_TABS)

    def _on_zoom_combo(self, index: int) -> None:
        data = self.zoom_combo.itemData(index) or ""
        self.state.set_stage_zoom(tuple(data.split(",")) if data else None)

    def _show_stage_zoom(self) -> None:
        names = self.state.stage_zoom
        index = self.zoom_combo.findData(",".join(names)) if names else 0
        self.zoom_combo.setCurrentIndex(max(index, 0))

    # -- language -----------------------------------------------------------------------------------
    def eventFilter(self, obj, event):
        if obj is self.window:
            if event.type() == QtCore.QEvent.Type.LanguageChange:
                self.retranslate()
            elif event.type() == QtCore.QEvent.Type.Resize:
                if self.state.presentation:
                    self.window.docks.widget(Dock.LESSON).setFixedWidth(self.lesson_width())
                    self._fit_text_to_screen()
                QtCore.QTimer.singleShot(0, self.key_hint, self.key_hint.place)  # once laid out
            return False
        if event.type() == QtCore.QEvent.Type.KeyPress:
            if isinstance(obj, QtWidgets.QLineEdit):
                return self._text_key(obj, event)
            if isinstance(obj, QtWidgets.QComboBox) and obj.lineEdit() is not None:
                # an editable combo takes the keys itself and hands them to its line edit
                # directly (QComboBox::keyPressEvent), past any filter on the line edit
                return self._text_key(obj.lineEdit(), event)
        return False

    # -- keys while typing -------------------------------------------------------------------------
    def watch_text_field(self, field: QtWidgets.QLineEdit | QtWidgets.QComboBox) -> None:
        """The lesson's keys while a sentence or query field has the focus: → at the end of
        the text and ← at its start step the lesson (the cursor cannot go further anyway);
        Enter and Esc hand the keys back to the stage. An editable combo box (a lab's sentence
        box) is watched itself: it holds the focus for its line edit."""
        field.installEventFilter(self)  # installed again, it stays one filter

    def _text_key(self, field: QtWidgets.QLineEdit, event) -> bool:
        key, mods = event.key(), event.modifiers() & ~QtCore.Qt.KeyboardModifier.KeypadModifier
        if key in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter, QtCore.Qt.Key.Key_Escape):
            self.focus_stage()
            return key == QtCore.Qt.Key.Key_Escape
        if mods != QtCore.Qt.KeyboardModifier.NoModifier or field.hasSelectedText():
            return False
        if not self.state.lesson_visible:
            return False
        at_end = field.cursorPosition() == len(field.text())
        if key == QtCore.Qt.Key.Key_Right and at_end:
            self.act_next.trigger()
            return True
        if key == QtCore.Qt.Key.Key_Left and field.cursorPosition() == 0:
            self.act_prev.trigger()
            return True
        return False

    def _on_focus_changed(self, old, new) -> None:
        """The keyboard stays with the stage when the widget holding it goes away: a button
        the lesson hides (a question's answer, on the next step), one that disables itself
        (Train) or a page a tab switch hides. Qt then hands the focus on along the tab chain,
        often to a text field with its text selected, where → moves the cursor and the next
        key replaces the sentence; only a click, Tab or Ctrl+L / Ctrl+K puts it there."""
        if new is not None and new.property(LESSON_KEYS) and _within(new, self.window):
            self.watch_text_field(new)  # a tab's own sentence field (lesson_keys), built late
        self._show_key_hint(new)
        if new is None or not _within(new, self.window) or not _vanished(old, self.window):
            return
        self.focus_stage()

    def _show_key_hint(self, field) -> None:
        """Under the field that has the keys, in a lesson or on a projector, how to give them
        back (the status bar that said so is hidden in presentation mode)."""
        s = self.state
        if not typing_in(field) or not _within(field, self.window):
            self.key_hint.dismiss()
        elif s.lesson_visible:
            self.key_hint.show_under(field, self.tr("Esc: the keys back to the lesson (→ next step)"))
        elif s.presentation:
            self.key_hint.show_under(field, self.tr("Esc: the keys back to the stage (0 … 9 pick heads)"))
        else:
            self.key_hint.dismiss()

    def focus_stage(self) -> None:
        """The keyboard to the tabs: → and ← step the lesson, 0 … 9 pick heads."""
        self.window.tabs.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)

    def retranslate(self) -> None:
        if self.key_hint.field is not None:
            self._show_key_hint(self.key_hint.field)
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
        self.zoom_combo.clear()
        for title, panels in zoom_choices():
            label = self.tr("Every stage") if panels is None else translate("Lesson", title)
            self.zoom_combo.addItem(label, ",".join(panels) if panels else "")
        self._show_stage_zoom()
        if self.sheet is not None:
            self.sheet.close()
            self.sheet = None

    # -- the shortcut sheet --------------------------------------------------------------------------
    def shortcut_rows(self) -> list[tuple[str, str]]:
        """(keys, action): one row per key, the keys as written on a keyboard."""
        rows, seen = [], set()
        for action in self.window.findChildren(QtGui.QAction):
            keys = [key_text(k) for k in action.shortcuts()]
            keys = [k for k in keys if k]
            text = MNEMONIC.sub("", action.text()).replace("&", "")
            if not keys or not text or tuple(keys) in seen:  # a menu's and a toolbar's Quit: one row
                continue
            seen.add(tuple(keys))
            rows.append((" / ".join(keys), text))
        rows += [(_ctx(k), _ctx(t)) for k, t in OTHER_KEYS if (_ctx(k),) not in seen]
        return rows

    def show_shortcuts(self) -> ShortcutSheet:
        if self.sheet is not None:
            self.sheet.close()
        self.sheet = ShortcutSheet(self.shortcut_rows(), self.window)
        self.sheet.show()
        return self.sheet
