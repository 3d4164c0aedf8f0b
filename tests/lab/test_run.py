"""LabRun: a training run on its own thread, its progress taken by whoever watches it."""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import replace
from functools import partial

import pytest
import torch

from explorer.core.device import TRAINING_NICENESS, torch_threads
from explorer.lab import MAX_RUNNING, Goal, LabRun, TrainOptions, run_all
from explorer.messages import Message, MessageError
from explorer.training import isolated_generator, seed_everything, train

OPTIONS = TrainOptions(steps=40, eval_every=10, snapshot_every=10, device="cpu")


def fit_line(options, on_progress=None, should_stop=None, measures=(), pause_s=0.0, fail=None):
    """y = 3x - 1 learnt by one linear unit: a lab's training function in miniature."""
    with torch_threads(options.threads):
        seed_everything(options.seed)
        with isolated_generator(options.seed):  # a run beside it draws from the global one too
            model = torch.nn.Linear(1, 1)
        opt = torch.optim.SGD(model.parameters(), lr=options.learning_rate * 30)
        x = torch.linspace(-1, 1, 32)[:, None]
        y = 3 * x - 1

        def take_step(i: int) -> float:
            if fail is not None and i == fail[0]:
                raise fail[1]
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            return loss.item()

        def evaluate() -> dict:
            time.sleep(pause_s)
            mse = torch.nn.functional.mse_loss(model(x), y).item()
            return {"mse": mse, "close": float(mse < 0.5)}

        log = train(
            model,
            take_step,
            evaluate,
            steps=options.steps,
            eval_every=options.eval_every,
            snapshot_every=options.snapshot_every,
            on_progress=on_progress,
            should_stop=should_stop,
            measures=measures,
        )
        return model, log


def finished(run: LabRun) -> LabRun:
    return run_all([run], timeout=60)[0]


def test_a_run_trains_what_its_job_trains_and_reaches_its_goal():
    _, log = fit_line(OPTIONS)
    run = finished(LabRun(fit_line, OPTIONS, goal=Goal("close", 1.0), spec="line"))
    assert run.status == "done" and run.error is None and run.step == 40 == run.steps
    assert run.losses == log.losses  # the same seed, the same steps
    assert run.eval_steps == log.eval_steps == [10, 20, 30, 40]
    assert run.series("mse") == [m["mse"] for m in log.metrics]
    assert [s.step for s in run.snapshots] == [s.step for s in log.snapshots] == [0, 10, 20, 30, 40]
    for mine, theirs in zip(run.snapshots, log.snapshots):
        assert torch.equal(mine.state["weight"], theirs.state["weight"])
    first = next(i for i, m in enumerate(log.metrics) if m["close"] >= 1.0)
    assert run.goal_step == log.eval_steps[first] and 0 < run.goal_s <= run.goal_wall_s
    model, _ = run.result
    assert model.weight.item() == fit_line(OPTIONS)[0].weight.item() and run.losses[-1] < run.losses[0] / 10


def test_measures_are_taken_at_every_evaluation_and_kept_off_the_training_clock():
    def slope(model) -> dict:
        return {"slope": float(model.weight.item())}

    job = partial(fit_line, measures=(slope,), pause_s=0.05)
    run = finished(LabRun(job, OPTIONS))
    slopes = run.series("slope")
    assert len(slopes) == 4 and slopes[-1] == pytest.approx(run.result[0].weight.item())
    log = run.result[1]
    assert log.eval_s >= 4 * 0.05 and log.train_s <= log.elapsed_s - 4 * 0.05
    assert run.train_s == pytest.approx(log.train_s, abs=0.05) and run.wall_s >= log.elapsed_s - 0.01


def test_the_thread_never_waits_for_the_taker_and_take_folds_in_order():
    run = LabRun(fit_line, OPTIONS)
    run.start()
    assert run.join(60)  # nobody took anything meanwhile
    assert run.status == "running"  # the taker has not heard of the end yet
    updates = run.take()
    assert [u.step for u in updates] == list(range(0, 41)) and run.status == "done"
    assert run.take() == [] and run.step == 40


def test_cancel_stops_between_steps_and_keeps_the_snapshots():
    seen = threading.Event()

    def job(options, on_progress, should_stop):
        def report(p):
            on_progress(p)
            if p.step == 15:
                seen.set()
                time.sleep(0.2)  # cancel arrives while step 15 is reported

        return fit_line(options, report, should_stop)

    run = LabRun(job, replace(OPTIONS, steps=1000))
    run.start()
    assert seen.wait(30)
    run.cancel()
    finished(run)
    assert run.status == "cancelled" and 15 <= run.step < 1000
    assert [s.step for s in run.snapshots][:2] == [0, 10]


@pytest.mark.parametrize(
    "error, key",
    [
        (RuntimeError("boom\nsecond line"), "lab.failed"),
        (MessageError.of("training.cancelled", steps=3), "training.cancelled"),
    ],
)
def test_a_failure_is_one_keyed_message(error, key):
    run = finished(LabRun(partial(fit_line, fail=(5, error)), OPTIONS))
    assert run.status == "failed" and isinstance(run.error, Message) and run.error.key == key
    assert "\n" not in run.error and run.step == 5
    if key == "lab.failed":
        assert run.error == "training stopped: boom second line"


def test_the_watcher_sees_every_snapshot_with_the_newest_target():
    looked = []

    def watcher(snapshot, target):
        looked.append((snapshot.step, target))
        return float(snapshot.state["weight"].item())

    run = LabRun(fit_line, OPTIONS, watcher=watcher, watch="first")
    run.watch("second")
    finished(run)
    assert [step for step, _ in looked] == [0, 10, 20, 30, 40] and {t for _, t in looked} == {"second"}
    step, target, weight = run.watched
    assert (step, target) == (40, "second") and weight == pytest.approx(run.result[0].weight.item())


def test_two_runs_at_once_train_as_they_would_alone_and_a_third_is_refused():
    alone = [fit_line(replace(OPTIONS, seed=s, steps=300))[1].losses for s in (1, 2)]
    before = torch.get_num_threads()
    runs = [LabRun(fit_line, replace(OPTIONS, seed=s, steps=300)) for s in (1, 2)]
    for run in runs:
        run.start()
    third = LabRun(fit_line, OPTIONS)
    third.start()
    assert MAX_RUNNING == 2 and third.status == "failed" and third.error.key == "lab.too_many_runs"
    run_all(runs, timeout=120)
    assert [r.status for r in runs] == ["done", "done"]
    assert [r.losses for r in runs] == alone  # one thread each: the same numbers as alone
    assert torch.get_num_threads() == before
    later = finished(LabRun(fit_line, OPTIONS))  # once they ended, a run starts again
    assert later.status == "done"


def test_options_are_checked():
    for bad in (
        {"steps": 0},
        {"seed": -1},
        {"batch_size": 0},
        {"learning_rate": float("nan")},
        {"eval_every": 0},
        {"pool_size": 0},
        {"threads": 0},
        {"snapshot_every": -1},
        {"steps": True},
    ):
        with pytest.raises(ValueError):
            TrainOptions(**bad)
    with pytest.raises(ValueError, match="steps"):
        replace(OPTIONS, steps=0)


def test_a_third_run_is_refused_naming_the_two_that_train():
    import explorer.appstate.lab  # noqa: F401  (registers the labs' run titles)

    release = threading.Event()

    def waiting(options, on_progress, should_stop):
        release.wait(30)

    titles = [Message.of("appstate.lab_translation"), Message.of("appstate.lab_vit_cnn")]
    holding = [LabRun(waiting, replace(OPTIONS, steps=s), title=t) for s, t in zip((600, 300), titles)]
    for run in holding:
        run.start()
    third = LabRun(fit_line, OPTIONS, title=Message.of("appstate.lab_vision"))
    third.start()
    release.set()
    run_all(holding, timeout=30)
    assert third.status == "failed" and third.step == 0
    assert third.error == (
        "2 runs are training already (Translation: step 0 of 600; Vision Transformer's CNN: step 0 of 300): "
        "cancel one, or wait for one to end"
    )


def test_a_run_whose_loss_runs_away_ends_failed_saying_it_diverged():
    run = finished(LabRun(fit_line, replace(OPTIONS, learning_rate=1.0)))  # SGD at 30: it explodes
    assert run.status == "failed" and run.error.key in ("lab.diverged", "lab.loss_not_finite")
    assert "the run diverged" in run.error and run.snapshots  # what it did still replays
    healthy = finished(LabRun(fit_line, OPTIONS))
    assert healthy.status == "done" and healthy.error is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="nice is per thread on Linux only")
def test_a_run_trains_at_a_lower_priority_than_the_window():
    """Two runs and the window on two cores: the window's thread must get a core at once
    (measured: the ViT pair's longest GUI block 212 → 48 ms). The run's thread is niced, the
    thread that started it is not."""

    def job(options, on_progress=None, should_stop=None):
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    caller = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    run = finished(LabRun(job, OPTIONS))
    assert run.status == "done"
    assert run.result >= TRAINING_NICENESS > caller
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == caller
