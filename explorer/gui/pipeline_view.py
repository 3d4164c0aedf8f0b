"""The stages of one head, in the order of the lesson, each a labelled heatmap.

Row 1: X, Q, K, V. Row 2: raw scores, scaled scores, mask, weights.
Row 3: head output, concatenation of heads, output after W_O, entropy of every head.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from explorer.core.trace import AttentionTrace
from explorer.gui.heatmap import Heatmap, symmetric_levels

SCORE_FORMULAS = {
    "dot": "scores = Q·Kᵀ",
    "cosine": "scores = cos(Q, K)",
    "additive": "scores = vᵀ·tanh(W₁q + W₂k)",
    "general": "scores = Q·W·Kᵀ",
}
WEIGHT_FORMULAS = {
    "soft": "weights = softmax(masked)",
    "hard": "weights = one-hot argmax(masked)",
    "sample": "weights = one-hot sample of softmax",
}
LAYOUT = (("X", "Q", "K", "V"), ("scores", "scaled", "mask", "weights"),
          ("head_output", "concat", "output", "entropy"))
ROW_HEIGHT = 250
NARROW_PX = 1100  # below this width the pipeline shows two stages a row


def shape_text(a: np.ndarray) -> str:
    return "×".join(str(s) for s in a.shape)


def stage_views(trace: AttentionTrace, head: int) -> dict[str, dict]:
    """For each pipeline stage: the matrix, its axes, title and colouring (all from the trace)."""
    t, h, cfg = trace, head, trace.config
    q_tok, k_tok = t.tokens_query, t.tokens_key
    hidden = ~t.mask
    if cfg.scale == "sqrt":
        scaled_f = f"scaled = scores / √d_k (÷{t.scale_divisor:.4g})"
    elif cfg.scale == "temperature":
        scaled_f = f"scaled = scores / τ (τ={t.scale_divisor:.4g})"
    else:
        scaled_f = "scaled = scores (no scaling)"
    x_title = "X (queries = keys)" if cfg.is_self_attention else "X (query side)"
    views = {
        "X": dict(data=t.X_query, rows=q_tok, cols=None, role="q", f=x_title),
        "Q": dict(data=t.Q[h], rows=q_tok, cols=None, role="q", f=f"Q = X·W_Q  (head {h})"),
        "K": dict(data=t.K[h], rows=k_tok, cols=None, role="k", f=f"K = X_key·W_K  (head {h})"),
        "V": dict(data=t.V[h], rows=k_tok, cols=None, role="k", f=f"V = X_key·W_V  (head {h})"),
        "scores": dict(data=t.scores[h], rows=q_tok, cols=k_tok, role="qk",
                       f=SCORE_FORMULAS.get(cfg.scoring, "scores"), hidden=hidden),
        "scaled": dict(data=t.scaled[h], rows=q_tok, cols=k_tok, role="qk", f=scaled_f, hidden=hidden),
        "mask": dict(data=t.mask.astype(np.float32), rows=q_tok, cols=k_tok, role="qk", kind="mask",
                     f=f"mask: {cfg.mask} (1 = visible)", hidden=hidden),
        "weights": dict(data=t.weights[h], rows=q_tok, cols=k_tok, role="qk", kind="weights",
                        f=WEIGHT_FORMULAS.get(cfg.attention, "weights"), hidden=hidden),
        "head_output": dict(data=t.head_outputs[h], rows=q_tok, cols=None, role="q",
                            f=f"head {h} = weights·V"),
        "concat": dict(data=t.concat, rows=q_tok, cols=None, role="q",
                       f=f"concat = [head 0 … head {t.heads - 1}]"),
        "output": dict(data=t.output, rows=q_tok, cols=None, role="q", f="output = concat·W_O"),
        "entropy": dict(data=t.entropy, rows=[f"head {i}" for i in range(t.heads)], cols=q_tok,
                        role="hq", kind="weights", f="entropy of each weight row (nats)",
                        levels=(0.0, max(float(np.log(max(t.n_key, 2))), 1e-6))),
    }
    for name, v in views.items():
        v["title"] = f"{v['f']}  [{shape_text(v['data'])}]"
    # Scores before and after scaling share one scale per stage, so the colours compare.
    return views


class PipelineView(QtWidgets.QWidget):
    """Every stage of the selected head; emits (i, j) on a click and head on entropy clicks."""

    cellSelected = QtCore.Signal(int, int)
    headSelected = QtCore.Signal(int)
    hovered = QtCore.Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QtWidgets.QHBoxLayout()
        self.head_label = QtWidgets.QLabel("Head")
        self.head_spin = QtWidgets.QSpinBox()
        self.head_spin.setToolTip("The head whose stages are shown (keys 1-9 pick heads 0-8)")
        self.values_box = QtWidgets.QCheckBox("Values on cells")
        self.values_box.setToolTip("Write each cell's value on it when the cells are large enough")
        self.hover_label = QtWidgets.QLabel("Point at a cell to read its exact value; click to select it.")
        self.hover_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        bar.addWidget(self.head_label)
        bar.addWidget(self.head_spin)
        bar.addWidget(self.values_box)
        bar.addWidget(self.hover_label, 1)
        layout.addLayout(bar)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setMinimumHeight(ROW_HEIGHT * len(LAYOUT))
        scroll = QtWidgets.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.graphics)
        scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.scroll = scroll
        layout.addWidget(scroll, 1)
        self.maps: dict[str, Heatmap] = {}
        self.columns = 4
        for r, names in enumerate(LAYOUT):
            for c, name in enumerate(names):
                hm = Heatmap(self.graphics.ci, r, c)
                hm.selected.connect(self._on_selected)
                hm.hovered.connect(self._on_hover)
                if name == "entropy":
                    hm.clicked.connect(lambda r_, c_: self.headSelected.emit(r_))
                self.maps[name] = hm
        self.values_box.toggled.connect(self._on_values)
        self.head_spin.valueChanged.connect(self._on_head_spin)
        self.trace: AttentionTrace | None = None
        self.head = 0

    def resizeEvent(self, event):  # noqa: N802
        super().resizeEvent(event)
        self._reflow(4 if event.size().width() >= NARROW_PX else 2)

    def _reflow(self, columns: int) -> None:
        """Four stages a row on wide windows, two on narrow ones (scroll for the rest)."""
        if columns == self.columns:
            return
        self.columns = columns
        ci = self.graphics.ci
        order = [name for names in LAYOUT for name in names]
        for name in order:
            ci.removeItem(self.maps[name].plot)
        for k, name in enumerate(order):
            ci.addItem(self.maps[name].plot, row=k // columns, col=k % columns)
        self.graphics.setMinimumHeight(ROW_HEIGHT * ((len(order) + columns - 1) // columns))

    def _on_selected(self, i: int, j: int) -> None:
        self.cellSelected.emit(i, j)

    def _on_hover(self, text: str) -> None:
        if text:
            self.hover_label.setText(text)
        self.hovered.emit(text)

    def _on_values(self, show: bool) -> None:
        for hm in self.maps.values():
            hm.set_show_values(show)

    def _on_head_spin(self, value: int) -> None:
        if self.trace is not None and value != self.head:
            self.headSelected.emit(value)

    def show_trace(self, trace: AttentionTrace, head: int, cell: tuple[int, int] | None) -> None:
        self.trace, self.head = trace, min(head, trace.heads - 1)
        self.head_spin.blockSignals(True)
        self.head_spin.setRange(0, trace.heads - 1)
        self.head_spin.setValue(self.head)
        self.head_spin.blockSignals(False)
        self.head_label.setText(f"Head (of {trace.heads})")
        views = stage_views(trace, self.head)
        score_levels = symmetric_levels(views["scores"]["data"])
        scaled_levels = symmetric_levels(views["scaled"]["data"])
        for name, v in views.items():
            levels = v.get("levels")
            if name == "scores":
                levels = score_levels
            elif name == "scaled":
                levels = scaled_levels
            self.maps[name].set_matrix(v["data"], v["rows"], v["cols"], title=v["title"],
                                       kind=v.get("kind", "diverging"), role=v["role"],
                                       levels=levels, hidden=v.get("hidden"))
        self.set_selection(cell, head)

    def set_selection(self, cell: tuple[int, int] | None, head: int | None = None) -> None:
        for name, hm in self.maps.items():
            if name == "entropy":
                hm.set_selection(None if cell is None else (cell[0], -1))
                continue
            hm.set_selection(cell)
