"""The step-through lesson: one stage at a time, its formula and explanation.

← and → (or the buttons) walk the steps of the track the teacher picked (every track's,
``explorer.appstate.lesson.TRACKS``, by default) in order; Play advances by itself at the
chosen speed. The step and the track are the ExplorerState's ``lesson_step`` and
``lesson_track``: the panel shows them and sets them, and the pipeline highlights that
stage's panels from the same state.
Texts are shown in the interface language (``QCoreApplication.translate("Lesson", …)``).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import ALL_TRACKS, STEPS, TRACKS, step_explanation
from explorer.appstate.lesson_decoder import DECODER_SETUPS, apply_setup
from explorer.appstate.lesson_step import LESSON_CONTEXT
from explorer.gui import theme
from explorer.gui.docks.fit_text import fitting_px
from explorer.gui.docks.question import QuestionPanel
from explorer.gui.elided import ElidedCombo, WrappedLabel

SPEEDS_S = (8, 5, 3)  # slow, normal, fast: seconds a step


def lesson_text(text: str) -> str:
    return QtCore.QCoreApplication.translate(LESSON_CONTEXT, text)


class LessonPanel(QtWidgets.QFrame):
    """The step's title, formula and explanation with ◀ ▶ and Play. Across the top of the
    window normally; in presentation mode a column beside the stage (the stage keeps the
    height a matrix of 16 tokens needs at 1024×768), which also shows the result's notes."""

    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.state = context.state
        self.context = context
        self.setObjectName("LessonPanel")
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.back_button = QtWidgets.QPushButton("◀")
        self.next_button = QtWidgets.QPushButton("▶")
        self.play_button = QtWidgets.QPushButton()
        self.play_button.setCheckable(True)
        self.speed = ElidedCombo(min_chars=6)
        for _ in SPEEDS_S:  # slow, normal, fast: worded in retranslate
            self.speed.addItem("")
        self.speed.setCurrentIndex(1)
        self.track = ElidedCombo(min_chars=8)  # which track the lesson walks
        for track_id in (ALL_TRACKS, *(t.id for t in TRACKS)):
            self.track.addItem("", track_id)
        self.step_label = QtWidgets.QLabel()
        self.title_label = WrappedLabel()
        self.formula_label = WrappedLabel()
        self.formula_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.explanation_label = QtWidgets.QLabel()
        self.explanation_label.setWordWrap(True)
        self.explanation_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # <s> is a token, not HTML
        self.explanation_label.setAlignment(
            QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft
        )
        self.notes_label = QtWidgets.QLabel()  # the result's notes, beside the stage (presentation)
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.notes_label.setObjectName("LessonNotes")
        self.notes_label.setVisible(False)
        # what the lesson adds below the explanation (questions, answers) goes in here
        self.extras = QtWidgets.QWidget()
        extras = QtWidgets.QVBoxLayout(self.extras)
        extras.setContentsMargins(0, 0, 0, 0)
        self.question = QuestionPanel(context)  # predict, then reveal (docks/question.py)
        extras.addWidget(self.question)  # its on/off box sits with the step buttons (set_side)
        self.body = QtWidgets.QWidget()
        body = QtWidgets.QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(6)
        for w in (self.explanation_label, self.notes_label, self.extras):
            body.addWidget(w)
        body.addStretch(1)
        self.body_scroll = QtWidgets.QScrollArea(self)
        self.body_scroll.setWidgetResizable(True)
        self.body_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.body_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._band_floor, self._band_width = 0, -1  # the band's height so far, at that width
        self._fit_timer = QtCore.QTimer(self, singleShot=True, interval=0)  # once laid out
        self._fit_timer.timeout.connect(self._fit_explanation)
        self.body.installEventFilter(self)
        self.body_scroll.viewport().installEventFilter(self)
        self.grid = QtWidgets.QGridLayout(self)
        self.grid.setContentsMargins(8, 4, 8, 4)
        self.grid.setSpacing(4)
        self.side: bool | None = None
        self._notes: list[str] = []
        self.set_side(self.state.presentation)
        self._set_up: str | None = None  # the step whose setup was applied last
        self._before_setups: tuple | None = None  # config, head, cell before a language model's steps
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.back_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.play_button.toggled.connect(self.set_playing)
        self.speed.currentIndexChanged.connect(self._on_speed)
        self.track.activated.connect(lambda i: self.state.set_lesson_track(self.track.itemData(i)))
        unsubscribe = self.state.subscribe(self._on_state, ("lesson", "theme", "presentation", "tab"))
        self.destroyed.connect(lambda *_: unsubscribe())
        context.worker.listen("trace", lambda result: self._show_step())  # the model's own tokens
        self.retranslate()

    # -- layout ---------------------------------------------------------------------------
    def set_side(self, side: bool) -> None:
        """A column beside the stage (presentation) or a band across the top."""
        side = bool(side)
        if side == self.side:
            return
        self.side = side
        grid = self.grid
        while grid.count():
            grid.takeAt(0)
        for r in range(grid.rowCount()):
            grid.setRowStretch(r, 0)
        for c in range(grid.columnCount()):
            grid.setColumnStretch(c, 0)
        self.formula_label.setWordWrap(side)
        self.question.set_side(side)
        if side:
            # a column: buttons, step, title, formula, then the text (scrolling if long)
            if self.body_scroll.widget() is not self.body:
                self.body_scroll.setWidget(self.body)
            self.body_scroll.setVisible(True)
            self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Ignored)
            buttons = QtWidgets.QWidget()  # the step buttons, the questions' box below them
            column = QtWidgets.QVBoxLayout(buttons)
            column.setContentsMargins(0, 0, 0, 0)
            row = QtWidgets.QHBoxLayout()
            for w in (self.back_button, self.next_button, self.play_button):
                row.addWidget(w)
            column.addLayout(row)
            column.addWidget(self.question.toggle)
            grid.addWidget(buttons, 0, 0)
            grid.addWidget(self.step_label, 1, 0)
            grid.addWidget(self.title_label, 2, 0)
            grid.addWidget(self.formula_label, 3, 0)
            grid.addWidget(self.body_scroll, 4, 0)
            grid.addWidget(self.speed, 5, 0)
            grid.addWidget(self.track, 6, 0)
            grid.setRowStretch(4, 1)
            self._buttons = buttons
        else:
            if self.body_scroll.widget() is self.body:
                self.body_scroll.takeWidget()
            self.body_scroll.setVisible(False)
            # as tall as its text, no taller: the figures below get the rest
            self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Maximum)
            grid.addWidget(self.back_button, 0, 0)
            grid.addWidget(self.step_label, 0, 1)
            grid.addWidget(self.title_label, 0, 2)
            grid.addWidget(self.next_button, 0, 3)
            grid.addWidget(self.play_button, 0, 4)
            grid.addWidget(self.speed, 0, 5)
            grid.addWidget(self.question.toggle, 0, 6)
            grid.addWidget(self.track, 0, 7)
            grid.addWidget(self.formula_label, 1, 0, 1, 8)
            grid.addWidget(self.body, 2, 0, 1, 8)
            grid.setColumnStretch(2, 1)
            old = getattr(self, "_buttons", None)
            if old is not None:
                old.deleteLater()
                self._buttons = None
        self.body.setVisible(True)
        self._show_notes()
        self._band_width = -1  # the other arrangement: its height measured afresh
        self._fit_timer.start()

    def eventFilter(self, obj, event) -> bool:
        if event.type() in (QtCore.QEvent.Type.Resize, QtCore.QEvent.Type.LayoutRequest):
            self._fit_timer.start()  # another width, room or text below it
        return False

    def _fit_explanation(self) -> None:
        """Beside the stage, the explanation and the result's notes in the window's text size,
        or smaller until the whole body reads without scrolling (docks/fit_text.py); across
        the top, as they are."""
        labels = [self.explanation_label, self.notes_label]
        sheet = ""
        if self.side and self.explanation_label.text():
            base = QtGui.QFontInfo(self.font()).pixelSize()  # the window's one size (theme)
            viewport = self.body_scroll.viewport()
            width = viewport.width()
            shown = [label for label in labels if label.isVisibleTo(self) and label.text()]
            others = self.body.layout().totalHeightForWidth(width) - sum(
                label.heightForWidth(width) for label in shown
            )
            px = fitting_px(shown, base, width, viewport.height() - others)
            sheet = "" if px == base else f"font-size: {px}px;"
        for label in labels:
            if label.styleSheet() != sheet:
                label.setStyleSheet(sheet)
        self._hold_band()

    def _hold_band(self) -> None:
        """Across the top, as tall as the tallest step shown at this width so far: a band as
        tall as each step's text moved the stage below it up and down at every step (trial 10).
        Beside the stage, or at another width, the floor goes."""
        if self.side or self.width() != self._band_width:
            self._band_floor, self._band_width = 0, self.width()
        if not self.side:
            need = self.grid.totalHeightForWidth(self.width()) if self.grid.hasHeightForWidth() else -1
            self._band_floor = max(self._band_floor, need, self.grid.totalSizeHint().height())
        if self.minimumHeight() != self._band_floor:
            self.setMinimumHeight(self._band_floor)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_timer.start()  # another width: the band's floor measured afresh

    def set_notes(self, texts: list[str]) -> None:
        """The result's notices and teaching notes, shown in full beside the stage."""
        self._notes = list(texts)
        self._show_notes()

    def _show_notes(self) -> None:
        # the notes are the sentence's trace's: beside a lab's step they would speak of another text
        shown = bool(self._notes) and bool(self.side) and self.state.tab not in self.state.labs
        self.notes_label.setText("\n".join(f"⚠ {t}" for t in self._notes) if shown else "")
        self.notes_label.setVisible(shown)

    def _on_state(self, event: str, state) -> None:
        if event == "presentation":
            self.set_side(state.presentation)
        elif event == "tab":
            self._show_notes()
        else:
            if event == "lesson":
                self._set_up_step()
            self._show_step()
            if self.timer.isActive() and self._at_end():
                self.set_playing(False)  # the track's last step: Play says Play again

    # -- steps ------------------------------------------------------------------------
    def _set_up_step(self) -> None:
        """A step about a language model shows its own model, text, head and heads off (once,
        on arriving: what the class changes afterwards stays); leaving those steps for another
        track's brings back what was on screen before them."""
        step_id = self.step.id
        if step_id == self._set_up:
            return
        self._set_up = step_id
        setup = DECODER_SETUPS.get(step_id)
        if setup is not None:
            if self._before_setups is None:
                self._before_setups = (self.state.config, self.state.selected_head, self.state.selected_cell)
            apply_setup(self.state, setup)
        elif self._before_setups is not None:
            config, head, cell = self._before_setups
            self._before_setups = None
            self.state.decoding.set_heads_off(())
            self.state.select_cell(None)
            self.state.set_config(config)
            self.state.select_head(head)
            self.state.select_cell(cell)

    @property
    def index(self) -> int:
        return self.state.lesson_step

    @property
    def step(self):
        return STEPS[self.index]

    def go(self, index: int) -> None:
        self.state.set_lesson_step(index)

    def next(self) -> None:
        self.state.step_lesson(+1)

    def previous(self) -> None:
        self.state.step_lesson(-1)

    def _position(self) -> tuple[int, int]:
        """The step's place in the walked track (0 = its first) and the track's length."""
        steps = self.state.lesson_steps()
        return (steps.index(self.index) if self.index in steps else 0), len(steps)

    def _at_end(self) -> bool:
        position, total = self._position()
        return position >= total - 1

    def set_playing(self, on: bool) -> None:
        if self.play_button.isChecked() != on:
            self.play_button.setChecked(on)  # calls back here
            return
        if on:
            if self._at_end():
                self.go(self.state.lesson_steps()[0])
            self.timer.start(SPEEDS_S[max(self.speed.currentIndex(), 0)] * 1000)
        else:
            self.timer.stop()
        self._set_play_text()

    def _tick(self) -> None:
        if self._at_end():
            self.set_playing(False)
        else:
            self.next()  # reaching the last step stops the play (_on_state)

    def _on_speed(self, index: int) -> None:
        if self.timer.isActive():
            self.timer.start(SPEEDS_S[max(index, 0)] * 1000)

    # -- texts ----------------------------------------------------------------------------
    def _show_step(self) -> None:
        s = self.step
        accent = theme.look(self.state).theme.accent
        position, total = self._position()
        self.step_label.setText(self.tr("Step {n} of {total}:").format(n=position + 1, total=total))
        self.title_label.setText(f"<b style='color:{accent}'>{lesson_text(s.title)}</b>")
        self.formula_label.setText(f"<b>{lesson_text(s.formula)}</b>")
        prepared = self.context.current()
        trace = prepared.trace if prepared is not None else None
        decoder = (
            trace is not None
            and trace.causal
            and trace.weights_source == "pretrained"
            and bool(trace.kv_head_of)
        )
        text, words = step_explanation(s, trace.tokens_key if trace is not None else [], decoder)
        self.explanation_label.setText(lesson_text(text).format(**words) if words else lesson_text(text))
        self.back_button.setEnabled(position > 0)
        self.next_button.setEnabled(position < total - 1)
        self.track.setCurrentIndex(self.track.findData(self.state.lesson_track))

    def _set_play_text(self) -> None:
        self.play_button.setText(self.tr("Pause") if self.play_button.isChecked() else self.tr("Play"))

    def retranslate(self) -> None:
        self.back_button.setToolTip(self.tr("Previous stage (←)"))
        self.next_button.setToolTip(self.tr("Next stage (→)"))
        self.play_button.setToolTip(self.tr("Walk through the stages by itself at the chosen speed"))
        self._set_play_text()
        for index, (text, seconds) in enumerate(
            ((self.tr("slow"), SPEEDS_S[0]), (self.tr("normal"), SPEEDS_S[1]), (self.tr("fast"), SPEEDS_S[2]))
        ):
            self.speed.setItemText(index, self.tr("{speed} ({s} s a step)").format(speed=text, s=seconds))
        self.speed.setToolTip(self.tr("How long Play stays on each stage"))
        titles = {ALL_TRACKS: self.tr("Every track")} | {t.id: lesson_text(t.title) for t in TRACKS}
        for index in range(self.track.count()):
            self.track.setItemText(index, titles[self.track.itemData(index)])
        self.track.setToolTip(self.tr("Which part of the lesson ← and → walk: one track, or all of them"))
        self._show_step()

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
