"""Training a vision model from scratch, in a way a window can watch (and the CLI can print).

    run = train_variant("cbam", steps=400, seed=0, on_progress=..., should_stop=...)

runs explorer.training.train on generated pictures: every step reports a Progress (loss; at
evaluation steps the held-out accuracy and loss; at snapshot steps a CPU copy of the weights),
``should_stop()`` cancels between steps (TrainingCancelled), and the same seed gives the same
run on the CPU (one thread by default: thread-pool spinning dominates work this small).

The training pictures are a pool of ``pool_size`` pictures drawn from training seeds (all below
shapes.HELD_OUT_FIRST) with the run's seed; batches are drawn from the pool by the same
generator. Accuracy is measured on the first ``eval_size`` held-out pictures.

To redraw the maps of a watched picture at any snapshot: ``model_at(run.config, snapshot)``
builds the model with that snapshot's weights (a few milliseconds), then
explorer.vision.trace.run_model(model, picture) gives every stage.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import overload

import numpy as np
import torch
import torch.nn.functional as F

from explorer.core.device import choose_device, torch_threads
from explorer.training import Progress, Snapshot, TrainingLog, seed_everything, train
from explorer.vision.models import TinyCNN, VisionConfig, build_any
from explorer.vision.shapes import batch_of, held_out, training_seeds
from explorer.vision.vit import VisionTransformer, ViTConfig

MAX_STEPS = 1_000_000


@dataclass(frozen=True)
class TrainSettings:
    steps: int = 400
    seed: int = 0
    batch_size: int = 32
    learning_rate: float = 3e-3
    pool_size: int = 4096
    eval_every: int = 25
    eval_size: int = 500
    snapshot_every: int = 10
    warmup_steps: int = 0  # the learning rate rises linearly over these steps first (a transformer needs it)
    weight_decay: float = 0.0  # > 0: AdamW's decoupled decay instead of plain Adam
    device: str = "cpu"
    threads: int | None = 1  # None: leave torch's thread count alone

    def __post_init__(self) -> None:
        checks = [
            (1 <= self.steps <= MAX_STEPS, f"steps {self.steps}: it must be from 1 to {MAX_STEPS:,}"),
            (self.seed >= 0, f"seed {self.seed}: it must be 0 or more"),
            (1 <= self.batch_size <= 4096, f"batch size {self.batch_size}: it must be from 1 to 4096"),
            (
                np.isfinite(self.learning_rate) and 0 < self.learning_rate <= 1,
                f"learning rate {self.learning_rate}: it must be above 0 and at most 1",
            ),
            (1 <= self.pool_size <= 200_000, f"pool size {self.pool_size}: it must be from 1 to 200,000"),
            (self.eval_every >= 1, f"eval every {self.eval_every}: it must be 1 or more"),
            (1 <= self.eval_size <= 100_000, f"eval size {self.eval_size}: it must be from 1 to 100,000"),
            (self.snapshot_every >= 0, f"snapshot every {self.snapshot_every}: it must be 0 (none) or more"),
            (
                0 <= self.warmup_steps < self.steps,
                f"warm-up {self.warmup_steps}: it must be from 0 to fewer than the {self.steps} steps",
            ),
            (
                np.isfinite(self.weight_decay) and 0 <= self.weight_decay <= 1,
                f"weight decay {self.weight_decay}: it must be from 0 to 1",
            ),
            (
                self.threads is None or 1 <= self.threads <= 256,
                f"threads {self.threads}: it must be from 1 to 256",
            ),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)


@dataclass
class VisionRun:
    model: TinyCNN | VisionTransformer  # in eval mode, on ``device``
    config: VisionConfig | ViTConfig
    settings: TrainSettings
    log: TrainingLog
    device: str
    notices: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.log.last_metrics.get("accuracy", float("nan"))


def train_variant(
    variant: str,
    steps: int,
    seed: int,
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    *,
    reduction: int = 4,
    kernel: int = 7,
    settings: TrainSettings | None = None,
) -> VisionRun:
    """Train one variant (a CNN's, or ``vit``: the vision transformer) from scratch; raises
    TrainingCancelled (with its log) when stopped."""
    config: VisionConfig | ViTConfig
    if variant == ViTConfig().variant:
        config = ViTConfig()
    else:
        config = VisionConfig(variant=variant, reduction=reduction, kernel=kernel)
    base = settings or TrainSettings()
    settings = TrainSettings(**{**base.__dict__, "steps": steps, "seed": seed})
    return train_config(config, settings, on_progress, should_stop)


def train_config(
    config: VisionConfig | ViTConfig,
    settings: TrainSettings,
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> VisionRun:
    device, notice = choose_device(settings.device)
    notices: list[str] = [notice] if notice else []
    with torch_threads(settings.threads if device.type == "cpu" else None):
        seed_everything(settings.seed)
        rng = np.random.default_rng(settings.seed)
        model = build_any(config, settings.seed).to(device)
        pool = batch_of(training_seeds(rng, settings.pool_size))
        pool_images = torch.from_numpy(pool.images).to(device)
        pool_labels = torch.from_numpy(pool.labels).to(device)
        check = held_out(settings.eval_size)
        check_images = torch.from_numpy(check.images).to(device)
        check_labels = torch.from_numpy(check.labels).to(device)
        optimiser: torch.optim.Optimizer
        if settings.weight_decay:
            optimiser = torch.optim.AdamW(
                model.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay
            )
        else:
            optimiser = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)

        def take_step(i: int) -> float:
            for group in optimiser.param_groups:
                group["lr"] = learning_rate_at(i, settings)
            picks = torch.from_numpy(rng.integers(0, settings.pool_size, settings.batch_size)).to(device)
            loss = F.cross_entropy(model(pool_images[picks]), pool_labels[picks])
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
            return loss.item()

        def evaluate() -> dict[str, float]:
            logits = model(check_images)
            return {
                "accuracy": (logits.argmax(dim=1) == check_labels).float().mean().item(),
                "held_out_loss": F.cross_entropy(logits, check_labels).item(),
            }

        log = train(
            model,
            take_step,
            evaluate,
            steps=settings.steps,
            eval_every=settings.eval_every,
            snapshot_every=settings.snapshot_every,
            on_progress=on_progress,
            should_stop=should_stop,
        )
    return VisionRun(model, config, settings, log, str(device), notices)


def learning_rate_at(i: int, settings: TrainSettings) -> float:
    """Step i's rate: a linear warm-up, then cosine decay to 0 (the last steps settle instead of
    jumping about)."""
    warm = settings.warmup_steps
    if i < warm:
        return settings.learning_rate * (i + 1) / warm
    return settings.learning_rate * 0.5 * (1 + math.cos(math.pi * (i - warm) / (settings.steps - warm)))


@overload
def model_at(config: VisionConfig, snapshot: Snapshot) -> TinyCNN: ...
@overload
def model_at(config: ViTConfig, snapshot: Snapshot) -> VisionTransformer: ...
def model_at(config: VisionConfig | ViTConfig, snapshot: Snapshot) -> TinyCNN | VisionTransformer:
    """The model as it was at ``snapshot`` (CPU, eval mode): to redraw a watched picture's maps."""
    model = build_any(config)
    model.load_state_dict(snapshot.state)
    return model.eval()
