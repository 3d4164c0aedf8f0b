"""Turn heads off and measure what comes back: the lesson's causal test.

Silencing a head zeroes its output before W_O (``GPT.forward(off=...)``); the repeated
half of the probe is what induction predicts, so an induction head switched off should
bring its loss back up, and so should the previous-token head that feeds it, while a head
that is neither should barely matter.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import torch

from explorer.lm.measures import ProbeMeasures, probe_measures
from explorer.lm.model import GPT, Head


@dataclass(frozen=True)
class Ablation:
    heads: tuple[Head, ...]
    repeated_half_loss: float
    first_half_loss: float
    change: float  # repeated-half loss with the heads off minus with every head on

    @property
    def label(self) -> str:
        return ", ".join(f"{layer}.{head}" for layer, head in self.heads) or "nothing"


def ablate(model: GPT, probe: torch.Tensor, period: int, heads: Collection[Head],
           base: ProbeMeasures | None = None) -> Ablation:  # fmt: skip
    """The probe's losses with ``heads`` silenced, and the change from the intact model."""
    base = base or probe_measures(model, probe, period)
    off = tuple(sorted(set(heads)))
    measured = probe_measures(model, probe, period, off=off)
    change = measured.repeated_half_loss - base.repeated_half_loss
    return Ablation(off, measured.repeated_half_loss, measured.first_half_loss, change)


def ablation_table(model: GPT, probe: torch.Tensor, period: int) -> list[Ablation]:
    """Every head alone, then the induction heads together and the previous-token heads
    together (as ``HeadScores`` names them on this probe)."""
    base = probe_measures(model, probe, period)
    rows = [ablate(model, probe, period, [head], base) for head in model.heads]
    for group in (base.scores.induction_heads, base.scores.previous_token_heads):
        if len(group) > 1:
            rows.append(ablate(model, probe, period, group, base))
    return rows
