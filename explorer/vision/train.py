"""Training a vision model from scratch, in a way a window can watch (and the CLI can print).

    run = train_variant("cbam", steps=400, seed=0, on_progress=..., should_stop=...)
    run = train_config(VisionConfig("se"), replace(DEFAULTS, steps=200, eval_every=20))
    run = train_config(ViTConfig(), options, schedule=Schedule(warmup_steps=200, weight_decay=0.05))

runs explorer.training.train on generated pictures: every step reports a Progress (loss; at
evaluation steps the held-out accuracy and loss; at snapshot steps a CPU copy of the weights),
``should_stop()`` cancels between steps (TrainingCancelled), and the same seed gives the same
run on the CPU (one thread by default: thread-pool spinning dominates work this small).

The options are explorer.lab's ``TrainOptions`` (``DEFAULTS`` below). The training pictures
are a pool of ``pool_size`` pictures drawn from training seeds (all below
shapes.HELD_OUT_FIRST) with the run's seed; batches are drawn from the pool by the same
generator. Accuracy is measured on the first ``eval_size`` held-out pictures. A ``Schedule``
adds what a transformer needs and a CNN does without: a linear warm-up of the learning rate and
AdamW's decoupled weight decay (the default schedule is plain Adam with cosine decay).

To redraw the maps of a watched picture at any snapshot: ``model_at(run.config, snapshot)``
builds the model with that snapshot's weights (a few milliseconds), then
explorer.vision.trace.run_model(model, picture) (or vit_trace.trace_vit) gives every stage.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import overload

import numpy as np
import torch
import torch.nn.functional as F

from explorer.core.device import choose_device, torch_threads
from explorer.lab import Goal, TrainOptions
from explorer.training import Measure, Progress, Snapshot, TrainingLog, seed_everything, train
from explorer.vision.models import TinyCNN, VisionConfig, build_any
from explorer.vision.shapes import batch_of, held_out, training_seeds
from explorer.vision.vit import VisionTransformer, ViTConfig

# The train-vision command's run: 32 pictures a step from a pool of 4,096, Adam 3·10⁻³ with a
# cosine decay, 500 held-out pictures every 25 steps, one thread on the CPU.
POOL_SIZE = 4096
DEFAULTS = TrainOptions(
    steps=400,
    batch_size=32,
    learning_rate=3e-3,
    eval_every=25,
    eval_size=500,
    pool_size=POOL_SIZE,
    device="cpu",
)
GOAL = Goal("accuracy", 0.95)  # held-out accuracy a run should reach (the window times it)


@dataclass(frozen=True)
class Schedule:
    warmup_steps: int = 0  # the learning rate rises linearly over these steps first (a transformer needs it)
    weight_decay: float = 0.0  # > 0: AdamW's decoupled decay instead of plain Adam

    def __post_init__(self) -> None:
        if not (isinstance(self.warmup_steps, int) and self.warmup_steps >= 0):
            raise ValueError(f"warm-up {self.warmup_steps}: it must be 0 or more steps")
        if not (math.isfinite(self.weight_decay) and 0 <= self.weight_decay <= 1):
            raise ValueError(f"weight decay {self.weight_decay}: it must be from 0 to 1")

    def check(self, steps: int) -> None:
        if self.warmup_steps >= steps:
            raise ValueError(f"warm-up {self.warmup_steps}: it must be fewer than the {steps} steps")


@dataclass
class VisionRun:
    model: TinyCNN | VisionTransformer  # in eval mode, on ``device``
    config: VisionConfig | ViTConfig
    options: TrainOptions
    log: TrainingLog
    device: str
    notices: list[str] = field(default_factory=list)
    schedule: Schedule = Schedule()

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
    options: TrainOptions = DEFAULTS,
    schedule: Schedule = Schedule(),
) -> VisionRun:
    """Train one variant (a CNN's, or ``vit``: the vision transformer) from scratch; raises
    TrainingCancelled (with its log) when stopped."""
    config: VisionConfig | ViTConfig
    if variant == ViTConfig().variant:
        config = ViTConfig()
    else:
        config = VisionConfig(variant=variant, reduction=reduction, kernel=kernel)
    return train_config(
        config, replace(options, steps=steps, seed=seed), on_progress, should_stop, schedule=schedule
    )


def train_config(
    config: VisionConfig | ViTConfig,
    options: TrainOptions = DEFAULTS,
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    measures: Sequence[Measure] = (),
    schedule: Schedule = Schedule(),
) -> VisionRun:
    schedule.check(options.steps)
    pool_size = POOL_SIZE if options.pool_size is None else options.pool_size  # this lab trains on a pool
    options = replace(options, pool_size=pool_size)
    device, notice = choose_device(options.device)
    notices: list[str] = [notice] if notice else []
    with torch_threads(options.threads if device.type == "cpu" else None):
        seed_everything(options.seed)
        rng = np.random.default_rng(options.seed)
        model = build_any(config, options.seed).to(device)
        pool = batch_of(training_seeds(rng, pool_size))
        pool_images = torch.from_numpy(pool.images).to(device)
        pool_labels = torch.from_numpy(pool.labels).to(device)
        check = held_out(options.eval_size)
        check_images = torch.from_numpy(check.images).to(device)
        check_labels = torch.from_numpy(check.labels).to(device)
        # foreach: every parameter's update in a few calls instead of a dozen per tensor (on the
        # CPU torch loops by default; the same numbers: a test)
        optimiser: torch.optim.Optimizer
        if schedule.weight_decay:
            optimiser = torch.optim.AdamW(
                model.parameters(),
                lr=options.learning_rate,
                weight_decay=schedule.weight_decay,
                foreach=True,
            )
        else:
            optimiser = torch.optim.Adam(model.parameters(), lr=options.learning_rate, foreach=True)

        def take_step(i: int) -> float:
            for group in optimiser.param_groups:
                group["lr"] = learning_rate_at(i, options, schedule)
            picks = torch.from_numpy(rng.integers(0, pool_size, options.batch_size)).to(device)
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
            steps=options.steps,
            eval_every=options.eval_every,
            snapshot_every=options.snapshot_every,
            on_progress=on_progress,
            should_stop=should_stop,
            measures=measures,
        )
    return VisionRun(model, config, options, log, str(device), notices, schedule)


def learning_rate_at(i: int, options: TrainOptions, schedule: Schedule = Schedule()) -> float:
    """Step i's rate: a linear warm-up, then cosine decay to 0 (the last steps settle instead of
    jumping about)."""
    rate, warm = options.learning_rate, schedule.warmup_steps
    if i < warm:
        return rate * (i + 1) / warm
    return rate * 0.5 * (1 + math.cos(math.pi * (i - warm) / (options.steps - warm)))


@overload
def model_at(config: VisionConfig, snapshot: Snapshot) -> TinyCNN: ...
@overload
def model_at(config: ViTConfig, snapshot: Snapshot) -> VisionTransformer: ...
def model_at(config: VisionConfig | ViTConfig, snapshot: Snapshot) -> TinyCNN | VisionTransformer:
    """The model as it was at ``snapshot`` (CPU, eval mode): to redraw a watched picture's maps."""
    model = build_any(config)
    model.load_state_dict(snapshot.state)
    return model.eval()
