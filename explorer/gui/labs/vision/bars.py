"""A bar chart painted with QPainter: one bar per class or per channel, hover and click on a bar.

``Bars`` is the data (values in drawing order, their labels, what a click on each means);
``BarChart`` is the widget. Horizontal charts (a row per bar) suit a few labelled bars, such
as the probabilities of the eight classes; vertical charts (a column per bar) suit many, such
as 32 channel weights sorted from the largest, where only the marked bars are labelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.heatmap import Style

BAR = QtGui.QColor("#7f7f7f")  # an ordinary bar
PAD = 4
LABEL_LINES = 2  # a vertical chart with chosen labels staggers them on two lines


def percent(value: float) -> str:
    return f"{100 * value:.1f} %"


def decimals(value: float) -> str:
    return f"{value:.3f}"


@dataclass
class Bars:
    values: np.ndarray  # [n], in drawing order
    labels: list[str]  # [n]
    keys: list[int]  # [n]: what each bar stands for (a class, a channel); clicks report it
    title: str = ""
    horizontal: bool = True
    levels: tuple[float, float] = (0.0, 1.0)
    colours: dict[int, QtGui.QColor] = field(default_factory=dict)  # by key; others grey
    labelled: set[int] | None = None  # vertical charts: keys whose label is drawn (None: all)
    selected: int | None = None  # a key, framed in the accent colour
    bold: set[int] = field(default_factory=set)  # keys whose label is bold
    text: Callable[[float], str] = decimals

    def index_of(self, key: int) -> int | None:
        return self.keys.index(key) if key in self.keys else None


class BarChart(QtWidgets.QWidget):
    clicked = QtCore.Signal(int)  # the key of the bar
    hovered = QtCore.Signal(int)  # the key of the bar, -1 on leaving

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        self.bars: Bars | None = None
        self.style_ = style
        self._hover: int | None = None
        # (size, plot rectangle, bars shown): measured once per size and data, not once per
        # bar (measuring every label for every bar's slot cost a paint 18 ms)
        self._geometry: tuple | None = None
        self.setMouseTracking(True)
        self.setMinimumSize(120, 90)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(320, 240)

    def set_bars(self, bars: Bars | None) -> None:
        self.bars = bars
        self._geometry = None
        self.update()

    def set_selected(self, key: int | None) -> None:
        if self.bars is not None and self.bars.selected != key:
            self.bars.selected = key
            self.update()

    def set_style(self, style: Style) -> None:
        self.style_ = style
        self._geometry = None
        self.update()

    # -- geometry ----------------------------------------------------------------------------------
    def _metrics(self) -> QtGui.QFontMetricsF:
        return QtGui.QFontMetricsF(self.style_.font)

    def _measured(self) -> tuple[QtCore.QRectF, list[int]]:
        size = (self.width(), self.height())
        if self._geometry is None or self._geometry[0] != size:
            plot = self._plot_rect()
            self._geometry = (size, plot, self._shown(plot))
        return self._geometry[1], self._geometry[2]

    def plot_rect(self) -> QtCore.QRectF:
        """Where the bars are (labels, values and the title around it)."""
        return QtCore.QRectF(self._measured()[0])

    def _plot_rect(self) -> QtCore.QRectF:
        m, b = self._metrics(), self.bars
        r = QtCore.QRectF(self.rect()).adjusted(PAD, PAD, -PAD, -PAD)
        top = m.height() + PAD if b is not None and b.title else 0.0
        if b is None or b.horizontal:
            label_w = max((m.horizontalAdvance(t) for t in (b.labels if b else [])), default=0.0)
            value_w = max((m.horizontalAdvance(b.text(v)) for v in (b.values if b else [])), default=0.0)
            return r.adjusted(label_w + 2 * PAD, top, -(value_w + 2 * PAD), 0)
        axis_w = m.horizontalAdvance("0.00") + 2 * PAD
        lines = LABEL_LINES if b.labelled is not None else 1
        return r.adjusted(axis_w, top + m.height() / 2, 0, -(lines * m.height() + 2 * PAD))

    def column_labels(self) -> list[tuple[int, QtCore.QPointF, str]]:
        """A vertical chart's labels as drawn: (key, baseline start, text). A label that would
        touch the one before it goes a line lower (the 3 largest of 32 weights sit in
        adjacent columns ~20 px wide: their third label was dropped, trial 7); on neither
        line it is left out."""
        b, m = self.bars, self._metrics()
        if b is None or b.horizontal or not len(b.values):
            return []
        plot = self.plot_rect()
        lines = LABEL_LINES if b.labelled is not None else 1
        ends = [-1e9] * lines  # the right edge of the last label on each line
        out = []
        for i in self.shown():
            key, label = b.keys[i], b.labels[i]
            if b.labelled is not None and key not in b.labelled:
                continue
            w = m.horizontalAdvance(label)
            x = self.bar_rect(i).center().x() - w / 2
            line = next((k for k in range(lines) if x > ends[k] + PAD / 2), None)
            if line is None:
                continue
            ends[line] = x + w
            out.append((key, QtCore.QPointF(x, plot.bottom() + PAD + m.ascent() + line * m.height()), label))
        return out

    def shown(self) -> list[int]:
        """The bars drawn, in drawing order: all of them, or, where a horizontal chart has no
        room for every row at a readable size, the largest values that fit, largest first."""
        return list(self._measured()[1])

    def _shown(self, plot: QtCore.QRectF) -> list[int]:
        b = self.bars
        n = len(b.values) if b is not None else 0
        if b is None or not b.horizontal:
            return list(range(n))
        fit = max(1, int(plot.height() // (1.1 * self._metrics().height())))
        if fit >= n:
            return list(range(n))
        return [int(i) for i in np.argsort(-np.asarray(b.values), kind="stable")[:fit]]

    def bar_rect(self, i: int) -> QtCore.QRectF:
        """The slot of bar ``i`` (an index into the values): the whole row or column it owns."""
        plot, shown = self._measured()
        pos, n = shown.index(i), len(shown)
        if self.bars.horizontal:
            h = min(plot.height() / n, 2.2 * self._metrics().height())  # no taller than two lines
            return QtCore.QRectF(plot.left(), plot.top() + pos * h, plot.width(), h)
        w = plot.width() / n
        return QtCore.QRectF(plot.left() + pos * w, plot.top(), w, plot.height())

    def key_at(self, pos: QtCore.QPointF) -> int | None:
        if self.bars is None or not len(self.bars.values):
            return None
        for i in self.shown():
            if self.bar_rect(i).contains(pos):
                return self.bars.keys[i]
        return None

    def bar_centre(self, key: int) -> QtCore.QPoint:
        """Where a click on that bar lands (tests click there)."""
        return self.bar_rect(self.bars.index_of(key)).center().toPoint()

    def _fraction(self, value: float) -> float:
        lo, hi = self.bars.levels
        return float(np.clip((value - lo) / (hi - lo), 0.0, 1.0)) if hi > lo else 0.0

    # -- painting ----------------------------------------------------------------------------------
    def paintEvent(self, event):
        painter = QtGui.QPainter(self)
        try:
            painter.fillRect(self.rect(), self.style_.bg)
            if self.bars is not None and len(self.bars.values):
                self._paint(painter)
        finally:
            painter.end()

    def _paint(self, p: QtGui.QPainter) -> None:
        b, style, m = self.bars, self.style_, self._metrics()
        p.setFont(style.font)
        plot = self.plot_rect()
        if b.title:
            p.setPen(style.fg)
            title = m.elidedText(b.title, QtCore.Qt.TextElideMode.ElideRight, self.width() - 2 * PAD)
            p.drawText(QtCore.QPointF(PAD, PAD + m.ascent()), title)
        bold = QtGui.QFont(style.font)
        bold.setBold(True)
        shown = self.shown()
        for i in shown:
            value, label, key = b.values[i], b.labels[i], b.keys[i]
            slot = self.bar_rect(i)
            colour = b.colours.get(key, BAR)
            f = self._fraction(float(value))
            if b.horizontal:
                gap = min(3.0, slot.height() * 0.15)
                bar = QtCore.QRectF(slot.left(), slot.top() + gap, slot.width() * f, slot.height() - 2 * gap)
                p.fillRect(bar, colour)
                p.setFont(bold if key in b.bold else style.font)
                p.setPen(style.fg)
                metrics = QtGui.QFontMetricsF(p.font())
                y = slot.center().y() - metrics.height() / 2 + metrics.ascent()
                p.drawText(QtCore.QPointF(slot.left() - PAD - metrics.horizontalAdvance(label), y), label)
                p.drawText(QtCore.QPointF(slot.right() + PAD, y), b.text(float(value)))
                p.setFont(style.font)
            else:
                gap = min(2.0, slot.width() * 0.15)
                top = slot.bottom() - slot.height() * f
                bar = QtCore.QRectF(slot.left() + gap, top, slot.width() - 2 * gap, slot.bottom() - top)
                p.fillRect(bar, colour)
            if key == b.selected or key == self._hover:
                pen = QtGui.QPen(style.accent if key == b.selected else style.fg, 2)
                p.setPen(pen)
                p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
                p.drawRect(slot.adjusted(1, 1, -1, -1))
        if not b.horizontal:
            p.setPen(style.fg)
            for _key, at, label in self.column_labels():
                p.drawText(at, label)
        # the value axis of a vertical chart, and the frame
        p.setPen(QtGui.QPen(style.frame, 1))
        if b.horizontal:
            last = self.bar_rect(shown[-1])
            plot = QtCore.QRectF(plot.left(), plot.top(), plot.width(), last.bottom() - plot.top())
        p.drawRect(plot)
        if not b.horizontal:
            p.setPen(style.fg)
            lo, hi = b.levels
            for v in (lo, (lo + hi) / 2, hi):
                y = plot.bottom() - self._fraction(v) * plot.height()
                text = f"{v:.2g}"
                p.drawLine(QtCore.QLineF(plot.left() - 3, y, plot.left(), y))
                p.drawText(
                    QtCore.QPointF(plot.left() - PAD - m.horizontalAdvance(text), y + m.ascent() / 2 - 1),
                    text,
                )

    # -- the mouse ---------------------------------------------------------------------------------
    def mouseMoveEvent(self, event):
        key = self.key_at(event.position())
        if key != self._hover:
            self._hover = key
            self.hovered.emit(-1 if key is None else key)
            self.update()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event):
        if self._hover is not None:
            self._hover = None
            self.hovered.emit(-1)
            self.update()
        super().leaveEvent(event)

    def mousePressEvent(self, event):
        if event.button() == QtCore.Qt.MouseButton.LeftButton:
            key = self.key_at(event.position())
            if key is not None:
                self.clicked.emit(key)
                event.accept()
                return
        super().mousePressEvent(event)

    def value_text(self, key: int) -> str:
        """'label: value' of a bar (the hover line)."""
        i = self.bars.index_of(key)
        return f"{self.bars.labels[i]}: {self.bars.text(float(self.bars.values[i]))}"
