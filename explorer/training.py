"""Training a window can watch: progress, held-out numbers, snapshots and cancel, without Qt.

The translation and vision labs each say how to take one optimiser step and how to measure
the model on held-out data; ``train`` does the rest the same way for both: it reports every
step to ``on_progress`` (on the caller's thread: a lab run's own, see explorer.lab), evaluates
every ``eval_every`` steps (and runs the lab's ``measures`` there: its own numbers, such as
per-head scores), keeps CPU copies of the parameters every ``snapshot_every`` steps so a
scrubber can replay how attention formed, and stops between steps when ``should_stop()``
answers True.

Two clocks: ``elapsed_s`` is the wall clock since the start; ``train_s`` counts the steps
alone (the evaluations, the measures and the reports are kept off it), so the time a lab
takes to reach its goal does not depend on how often it is measured.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.messages import Message, MessageError


class TrainingCancelled(MessageError):
    """Raised by ``train`` when ``should_stop()`` answered True; ``log`` holds what was done."""

    def __init__(self, log: TrainingLog):
        super().__init__(Message.of("training.cancelled", steps=log.steps_done))
        self.log = log


@dataclass(frozen=True)
class Snapshot:
    step: int
    state: dict[str, torch.Tensor]  # CPU copies of the model's parameters and buffers


# A lab's own numbers, measured at every evaluation (model in eval mode, no gradients).
Measure = Callable[[torch.nn.Module], Mapping[str, float]]


@dataclass(frozen=True)
class Progress:
    step: int  # 1-based: the number of optimiser steps taken so far
    total_steps: int
    loss: float
    elapsed_s: float  # wall clock since the start
    metrics: dict[str, float] = field(default_factory=dict)  # only at evaluation steps
    snapshot: Snapshot | None = None  # only at snapshot steps
    train_s: float = 0.0  # the steps alone: evaluations, measures and reports kept off this clock
    start: Snapshot | None = None  # on the first report only: step 0, the parameters before any step


@dataclass
class TrainingLog:
    """The curves: loss per step, held-out metrics per evaluation, snapshots in step order."""

    losses: list[float] = field(default_factory=list)
    eval_steps: list[int] = field(default_factory=list)
    metrics: list[dict[str, float]] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)
    elapsed_s: float = 0.0
    train_s: float = 0.0
    eval_s: float = 0.0  # evaluations and measures

    @property
    def steps_done(self) -> int:
        return len(self.losses)

    @property
    def last_metrics(self) -> dict[str, float]:
        return self.metrics[-1] if self.metrics else {}


# torch has one global generator for every thread; labs train on threads of their own, two at
# once, while the worker rebuilds snapshots: every block that draws from it holds this lock.
_GENERATOR = threading.RLock()


def seed_everything(seed: int) -> None:
    """The same seed, the same run (on the CPU): Python, numpy and torch generators."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    with _GENERATOR:
        torch.manual_seed(seed)


@contextmanager
def isolated_generator(seed: int | None = None) -> Iterator[None]:
    """Inside, torch's global generator is this block's alone: set to ``seed`` (None: left as it
    is), restored afterwards, and no other thread's block runs meanwhile. Build a model inside
    one: its seeded start is then the same beside another run, and a snapshot rebuilt for the
    window (its random start overwritten at once) leaves every run's generator alone."""
    with _GENERATOR, torch.random.fork_rng(devices=[]):
        if seed is not None:
            torch.manual_seed(seed)
        yield


def snapshot_of(model: torch.nn.Module, step: int) -> Snapshot:
    state = {name: t.detach().to("cpu", copy=True) for name, t in model.state_dict().items()}
    return Snapshot(step, state)


def train(
    model: torch.nn.Module,
    take_step: Callable[[int], float],
    evaluate: Callable[[], dict[str, float]],
    *,
    steps: int,
    eval_every: int = 50,
    snapshot_every: int = 10,
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    measures: Sequence[Measure] = (),
) -> TrainingLog:
    """Run ``take_step(i)`` (one optimiser step, returns the loss) for i = 0 … steps − 1.

    Step 0's parameters (before any training) are snapshot too, so a replay starts from
    the untrained model; the first report carries them as ``start``. ``evaluate()`` and then
    each of ``measures`` run with the model in eval mode and no gradients, after every
    ``eval_every`` steps and after the last; their numbers are one dict per evaluation.
    """
    if steps < 1:
        raise ValueError(f"steps must be 1 or more, not {steps}")
    log = TrainingLog()
    started = time.perf_counter()
    off_clock = 0.0  # evaluations, measures and reports
    start = snapshot_of(model, 0) if snapshot_every else None
    if start is not None:
        log.snapshots.append(start)

    def clocks(now: float) -> None:
        log.elapsed_s = now - started
        log.train_s = log.elapsed_s - off_clock

    for i in range(steps):
        if should_stop is not None and should_stop():
            clocks(time.perf_counter())
            raise TrainingCancelled(log)
        model.train()
        loss = float(take_step(i))
        log.losses.append(loss)
        step = i + 1
        metrics: dict[str, float] = {}
        if step % eval_every == 0 or step == steps:
            measured = time.perf_counter()
            model.eval()
            with torch.no_grad():
                metrics = dict(evaluate())
                for measure in measures:
                    metrics.update(measure(model))
            log.eval_steps.append(step)
            log.metrics.append(metrics)
            spent = time.perf_counter() - measured
            off_clock += spent
            log.eval_s += spent
        snapshot = None
        if snapshot_every and (step % snapshot_every == 0 or step == steps):
            snapshot = snapshot_of(model, step)
            log.snapshots.append(snapshot)
        reported = time.perf_counter()
        clocks(reported)
        if on_progress is not None:
            on_progress(
                Progress(
                    step,
                    steps,
                    loss,
                    log.elapsed_s,
                    metrics,
                    snapshot,
                    log.train_s,
                    start if step == 1 else None,
                )
            )
            off_clock += time.perf_counter() - reported
    clocks(time.perf_counter())
    model.eval()
    return log
