"""A training run the class can watch: explorer.vision.train on its own thread, its progress on
the GUI thread.

Training runs for tens of seconds, so it does not take the window's worker (the pictures'
maps, the scrubber's snapshots and the text tabs keep computing there meanwhile): ``Trainer``
has its own single-thread executor (the same LatestWins, one torch thread as train_config
sets it). Every step's Progress is emitted from that thread and arrives, queued, on the GUI
thread; ``cancel()`` stops the run between steps and keeps what it did (its snapshots too).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from PySide6 import QtCore

from explorer.core.device import choose_device, threads_for
from explorer.gui.worker_bridge import WorkerBridge
from explorer.training import Progress, Snapshot, TrainingCancelled
from explorer.vision.models import VisionConfig
from explorer.vision.train import TrainSettings, train_config

CHANNEL = "vision-train"
WARM_CHANNEL = "vision-warm"
EVAL_EVERY = 20
SNAPSHOT_EVERY = 10
GOAL = 0.95  # the held-out accuracy the issue asks for
DEVICE = "auto"  # CUDA when present, else the CPU on one thread


def _first_optimiser_step() -> None:
    with threads_for(0):
        parameter = torch.nn.Parameter(torch.zeros(2))
        optimiser = torch.optim.Adam([parameter], lr=1e-3)
        parameter.sum().backward()
        optimiser.step()


@dataclass
class Run:
    """What the tab keeps of one training run (it lives in memory only)."""

    id: int
    config: VisionConfig
    steps: int
    seed: int
    losses: list[float] = field(default_factory=list)
    eval_steps: list[int] = field(default_factory=list)
    accuracy: list[float] = field(default_factory=list)
    held_out_loss: list[float] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)
    device: str = "cpu"  # CUDA when present (the snapshots are CPU copies either way)
    status: str = "running"  # running, finished, cancelled, failed
    error: str = ""
    started: float = field(default_factory=time.perf_counter)  # on the GUI thread, at Start
    elapsed_s: float = 0.0  # the trainer's own clock (from its first step; drawing the pictures comes before)
    wall_s: float = 0.0  # seconds from Start to the latest report arriving here
    goal_s: float | None = None  # seconds from Start until an accuracy ≥ GOAL arrived here

    @property
    def variant(self) -> str:
        return self.config.variant

    @property
    def steps_done(self) -> int:
        return len(self.losses)

    def snapshot_steps(self) -> list[int]:
        return [s.step for s in self.snapshots]

    def snapshot_at(self, step: int) -> Snapshot | None:
        return next((s for s in self.snapshots if s.step == step), None)

    def add(self, p: Progress) -> None:
        self.losses.append(p.loss)
        self.elapsed_s = p.elapsed_s
        self.wall_s = time.perf_counter() - self.started
        if "accuracy" in p.metrics:
            self.eval_steps.append(p.step)
            self.accuracy.append(p.metrics["accuracy"])
            self.held_out_loss.append(p.metrics.get("held_out_loss", float("nan")))
            if self.goal_s is None and p.metrics["accuracy"] >= GOAL:
                self.goal_s = time.perf_counter() - self.started
        if p.snapshot is not None:
            self.snapshots.append(p.snapshot)

    def loss_series(self) -> tuple[np.ndarray, np.ndarray]:
        return np.arange(1, len(self.losses) + 1, dtype=float), np.asarray(self.losses, dtype=float)


class Trainer(QtCore.QObject):
    progressed = QtCore.Signal(object)  # the Run, after a step was added to it (GUI thread)
    ended = QtCore.Signal(object)  # the Run, finished, cancelled or failed (GUI thread)
    warmed = QtCore.Signal()  # the optimiser's imports are done (GUI thread)
    _step = QtCore.Signal(int, object)  # run id, Progress: emitted on the training thread

    def __init__(self, parent=None):
        super().__init__(parent)
        self.bridge = WorkerBridge(parent=self)
        self.bridge.listen(CHANNEL, self._on_result)
        self.bridge.listen(WARM_CHANNEL, lambda _result: self._warmed())
        self._warming: bool | None = None  # None: not asked; True: importing; False: done
        self._step.connect(self._on_step)  # a bound method of a GUI-thread object: queued
        self._ids = 0
        self.pool_size = TrainSettings.pool_size  # training pictures drawn before the first step
        self.eval_size = TrainSettings.eval_size  # held-out pictures every evaluation reads
        self.run: Run | None = None
        self._stop = threading.Event()

    def busy(self) -> bool:
        return self.run is not None and self.run.status == "running"

    def start(self, variant: str, steps: int, seed: int) -> Run:
        if self.busy():
            raise RuntimeError("a training run is in progress")
        self._ids += 1
        run_id = self._ids
        config = VisionConfig(variant=variant)
        settings = TrainSettings(
            steps=steps,
            seed=seed,
            pool_size=self.pool_size,
            eval_every=EVAL_EVERY,
            eval_size=self.eval_size,
            snapshot_every=SNAPSHOT_EVERY,
            device=DEVICE,
            threads=1,
        )
        device, _ = choose_device(DEVICE)
        self.run = Run(run_id, config, steps, seed, device=device.type)
        self._stop = stop = threading.Event()
        emit = self._step.emit

        def job(should_stop):
            return train_config(
                config,
                settings,
                on_progress=lambda p: emit(run_id, p),
                should_stop=lambda: stop.is_set() or should_stop(),
            )

        self.bridge.submit(CHANNEL, job, cancellable=True)
        return self.run

    def warm_up(self) -> bool:
        """On the training thread, once: torch's optimiser imports about 800 modules on its
        first step (2-3 s), so the first run starts at once when this came before it. True when
        it starts now; ``warmed`` is emitted when it is done."""
        if self._warming is not None:
            return False
        self._warming = True
        self.bridge.submit(WARM_CHANNEL, _first_optimiser_step)
        return True

    def cancel(self) -> None:
        """Stop between two steps; the run keeps what it did."""
        self._stop.set()

    def shutdown(self) -> None:
        self._stop.set()
        self.bridge.shutdown(timeout=5.0)

    def _warmed(self) -> None:
        self._warming = False
        self.warmed.emit()

    # -- on the GUI thread ------------------------------------------------------------------------------
    def _on_step(self, run_id: int, progress: Progress) -> None:
        run = self.run
        if run is None or run.id != run_id or run.status != "running":
            return
        run.add(progress)
        self.progressed.emit(run)

    def _on_result(self, result) -> None:
        run = self.run
        if run is None:
            return
        if result.ok:
            log = result.value.log
            run.status = "finished"
        elif isinstance(result.error, TrainingCancelled):
            log = result.error.log
            run.status = "cancelled"
        else:
            log = None
            run.status = "failed"
            run.error = str(result.error)
        if log is not None:
            # The log is the whole story (step 0's snapshot included): every step was also
            # reported, but a queued report may still be on its way; the log is final.
            run.losses = list(log.losses)
            run.eval_steps = list(log.eval_steps)
            run.accuracy = [m.get("accuracy", float("nan")) for m in log.metrics]
            run.held_out_loss = [m.get("held_out_loss", float("nan")) for m in log.metrics]
            run.snapshots = list(log.snapshots)
            run.elapsed_s = log.elapsed_s
        run.wall_s = time.perf_counter() - run.started
        self.ended.emit(run)
