"""What every ``train`` command checks the same way: the seed, the learning rate, and a run
that diverged (explorer.lab.divergence), which writes nothing and exits ``EXIT_DIVERGED``.

Each line is the command line's ``error: …`` (explorer.failing.fail): exit status 2 for bad
input; ``EXIT_HELP`` is what every train command's ``--help`` says about the statuses.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import NoReturn

from explorer.core.config import MAX_SEED
from explorer.failing import EXIT_BAD_INPUT, fail
from explorer.lab.divergence import divergence

EXIT_DIVERGED = 3
EXIT_CANCELLED = 130
EXIT_HELP = (
    f"exit status: 0 trained and written; {EXIT_BAD_INPUT} bad input (one error line); "
    f"{EXIT_DIVERGED} the run diverged (its loss ended far above where it started, or became "
    f"NaN): nothing written; {EXIT_CANCELLED} cancelled (Ctrl-C): nothing written"
)


def check_seed(seed: int, option: str = "--seed") -> None:
    """A training seed torch takes: 0 to 2**31 − 1, for every lab (a picture's seed may be larger)."""
    if not 0 <= seed <= MAX_SEED:
        fail(f"{option} must be from 0 to {MAX_SEED}, not {seed}")


def check_learning_rate(lr: float | None, option: str = "--lr") -> None:
    """Above 0 and at most 1, as explorer.lab.TrainOptions takes it (None: the lab's default)."""
    if lr is not None and not (math.isfinite(lr) and 0 < lr <= 1):
        fail(f"{option} must be above 0 and at most 1, not {lr}")


def refuse_divergence(losses: Sequence[float], option: str = "--lr") -> None:
    """Exit with ``EXIT_DIVERGED`` and one line when the run diverged; return when it did not."""
    why = divergence(losses)
    if why is not None:
        diverged(f"{why}; nothing written (try a lower {option})")


def diverged(line: str) -> NoReturn:
    if sys.stderr is not None:
        print(f"error: {line}", file=sys.stderr)
    raise SystemExit(EXIT_DIVERGED)
