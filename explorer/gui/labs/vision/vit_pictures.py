"""The Vision Transformer tab's pictures, painted with QPainter from numbers the tab was given.

- ``PatchMap``: a picture with one number per patch laid over it as a spotlight (the patches
  with little weight darkened, so the picture's own colours stay readable: a head's weights,
  the CLS token's, the rollout, a photo patch's matches), or the numbers alone as a colour grid
  (a position embedding's similarities); the chosen patch framed; a click says which patch
  (``patchClicked``).
- ``HeadBars``: a number per layer and head as bars, a dashed reference line across (the mean
  distance of an evenly spread head).

They keep no state of the tab's: ``show(...)`` hands them what to paint.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

MAP_COLOUR = QtGui.QColor("#D55E00")  # vermilion: seen over red, blue and grey pictures
MODEL_COLOURS = {"cnn": QtGui.QColor("#0072B2"), "vit": QtGui.QColor("#D55E00")}
MIN_MAP_PX = 150


def bar_label(value: float) -> str:
    """Three significant digits (0.0154, 16.2): a label never rounds to the other side of a line."""
    if not math.isfinite(value):
        return "-"
    return f"{value:#.3g}".rstrip(".")


def _font(widget: QtWidgets.QWidget, scale: float = 1.0) -> QtGui.QFont:
    font = QtGui.QFont(widget.font())
    font.setPixelSize(max(9, round(QtGui.QFontInfo(widget.font()).pixelSize() * scale)))
    return font


class PatchMap(QtWidgets.QWidget):
    patchClicked = QtCore.Signal(int)  # reading order on the grid

    def __init__(self, parent=None):
        super().__init__(parent)
        self.image: np.ndarray | None = None  # [H, W, 3] in [0, 1]
        self.values: np.ndarray | None = None  # [g, g]
        self.selected: int | None = None
        self.caption = ""
        self.setMinimumSize(MIN_MAP_PX, MIN_MAP_PX + 24)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)
        self.setCursor(QtCore.Qt.CursorShape.PointingHandCursor)

    def show_map(self, image, values, selected: int | None, caption: str) -> None:
        self.image = None if image is None else np.asarray(image, dtype=np.float32)
        self.values = None if values is None else np.asarray(values, dtype=np.float64)
        self.selected, self.caption = selected, caption
        self.setToolTip(caption)
        self.update()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return width + self._caption_px()

    def _caption_px(self) -> int:
        return QtGui.QFontMetrics(_font(self)).height() * 2 + 4

    def _square(self) -> QtCore.QRect:
        side = max(10, min(self.width(), self.height() - self._caption_px()))
        return QtCore.QRect((self.width() - side) // 2, 0, side, side)

    def grid(self) -> int:
        return 0 if self.values is None else self.values.shape[0]

    def patch_at(self, point: QtCore.QPointF) -> int | None:
        g, square = self.grid(), self._square()
        if not g or not square.contains(point.toPoint()):
            return None
        col = min(g - 1, int((point.x() - square.left()) * g / square.width()))
        row = min(g - 1, int((point.y() - square.top()) * g / square.height()))
        return row * g + col

    def mousePressEvent(self, event):
        patch = self.patch_at(event.position())
        if patch is not None:
            self.patchClicked.emit(patch)

    def paintEvent(self, _event):
        p = QtGui.QPainter(self)
        square = self._square()
        p.fillRect(square, QtGui.QColor("#808080"))
        if self.image is not None:
            pixels = np.ascontiguousarray((np.clip(self.image, 0, 1) * 255).astype(np.uint8))
            h, w, _ = pixels.shape
            picture = QtGui.QImage(pixels.data, w, h, 3 * w, QtGui.QImage.Format.Format_RGB888)
            p.drawImage(square, picture)  # nearest: a pixel stays a pixel
        g = self.grid()
        if g:
            values = self.values
            top = float(np.nanmax(values)) if np.isfinite(values).any() else 0.0
            cell = square.width() / g
            for r in range(g):
                for c in range(g):
                    v = values[r, c]
                    share = 0.0 if top <= 0 or not math.isfinite(v) else max(0.0, v / top)
                    if self.image is not None:  # a spotlight: what gets little weight goes dark
                        colour = QtGui.QColor(0, 0, 0)
                        colour.setAlphaF(0.85 * (1 - share) ** 0.7)
                    else:
                        colour = QtGui.QColor(MAP_COLOUR)
                        colour.setAlphaF(0.1 + 0.9 * share)
                    p.fillRect(
                        QtCore.QRectF(square.left() + c * cell, square.top() + r * cell, cell, cell), colour
                    )
            if self.selected is not None:
                r, c = divmod(self.selected, g)
                pen = QtGui.QPen(QtGui.QColor("#ffffff"), 3)
                p.setPen(pen)
                box = QtCore.QRectF(square.left() + c * cell, square.top() + r * cell, cell, cell)
                p.drawRect(box)
                p.setPen(QtGui.QPen(QtGui.QColor("#000000"), 1))
                p.drawRect(box.adjusted(-2, -2, 2, 2))
        p.setPen(self.palette().color(QtGui.QPalette.ColorRole.WindowText))
        p.setFont(_font(self))
        text = QtCore.QRect(0, square.bottom() + 4, self.width(), self._caption_px())
        p.drawText(text, QtCore.Qt.AlignmentFlag.AlignHCenter | QtCore.Qt.TextFlag.TextWordWrap, self.caption)
        p.end()


class HeadBars(QtWidgets.QWidget):
    """Bars per layer and head; ``reference`` is a dashed line across with its own label."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.values = np.zeros((0, 0))
        self.reference: float | None = None
        self.title = self.reference_label = self.layer_word = ""
        self.top: float | None = None
        self.digits = 1
        self.setMinimumSize(260, 300)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Preferred)

    def show_bars(
        self,
        values: np.ndarray,
        title: str,
        layer_word: str,
        reference: float | None = None,
        reference_label: str = "",
        top: float | None = None,
        digits: int = 1,
    ) -> None:
        self.values = np.asarray(values, dtype=np.float64)
        self.title, self.layer_word = title, layer_word
        self.reference, self.reference_label, self.top, self.digits = reference, reference_label, top, digits
        self.update()

    def _geometry(self) -> tuple[QtCore.QRectF, float, int]:
        """The bars' area, the top of the scale, a line's height."""
        line = QtGui.QFontMetrics(_font(self)).height()
        area = QtCore.QRectF(8, line * 5, self.width() - 16, self.height() - line * 7 - 8)
        finite = self.values[np.isfinite(self.values)] if self.values.size else np.zeros(0)
        top = self.top or max([*finite.tolist(), self.reference or 0.0, 1e-9]) * 1.15
        return area, top, line

    def reference_y(self) -> float | None:
        if self.reference is None:
            return None
        area, top, _ = self._geometry()
        return area.bottom() - area.height() * min(1.0, self.reference / top)

    def labels(self) -> list[tuple[str, QtCore.QRectF, QtCore.QRectF, float]]:
        """(text, where it is written, the bar, the value) per bar: 3 significant digits, so no
        label rounds across the dashed line; a label the dashed line would cross sits inside its bar
        (or just above the line where the bar is too short)."""
        layers, heads = self.values.shape if self.values.ndim == 2 else (0, 0)
        if not layers:
            return []
        area, top, line = self._geometry()
        ref_y = self.reference_y()
        group = area.width() / layers
        bar = group / (heads + 1)
        out = []
        for layer in range(layers):
            left = area.left() + layer * group + bar / 2
            for head in range(heads):
                v = float(self.values[layer, head])
                height = 0.0 if not math.isfinite(v) else area.height() * min(1.0, v / top)
                box = QtCore.QRectF(left + head * bar, area.bottom() - height, bar * 0.8, height)
                where = QtCore.QRectF(box.left() - 6, box.top() - line, box.width() + 12, line)
                if ref_y is not None and where.top() - 2 <= ref_y <= where.bottom() + 2:
                    if box.height() >= 2 * line + 8:  # inside the bar, under the line
                        where.moveTop(max(box.top(), ref_y) + 3)
                    else:
                        where.moveBottom(ref_y - 3)
                out.append((bar_label(v), where, box, v))
        return out

    def paintEvent(self, _event):
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        fg = self.palette().color(QtGui.QPalette.ColorRole.WindowText)
        font = _font(self)
        p.setFont(font)
        line = QtGui.QFontMetrics(font).height()
        p.setPen(fg)
        wrap = QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.TextFlag.TextWordWrap
        p.drawText(QtCore.QRect(0, 0, self.width(), 2 * line), wrap, self.title)
        layers, heads = self.values.shape if self.values.ndim == 2 else (0, 0)
        if not layers:
            p.end()
            return
        area, top, line = self._geometry()
        group = area.width() / layers
        for i, (text, where, box, _v) in enumerate(self.labels()):
            layer, head = divmod(i, heads)
            colour = QtGui.QColor(MODEL_COLOURS["vit"])
            colour.setAlphaF(0.45 + 0.55 * (head + 1) / heads)
            p.fillRect(box, colour)
            p.setPen(QtGui.QColor("#ffffff") if box.contains(where.center()) else fg)
            p.drawText(where, QtCore.Qt.AlignmentFlag.AlignHCenter, text)
            p.setPen(fg)
            p.drawText(
                QtCore.QRectF(box.left() - 6, area.bottom() + 2, box.width() + 12, line),
                QtCore.Qt.AlignmentFlag.AlignHCenter,
                f"h{head + 1}",
            )
        for layer in range(layers):
            p.drawText(
                QtCore.QRectF(area.left() + layer * group, area.bottom() + line + 2, group, line),
                QtCore.Qt.AlignmentFlag.AlignHCenter,
                f"{self.layer_word} {layer + 1}",
            )
        if self.reference is not None:
            y = area.bottom() - area.height() * min(1.0, self.reference / top)
            pen = QtGui.QPen(fg, 1.5, QtCore.Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.drawLine(QtCore.QPointF(area.left(), y), QtCore.QPointF(area.right(), y))
            p.drawText(
                QtCore.QRectF(area.left(), 2 * line, area.width(), 2 * line), wrap, self.reference_label
            )
        p.end()
