"""A lesson step that shows an example sets the input it needs: letters typed into the Global
vs local tab's field for one step showed their <unk> picture on the track's first step (a
staircase). A session opened on such a step keeps the inputs it saved."""

from __future__ import annotations

import json

import pytest

from explorer.appstate import local_window, translation
from explorer.appstate.lesson import STEPS
from explorer.appstate.session import apply_session, session_from_dict, session_of
from explorer.appstate.state import ExplorerState

TYPED = {"local": "zz yy", "translation": "hello", "lm": "abab abab"}


def typed(state: ExplorerState, lab: str) -> str:
    """What is in the lab's typed field."""
    return state.labs[lab].settings.source if lab != "lm" else state.labs[lab].probe


def type_into(state: ExplorerState, lab: str, text: str) -> None:
    (state.labs[lab].set_probe if lab == "lm" else state.labs[lab].set_source)(text)


@pytest.mark.parametrize("lab", sorted(TYPED))
def test_every_step_of_a_lab_with_a_typed_field_shows_the_lessons_example(lab):
    expected = {"local": local_window.DEFAULT_SOURCE, "translation": translation.DEFAULT_SOURCE, "lm": ""}
    state = ExplorerState()
    steps = [s.id for s in STEPS if s.tab == lab]
    assert steps
    for step in steps:
        type_into(state, lab, TYPED[lab])
        assert typed(state, lab) == TYPED[lab]
        state.set_lesson_step(step)
        shown = (
            local_window.LESSON_TEXTS.get(step, ("", expected[lab]))[1] if lab == "local" else expected[lab]
        )
        assert typed(state, lab) == shown, step
        assert state.tab == lab


def test_the_staircase_step_after_letters_typed_for_another_step():
    state = ExplorerState()
    state.set_lesson_step("local.width")
    state.labs["local"].set_source("Q Q Q")  # outside the task's letters: <unk> everywhere
    seen = []
    state.labs["local"].subscribe(lambda event, lab: seen.append((event, lab.settings.source)))
    state.set_lesson_step("local.global")
    assert state.labs["local"].request().source == local_window.DEFAULT_SOURCE
    assert ("request", local_window.DEFAULT_SOURCE) in seen  # the tab is told to compute it


def test_steps_of_other_tabs_leave_the_typed_text_alone():
    state = ExplorerState()
    state.labs["local"].set_source("a b")
    state.set_lesson_step(0)  # the pipeline's first step
    state.set_lesson_step(next(s.id for s in STEPS if s.tab == "vision"))
    assert state.labs["local"].settings.source == "a b"


def test_a_session_on_a_lab_step_keeps_its_typed_text():
    state = ExplorerState()
    state.set_lesson_step("local.global")
    state.labs["local"].set_source("a b c")
    other = ExplorerState()
    apply_session(other, session_from_dict(json.loads(session_of(state).to_json())))
    assert other.lesson_step_id == "local.global" and other.labs["local"].settings.source == "a b c"
