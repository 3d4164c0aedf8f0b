"""Train the lab's GPT from scratch through ``explorer.training.train``.

    result = train_lm("induction", steps=1500, seed=0, on_progress=..., should_stop=...)
    result.model, result.vocab, result.log          # explorer.training's TrainingLog
    score_curves(result.log, result.config)         # per-head scores over the evaluations
    model_at(result.config, snapshot)               # a snapshot as a model (the scrubber)

``on_progress`` gets explorer.training's ``Progress`` after every step, on the caller's
thread; at evaluation steps its ``metrics`` hold the probe's two half-losses, each head's
scores (``induction/1.2`` is layer 1, head 2) and, for the text task, the held-out loss.
Cancel raises ``explorer.training.TrainingCancelled`` between steps.

Determinism: the same seed, the same losses on the CPU (one seeded start, one generator for
the batches, a fixed thread count). The probe is the same for every seed and run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.core.device import choose_device, torch_threads
from explorer.lm import tasks
from explorer.lm.errors import LMError
from explorer.lm.measures import phase_change, probe_measures
from explorer.lm.model import GPT, GPTConfig, next_token_loss
from explorer.lm.vocab import INDUCTION_VOCAB, CharVocab
from explorer.training import Progress, Snapshot, TrainingLog, seed_everything, train

TASKS = ("induction", "text")
PROBE_SEED = 20220308  # the probe every run measures on, whatever its training seed
SCORES = ("previous_token", "induction", "first_token")
INITS = ("torch", "gpt2")


@dataclass(frozen=True)
class LMOptions:
    batch_size: int = 32
    lr: float | None = None  # None: the task's (TASK_LR)
    mlp: bool | None = None  # None: the task's choice (TASK_MLP)
    tie: bool = False  # the LM head is wte (GPT-2's choice); untied formed induction faster
    init: str = "torch"  # or "gpt2": N(0, 0.02) (GPT.reset_parameters says why not)
    dropout: float | None = None  # None: the task's (TASK_DROPOUT)
    eval_every: int = 25
    snapshot_every: int = 25
    probe_rows: int = 16
    probe_period: int = 24  # the probe is 2 × this long
    threads: int = 1
    device: str = "auto"  # CUDA when present; determinism is promised on the CPU

    def __post_init__(self) -> None:
        for name in ("batch_size", "eval_every", "probe_rows", "threads"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100_000:
                raise LMError.of("lm.size_out_of_range", name=name, value=value, limit=100_000)
        if self.lr is not None and (not isinstance(self.lr, (int, float)) or not 0 < self.lr < 1):
            raise LMError.of("lm.lr_out_of_range", value=self.lr)
        if self.init not in INITS:
            raise LMError.of("lm.init_unknown", value=self.init, choices=", ".join(INITS))


# What each task ships with (bench/lm_lab.py measured the choice; docs/benchmarks.md).
TASK_MLP = {"induction": False, "text": True}
TASK_LR = {"induction": 3e-3, "text": 1e-3}
TASK_DROPOUT = {"induction": 0.0, "text": 0.0}
TASK_POSITIONS = {"induction": 48, "text": 64}


def task_vocab(task: str) -> CharVocab:
    check_task(task)
    return INDUCTION_VOCAB if task == "induction" else tasks.corpus().vocab


def task_config(
    task: str, mlp: bool | None = None, tie: bool = False, dropout: float | None = None
) -> GPTConfig:
    vocab = task_vocab(task)
    return GPTConfig(
        vocab_size=len(vocab),
        n_positions=TASK_POSITIONS[task],
        mlp=TASK_MLP[task] if mlp is None else mlp,
        tie_word_embeddings=tie,
        dropout=TASK_DROPOUT[task] if dropout is None else dropout,
    )


def check_task(task: str) -> None:
    if task not in TASKS:
        raise LMError.of("lm.task_unknown", value=task, choices=", ".join(TASKS))


def probe_for(vocab: CharVocab, options: LMOptions) -> torch.Tensor:
    rng = np.random.default_rng(PROBE_SEED)
    return tasks.repeated_probe(rng, options.probe_rows, options.probe_period, len(vocab.symbols))


@dataclass
class LMTrainResult:
    task: str
    config: GPTConfig
    vocab: CharVocab
    model: GPT
    log: TrainingLog
    device: str
    seed: int
    options: LMOptions
    lr: float
    notices: list[str] = field(default_factory=list)

    @property
    def phase_change_step(self) -> int | None:
        first = [m["first_half_loss"] for m in self.log.metrics]
        return phase_change(self.log.eval_steps, first, [m["repeated_half_loss"] for m in self.log.metrics])


def train_lm(
    task: str,
    steps: int,
    seed: int = 0,
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    options: LMOptions = LMOptions(),
) -> LMTrainResult:
    config = task_config(task, options.mlp, options.tie, options.dropout)
    lr = TASK_LR[task] if options.lr is None else options.lr
    if 2 * options.probe_period > config.n_positions:
        raise LMError.of("lm.period_out_of_range", value=options.probe_period, limit=config.n_positions // 2)
    vocab = task_vocab(task)
    device, notice = choose_device(options.device)
    with torch_threads(options.threads):
        seed_everything(seed)
        model = GPT(config)
        if options.init == "gpt2":
            model.gpt2_init()
        model = model.to(device)
        trained = [p for p in model.parameters() if p.requires_grad]
        optimiser = torch.optim.Adam(trained, lr=lr)
        batches = np.random.default_rng(seed)
        probe = probe_for(vocab, options).to(device)
        held_out = None
        if task == "text":
            held_out = tasks.held_out_windows(tasks.corpus().held_out, config.n_positions).to(device)

        def batch() -> torch.Tensor:
            if task == "induction":
                return tasks.induction_rows(
                    batches, options.batch_size, config.n_positions, len(vocab.symbols)
                )
            return tasks.text_windows(batches, tasks.corpus().train, options.batch_size, config.n_positions)

        def take_step(i: int) -> float:
            ids = batch().to(device)
            loss = next_token_loss(model(ids).logits, ids)
            if not math.isfinite(loss.item()):
                raise LMError.of("lm.loss_not_finite", step=i + 1)
            optimiser.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            return loss.item()

        def evaluate() -> dict[str, float]:
            started = time.perf_counter()
            metrics = measures_of(model, probe, options.probe_period)
            if held_out is not None:
                metrics["held_out_loss"] = float(next_token_loss(model(held_out).logits, held_out))
            metrics["eval_seconds"] = time.perf_counter() - started  # benches subtract it
            return metrics

        log = train(
            model,
            take_step,
            evaluate,
            steps=steps,
            eval_every=options.eval_every,
            snapshot_every=options.snapshot_every,
            on_progress=on_progress,
            should_stop=should_stop,
        )
    notices: list[str] = [notice] if notice else []
    return LMTrainResult(task, config, vocab, model, log, str(device), seed, options, lr, notices)


def measures_of(model: GPT, probe: torch.Tensor, period: int) -> dict[str, float]:
    """The probe's numbers as flat metrics: both half-losses, ``score/layer.head`` for every
    head and score, and the best layer-1 previous-token and later-layer induction scores."""
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
    curves = {}
    for name in SCORES:
        curve = np.full((len(log.metrics), config.n_layer, config.n_head), np.nan)
        for i, metrics in enumerate(log.metrics):
            for layer, head in np.ndindex(config.n_layer, config.n_head):
                curve[i, layer, head] = metrics.get(f"{name}/{layer}.{head}", np.nan)
        curves[name] = curve
    return curves


def model_at(config: GPTConfig, snapshot: Snapshot) -> GPT:
    """A fresh CPU model holding one training snapshot's parameters (eval mode)."""
    with torch.random.fork_rng(devices=[]):  # a throwaway start: leave the generator alone
        model = GPT(config)
    model.load_state_dict(snapshot.state)
    return model.eval()
