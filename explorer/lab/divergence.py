"""Whether a run went the wrong way: its loss ended far above where it started, or stopped
being a number. Every lab's loss is a mean cross-entropy (or error) over a batch, so the
first step's loss is the untrained model's and a healthy run ends below it; a run whose loss
ends at ``RISE`` times that or more did not learn, it diverged (a learning rate too large),
and what it wrote or shows would teach nothing. The window's runs (explorer.lab.run) and
every ``train`` command (explorer.lab.command) ask the same question here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from explorer.messages import Message

RISE = 2.0  # the end's loss at least this many times the first step's: diverged
TAIL = 10  # the end: the mean over the last this many steps after the first (one noisy step is no verdict)


def divergence(losses: Sequence[float]) -> Message | None:
    """Why the run with these per-step losses diverged (a keyed Message), or None."""
    if not losses:
        return None
    for step, loss in enumerate(losses, start=1):
        if not math.isfinite(loss):
            return Message.of("lab.loss_not_finite", step=step)
    start, after = losses[0], losses[1:]
    if not after or start <= 0:
        return None
    tail = after[-TAIL:]
    end = sum(tail) / len(tail)
    if end >= RISE * start:
        return Message.of("lab.diverged", start=start, end=end, steps=len(tail))
    return None
