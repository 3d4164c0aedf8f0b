"""The lesson dock's track picker: a teacher picks a track, ← → and Play walk it alone."""

from __future__ import annotations

import pytest

from explorer.appstate.lesson import ALL_TRACKS, STEPS, track_range
from explorer.core.config import AttentionConfig


@pytest.fixture
def small(make_window):
    return make_window(
        AttentionConfig(sentence="the cat sat", weights="random", d_model=16), size=(1100, 760)
    )


def test_a_picked_track_is_walked_alone(qtbot, small):
    w = small
    w.classroom.show_lesson(True)
    lesson = w.classroom.lesson
    picker = lesson.track
    assert [picker.itemData(i) for i in range(picker.count())] == [
        ALL_TRACKS,
        "attention",
        "translation",
        "vision",
        "lm",
        "local",
        "vit",
        "decoder",
    ]
    assert picker.currentData() == ALL_TRACKS and lesson.step_label.text() == f"Step 1 of {len(STEPS)}:"
    picker.setCurrentIndex(picker.findData("vision"))
    picker.activated.emit(picker.currentIndex())  # the teacher's pick
    steps = track_range("vision")
    assert w.state.lesson_track == "vision" and w.state.lesson_step == steps[0] and w.state.tab == "vision"
    assert lesson.step_label.text() == f"Step 1 of {len(steps)}:" and not lesson.back_button.isEnabled()
    w.classroom.act_next.trigger()  # →
    assert w.state.lesson_step == steps[1] and lesson.step_label.text() == f"Step 2 of {len(steps)}:"
    w.state.set_lesson_step(steps[-1])
    assert not lesson.next_button.isEnabled()
    w.classroom.act_next.trigger()  # the track's end: → stays
    assert w.state.lesson_step == steps[-1] and w.state.lesson_track == "vision"
    lesson.set_playing(True)  # Play at the end starts the track again, not the lesson
    assert w.state.lesson_step == steps[0] and lesson.timer.isActive()
    lesson.set_playing(False)


def test_the_picker_follows_the_state_and_its_language(qtbot, small):
    w = small
    w.classroom.show_lesson(True)
    lesson = w.classroom.lesson
    w.state.set_lesson_track("translation")
    assert lesson.track.currentData() == "translation"
    assert lesson.track.currentText() == "Translation: attention as alignment"
    w.state.set_language("zh_CN")
    qtbot.waitUntil(lambda: lesson.track.currentText() == "翻译：注意力即对齐", timeout=5000)
    assert lesson.track.itemText(0) == "全部课程线"
    w.state.set_language("en")
    qtbot.waitUntil(lambda: lesson.track.itemText(0) == "Every track", timeout=5000)
    assert lesson.track.toolTip().startswith("Which part of the lesson")
