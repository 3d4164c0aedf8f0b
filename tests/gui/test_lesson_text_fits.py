"""The lesson column shows each step's explanation whole at 1024×768 in presentation mode, in
both languages: the teacher never scrolls the column in front of the class (trial 8 F2: step
39's text ended mid-line above a scroll bar)."""

from __future__ import annotations

import pytest

from explorer.appstate.lesson import STEPS
from explorer.core.config import AttentionConfig

from .helpers import ANIMAL
from .test_classroom_walk import settle


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_step_s_explanation_reads_whole_without_scrolling(qtbot, make_window, language):
    w = make_window(AttentionConfig(sentence=ANIMAL, layer=5), size=(1024, 768))
    w.state.set_language(language)
    w.state.show_lesson(True)
    settle(qtbot, w)
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    lesson = w.classroom.lesson
    hidden = []
    for i, step in enumerate(STEPS):
        w.state.set_lesson_step(i)
        settle(qtbot, w)
        bar = lesson.body_scroll.verticalScrollBar()
        if lesson.body_scroll.isVisible() and bar.maximum() > 0:
            hidden.append((i + 1, step.id, bar.maximum()))
    assert not hidden, hidden
