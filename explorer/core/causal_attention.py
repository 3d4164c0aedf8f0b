"""Attention as a decoder computes it: the lesson's stages, plus the rotation and shared K/V.

    project → rotate (RoPE) → share K/V → score → scale → mask → normalise → weigh → concatenate → project

The same ``attend_heads`` as every other model runs the middle; what a decoder adds is kept
as stages of its own:

- **rotation**: with rotary position embedding, each pair of dimensions (i, i + d/2) of a
  query or key at position p turns by the angle p · ω_i (``explorer.models.rope``); the
  scores compare the turned vectors, so they depend on how far apart two tokens are;
- **grouped-query attention**: the model has fewer K/V heads than query heads; query head h
  reads K/V head h // (heads / kv_heads), as transformers' repeat_kv does, and the stages
  ``k`` and ``v`` are the shared heads as each query head reads them;
- **the model's mask**: causal (key j ≤ query i), with a sliding window of W keys
  (i − j < W) on the layers that have one.

Shapes: x [n, d_model]; per-head tensors [heads, n, d_k]; per-K/V-head [kv_heads, n, d_k].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from explorer.core.attention import (
    NO_SCORING_PARAMS,
    Projections,
    Settings,
    Stages,
    attend_heads,
    build_mask,
    merge_heads,
    split_heads,
)
from explorer.core.config import MaskSpec
from explorer.core.scoring import ScoringParams
from explorer.models.decoder import linear
from explorer.models.rope import rotate


@dataclass(frozen=True)
class Rotary:
    """The rotation of every position: angles [n, d/2], and cos, sin [n, d] (both halves)."""

    angles: torch.Tensor
    cos: torch.Tensor
    sin: torch.Tensor

    def to(self, device: torch.device) -> Rotary:
        return Rotary(self.angles.to(device), self.cos.to(device), self.sin.to(device))


@dataclass
class DecoderStages(Stages):
    """``Stages`` (q, k, v are the projections; k and v per query head, as each reads them),
    and what a decoder adds."""

    q_rotated: torch.Tensor | None = None  # [h, n, d_k] after RoPE (None without RoPE)
    k_rotated: torch.Tensor | None = None  # [h, n, d_k] after RoPE, per query head
    angles: torch.Tensor | None = None  # [n, d_k / 2] the angle of each position and pair
    kv_head_of: tuple[int, ...] = ()  # the K/V head each query head reads
    keys_values: tuple[torch.Tensor, torch.Tensor] | None = None  # K after RoPE, V [kv_heads, n_k, d_k]


def causal_mask(
    n_q: int, n_k: int, window: int | None = None, device: torch.device | str | None = None, first: int = 0
) -> torch.Tensor:
    """[n_q, n_k] bool: key j visible from query i when j ≤ i (and i − j < window); the queries
    are positions ``first`` … ``first + n_q − 1`` (the rows after a reused prefix)."""
    i = torch.arange(first, first + n_q, device=device)[:, None]
    j = torch.arange(n_k, device=device)[None, :]
    visible = j <= i
    if window is not None:
        visible &= (i - j) < window
    return visible


def decoder_mask(
    spec: MaskSpec, n: int, window: int | None, device: torch.device | str | None = None
) -> torch.Tensor:
    """The mask a decoder layer computes with: its own for ``model`` (causal, with its sliding
    window) and ``causal`` (the window too: it is part of the model's causal mask); any other
    mask as it says (which the engine reports as not how the model was trained)."""
    if spec.kind in ("model", "causal"):
        return causal_mask(n, n, window, device)
    return build_mask(spec, n, n, device)


def share_kv(t: torch.Tensor, heads: int) -> torch.Tensor:
    """[kv_heads, n, d] → [heads, n, d]: each K/V head repeated for its group of query heads."""
    kv_heads = t.shape[0]
    if kv_heads == heads:
        return t
    group = heads // kv_heads
    return t[:, None].expand(kv_heads, group, *t.shape[1:]).reshape(heads, *t.shape[1:])


def attend_decoder(
    x: torch.Tensor,
    proj: Projections,
    settings: Settings,
    kv_heads: int,
    rotary: Rotary | None,
    mask: torch.Tensor,
    scoring_params: ScoringParams = NO_SCORING_PARAMS,
    edit_heads: Callable[[torch.Tensor], torch.Tensor] | None = None,
    past: tuple[torch.Tensor, torch.Tensor] | None = None,
) -> DecoderStages:
    """Every stage of one decoder layer's attention, from X (after the layer's norm) to its output.

    ``edit_heads`` may replace the head outputs before they are concatenated (turning heads
    off); the stage ``head_outputs`` keeps what the heads computed. ``past``: the keys (after
    the rotation) and values of earlier positions, whose rows a causal layer computes the same
    whatever follows; x, ``rotary`` and ``mask`` are then the later rows' alone."""
    h = settings.heads
    q = split_heads(linear(x, proj.w_q, proj.b_q), h)  # project the queries
    k = split_heads(linear(x, proj.w_k, proj.b_k), kv_heads)  # project the shared keys
    v = split_heads(linear(x, proj.w_v, proj.b_v), kv_heads)  # and values
    q_rot, k_rot = q, k
    if rotary is not None:
        q_rot = rotate(q, rotary.cos, rotary.sin)  # turn each pair by its position's angle
        k_rot = rotate(k, rotary.cos, rotary.sin)
    if past is not None:  # the earlier keys and values, then these rows'
        k_rot, v = torch.cat((past[0], k_rot), dim=1), torch.cat((past[1], v), dim=1)
        k = k_rot if rotary is None else k
    k_read, v_read = share_kv(k_rot, h), share_kv(v, h)  # the K/V head each query head reads
    heads = attend_heads(q_rot, k_read, v_read, settings, scoring_params, mask)
    outputs = heads.head_outputs if edit_heads is None else edit_heads(heads.head_outputs)
    concat = merge_heads(outputs)  # concatenate the heads
    output = linear(concat, proj.w_o, proj.b_o)  # project back with W_O
    group = h // kv_heads
    return DecoderStages(
        q=q,
        k=share_kv(k, h),
        v=v_read,
        concat=concat,
        output=output,
        **vars(heads),  # scores, scaled, mask, weights, head_outputs, entropy, scale_divisor
        q_rotated=q_rot if rotary is not None else None,
        k_rotated=k_read if rotary is not None else None,
        angles=rotary.angles if rotary is not None else None,
        kv_head_of=tuple(head // group for head in range(h)),
        keys_values=(k_rot, v),
    )
