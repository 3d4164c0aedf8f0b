"""The step-through lesson: one stage at a time, its formula and explanation.

← and → (or the buttons) walk ``explorer.appstate.lesson.STEPS`` in order; Play advances by
itself at the chosen speed. The step is the ExplorerState's ``lesson_step``: the panel
shows it and sets it, and the pipeline highlights that stage's panels from the same state.
Texts are shown in the interface language (``QCoreApplication.translate("Lesson", …)``).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import LESSON_CONTEXT, STEPS
from explorer.gui import theme
from explorer.gui.docks.question import QuestionPanel

SPEEDS_S = (8, 5, 3)  # slow, normal, fast: seconds a step


def lesson_text(text: str) -> str:
    return QtCore.QCoreApplication.translate(LESSON_CONTEXT, text)


class LessonPanel(QtWidgets.QFrame):
    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.state = context.state
        self.setObjectName("LessonPanel")
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        # as tall as its text, no taller: the figures below get the rest
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Maximum)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(8, 4, 8, 4)
        outer.setSpacing(2)
        top = QtWidgets.QHBoxLayout()
        self.back_button = QtWidgets.QPushButton("◀")
        self.next_button = QtWidgets.QPushButton("▶")
        self.play_button = QtWidgets.QPushButton()
        self.play_button.setCheckable(True)
        self.speed = QtWidgets.QComboBox()
        self.step_label = QtWidgets.QLabel()
        self.title_label = QtWidgets.QLabel()
        self.title_label.setWordWrap(True)
        top.addWidget(self.back_button)
        top.addWidget(self.step_label)
        top.addWidget(self.title_label, 1)
        top.addWidget(self.next_button)
        top.addWidget(self.play_button)
        top.addWidget(self.speed)
        outer.addLayout(top)
        self.formula_label = QtWidgets.QLabel()
        self.formula_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.explanation_label = QtWidgets.QLabel()
        self.explanation_label.setWordWrap(True)
        self.explanation_label.setAlignment(
            QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft
        )
        outer.addWidget(self.formula_label)
        outer.addWidget(self.explanation_label)
        self.question = QuestionPanel(context)  # predict, then reveal (docks/question.py)
        outer.addWidget(self.question)
        top.addWidget(self.question.toggle)
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.back_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.play_button.toggled.connect(self.set_playing)
        self.speed.currentIndexChanged.connect(self._on_speed)
        unsubscribe = self.state.subscribe(lambda *_: self._show_step(), ("lesson", "theme"))
        self.destroyed.connect(lambda *_: unsubscribe())
        self.retranslate()

    # -- steps ------------------------------------------------------------------------
    @property
    def index(self) -> int:
        return self.state.lesson_step

    @property
    def step(self):
        return STEPS[self.index]

    def go(self, index: int) -> None:
        self.state.set_lesson_step(index)

    def next(self) -> None:
        self.go(self.index + 1)

    def previous(self) -> None:
        self.go(self.index - 1)

    def set_playing(self, on: bool) -> None:
        if self.play_button.isChecked() != on:
            self.play_button.setChecked(on)  # calls back here
            return
        if on:
            if self.index >= len(STEPS) - 1:
                self.go(0)
            self.timer.start(SPEEDS_S[max(self.speed.currentIndex(), 0)] * 1000)
        else:
            self.timer.stop()
        self._set_play_text()

    def _tick(self) -> None:
        if self.index >= len(STEPS) - 1:
            self.set_playing(False)
        else:
            self.next()

    def _on_speed(self, index: int) -> None:
        if self.timer.isActive():
            self.timer.start(SPEEDS_S[max(index, 0)] * 1000)

    # -- texts ----------------------------------------------------------------------------
    def _show_step(self) -> None:
        s = self.step
        accent = theme.look(self.state).theme.accent
        self.step_label.setText(self.tr("Step {n} of {total}:").format(n=self.index + 1, total=len(STEPS)))
        self.title_label.setText(f"<b style='color:{accent}'>{lesson_text(s.title)}</b>")
        self.formula_label.setText(f"<b>{s.formula}</b>")
        self.explanation_label.setText(lesson_text(s.explanation))
        self.back_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < len(STEPS) - 1)

    def _set_play_text(self) -> None:
        self.play_button.setText(self.tr("Pause") if self.play_button.isChecked() else self.tr("Play"))

    def retranslate(self) -> None:
        self.back_button.setToolTip(self.tr("Previous stage (←)"))
        self.next_button.setToolTip(self.tr("Next stage (→)"))
        self.play_button.setToolTip(self.tr("Walk through the stages by itself at the chosen speed"))
        self._set_play_text()
        current = max(self.speed.currentIndex(), 1 if self.speed.count() == 0 else 0)
        self.speed.blockSignals(True)
        self.speed.clear()
        for text, seconds in (
            (self.tr("slow"), SPEEDS_S[0]),
            (self.tr("normal"), SPEEDS_S[1]),
            (self.tr("fast"), SPEEDS_S[2]),
        ):
            self.speed.addItem(self.tr("{speed} ({s} s a step)").format(speed=text, s=seconds))
        self.speed.setCurrentIndex(current)
        self.speed.blockSignals(False)
        self.speed.setToolTip(self.tr("How long Play stays on each stage"))
        self._show_step()

    def changeEvent(self, event):  # noqa: N802
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
