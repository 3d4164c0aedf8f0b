"""What a head does, in one number per head: measures read off attention weights.

Every function takes ``weights`` of shape [heads, n_query, n_key] (rows summing to 1, as a
trace's ``weights``; a fully masked row sums to 0 and simply adds nothing) and returns one
float per head; leading axes (pictures, layers: [..., heads, n_query, n_key]) are kept
([..., heads]), so a whole batch is measured at once. The text models, the language-model lab and the vision transformer all
measure their heads here, so a score means the same thing on every tab.

- ``self_share``: the weight a position keeps on itself (the diagonal), the "over-attends to
  its own position" of single-head self-attention.
- ``first_token_share``: the weight on the first key (a decoder's "attention sink").
- ``previous_token_score``: the weight from position i on i − 1 (a previous-token head).
- ``induction_score``: on a sequence repeated with period k, the weight from i on i − k + 1,
  the token after the previous occurrence of the current one (Olsson et al. 2022).
- ``mean_attention_distance``: the weight-averaged distance between query and key positions
  (Dosovitskiy et al. 2020, Fig. 7), for positions given as coordinates.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _heads(weights: np.ndarray) -> np.ndarray:
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim < 3:
        raise ValueError(f"weights must be [..., heads, n_query, n_key], not shape {weights.shape}")
    return weights


def _diagonal_mean(weights: np.ndarray, offset: int, first_row: int) -> np.ndarray:
    """Mean over rows i ≥ first_row of weights[..., h, i, i + offset] (keys that exist only)."""
    n_query, n_key = weights.shape[-2:]
    rows = np.arange(max(first_row, -offset, 0), n_query)
    rows = rows[rows + offset < n_key]
    if rows.size == 0:
        return np.full(weights.shape[:-2], np.nan)
    return weights[..., rows, rows + offset].mean(axis=-1)


def self_share(weights: np.ndarray) -> np.ndarray:
    """Mean of weights[h, i, i] over the query positions (self-attention: keys are queries)."""
    return _diagonal_mean(_heads(weights), offset=0, first_row=0)


def first_token_share(weights: np.ndarray, *, skip_first_row: bool = True) -> np.ndarray:
    """Mean of weights[h, i, 0]; row 0 is left out by default (a causal row 0 can only look
    at key 0, so it would count 1 whatever the head does)."""
    weights = _heads(weights)
    rows = weights[..., 1:, 0] if skip_first_row else weights[..., :, 0]
    return rows.mean(axis=-1) if rows.shape[-1] else np.full(weights.shape[:-2], np.nan)


def previous_token_score(weights: np.ndarray) -> np.ndarray:
    """Mean of weights[h, i, i − 1] over i ≥ 1."""
    return _diagonal_mean(_heads(weights), offset=-1, first_row=1)


def induction_score(weights: np.ndarray, period: int) -> np.ndarray:
    """Mean of weights[h, i, i − period + 1] over the repeated positions i ≥ period.

    For tokens t_0 … t_{k−1} t_0 … (period k), position i ≥ k holds the token seen at i − k;
    the token that followed it then sits at i − k + 1: what an induction head attends to."""
    if period < 2:
        raise ValueError(f"period must be 2 or more, not {period}")
    return _diagonal_mean(_heads(weights), offset=1 - period, first_row=period)


def mean_attention_distance(
    weights: np.ndarray, query_positions: np.ndarray, key_positions: np.ndarray | None = None
) -> np.ndarray:
    """Σ_j w[h, i, j] · ‖p_i − p_j‖, averaged over the queries i.

    Positions are coordinates, [n, dims] (a patch's centre in pixels) or [n] (a token index);
    ``key_positions`` defaults to the query positions (self-attention)."""
    weights = _heads(weights)
    queries = np.asarray(query_positions, dtype=np.float64)
    keys = queries if key_positions is None else np.asarray(key_positions, dtype=np.float64)
    queries = queries.reshape(len(queries), -1)
    keys = keys.reshape(len(keys), -1)
    if (len(queries), len(keys)) != weights.shape[-2:]:
        raise ValueError(f"{len(queries)} query and {len(keys)} key positions for weights {weights.shape}")
    distance = np.linalg.norm(queries[:, None, :] - keys[None, :, :], axis=-1)  # [n_query, n_key]
    return (weights * distance).sum(axis=-1).mean(axis=-1)


def repeat_period(
    tokens: Sequence[object], max_start: int = 2, min_repeated: int = 2
) -> tuple[int, int] | None:
    """(start, period) of a text that repeats itself: from ``start`` on, every token equals the
    one ``period`` before it, for at least ``min_repeated`` tokens (a start token such as <s>,
    or a first word spelt without its space, may stand before the repetition); the smallest
    start, then the smallest period of 2 or more; None when the text does not repeat."""
    ids = np.asarray(list(tokens), dtype=object)
    n = len(ids)
    for start in range(min(max_start, n) + 1):
        for period in range(2, (n - start - min_repeated) + 1):
            tail = ids[start:]
            if np.all(tail[period:] == tail[:-period]):
                return start, period
    return None


def text_induction_score(weights: np.ndarray, tokens: Sequence[object]) -> tuple[np.ndarray, int] | None:
    """``induction_score`` on the repeated part of a text (``repeat_period``), with its period;
    None when the text does not repeat."""
    found = repeat_period(tokens)
    if found is None:
        return None
    start, period = found
    weights = _heads(weights)
    return induction_score(weights[..., start:, start:], period), period
