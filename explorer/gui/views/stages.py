"""The matrices the views draw, built from a trace: one function per view, no widget.

The views call these on every new trace; the export calls the same functions for a stage
that is not on screen, so what a file shows is what the view would show.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6 import QtCore

from explorer.appstate.display import DisplayArrays
from explorer.appstate.state import PANEL_NAMES, ZOOM_ONLY_PANELS
from explorer.core.trace import AttentionTrace
from explorer.gui.heatmap import MatrixPanel, symmetric_levels
from explorer.gui.heatmap.figure import Outline
from explorer.gui.i18n import translate
from explorer.gui.options import option_label

SCORE_FORMULAS = {
    "dot": "scores = Q·Kᵀ",
    "cosine": "scores = cos(Q, K)",
    "additive": "scores = vᵀ·tanh(W₁q + W₂k)",
    "general": "scores = Q·W·Kᵀ",
}
WEIGHT_FORMULAS = {
    "soft": "weights = softmax(masked)",
    "hard": "weights = one-hot argmax(masked)",
    # k drawn from the row's softmax: spaces where a narrow panel's title may break its two lines
    "sample": "weights = one-hot(k),  k ∼ softmax(masked)",
}
# The pipeline's panels, in the lesson's order (four a row on a wide window).
PIPELINE_STAGES = PANEL_NAMES
# and those it shows only when zoomed into them
ZOOM_PANELS = ZOOM_ONLY_PANELS
# The panels each lesson step (explorer/appstate/lesson.py STEPS) highlights and zooms into.
STAGE_PANELS = {
    "tokens": ("tokens",),  # the token chips (views/tokens.py), not a matrix
    "X": ("X",),
    "Q": ("Q", "K", "V"),
    "heads": ("Q_heads", "Q"),  # every head's columns of Q, then the selected head's
    "scores": ("scores",),
    "scaled": ("scaled",),
    "mask": ("mask",),
    "weights": ("weights",),
    "head_outputs": ("head_output",),
    "head_output": ("head_output",),
    "concat": ("concat",),
    "output": ("output",),
    "entropy": ("entropy",),
}


def framed_panels(stage: str) -> tuple[str, ...]:
    """The matrix panels a lesson step frames among every stage: the tokens step frames X
    (its rows are the tokens; the chips show only when zoomed into that step)."""
    panels = STAGE_PANELS.get(stage, ())
    return ("X",) if panels == ("tokens",) else panels


# The stages the all-heads grid offers, with their names in the picker.
GRID_STAGE_LABELS = {
    "weights": QtCore.QT_TRANSLATE_NOOP("Stages", "weights (after softmax / hard)"),
    "scores": QtCore.QT_TRANSLATE_NOOP("Stages", "raw scores"),
    "scaled": QtCore.QT_TRANSLATE_NOOP("Stages", "scaled scores"),
    "head_outputs": QtCore.QT_TRANSLATE_NOOP("Stages", "head outputs (weights·V)"),
    "Q": "Q",
    "K": "K",
    "V": "V",
}
SQUARE = ("scores", "scaled", "weights")
ROLE_SHOWN = 0.5  # a previous-token or induction share a narrow grid still names in a head's title
# The pipeline's stages by name, for the Export dialog and the like.
STAGE_NAMES = {
    "X": "X",
    "Q": "Q",
    "Q_heads": QtCore.QT_TRANSLATE_NOOP("Stages", "Q split into heads"),
    "rope_angles": QtCore.QT_TRANSLATE_NOOP("Stages", "rotation angles (RoPE)"),
    "K": "K",
    "V": "V",
    "scores": QtCore.QT_TRANSLATE_NOOP("Stages", "raw scores"),
    "scaled": QtCore.QT_TRANSLATE_NOOP("Stages", "scaled scores"),
    "mask": QtCore.QT_TRANSLATE_NOOP("Stages", "mask"),
    "weights": QtCore.QT_TRANSLATE_NOOP("Stages", "weights"),
    "head_output": QtCore.QT_TRANSLATE_NOOP("Stages", "head output"),
    "concat": QtCore.QT_TRANSLATE_NOOP("Stages", "concatenation"),
    "output": QtCore.QT_TRANSLATE_NOOP("Stages", "output (after W_O)"),
    "entropy": QtCore.QT_TRANSLATE_NOOP("Stages", "entropy"),
}


def stage_name(name: str) -> str:
    return translate("Stages", STAGE_NAMES.get(name, name))


def shape_text(a: np.ndarray) -> str:
    return "×".join(str(s) for s in np.shape(a))


def has_stage(trace: AttentionTrace | None, name: str) -> bool:
    """Whether this trace has the stage to show or export: the rotation's angles are a
    rotary model's only (None: no trace yet, the angles not either)."""
    return name != "rope_angles" or (trace is not None and trace.rope_angles is not None)


def rope_angles_panel(trace: AttentionTrace) -> MatrixPanel:
    """The angle each pair of dimensions (i, i + d_k/2) turns by at each position, p·ω_i, shown
    modulo 2π: the first pairs turn fast and wrap again and again, the last barely move."""
    angles = trace.rope_angles
    if angles is None:  # no rotation: the model reads learned or no positions
        panel = MatrixPanel(np.zeros((1, 1)), None, None, kind="weights")
        return _titled(panel, translate("Stages", "no rotation: this model has no rotary positions"))
    wrapped = np.remainder(angles + np.pi, 2 * np.pi) - np.pi  # into [−π, π)
    panel = MatrixPanel(wrapped, trace.tokens_query, None, role="q", levels=(-np.pi, np.pi))
    theta = (trace.rope or {}).get("theta")
    base = compact_number(theta) if isinstance(theta, (int, float)) else "θ"
    # the shape before the frequency: two short lines, each whole in a panel at a projector
    angle = translate("Stages", "p·ω_i mod 2π")  # the angle; the Show list names it
    panel.title = f"{angle}  [{shape_text(panel.data)}]  ω_i = {base}^(−2i/d_k)"
    return panel


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def compact_number(value: float) -> str:
    """A rotary base as a formula writes it: 10000, 5·10⁵, 10⁶ (not 1e+06)."""
    if value == int(value) and abs(value) < 100_000:
        return str(int(value))
    mantissa, exponent = f"{value:.3e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    power = "10" + str(int(exponent)).translate(_SUPERSCRIPT)
    return power if mantissa == "1" else f"{mantissa}·{power}"


def _titled(panel: MatrixPanel, formula: str) -> MatrixPanel:
    panel.title = f"{formula}  [{shape_text(panel.data)}]"
    return panel


def pipeline_panel(trace: AttentionTrace, display: DisplayArrays, head: int, name: str) -> MatrixPanel:
    """One stage of one head, as the pipeline shows it."""
    t, h, cfg = trace, head, trace.config
    q_tok, k_tok = t.tokens_query, t.tokens_key
    head_word = translate("Stages", "head")
    if name == "X":
        x_title = (
            translate("Stages", "X (queries = keys)")
            if cfg.is_self_attention
            else translate("Stages", "X (query side)")
        )
        panel = MatrixPanel(t.X_query, q_tok, None, role="q", picture=display.picture("X_query"))
        return _titled(panel, x_title)
    if name in ("Q", "K", "V"):
        rows = q_tok if name == "Q" else k_tok
        source = "X" if name == "Q" or cfg.is_self_attention else "X_key"  # one X: its name alone
        data, formula = getattr(t, name)[h], f"{name} = {source}·W_{name}"
        rotated = {"Q": t.Q_rotated, "K": t.K_rotated}.get(name)
        if rotated is not None:  # the scores compare the turned vectors: show those
            data, formula = rotated[h], f"{name} = RoPE({source}·W_{name})"
        picture = display.picture(name if rotated is None else f"{name}_rotated", h)
        panel = MatrixPanel(data, rows, None, role="q" if name == "Q" else "k", picture=picture)
        if name != "Q" and t.kv_heads is not None and t.kv_heads < t.heads and t.kv_head_of:
            # the note says which query heads share a K/V head; the title stays two lines
            return _titled(panel, f"{formula}  ({head_word} {h} → K/V {t.kv_head_of[h]})")
        return _titled(panel, f"{formula}  ({head_word} {h})")
    if name == "rope_angles":
        return rope_angles_panel(t)
    if name == "Q_heads":
        panel = MatrixPanel(
            HeadColumns(t.Q), q_tok, None, role="q", picture=_head_columns_picture(t, display)
        )
        last = t.heads - 1
        return _titled(panel, f"Q = [Q₀ | Q₁ | … | Q{_subscript(last)}],  d_k = {t.d_k}")
    if name in ("scores", "scaled"):
        data = getattr(t, name)[h]
        picture = display.picture(name, h)
        panel = MatrixPanel(
            data,
            q_tok,
            k_tok,
            role="qk",
            picture=picture,
            hidden=display.hidden_cells(t),
            visible=t.mask,
            levels=symmetric_levels(data if picture is None else picture),
        )
        if name == "scores":
            return _titled(panel, SCORE_FORMULAS.get(cfg.scoring, "scores"))
        if cfg.scale == "sqrt":
            formula = f"scaled = scores / √d_k (÷{t.scale_divisor:.4g})"
        elif cfg.scale == "temperature":
            formula = f"scaled = scores / τ (τ={t.scale_divisor:.4g})"
        else:
            formula = translate("Stages", "scaled = scores (no scaling)")
        return _titled(panel, formula)
    if name == "mask":
        panel = MatrixPanel(
            t.mask,
            q_tok,
            k_tok,
            kind="mask",
            role="qk",
            picture=display.picture("mask"),
            hidden=display.hidden_cells(t),
            visible=t.mask,
        )
        return _titled(panel, mask_title(t))
    if name == "weights":
        panel = MatrixPanel(
            t.weights[h],
            q_tok,
            k_tok,
            kind="weights",
            role="qk",
            picture=display.picture("weights", h),
            hidden=display.hidden_cells(t),
            visible=t.mask,
        )
        return _titled(panel, WEIGHT_FORMULAS.get(cfg.attention, "weights"))
    if name == "head_output":
        panel = MatrixPanel(
            t.head_outputs[h], q_tok, None, role="q", picture=display.picture("head_outputs", h)
        )
        return _titled(panel, f"{head_word} {h} = weights·V")
    if name == "concat":
        panel = MatrixPanel(t.concat, q_tok, None, role="q", picture=display.picture("concat"))
        return _titled(panel, f"concat = [{head_word} 0 … {head_word} {t.heads - 1}]")
    if name == "output":
        panel = MatrixPanel(t.output, q_tok, None, role="q", picture=display.picture("output"))
        return _titled(panel, "output = concat·W_O")
    if name == "entropy":
        panel = MatrixPanel(
            t.entropy,
            [f"{head_word} {i}" for i in range(t.heads)],
            q_tok,
            kind="weights",
            role="hq",
            levels=(0.0, max(float(np.log(max(t.n_key, 2))), 1e-6)),
        )
        return _titled(panel, translate("Stages", "entropy of each weight row (nats)"))
    raise KeyError(f"no pipeline stage {name!r}")


class HeadColumns:
    """The heads' [h, n, d_k] arrays read as one [n, h·d_k] matrix (head h owns columns
    h·d_k … (h+1)·d_k − 1), without copying it: hover and clicks read single cells."""

    def __init__(self, per_head: np.ndarray):
        self.per_head = per_head
        heads, n, d_k = per_head.shape
        self.d_k = d_k
        self.shape = (n, heads * d_k)
        self.ndim = 2
        self.size = n * heads * d_k
        self.dtype = per_head.dtype

    def __getitem__(self, cell):
        r, c = cell
        return self.per_head[c // self.d_k, r, c % self.d_k]

    def __array__(self, dtype=None, copy=None):
        whole = np.concatenate(list(self.per_head), axis=1)
        return whole if dtype is None else whole.astype(dtype)


def _head_columns_picture(trace: AttentionTrace, display: DisplayArrays) -> np.ndarray:
    """What the Q_heads panel draws: the heads' (reduced) Q side by side."""
    picture = display.picture("Q")
    return np.concatenate(list(trace.Q if picture is None else picture), axis=1)


def head_bands(trace: AttentionTrace, head: int, colour, selected_colour) -> tuple:
    """Frames around each head's columns of the Q_heads panel (in the background's colour:
    gaps between the heads); the selected head's stands out."""
    n, d_k = trace.n_query, trace.d_k
    bands = [Outline(0, h * d_k, colour, 2, rows=n, cols=d_k) for h in range(trace.heads) if h != head]
    return (*bands, Outline(0, head * d_k, selected_colour, 4, rows=n, cols=d_k))


def _subscript(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def mask_title(trace: AttentionTrace) -> str:
    """A causally trained model's own mask is named as what it was trained with."""
    kind = trace.config.mask_spec.kind
    if trace.causal and kind in ("model", "causal") and trace.sliding_window is not None:
        return translate("Stages", "mask: causal, window {0}, as the model was trained (1 = visible)").format(
            trace.sliding_window
        )
    if trace.causal and kind in ("model", "causal"):
        return translate("Stages", "mask: causal, as the model was trained (1 = visible)")
    mask = option_label("mask", trace.config.mask)
    return translate("Stages", "mask: {mask} (1 = visible)").format(mask=mask)


def pipeline_panels(trace: AttentionTrace, display: DisplayArrays, head: int, names=PIPELINE_STAGES):
    """Every pipeline stage of one head, each panel named after its stage."""
    head = min(max(head, 0), trace.heads - 1)
    out = []
    for name in names:
        panel = pipeline_panel(trace, display, head, name)
        panel.name = name
        out.append(panel)
    return out


def grid_levels(trace: AttentionTrace, display: DisplayArrays, stage: str) -> tuple[str, tuple[float, float]]:
    """(kind, levels) shared by every head of the grid: one colour bar reads them all."""
    if stage == "weights":
        return "weights", (0.0, 1.0)
    picture = display.picture(stage)
    return "diverging", symmetric_levels(getattr(trace, stage) if picture is None else picture)


@dataclass(frozen=True)
class HeadScores:
    """A causal model's per-head scores (explorer.core.head_measures), measured once per trace."""

    previous: np.ndarray | None  # [heads] weight on the token before
    induction: np.ndarray | None  # [heads] weight on the token after the previous occurrence
    period: int | None  # of the repeated text the induction score reads

    @staticmethod
    def of(trace: AttentionTrace) -> HeadScores | None:
        if not trace.causal:
            return None
        induction = trace.induction
        return HeadScores(
            trace.previous_token_score,
            None if induction is None else induction[0],
            None if induction is None else induction[1],
        )

    def describe(self, head: int, sink: float) -> str:
        """Every score of one head in words (the hover line and the tooltip)."""
        parts = []
        if self.previous is not None:
            parts.append(
                translate("Stages", "previous token {0}").format(f"{100 * self.previous[head]:.0f} %")
            )
        if self.induction is not None:
            parts.append(
                translate("Stages", "induction {0} (the text repeats every {1} tokens)").format(
                    f"{100 * self.induction[head]:.0f} %", self.period
                )
            )
        if math.isfinite(sink):
            parts.append(translate("Stages", "first token {0}").format(f"{100 * sink:.0f} %"))
        return ", ".join(parts)


def head_panel(
    trace: AttentionTrace,
    display: DisplayArrays,
    stage: str,
    head: int,
    kind: str,
    levels: tuple[float, float],
    hidden: np.ndarray | None,
    scores: HeadScores | None = None,
    off: bool = False,
) -> MatrixPanel:
    """One head of the all-heads grid: its stage, titled with its mean row entropy (a causal
    model's: with its attention-sink, previous-token and induction scores; a head turned
    off says so first, where even a shortened title keeps it)."""
    data = getattr(trace, stage)[head]
    if stage in SQUARE:
        rows, cols, role = trace.tokens_query, trace.tokens_key, "qk"
    elif stage in ("K", "V"):
        rows, cols, role = trace.tokens_key, None, "k"
    else:
        rows, cols, role = trace.tokens_query, None, "q"
    mean_entropy = float(trace.entropy[head].mean())
    head_word = translate("Stages", "head")
    name = f"{head_word} {head}" + (" " + translate("Stages", "(off)") if off else "")
    title = f"{name} · H̄ {mean_entropy:.2f}"  # the grid's bar says the shape
    sink = trace.first_token_share[head] if head < len(trace.first_token_share) else math.nan
    if trace.causal and math.isfinite(sink):  # a causal model's attention sink (one token: none)
        share = f"{100 * sink:.0f} %"
        title += " · " + translate("Stages", "first token {0}").format(share)
    short = name  # a narrow grid keeps what the head is known for (the lesson points at it)
    if scores is not None and scores.previous is not None:
        part = translate("Stages", "prev {0}").format(f"{100 * scores.previous[head]:.0f} %")
        title += " · " + part
        short += f" · {part}" if scores.previous[head] >= ROLE_SHOWN else ""
    if scores is not None and scores.induction is not None:
        part = translate("Stages", "ind {0}").format(f"{100 * scores.induction[head]:.0f} %")
        title += " · " + part
        short += f" · {part}" if scores.induction[head] >= ROLE_SHOWN else ""
    return MatrixPanel(
        data,
        rows,
        cols,
        title=title,
        kind=kind,
        levels=levels,
        role=role,
        picture=display.picture(stage, head),
        hidden=hidden if stage in SQUARE else None,
        name=f"head {head}",
        short_title=short,
    )


def head_panels(
    trace: AttentionTrace, display: DisplayArrays, stage: str, heads_off: frozenset[int] = frozenset()
) -> list[MatrixPanel]:
    kind, levels = grid_levels(trace, display, stage)
    hidden = display.hidden_cells(trace)  # one array for all heads: its hatching is drawn once
    scores = HeadScores.of(trace)
    return [
        head_panel(trace, display, stage, h, kind, levels, hidden, scores, off=h in heads_off)
        for h in range(trace.heads)
    ]


def grid_columns(heads: int) -> int:
    """About 1.6 times as many columns as rows (a wide window), preferring a count that
    leaves no empty places in the last row (12 heads: 4 × 3 rather than 5, 5, 2)."""
    target = max(1, min(heads, math.ceil(math.sqrt(heads * 1.6))))
    choices = [c for c in (target - 1, target, target + 1) if 1 <= c <= heads]
    return min(choices, key=lambda c: (-heads % c, abs(c - target), c))


def short_head_title(title: str) -> str:
    """ "head 3 · H̄ 1.23" -> "head 3": what a panel too narrow for the whole title shows
    (a panel's own ``short_title`` first, where it has one)."""
    return title.split(" · ")[0]


def _axis_labels(tokens: list[str], n: int) -> list[str]:
    """The tokens of an axis of n cells: themselves, their blocks when the axis was reduced
    on the worker, or numbers when the tokens belong to other inputs."""
    if len(tokens) == n:
        return tokens
    if len(tokens) > n and -(-len(tokens) // -(-len(tokens) // n)) == n:
        return block_labels(tokens, n)
    return [str(i) for i in range(n)]


def block_labels(tokens: list[str], blocks: int) -> list[str]:
    """Names of the token blocks of a reduced matrix: "first … last" of each block."""
    step = -(-len(tokens) // blocks)
    return [
        f"{tokens[i * step]} … {tokens[min(len(tokens), (i + 1) * step) - 1]} (max)" for i in range(blocks)
    ]


def overview_panels(weights: np.ndarray, tokens_query: list[str], tokens_key: list[str]) -> list[MatrixPanel]:
    """layers × heads thumbnails of the attention weights [layers, heads, n_q, n_k]."""
    n_q, n_k = weights.shape[2:]
    rows, cols = _axis_labels(list(tokens_query), n_q), _axis_labels(list(tokens_key), n_k)
    layers, heads = weights.shape[:2]
    return [
        MatrixPanel(weights[layer, h], rows, cols, kind="weights", role="", name=f"layer {layer} head {h}")
        for layer in range(layers)
        for h in range(heads)
    ]


def compare_panels(pair, head: int, titles: tuple[str, str, str]) -> list[MatrixPanel]:
    """A's weights, B's weights and B − A (diverging, centred at 0) for one head of a
    ``ComparedPair`` (explorer.appstate.display): large ones drawn from its pictures."""
    a, b = pair.a, pair.b
    wa, wb, difference = pair.panel_data(head)
    hidden_a = pair.picture("hidden_a") if pair.pictures else ~a.mask
    hidden_b = pair.picture("hidden_b") if pair.pictures else ~b.mask
    diff_picture = pair.picture("diff", head)
    return [
        MatrixPanel(
            wa,
            a.tokens_query,
            a.tokens_key,
            title=titles[0],
            kind="weights",
            role="qk",
            picture=pair.picture("A", head),
            hidden=hidden_a,
            visible=a.mask,
            name="A",
        ),
        MatrixPanel(
            wb,
            b.tokens_query,
            b.tokens_key,
            title=titles[1],
            kind="weights",
            role="qk",
            picture=pair.picture("B", head),
            hidden=hidden_b,
            visible=b.mask,
            name="B",
        ),
        MatrixPanel(
            difference,
            a.tokens_query,
            a.tokens_key,
            title=titles[2],
            kind="diverging",
            levels=symmetric_levels(difference if diff_picture is None else diff_picture),
            role="qk",
            picture=diff_picture,
            name="diff",
        ),
    ]
