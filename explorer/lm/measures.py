"""What formed: per-head scores on a repeated probe, the two halves' losses, the phase change.

The scores read attention weights only (``explorer.core.head_measures``), one array per
layer, [heads, n, n] or [batch, heads, n, n]: the lab's GPT gives them, and so does any
decoder the explorer opens, so "which heads are induction heads" means the same on both.

    scores = head_scores(weights_per_layer, period)      previous-token, induction, first-token
    ranking(scores.induction)                            heads from most to least induction-like
    probe_measures(model, probe, period)                 scores + first- and repeated-half loss
    phase_change(steps, first, repeated)                 where the repeated half pulls away fastest
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from explorer.core import head_measures
from explorer.lm.model import GPT, Head
from explorer.lm.tasks import probe_halves

# A head whose score on the probe reaches this is named as one (a uniform causal head scores
# about 1 / (distance to the start) on both, ≤ 0.06 at period 24).
INDUCTION_HEAD = 0.3
PREVIOUS_TOKEN_HEAD = 0.3
# The phase change is named only once the repeated half costs this much less than the first (nats).
PHASE_CHANGE_GAP = 1.0


@dataclass(frozen=True)
class HeadScores:
    """[layers, heads] each, averaged over the probe's rows."""

    previous_token: np.ndarray
    induction: np.ndarray
    first_token: np.ndarray

    def heads_at_least(self, which: str, threshold: float) -> list[tuple[int, int]]:
        scores = getattr(self, which)
        return [(int(layer), int(head)) for layer, head in np.argwhere(scores >= threshold)]

    @property
    def induction_heads(self) -> list[tuple[int, int]]:
        return self.heads_at_least("induction", INDUCTION_HEAD)

    @property
    def previous_token_heads(self) -> list[tuple[int, int]]:
        return self.heads_at_least("previous_token", PREVIOUS_TOKEN_HEAD)


def _rows(weights: np.ndarray | torch.Tensor) -> np.ndarray:
    """[batch, heads, n, n] float64 from a tensor or array of 3 or 4 dimensions."""
    if isinstance(weights, torch.Tensor):
        weights = weights.detach().to("cpu", torch.float64).numpy()
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim == 3:
        weights = weights[None]
    if weights.ndim != 4 or weights.shape[-1] != weights.shape[-2]:
        raise ValueError(f"attention weights must be [batch, heads, n, n], not {weights.shape}")
    return weights


def head_scores(weights_per_layer: Sequence[np.ndarray | torch.Tensor], period: int) -> HeadScores:
    """Every head's scores on a probe repeated with ``period``, the mean over its rows."""
    layers = [_rows(w) for w in weights_per_layer]
    per_layer: dict[str, list[np.ndarray]] = {"previous_token": [], "induction": [], "first_token": []}
    for w in layers:
        per_layer["previous_token"].append(
            np.mean([head_measures.previous_token_score(x) for x in w], axis=0)
        )
        per_layer["induction"].append(np.mean([head_measures.induction_score(x, period) for x in w], axis=0))
        per_layer["first_token"].append(np.mean([head_measures.first_token_share(x) for x in w], axis=0))
    return HeadScores(**{name: np.stack(rows) for name, rows in per_layer.items()})


def ranking(scores: np.ndarray) -> list[tuple[int, int, float]]:
    """(layer, head, score) from the highest score down; ties keep the earlier head first."""
    order = np.argsort(-scores, axis=None, kind="stable")
    layer, head = np.unravel_index(order, scores.shape)
    return [(int(la), int(h), float(scores[la, h])) for la, h in zip(layer, head)]


@dataclass(frozen=True)
class ProbeMeasures:
    first_half_loss: float  # nats per token, the unpredictable half
    repeated_half_loss: float  # nats per token, the half induction can predict
    scores: HeadScores


def half_losses(logits: torch.Tensor, ids: torch.Tensor, period: int) -> tuple[float, float]:
    """Mean next-token loss on the probe's first and repeated halves (``probe_halves``)."""
    logp = torch.log_softmax(logits[..., :-1, :].double(), dim=-1)
    nll = -logp.gather(-1, ids[..., 1:, None]).squeeze(-1)  # [..., n − 1]
    first, repeated = probe_halves(period)
    return float(nll[..., first].mean()), float(nll[..., repeated].mean())


def probe_measures(model: GPT, probe: torch.Tensor, period: int, off: Collection[Head] = ()) -> ProbeMeasures:
    """The lab's GPT on a probe [batch, 2·period]: both halves' losses and every head's scores."""
    with torch.no_grad():
        out = model(probe, off=off, record=True)
    first, repeated = half_losses(out.logits, probe, period)
    weights = [layer.stages.weights for layer in out.layers]
    return ProbeMeasures(first, repeated, head_scores(weights, period))


def phase_change(
    steps: Sequence[int], first_half: Sequence[float], repeated_half: Sequence[float]
) -> int | None:
    """The step ending the evaluation interval where the repeated-half loss falls fastest
    below the first half's (nats per step), or None while the gap is under PHASE_CHANGE_GAP.

    The gap, not the repeated-half loss alone: early in training both halves fall together
    (the model learns the symbols' frequencies); only induction opens a gap between them."""
    at = np.asarray(steps, dtype=np.float64)
    gap = np.asarray(first_half, dtype=np.float64) - np.asarray(repeated_half, dtype=np.float64)
    if len(at) < 2 or not np.all(np.isfinite(gap)) or gap.max() < PHASE_CHANGE_GAP:
        return None
    rate = np.diff(gap) / np.diff(at)
    return int(at[1 + int(np.argmax(rate))])
