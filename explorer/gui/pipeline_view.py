"""The stages of one head, in the order of the lesson, each a labelled heatmap.

Row 1: X, Q, K, V. Row 2: raw scores, scaled scores, mask, weights.
Row 3: head output, concatenation of heads, output after W_O, entropy of every head.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from explorer.appstate.display import DisplayArrays
from explorer.core.trace import AttentionTrace
from explorer.gui.old_heatmap import Heatmap, symmetric_levels

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
LAYOUT = (
    ("X", "Q", "K", "V"),
    ("scores", "scaled", "mask", "weights"),
    ("head_output", "concat", "output", "entropy"),
)
ROW_HEIGHT = 250
# The panels each lesson step (explorer/lesson.py STEPS) highlights and zooms into.
STAGE_PANELS = {
    "tokens": ("X",),
    "X": ("X",),
    "Q": ("Q", "K", "V"),
    "heads": ("Q", "K", "V"),
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
NARROW_PX = 1100  # below this width the pipeline shows two stages a row


def shape_text(a: np.ndarray) -> str:
    return "×".join(str(s) for s in a.shape)


def stage_views(trace: AttentionTrace, head: int, display: DisplayArrays) -> dict[str, dict]:
    """For each pipeline stage: the matrix, its axes, title and colouring (all from the trace)."""
    t, h, cfg = trace, head, trace.config
    q_tok, k_tok = t.tokens_query, t.tokens_key
    hidden = display.hidden_cells(t)
    if cfg.scale == "sqrt":
        scaled_f = f"scaled = scores / √d_k (÷{t.scale_divisor:.4g})"
    elif cfg.scale == "temperature":
        scaled_f = f"scaled = scores / τ (τ={t.scale_divisor:.4g})"
    else:
        scaled_f = QtCore.QCoreApplication.translate("PipelineView", "scaled = scores (no scaling)")
    x_title = (
        QtCore.QCoreApplication.translate("PipelineView", "X (queries = keys)")
        if cfg.is_self_attention
        else QtCore.QCoreApplication.translate("PipelineView", "X (query side)")
    )
    head_word = QtCore.QCoreApplication.translate("PipelineView", "head")
    views = {
        "X": dict(data=t.X_query, rows=q_tok, cols=None, role="q", f=x_title),
        "Q": dict(data=t.Q[h], rows=q_tok, cols=None, role="q", f=f"Q = X·W_Q  ({head_word} {h})"),
        "K": dict(data=t.K[h], rows=k_tok, cols=None, role="k", f=f"K = X_key·W_K  ({head_word} {h})"),
        "V": dict(data=t.V[h], rows=k_tok, cols=None, role="k", f=f"V = X_key·W_V  ({head_word} {h})"),
        "scores": dict(
            data=t.scores[h],
            rows=q_tok,
            cols=k_tok,
            role="qk",
            f=SCORE_FORMULAS.get(cfg.scoring, "scores"),
            hidden=hidden,
        ),
        "scaled": dict(data=t.scaled[h], rows=q_tok, cols=k_tok, role="qk", f=scaled_f, hidden=hidden),
        "mask": dict(
            data=t.mask,
            rows=q_tok,
            cols=k_tok,
            role="qk",
            kind="mask",
            f=QtCore.QCoreApplication.translate("PipelineView", "mask: {mask} (1 = visible)").format(
                mask=cfg.mask
            ),
            hidden=hidden,
        ),
        "weights": dict(
            data=t.weights[h],
            rows=q_tok,
            cols=k_tok,
            role="qk",
            kind="weights",
            f=WEIGHT_FORMULAS.get(cfg.attention, "weights"),
            hidden=hidden,
        ),
        "head_output": dict(
            data=t.head_outputs[h], rows=q_tok, cols=None, role="q", f=f"{head_word} {h} = weights·V"
        ),
        "concat": dict(
            data=t.concat, rows=q_tok, cols=None, role="q", f=f"concat = [head 0 … head {t.heads - 1}]"
        ),
        "output": dict(data=t.output, rows=q_tok, cols=None, role="q", f="output = concat·W_O"),
        "entropy": dict(
            data=t.entropy,
            rows=[f"{head_word} {i}" for i in range(t.heads)],
            cols=q_tok,
            role="hq",
            kind="weights",
            f=QtCore.QCoreApplication.translate("PipelineView", "entropy of each weight row (nats)"),
            levels=(0.0, max(float(np.log(max(t.n_key, 2))), 1e-6)),
        ),
    }
    for _name, v in views.items():
        v["title"] = f"{v['f']}  [{shape_text(v['data'])}]"
    # Scores before and after scaling share one scale per stage, so the colours compare.
    return views


# Pipeline panel -> (trace stage, indexed by head) for the reduced copies in trace.display.
DISPLAY_STAGES = {
    "X": ("X_query", False),
    "Q": ("Q", True),
    "K": ("K", True),
    "V": ("V", True),
    "scores": ("scores", True),
    "scaled": ("scaled", True),
    "mask": ("mask", False),
    "weights": ("weights", True),
    "head_output": ("head_outputs", True),
    "concat": ("concat", False),
    "output": ("output", False),
}


def display_for(display: DisplayArrays, head: int) -> dict[str, np.ndarray]:
    """The reduced picture of each large panel of one head (empty for small traces)."""
    out = {}
    for panel, (stage, _per_head) in DISPLAY_STAGES.items():
        picture = display.picture(stage, head)
        if picture is not None:
            out[panel] = picture
    return out


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
        # classroom: highlighted panels (the lesson step), zoom into some panels, row height
        self.zoom: tuple[str, ...] | None = None
        self.highlighted: tuple[str, ...] = ()
        self.accent = "#d55e00"
        self.row_height = ROW_HEIGHT
        self._wide_columns = 4
        self.graphics.viewport().installEventFilter(self)  # double-click: zoom into a stage

    zoomChanged = QtCore.Signal(object)  # the zoomed panel names, or None for every stage

    def resizeEvent(self, event):  # noqa: N802
        super().resizeEvent(event)
        self._reflow(4 if event.size().width() >= NARROW_PX else 2)

    def _reflow(self, columns: int, force: bool = False) -> None:
        """Four stages a row on wide windows, two on narrow ones (scroll for the rest).

        When zoomed, only the zoomed panels are laid out, side by side, filling the view."""
        columns = min(columns, self._wide_columns)
        if columns == self.columns and not force:
            return
        self.columns = columns
        ci = self.graphics.ci
        order = [name for names in LAYOUT for name in names]
        for name in order:
            if self.maps[name].plot.scene() is not None:
                ci.removeItem(self.maps[name].plot)
        if self.zoom:
            for k, name in enumerate(self.zoom):
                ci.addItem(self.maps[name].plot, row=0, col=k)
            self.graphics.setMinimumHeight(min(self.row_height, 200))
            return
        for k, name in enumerate(order):
            ci.addItem(self.maps[name].plot, row=k // columns, col=k % columns)
        self.graphics.setMinimumHeight(self.row_height * ((len(order) + columns - 1) // columns))

    # -- classroom: style, highlight, zoom --------------------------------------------
    def set_style(
        self, font_px: int, theme=None, row_height: int | None = None, wide_columns: int = 4
    ) -> None:
        """Fonts of every panel in pixels, plot colours from a theme, taller rows for a projector."""
        if theme is not None:
            self.graphics.setBackground(theme.plot_bg)
            self.accent = theme.accent
        for hm in self.maps.values():
            hm.set_style(font_px, theme)
        self.row_height = row_height or ROW_HEIGHT
        self._wide_columns = wide_columns
        self._reflow(4 if self.width() >= NARROW_PX else 2, force=True)
        self._apply_highlight()

    def set_highlight(self, names) -> None:
        """Frame and colour the titles of these panels (the lesson's current stage)."""
        self.highlighted = tuple(names or ())
        self._apply_highlight()
        if self.highlighted and not self.zoom:
            QtCore.QTimer.singleShot(0, self.scroll_to_highlight)

    def _apply_highlight(self) -> None:
        for name, hm in self.maps.items():
            on = name in self.highlighted
            hm.plot.getViewBox().setBorder(pg.mkPen(self.accent, width=4) if on else None)
            hm.set_title(hm.title, color=self.accent if on else None, bold=on)

    def scroll_to_highlight(self) -> None:
        plots = [self.maps[n].plot for n in self.highlighted if self.maps[n].plot.scene() is not None]
        if not plots:
            return
        rect = plots[0].sceneBoundingRect()
        for plot in plots[1:]:
            rect = rect.united(plot.sceneBoundingRect())
        top = self.graphics.mapFromScene(rect.topLeft())
        bottom = self.graphics.mapFromScene(rect.bottomRight())
        bar = self.scroll.verticalScrollBar()
        if top.y() < bar.value() or bottom.y() > bar.value() + self.scroll.viewport().height():
            bar.setValue(max(0, top.y() - 4))

    def set_zoom(self, names) -> None:
        """Show only these panels, large (None: every stage)."""
        zoom = tuple(n for n in (names or ()) if n in self.maps) or None
        if zoom == self.zoom:
            return
        self.zoom = zoom
        self._reflow(self.columns, force=True)
        self.zoomChanged.emit(self.zoom)

    def panel_at(self, scene_pos) -> str | None:
        for name, hm in self.maps.items():
            if hm.plot.scene() is not None and hm.plot.sceneBoundingRect().contains(scene_pos):
                return name
        return None

    def eventFilter(self, obj, event):  # noqa: N802
        if (
            event.type() == QtCore.QEvent.Type.MouseButtonDblClick
            and event.button() == QtCore.Qt.MouseButton.LeftButton
        ):
            if self.zoom:
                self.set_zoom(None)
            else:
                name = self.panel_at(self.graphics.mapToScene(event.position().toPoint()))
                if name is not None:
                    self.set_zoom((name,))
        return False

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

    def show_trace(
        self, trace: AttentionTrace, head: int, cell: tuple[int, int] | None, display=None
    ) -> None:
        for _ in self.show_trace_steps(trace, head, cell, display):
            pass

    def show_trace_steps(self, trace: AttentionTrace, head: int, cell: tuple[int, int] | None, display=None):
        """``show_trace`` one panel at a time: yields after each panel, so that the window can
        paint a large trace in slices without blocking. A later call abandons an earlier one."""
        token = self._drawing = object()
        self.trace, self.head = trace, min(head, trace.heads - 1)
        self.head_spin.blockSignals(True)
        self.head_spin.setRange(0, trace.heads - 1)
        self.head_spin.setValue(self.head)
        self.head_spin.blockSignals(False)
        self.head_label.setText(self.tr("Head (of {n})").format(n=trace.heads))
        self.display = display = display if display is not None else DisplayArrays()
        views = stage_views(trace, self.head, display)
        reduced = display_for(display, self.head)
        for name, v in views.items():
            levels = v.get("levels")
            if name in ("scores", "scaled"):
                levels = symmetric_levels(reduced.get(name, v["data"]))
            self.maps[name].set_matrix(
                v["data"],
                v["rows"],
                v["cols"],
                title=v["title"],
                kind=v.get("kind", "diverging"),
                role=v["role"],
                levels=levels,
                hidden=v.get("hidden"),
                display=reduced.get(name),
            )
            yield name
            if self._drawing is not token:
                return
        self.set_selection(cell, head)
        if self.highlighted:
            self._apply_highlight()  # a new title drops the highlight colour

    def retranslate(self) -> None:
        self.head_label.setText(
            self.tr("Head (of {n})").format(n=self.trace.heads) if self.trace is not None else self.tr("Head")
        )
        self.head_spin.setToolTip(self.tr("The head whose stages are shown (keys 1-9 pick heads 0-8)"))
        self.values_box.setText(self.tr("Values on cells"))
        self.values_box.setToolTip(self.tr("Write each cell's value on it when the cells are large enough"))
        self.hover_label.setText(self.tr("Point at a cell to read its exact value; click to select it."))
        if self.trace is not None:  # the panel titles
            self.show_trace(self.trace, self.head, self.maps["weights"].selection, self.display)

    def set_selection(self, cell: tuple[int, int] | None, head: int | None = None) -> None:
        for name, hm in self.maps.items():
            if name == "entropy":
                hm.set_selection(None if cell is None else (cell[0], -1))
                continue
            hm.set_selection(cell)
