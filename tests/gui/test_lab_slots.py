"""A Train page when a run cannot train as asked: a third run beside two others, and a run
that diverged. The reason stands alone and names what it must (the two runs holding the
slots), never run into the progress text; in both languages."""

from __future__ import annotations

import threading

import pytest
from PySide6 import QtCore

from explorer.gui.core_text import translated
from explorer.lab import LabRun, run_all
from explorer.messages import Message
from explorer.training import train

TAB = "translation"


@pytest.fixture
def page(qtbot, window):
    window.state.set_tab(TAB)
    view = window.view(TAB)
    view.pages.setCurrentIndex(1)
    return window, window.state.translation, view.training


@pytest.fixture
def two_runs_training():
    """Two other labs' runs holding both slots until the test ends."""
    release = threading.Event()

    def waiting(options, on_progress, should_stop):
        release.wait(60)

    state_titles = ("appstate.lab_vision", "appstate.lab_lm")
    from explorer.lab import TrainOptions

    runs = [LabRun(waiting, TrainOptions(steps=300, device="cpu"), title=Message.of(t)) for t in state_titles]
    for run in runs:
        run.start()
    yield runs
    release.set()
    run_all(runs, timeout=60)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_a_third_run_is_refused_in_a_line_of_its_own_naming_the_two(qtbot, page, two_runs_training, language):
    window, tstate, training = page
    window.state.set_language(language)
    qtbot.mouseClick(training.train_button, QtCore.Qt.MouseButton.LeftButton)
    run = tstate.run
    assert run.status == "failed" and run.error.key == "lab.too_many_runs"
    status = training.status.text()
    refusal = translated(run.error)
    failed = "Training failed: " if language == "en" else status.split(refusal)[0]
    assert status == failed + refusal  # nothing glued after it
    if language == "en":
        assert refusal == (
            "2 runs are training already (Vision: step 0 of 300; Language model: step 0 of 300): "
            "cancel one, or wait for one to end"
        )
    else:
        assert "视觉：第 0 步，共 300 步；语言模型：第 0 步，共 300 步" in refusal
        assert "Step" not in status and "共 400 步" not in status
    assert training.train_button.isEnabled()  # nothing trains: Train can be pressed again


def test_a_run_that_diverged_says_so_on_the_train_page(qtbot, page, monkeypatch):
    window, tstate, training = page

    def rising(options, on_progress, should_stop):
        import torch

        losses = [1.0 + i for i in range(options.steps)]
        model = torch.nn.Linear(1, 1)
        return train(
            model, lambda i: losses[i], dict, steps=options.steps, snapshot_every=0, on_progress=on_progress
        )

    monkeypatch.setattr(tstate, "new_run", lambda options: LabRun(rising, options))
    training.steps.setValue(20)
    qtbot.mouseClick(training.train_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not tstate.training, timeout=30_000)
    qtbot.waitUntil(lambda: tstate.run.status == "failed", timeout=30_000)
    first, progress = training.status.text().split("\n")
    assert first == (
        "Training failed: the loss rose from 1.000 at step 1 to 15.500 over the last 10 steps: the run diverged"
    )
    assert progress.startswith("Step 20 of 20")
