"""Predict, then reveal, on the pictures: the step's panels veiled until the reveal, then the
class's guess and the real answer framed side by side.

The state of the guess is ``state.predict`` (explorer.appstate.predict); the numbers come from
its ``answer``. The pipeline veils the panels of the current step while a question waits
(``veil``) and frames the guessed and the right cell (``outlines``); the lines view marks the
same two keys (``key_marks``); the lesson panel asks and answers in words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6 import QtGui

from explorer.appstate.lesson import STEPS
from explorer.appstate.predict import ALSO_VEILED, Answer, answer, query_row
from explorer.core.trace import AttentionTrace
from explorer.gui.heatmap import MatrixPanel
from explorer.gui.heatmap.figure import Outline
from explorer.gui.i18n import translate
from explorer.gui.views.stages import STAGE_PANELS

GUESS_COLOUR = "#CC79A7"  # Okabe–Ito reddish purple: the class's guess
ANSWER_COLOUR = "#009E73"  # Okabe–Ito bluish green: the real answer


@dataclass(eq=False)
class VeiledPanel(MatrixPanel):
    """A panel whose numbers wait for the reveal: every cell hatched, no value on hover or print."""

    def values_printable_in(self, cells: tuple[int, int] | None) -> bool:
        return False

    def cell_text(self, r: int, c: int, visible: str = "visible", hidden: str = "hidden (masked)") -> str:
        return f"{self.row_name(r)}, {self.col_name(c)}: ?"


def veiled(panel: MatrixPanel) -> MatrixPanel:
    rows, cols = panel.shape
    hidden_text = translate("Predict", "hidden until the reveal")
    return VeiledPanel(
        np.full((rows, cols), np.nan, dtype=np.float32),
        panel.rows,
        panel.cols,
        title=f"{panel.title.split('  [')[0]} — {hidden_text}",
        kind=panel.kind,
        levels=panel.levels,
        hidden=np.ones((rows, cols), dtype=bool),
        role=panel.role,
        name=panel.name,
    )


def veiled_names(state) -> tuple[str, ...]:
    """The pipeline panels that wait for the reveal now (none unless a question waits)."""
    if not state.predict.pending():
        return ()
    question = state.predict.question()
    also = ALSO_VEILED.get(question.answer, ()) if question is not None else ()
    return STAGE_PANELS.get(STEPS[state.lesson_step].stage, ()) + also


def veil(panels: list[MatrixPanel], state) -> list[MatrixPanel]:
    """The pipeline's panels, those of the waiting question's step veiled."""
    names = veiled_names(state)
    return [veiled(p) if p.name in names else p for p in panels] if names else panels


def begin(state, trace: AttentionTrace | None) -> int | None:
    """Fix the query row of the current question (once per step), and clear a selection that
    would give a key question away. Returns the row, or None without a question or trace."""
    prediction = state.predict
    question = prediction.question()
    if question is None or trace is None:
        return None
    if prediction.row is None or prediction.row >= trace.n_query:
        selected = state.selected_cell[0] if state.selected_cell is not None else None
        prediction.ask(query_row(question, trace.tokens_query, selected))
        if question.kind == "key" and not prediction.revealed:
            state.select_cell(None)
    return prediction.row


def current_answer(state, trace: AttentionTrace | None, head: int) -> Answer | None:
    question = state.predict.question()
    row = state.predict.row
    if question is None or trace is None or row is None or row >= trace.n_query:
        return None
    return answer(question, trace, head, row)


def outlines(panels: list[MatrixPanel], state, trace: AttentionTrace | None, head: int) -> dict:
    """Frames on the weights panel: the guessed cell (and, once revealed, the heaviest)."""
    prediction = state.predict
    question = prediction.question()
    if question is None or question.kind != "key" or prediction.row is None or trace is None:
        return {}
    index = next((i for i, p in enumerate(panels) if p.name == "weights"), None)
    if index is None:
        return {}
    frames = []
    if prediction.key is not None:
        frames.append(Outline(prediction.row, prediction.key, QtGui.QColor(GUESS_COLOUR)))
    if prediction.revealed:
        found = current_answer(state, trace, head)
        if found is not None and found.right is not None:
            frames.append(Outline(prediction.row, found.right, QtGui.QColor(ANSWER_COLOUR)))
    return {index: tuple(frames)} if frames else {}


def key_marks(state, trace: AttentionTrace | None, head: int) -> tuple[tuple[int, str], ...]:
    """The same two keys, framed in the lines view."""
    prediction = state.predict
    question = prediction.question()
    if question is None or question.kind != "key":
        return ()
    marks = []
    if prediction.key is not None:
        marks.append((prediction.key, GUESS_COLOUR))
    if prediction.revealed:
        found = current_answer(state, trace, head)
        if found is not None and found.right is not None:
            marks.append((found.right, ANSWER_COLOUR))
    return tuple(marks)
