"""A training curve drawn with QPainter: a title, two axes with round ticks, one line.

The lean drawing path of the heatmaps, for the two curves of the Translation tab's training
page (loss, held-out exact match). A repaint is a polyline and a dozen short texts, well under
a millisecond, so the window stays responsive while a model trains beside it; the tick
positions are plain functions, so tests check numbers.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

PAD = 6
TICK = 4


def nice_ticks(lo: float, hi: float, most: int = 5) -> list[float]:
    """Round values (1, 2, 2.5 or 5 × 10ⁿ apart) covering [lo, hi], at most ``most`` of them."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    value = first
    while value <= hi + 1e-9 * step:
        ticks.append(round(value, 12))
        value += step
    return ticks


def tick_text(value: float) -> str:
    return f"{value:g}"


class CurvePlot(QtWidgets.QWidget):
    """One curve: x (steps) against y, with an optional dashed goal line and fixed y range."""

    def __init__(
        self, colour: str, points: bool = False, y_range: tuple[float, float] | None = None, parent=None
    ):
        super().__init__(parent)
        self.colour = QtGui.QColor(colour)
        self.points = points
        self.y_range = y_range
        self.goal: float | None = None
        self.x_max = 1.0  # the axis reaches at least this far (the run's last step): the curve grows across
        self.title = ""
        self.x_label = ""
        self.x = np.zeros(0)
        self.y = np.zeros(0)
        self._fg, self._bg, self._grid = (
            QtGui.QColor("#000000"),
            QtGui.QColor("#ffffff"),
            QtGui.QColor("#d0d0d0"),
        )
        self._font_px = 11
        self.setMinimumSize(160, 110)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)

    def set_data(self, x, y) -> None:
        self.x, self.y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        self.update()

    def set_style(self, font_px: int, fg: str, bg: str, grid: str) -> None:
        self._font_px = font_px
        self._fg, self._bg, self._grid = QtGui.QColor(fg), QtGui.QColor(bg), QtGui.QColor(grid)
        self.update()

    def set_texts(self, title: str, x_label: str) -> None:
        self.title, self.x_label = title, x_label
        self.update()

    # -- geometry ------------------------------------------------------------------------------------
    def ranges(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """(x range, y range) drawn: the data's (from step 0), or the fixed y range."""
        finite = np.isfinite(self.y)
        x_hi = float(self.x.max()) if self.x.size else 1.0
        x = (0.0, max(x_hi, self.x_max, 1.0))
        if self.y_range is not None:
            return x, self.y_range
        if not finite.any():
            return x, (0.0, 1.0)
        lo, hi = float(self.y[finite].min()), float(self.y[finite].max())
        if hi - lo < 1e-9:
            lo, hi = lo - 0.5, hi + 0.5
        return x, (min(0.0, lo), hi * 1.05)

    def _font(self) -> QtGui.QFont:
        font = QtGui.QFont(self.font())
        font.setPixelSize(self._font_px)
        return font

    def plot_rect(self, width: float, height: float) -> QtCore.QRectF:
        metrics = QtGui.QFontMetricsF(self._font())
        (_, _), (y_lo, y_hi) = self.ranges()
        widest = max((metrics.horizontalAdvance(tick_text(v)) for v in nice_ticks(y_lo, y_hi)), default=10.0)
        left = PAD + widest + TICK + 2
        top = PAD + metrics.height() + 2
        bottom = height - PAD - 2 * metrics.height() - TICK
        return QtCore.QRectF(left, top, max(10.0, width - left - PAD * 2), max(10.0, bottom - top))

    # -- painting ----------------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QtGui.QPainter(self)
        self.paint_into(painter, self.width(), self.height())
        painter.end()

    def paint_into(self, painter: QtGui.QPainter, width: float, height: float) -> None:
        painter.fillRect(QtCore.QRectF(0, 0, width, height), self._bg)
        font = self._font()
        painter.setFont(font)
        metrics = QtGui.QFontMetricsF(font)
        plot = self.plot_rect(width, height)
        (x_lo, x_hi), (y_lo, y_hi) = self.ranges()

        def px(x: np.ndarray) -> np.ndarray:
            return plot.left() + (x - x_lo) / (x_hi - x_lo) * plot.width()

        def py(y: np.ndarray) -> np.ndarray:
            return plot.bottom() - (y - y_lo) / (y_hi - y_lo) * plot.height()

        painter.setPen(self._fg)
        title = metrics.elidedText(self.title, QtCore.Qt.TextElideMode.ElideRight, width - 2 * PAD)
        painter.drawText(
            QtCore.QPointF((width - metrics.horizontalAdvance(title)) / 2, PAD + metrics.ascent()), title
        )
        for v in nice_ticks(y_lo, y_hi):
            y = float(py(np.float64(v)))
            painter.setPen(self._grid)
            painter.drawLine(QtCore.QLineF(plot.left(), y, plot.right(), y))
            painter.setPen(self._fg)
            text = tick_text(v)
            painter.drawText(
                QtCore.QPointF(
                    plot.left() - TICK - 2 - metrics.horizontalAdvance(text), y + metrics.ascent() / 2 - 1
                ),
                text,
            )
        spacing = metrics.horizontalAdvance("00000") + PAD
        for v in nice_ticks(x_lo, x_hi, max(2, int(plot.width() // spacing))):
            x = float(px(np.float64(v)))
            painter.setPen(self._grid)
            painter.drawLine(QtCore.QLineF(x, plot.top(), x, plot.bottom()))
            painter.setPen(self._fg)
            text = tick_text(v)
            painter.drawText(
                QtCore.QPointF(
                    x - metrics.horizontalAdvance(text) / 2, plot.bottom() + TICK + metrics.ascent()
                ),
                text,
            )
        label = metrics.elidedText(self.x_label, QtCore.Qt.TextElideMode.ElideRight, plot.width())
        painter.drawText(
            QtCore.QPointF(
                plot.center().x() - metrics.horizontalAdvance(label) / 2,
                plot.bottom() + TICK + metrics.height() + metrics.ascent(),
            ),
            label,
        )
        painter.setPen(QtGui.QPen(self._fg, 1))
        painter.drawRect(plot)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        if self.goal is not None and y_lo <= self.goal <= y_hi:
            y = float(py(np.float64(self.goal)))
            painter.setPen(QtGui.QPen(QtGui.QColor("#D55E00"), 1.5, QtCore.Qt.PenStyle.DashLine))
            painter.drawLine(QtCore.QLineF(plot.left(), y, plot.right(), y))
        keep = np.isfinite(self.y)
        if keep.any():
            xs, ys = px(self.x[keep]), py(np.clip(self.y[keep], y_lo, y_hi))
            painter.setPen(QtGui.QPen(self.colour, 2))
            painter.drawPolyline(QtGui.QPolygonF([QtCore.QPointF(a, b) for a, b in zip(xs, ys)]))
            if self.points:
                painter.setBrush(self.colour)
                for a, b in zip(xs, ys):
                    painter.drawEllipse(QtCore.QPointF(a, b), 3, 3)
