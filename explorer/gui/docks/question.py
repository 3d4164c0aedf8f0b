"""The lesson's question row: predict, then reveal.

When the lesson asks questions (the "Questions" box) and the step has one, this row shows it:
the class guesses by clicking a key in the weights (or in the lines view) or by picking an
answer, and the teacher presses Reveal. The guess and the answer then stand side by side, in
words here and framed on the picture (explorer.gui.views.predict). Everything it shows is
``state.predict`` and ``explorer.appstate.predict.answer`` of the window's trace.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson_step import LESSON_CONTEXT
from explorer.appstate.predict import Answer
from explorer.gui.views import predict

MAX_COMPONENTS = 4  # of an output row, in the answer


def lesson_text(text: str) -> str:
    return QtCore.QCoreApplication.translate(LESSON_CONTEXT, text)


def _vector(v: np.ndarray) -> str:
    shown = ", ".join(f"{x:.2f}" for x in v[:MAX_COMPONENTS])
    return f"[{shown}{', …' if v.size > MAX_COMPONENTS else ''}]"


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def _coloured(text: str, colour: str) -> str:
    return f"<b style='color:{colour}'>{_escape(text)}</b>"


class QuestionPanel(QtWidgets.QWidget):
    """The question, the choices (or a hint to click a key), Reveal, and the answer."""

    # a button of it that holds the focus is about to hide (the next step, Reveal, new
    # choices): the classroom takes the keys to the stage first, or Qt would hand them down
    # the tab chain, to the Sentence field with its text selected
    letting_go = QtCore.Signal()

    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.context = context
        self.state = context.state
        self.toggle = QtWidgets.QCheckBox()  # the lesson panel puts it on its top row
        self.toggle.setChecked(self.state.predict.enabled)
        self.toggle.toggled.connect(self.state.predict.set_enabled)
        # across the top, one row as short as the words allow (the figure below needs the
        # height); in the lesson column the buttons go below the words (set_side), or a
        # narrow column cuts them off
        self.layout_ = QtWidgets.QBoxLayout(QtWidgets.QBoxLayout.Direction.LeftToRight, self)
        self.layout_.setContentsMargins(0, 2, 0, 0)
        self.prompt = QtWidgets.QLabel()  # the question, then the guess and the answer
        self.prompt.setWordWrap(True)
        self.prompt.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.layout_.addWidget(self.prompt, 1)
        self.buttons = QtWidgets.QHBoxLayout()
        self.choice_buttons: list[QtWidgets.QPushButton] = []
        self.choices_row = QtWidgets.QHBoxLayout()
        self.buttons.addLayout(self.choices_row)
        self.reveal_button = QtWidgets.QPushButton()
        self.reveal_button.clicked.connect(self.state.predict.reveal)
        self.buttons.addWidget(self.reveal_button)
        self.layout_.addLayout(self.buttons)
        self._last_cell = self.state.selected_cell
        unsubscribe = self.state.subscribe(self._on_state, ("predict", "lesson", "cell", "head"))
        self.destroyed.connect(lambda *_: unsubscribe())
        context.worker.listen("trace", lambda result: self._on_trace())
        self.retranslate()

    def set_side(self, side: bool) -> None:
        """The words above the buttons (the lesson column) or beside them (a band)."""
        Direction = QtWidgets.QBoxLayout.Direction
        self.layout_.setDirection(Direction.TopToBottom if side else Direction.LeftToRight)
        left = QtCore.Qt.AlignmentFlag.AlignLeft
        self.layout_.setAlignment(self.buttons, left if side else QtCore.Qt.AlignmentFlag(0))

    # -- the trace and the question ------------------------------------------------------------------
    def trace(self):
        prepared = self.context.current()
        return prepared.trace if prepared is not None else None

    def head(self) -> int:
        trace = self.trace()
        return 0 if trace is None else min(self.state.selected_head, trace.heads - 1)

    def answer(self) -> Answer | None:
        return predict.current_answer(self.state, self.trace(), self.head())

    def query_token(self) -> str:
        trace, row = self.trace(), self.state.predict.row
        return trace.tokens_query[row] if trace is not None and row is not None else "…"

    # -- events ------------------------------------------------------------------------------------
    def _on_trace(self) -> None:
        predict.begin(self.state, self.trace())
        self.show_question()

    def _on_state(self, event: str, state) -> None:
        if event == "cell":
            self._on_cell(state.selected_cell)
            return
        if event in ("lesson", "predict"):
            predict.begin(state, self.trace())
        self.show_question()

    def _on_cell(self, cell) -> None:
        """A click on a key (a cell of the weights, a token of the lines) is the class's guess."""
        before, self._last_cell = self._last_cell, cell
        prediction = self.state.predict
        question = prediction.question()
        if question is None or question.kind != "key" or prediction.revealed or cell is None:
            return
        if before is not None and before[1] == cell[1]:
            return  # a row picked (Q, an output row): no new key
        row = predict.begin(self.state, self.trace())
        if row is None:
            return
        prediction.guess_key(cell[1])
        if cell[0] != row:
            self.state.select_cell((row, cell[1]))  # the guess is about the question's query

    def _choose(self, index: int) -> None:
        self.state.predict.guess_choice(index)

    def text(self) -> str:
        """What the row says, as plain text (the tests read it)."""
        doc = QtGui.QTextDocument()
        doc.setHtml(self.prompt.text())
        return doc.toPlainText()

    # -- showing it ----------------------------------------------------------------------------------
    def show_question(self) -> None:
        prediction = self.state.predict
        question = prediction.question()
        self.toggle.setChecked(prediction.enabled)  # said back to the state: the same, no event
        if question is None:
            self._let_go_of_the_keys(self)
            self.setVisible(False)
            return
        self.setVisible(True)
        prompt = lesson_text(question.prompt).format(query=self.query_token())
        label = self.tr("Predict:")
        status = self._answer_text()
        self.prompt.setText(f"<b>{_escape(label)}</b> {_escape(prompt)} {status}".strip())
        self._show_choices([lesson_text(c) for c in question.choices])
        self.reveal_button.setEnabled(not prediction.revealed)
        # revealed, the buttons have done their work (the words say the class's answer): their
        # row goes, and the answer fits the lesson column without its scroll bar
        for button in (*self.choice_buttons, self.reveal_button):
            if prediction.revealed:
                self._let_go_of_the_keys(button)
            button.setVisible(not prediction.revealed)

    def _show_choices(self, labels: list[str]) -> None:
        if [b.text() for b in self.choice_buttons] != labels:
            for button in self.choice_buttons:  # gone now, not when the event loop deletes them
                self._let_go_of_the_keys(button)
                self.choices_row.removeWidget(button)
                button.hide()
                button.deleteLater()
            self.choice_buttons = []
            for index, label in enumerate(labels):
                button = QtWidgets.QPushButton(label)
                button.setCheckable(True)
                button.clicked.connect(lambda _=False, i=index: self._choose(i))
                self.choices_row.addWidget(button)
                self.choice_buttons.append(button)
        prediction = self.state.predict
        for index, button in enumerate(self.choice_buttons):
            button.setChecked(prediction.choice == index)
            button.setEnabled(not prediction.revealed)

    def _let_go_of_the_keys(self, going: QtWidgets.QWidget) -> None:
        """Before ``going`` hides: if the focus is in it, ask for it elsewhere (letting_go)."""
        focus = QtWidgets.QApplication.focusWidget()
        if focus is not None and (focus is going or going.isAncestorOf(focus)) and going.isVisible():
            self.letting_go.emit()

    def _answer_text(self) -> str:
        prediction = self.state.predict
        question = prediction.question()
        trace = self.trace()
        if question is None or trace is None:
            return ""
        if question.kind == "key":
            return self._key_text(trace)
        if not prediction.revealed:
            if prediction.choice is None:
                return ""
            return _escape(
                self.tr("The class's answer: {0}.").format(lesson_text(question.choices[prediction.choice]))
            )
        return self._choice_text(question)

    def _key_text(self, trace) -> str:
        prediction = self.state.predict
        keys = trace.tokens_key
        if not prediction.revealed:
            if prediction.key is None:
                return ""
            guess = _coloured(keys[prediction.key], predict.GUESS_COLOUR)
            return self.tr("The class's guess: {0}.").format(guess)
        found = self.answer()
        if found is None or found.right is None:
            return _escape(self.tr("This query sees no key: every weight is 0."))
        weights = found.numbers["weights"]
        best = self.tr("The most: {0}, weight {1:.2f}.").format(
            _coloured(keys[found.right], predict.ANSWER_COLOUR), weights[found.right]
        )
        if prediction.key is None:
            return best
        guess = self.tr("The class's guess: {0}, weight {1:.2f}.").format(
            _coloured(keys[prediction.key], predict.GUESS_COLOUR), weights[prediction.key]
        )
        verdict = self.tr("Right!") if found.is_right(prediction.key) else self.tr("Not this time.")
        return f"{guess} {best} <b>{_escape(verdict)}</b>"

    def _choice_text(self, question) -> str:
        prediction = self.state.predict
        found = self.answer()
        trace = self.trace()
        if found is None or found.right is None:
            return _escape(self.tr("This query sees no key: there is nothing to compare."))
        right = lesson_text(question.choices[found.right])
        head = self.tr("Answer: {0}.").format(_coloured(right, predict.ANSWER_COLOUR))
        n = found.numbers
        keys = trace.tokens_key
        if question.answer == "scale_keeps_winner":
            why = self.tr(
                "'{key}' stays the highest: {raw:.2f} ÷ {divisor:.2f} = {scaled:.2f}. A positive divisor "
                "keeps the order."
            ).format(key=keys[n["scaled_key"]], raw=n["raw"], scaled=n["scaled"], divisor=n["divisor"])
        else:
            why = self.tr(
                "Soft attention blends the values: {soft}. Hard attention keeps only '{key}': {hard}. "
                "The largest change is {change:.2f}."
            ).format(
                soft=_vector(n["soft"]),
                key=keys[n["key"]],
                hard=_vector(n["hard"]),
                change=n["change"],
            )
        text = f"{head} {_escape(why)}"
        if prediction.choice is not None:
            mine = lesson_text(question.choices[prediction.choice])
            verdict = self.tr("Right!") if found.is_right(prediction.choice) else self.tr("Not this time.")
            text = (
                self.tr("The class said {0}.").format(_coloured(mine, predict.GUESS_COLOUR))
                + f" {text} <b>{_escape(verdict)}</b>"
            )
        return text

    # -- words ----------------------------------------------------------------------------------------
    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.toggle.setText(self.tr("Questions"))
        self.toggle.setToolTip(
            self.tr(
                "Before some steps, the class predicts (clicks a key or picks an answer); the step's "
                "numbers stay hidden until Reveal"
            )
        )
        self.reveal_button.setText(self.tr("Reveal"))
        self.reveal_button.setToolTip(self.tr("Show the real numbers beside the class's guess"))
        self.show_question()
