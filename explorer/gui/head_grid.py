"""One stage for every head at once; click a head to select it everywhere."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from explorer.appstate.display import DisplayArrays
from explorer.appstate.state import GRID_STAGES
from explorer.core.trace import AttentionTrace
from explorer.gui.old_heatmap import DIVERGING, SEQUENTIAL, Heatmap, symmetric_levels

STAGE_LABELS = {
    "weights": QtCore.QT_TRANSLATE_NOOP("HeadGrid", "weights (after softmax / hard)"),
    "scores": QtCore.QT_TRANSLATE_NOOP("HeadGrid", "raw scores"),
    "scaled": QtCore.QT_TRANSLATE_NOOP("HeadGrid", "scaled scores"),
    "head_outputs": QtCore.QT_TRANSLATE_NOOP("HeadGrid", "head outputs (weights·V)"),
    "Q": "Q",
    "K": "K",
    "V": "V",
}
SELECTED_COLOR = "#d55e00"


def grid_columns(heads: int) -> int:
    """About 1.6 times as many columns as rows (a wide window), preferring a count that
    leaves no empty places in the last row (12 heads: 4 × 3 rather than 5, 5, 2)."""
    target = max(1, min(heads, math.ceil(math.sqrt(heads * 1.6))))
    choices = [c for c in (target - 1, target, target + 1) if 1 <= c <= heads]
    return min(choices, key=lambda c: (-heads % c, abs(c - target), c))


class HeadGrid(QtWidgets.QWidget):
    headSelected = QtCore.Signal(int)
    cellSelected = QtCore.Signal(int, int)
    stageChanged = QtCore.Signal(str)
    hovered = QtCore.Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QtWidgets.QHBoxLayout()
        self.stage_label = QtWidgets.QLabel("Stage")
        bar.addWidget(self.stage_label)
        self.stage_combo = QtWidgets.QComboBox()
        for name in GRID_STAGES:
            self.stage_combo.addItem(STAGE_LABELS[name], name)
        self.stage_combo.setToolTip("Which stage every head shows (weights by default)")
        self.stage_combo.currentIndexChanged.connect(
            lambda _: self.stageChanged.emit(self.stage_combo.currentData())
        )
        bar.addWidget(self.stage_combo)
        self.hover_label = QtWidgets.QLabel(
            "Click a head to select it; H̄ is the mean entropy of its weight rows."
        )
        bar.addWidget(self.hover_label, 1)
        layout.addLayout(bar)
        self.graphics = pg.GraphicsLayoutWidget()
        layout.addWidget(self.graphics, 1)
        self.maps: list[Heatmap] = []
        self.bar = pg.ColorBarItem(
            values=(0, 1), colorMap=SEQUENTIAL, interactive=False, width=12, colorMapMenu=False
        )
        self.trace: AttentionTrace | None = None
        self.stage = "weights"
        self.head = 0
        self._style = None  # (font px, theme) of presentation mode, for heatmaps built later

    def set_style(self, font_px: int, theme=None) -> None:
        self._style = (font_px, theme)
        if theme is not None:
            self.graphics.setBackground(theme.plot_bg)
            self.bar.axis.setPen(theme.plot_fg)
            self.bar.axis.setTextPen(theme.plot_fg)
        for hm in self.maps:
            hm.set_style(font_px, theme)
        if self.maps:
            self.set_head(self.head)

    def retranslate(self) -> None:
        self.stage_label.setText(self.tr("Stage"))
        for i in range(self.stage_combo.count()):
            name = self.stage_combo.itemData(i)
            self.stage_combo.setItemText(i, self.tr(STAGE_LABELS[name]))
        self.stage_combo.setToolTip(self.tr("Which stage every head shows (weights by default)"))
        self.hover_label.setText(
            self.tr("Click a head to select it; H̄ is the mean entropy of its weight rows.")
        )
        if self.trace is not None:
            self.show_trace(
                self.trace, self.stage, self.head, self.maps[0].selection if self.maps else None, self.display
            )

    def _build(self, heads: int) -> None:
        """Create (only when the head count changes) one heatmap per head plus one colour bar."""
        if len(self.maps) == heads:
            return
        self.graphics.ci.clear()
        self.maps = []
        cols = grid_columns(heads)
        small = heads > 16
        for h in range(heads):
            hm = Heatmap(
                self.graphics.ci,
                h // cols,
                h % cols,
                colorbar=False,
                title_size="7pt" if small else "9pt",
                tick_font_pt=6.5 if small else 7.5,
            )
            if self._style is not None:
                hm.set_style(*self._style)
            hm.selected.connect(lambda i, j, h=h: self._on_selected(h, i, j))
            hm.hovered.connect(lambda text, h=h: self._on_hover(h, text))
            self.maps.append(hm)
        self.bar = pg.ColorBarItem(
            values=(0, 1), colorMap=SEQUENTIAL, interactive=False, width=12, colorMapMenu=False
        )
        self._bar_shown = None
        self.graphics.ci.addItem(self.bar, row=0, col=cols, rowspan=max(1, math.ceil(heads / cols)))
        self.bar.setImageItem([hm.image for hm in self.maps])

    def _on_selected(self, head: int, i: int, j: int) -> None:
        self.headSelected.emit(head)
        if i >= 0 or j >= 0:
            self.cellSelected.emit(i, j)

    def _on_hover(self, head: int, text: str) -> None:
        if text:
            self.hover_label.setText(f"head {head}: {text.split(' — ', 1)[-1]}")
        self.hovered.emit(text)

    def set_stage(self, stage: str) -> None:
        index = self.stage_combo.findData(stage)
        self.stage_combo.blockSignals(True)
        self.stage_combo.setCurrentIndex(index)
        self.stage_combo.blockSignals(False)
        self.stage = stage

    def show_trace(self, trace, stage: str, head: int, cell: tuple[int, int] | None, display=None) -> None:
        for _ in self.show_trace_steps(trace, stage, head, cell, display):
            pass

    def show_trace_steps(self, trace, stage: str, head: int, cell: tuple[int, int] | None, display=None):
        """``show_trace`` one head at a time (yields after each), for painting large traces in
        slices; a later call abandons an earlier one."""
        token = self._drawing = object()
        self.trace = trace
        self.set_stage(stage)
        self._build(trace.heads)
        data = getattr(trace, stage)
        self.display = display = display if display is not None else DisplayArrays()
        picture = display.picture(stage)
        if stage in ("weights", "scores", "scaled"):
            hidden = display.hidden_cells(trace)
        else:
            hidden = None
        if stage == "weights":
            kind, levels = "weights", (0.0, 1.0)
        else:  # one scale for all heads (a reduced copy keeps each block's extreme value)
            kind, levels = "diverging", symmetric_levels(data if picture is None else picture)
        if stage in ("weights", "scores", "scaled"):
            rows, cols, role = trace.tokens_query, trace.tokens_key, "qk"
        elif stage in ("K", "V"):
            rows, cols, role = trace.tokens_key, None, "k"
        else:
            rows, cols, role = trace.tokens_query, None, "q"
        mean_entropy = trace.entropy.mean(axis=1)
        for h, hm in enumerate(self.maps):
            title = f"{self.tr('head')} {h} · H̄ {mean_entropy[h]:.2f}  [{'×'.join(map(str, data[h].shape))}]"
            if title != hm.title:  # styled once, here, as set_head would style it
                self._style_title(hm, h == head, title)
            hm.set_matrix(
                data[h],
                rows,
                cols,
                title=title,
                kind=kind,
                role=role,
                levels=levels,
                hidden=hidden,
                display=None if picture is None else picture[h],
            )
            yield h
            if self._drawing is not token:
                return
        if (kind, levels) != getattr(self, "_bar_shown", None):  # a colour-bar change re-renders
            self.bar.setColorMap(SEQUENTIAL if kind == "weights" else DIVERGING)
            self.bar.setLevels(levels)
            self._bar_shown = (kind, levels)
        self.set_head(head)
        self.set_selection(cell)

    def set_head(self, head: int) -> None:
        self.head = head
        for h, hm in enumerate(self.maps):
            self._style_title(hm, h == head, hm.title)

    @staticmethod
    def _style_title(hm: Heatmap, selected: bool, title: str) -> None:
        """Title and frame of one head, selected or not; untouched when already so styled
        (a title change re-lays out its text, a border change repaints the plot)."""
        key = (title, selected, id(hm._metrics), hm._title_size)
        if getattr(hm, "_head_style", None) == key:
            return
        if selected:
            hm.set_title(title, color=SELECTED_COLOR, bold=True)
        else:
            hm.set_title(title)
        if selected != getattr(hm, "_head_border", None):
            hm.plot.getViewBox().setBorder(pg.mkPen(SELECTED_COLOR, width=3) if selected else None)
            hm._head_border = selected
        hm._head_style = key

    def set_selection(self, cell: tuple[int, int] | None) -> None:
        for hm in self.maps:
            hm.set_selection(cell)
