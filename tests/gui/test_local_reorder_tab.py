"""The Global vs local tab on the reordering task, driven as a person would: the task picker
lists both tasks and sets the text to the task's example, the examples box follows the task,
the shipped pair of the chosen local model is compared, the lesson's reordering step sets the
task, local-m and its sentence, a run trained on one task gives way when the other is chosen,
and presentation mode in Chinese clips nothing. The numbers shown are the Qt-free
comparison's (explorer.seq2seq.local_lab), computed again here."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.appstate.lesson import step_index
from explorer.appstate.local_window import EXAMPLES, REORDER_CASE, LocalSettings
from explorer.seq2seq.local_lab import WindowPair, compare_windows, shipped_pair

from .projector_check import all_problems
from .test_local_window_tab import TAB, wait_compared


@pytest.fixture
def tab(qtbot, window):
    window.state.set_tab(TAB)
    view = window.view(TAB)
    wait_compared(qtbot, view)
    return window, view


def choose(box, data) -> None:
    box.setCurrentIndex(box.findData(data))
    box.activated.emit(box.currentIndex())


def test_the_task_picker_shows_the_reordering_task_with_its_examples(qtbot, tab):
    window, view = tab
    assert [view.task_box.itemData(i) for i in range(view.task_box.count())] == ["copy-twice", "reorder-zh"]
    choose(view.task_box, "reorder-zh")
    s = view.lstate.settings
    assert s.task == "reorder-zh" and s.source == EXAMPLES["reorder-zh"][0]
    assert view.source_edit.text() == s.source and view.source_label.text() == "English:"
    listed = [view.examples.itemData(i) for i in range(1, view.examples.count())]
    assert listed == list(EXAMPLES["reorder-zh"])
    shown = wait_compared(qtbot, view, task="reorder-zh")
    truth = compare_windows(shipped_pair(WindowPair(s.local, 3, "reorder-zh")), "reorder-zh", s.source, 3)
    assert shown.local.output == truth.local.output and shown.global_.output == "简九月访问非洲"
    np.testing.assert_array_equal(shown.local.alignment, truth.local.alignment)
    view.examples.activated.emit(2)  # the two-clause example
    shown = wait_compared(qtbot, view, source=REORDER_CASE)
    assert view.source_edit.text() == REORDER_CASE and len(shown.local.source_tokens) == 13
    choose(view.model_box, "local-m")
    shown = wait_compared(qtbot, view, model="local-m")
    np.testing.assert_array_equal(shown.local.centres, np.arange(len(shown.local.output_tokens)))
    choose(view.task_box, "copy-twice")  # back: the letters again
    wait_compared(qtbot, view, task="copy-twice")
    assert view.lstate.settings.source == EXAMPLES["copy-twice"][0]
    assert view.examples.itemData(1) == EXAMPLES["copy-twice"][0]


def test_the_lessons_reordering_step_sets_task_model_and_sentence(qtbot, tab):
    window, view = tab
    window.state.show_lesson(True)
    window.state.set_lesson_step(step_index("local.reorder"))
    s = view.lstate.settings
    assert (s.task, s.local, s.window, s.source) == ("reorder-zh", "local-m", 3, REORDER_CASE)
    shown = wait_compared(qtbot, view, model="local-m", task="reorder-zh")
    assert shown.global_.exact and shown.local.window_bounds[1] == [0, 4]
    assert view.task_box.currentData() == "reorder-zh"
    assert "p_t within 1 of the true word" in view.summary.text()
    window.state.set_lesson_step(step_index("local.global"))  # the letters come back
    wait_compared(qtbot, view, task="copy-twice")
    assert view.lstate.settings.source == EXAMPLES["copy-twice"][0]


def test_a_session_keeps_the_task(qtbot, tab):
    _, view = tab
    view.lstate.set_task("reorder-zh")
    data = view.lstate.settings.to_dict()
    assert LocalSettings.from_dict(data).task == "reorder-zh"
    with pytest.raises(ValueError):
        LocalSettings.from_dict({**data, "task": "dates"})


def test_presentation_mode_in_chinese_on_the_reordering_task(qtbot, tab):
    window, view = tab
    window.resize(1024, 768)
    window.classroom.set_presentation(True, fullscreen=False)
    window.resize(1024, 768)
    window.state.show_lesson(True)
    window.state.set_language("zh_CN")
    window.state.set_lesson_step(step_index("local.reorder"))
    wait_compared(qtbot, view, task="reorder-zh")
    qtbot.wait(20)
    problems = [p for p in all_problems(window) if "Scroll" not in p]
    assert not problems, problems
    assert view.task_label.text() == "任务：" and "中文" in view.task_box.currentText()
    window.state.set_language("en")
