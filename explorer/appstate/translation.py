"""The Translation tab's state, without Qt: what it translates, with which weights, what is
selected, and the training run it may be watching.

``TranslationState`` hangs off ``ExplorerState.translation``. Its settings (the text, the
model, the scoring, the attention, the Transformer's kind / layer / head, the selected cell,
heatmap or lines, the training steps and seed) are one frozen ``TranslationSettings`` that a
session saves; the weights in use (shipped or trained here), the snapshot the scrubber shows
and the training run (an explorer.lab ``LabRun``) are the session's own, held the way every
lab holds them (``explorer.appstate.lab.LabState``; arrays are never saved). Subscribers hear
the ``EVENTS``:

    request     what is translated changed (text, model, scoring, attention)
    weights     the shipped checkpoint or the run's weights, another snapshot (LabState)
    selection   the selected cell (output step, source character) of the stage panels
    stage       the Transformer's attention kind, layer or head
    view        heatmap or lines
    training    the run started, moved on, or ended; its steps or seed changed (LabState)

``request()`` is the job for the worker: a frozen ``TranslationRequest`` whose ``compute()``
translates with the shipped checkpoint (``explorer.seq2seq.translate``) or re-translates with
one training snapshot (``alignment_at``); two requests are equal when they would give the
same trace, so the view asks again only when something changed.

``training_run`` makes the window's run: ``train_model`` on a thread of its own with one torch
thread, translating the typed date at every snapshot on that thread (the alignment the tab
redraws while it trains, ready when the window takes it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

from explorer.appstate.lab import LabState
from explorer.lab import LabRun, TrainOptions
from explorer.seq2seq import (
    ATTENTIONS,
    DEFAULT_SCORING,
    MODELS,
    SCORINGS,
    ModelSpec,
    TranslationTrace,
    alignment_at,
    train_model,
    translate,
)
from explorer.seq2seq.checkpoints import CONFIG_FILE, shipped_folder
from explorer.seq2seq.spec import GRU_MODELS, default_spec
from explorer.seq2seq.train import DEFAULTS, GOAL
from explorer.training import Snapshot

EVENTS = ("request", "weights", "selection", "stage", "view", "training")
VIEWS = ("heatmap", "lines")
KINDS = ("cross", "decoder_self", "encoder_self")  # the Transformer's attentions; GRU: cross only
WEIGHTS = ("shipped", "trained")
DEFAULT_SOURCE = "9 mai 2018"
LEARN_STEP = "translation.learn"  # the lesson step that trains (explorer/appstate/lesson_translation.py)
MAX_TEXT = 1000  # what a session may hold; the models read MAX_SOURCE_CHARS and say so
DEFAULT_STEPS = {"bahdanau": 300, "luong": 300, "transformer": 600}  # each reaches ≥ 95 % (benchmarks)
STEPS_RANGE = (10, 5000)
SEED_RANGE = (0, 999_999)
# The window's runs: an evaluation every 20 steps draws the accuracy curve (400 held-out
# dates take about 0.13 s); a snapshot every 10 steps feeds the scrubber; one torch thread.
WINDOW_TRAINING = replace(DEFAULTS, eval_every=20, snapshot_every=10, threads=1)

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


def _whole(value: object, name: str, lo: int, hi: int) -> int:
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

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["cell"] = list(self.cell) if self.cell is not None else None
        return data

    @classmethod
    def from_dict(cls, data: object) -> TranslationSettings:
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
        if self.weights == "shipped" or self.snapshot is None or self.spec is None:
            return translate(self.source, self.model, self.scoring, self.attention)
        trace = alignment_at(self.spec, self.snapshot, self.source, self.attention)
        trace.checkpoint = f"training step {self.step}"
        return trace


def watch_alignment(spec: ModelSpec, snapshot: Snapshot, target: tuple[str, str]) -> TranslationTrace | None:
    """The alignment the window shows for its text, from this very snapshot (the run's
    watcher, on the training thread); None for text the model cannot read (the window says why)."""
    try:
        trace = alignment_at(spec, snapshot, *target)
    except ValueError:
        return None
    trace.checkpoint = f"training step {snapshot.step}"
    return trace


def training_run(
    model: str,
    scoring: str,
    options: TrainOptions = WINDOW_TRAINING,
    watch: tuple[str, str] = (DEFAULT_SOURCE, "soft"),
) -> LabRun:
    """``train_model`` from scratch, as a LabRun that translates ``watch`` (text, decoding) at
    every snapshot."""
    spec = default_spec(model, scoring)
    job = partial(train_model, model, scoring, spec=spec)
    return LabRun(job, options, goal=GOAL, spec=spec, watcher=partial(watch_alignment, spec), watch=watch)


class TranslationState(LabState):
    """The tab's one source of truth (see the module docstring)."""

    TITLE = "appstate.lab_translation"
    EVENTS = EVENTS
    GOAL = GOAL
    OPTIONS = WINDOW_TRAINING

    def __init__(self, settings: TranslationSettings | None = None):
        super().__init__()
        self.settings = settings or TranslationSettings()
        self._lesson_left: tuple[int, int | None] | None = None  # (run id, snapshot) a lesson step put away

    def __eq__(self, other: object) -> bool:
        """Equal when they show the same: settings, weights, snapshot and the very same run."""
        if not isinstance(other, TranslationState):
            return NotImplemented
        mine = (self.settings, self.weights, self.snapshot)
        return mine == (other.settings, other.weights, other.snapshot) and self.run is other.run

    __hash__ = None  # mutable

    # -- events --------------------------------------------------------------------------------------
    def _change(self, events: tuple[str, ...], **changes: Any) -> bool:
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

    def request(self) -> TranslationRequest:
        s = self.settings
        run, snap = self.run, self.shown_snapshot()
        if run is None or snap is None:
            return TranslationRequest(s.source, s.model, s.scoring, s.attention)
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

    def arrive_at_step(self, step_id: str) -> None:
        """Every step of the track explains the lesson's date being written; the steps before
        "Watch it learn" explain the shipped model, so they show its weights, and that step
        gives the class's run back (the snapshot it showed) when the lesson took it away."""
        self.set_source(DEFAULT_SOURCE)
        if step_id == LEARN_STEP:
            self._give_run_back()
        elif self.weights == "trained" and self.run is not None:
            self._lesson_left = (self.run.id, self.snapshot)
            self.use_shipped()

    def _give_run_back(self) -> None:
        left, self._lesson_left = self._lesson_left, None
        run = self.run
        if left is None or run is None or run.id != left[0] or not self.run_fits(run.spec):
            return  # another run, or the model changed since: the weights chosen since stay
        if self.weights == "shipped":
            self.use_trained(left[1])

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
        if changed:
            self._keep_weights_fitting()  # the trained weights may be another model's
        return changed

    def set_scoring(self, scoring: str) -> bool:
        if scoring not in SCORINGS:
            raise ValueError(f"scoring {scoring!r} is not one of {', '.join(SCORINGS)}")
        if checkpoint_problem(self.settings.model, scoring) == NO_CHECKPOINT_TRANSFORMER:
            raise ValueError(f"the transformer scores with scaled-dot only, not {scoring!r}")
        changed = self._change(("request",), scoring=scoring)
        if changed:
            self._keep_weights_fitting()
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

    def prepared(self) -> TranslationSettings:
        return replace(self.settings, head=0, cell=None)

    # -- training (explorer.appstate.lab) -------------------------------------------------------------
    def plan(self) -> tuple[int, int]:
        return self.settings.train_steps, self.settings.train_seed

    def _store_plan(self, steps: int, seed: int) -> bool:
        steps, seed = _whole(steps, "train_steps", *STEPS_RANGE), _whole(seed, "train_seed", *SEED_RANGE)
        return self._change(("training",), train_steps=steps, train_seed=seed)

    def new_run(self, options: TrainOptions) -> LabRun:
        s = self.settings
        return training_run(s.model, s.scoring, options, self.watch_target())

    def run_fits(self, spec: ModelSpec) -> bool:
        return (self.settings.model, self.settings.scoring) == (spec.model, spec.scoring)

    def show_run_model(self, spec: ModelSpec) -> None:
        """The pickers show the run's model and scoring."""
        self._change(("request", "stage", "training"), model=spec.model, scoring=spec.scoring, kind="cross")

    def watch_target(self) -> tuple[str, str]:
        return self.settings.source, self.settings.attention

    # -- sessions -----------------------------------------------------------------------------------------------
    def apply(self, settings: TranslationSettings) -> None:
        """A session's settings (the weights go back to the shipped checkpoint)."""
        old, self.settings = self.settings, settings
        self.weights, self.snapshot, self._lesson_left = "shipped", None, None
        self._emit("request", "weights", "stage", "view", "training")
        if old.cell != settings.cell:
            self._emit("selection")
