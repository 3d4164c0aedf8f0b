"""Predict, then reveal: the class's guess for a lesson question, and the answer from the trace.

A lesson step may carry a ``Question`` (explorer.appstate.lesson). While the lesson asks
questions, the step's panels stay veiled until the teacher reveals them; the class guesses
by clicking a key (kind "key") or picking a choice (kind "choice"). ``answer`` computes the
right answer and the numbers that show it from the trace alone, in float64, so a test can
check them against the trace. ``Prediction`` is the state of the current guess, hung off the
ExplorerState as ``state.predict``; it notifies "predict" and forgets the guess whenever the
lesson step or the inputs change. Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from explorer.appstate.events import Listener
from explorer.appstate.lesson import STEPS
from explorer.appstate.lesson_step import Question
from explorer.core.config import AttentionConfig
from explorer.core.trace import AttentionTrace
from explorer.models.token_labels import SPACE_MARK

SPECIAL_TOKENS = frozenset({"[CLS]", "[SEP]", "[PAD]", "<s>", "</s>", "<pad>"})
ANSWERS = ("heaviest_key", "scale_keeps_winner", "hard_changes_output")
YES, NO = 0, 1  # the choices of a yes / no question, in the order of lesson.YES_NO
# The panels beyond the step's own that would show an answer before the reveal: softmax keeps the
# order of the scaled scores, so the weights name the scaled winner (trial 9, step 6), and the
# scores on the query's row, drawn above the veiled weights in the ordinary window, name the
# heaviest key (trial 10, step 8).
ALSO_VEILED = {"scale_keeps_winner": ("weights",), "heaviest_key": ("scores", "scaled", "mask")}
CHANGE_TOLERANCE = 1e-6  # an output row that moves less than this has not changed


def _bare(token: str) -> str:
    """A token as the class would name it: no word-piece marks, no case."""
    return token.replace("##", "").replace("▁", "").replace("Ġ", "").replace(SPACE_MARK, "").strip().lower()


def query_row(question: Question, tokens: list[str], selected_row: int | None = None) -> int:
    """The query the question asks about: the first of ``question.query`` in the input, else
    the selected row, else the first token that is not a model's marker ([CLS] …)."""
    bare = [_bare(t) for t in tokens]
    for word in question.query:
        if word.lower() in bare:
            return bare.index(word.lower())
    if selected_row is not None and 0 <= selected_row < len(tokens):
        return selected_row
    return next((i for i, t in enumerate(tokens) if t not in SPECIAL_TOKENS), 0)


@dataclass(frozen=True)
class Answer:
    """The right answer and the numbers that show it (float64, from the trace)."""

    kind: str  # the question's kind
    right: int | None  # the key (kind "key") or the choice (kind "choice"); None: no answer
    row: int  # the query row
    head: int
    numbers: dict[str, Any] = field(default_factory=dict)

    def is_right(self, guess: int | None) -> bool:
        """A guess equal to the answer, or (keys) a key weighing as much as the heaviest."""
        if guess is None or self.right is None:
            return False
        if self.kind == "key":
            weights = self.numbers["weights"]
            return bool(weights[guess] >= weights[self.right])
        return guess == self.right


def answer(question: Question, trace: AttentionTrace, head: int, row: int) -> Answer:
    """What the trace says to ``question`` for one head and query row."""
    head = min(max(head, 0), trace.heads - 1)
    visible = trace.mask[row].astype(bool)
    kind = question.kind
    if question.answer == "heaviest_key":
        weights = trace.weights[head, row].astype(np.float64)
        right = int(np.argmax(weights)) if visible.any() and weights.max() > 0 else None
        return Answer(kind, right, row, head, {"weights": weights})
    scaled = trace.scaled[head, row].astype(np.float64)
    if question.answer == "scale_keeps_winner":
        scores = trace.scores[head, row].astype(np.float64)
        if not visible.any():
            return Answer(kind, None, row, head, {})
        best_raw = int(np.argmax(np.where(visible, scores, -np.inf)))
        best_scaled = int(np.argmax(np.where(visible, scaled, -np.inf)))
        return Answer(
            kind,
            YES if best_raw != best_scaled else NO,
            row,
            head,
            {
                "raw_key": best_raw,
                "scaled_key": best_scaled,
                "raw": float(scores[best_raw]),
                "scaled": float(scaled[best_scaled]),
                "divisor": float(trace.scale_divisor),
            },
        )
    if question.answer == "hard_changes_output":
        if not visible.any():
            return Answer(kind, None, row, head, {})
        values = trace.V[head].astype(np.float64)
        shifted = np.where(visible, scaled - scaled[visible].max(), -np.inf)
        soft = np.exp(shifted)
        soft /= soft.sum()
        chosen = int(np.argmax(np.where(visible, scaled, -np.inf)))  # ties: the first, as the core
        soft_out, hard_out = soft @ values, values[chosen]
        change = float(np.abs(hard_out - soft_out).max())
        return Answer(
            kind,
            YES if change > CHANGE_TOLERANCE else NO,
            row,
            head,
            {"soft": soft_out, "hard": hard_out, "key": chosen, "change": change, "soft_weights": soft},
        )
    raise ValueError(f"unknown answer {question.answer!r}; choose from {', '.join(ANSWERS)}")


class LessonState(Protocol):
    """What a Prediction reads of ExplorerState (which holds it as ``state.predict``)."""

    lesson_visible: bool
    lesson_step: int
    config: AttentionConfig

    def subscribe(self, callback: Listener, events: Iterable[str] | None = None) -> Callable[[], None]: ...


class Prediction:
    """The class's guess for the current lesson step (``state.predict``).

    ``enabled``: the lesson asks its questions (saved with the session); ``row``: the query
    the question is about, fixed when the question is asked; ``key`` / ``choice``: the guess;
    ``revealed``: the answer is shown. Stepping, or new inputs, start afresh."""

    def __init__(self, state: LessonState, emit: Callable[[str], None]):
        self._state = state
        self._emit = emit
        self.enabled = False
        self.row: int | None = None
        self.key: int | None = None
        self.choice: int | None = None
        self.revealed = False
        self._step = state.lesson_step
        self._config = state.config
        state.subscribe(self._on_state, ("lesson", "config"))

    # -- what is asked ----------------------------------------------------------------------------
    def question(self) -> Question | None:
        """The current step's question, when the lesson is shown and asks questions."""
        s = self._state
        if not (self.enabled and s.lesson_visible):
            return None
        return STEPS[s.lesson_step].question

    def pending(self) -> bool:
        """A question waits for its reveal: the step's numbers stay veiled."""
        return self.question() is not None and not self.revealed

    # -- what the class and the teacher do ----------------------------------------------------------
    def set_enabled(self, on: bool) -> None:
        if bool(on) != self.enabled:
            self.enabled = bool(on)
            self._clear()
            self._emit("predict")

    def ask(self, row: int) -> None:
        """Fix the query row the question is about (once per step)."""
        if self.row is None:
            self.row = int(row)
            self._emit("predict")

    def guess_key(self, key: int) -> None:
        if not self.revealed and key != self.key:
            self.key = int(key)
            self._emit("predict")

    def guess_choice(self, choice: int) -> None:
        if not self.revealed and choice != self.choice:
            self.choice = int(choice)
            self._emit("predict")

    def reveal(self) -> None:
        if not self.revealed:
            self.revealed = True
            self._emit("predict")

    def guess(self) -> int | None:
        question = self.question()
        if question is None:
            return None
        return self.key if question.kind == "key" else self.choice

    # -- starting afresh ------------------------------------------------------------------------------
    def _clear(self) -> None:
        self.row = self.key = self.choice = None
        self.revealed = False

    def _on_state(self, event: str, state: LessonState) -> None:
        if (state.lesson_step, state.config) != (self._step, self._config):
            self._step, self._config = state.lesson_step, state.config
            if self.row is not None or self.key is not None or self.choice is not None or self.revealed:
                self._clear()
                self._emit("predict")
