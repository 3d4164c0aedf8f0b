"""The model overview: a layers × heads grid of attention-weight thumbnails."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from explorer.gui.old_heatmap import SEQUENTIAL, format_value

SELECTED_COLOR = "#d55e00"


class _Thumb(pg.ImageItem):
    def __init__(self, owner: ModelOverview, layer: int, head: int):
        super().__init__(axisOrder="row-major")
        self._owner, self.layer, self.head = owner, layer, head
        self.setColorMap(SEQUENTIAL)
        self.setAcceptHoverEvents(True)

    def mouseClickEvent(self, ev):  # noqa: N802
        if ev.button() == QtCore.Qt.MouseButton.LeftButton:
            ev.accept()
            self._owner.openRequested.emit(self.layer, self.head)

    def hoverEvent(self, ev):  # noqa: N802
        if ev.isExit() or self.image is None:
            return
        r, c = int(np.floor(ev.pos().y())), int(np.floor(ev.pos().x()))
        self._owner.hover(self.layer, self.head, r, c)


class ModelOverview(QtWidgets.QWidget):
    """Click a thumbnail to open that layer and head in the pipeline."""

    openRequested = QtCore.Signal(int, int)  # layer, head

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.info = QtWidgets.QLabel(
            "Attention weights of every layer and head for the current "
            "sentence. Click one to open it in the pipeline."
        )
        self.info.setWordWrap(True)
        layout.addWidget(self.info)
        self.graphics = pg.GraphicsLayoutWidget()
        layout.addWidget(self.graphics, 1)
        self.thumbs: list[list[_Thumb]] = []
        self.boxes: list[list[pg.ViewBox]] = []
        self.weights: np.ndarray | None = None
        self.tokens: tuple[list[str], list[str]] = ([], [])
        self.selected: tuple[int, int] | None = None
        self._style = None  # (font px, theme) of presentation mode

    def set_style(self, font_px: int, theme=None) -> None:
        self._style = (font_px, theme)
        if theme is not None:
            self.graphics.setBackground(theme.plot_bg)
        self._restyle_labels()

    def _restyle_labels(self) -> None:
        if self._style is None:
            return
        px, theme = self._style
        for item in self.graphics.ci.items:
            if isinstance(item, pg.LabelItem):
                item.setText(item.text, size=f"{px}px", color=theme.plot_fg if theme is not None else None)

    def retranslate(self) -> None:
        if self.weights is None:
            self.info.setText(
                self.tr(
                    "Attention weights of every layer and head for the current "
                    "sentence. Click one to open it in the pipeline."
                )
            )
        else:
            self.thumbs = []  # rebuild the head and layer labels in the new language
            self.show_weights(self.weights, *self.tokens, self._model_name, self.selected or (0, 0))

    def _build(self, layers: int, heads: int) -> None:
        if len(self.thumbs) == layers and (not layers or len(self.thumbs[0]) == heads):
            return
        ci = self.graphics.ci
        ci.clear()
        self.thumbs, self.boxes = [], []
        ci.addLabel("", row=0, col=0)
        for h in range(heads):
            ci.addLabel(self.tr("head {h}").format(h=h), row=0, col=h + 1, size="8pt")
        for layer in range(layers):
            ci.addLabel(self.tr("layer {n}").format(n=layer), row=layer + 1, col=0, size="8pt", angle=-90)
            row_items, row_boxes = [], []
            for h in range(heads):
                vb = ci.addViewBox(
                    row=layer + 1,
                    col=h + 1,
                    lockAspect=False,
                    enableMouse=False,
                    invertY=True,
                    defaultPadding=0.02,
                )
                vb.setMenuEnabled(False)
                thumb = _Thumb(self, layer, h)
                vb.addItem(thumb)
                row_items.append(thumb)
                row_boxes.append(vb)
            self.thumbs.append(row_items)
            self.boxes.append(row_boxes)

    def show_weights(
        self,
        weights: np.ndarray,
        tokens_query: list[str],
        tokens_key: list[str],
        model_name: str | None,
        selected: tuple[int, int],
    ) -> None:
        """weights: [layers, heads, n_q, n_k] from Engine.layer_weights."""
        self.weights, self.tokens = weights, (tokens_query, tokens_key)
        layers, heads = weights.shape[:2]
        self._build(layers, heads)
        for layer in range(layers):
            for h in range(heads):
                self.thumbs[layer][h].setImage(weights[layer, h], levels=(0.0, 1.0), autoLevels=False)
                self.boxes[layer][h].autoRange(padding=0.02)
        self._model_name = model_name
        self._restyle_labels()
        source = model_name or self.tr("these weights")
        self.info.setText(
            self.tr(
                "{source}: attention weights of {layers} layer(s) × {heads} heads for "
                "{nq}×{nk} tokens. Click one to open it in the pipeline."
            ).format(source=source, layers=layers, heads=heads, nq=len(tokens_query), nk=len(tokens_key))
        )
        self.set_selected(*selected)

    def set_selected(self, layer: int, head: int) -> None:
        self.selected = (layer, head)
        for l_, row in enumerate(self.boxes):
            for h, vb in enumerate(row):
                vb.setBorder(
                    pg.mkPen(SELECTED_COLOR, width=3)
                    if (l_, h) == (layer, head)
                    else pg.mkPen("#bbbbbb", width=1)
                )

    def hover(self, layer: int, head: int, r: int, c: int) -> None:
        if self.weights is None:
            return
        q, k = self.tokens
        if 0 <= r < len(q) and 0 <= c < len(k):
            value = format_value(self.weights[layer, head, r, c])
            self.info.setText(
                self.tr("layer {layer}, head {head}").format(layer=layer, head=head)
                + f" — {q[r]}, {k[c]}: {value}"
            )

    def show_message(self, text: str) -> None:
        self.info.setText(text)
