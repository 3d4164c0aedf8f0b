"""The lesson across the top of the ordinary window keeps its height while the teacher steps:
as tall as each step's text, it moved the stage below it up and down at every step (trial 10)."""

from __future__ import annotations

from explorer.appstate.lesson import STEPS
from explorer.core.config import AttentionConfig

from .helpers import ANIMAL, WAIT_MS
from .test_classroom_walk import settle


def band_height(qtbot, w) -> int:
    lesson = w.classroom.lesson
    settle(qtbot, w)
    qtbot.waitUntil(lambda: not lesson._fit_timer.isActive(), timeout=WAIT_MS)
    settle(qtbot, w)
    return lesson.height()


def test_the_band_never_shrinks_while_stepping_and_fits_each_step(qtbot, make_window):
    w = make_window(AttentionConfig(sentence=ANIMAL, layer=5), size=(1400, 900))
    w.state.show_lesson(True)
    lesson = w.classroom.lesson
    heights = []
    for i in range(0, 12):  # the sentence tabs' steps: short and long texts
        w.state.set_lesson_step(i)
        heights.append(band_height(qtbot, w))
        assert lesson.height() >= lesson.grid.totalHeightForWidth(lesson.width()) - 1, STEPS[i].id  # whole
    assert heights == sorted(heights), heights  # grows to the longest text, never back
    assert len(set(heights)) < len(heights) // 2, heights  # most steps keep the height they found
    for i in range(11, -1, -1):  # and back: the stage stays where it is
        w.state.set_lesson_step(i)
        assert band_height(qtbot, w) == heights[-1], STEPS[i].id
    w.resize(1100, 900)  # another width: measured afresh, never shorter than its text
    w.state.set_lesson_step(0)
    assert band_height(qtbot, w) >= lesson.grid.totalHeightForWidth(lesson.width()) - 1
