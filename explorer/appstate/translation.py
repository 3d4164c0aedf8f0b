"""The Translation tab's state, without Qt: what it translates, with which weights, what is
selected, and the training run it may be watching.

``TranslationState`` hangs off ``ExplorerState.translation``. Its settings (the text, the
model, the scoring, the attention, the Transformer's kind / layer / head, the selected cell,
heatmap or lines, the training steps and seed) are one frozen ``TranslationSettings`` that a
session saves; the weights in use (shipped or trained here), the snapshot the scrubber shows
and the ``TrainingRun`` are the session's own (arrays are never saved). Subscribers hear
the ``EVENTS``:

    request     what is translated changed (text, model, scoring, attention, weights, snapshot)
    selection   the selected cell (output step, source character) of the stage panels
    stage       the Transformer's attention kind, layer or head
    view        heatmap or lines
    training    the run started, moved on, or ended; its steps or seed changed

``request()`` is the job for the worker: a frozen ``TranslationRequest`` whose ``compute()``
translates with the shipped checkpoint (``explorer.seq2seq.translate``) or re-translates with
one training snapshot (``alignment_at``); two requests are equal when they would give the
same trace, so the view asks again only when something changed.

``TrainingRun`` trains from scratch on a thread of its own (not the worker's: a run takes
tens of seconds and the worker serves every tab), with one torch thread so a core stays free
for the window. Its progress waits in an inbox until the GUI takes it (``take()``), at the
GUI's pace: the training thread never waits for the window, and the window does a bounded
amount of work per tick however fast the steps come.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import asdict, dataclass, field, replace

import torch

from explorer.appstate.events import Observable
from explorer.seq2seq import (
    ATTENTIONS,
    DEFAULT_SCORING,
    MODELS,
    SCORINGS,
    LabProgress,
    ModelSpec,
    TrainOptions,
    TranslationTrace,
    alignment_at,
    train_model,
    translate,
)
from explorer.seq2seq.checkpoints import CONFIG_FILE, shipped_folder
from explorer.seq2seq.spec import GRU_MODELS, build_model, default_spec
from explorer.training import Snapshot, TrainingCancelled, seed_everything, snapshot_of

EVENTS = ("request", "selection", "stage", "view", "training")
VIEWS = ("heatmap", "lines")
KINDS = ("cross", "decoder_self", "encoder_self")  # the Transformer's attentions; GRU: cross only
WEIGHTS = ("shipped", "trained")
DEFAULT_SOURCE = "9 mai 2018"
MAX_TEXT = 1000  # what a session may hold; the models read MAX_SOURCE_CHARS and say so
DEFAULT_STEPS = {"bahdanau": 300, "luong": 300, "transformer": 600}  # each reaches ≥ 95 % (benchmarks)
STEPS_RANGE = (10, 5000)
SEED_RANGE = (0, 999_999)
# The window's runs: an evaluation every 20 steps draws the accuracy curve (400 held-out
# dates take about 0.13 s); a snapshot every 10 steps feeds the scrubber.
WINDOW_TRAINING = TrainOptions(eval_every=20, snapshot_every=10, threads=1)
GOAL_EXACT_MATCH = 0.95

# Why a (model, scoring) pair cannot be picked (the window words them).
NO_CHECKPOINT_TRANSFORMER = "transformer_scaled_dot_only"
NO_CHECKPOINT_MISSING = "not_shipped"
NO_SAMPLE_TRANSFORMER = "transformer_no_sample"


def checkpoint_problem(model: str, scoring: str) -> str | None:
    """Why there is no shipped checkpoint for this pair (one of the NO_* reasons), or None."""
    if model == "transformer" and scoring != "scaled-dot":
        return NO_CHECKPOINT_TRANSFORMER
    if not (shipped_folder(model, scoring) / CONFIG_FILE).is_file():
        return NO_CHECKPOINT_MISSING
    return None


def attention_problem(model: str, attention: str) -> str | None:
    """Why this decoding cannot be picked for this model, or None."""
    if model == "transformer" and attention == "sample":
        return NO_SAMPLE_TRANSFORMER
    return None


def _whole(value, name: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


@dataclass(frozen=True)
class TranslationSettings:
    """What a session keeps of the tab: every choice, nothing computed."""

    source: str = DEFAULT_SOURCE
    model: str = "bahdanau"
    scoring: str = "additive"
    attention: str = "soft"
    kind: str = "cross"
    layer: int = 1  # the Transformer's last layer (of 2): where the alignment is read
    head: int = 0
    cell: tuple[int, int] | None = None  # (row, column) of the selected attention
    view: str = "heatmap"
    train_steps: int = DEFAULT_STEPS["bahdanau"]
    train_seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.source, str) or len(self.source) > MAX_TEXT:
            raise ValueError(f"the source must be text of at most {MAX_TEXT} characters")
        for name, value, choices in (
            ("model", self.model, MODELS),
            ("scoring", self.scoring, SCORINGS),
            ("attention", self.attention, ATTENTIONS),
            ("kind", self.kind, KINDS),
            ("view", self.view, VIEWS),
        ):
            if value not in choices:
                raise ValueError(f"{name} {value!r} is not one of {', '.join(choices)}")
        _whole(self.layer, "layer", 0, 64)
        _whole(self.head, "head", 0, 64)
        _whole(self.train_steps, "train_steps", *STEPS_RANGE)
        _whole(self.train_seed, "train_seed", *SEED_RANGE)
        if self.cell is not None:
            cell = tuple(self.cell)
            if len(cell) != 2:
                raise ValueError("cell must be two indices or null")
            for c in cell:
                _whole(c, "cell", 0, 10_000)
            object.__setattr__(self, "cell", cell)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["cell"] = list(self.cell) if self.cell is not None else None
        return data

    @classmethod
    def from_dict(cls, data) -> TranslationSettings:
        """A session's ``translation`` object; ValueError names what is wrong. Missing keys
        keep their defaults (a session of an older version)."""
        if not isinstance(data, dict):
            raise ValueError("translation must be an object")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown translation settings: {', '.join(sorted(unknown))}")
        data = dict(data)
        cell = data.get("cell")
        if cell is not None:
            if not isinstance(cell, list):
                raise ValueError("cell must be two indices or null")
            data["cell"] = tuple(cell)
        return cls(**data)


@dataclass(frozen=True)
class TranslationRequest:
    """One translation to compute on the worker; equal requests give the same trace."""

    source: str
    model: str
    scoring: str
    attention: str
    weights: str = "shipped"  # or "trained": a snapshot of this session's run
    run: int = 0  # which run the snapshot belongs to
    step: int = 0  # the snapshot's training step
    snapshot: Snapshot | None = field(default=None, compare=False)
    spec: ModelSpec | None = field(default=None, compare=False)

    def compute(self) -> TranslationTrace:
        """The trace (LabError with a one-line message for text the models cannot read)."""
        if self.weights == "shipped" or self.snapshot is None:
            return translate(self.source, self.model, self.scoring, self.attention)
        trace = alignment_at(self.spec, self.snapshot, self.source, self.attention)
        trace.checkpoint = f"training step {self.step}"
        return trace


@dataclass(frozen=True)
class Update:
    """What one training step sent the window (a LabProgress, and the watched trace of the
    text the window showed at that moment)."""

    step: int
    total_steps: int
    loss: float
    elapsed_s: float
    exact_match: float | None = None
    snapshot: Snapshot | None = None
    watched: TranslationTrace | None = None
    watched_for: tuple[str, str] | None = None  # (text, attention) the watched trace is of


_warmed = threading.Event()


def warm_up_training() -> None:
    """Make the optimiser once, on a thread of its own: torch's first optimiser imports
    torch._dynamo (and sympy), about 5 s on this machine, which would otherwise come between
    the Train button and the first step. The window calls this when the training page is first
    shown; it does nothing the second time, and any failure is the run's to report."""
    if _warmed.is_set():
        return
    _warmed.set()

    def make() -> None:
        try:
            torch.optim.Adam([torch.zeros(1, requires_grad=True)])
        except Exception:  # the run itself will say what is missing
            pass

    threading.Thread(target=make, name="explorer-training-warm-up", daemon=True).start()


class TrainingRun:
    """Training from scratch on its own thread; the window takes what arrived, when it likes.

    The public lists (losses, evaluations, snapshots) grow only in ``take()``, on the taker's
    thread, so the window reads them without locks.
    """

    _ids = itertools.count(1)

    def __init__(
        self,
        model: str,
        scoring: str,
        steps: int,
        seed: int,
        watch: tuple[str, str] = (DEFAULT_SOURCE, "soft"),
        options: TrainOptions = WINDOW_TRAINING,
    ):
        self.id = next(self._ids)
        self.spec = default_spec(model, scoring)
        self.steps, self.seed, self.options = steps, seed, options
        self.status = "ready"  # running, done, cancelled, failed
        self.error: BaseException | None = None
        self.losses: list[float] = []
        self.eval_steps: list[int] = []
        self.exact_matches: list[float] = []
        self.snapshots: list[Snapshot] = []
        self.elapsed_s = 0.0
        self.reached_goal_s: float | None = None  # elapsed when held-out exact match first ≥ 95 %
        self.reached_goal_step: int | None = None
        # the newest snapshot's watched trace: (step, (text, attention), trace or None)
        self.watched: tuple[int, tuple[str, str], TranslationTrace | None] | None = None
        self._watch = watch
        self._inbox: list[Update] = []
        self._ended: str | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- control (any thread) ----------------------------------------------------------------------
    def start(self) -> None:
        self.status = "running"
        self._thread = threading.Thread(target=self._run, name="explorer-training", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        self._stop.set()

    def watch(self, text: str, attention: str) -> None:
        """The text (and decoding) the training thread translates at every snapshot."""
        self._watch = (text, attention)

    def join(self, timeout: float | None = None) -> bool:
        if self._thread is not None:
            self._thread.join(timeout)
        return self._thread is None or not self._thread.is_alive()

    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def step(self) -> int:
        return len(self.losses)

    # -- the training thread -----------------------------------------------------------------------
    def _run(self) -> None:
        ended, error = "done", None
        try:
            self._progress(LabProgress(0, self.steps, float("nan"), 0.0, snapshot=self._untrained()))
            train_model(
                self.spec.model,
                self.spec.scoring,
                steps=self.steps,
                seed=self.seed,
                on_progress=self._progress,
                should_stop=self._stop.is_set,
                options=self.options,
                spec=self.spec,
            )
        except TrainingCancelled:
            ended = "cancelled"
        except Exception as exc:  # shown to the user as a message; the thread ends cleanly
            ended, error = "failed", exc
        with self._lock:
            self._ended, self.error = ended, error

    def _untrained(self) -> Snapshot:
        """Step 0, the parameters before any training (the replay starts there): the module
        ``train_model`` builds first, from the same seed (a test checks they are equal)."""
        seed_everything(self.seed)
        return snapshot_of(build_model(self.spec), 0)

    def _progress(self, p: LabProgress) -> None:
        watched, watch = None, None
        if p.snapshot is not None:
            watch = self._watch
            try:  # the alignment the window shows for its text, from this very snapshot
                watched = alignment_at(self.spec, p.snapshot, *watch)
                watched.checkpoint = f"training step {p.step}"
            except ValueError:  # text the model cannot read: the window says why
                watched = None
        update = Update(p.step, p.total_steps, p.loss, p.elapsed_s, p.exact_match, p.snapshot, watched, watch)
        with self._lock:
            self._inbox.append(update)

    # -- the taker's thread ------------------------------------------------------------------------
    def take(self) -> list[Update]:
        """Everything that arrived since the last call, folded into the public lists."""
        with self._lock:
            updates, self._inbox = self._inbox, []
            ended = self._ended
        for u in updates:
            if u.step > 0:  # step 0 is the untrained model: no loss yet
                self.losses.append(u.loss)
            self.elapsed_s = u.elapsed_s
            if u.exact_match is not None:
                self.eval_steps.append(u.step)
                self.exact_matches.append(u.exact_match)
                if self.reached_goal_s is None and u.exact_match >= GOAL_EXACT_MATCH:
                    self.reached_goal_s, self.reached_goal_step = u.elapsed_s, u.step
            if u.snapshot is not None:
                self.snapshots.append(u.snapshot)
                self.watched = (u.step, u.watched_for, u.watched)
        if ended is not None and self.status == "running":
            self.status = ended
        return updates


class TranslationState(Observable):
    """The tab's one source of truth (see the module docstring)."""

    EVENTS = EVENTS

    def __init__(self, settings: TranslationSettings | None = None):
        super().__init__()
        self.settings = settings or TranslationSettings()
        self.weights = "shipped"
        self.snapshot: int | None = None  # index into run.snapshots; None: the newest
        self.run: TrainingRun | None = None

    def __eq__(self, other) -> bool:
        """Equal when they show the same: settings, weights, snapshot and the very same run."""
        if not isinstance(other, TranslationState):
            return NotImplemented
        mine = (self.settings, self.weights, self.snapshot)
        return mine == (other.settings, other.weights, other.snapshot) and self.run is other.run

    __hash__ = None  # mutable

    # -- events --------------------------------------------------------------------------------------
    def _change(self, events: tuple[str, ...], **changes) -> bool:
        new = replace(self.settings, **changes)
        if new == self.settings:
            return False
        self.settings = new
        self._emit(*events)
        return True

    # -- reading ----------------------------------------------------------------------------------------
    @property
    def is_gru(self) -> bool:
        return self.settings.model in GRU_MODELS

    @property
    def training(self) -> bool:
        return self.run is not None and self.run.running

    def snapshot_index(self) -> int | None:
        """The snapshot the trained weights come from (the newest unless scrubbed), or None."""
        if self.run is None or not self.run.snapshots:
            return None
        last = len(self.run.snapshots) - 1
        return last if self.snapshot is None else min(self.snapshot, last)

    def request(self) -> TranslationRequest:
        s = self.settings
        index = self.snapshot_index() if self.weights == "trained" else None
        if index is None:
            return TranslationRequest(s.source, s.model, s.scoring, s.attention)
        run = self.run
        snap = run.snapshots[index]
        return TranslationRequest(
            s.source,
            run.spec.model,
            run.spec.scoring,
            s.attention,
            "trained",
            run.id,
            snap.step,
            snap,
            run.spec,
        )

    # -- what is translated -----------------------------------------------------------------------------
    def set_source(self, text: str) -> bool:
        if not isinstance(text, str):
            raise ValueError("the source must be text")
        return self._change(("request",), source=text[:MAX_TEXT])

    def set_model(self, model: str) -> bool:
        """Another model; its scoring becomes one it has a checkpoint for, and the training
        steps its default if they were the old model's default."""
        if model not in MODELS:
            raise ValueError(f"model {model!r} is not one of {', '.join(MODELS)}")
        s = self.settings
        scoring = s.scoring if checkpoint_problem(model, s.scoring) is None else DEFAULT_SCORING[model]
        attention = s.attention if attention_problem(model, s.attention) is None else "soft"
        steps = DEFAULT_STEPS[model] if s.train_steps == DEFAULT_STEPS[s.model] else s.train_steps
        kind = s.kind if model == "transformer" else "cross"
        changed = self._change(
            ("request", "stage", "training"),
            model=model, scoring=scoring, attention=attention, train_steps=steps, kind=kind,
        )  # fmt: skip
        if changed and self.weights == "trained" and self.run is not None and self.run.spec.model != model:
            self.use_shipped()  # the trained weights are another model's
        return changed

    def set_scoring(self, scoring: str) -> bool:
        if scoring not in SCORINGS:
            raise ValueError(f"scoring {scoring!r} is not one of {', '.join(SCORINGS)}")
        if checkpoint_problem(self.settings.model, scoring) == NO_CHECKPOINT_TRANSFORMER:
            raise ValueError(f"the transformer scores with scaled-dot only, not {scoring!r}")
        changed = self._change(("request",), scoring=scoring)
        if (
            changed
            and self.weights == "trained"
            and self.run is not None
            and self.run.spec.scoring != scoring
        ):
            self.use_shipped()
        return changed

    def show_scoring(self, scoring: str) -> None:
        """A trained model that scores this way (a teaching note's link from the pipeline's
        untrained additive/general scoring): the shipped GRU model of that scoring."""
        if not self.is_gru:
            self.set_model(GRU_MODELS[0])
        self.set_scoring(scoring)
        self.use_shipped()

    def set_attention(self, attention: str) -> bool:
        if attention not in ATTENTIONS:
            raise ValueError(f"attention {attention!r} is not one of {', '.join(ATTENTIONS)}")
        if attention_problem(self.settings.model, attention):
            raise ValueError("the transformer decodes with soft or hard cross-attention, not sample")
        return self._change(("request",), attention=attention)

    def use_shipped(self) -> bool:
        return self._set_weights("shipped", None)

    def use_trained(self, snapshot: int | None = None) -> bool:
        """The weights of this session's run: a snapshot (the scrubber) or the newest."""
        if self.run is None or not self.run.snapshots:
            return False
        if snapshot is not None:
            snapshot = max(0, min(int(snapshot), len(self.run.snapshots) - 1))
            if snapshot == len(self.run.snapshots) - 1 and not self.run.running:
                snapshot = None  # the last snapshot of a finished run is its final model
        spec = self.run.spec
        if (self.settings.model, self.settings.scoring) != (spec.model, spec.scoring):
            self.weights, self.snapshot = "trained", snapshot  # the pickers show the run's model
            self._change(
                ("request", "stage", "training"), model=spec.model, scoring=spec.scoring, kind="cross"
            )
            return True
        return self._set_weights("trained", snapshot)

    def _set_weights(self, weights: str, snapshot: int | None) -> bool:
        if (self.weights, self.snapshot) == (weights, snapshot):
            return False
        self.weights, self.snapshot = weights, snapshot
        self._emit("request")
        return True

    # -- what is shown ------------------------------------------------------------------------------------
    def select(self, cell: tuple[int, int] | None) -> bool:
        cell = None if cell is None else (max(0, int(cell[0])), max(0, int(cell[1])))
        return self._change(("selection",), cell=cell)

    def set_kind(self, kind: str) -> bool:
        if kind not in KINDS:
            raise ValueError(f"kind {kind!r} is not one of {', '.join(KINDS)}")
        if kind != "cross" and self.is_gru:
            raise ValueError("the GRU models have one attention: cross")
        return self._change(("stage",), kind=kind)

    def set_layer(self, layer: int) -> bool:
        return self._change(("stage",), layer=_whole(int(layer), "layer", 0, 64))

    def set_head(self, head: int) -> bool:
        return self._change(("stage",), head=_whole(int(head), "head", 0, 64))

    def set_view(self, view: str) -> bool:
        if view not in VIEWS:
            raise ValueError(f"view {view!r} is not one of {', '.join(VIEWS)}")
        return self._change(("view",), view=view)

    # -- training -------------------------------------------------------------------------------------------
    def set_training_options(self, steps: int | None = None, seed: int | None = None) -> bool:
        s = self.settings
        steps = s.train_steps if steps is None else _whole(int(steps), "train_steps", *STEPS_RANGE)
        seed = s.train_seed if seed is None else _whole(int(seed), "train_seed", *SEED_RANGE)
        return self._change(("training",), train_steps=steps, train_seed=seed)

    def start_training(self, options: TrainOptions = WINDOW_TRAINING) -> TrainingRun:
        """Train the picked model and scoring from scratch; the tab follows the new run."""
        self.cancel_training()
        s = self.settings
        self.run = TrainingRun(
            s.model, s.scoring, s.train_steps, s.train_seed, (s.source, s.attention), options
        )
        self.weights, self.snapshot = "trained", None
        self.run.start()
        self._emit("training", "request")
        return self.run

    def cancel_training(self) -> None:
        if self.run is not None and self.run.running:
            self.run.cancel()

    def poll(self) -> list[Update]:
        """Take the run's new progress (call it on the GUI thread, on a timer); notifies
        ``training`` when anything came and ``request`` when the tab follows the newest
        snapshot and a new one came."""
        run = self.run
        if run is None:
            return []
        was = run.status
        updates = run.take()
        s = self.settings
        run.watch(s.source, s.attention)
        if not updates and run.status == was:
            return updates
        self._emit("training")
        if self.weights == "trained" and self.snapshot is None and any(u.snapshot for u in updates):
            self._emit("request")
        return updates

    # -- sessions -----------------------------------------------------------------------------------------------
    def apply(self, settings: TranslationSettings) -> None:
        """A session's settings (the weights go back to the shipped checkpoint)."""
        old, self.settings = self.settings, settings
        self.weights, self.snapshot = "shipped", None
        self._emit("request", "stage", "view", "training")
        if old.cell != settings.cell:
            self._emit("selection")
