"""The attention mechanism as the lesson tells it, one short step per stage.

    project → score → scale → mask → normalise → weigh → concatenate → project

Shapes: x [n, d_model]; per-head tensors [heads, n, d_k]; scores [heads, n_q, n_k].
Training code may put batch dimensions in front of all of them (x [batch, n, d_model]) and
pass an explicit boolean ``mask`` that broadcasts over [batch, heads, n_q, n_k].
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F

from explorer.core.config import MaskSpec
from explorer.core.device import run_blocks
from explorer.core.scoring import ScoringParams, score

NO_SCORING_PARAMS = ScoringParams()  # dot and cosine need none

# An index into [..., n_q, n_k] that selects whole rows (row_blocks).
RowBlock = tuple[Any, ...]

# Scores divided by a tiny τ can overflow float32; clamp so every stage stays finite.
_FINITE = 1e30


@dataclass(frozen=True)
class Projections:
    """W_q, W_k, W_v, W_O and their biases, nn.Linear convention (weight [out, in])."""

    w_q: torch.Tensor
    w_k: torch.Tensor
    w_v: torch.Tensor
    w_o: torch.Tensor
    b_q: torch.Tensor | None = None
    b_k: torch.Tensor | None = None
    b_v: torch.Tensor | None = None
    b_o: torch.Tensor | None = None

    @property
    def width(self) -> int:
        return self.w_q.shape[0]

    def to(self, device: torch.device) -> Projections:
        def move(t: torch.Tensor | None) -> torch.Tensor | None:
            return None if t is None else t.to(device)

        return Projections(
            self.w_q.to(device),
            self.w_k.to(device),
            self.w_v.to(device),
            self.w_o.to(device),
            move(self.b_q),
            move(self.b_k),
            move(self.b_v),
            move(self.b_o),
        )


@dataclass(frozen=True)
class Settings:
    heads: int
    scoring: str = "dot"
    scale: str = "sqrt"
    temperature: float = 1.0
    attention: str = "soft"
    mask: MaskSpec = MaskSpec()
    seed: int = 0
    # A model's own extra division of its scores (GPT-2's scale_attn_by_inverse_layer_idx: layer + 1).
    extra_divisor: float = 1.0


@dataclass
class Stages:
    """Every intermediate of one attention call (torch tensors on the compute device)."""

    q: torch.Tensor  # [h, n_q, d_k]
    k: torch.Tensor  # [h, n_k, d_k]
    v: torch.Tensor  # [h, n_k, d_v]
    scores: torch.Tensor  # [h, n_q, n_k] raw similarity
    scaled: torch.Tensor  # [h, n_q, n_k] after the scale, before the mask
    mask: torch.Tensor  # [n_q, n_k] bool, True where the query may attend (or the explicit mask given)
    weights: torch.Tensor  # [h, n_q, n_k] rows sum to 1 (0 where every key is masked)
    head_outputs: torch.Tensor  # [h, n_q, d_v]
    concat: torch.Tensor  # [n_q, h * d_v]
    output: torch.Tensor  # [n_q, d_model] after W_O
    entropy: torch.Tensor | None  # [h, n_q] nats; None where the caller asked for none (training)
    scale_divisor: float


def attend(
    x_query: torch.Tensor,
    x_key: torch.Tensor,
    proj: Projections,
    settings: Settings,
    scoring_params: ScoringParams = NO_SCORING_PARAMS,
    mask: torch.Tensor | None = None,
    *,
    entropy: bool = True,
) -> Stages:
    """Run every stage and keep them all. ``mask`` (bool, True = visible) replaces settings.mask.
    ``entropy=False`` leaves the weights' entropy out (None): a training step, where nothing
    shows it, then skips its passes over the scores; every other stage is the same number."""
    h = settings.heads
    q = split_heads(F.linear(x_query, proj.w_q, proj.b_q), h)  # project the queries
    k = split_heads(F.linear(x_key, proj.w_k, proj.b_k), h)  # project the keys
    v = split_heads(F.linear(x_key, proj.w_v, proj.b_v), h)  # project the values
    heads = attend_heads(q, k, v, settings, scoring_params, mask, entropy=entropy)
    concat = merge_heads(heads.head_outputs)  # concatenate the heads
    output = F.linear(concat, proj.w_o, proj.b_o)  # project back with W_O
    return Stages(q=q, k=k, v=v, concat=concat, output=output, **vars(heads))  # the heads' stages by name


@dataclass
class HeadStages:
    scores: torch.Tensor
    scaled: torch.Tensor
    mask: torch.Tensor
    weights: torch.Tensor
    head_outputs: torch.Tensor
    entropy: torch.Tensor | None
    scale_divisor: float


def attend_heads(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    settings: Settings,
    scoring_params: ScoringParams = NO_SCORING_PARAMS,
    mask: torch.Tensor | None = None,
    *,
    entropy: bool = True,
) -> HeadStages:
    """Every head at once, from its queries, keys and values to its output (``entropy``: see attend)."""
    scores = score(settings.scoring, q, k, scoring_params)  # how well each query matches each key
    divisor = scale_divisor(settings, q.shape[-1])
    scaled = keep_finite(scores / divisor)  # keep softmax out of saturation
    if mask is None:
        mask = build_mask(settings.mask, q.shape[-2], k.shape[-2], q.device)  # which keys may be seen
    if entropy:
        weights, row_entropies = normalise_with_entropy(scaled, mask, settings)  # soft, hard or sampled
    else:
        weights, row_entropies = normalise(scaled, mask, settings), None
    head_outputs = weights @ v  # weigh the values
    return HeadStages(scores, scaled, mask, weights, head_outputs, row_entropies, divisor)


def keep_finite(scaled: torch.Tensor) -> torch.Tensor:
    """The scaled scores clamped to ±_FINITE. With gradients the clamp happens only where some
    score lies outside (one pass to find out): autograd would otherwise keep a copy of the scores
    for an in-place clamp and make three more passes over them in the backward, for the same
    numbers and the same gradient when every score is inside."""
    if not (scaled.requires_grad and torch.is_grad_enabled()):
        return scaled.clamp_(-_FINITE, _FINITE)
    low, high = torch.aminmax(scaled.detach())
    if bool(low >= -_FINITE) and bool(high <= _FINITE):
        return scaled
    return scaled.clamp(-_FINITE, _FINITE)  # NaN lands here too: as the clamp always did


def split_heads(x: torch.Tensor, heads: int) -> torch.Tensor:
    """[..., n, d_model] → [..., heads, n, d_model / heads]: head i owns columns i·d_k … (i+1)·d_k − 1."""
    *batch, n, width = x.shape
    return x.view(*batch, n, heads, width // heads).transpose(-3, -2)


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """[..., heads, n, d_v] → [..., n, heads · d_v], heads side by side."""
    *batch, heads, n, d_v = x.shape
    return x.transpose(-3, -2).reshape(*batch, n, heads * d_v)


def scale_divisor(settings: Settings, d_k: int) -> float:
    if settings.scale == "sqrt":
        return math.sqrt(d_k) * settings.extra_divisor
    if settings.scale == "temperature":
        return float(settings.temperature) * settings.extra_divisor
    return settings.extra_divisor


def build_mask(spec: MaskSpec, n_q: int, n_k: int, device: torch.device | str | None = None) -> torch.Tensor:
    """[n_q, n_k] bool. Query i and key j are compared by position, also across texts.

    ``model`` (the model's own mask) is no mask here: the engine turns it into a decoder's
    causal mask (``causal_attention.decoder_mask``) where the model is one."""
    i = torch.arange(n_q, device=device)[:, None]
    j = torch.arange(n_k, device=device)[None, :]
    if spec.kind == "causal":
        return j <= i
    if spec.kind == "window":
        return (i - j).abs() <= spec.size
    if spec.kind == "valid":
        return (j < spec.size).expand(n_q, n_k)
    return torch.ones(n_q, n_k, dtype=torch.bool, device=device)


def normalise(scaled: torch.Tensor, mask: torch.Tensor, settings: Settings) -> torch.Tensor:
    """Turn scores into weights. A row whose every key is masked gets all-zero weights,
    so its head output is the zero vector (softmax over nothing has no answer). The weights
    of ``normalise_with_entropy``, bit for bit, without the entropy's passes."""
    if settings.attention == "soft":
        return softmax_weights(scaled, mask)
    return normalise_with_entropy(scaled, mask, settings)[0]


def normalise_with_entropy(
    scaled: torch.Tensor, mask: torch.Tensor, settings: Settings
) -> tuple[torch.Tensor, torch.Tensor]:
    """The weights and each row's entropy (nats), from one pass over the scores."""
    if settings.attention == "soft":
        return softmax_with_entropy(scaled, mask)
    visible_rows = mask.any(dim=-1, keepdim=True)  # [n_q, 1]
    if settings.attention == "hard":
        masked = scaled.masked_fill(~mask, float("-inf"))
        choice = masked.argmax(dim=-1, keepdim=True)  # ties go to the lowest index
        weights = torch.zeros_like(scaled).scatter_(-1, choice, 1.0)
    else:
        probs = softmax_weights(scaled, mask)
        weights = sample_one_hot(probs.where(visible_rows, 1.0), settings.seed)
    weights.mul_(visible_rows)  # fully masked rows: zero
    # One-hot and all-zero rows carry no uncertainty: −Σ p ln p is exactly 0.
    return weights, scaled.new_zeros(scaled.shape[:-1])


# Rows are normalised in blocks of about this many cells: the temporaries stay in cache
# and are reused, instead of two more arrays as large as the scores.
BLOCK_CELLS = 1 << 20


def softmax_with_entropy(scaled: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Softmax over the visible keys and its entropy, H = ln Z − Σ p·s.

    With s = scores − row max (so s ≤ 0 and exp(s) cannot overflow) and Z = Σ exp(s), the
    weights are p = exp(s) / Z and −Σ p ln p = −Σ p (s − ln Z) = ln Z − Σ p·s: the
    entropy needs only the numbers the softmax already made. Masked keys get p = 0 and
    count as s = 0 (0 · −∞ would be NaN); a row with no visible key gets p = 0 and H = 0.
    """
    if scaled.requires_grad and torch.is_grad_enabled():
        return differentiable_softmax_with_entropy(scaled, mask)
    entropy = scaled.new_zeros(scaled.shape[:-1])
    return fused_softmax(scaled, mask, entropy), entropy


def softmax_weights(scaled: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The weights of ``softmax_with_entropy`` alone, the same numbers bit for bit."""
    if scaled.requires_grad and torch.is_grad_enabled():
        return differentiable_softmax(scaled, mask)
    return fused_softmax(scaled, mask)


def fused_softmax(
    scaled: torch.Tensor, mask: torch.Tensor, entropy: torch.Tensor | None = None
) -> torch.Tensor:
    """softmax_with_entropy's weights without autograd, in row blocks; the rows' entropies
    written into ``entropy`` ([..., n_q]) when one is given."""
    weights = torch.empty_like(scaled)
    if scaled.shape[-1] == 0:
        return weights
    visible = None if bool(mask.all()) else mask.expand(scaled.shape)

    def block(index: RowBlock) -> None:
        rows, hidden = scaled[index], None if visible is None else ~visible[index]
        if hidden is None:
            s = rows - rows.amax(dim=-1, keepdim=True)
        else:
            s = rows.masked_fill(hidden, float("-inf"))
            top = s.amax(dim=-1, keepdim=True)
            s.sub_(top.masked_fill_(top == float("-inf"), 0.0))  # no visible key: nothing to shift
        p = torch.exp(s, out=weights[index])
        z = p.sum(dim=-1, keepdim=True).clamp_min_(1.0)  # ≥ 1 (the max gives e⁰) unless no key
        if entropy is not None:
            if hidden is not None:
                s.masked_fill_(hidden, 0.0)
            entropy[index] = (z.log() - s.mul_(p).sum(dim=-1, keepdim=True) / z).squeeze(-1)
        p.div_(z)

    run_blocks(block, row_blocks(scaled.shape, BLOCK_CELLS if scaled.device.type == "cpu" else None))
    return weights


def differentiable_softmax_with_entropy(
    scaled: torch.Tensor, mask: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """The same numbers through autograd (training needs gradients), with no NaN gradient:
    a row with no visible key is computed as all zeros and then multiplied by 0, and the
    entropy uses ln Z − Σ p·s with masked s set to 0, never p ln p at p = 0."""
    if bool(mask.all()):  # nothing hidden (a vision transformer's patches): half the passes
        s = scaled - scaled.amax(dim=-1, keepdim=True).detach()
        weights = torch.softmax(s, dim=-1)
        return weights, torch.logsumexp(s, dim=-1) - (weights * s).sum(dim=-1)
    visible_rows = mask.any(dim=-1, keepdim=True)
    s = scaled.masked_fill(~mask, float("-inf")).masked_fill(~visible_rows, 0.0)
    s = s - s.amax(dim=-1, keepdim=True).detach()  # H and p do not depend on the shift
    weights = torch.softmax(s, dim=-1)
    entropy = torch.logsumexp(s, dim=-1) - (weights * s.masked_fill(~mask, 0.0)).sum(dim=-1)
    return weights * visible_rows, entropy * visible_rows.squeeze(-1)


def differentiable_softmax(scaled: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """differentiable_softmax_with_entropy's weights alone, bit for bit, and their gradient: softmax
    subtracts each row's maximum itself (the shift there is for the entropy), so the exponents,
    the sums and softmax's backward are the same numbers."""
    if bool(mask.all()):
        return torch.softmax(scaled, dim=-1)
    visible_rows = mask.any(dim=-1, keepdim=True)
    s = scaled.masked_fill(~mask, float("-inf")).masked_fill(~visible_rows, 0.0)
    return torch.softmax(s, dim=-1) * visible_rows


def row_blocks(shape: torch.Size, cells: int | None) -> list[RowBlock]:
    """Index tuples covering [..., n_q, n_k] in blocks of whole rows of about ``cells`` cells."""
    *lead, n_q, n_k = shape
    everything = (Ellipsis, slice(None))
    if cells is None or math.prod(shape) <= cells or n_q == 0:
        return [everything]
    rows = max(1, cells // max(1, n_k))
    heads = [tuple(i) for i in itertools.product(*map(range, lead))]
    return [(*h, slice(a, min(n_q, a + rows))) for h in heads for a in range(0, n_q, rows)]


def sample_one_hot(probs: torch.Tensor, seed: int) -> torch.Tensor:
    """One key per row, drawn with the row's softmax probabilities; the same seed, the same draw."""
    gen = torch.Generator().manual_seed(seed)
    flat = probs.detach().to("cpu", torch.float64).reshape(-1, probs.shape[-1])
    choice = torch.multinomial(flat, 1, generator=gen).view(probs.shape[:-1])
    return F.one_hot(choice, probs.shape[-1]).to(probs.dtype).to(probs.device)


def row_entropy(weights: torch.Tensor) -> torch.Tensor:
    """−Σ p ln p per row, in nats: 0 for one-hot, ln(n) for uniform over n keys.

    The definition, for any weights; ``attend`` gets the same numbers from
    ``normalise_with_entropy`` without another pass over the weights."""
    return torch.special.entr(weights).sum(dim=-1)
