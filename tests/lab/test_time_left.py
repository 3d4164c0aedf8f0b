"""How long a run says it has left: the pace measured from its first step (trial 9: a 500-step
run took five minutes on a loaded classroom PC with no estimate)."""

from __future__ import annotations

import math

import pytest

from explorer.lab import TrainOptions
from explorer.lab.run import PACE_STEPS, LabRun, Update


def running(steps: int) -> LabRun:
    run = LabRun(lambda **_: None, TrainOptions(steps=steps, device="cpu"))
    run.status = "running"  # as start() leaves it, without a thread
    return run


def report(run: LabRun, step: int, wall_s: float) -> None:
    run._post(Update(step, run.steps, 1.0, wall_s, wall_s))
    run.take()


def test_the_time_left_is_the_steps_left_at_the_measured_pace():
    run = running(500)
    report(run, 1, 4.0)  # the first step came after a warm-up: not counted in the pace
    for step in range(2, PACE_STEPS + 1):
        report(run, step, 4.0 + 0.6 * (step - 1))
        assert run.time_left_s is None  # too few steps to say
    for step in range(PACE_STEPS + 1, 101):
        report(run, step, 4.0 + 0.6 * (step - 1))
    assert run.time_left_s == pytest.approx(400 * 0.6)
    report(run, 101, run.wall_s + 30.0)  # an evaluation's pause slows the pace it measures
    assert run.time_left_s == pytest.approx(399 * (0.6 * 99 + 30.0) / 100)


def test_an_ended_run_has_nothing_left():
    run = running(20)
    for step in range(1, 11):
        report(run, step, float(step))
    assert run.time_left_s is not None and math.isclose(run.time_left_s, 10.0)
    run._ended = ("cancelled", None, None)
    run.take()
    assert run.status == "cancelled" and run.time_left_s is None
