"""The length experiment as a lab run: both models side by side, as the window trains them.

    run = LabRun(partial(train_side_by_side, "compound-fr"), DEFAULTS, goal=GOAL,
                 spec=side_by_side_specs("compound-fr"))
    run.metrics[-1]["attention/long/word_accuracy"], run.snapshots[-1].state["no-attention.…"]
    curve_from_metrics(run.metrics[-1], "attention")      the LengthCurve of that evaluation
    models_at(specs, snapshot)                           {model: module} with the snapshot's weights
    with RunModels().at(specs, snapshot) as models: ...  the same, the modules built once per run

``train_side_by_side`` is ``train_sequence_models`` with explorer.lab's ``TrainOptions`` (the
recipe every lab's training function follows); the length experiment's own numbers
(clip, cool-down, widths, the fixed C's own learning rate) are ``EXPERIMENT``'s, the command's,
so a run in the window is the ``length-curve`` command's run, step for step.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from explorer.lab import Goal, TrainOptions
from explorer.seq2seq.length_curve import LengthCurve, Summary
from explorer.seq2seq.sequence_models import SequenceModel, SequenceSpec, build_sequence_model, sequence_spec
from explorer.seq2seq.sequence_train import (
    LENGTH_EXPERIMENT_LR_FACTORS,
    LENGTH_EXPERIMENT_STEPS,
    SequenceProgress,
    SequenceTrainOptions,
    SequenceTrainResult,
    train_sequence_models,
)
from explorer.seq2seq.tasks import get_task
from explorer.training import Measure, Snapshot, isolated_generator

SIDE_BY_SIDE = ("no-attention", "attention")
EXPERIMENT = SequenceTrainOptions(lr_factors=LENGTH_EXPERIMENT_LR_FACTORS)
# the lesson's claim, in one number: the attention model still translates sentences of ≥ 40 words
GOAL = Goal("attention/long/word_accuracy", 0.8)
DEFAULTS = TrainOptions(
    steps=LENGTH_EXPERIMENT_STEPS,
    batch_size=EXPERIMENT.batch_size,
    learning_rate=EXPERIMENT.lr,
    eval_every=EXPERIMENT.eval_every,
    eval_size=EXPERIMENT.eval_per_group,  # held-out sentences per clause count
    snapshot_every=EXPERIMENT.eval_every,  # a snapshot per evaluation: its curve and its alignments
)


def side_by_side_specs(task: str) -> dict[str, SequenceSpec]:
    t = get_task(task)
    return {m: sequence_spec(m, t, hidden=EXPERIMENT.hidden, embed=EXPERIMENT.embed) for m in SIDE_BY_SIDE}


def train_side_by_side(
    task: str,
    options: TrainOptions = DEFAULTS,
    on_progress: Callable[[SequenceProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    measures: Sequence[Measure] = (),
) -> SequenceTrainResult:
    sequence_options = SequenceTrainOptions(
        batch_size=options.batch_size,
        lr=options.learning_rate,
        eval_every=options.eval_every,
        eval_per_group=options.eval_size,
        snapshot_every=options.snapshot_every,
        threads=options.threads or 1,
        device=options.device,
        lr_factors=EXPERIMENT.lr_factors,
    )
    return train_sequence_models(
        SIDE_BY_SIDE, task, options.steps, options.seed, on_progress, should_stop, sequence_options, measures
    )


def curve_from_metrics(metrics: Mapping[str, float], model: str) -> LengthCurve | None:
    """The points of one evaluation's curve, read back from its flat numbers (curve_metrics)."""
    prefix = f"{model}/length/"
    points: dict[float, dict[str, float]] = {}
    for key, value in metrics.items():
        if key.startswith(prefix):
            length, name = key[len(prefix) :].split("/")
            points.setdefault(float(length), {})[name] = value
    if not points:
        return None
    lengths = sorted(points)
    return LengthCurve(
        model,
        tuple(lengths),
        tuple(points[x]["exact_match"] for x in lengths),
        tuple(points[x]["word_accuracy"] for x in lengths),
        (0,) * len(lengths),  # the flat numbers keep no counts
        _summary(metrics, f"{model}/short"),
        _summary(metrics, f"{model}/long"),
        metrics.get(f"{model}/alignment_score"),
    )


def _summary(metrics: Mapping[str, float], prefix: str) -> Summary:
    return Summary(metrics.get(f"{prefix}/exact_match"), metrics.get(f"{prefix}/word_accuracy"), 0)


def models_at(specs: Mapping[str, SequenceSpec], snapshot: Snapshot) -> dict[str, SequenceModel]:
    """Each model of a side-by-side run with one snapshot's weights, in eval mode on the CPU."""
    built = {}
    with isolated_generator():  # the random start is overwritten at once
        for name, spec in specs.items():
            model = build_sequence_model(spec)
            model.load_state_dict(_own_weights(snapshot, name))
            built[name] = model.eval()
    return built


def _own_weights(snapshot: Snapshot, model: str) -> dict:
    prefix = f"{model}."
    return {k[len(prefix) :]: v for k, v in snapshot.state.items() if k.startswith(prefix)}


class RunModels:
    """``models_at`` for one run after another, each run's modules built once: a snapshot asked
    for loads its weights into them. A sentence is translated again at every keystroke and every
    snapshot while the run trains, and building two models (their layers, a random start) is far
    more Python than loading their weights, on a thread that shares the interpreter with the
    window and the run. The models are for the caller alone while its ``with`` block lasts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._specs: Mapping[str, SequenceSpec] | None = None
        self._snapshot: Snapshot | None = None
        self._models: dict[str, SequenceModel] = {}

    @contextmanager
    def at(self, specs: Mapping[str, SequenceSpec], snapshot: Snapshot) -> Iterator[dict[str, SequenceModel]]:
        with self._lock:
            if self._specs is not specs and self._specs != specs:
                self._specs, self._models = specs, models_at(specs, snapshot)
            elif self._snapshot is not snapshot:
                for name, model in self._models.items():
                    model.load_state_dict(_own_weights(snapshot, name))
            self._snapshot = snapshot
            yield self._models
