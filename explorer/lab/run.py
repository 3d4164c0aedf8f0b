"""A lab's training run, on a thread of its own, watched by a window that takes its progress.

    run = LabRun(job, options, goal=Goal("accuracy", 0.95), spec=config)
    run.start()                 # the thread: job(options=…, on_progress=…, should_stop=…)
    run.take()                  # on the window's timer: what arrived since, folded into the lists
    run.losses, run.eval_steps, run.series("accuracy"), run.snapshots, run.status, run.error
    run.cancel()                # between two steps; what was learned stays (its snapshots too)

``job`` is the lab's training function (``explorer.seq2seq.train_model``,
``explorer.vision.train.train_config``, …) with everything but the options, the progress
callback and the stop question bound (``functools.partial``); it runs
``explorer.training.train`` and so reports every step and raises TrainingCancelled when told
to stop. The run never uses the window's thread or its worker: a run takes tens of seconds,
and the worker keeps serving every tab meanwhile.

The inbox: every report is appended to a list under a lock, and the taker folds what arrived
into the public lists on its own thread, at its own pace (``take()``): the training thread
never waits for the window, and the window does a bounded amount of work per tick however
fast the steps come. The public lists grow only in ``take()``, so the taker reads them without
locks.

Statuses, one vocabulary for every lab: ``idle`` (made, not started), ``running``, then
``done``, ``cancelled`` or ``failed`` (``error`` is the failure's keyed Message; a run whose
loss ended far above where it started, explorer.lab.divergence, failed too: its snapshots
still replay). A run refused because ``MAX_RUNNING`` train already names them by ``title``.

The goal: the first evaluation whose ``goal.metric`` reaches ``goal.at_least`` sets
``goal_step``, ``goal_s`` (the training clock: the steps alone, evaluations kept off it) and
``goal_wall_s`` (seconds since ``start()``, as a person watching would count them). A run started
while the labs' warm-up imports torch's optimiser waits for it on its thread (``waiting``).

Threads: the window's options give a run one torch thread. ``torch.set_num_threads`` acts on
the calling thread (the OpenMP build every CPU wheel uses) and a thread that starts later
takes the last value set anywhere; the labs' training functions set their thread's count and
put the old one back when they end (``explorer.core.device.torch_threads``), so two runs at
once (``MAX_RUNNING``: one core each of two, the window's thread sharing them between steps)
change neither each other's threads nor the worker's.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from explorer.core.device import choose_device, is_out_of_memory, yield_to_the_window
from explorer.lab.divergence import divergence
from explorer.lab.messages import failure_message, holders
from explorer.lab.options import TrainOptions
from explorer.lab.warm_up import wait_for_warm_up, warmed
from explorer.messages import Message
from explorer.training import Snapshot, TrainingCancelled

STATUSES = ("idle", "running", "done", "cancelled", "failed")
ENDED = ("done", "cancelled", "failed")
PACE_STEPS = 5  # steps measured before a run says how long it has left (the first ones are no guide)
MAX_RUNNING = 2  # runs side by side on two cores with the window still responsive (docs/benchmarks.md)


@dataclass(frozen=True)
class Goal:
    """A held-out metric a lab's run should reach (one per lab, in the lab's own module)."""

    metric: str
    at_least: float

    def reached(self, metrics: Mapping[str, float]) -> bool:
        value = metrics.get(self.metric)
        return value is not None and value >= self.at_least


@dataclass(frozen=True)
class Update:
    """What one step sent the taker."""

    step: int  # 0: the untrained model (no loss yet)
    total_steps: int
    loss: float
    train_s: float
    wall_s: float  # seconds since start()
    metrics: dict[str, float] = field(default_factory=dict)  # at evaluation steps
    snapshot: Snapshot | None = None
    watched_for: Any = None  # what the watcher was asked to watch at this snapshot …
    watched: Any = None  # … and what it made of it (None: it could not)


class LabRun:
    """One training run (see the module docstring). ``spec`` is the lab's description of what
    it trains (a ModelSpec, a VisionConfig): snapshots turn back into models with it.
    ``watcher(snapshot, target)``, when given, runs on the training thread at each snapshot for
    the ``target`` last given to ``watch()`` (the translation lab translates the typed date)."""

    _ids = itertools.count(1)

    def __init__(
        self,
        job: Callable[..., Any],
        options: TrainOptions,
        *,
        goal: Goal | None = None,
        spec: Any = None,
        watcher: Callable[[Snapshot, Any], Any] | None = None,
        watch: Any = None,
        title: Message | None = None,
    ):
        self.id = next(self._ids)
        self.job, self.options, self.goal, self.spec = job, options, goal, spec
        self.title = title  # what the run is called when another is refused beside it
        self.device = choose_device(options.device)[0].type  # what the run says it trains on
        self.status = "idle"
        self.error: Message | None = None
        self.result: Any = None  # what the job returned (a done run)
        self.losses: list[float] = []
        self.eval_steps: list[int] = []
        self.metrics: list[dict[str, float]] = []
        self.snapshots: list[Snapshot] = []
        self.train_s = 0.0
        self.wall_s = 0.0
        self._first_step_wall_s: float | None = None  # wall_s at the first step: the pace from there
        self.goal_step: int | None = None
        self.goal_s: float | None = None
        self.goal_wall_s: float | None = None
        self.watched: tuple[int, Any, Any] | None = None  # (step, target, what the watcher made)
        self._watcher, self._watch = watcher, watch
        self._inbox: list[Update] = []
        self._ended: tuple[str, Message | None, Any] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0

    # -- control (any thread) ------------------------------------------------------------------------
    def start(self) -> None:
        """Train on a new thread; with ``MAX_RUNNING`` runs training already, the run fails at
        once and says so (a third would slow the window and the other two)."""
        if self.status != "idle":
            raise RuntimeError(f"a run starts once; this one is {self.status}")
        self._started = time.perf_counter()
        with _running_lock:
            training = sorted((r for r in _running if not r._stop.is_set()), key=lambda r: r.id)
            if len(training) >= MAX_RUNNING:
                held = holders([(r.title, r.step, r.steps) for r in training])
                self.status = "failed"
                self.error = Message.of("lab.too_many_runs", most=MAX_RUNNING, holders=held)
                return
            _running.add(self)
        self.status = "running"
        self._thread = threading.Thread(target=self._run, name=f"explorer-lab-run-{self.id}", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        self._stop.set()

    def watch(self, target: Any) -> None:
        """What the watcher looks at from the next snapshot on."""
        self._watch = target

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread (True when it ended); ``take()`` still folds its last reports in."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self._thread is None or not self._thread.is_alive()

    @property
    def waiting(self) -> bool:
        """Started, and still waiting for the labs' warm-up (no step yet)."""
        return self.status == "running" and not self.losses and not warmed()

    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def steps(self) -> int:
        return self.options.steps

    @property
    def step(self) -> int:
        """Steps taken so far (as taken by the window)."""
        return len(self.losses)

    @property
    def time_left_s(self) -> float | None:
        """Seconds the running run should still take, at the pace measured since its first
        step (the wall clock, evaluations included: they come again); None before PACE_STEPS
        steps or once it ended. A 500-step run took five minutes on a loaded classroom PC
        with nothing saying how long it had left (trial 9)."""
        first = self._first_step_wall_s
        if not self.running or first is None or self.step <= PACE_STEPS:
            return None
        spent = self.wall_s - first
        if spent <= 0:
            return None
        per_step = spent / (self.step - 1)
        return max(0.0, (self.steps - self.step) * per_step)

    def series(self, metric: str) -> list[float]:
        """One held-out number per evaluation (NaN where an evaluation did not measure it)."""
        return [m.get(metric, float("nan")) for m in self.metrics]

    def last(self, metric: str) -> float | None:
        return self.metrics[-1].get(metric) if self.metrics else None

    def snapshot_at(self, step: int) -> Snapshot | None:
        return next((s for s in self.snapshots if s.step == step), None)

    # -- the training thread --------------------------------------------------------------------------
    def _run(self) -> None:
        ended, error, result = "done", None, None
        yield_to_the_window()  # the window's thread first: the run only waits while it paints
        wait_for_warm_up(self._stop.is_set)
        try:
            if self._stop.is_set():  # cancelled while it waited for the labs' warm-up
                ended = "cancelled"
            else:
                result = self.job(
                    options=self.options, on_progress=self._report, should_stop=self._stop.is_set
                )
        except TrainingCancelled:
            ended = "cancelled"
        except Exception as exc:  # said to the user as a keyed message; the thread ends cleanly
            ended, error = "failed", failure_message(exc, is_out_of_memory(exc), self.device)
        finally:
            with _running_lock:
                _running.discard(self)
        with self._lock:
            self._ended = (ended, error, result)

    def _report(self, p: Any) -> None:
        """``p``: an explorer.training.Progress, or a lab's report with the same fields."""
        wall = time.perf_counter() - self._started
        start = getattr(p, "start", None)
        if start is not None:
            self._post(Update(0, p.total_steps, float("nan"), 0.0, wall, snapshot=start, **self._look(start)))
        train_s = getattr(p, "train_s", p.elapsed_s)
        snapshot = p.snapshot
        looked = self._look(snapshot) if snapshot is not None else {}
        self._post(Update(p.step, p.total_steps, p.loss, train_s, wall, dict(p.metrics), snapshot, **looked))

    def _look(self, snapshot: Snapshot) -> dict[str, Any]:
        if self._watcher is None:
            return {}
        target = self._watch
        return {"watched_for": target, "watched": self._watcher(snapshot, target)}

    def _post(self, update: Update) -> None:
        with self._lock:
            self._inbox.append(update)

    # -- the taker's thread ---------------------------------------------------------------------------
    def take(self) -> list[Update]:
        """Everything that arrived since the last call, folded into the public lists."""
        with self._lock:
            updates, self._inbox = self._inbox, []
            ended = self._ended
        for u in updates:
            if u.step > 0:  # step 0 is the untrained model: no loss yet
                if not self.losses:
                    self._first_step_wall_s = u.wall_s
                self.losses.append(u.loss)
                self.train_s, self.wall_s = u.train_s, u.wall_s
            if u.metrics:
                self.eval_steps.append(u.step)
                self.metrics.append(u.metrics)
                if self.goal is not None and self.goal_step is None and self.goal.reached(u.metrics):
                    self.goal_step, self.goal_s, self.goal_wall_s = u.step, u.train_s, u.wall_s
            if u.snapshot is not None:
                self.snapshots.append(u.snapshot)
                if self._watcher is not None:
                    self.watched = (u.step, u.watched_for, u.watched)
        if ended is not None and self.status == "running":
            self.status, self.error, self.result = ended
            diverged = divergence(self.losses) if self.status == "done" else None
            if diverged is not None:  # it ended, but learned nothing a lesson could show
                self.status, self.error = "failed", diverged
            self.wall_s = max(self.wall_s, time.perf_counter() - self._started)
        return updates


_running: set[LabRun] = set()
_running_lock = threading.Lock()


def running_count() -> int:
    """Runs training now and not told to stop (any lab)."""
    with _running_lock:
        return sum(not r._stop.is_set() for r in _running)


def run_all(runs: Iterable[LabRun], timeout: float | None = None) -> list[LabRun]:
    """Start the runs, wait for them and take what they sent (scripts and tests)."""
    runs = list(runs)
    for run in runs:
        if run.status == "idle":
            run.start()
    for run in runs:
        run.join(timeout)
        run.take()
    return runs
