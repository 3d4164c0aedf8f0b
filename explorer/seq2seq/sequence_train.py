"""Train sequence models side by side: the same batches, the same steps, the same seed.

    result = train_sequence_models(("no-attention", "attention"), "compound-fr", steps=600, seed=0,
                                   on_progress=..., should_stop=...)
    result.models["attention"], result.specs[...], result.curves[-1]   the last evaluation's
    LengthCurve per model; result.cpu_seconds[name]: the CPU time its training steps took.

One explorer.training ``train`` loop runs every model: each step draws one batch (the task's
curriculum decides its clause count from the share of training done) and every model takes
one optimiser step on it, so the models see exactly the same data. Each model steps and
evaluates on a thread of its own (explorer.seq2seq.sequence_threads: two models, two cores) while
the loop's thread waits for both; ``parallel=False`` runs them one after the other on the loop's
thread, with the same numbers. Each model's weights start
from ``torch.manual_seed(seed)``, so a model trained alone gets the same start as beside
another. Every ``eval_every`` steps each model decodes the fixed evaluation set
(explorer.seq2seq.length_curve) and ``on_progress`` receives a ``SequenceProgress`` with the
curves: a window redraws the figure from it. Evaluation time is kept apart (``eval_seconds``).

Determinism: on the CPU the same seed gives the same losses (one generator for the weights,
one for the batches, a fixed thread count).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
import torch
import torch.nn.functional as F

from explorer.core.device import choose_device, torch_threads
from explorer.seq2seq.length_curve import LengthCurve, curve_metrics, evaluation_pairs, length_curve
from explorer.seq2seq.sequence_eval import predict
from explorer.seq2seq.sequence_models import (
    SequenceModel,
    SequenceSpec,
    build_sequence_model,
    parameter_count,
    sequence_spec,
)
from explorer.seq2seq.sequence_threads import ModelThreads
from explorer.seq2seq.tasks import PAD, Task, get_task, make_sequence_batch
from explorer.training import Measure, Snapshot, TrainingLog, isolated_generator, seed_everything, train

# The length experiment's budget (docs/benchmarks.md, bench/why_attention.py): the curves part
# where the lesson says within it.
LENGTH_EXPERIMENT_STEPS = 500
SENTENCE_STEPS = 400  # the shipped single-sentence models (≥ 99 % held-out exact match)
# In the length experiment the fixed-C model learns at twice the attention model's rate: at
# the same rate its short sentences stayed under 0.9 per-word on two seeds of five in 500
# steps, at twice it they reach 0.97–0.99 on a validation set (held-out sentences apart from
# the figure's own, bench/why_attention_recipes.py). The attention model's run is unchanged:
# each model has its own optimiser, and both still see the same batches.
LENGTH_EXPERIMENT_LR_FACTORS = (("no-attention", 2.0),)
# Evaluation decodes sentences of about one length per batch (they are sorted by length), so
# a batch of short ones stops as soon as they are written instead of running to the longest.
EVAL_BATCH = 40
_T = TypeVar("_T")


@dataclass(frozen=True)
class SequenceTrainOptions:
    batch_size: int = 32
    lr: float = 4e-3
    cooldown: float = 0.2  # the last 20 % of the steps lower the learning rate linearly to 5 %
    clip: float = 1.0
    eval_every: int = 100
    eval_per_group: int = 20  # held-out sentences per clause count (one group for single sentences)
    snapshot_every: int = 0
    threads: int = 1  # torch threads per model
    parallel: bool = True  # each model on a thread of its own (the numbers are the same either way)
    device: str = "auto"  # CUDA when present; determinism is promised on the CPU
    hidden: int = 48  # encoder GRU width per direction (the decoders have twice this)
    embed: int = 32
    window: int = 3  # local attention's D (explorer.seq2seq.local_attention)
    # a model's own learning rate, as a multiple of ``lr``: (("no-attention", 2.0),); the
    # schedule (cool-down) is the same for every model
    lr_factors: tuple[tuple[str, float], ...] = ()

    def record(self) -> dict:
        """The options that decide the numbers, as a record keeps them (how the models share
        the cores does not: ``parallel`` is left out)."""
        return {k: v for k, v in vars(self).items() if k != "parallel"}

    def lr_of(self, model: str) -> float:
        return self.lr * dict(self.lr_factors).get(model, 1.0)


@dataclass(frozen=True)
class SequenceProgress:
    step: int
    total_steps: int
    losses: dict[str, float]  # this step's loss per model
    elapsed_s: float
    cpu_seconds: dict[str, float]  # per model, training steps only, so far
    curves: dict[str, LengthCurve] | None = None  # at evaluation steps only
    metrics: dict[str, float] = field(default_factory=dict)
    # what explorer.lab's LabRun reads of every lab's report (explorer.training.Progress's fields)
    loss: float = float("nan")  # the models' mean loss this step
    train_s: float = 0.0
    snapshot: Snapshot | None = None  # every model's parameters, under "<model>." (a ModuleDict)
    start: Snapshot | None = None


@dataclass
class SequenceTrainResult:
    task: Task
    specs: dict[str, SequenceSpec]
    models: dict[str, SequenceModel]
    log: TrainingLog
    losses: dict[str, list[float]]
    cpu_seconds: dict[str, float]
    eval_seconds: float
    curves: list[tuple[int, dict[str, LengthCurve]]]  # (step, curve per model) at every evaluation
    device: str
    seed: int
    options: SequenceTrainOptions
    notices: list[str] = field(default_factory=list)

    @property
    def parameters(self) -> dict[str, int]:
        return {name: parameter_count(model) for name, model in self.models.items()}

    @property
    def final_curves(self) -> dict[str, LengthCurve]:
        return self.curves[-1][1]


def train_sequence_models(
    models: tuple[str, ...] | list[str],
    task: str | Task,
    steps: int,
    seed: int = 0,
    on_progress: Callable[[SequenceProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    options: SequenceTrainOptions = SequenceTrainOptions(),
    measures: Sequence[Measure] = (),
) -> SequenceTrainResult:
    task = get_task(task) if isinstance(task, str) else task
    device, notice = choose_device(options.device)
    with torch_threads(options.threads):
        seed_everything(seed)
        specs = {
            name: sequence_spec(name, task, hidden=options.hidden, embed=options.embed, window=options.window)
            for name in models
        }
        built = {}
        for name, spec in specs.items():
            with isolated_generator(seed):  # the same start whether trained alone or beside another
                built[name] = build_sequence_model(spec).to(device)
        container = torch.nn.ModuleDict(built)
        # foreach: every parameter's update (and the clip's norms) in a few calls instead of a
        # dozen per tensor, the same numbers as torch's loop; a model's thread then holds the
        # interpreter lock, which the window's thread needs too, for far fewer Python steps
        optimisers = {
            name: torch.optim.Adam(m.parameters(), lr=options.lr_of(name), foreach=True)
            for name, m in built.items()
        }
        vocab = next(iter(specs.values())).vocab
        batches = np.random.default_rng(seed)
        held_out = evaluation_pairs(task, options.eval_per_group)
        cooldown_steps = max(1, int(options.cooldown * steps))
        losses: dict[str, list[float]] = {name: [] for name in built}
        cpu = dict.fromkeys(built, 0.0)
        curves: list[tuple[int, dict[str, LengthCurve]]] = []
        evaluation = {"seconds": 0.0}
        lanes = ModelThreads(built, options.threads) if options.parallel and len(built) > 1 else None

        def each(work_of: Callable[[str], Callable[[], _T]]) -> dict[str, _T]:
            """Every model's work: on its own thread (``lanes``), or one after the other here."""
            work = {name: work_of(name) for name in built}
            if lanes is None:
                return {name: job() for name, job in work.items()}
            return lanes.run(work)

        def step_of(name: str, batch, rate: float) -> Callable[[], None]:
            model, optimiser = built[name], optimisers[name]

            def step() -> None:
                started = time.thread_time()
                for group in optimiser.param_groups:
                    group["lr"] = options.lr_of(name) * rate
                logits = model(batch.source, batch.lengths, batch.target_in)
                loss = F.cross_entropy(logits.flatten(0, 1), batch.target.flatten(), ignore_index=PAD)
                optimiser.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), options.clip, foreach=True)
                optimiser.step()
                losses[name].append(loss.item())
                cpu[name] += time.thread_time() - started

            return step

        def take_step(i: int) -> float:
            rate = max(0.05, min(1.0, (steps - i) / cooldown_steps))
            batch = make_sequence_batch(task.sample(batches, options.batch_size, i / steps), vocab).to(device)
            each(lambda name: step_of(name, batch, rate))
            return sum(losses[name][-1] for name in built) / len(built)

        def curve_of(name: str) -> Callable[[], LengthCurve]:
            return lambda: length_curve(predict(built[name], held_out, vocab, EVAL_BATCH, device), name)

        def evaluate() -> dict[str, float]:
            started = time.perf_counter()
            step_curves = each(curve_of)
            curves.append((len(losses[next(iter(built))]), step_curves))
            metrics = {k: v for curve in step_curves.values() for k, v in curve_metrics(curve).items()}
            evaluation["seconds"] += time.perf_counter() - started
            metrics["eval_seconds"] = time.perf_counter() - started
            return metrics

        def report(progress) -> None:
            if on_progress is None:
                return
            at_eval = bool(progress.metrics)
            on_progress(
                SequenceProgress(
                    progress.step,
                    progress.total_steps,
                    {name: values[-1] for name, values in losses.items()},
                    progress.elapsed_s,
                    dict(cpu),
                    curves[-1][1] if at_eval else None,
                    progress.metrics,
                    progress.loss,
                    progress.train_s,
                    progress.snapshot,
                    progress.start,
                )
            )

        try:
            log = train(
                container,
                take_step,
                evaluate,
                steps=steps,
                eval_every=options.eval_every,
                snapshot_every=options.snapshot_every,
                on_progress=report,
                should_stop=should_stop,
                measures=measures,
            )
        finally:
            if lanes is not None:
                lanes.close()
    return SequenceTrainResult(
        task, specs, built, log, losses, cpu, evaluation["seconds"], curves, str(device), seed, options,
        [notice] if notice else [],
    )  # fmt: skip
