"""What each lesson step of the translation lab (explorer/appstate/lesson_translation.py) points
at in the tab: the alignment, the output step's stage panels (by name), or the training page."""

from __future__ import annotations

from explorer.appstate.lesson import STEPS

TAB = "translation"
LESSON_PARTS = {
    "context_per_step": ("alignment", ()),
    "query": ("step", ("Q",)),
    "alignment_scores": ("step", ("scores",)),
    "alignment_weights": ("step", ("weights",)),
    "context": ("step", ("head_output",)),
    "soft_hard": ("step", ("weights",)),
    "learn": ("train", ()),
}


def lesson_part(state) -> tuple[str, tuple[str, ...]] | None:
    """(where, panels) of the lesson step on screen, when it is one of this tab's."""
    if not state.lesson_visible:
        return None
    step = STEPS[state.lesson_step]
    return LESSON_PARTS.get(step.stage) if step.tab == TAB else None
