"""How similar is each query to each key? Four answers from the lesson.

Every function takes per-head queries ``q`` [heads, n_q, d_k] and keys ``k``
[heads, n_k, d_k] and returns raw scores [heads, n_q, n_k].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

# Cosine of a zero vector is undefined; a zero query or key scores 0 against everything.
COSINE_EPS = 1e-12
# Additive scoring builds a [heads, rows, n_k, d_a] tensor; cap it near 256 MB.
ADDITIVE_BUDGET = 64 * 1024 * 1024


@dataclass(frozen=True)
class ScoringParams:
    """The extra, seeded and untrained, parameters of additive and general scoring."""

    w_query: torch.Tensor | None = None  # additive W1 [heads, d_k, d_a]
    w_key: torch.Tensor | None = None  # additive W2 [heads, d_k, d_a]
    v: torch.Tensor | None = None  # additive v [heads, d_a]
    bilinear: torch.Tensor | None = None  # general W [heads, d_k, d_k]

    def to(self, device: torch.device) -> ScoringParams:
        def move(t: torch.Tensor | None) -> torch.Tensor | None:
            return None if t is None else t.to(device)

        return ScoringParams(move(self.w_query), move(self.w_key), move(self.v), move(self.bilinear))

    def as_arrays(self) -> dict[str, np.ndarray]:
        names = {
            "additive_W1": self.w_query,
            "additive_W2": self.w_key,
            "additive_v": self.v,
            "general_W": self.bilinear,
        }
        return {name: t.detach().cpu().numpy() for name, t in names.items() if t is not None}


def make_scoring_params(scoring: str, heads: int, d_k: int, seed: int) -> ScoringParams:
    """Seeded parameters for ``additive`` and ``general``; nothing for the others."""
    if scoring not in ("additive", "general"):
        return ScoringParams()
    gen = torch.Generator().manual_seed(10_007 + seed)
    if scoring == "general":
        return ScoringParams(bilinear=torch.randn(heads, d_k, d_k, generator=gen) / d_k**0.5)
    d_a = d_k
    return ScoringParams(
        w_query=torch.randn(heads, d_k, d_a, generator=gen) / d_k**0.5,
        w_key=torch.randn(heads, d_k, d_a, generator=gen) / d_k**0.5,
        v=torch.randn(heads, d_a, generator=gen) / d_a**0.5,
    )


def dot_scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """q · k for every pair."""
    return q @ k.transpose(-2, -1)


def cosine_scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """(q · k) / (|q| |k|): the angle only, lengths divided out."""
    q_unit = q / q.norm(dim=-1, keepdim=True).clamp_min(COSINE_EPS)
    k_unit = k / k.norm(dim=-1, keepdim=True).clamp_min(COSINE_EPS)
    return q_unit @ k_unit.transpose(-2, -1)


def _given(t: torch.Tensor | None, scoring: str) -> torch.Tensor:
    if t is None:
        raise ValueError(f"{scoring} scoring needs its parameters (make_scoring_params)")
    return t


def general_scores(q: torch.Tensor, k: torch.Tensor, params: ScoringParams) -> torch.Tensor:
    """Luong's general score qᵀ W k, one W per head."""
    return (q @ _given(params.bilinear, "general")) @ k.transpose(-2, -1)


def additive_scores(q: torch.Tensor, k: torch.Tensor, params: ScoringParams) -> torch.Tensor:
    """Bahdanau's score vᵀ tanh(W₁q + W₂k): a one-layer MLP on every pair."""
    q_part = q @ _given(params.w_query, "additive")  # [h, n_q, d_a]
    k_part = k @ _given(params.w_key, "additive")  # [h, n_k, d_a]
    heads, n_q, d_a = q_part.shape
    n_k = k_part.shape[1]
    rows = max(1, ADDITIVE_BUDGET // max(1, heads * n_k * d_a))
    v = _given(params.v, "additive")[:, None, None, :]  # [h, 1, 1, d_a]
    chunks = []
    for start in range(0, n_q, rows):
        hidden = torch.tanh(q_part[:, start : start + rows, None, :] + k_part[:, None, :, :])
        chunks.append((hidden * v).sum(-1))
    return torch.cat(chunks, dim=1)


def score(scoring: str, q: torch.Tensor, k: torch.Tensor, params: ScoringParams) -> torch.Tensor:
    if scoring == "dot":
        return dot_scores(q, k)
    if scoring == "cosine":
        return cosine_scores(q, k)
    if scoring == "general":
        return general_scores(q, k, params)
    if scoring == "additive":
        return additive_scores(q, k, params)
    raise ValueError(f"unknown scoring {scoring!r}")
