"""The Global vs local tab's state, without Qt: the task (copy-twice, monotonic; reorder-zh,
the sentence grammar into Chinese, where words move), the text, the local model beside global
attention, the window D it reads with, the selected output step, and its training run.

``LocalWindowState`` hangs off ``ExplorerState.labs["local"]`` (explorer.appstate.labs). Its
settings are one frozen ``LocalSettings`` that a session saves; the weights in use (the shipped
pair or a snapshot of a run trained here) are held as every lab holds them
(explorer.appstate.lab.LabState). Subscribers hear the ``EVENTS``:

    request     what is compared changed (the task, the text, the local model, the D it reads with)
    weights     the shipped pair or the run's weights, another snapshot (LabState)
    selection   the selected output step
    training    the run started, moved on or ended; its steps, seed or trained D changed

``request()`` is the worker's job: a frozen ``LocalRequest`` whose ``compute()`` runs the text
through both models (explorer.seq2seq.local_lab.compare_windows); equal requests give equal
traces, so the view asks again only when something changed. A run trains global attention and
the chosen local model side by side from scratch (``train_window_pair``) on a thread of its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

from explorer.appstate.lab import LabState
from explorer.appstate.translation import SEED_RANGE, STEPS_RANGE
from explorer.appstate.translation import _whole as _whole  # the same checks as the translation lab's
from explorer.lab import LabRun, TrainOptions
from explorer.messages import Message
from explorer.seq2seq.local_attention import LOCAL_MODELS
from explorer.seq2seq.local_lab import (
    DEFAULTS,
    GOAL,
    ComparedWindows,
    WindowPair,
    compare_windows,
    shipped_pair,
    train_window_pair,
)
from explorer.training import Snapshot

EVENTS = ("request", "weights", "selection", "training")
DEFAULT_SOURCE = "a b c d e f g h"  # 16 words written: rows a projector shows
TASKS = ("copy-twice", "reorder-zh")  # monotonic; the sentence grammar with reordering
# Each task's examples, the first its default text. The reordering ones are the grammar's
# sentences whose time moves before the verb; the two-clause one is the lesson's case.
EXAMPLES = {
    "copy-twice": (
        DEFAULT_SOURCE,
        "a b c d e",
        "a b c d e f g h i j k l m n o",
        "t s r q p o n m l k j i h g f e d c b a",
    ),
    "reorder-zh": (
        "Jane visits Africa in September",
        "Paul sees the red car on Monday and Jane visits Africa in September",
        "Emma buys a small dog in July and Tom likes Japan on Sunday and Anna sees the white bag",
        "Lucas and Jane go to France in May",
    ),
}
REORDER_CASE = EXAMPLES["reorder-zh"][1]  # the lesson's case of local-m on reordering
# What a lesson step of the track (explorer/appstate/lesson_local.py) shows: its task and text.
LESSON_TEXTS = {"local.reorder": ("reorder-zh", REORDER_CASE)}
MAX_TEXT = 1000
WINDOW_RANGE = (1, 30)  # the D a model reads with or trains with
SHIPPED_WINDOW = 3  # the D the shipped local models were trained with


def window_text_problem(text: str, used: int) -> Message | None:
    """What is wrong with a D typed for a run (an emptied field: ""), None when it is one;
    ``used`` is the D a run trains with meanwhile (the last good one)."""
    stripped = text.strip()
    if stripped.isdigit() and WINDOW_RANGE[0] <= int(stripped) <= WINDOW_RANGE[1]:
        return None
    low, high = WINDOW_RANGE
    return Message.of("seq2seq.window_out_of_range", low=low, high=high, value=stripped, used=used)


@dataclass(frozen=True)
class LocalSettings:
    """What a session keeps of the tab: every choice, nothing computed."""

    source: str = DEFAULT_SOURCE
    task: str = TASKS[0]
    local: str = "local-p-ours"
    window: int = SHIPPED_WINDOW  # the D the local model reads with (its trained D or another)
    step: int | None = None  # the selected output step
    train_window: int = SHIPPED_WINDOW  # the D a new run trains with
    train_steps: int = DEFAULTS.steps
    train_seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.source, str) or len(self.source) > MAX_TEXT:
            raise ValueError(f"the source must be text of at most {MAX_TEXT} characters")
        if self.local not in LOCAL_MODELS:
            raise ValueError(f"local {self.local!r} is not one of {', '.join(LOCAL_MODELS)}")
        if self.task not in TASKS:
            raise ValueError(f"task {self.task!r} is not one of {', '.join(TASKS)}")
        _whole(self.window, "window", *WINDOW_RANGE)
        _whole(self.train_window, "train_window", *WINDOW_RANGE)
        _whole(self.train_steps, "train_steps", *STEPS_RANGE)
        _whole(self.train_seed, "train_seed", *SEED_RANGE)
        if self.step is not None:
            _whole(self.step, "step", 0, 10_000)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> LocalSettings:
        """A session's ``local`` object; ValueError names what is wrong. Missing keys keep their
        defaults (a session of an older version)."""
        if not isinstance(data, dict):
            raise ValueError("local must be an object")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown local settings: {', '.join(sorted(unknown))}")
        return cls(**data)


@dataclass(frozen=True)
class LocalRequest:
    """One comparison to compute on the worker; equal requests give the same traces."""

    source: str
    pair: WindowPair
    window: int
    weights: str = "shipped"  # or "trained": a snapshot of this session's run
    run: int = 0
    step: int = 0
    snapshot: Snapshot | None = field(default=None, compare=False)

    def compute(
        self,
        previous: tuple[LocalRequest, ComparedWindows] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> ComparedWindows | None:
        """Both traces (LabError with a one-line message for text the models cannot read).
        ``previous``: the last request and its result; when only the D differs, its global
        trace is this one's (global attention reads no window). A request computed lately is
        answered from ``COMPUTED`` (a D slider moved back and forth decodes each D once).
        ``should_stop()`` True: a newer request replaced this one, None is returned unfinished."""
        known = COMPUTED.get(self)
        if known is not None:
            return known
        if self.weights == "shipped" or self.snapshot is None:
            models = shipped_pair(self.pair)
        else:
            models = self.pair.models_at(self.snapshot.state)
        same_global = None
        if previous is not None and replace(previous[0], window=self.window) == self:
            same_global = previous[1].global_
        if should_stop is not None and should_stop():
            return None
        compared = compare_windows(models, self.pair.task, self.source, self.window, same_global, should_stop)
        if compared is not None:
            COMPUTED.put(self, compared)
        return compared


class ComputedCache:
    """The last few requests' results (equal requests give equal traces), oldest dropped first."""

    def __init__(self, size: int = 32):
        self.size = size
        self._items: OrderedDict[LocalRequest, ComparedWindows] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, request: LocalRequest) -> ComparedWindows | None:
        with self._lock:
            found = self._items.get(request)
            if found is not None:
                self._items.move_to_end(request)
            return found

    def put(self, request: LocalRequest, compared: ComparedWindows) -> None:
        with self._lock:
            self._items[request] = compared
            self._items.move_to_end(request)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


COMPUTED = ComputedCache()


class LocalWindowState(LabState):
    """The tab's one source of truth (see the module docstring)."""

    TITLE = "appstate.lab_local"
    EVENTS = EVENTS
    GOAL = GOAL
    OPTIONS = DEFAULTS

    def __init__(self, settings: LocalSettings | None = None):
        super().__init__()
        self.settings = settings or LocalSettings()

    def _change(self, events: tuple[str, ...], **changes: Any) -> bool:
        new = replace(self.settings, **changes)
        if new == self.settings:
            return False
        self.settings = new
        self._emit(*events)
        return True

    # -- reading -------------------------------------------------------------------------------------
    def shown_pair(self) -> WindowPair:
        """The pair whose weights are in use: the run's, or the shipped one of the chosen model."""
        if self.shown_snapshot() is not None and self.run is not None:
            return self.run.spec
        return WindowPair(self.settings.local, SHIPPED_WINDOW, self.settings.task)

    def request(self) -> LocalRequest:
        s = self.settings
        run, snap = self.run, self.shown_snapshot()
        if run is None or snap is None:
            return LocalRequest(s.source, self.shown_pair(), s.window)
        return LocalRequest(s.source, run.spec, s.window, "trained", run.id, snap.step, snap)

    def arrive_at_step(self, step_id: str) -> None:
        """Each step's task and text: the staircase of the lesson's letters, or its sentence."""
        task, text = LESSON_TEXTS.get(step_id, (TASKS[0], DEFAULT_SOURCE))
        self.set_task(task)
        self.set_source(text)

    # -- what is compared ------------------------------------------------------------------------------
    def set_source(self, text: str) -> bool:
        if not isinstance(text, str):
            raise ValueError("the source must be text")
        return self._change(("request",), source=text[:MAX_TEXT], step=None)

    def set_task(self, task: str) -> bool:
        """Another task: its first example as the text (the letters of one are no sentence of the other)."""
        if task not in TASKS:
            raise ValueError(f"task {task!r} is not one of {', '.join(TASKS)}")
        if task == self.settings.task:
            return False
        self._change(("request", "training"), task=task, source=EXAMPLES[task][0], step=None)
        self._keep_weights_fitting()
        return True

    def set_local(self, local: str) -> bool:
        if local not in LOCAL_MODELS:
            raise ValueError(f"local {local!r} is not one of {', '.join(LOCAL_MODELS)}")
        changed = self._change(("request", "training"), local=local)
        if changed:
            self._keep_weights_fitting()
        return changed

    def set_window(self, window: int) -> bool:
        """The D the local model reads with (its weights stay as trained)."""
        return self._change(("request",), window=_whole(int(window), "window", *WINDOW_RANGE))

    def select(self, step: int | None) -> bool:
        return self._change(("selection",), step=None if step is None else max(0, int(step)))

    def prepared(self) -> LocalSettings:
        return replace(self.settings, step=None)

    # -- training (explorer.appstate.lab) -------------------------------------------------------------
    def set_train_window(self, window: int) -> bool:
        return self._change(("training",), train_window=_whole(int(window), "train_window", *WINDOW_RANGE))

    def plan(self) -> tuple[int, int]:
        return self.settings.train_steps, self.settings.train_seed

    def _store_plan(self, steps: int, seed: int) -> bool:
        steps, seed = _whole(steps, "train_steps", *STEPS_RANGE), _whole(seed, "train_seed", *SEED_RANGE)
        return self._change(("training",), train_steps=steps, train_seed=seed)

    def new_run(self, options: TrainOptions) -> LabRun:
        pair = WindowPair(self.settings.local, self.settings.train_window, self.settings.task)
        self._change(("request",), window=pair.window)  # the trained weights read with their own D
        return LabRun(partial(train_window_pair, pair), options, goal=GOAL, spec=pair)

    def run_fits(self, spec: WindowPair) -> bool:
        return (self.settings.local, self.settings.task) == (spec.local, spec.task)

    def show_run_model(self, spec: WindowPair) -> None:
        if spec.task != self.settings.task:
            self._change(("request", "training"), task=spec.task, source=EXAMPLES[spec.task][0], step=None)
        self._change(("request", "training"), local=spec.local)

    # -- sessions --------------------------------------------------------------------------------------
    def apply(self, settings: LocalSettings) -> None:
        """A session's settings (the weights go back to the shipped pair)."""
        self.settings = settings
        self.weights, self.snapshot = "shipped", None
        self._emit("request", "weights", "selection", "training")
