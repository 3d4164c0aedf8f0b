"""What every lab's state holds besides its own settings: its training run, the weights in use
and the snapshot the scrubber shows. Qt-free.

A lab's state (``TranslationState``, ``VisionState``, …) subclasses ``LabState``, which
brings the events ``training`` (a run started, moved on or ended; the plan of the next run
changed) and ``weights`` (the shipped checkpoint or the run's weights; another snapshot),
and says:

    GOAL                    the lab's goal (an explorer.lab.Goal, from the lab's own package)
    OPTIONS                 how the window trains it (explorer.lab.TrainOptions)
    TITLE                   its runs' title (a key in lab_titles.py), for a refusal beside them
    settings                what a session saves of it (the settings type of its LabEntry)
    apply(settings)         a session's settings, each change notified as usual
    prepared()              what a teacher prepares and would lose (unsaved changes), from settings
    plan()                  (steps, seed) of the next run, from the lab's saved settings
    _store_plan(s, seed)    validate and keep them (emitting "training"), True if they changed
    new_run(options)        an explorer.lab.LabRun training what the settings show
    run_fits(spec)          whether the settings show the model the run trains
    show_run_model(spec)    make them show it (the trained weights were chosen)
    watch_target()          what the run's watcher looks at (None: the run has no watcher)

The run lives only in memory (sessions save the plan, never weights). ``snapshot`` is an index
into ``run.snapshots``; None with trained weights means the newest, so the maps follow the run
(``follow``). The window calls ``poll()`` on a timer: it takes what the run sent, at the
window's pace, and says what changed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import replace
from typing import Any

from explorer.appstate import lab_titles as lab_titles  # registers the labs' run titles
from explorer.appstate.events import Observable
from explorer.lab import Goal, LabRun, TrainOptions, Update
from explorer.messages import Message
from explorer.training import Snapshot

WEIGHTS = ("shipped", "trained")
TRAINING_EVENTS = ("training", "weights")


class LabState(Observable, ABC):
    """A lab's training and weights (see the module docstring); a subclass adds its settings."""

    GOAL: Goal
    OPTIONS: TrainOptions
    TITLE: str | None = None  # the key of the run's title (explorer/appstate/lab_titles.py)
    settings: Any  # what a session saves of the lab (its LabEntry's settings type)

    def __init__(self) -> None:
        super().__init__()
        self.options: TrainOptions = self.OPTIONS  # the window's runs (a test may lighten them)
        self.run: LabRun | None = None
        self.weights = "shipped"
        self.snapshot: int | None = None

    def __eq__(self, other: object) -> bool:
        """Equal when a session would save the same: the same lab and settings."""
        if not isinstance(other, LabState) or type(other) is not type(self):
            return NotImplemented
        return bool(self.settings == other.settings)

    __hash__ = None  # type: ignore[assignment]  # mutable

    # -- what a lab says ---------------------------------------------------------------------------
    @abstractmethod
    def apply(self, settings: Any) -> None:
        """See the module docstring."""

    def arrive_at_step(self, step_id: str) -> None:
        """A lesson step on this lab's tab comes on screen: a lab whose steps show an example
        of a typed input sets the one they need (letters typed for another step would
        otherwise be what the step's picture shows)."""

    def prepared(self) -> Any:
        """The settings without what only looks around (a selection, a page): browsing is no change."""
        return self.settings

    @abstractmethod
    def plan(self) -> tuple[int, int]:
        """See the module docstring."""

    @abstractmethod
    def _store_plan(self, steps: int, seed: int) -> bool:
        """See the module docstring."""

    @abstractmethod
    def new_run(self, options: TrainOptions) -> LabRun:
        """See the module docstring."""

    def run_fits(self, spec: Any) -> bool:
        return True

    def show_run_model(self, spec: Any) -> None:
        """Only a lab whose settings can show another model than the run's needs this."""

    def watch_target(self) -> Any:
        return None

    # -- reading -----------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        """idle (no run yet), running, done, cancelled or failed: explorer.lab.STATUSES."""
        return "idle" if self.run is None else self.run.status

    @property
    def training(self) -> bool:
        return self.run is not None and self.run.running

    @property
    def follow(self) -> bool:
        """The trained weights, and the newest snapshot of them: the maps follow the run."""
        return self.weights == "trained" and self.snapshot is None

    def snapshot_index(self) -> int | None:
        """The snapshot the trained weights come from (the newest unless scrubbed), or None."""
        if self.run is None or not self.run.snapshots:
            return None
        last = len(self.run.snapshots) - 1
        return last if self.snapshot is None else min(self.snapshot, last)

    def shown_snapshot(self) -> Snapshot | None:
        """The run's snapshot whose weights are in use, or None for the shipped checkpoint."""
        run, index = self.run, self.snapshot_index()
        if self.weights != "trained" or run is None or index is None:
            return None
        return run.snapshots[index]

    def shown_step(self) -> int | None:
        shown = self.shown_snapshot()
        return None if shown is None else shown.step

    # -- training ----------------------------------------------------------------------------------
    def set_training_plan(self, steps: int | None = None, seed: int | None = None) -> bool:
        old_steps, old_seed = self.plan()
        return self._store_plan(
            old_steps if steps is None else int(steps), old_seed if seed is None else int(seed)
        )

    def start_training(self, options: TrainOptions | None = None) -> LabRun:
        """Train from scratch what the settings show, with the plan's steps and seed; the
        weights follow the new run."""
        self.cancel_training()
        steps, seed = self.plan()
        self.run = self.new_run(replace(options or self.options, steps=steps, seed=seed))
        if self.run.title is None and self.TITLE is not None:
            self.run.title = Message.of(self.TITLE)
        self.weights, self.snapshot = "trained", None
        self.run.start()
        self._emit("training", "weights")
        return self.run

    def cancel_training(self) -> None:
        if self.run is not None and self.run.running:
            self.run.cancel()

    def stop_training(self, timeout: float = 5.0) -> None:
        """Quitting: the run stops between two steps (a moment), before torch shuts down."""
        run = self.run
        self.cancel_training()
        if run is not None:
            run.join(timeout)

    def poll(self) -> list[Update]:
        """Take the run's new progress (on the window's thread, on a timer); notifies
        ``training`` when anything came, and ``weights`` when the maps follow the run and a
        new snapshot came."""
        run = self.run
        if run is None:
            return []
        was = run.status
        updates = run.take()
        target = self.watch_target()
        if target is not None:
            run.watch(target)
        if not updates and run.status == was:
            return updates
        self._emit("training")
        if self.follow and any(u.snapshot is not None for u in updates):
            self._emit("weights")
        return updates

    # -- the weights -------------------------------------------------------------------------------
    def use_shipped(self) -> bool:
        return self._set_weights("shipped", None)

    def use_trained(self, snapshot: int | None = None) -> bool:
        """The run's weights: a snapshot (the scrubber) or the newest (None)."""
        if self.run is None or not self.run.snapshots:
            return False
        if snapshot is not None:
            snapshot = max(0, min(int(snapshot), len(self.run.snapshots) - 1))
            if snapshot == len(self.run.snapshots) - 1 and not self.run.running:
                snapshot = None  # the last snapshot of a finished run is its final model
        if not self.run_fits(self.run.spec):
            self.weights, self.snapshot = "trained", snapshot
            self.show_run_model(self.run.spec)
            self._emit("weights")
            return True
        return self._set_weights("trained", snapshot)

    def _keep_weights_fitting(self) -> None:
        """After the settings changed the model: another model's trained weights give way."""
        if self.weights == "trained" and self.run is not None and not self.run_fits(self.run.spec):
            self.use_shipped()

    def _set_weights(self, weights: str, snapshot: int | None) -> bool:
        if (self.weights, self.snapshot) == (weights, snapshot):
            return False
        self.weights, self.snapshot = weights, snapshot
        self._emit("weights")
        return True
