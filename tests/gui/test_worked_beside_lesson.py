"""Trial 9: step 17 asks for the worked arithmetic (Ctrl+Shift+W). At 1024×768 beside the
lesson it opened as a 60 px strip under the lesson's column (presentation mode) or squeezed
the lab's alignment map to 80 px (the normal window). Both modes, both languages: its text
has a readable height, and the lab's alignment map keeps 40 % of the stage's height."""

from __future__ import annotations

import pytest

from explorer.appstate.lesson import STEPS
from explorer.gui.docks.registry import Dock

from .helpers import WAIT_MS

MIN_TEXT_PX = 300  # a dozen lines of the arithmetic at the projector's text size
MIN_FIGURE_SHARE = 0.4


def step_of(stage: str) -> int:
    return next(k for k, step in enumerate(STEPS) if step.tab == "translation" and step.stage == stage)


@pytest.mark.parametrize("present", [False, True], ids=["normal", "presentation"])
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_step_17s_worked_arithmetic_is_readable_and_the_lab_keeps_its_map(
    qtbot, make_window, present, language
):
    window = make_window(size=(1024, 768))
    state = window.state
    state.set_language(language)
    if present:
        window.classroom.set_presentation(True, fullscreen=False)
    window.resize(1024, 768)
    state.show_lesson(True)
    state.set_lesson_step(step_of("alignment_scores"))
    view = window.view("translation")
    qtbot.waitUntil(lambda: view.trace is not None and view._wanted is None, timeout=WAIT_MS)
    view.select_step(2)
    window.docks.action(Dock.WORKED).trigger()  # Ctrl+Shift+W, as the step says
    panel = window.docks.content(Dock.WORKED)
    qtbot.waitUntil(
        lambda: panel.isVisible() and panel.view.viewport().height() >= MIN_TEXT_PX, timeout=WAIT_MS
    )
    assert panel.cell is not None and panel.cell.i == 2  # the selected step's arithmetic
    qtbot.wait(100)  # the tab lays out again in the room left to it
    stage = window.centralWidget().height()
    assert view.alignment.isVisible() and view.alignment.height() >= MIN_FIGURE_SHARE * stage
    assert window.width() <= 1024 and window.height() <= 768

    lesson = window.docks.widget(Dock.LESSON)
    state.step_lesson(1)  # the next step's words come to the front, not hidden behind the arithmetic
    qtbot.waitUntil(lambda: lesson.isVisible() and not lesson.visibleRegion().isEmpty(), timeout=WAIT_MS)
    assert lesson.height() >= MIN_TEXT_PX if present else lesson.isVisible()


def test_leaving_presentation_mode_gives_the_lesson_band_and_the_arithmetic_each_a_place(qtbot, make_window):
    window = make_window(size=(1024, 768))
    window.state.show_lesson(True)  # the band before, so it comes back after
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.set_lesson_step(step_of("alignment_scores"))
    window.docks.action(Dock.WORKED).trigger()
    worked, lesson = window.docks.widget(Dock.WORKED), window.docks.widget(Dock.LESSON)
    qtbot.waitUntil(lambda: worked in window.tabifiedDockWidgets(lesson), timeout=WAIT_MS)
    window.classroom.set_presentation(False)
    window.resize(1024, 768)
    panel = window.docks.content(Dock.WORKED)
    qtbot.waitUntil(
        lambda: panel.isVisible() and panel.view.viewport().height() >= MIN_TEXT_PX, timeout=WAIT_MS
    )
    qtbot.waitUntil(lambda: worked.width() <= 0.3 * window.width(), timeout=WAIT_MS)  # narrow beside the band
    assert lesson.isVisible() and not lesson.visibleRegion().isEmpty()
    assert worked not in window.tabifiedDockWidgets(lesson)
