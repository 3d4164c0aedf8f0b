"""The lesson's steps on the Language model tab: a decoder predicts the next token through a
causal mask; a previous-token head and an induction head form while the class watches; the
loss on repeated text drops at the phase change; a head switched off shows what it did.

Qt-free, like explorer/appstate/lesson.py (texts marked with ``QT_TRANSLATE_NOOP`` in the
"Lesson" context; Steps from lesson_step.py). ``SHOWS`` tells the tab what each step puts on
screen: the page, the head to select (the best by that score), the panels to frame, and
whether the induction heads are switched off.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.appstate.lesson_step import Step, Track
from explorer.words import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Shows:
    page: str  # a page of explorer.appstate.lm.PAGES
    best_by: str | None = None  # select the head with the highest of this score
    panels: tuple[str, ...] = ()  # stage panels to frame
    off_induction: bool = False  # switch the induction heads off (the causal test)


LM_STEPS: tuple[Step, ...] = (
    Step(
        stage="lm_next_token",
        title=QT_TRANSLATE_NOOP("Lesson", "A language model guesses the next token"),
        formula=QT_TRANSLATE_NOOP("Lesson", "loss = −ln p(tᵢ₊₁ | t₀ … tᵢ)"),
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A decoder such as GPT reads a text and, at every position, gives a probability to "
            "each possible next token. The loss is how surprised it is by the real next token. "
            "This tiny GPT-2 has two layers of four heads. Its probe is 24 random symbols, then "
            "the same 24 again: nothing can predict the first half, but the second half can be "
            "read off the first, by a model that has learned to look back.",
        ),
        tab="lm",
        id="lm.next_token",
    ),
    Step(
        stage="lm_causal_mask",
        title=QT_TRANSLATE_NOOP("Lesson", "The causal mask"),
        formula=QT_TRANSLATE_NOOP("Lesson", "scoresᵢⱼ = −∞ for j > i"),
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "To learn to predict, a position must not see the tokens it predicts. The causal "
            "mask sets every score of a later key to −∞ before the softmax, so each row of the "
            "weights spreads only over the token itself and those before it: the upper "
            "triangle is empty.",
        ),
        tab="lm",
        id="lm.causal_mask",
    ),
    Step(
        stage="lm_previous_token",
        title=QT_TRANSLATE_NOOP("Lesson", "A previous-token head"),
        formula=QT_TRANSLATE_NOOP("Lesson", "score = mean αᵢ,ᵢ₋₁"),
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A first-layer head learns to look at the token just before each position: its "
            "weights sit on the line just below the diagonal. It copies the previous token into "
            "the position, so each position now also knows what came before it. Here it does so "
            "over the probe's first half only (so its score, the mean over every row, is about "
            "0.5): the induction head of the next step reads that copy only at a token's first "
            "occurrence, and this small model learned to make it only there.",
        ),
        tab="lm",
        id="lm.previous_token",
    ),
    Step(
        stage="lm_induction",
        title=QT_TRANSLATE_NOOP("Lesson", "An induction head"),
        formula=QT_TRANSLATE_NOOP("Lesson", "score = mean αᵢ,ᵢ₋ₖ₊₁"),
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A second-layer head uses that: at position i it looks for an earlier position "
            "whose previous token is the current token, and attends to it; that is the token "
            "after the current one's earlier occurrence, and it copies it as the prediction. On "
            "the repeated probe its weights form a diagonal k − 1 places left of the main one "
            "(k = 24). This is how the model continues a pattern it has seen once "
            "(Olsson et al., 2022).",
        ),
        tab="lm",
        id="lm.induction",
    ),
    Step(
        stage="lm_phase_change",
        title=QT_TRANSLATE_NOOP("Lesson", "The phase change"),
        formula=QT_TRANSLATE_NOOP("Lesson", "first half − repeated half ↑"),
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "Train from scratch and watch the curves. For a while both halves' losses fall "
            "together, as the model learns how often each symbol occurs. Then, within a few "
            "dozen steps, the repeated half's loss drops far below the first half's: the two "
            "heads have formed, and their scores jump at the same moment. Once your run has "
            "trained, drag the slider (or press Replay) to replay how its heads formed: the "
            "dashed curves are the shipped run, which keeps no snapshots to replay.",
        ),
        tab="lm",
        id="lm.phase_change",
    ),
    Step(
        stage="lm_ablation",
        title=QT_TRANSLATE_NOOP("Lesson", "Switch heads off"),
        formula=QT_TRANSLATE_NOOP("Lesson", "Δ loss = loss(head off) − loss(all on)"),
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A causal test: the induction heads are now switched off, and the repeated half's "
            "loss comes back up. Switch the previous-token heads off instead and it comes back "
            "too: the induction heads need what they copied. A head that is neither barely "
            "changes the loss, and one induction head alone matters little when others do the "
            "same work.",
        ),
        tab="lm",
        id="lm.ablation",
    ),
)

LM_TRACK = Track("lm", QT_TRANSLATE_NOOP("Lesson", "How a language model learns to copy"), LM_STEPS)

SHOWS: dict[str, Shows] = {
    "lm_next_token": Shows("heads"),
    "lm_causal_mask": Shows("stages", panels=("mask", "weights")),
    "lm_previous_token": Shows("heads", best_by="previous_token"),
    "lm_induction": Shows("heads", best_by="induction"),
    "lm_phase_change": Shows("train"),
    "lm_ablation": Shows("heads", best_by="induction", off_induction=True),
}
