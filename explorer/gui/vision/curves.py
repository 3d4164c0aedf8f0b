"""Training curves painted with QPainter: the loss per step, the held-out accuracy per evaluation.

Light enough to repaint on every training step (a series longer than the plot is wide is
thinned to one point per pixel column); no pyqtgraph, so the tab costs nothing to import.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.heatmap import Style

PAD = 4


@dataclass
class Series:
    name: str
    xs: np.ndarray
    ys: np.ndarray
    colour: QtGui.QColor
    width: float = 1.5
    dots: bool = False  # mark every point (evaluations are few)


@dataclass
class Curves:
    title: str = ""
    series: list[Series] = field(default_factory=list)
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] | None = None  # None: from the data
    guide: float | None = None  # a dashed horizontal line (the 95 % goal)
    marker: float | None = None  # a vertical line at this x (the snapshot on screen)


def thin(xs: np.ndarray, ys: np.ndarray, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """At most about ``columns`` points: the mean of each run of points that share a column."""
    n = len(xs)
    if n <= max(2, columns):
        return xs, ys
    edges = np.linspace(0, n, max(2, columns) + 1).astype(int)
    keep = edges[:-1] < edges[1:]
    starts, ends = edges[:-1][keep], edges[1:][keep]
    sums = np.add.reduceat(ys, starts)
    return xs[(starts + ends - 1) // 2], sums / (ends - starts)


class CurvePlot(QtWidgets.QWidget):
    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        self.curves = Curves()
        self.style_ = style
        self.setMinimumSize(160, 100)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802
        return QtCore.QSize(360, 200)

    def set_curves(self, curves: Curves) -> None:
        self.curves = curves
        self.update()

    def set_style(self, style: Style) -> None:
        self.style_ = style
        self.update()

    def y_range(self) -> tuple[float, float]:
        c = self.curves
        if c.y_range is not None:
            return c.y_range
        values = [s.ys for s in c.series if len(s.ys)]
        if not values:
            return (0.0, 1.0)
        lo = min(0.0, float(min(v.min() for v in values)))
        hi = float(max(v.max() for v in values))
        return (lo, hi if hi > lo else lo + 1.0)

    def plot_rect(self) -> QtCore.QRectF:
        m = QtGui.QFontMetricsF(self.style_.font)
        axis_w = m.horizontalAdvance("0.00") + 2 * PAD
        top = 1.5 * m.height() + PAD  # the title's line, and half a line for the top value's label
        return QtCore.QRectF(self.rect()).adjusted(axis_w + PAD, top + PAD, -PAD * 2, -(m.height() + 2 * PAD))

    def paintEvent(self, event):  # noqa: N802
        p = QtGui.QPainter(self)
        try:
            self._paint(p)
        finally:
            p.end()

    def _paint(self, p: QtGui.QPainter) -> None:
        style, c = self.style_, self.curves
        m = QtGui.QFontMetricsF(style.font)
        p.fillRect(self.rect(), style.bg)
        p.setFont(style.font)
        plot = self.plot_rect()
        if plot.width() < 10 or plot.height() < 10:
            return
        x0, x1 = c.x_range
        y0, y1 = self.y_range()
        x1 = x1 if x1 > x0 else x0 + 1
        sx, sy = plot.width() / (x1 - x0), plot.height() / (y1 - y0)

        def point(x: float, y: float) -> QtCore.QPointF:
            return QtCore.QPointF(
                plot.left() + (x - x0) * sx, plot.bottom() - (min(max(y, y0), y1) - y0) * sy
            )

        # title: the series' names in their colours
        x = float(PAD)
        p.setPen(style.fg)
        if c.title:
            p.drawText(QtCore.QPointF(x, PAD + m.ascent()), c.title)
            x += m.horizontalAdvance(c.title + "  ")
        for s in c.series:
            p.setPen(s.colour)
            p.drawText(QtCore.QPointF(x, PAD + m.ascent()), "━ " + s.name)
            x += m.horizontalAdvance("━ " + s.name + "  ")
        # axes
        p.setPen(QtGui.QPen(style.frame, 1))
        p.drawRect(plot)
        p.setPen(style.fg)
        for v in (y0, (y0 + y1) / 2, y1):
            y = point(x0, v).y()
            text = f"{v:.2g}"
            p.drawText(
                QtCore.QPointF(plot.left() - PAD - m.horizontalAdvance(text), y + m.ascent() / 2 - 1), text
            )
        for v in (x0, x1):
            text = f"{v:.0f}"
            px = point(v, y0).x()
            w = m.horizontalAdvance(text)
            p.drawText(
                QtCore.QPointF(
                    min(max(px - w / 2, plot.left()), plot.right() - w), plot.bottom() + PAD + m.ascent()
                ),
                text,
            )
        if c.guide is not None and y0 <= c.guide <= y1:
            pen = QtGui.QPen(style.frame, 1, QtCore.Qt.PenStyle.DashLine)
            p.setPen(pen)
            y = point(x0, c.guide).y()
            p.drawLine(QtCore.QLineF(plot.left(), y, plot.right(), y))
        if c.marker is not None and x0 <= c.marker <= x1:
            p.setPen(QtGui.QPen(style.accent, 2))
            x = point(c.marker, y0).x()
            p.drawLine(QtCore.QLineF(x, plot.top(), x, plot.bottom()))
        # the series
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
        p.setClipRect(plot.adjusted(-3, -3, 3, 3))
        for s in c.series:
            if not len(s.xs):
                continue
            xs, ys = thin(np.asarray(s.xs, float), np.asarray(s.ys, float), int(plot.width()))
            p.setPen(QtGui.QPen(s.colour, s.width))
            p.drawPolyline(QtGui.QPolygonF([point(a, b) for a, b in zip(xs, ys)]))
            if s.dots:
                p.setBrush(s.colour)
                for a, b in zip(xs, ys):
                    p.drawEllipse(point(a, b), 2.5, 2.5)
                p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
