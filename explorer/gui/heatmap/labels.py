"""Which cells of a matrix axis get a label, and the label's text, for a font and a cell size.

Every token is labelled where it fits. Where not all fit, every ``stride``-th is, and the
stride depends only on (axis length, cell size, font): panels of the same size that share
an axis (all heads of the grid) label the same tokens. A label never overlaps its
neighbour: rows and rotated columns are at least a line apart, horizontal column labels
are used only when every one fits its cell. Long tokens are elided with "…" (the hover
shows the whole token). Single characters (a date's 年 and 月, a digit, ␣) stay upright even
where not all fit: on its side a character is no narrower, only harder to read.

A zoomed panel labels the cells it shows (``span``, a range of the axis) by the same rules;
the labelled cells are multiples of the stride, so panning keeps the same tokens labelled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6 import QtCore, QtGui

LABEL_CHARS = 12  # longest label, in average character widths, before it is elided
GAP_PX = 4  # room between two horizontal labels
ROUND_STEPS = tuple(2**k for k in range(16))  # 1, 2, 4, …: feature columns split into heads read well


@dataclass(frozen=True)
class AxisLabels:
    indices: tuple[int, ...]  # the cells that carry a label
    texts: tuple[str, ...]  # each label as drawn (elided)
    widths: tuple[float, ...]  # each label's advance in pixels
    stride: int
    rotated: bool  # column labels drawn vertically (reading upwards)

    @property
    def extent(self) -> float:
        """Pixels across the axis the labels need (left axis: width; bottom: height if rotated)."""
        return max(self.widths, default=0.0)

    def __len__(self) -> int:
        return len(self.indices)


NO_LABELS = AxisLabels((), (), (), 1, False)


class LabelFont:
    """A font's metrics, with the measures the axis layout asks for again and again."""

    def __init__(self, font: QtGui.QFont):
        self.font = QtGui.QFont(font)
        self.metrics = QtGui.QFontMetricsF(self.font)
        self.line = self.metrics.height()
        self.ascent = self.metrics.ascent()
        self.max_label = self.metrics.averageCharWidth() * LABEL_CHARS
        self._widths: dict[str, float] = {}
        self._elided: dict[tuple[str, float], str] = {}

    def width(self, text: str) -> float:
        w = self._widths.get(text)
        if w is None:
            w = self._widths[text] = self.metrics.horizontalAdvance(text)
            if len(self._widths) > 20_000:  # thousands of tokens: forget, do not grow forever
                self._widths.clear()
        return w

    def elide(self, text: str, max_px: float | None = None) -> str:
        limit = self.max_label if max_px is None else max_px
        if self.width(text) <= limit:
            return text
        key = (text, limit)
        out = self._elided.get(key)
        if out is None:
            out = self.metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideRight, limit)
            if len(self._elided) > 20_000:
                self._elided.clear()
            self._elided[key] = out
        return out


def _strided(span: range, stride: int) -> range:
    """Every ``stride``-th cell of the span, counted from the axis's first cell."""
    return range(-(-span.start // stride) * stride, span.stop, stride)


def _labels(
    font: LabelFont, texts: Sequence[str], indices: range, rotated: bool, max_px: float | None
) -> AxisLabels:
    shown = tuple(font.elide(texts[i], max_px) for i in indices)
    return AxisLabels(tuple(indices), shown, tuple(font.width(t) for t in shown), indices.step, rotated)


def _limit(font: LabelFont, max_px: float | None) -> float | None:
    return None if max_px is None else min(font.max_label, max_px)


def token_rows(
    font: LabelFont,
    tokens: Sequence[str],
    cell_px: float,
    span: range | None = None,
    max_px: float | None = None,
) -> AxisLabels:
    """Row labels, one line high each: every ``stride``-th row, a line apart at least;
    ``span``: the rows shown (all), ``max_px``: the room for a label (elided to it)."""
    span = range(len(tokens)) if span is None else span
    if not len(span) or cell_px <= 0:
        return NO_LABELS
    stride = max(1, math.ceil(font.line / cell_px - 1e-9))
    return _labels(font, tokens, _strided(span, stride), False, _limit(font, max_px))


def token_columns(
    font: LabelFont,
    tokens: Sequence[str],
    cell_px: float,
    span: range | None = None,
    max_px: float | None = None,
) -> AxisLabels:
    """Column labels: horizontal when every label fits its cell, else rotated a line apart
    (``max_px``: the room below the plot for a rotated label; single characters: horizontal,
    every ``stride``-th)."""
    span = range(len(tokens)) if span is None else span
    if not len(span) or cell_px <= 0:
        return NO_LABELS
    if all(len(tokens[i]) == 1 for i in span):
        widest_char = max(font.width(tokens[i]) for i in span)
        stride = max(1, math.ceil((widest_char + GAP_PX) / cell_px - 1e-9))
        return _labels(font, tokens, _strided(span, stride), False, None)
    # Cheap test first: a cell narrower than two characters holds no token horizontally.
    if cell_px >= 2 * font.metrics.averageCharWidth() + GAP_PX:
        shown = [font.elide(tokens[i]) for i in span]
        widths = [font.width(t) for t in shown]
        if max(widths) + GAP_PX <= cell_px:
            return AxisLabels(tuple(span), tuple(shown), tuple(widths), 1, False)
    stride = max(1, math.ceil(font.line / cell_px - 1e-9))
    return _labels(font, tokens, _strided(span, stride), True, _limit(font, max_px))


def numbered(
    font: LabelFont, n: int, cell_px: float, vertical: bool, span: range | None = None
) -> AxisLabels:
    """Index labels (feature columns, numbered rows) at round steps: 0, 64, 128, …"""
    span = range(n) if span is None else span
    if not len(span) or cell_px <= 0:
        return NO_LABELS
    need = font.line if vertical else font.width(str(max(n - 1, 0))) + GAP_PX * 2
    wanted = max(1, math.ceil(need / cell_px - 1e-9))
    stride = next((s for s in ROUND_STEPS if s >= wanted), wanted)
    indices = _strided(span, stride)
    texts = tuple(str(i) for i in indices)
    return AxisLabels(tuple(indices), texts, tuple(font.width(t) for t in texts), stride, False)


def widest(font: LabelFont, tokens: Sequence[str] | None, n: int, sample: int = 512) -> float:
    """The widest (elided) label of an axis; very long axes are sampled evenly."""
    if tokens is None:
        return font.width(str(max(n - 1, 0)))
    step = max(1, math.ceil(len(tokens) / sample))
    return max((font.width(font.elide(tokens[i])) for i in range(0, len(tokens), step)), default=0.0)
