"""How one training run goes, for every lab: ``TrainOptions``.

A lab names its own defaults once (``explorer.seq2seq.train.DEFAULTS``,
``explorer.vision.train.DEFAULTS``) and a caller changes what it needs with
``dataclasses.replace`` (every value is checked again). What is particular to one lab's
recipe (the translation lab's cool-down and gradient clip) stays a constant of that lab.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_STEPS = 1_000_000


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class TrainOptions:
    steps: int = 400
    seed: int = 0
    batch_size: int = 32
    learning_rate: float = 3e-3
    eval_every: int = 50  # an evaluation of the held-out data every this many steps, and after the last
    eval_size: int = 500  # held-out examples each evaluation reads (a lab may count them per group)
    snapshot_every: int = 10  # CPU copies of the parameters for the scrubber; 0: none
    pool_size: int | None = None  # training examples drawn once before the first step; None: fresh ones
    threads: int | None = (
        1  # torch's threads on the CPU (two are far slower on a busy CPU); None: as they are
    )
    device: str = "auto"  # CUDA when present (explorer.core.device); the same seed, the same run on the CPU

    def __post_init__(self) -> None:
        checks = [
            (
                _whole(self.steps) and 1 <= self.steps <= MAX_STEPS,
                f"steps {self.steps}: it must be from 1 to {MAX_STEPS:,}",
            ),
            (_whole(self.seed) and self.seed >= 0, f"seed {self.seed}: it must be 0 or more"),
            (
                _whole(self.batch_size) and 1 <= self.batch_size <= 4096,
                f"batch size {self.batch_size}: it must be from 1 to 4096",
            ),
            (
                isinstance(self.learning_rate, (int, float))
                and math.isfinite(self.learning_rate)
                and 0 < self.learning_rate <= 1,
                f"learning rate {self.learning_rate}: it must be above 0 and at most 1",
            ),
            (
                _whole(self.eval_every) and self.eval_every >= 1,
                f"eval every {self.eval_every}: it must be 1 or more",
            ),
            (
                _whole(self.eval_size) and 1 <= self.eval_size <= 100_000,
                f"eval size {self.eval_size}: it must be from 1 to 100,000",
            ),
            (
                _whole(self.snapshot_every) and self.snapshot_every >= 0,
                f"snapshot every {self.snapshot_every}: it must be 0 (none) or more",
            ),
            (
                self.pool_size is None or (_whole(self.pool_size) and 1 <= self.pool_size <= 200_000),
                f"pool size {self.pool_size}: it must be from 1 to 200,000",
            ),
            (
                self.threads is None or (_whole(self.threads) and 1 <= self.threads <= 256),
                f"threads {self.threads}: it must be from 1 to 256",
            ),
            (isinstance(self.device, str) and bool(self.device), f"device {self.device!r}: name one"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)
