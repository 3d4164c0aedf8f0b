"""Worked arithmetic for images: one channel's weight and one position's spatial score.

Recomputed in float64 numpy from the trace's own maps and weights (nothing else), so a teacher
can check each sum; tests prove the results equal the trace.

work_channel(trace, block, c), for an SE or a CBAM block:
    z_c = (Σ over the H·W positions of X_c) / (H·W)                  the squeeze
    h = δ(W₁ z), each h_j = Σ_k W₁[j, k] z_k                         the bottleneck (C/r numbers)
    a_c = Σ_j W₂[c, j] h_j                                           back to channel c
    s_c = σ(a_c) = 1 / (1 + e^(−a_c))                                the channel's weight
  CBAM runs the same MLP (W₀ then W₁) on the average- and on the max-pooled descriptor and adds
  the two results before the sigmoid: M_c = σ(a_c^avg + a_c^max).

work_position(trace, block, i, j), for a CBAM block:
    avg(i, j) = mean over channels of F′[:, i, j],  max(i, j) = max over channels of F′[:, i, j]
    logit = Σ over the k×k window around (i, j) of W_avg · avg + W_max · max, plus the bias
            (positions outside the map count as 0: the convolution's zero padding)
    M_s(i, j) = σ(logit)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.vision.trace import VisionTrace


def sigmoid(x: float) -> float:
    # Written so that neither branch can overflow.
    return 1.0 / (1.0 + np.exp(-x)) if x >= 0 else float(np.exp(x) / (1.0 + np.exp(x)))


@dataclass
class WorkedPath:
    """One pass of a descriptor through the bottleneck MLP (SE: one; CBAM: avg and max)."""

    pool: str  # "avg" (mean over positions) or "max"
    descriptor: np.ndarray  # [C] z (or the max-pooled vector)
    value: float  # z_c: channel c's entry
    hidden_pre: np.ndarray  # [C/r] W₁ z before the ReLU
    hidden: np.ndarray  # [C/r] δ(W₁ z)
    terms: np.ndarray  # [C/r] W₂[c, j] · h_j
    logit: float  # a_c = Σ terms


@dataclass
class WorkedChannel:
    block: str
    attention: str  # se or cbam
    channel: int
    positions: int  # H · W
    feature_sum: float  # Σ X_c over positions
    feature_max: float  # max X_c over positions (CBAM's max-pool)
    paths: list[WorkedPath]
    logit: float  # Σ of the paths' logits
    weight: float  # σ(logit)
    trace_weight: float  # the trace's channel_weights[c], for comparison


@dataclass
class WorkedPosition:
    block: str
    row: int
    col: int
    kernel: int
    centre_values: np.ndarray  # [C] F′[:, i, j]: the channel-refined values at the position
    centre_avg: float  # their mean: pooled_avg[i, j]
    centre_max: float  # their max: pooled_max[i, j]
    window_avg: np.ndarray  # [k, k] pooled_avg around (i, j), 0 outside the map
    window_max: np.ndarray  # [k, k]
    weight_avg: np.ndarray  # [k, k] the convolution's weights on the avg map
    weight_max: np.ndarray  # [k, k]
    sum_avg: float  # Σ weight_avg · window_avg
    sum_max: float  # Σ weight_max · window_max
    bias: float
    logit: float  # sum_avg + sum_max + bias
    score: float  # σ(logit)
    trace_logit: float
    trace_score: float


def _block(trace: VisionTrace, block: str, needs: str):
    b = trace.block(block)
    if needs not in b.stages:
        raise ValueError(f"{block} ({b.attention}) has no {needs.replace('_', ' ')}")
    return b


def work_channel(trace: VisionTrace, block: str, channel: int) -> WorkedChannel:
    b = _block(trace, block, "channel_weights")
    x = b.stages["features"].astype(np.float64)  # [C, H, W]
    if not 0 <= channel < x.shape[0]:
        raise IndexError(f"channel {channel} is outside 0 … {x.shape[0] - 1}")
    p = {k: v.astype(np.float64) for k, v in b.params.items()}
    first, second = (p["w1"], p["w2"]) if b.attention == "se" else (p["w0"], p["w1"])
    flat = x.reshape(x.shape[0], -1)
    descriptors = [("avg", flat.mean(axis=1))]
    if b.attention == "cbam":
        descriptors.append(("max", flat.max(axis=1)))
    paths = []
    for pool, z in descriptors:
        pre = first @ z
        hidden = np.maximum(pre, 0.0)
        terms = second[channel] * hidden
        paths.append(WorkedPath(pool, z, float(z[channel]), pre, hidden, terms, float(terms.sum())))
    logit = float(sum(path.logit for path in paths))
    return WorkedChannel(
        block=block,
        attention=b.attention,
        channel=channel,
        positions=flat.shape[1],
        feature_sum=float(flat[channel].sum()),
        feature_max=float(flat[channel].max()),
        paths=paths,
        logit=logit,
        weight=sigmoid(logit),
        trace_weight=float(b.stages["channel_weights"][channel]),
    )


def work_position(trace: VisionTrace, block: str, row: int, col: int) -> WorkedPosition:
    b = _block(trace, block, "spatial_logits")
    refined = b.stages["channel_refined"].astype(np.float64)  # [C, H, W]
    avg_map = b.stages["pooled_avg"].astype(np.float64)
    max_map = b.stages["pooled_max"].astype(np.float64)
    height, width = avg_map.shape
    if not (0 <= row < height and 0 <= col < width):
        raise IndexError(f"position ({row}, {col}) is outside the {height}×{width} map")
    weight = b.params["spatial_weight"].astype(np.float64)[0]  # [2, k, k]: avg map, then max map
    bias = float(b.params["spatial_bias"][0])
    k = weight.shape[-1]
    half = k // 2
    pad_avg = np.pad(avg_map, half)
    pad_max = np.pad(max_map, half)
    window_avg = pad_avg[row : row + k, col : col + k]  # centred on (row, col) in the unpadded map
    window_max = pad_max[row : row + k, col : col + k]
    sum_avg = float((weight[0] * window_avg).sum())
    sum_max = float((weight[1] * window_max).sum())
    logit = sum_avg + sum_max + bias
    centre = refined[:, row, col]
    return WorkedPosition(
        block=block,
        row=row,
        col=col,
        kernel=k,
        centre_values=centre,
        centre_avg=float(centre.mean()),
        centre_max=float(centre.max()),
        window_avg=window_avg,
        window_max=window_max,
        weight_avg=weight[0],
        weight_max=weight[1],
        sum_avg=sum_avg,
        sum_max=sum_max,
        bias=bias,
        logit=logit,
        score=sigmoid(logit),
        trace_logit=float(b.stages["spatial_logits"][row, col]),
        trace_score=float(b.stages["spatial_map"][row, col]),
    )


def _sum_line(values: np.ndarray, max_terms: int) -> str:
    shown = " + ".join(f"({v:.4f})" for v in values[:max_terms])
    return shown + (f" + … ({values.size - max_terms} more)" if values.size > max_terms else "")


def format_channel(w: WorkedChannel, max_terms: int = 8) -> list[str]:
    """Plain-text lines of one channel's arithmetic, numbers to 4 decimals."""
    lines = [f"{w.block} ({w.attention}), channel {w.channel}"]
    for path in w.paths:
        if path.pool == "avg":
            lines.append(
                f"z_{w.channel} = Σ X / {w.positions} = {w.feature_sum:.4f} / {w.positions} = {path.value:.4f}"
            )
        else:
            lines.append(f"max_{w.channel} = max over positions of X = {path.value:.4f}")
        lines.append(
            f"  hidden = ReLU(W · {path.pool}) = " + ", ".join(f"{h:.4f}" for h in path.hidden[:max_terms])
        )
        lines.append(f"  a = {_sum_line(path.terms, max_terms)} = {path.logit:.4f}")
    if len(w.paths) > 1:
        lines.append(" + ".join(f"{p.logit:.4f}" for p in w.paths) + f" = {w.logit:.4f}")
    lines.append(f"weight = σ({w.logit:.4f}) = 1 / (1 + e^({-w.logit:.4f})) = {w.weight:.4f}")
    return lines


def format_position(w: WorkedPosition, max_terms: int = 8) -> list[str]:
    """Plain-text lines of one position's spatial score, numbers to 4 decimals."""
    return [
        f"{w.block}, position (row {w.row}, column {w.col}), {w.kernel}×{w.kernel} window",
        f"avg over channels = {w.centre_avg:.4f}, max over channels = {w.centre_max:.4f}",
        f"Σ W_avg · avg window = {_sum_line((w.weight_avg * w.window_avg).ravel(), max_terms)} = {w.sum_avg:.4f}",
        f"Σ W_max · max window = {_sum_line((w.weight_max * w.window_max).ravel(), max_terms)} = {w.sum_max:.4f}",
        f"logit = {w.sum_avg:.4f} + {w.sum_max:.4f} + {w.bias:.4f} (bias) = {w.logit:.4f}",
        f"M_s = σ({w.logit:.4f}) = {w.score:.4f}",
    ]
