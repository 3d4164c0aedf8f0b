"""Train the lab's GPT from scratch through ``explorer.training.train``.

    result = train_lm(LMSpec("induction"), replace(DEFAULTS["induction"], steps=600),
                      on_progress=..., should_stop=...)
    result.model, result.vocab, result.log          # explorer.training's TrainingLog
    score_curves(result.log, result.config)         # per-head scores over the evaluations
    model_at(result.config, snapshot)               # a snapshot as a model (the scrubber)

The options are explorer.lab's ``TrainOptions`` (each task's in ``DEFAULTS``; ``eval_size``
is the number of probe rows); what is trained, the task and the model's recipe, is an
``LMSpec``. ``on_progress`` gets explorer.training's ``Progress`` after every step, on the
caller's thread; at evaluation steps its ``metrics`` hold the probe's two half-losses, each
head's scores (``induction/1.2`` is layer 1, head 2), the best of them and, for the text
task, the held-out loss. Cancel raises ``explorer.training.TrainingCancelled`` between steps.

Determinism: the same seed, the same losses on the CPU (one seeded start, one generator for
the batches, dropout drawn from the run's own generator, a fixed thread count), also while
another run trains beside it. The probe is the same for every seed and run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import torch

from explorer.core.device import choose_device, torch_threads
from explorer.lab import Goal, TrainOptions
from explorer.lm import tasks
from explorer.lm.errors import LMError
from explorer.lm.measures import phase_change, probe_measures
from explorer.lm.model import GPT, GPTConfig, next_token_loss
from explorer.lm.vocab import INDUCTION_VOCAB, CharVocab
from explorer.training import (
    Measure,
    Progress,
    Snapshot,
    TrainingLog,
    isolated_generator,
    seed_everything,
    train,
)

TASKS = ("induction", "text")
INITS = ("torch", "gpt2")
PROBE_SEED = 20220308  # the probe every run measures on, whatever its training seed
SCORES = ("previous_token", "induction", "first_token")

# Each task's run (bench/lm_lab.py measured the choices; docs/benchmarks.md): batches of 32
# rows, Adam, the probe's 16 rows every 25 steps, a snapshot at each evaluation, one thread.
DEFAULTS = {
    "induction": TrainOptions(
        steps=1500, batch_size=32, learning_rate=3e-3, eval_every=25, eval_size=16, snapshot_every=25
    ),
    "text": TrainOptions(
        steps=1500, batch_size=32, learning_rate=1e-3, eval_every=50, eval_size=16, snapshot_every=50
    ),
}
# The best second-layer head's induction score a run should reach (the window times it).
GOAL = Goal("best_induction", 0.5)
TASK_MLP = {"induction": False, "text": True}  # the phase change: MLPs cost time, not steps
TASK_POSITIONS = {"induction": 48, "text": 64}


@dataclass(frozen=True)
class LMSpec:
    """What a run trains: the task and the model's recipe."""

    task: str = "induction"
    mlp: bool | None = None  # None: the task's (TASK_MLP)
    tie: bool = False  # the LM head is wte (GPT-2's choice); untied formed induction heads, tied did not
    init: str = "torch"  # or "gpt2": N(0, 0.02) (GPT.reset_parameters says why not)
    dropout: float = 0.0  # resid_pdrop and embd_pdrop, while training
    probe_period: int = 24  # the probe is 2 × this long

    def __post_init__(self) -> None:
        check_task(self.task)
        if self.init not in INITS:
            raise LMError.of("lm.init_unknown", value=self.init, choices=", ".join(INITS))
        limit = TASK_POSITIONS[self.task] // 2
        period = self.probe_period
        if not isinstance(period, int) or isinstance(period, bool) or not 2 <= period <= limit:
            raise LMError.of("lm.period_out_of_range", value=period, limit=limit)

    @property
    def vocab(self) -> CharVocab:
        return task_vocab(self.task)

    def config(self) -> GPTConfig:
        return GPTConfig(
            vocab_size=len(self.vocab),
            n_positions=TASK_POSITIONS[self.task],
            mlp=TASK_MLP[self.task] if self.mlp is None else self.mlp,
            tie_word_embeddings=self.tie,
            dropout=self.dropout,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def check_task(task: str) -> None:
    if task not in TASKS:
        raise LMError.of("lm.task_unknown", value=task, choices=", ".join(TASKS))


def task_vocab(task: str) -> CharVocab:
    check_task(task)
    return INDUCTION_VOCAB if task == "induction" else tasks.corpus().vocab


def probe_for(vocab: CharVocab, rows: int = 16, period: int = 24) -> torch.Tensor:
    """The probe every run measures on: ``rows`` of ``period`` random symbols repeated once."""
    return tasks.repeated_probe(np.random.default_rng(PROBE_SEED), rows, period, len(vocab.symbols))


@dataclass
class LMTrainResult:
    spec: LMSpec
    config: GPTConfig
    vocab: CharVocab
    model: GPT  # in eval mode, on ``device``
    log: TrainingLog
    device: str
    options: TrainOptions
    notices: list[str] = field(default_factory=list)

    @property
    def task(self) -> str:
        return self.spec.task

    @property
    def phase_change_step(self) -> int | None:
        first = [m["first_half_loss"] for m in self.log.metrics]
        return phase_change(self.log.eval_steps, first, [m["repeated_half_loss"] for m in self.log.metrics])


def train_lm(
    spec: LMSpec,
    options: TrainOptions | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    measures: Sequence[Measure] = (),
) -> LMTrainResult:
    options = options or DEFAULTS[spec.task]
    config, vocab = spec.config(), spec.vocab
    device, notice = choose_device(options.device)
    with torch_threads(options.threads if device.type == "cpu" else None):
        seed_everything(options.seed)
        with isolated_generator(options.seed):
            model = GPT(config)
            if spec.init == "gpt2":
                model.gpt2_init()
        model = model.to(device)
        model.draw_dropout_from(torch.Generator(device).manual_seed(options.seed))
        trained = [p for p in model.parameters() if p.requires_grad]
        optimiser = torch.optim.Adam(trained, lr=options.learning_rate)
        batches = np.random.default_rng(options.seed)
        probe = probe_for(vocab, options.eval_size, spec.probe_period).to(device)
        held_out = None
        if spec.task == "text":
            held_out = tasks.held_out_windows(tasks.corpus().held_out, config.n_positions).to(device)

        def batch() -> torch.Tensor:
            if spec.task == "induction":
                return tasks.induction_rows(
                    batches, options.batch_size, config.n_positions, len(vocab.symbols)
                )
            return tasks.text_windows(batches, tasks.corpus().train, options.batch_size, config.n_positions)

        def take_step(i: int) -> float:
            ids = batch().to(device)
            loss = next_token_loss(model(ids).logits, ids)
            value = loss.item()
            if not math.isfinite(value):
                raise LMError.of("lm.loss_not_finite", step=i + 1)
            optimiser.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            return value

        def evaluate() -> dict[str, float]:
            started = time.perf_counter()
            metrics = measures_of(model, probe, spec.probe_period)
            if held_out is not None:
                metrics["held_out_loss"] = float(next_token_loss(model(held_out).logits, held_out))
            metrics["eval_seconds"] = time.perf_counter() - started
            return metrics

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
    notices: list[str] = [notice] if notice else []
    return LMTrainResult(spec, config, vocab, model, log, str(device), options, notices)


def measures_of(model: GPT, probe: torch.Tensor, period: int) -> dict[str, float]:
    """The probe's numbers as flat metrics: both half-losses, ``score/layer.head`` for every
    head and score, and the best first-layer previous-token and later-layer induction scores."""
    m = probe_measures(model, probe, period)
    metrics = {"first_half_loss": m.first_half_loss, "repeated_half_loss": m.repeated_half_loss}
    for name in SCORES:
        scores = getattr(m.scores, name)
        for layer, head in np.ndindex(scores.shape):
            metrics[f"{name}/{layer}.{head}"] = float(scores[layer, head])
    metrics["best_previous_token"] = float(m.scores.previous_token[0].max())
    later = m.scores.induction[1:] if len(m.scores.induction) > 1 else m.scores.induction
    metrics["best_induction"] = float(later.max())
    return metrics


def score_curves(log: TrainingLog, config: GPTConfig) -> dict[str, np.ndarray]:
    """Per score, [evaluations, layers, heads] over training (NaN where a metric is missing)."""
    return score_curves_of(log.metrics, config)


def score_curves_of(metrics: Sequence[dict[str, float]], config: GPTConfig) -> dict[str, np.ndarray]:
    curves = {}
    for name in SCORES:
        curve = np.full((len(metrics), config.n_layer, config.n_head), np.nan)
        for i, at in enumerate(metrics):
            for layer, head in np.ndindex(config.n_layer, config.n_head):
                curve[i, layer, head] = at.get(f"{name}/{layer}.{head}", np.nan)
        curves[name] = curve
    return curves


def model_at(config: GPTConfig, snapshot: Snapshot) -> GPT:
    """A fresh CPU model holding one training snapshot's parameters (eval mode)."""
    model = GPT.unfilled(config)  # a run may be training meanwhile: leave the generator alone
    model.load_state_dict(snapshot.state)
    return model.eval()
