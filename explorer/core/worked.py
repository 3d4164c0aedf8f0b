"""Worked arithmetic for one cell: the actual numbers behind a score, a weight and an output.

Everything is recomputed in float64 numpy from the trace's own Q, K, V and scoring
parameters, so a teacher can check each sum; tests prove it equals the trace. With rotary
positions (a Llama-kind decoder, or the board with θ set) the score compares Q and K after
the rotation, and ``work_rotation`` shows how each pair of a vector was turned.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from explorer.core.trace import AttentionTrace


@dataclass
class WorkedScore:
    kind: str  # dot / cosine / general / additive
    terms: np.ndarray  # the products that add up to the score (or to the dot product, for cosine)
    total: float  # Σ terms
    score: float  # the raw score
    extra: dict[str, float | np.ndarray] = field(default_factory=dict)  # |q|, |k|, qW, tanh layer, ...


@dataclass
class WorkedCell:
    head: int
    i: int  # query row
    j: int  # key column
    query_token: str
    key_token: str
    score: WorkedScore
    divisor: float
    scaled: float
    visible: bool
    row_visible: np.ndarray  # [n_k] bool
    row_scaled: np.ndarray  # [n_k]
    row_max: float  # subtracted before exp, for numerical safety (the weights do not change)
    row_exp: np.ndarray  # exp(scaled - max) where visible, 0 where masked
    row_exp_sum: float
    softmax_weight: float  # exp_j / Σ exp
    weight: float  # the trace's weight (softmax, or 0/1 for hard and sample)
    attention: str
    value_weights: np.ndarray  # [n_k] row i of the weights
    values: np.ndarray  # [n_k, d_v] the value rows
    output: np.ndarray  # [d_v] Σ_j w_ij v_j
    rotated: bool = False  # q and k are the rotated vectors (rotary positions)


@dataclass
class WorkedRotation:
    """How RoPE turned one vector: pair m is (x_m, x_{m+d/2}), turned by the angle p·ω_m."""

    head: int
    position: int
    which: str  # "q" or "k"
    before: np.ndarray  # [d/2, 2] each pair before
    angles: np.ndarray  # [d/2] radians
    after: np.ndarray  # [d/2, 2] each pair after: (x cos − y sin, y cos + x sin)
    factor: float  # yarn multiplies cos and sin by it (1 otherwise)


def work_rotation(trace: AttentionTrace, head: int, position: int, which: str = "q") -> WorkedRotation:
    """The rotation of query (``which="q"``) or key vector ``position`` of ``head``, recomputed
    in float64 from the trace's unrotated Q or K and its angles."""
    if trace.rope_angles is None:
        raise ValueError("this trace has no rotary positions")
    source = (trace.Q if which == "q" else trace.K)[head, position].astype(np.float64)
    half = source.shape[0] // 2
    angles = trace.rope_angles[position].astype(np.float64)
    factor = float((trace.rope or {}).get("attention_factor", 1.0))
    x, y = source[:half], source[half:]
    cos, sin = np.cos(angles) * factor, np.sin(angles) * factor
    after = np.stack([x * cos - y * sin, y * cos + x * sin], axis=1)
    return WorkedRotation(head, position, which, np.stack([x, y], axis=1), angles, after, factor)


def softmax_parts(scaled: np.ndarray, visible: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What softmax does to rows of scaled scores [..., n_k], in float64: (row maxima over the
    visible keys, exp(scaled − max) with 0 where masked, their sums). weight = exp / sum."""
    scaled = np.asarray(scaled, dtype=np.float64)
    visible = np.broadcast_to(np.asarray(visible, dtype=bool), scaled.shape)
    maxima = np.where(visible, scaled, -np.inf).max(axis=-1)
    maxima = np.where(np.isfinite(maxima), maxima, 0.0)  # a row with every key masked
    # Masked keys may hold larger scores than the row's visible maximum: never exponentiate them.
    exps = np.exp(np.where(visible, scaled - maxima[..., None], -np.inf))
    return maxima, exps, exps.sum(axis=-1)


def work_cell(trace: AttentionTrace, head: int, i: int, j: int) -> WorkedCell:
    rotated = trace.Q_rotated is not None and trace.K_rotated is not None
    q_all = trace.Q_rotated if trace.Q_rotated is not None else trace.Q
    k_all = trace.K_rotated if trace.K_rotated is not None else trace.K
    q, k = q_all[head, i].astype(np.float64), k_all[head, j].astype(np.float64)
    worked = _worked_score(trace, head, q, k)
    divisor = float(trace.scale_divisor)
    row_visible = trace.mask[i].astype(bool)
    row_scaled = trace.scaled[head, i].astype(np.float64)
    maxima, row_exp, sums = softmax_parts(row_scaled, row_visible)
    row_max, total = float(maxima), float(sums)
    weights = trace.weights[head, i].astype(np.float64)
    values = trace.V[head].astype(np.float64)
    return WorkedCell(
        head=head,
        i=i,
        j=j,
        query_token=trace.tokens_query[i],
        key_token=trace.tokens_key[j],
        score=worked,
        divisor=divisor,
        scaled=worked.score / divisor,
        visible=bool(row_visible[j]),
        row_visible=row_visible,
        row_scaled=row_scaled,
        row_max=row_max,
        row_exp=row_exp,
        row_exp_sum=total,
        softmax_weight=float(row_exp[j] / total) if total else 0.0,
        weight=float(weights[j]),
        attention=trace.config.attention,
        value_weights=weights,
        values=values,
        output=weights @ values,
        rotated=rotated,
    )


def _worked_score(trace: AttentionTrace, head: int, q: np.ndarray, k: np.ndarray) -> WorkedScore:
    kind = trace.config.scoring
    params = {name: value.astype(np.float64) for name, value in trace.scoring_params.items()}
    if kind == "dot":
        terms = q * k
        return WorkedScore(kind, terms, float(terms.sum()), float(terms.sum()))
    if kind == "cosine":
        terms = q * k
        nq, nk = float(np.linalg.norm(q)), float(np.linalg.norm(k))
        denom = max(nq, 1e-12) * max(nk, 1e-12)
        return WorkedScore(
            kind, terms, float(terms.sum()), float(terms.sum()) / denom, {"norm_q": nq, "norm_k": nk}
        )
    if kind == "general":
        qw = q @ params["general_W"][head]
        terms = qw * k
        return WorkedScore(kind, terms, float(terms.sum()), float(terms.sum()), {"qW": qw})
    if kind == "additive":
        pre = q @ params["additive_W1"][head] + k @ params["additive_W2"][head]
        hidden = np.tanh(pre)
        terms = params["additive_v"][head] * hidden
        return WorkedScore(
            kind,
            terms,
            float(terms.sum()),
            float(terms.sum()),
            {"W1q_plus_W2k": pre, "tanh": hidden, "v": params["additive_v"][head]},
        )
    raise ValueError(f"unknown scoring {kind!r}")


def format_rotation(rotation: WorkedRotation, max_pairs: int = 4) -> list[str]:
    """Plain-text lines of one vector's rotation, pair by pair (4 decimals)."""
    lines = [
        f"head {rotation.head}, {rotation.which} at position {rotation.position}: each pair turned by p·ω_m"
    ]
    for m in range(min(max_pairs, len(rotation.angles))):
        (x, y), (xr, yr), a = rotation.before[m], rotation.after[m], rotation.angles[m]
        lines.append(
            f"pair {m}: ({x:.4f}, {y:.4f}) turned by {a:.4f} rad → "
            f"({x:.4f}·cos − {y:.4f}·sin, {y:.4f}·cos + {x:.4f}·sin) = ({xr:.4f}, {yr:.4f})"
        )
    if len(rotation.angles) > max_pairs:
        lines.append(f"… ({len(rotation.angles) - max_pairs} more pairs)")
    return lines


def format_cell(cell: WorkedCell, max_terms: int = 8) -> list[str]:
    """Plain-text lines of the arithmetic, numbers to 4 decimals (the GUI translates labels)."""
    s = cell.score

    def sum_of(terms: np.ndarray, pairs: list[str]) -> str:
        shown = pairs[:max_terms]
        more = f" + … ({len(pairs) - max_terms} more)" if len(pairs) > max_terms else ""
        return " + ".join(shown) + more

    q = cell.score.extra
    lines = [f"head {cell.head}, query {cell.i} '{cell.query_token}', key {cell.j} '{cell.key_token}'"]
    if s.kind in ("dot", "cosine", "general"):
        pairs = [f"({t:.4f})" for t in s.terms]
        label = {"dot": "q·k", "cosine": "q·k", "general": "(qW)·k"}[s.kind]
        if cell.rotated:  # the rotated vectors: RoPE(q)·RoPE(k)
            label = label.replace("q", "RoPE(q)").replace("·k", "·RoPE(k)")
        lines.append(f"{label} = {sum_of(s.terms, pairs)} = {s.total:.4f}")
        if s.kind == "cosine":
            lines.append(f"cos = {s.total:.4f} / ({q['norm_q']:.4f} × {q['norm_k']:.4f}) = {s.score:.4f}")
    else:
        pairs = [f"{v:.3f}×tanh({p:.3f})" for v, p in zip(np.asarray(q["v"]), np.asarray(q["W1q_plus_W2k"]))]
        lines.append(f"vᵀ tanh(W₁q + W₂k) = {sum_of(s.terms, pairs)} = {s.score:.4f}")
    lines.append(f"scaled = {s.score:.4f} / {cell.divisor:.4f} = {cell.scaled:.4f}")
    if not cell.visible:
        lines.append("masked: this key is hidden from this query, weight 0")
    if cell.row_visible.any():
        exps = [f"{e:.4f}" for e, v in zip(cell.row_exp, cell.row_visible) if v]
        lines.append(
            f"exp(scaled − {cell.row_max:.4f}) over the row = {', '.join(exps[:max_terms])}"
            + (" …" if len(exps) > max_terms else "")
            + f"; sum = {cell.row_exp_sum:.4f}"
        )
        lines.append(
            f"softmax = {cell.row_exp[cell.j]:.4f} / {cell.row_exp_sum:.4f} = {cell.softmax_weight:.4f}"
        )
    if cell.attention != "soft":
        lines.append(f"{cell.attention}: weight = {cell.weight:.0f}")
    lines.append(
        "output = Σ_j w_ij · v_j = "
        + ", ".join(f"{x:.4f}" for x in cell.output[:max_terms])
        + (" …" if cell.output.size > max_terms else "")
    )
    return lines
