"""Issue 23, trial 9: a run trained on "Watch it learn" must not be shown as the shipped model
on the steps before it, whose words explain the shipped one; the run comes back on its step,
and beside the answer the tab says whenever a run's weights are the answer's."""

from __future__ import annotations

from PySide6 import QtCore

from explorer.appstate.lesson import STEPS

from .helpers import WAIT_MS

TAB = "translation"


def step_of(stage: str) -> int:
    return next(k for k, step in enumerate(STEPS) if step.tab == TAB and step.stage == stage)


def shipped_answer(view) -> bool:
    req = view.trace_request
    return view.trace is not None and view._wanted is None and req is not None and req.weights == "shipped"


def test_a_cancelled_run_gives_way_to_the_shipped_model_on_the_steps_before_it(qtbot, window):
    state, tstate = window.state, window.state.translation
    view = window.view(TAB)
    state.show_lesson(True)
    state.set_lesson_step(step_of("learn"))
    qtbot.waitUntil(lambda: shipped_answer(view), timeout=WAIT_MS)
    shipped_output = view.trace.output
    assert "not the shipped model" not in view.score_label.text()

    view.training.steps.setValue(300)
    qtbot.mouseClick(view.training.train_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(tstate.run.snapshots) >= 2, timeout=60_000)
    qtbot.mouseClick(view.training.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    run = tstate.run
    qtbot.waitUntil(lambda: run.status == "cancelled", timeout=60_000)
    qtbot.waitUntil(
        lambda: view.trace_request is not None and view.trace_request.weights == "trained", timeout=WAIT_MS
    )
    qtbot.waitUntil(
        lambda: view.trace_request.step == run.snapshots[-1].step and view._wanted is None, timeout=WAIT_MS
    )
    # on the training step the answer says whose weights it is
    said = f"your run, step {run.snapshots[-1].step} of 300"
    assert said in view.score_label.text()

    # back to "Soft or hard", "The context", "Softmax": the shipped model, as their words say
    for _ in range(3):
        state.step_lesson(-1)
        assert STEPS[state.lesson_step].tab == TAB and tstate.weights == "shipped"
        qtbot.waitUntil(lambda: shipped_answer(view), timeout=WAIT_MS)
        assert view.trace.output == shipped_output and "your run" not in view.score_label.text()
        assert view.trace.checkpoint == view.trace_request.compute().checkpoint  # the shipped one's

    state.set_lesson_step(step_of("learn"))  # the class's run is back where it was
    assert tstate.weights == "trained" and tstate.run is run
    qtbot.waitUntil(lambda: not shipped_answer(view) and view._wanted is None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: said in view.score_label.text(), timeout=WAIT_MS)
