"""Which cells of a matrix axis get a label, and the label's text, for a font and a cell size.

Every token is labelled where it fits. Where not all fit, every ``stride``-th is, and the
stride depends only on (axis length, cell size, font): panels of the same size that share
an axis (all heads of the grid) label the same tokens. An axis of up to ``ALL_LABELLED``
cells labels every one in a smaller font (the labels' ``font``, down to ``MIN_LABEL_PX``)
where the figure's is too large for its cells: a projector's 22 px font on a 14-token grid
labelled every other token, and a class reads the grid by its tokens. A label never overlaps its
neighbour: rows and rotated columns are at least a line apart, horizontal column labels
are used only when every one fits its cell. Long tokens are elided with "…" (the hover
shows the whole token). Single characters (a date's 年 and 月, a digit, ␣) stay upright even
where not all fit: on its side a character is no narrower, only harder to read.

A zoomed panel labels the cells it shows (``span``, a range of the axis) by the same rules;
the labelled cells are multiples of the stride, so panning keeps the same tokens labelled.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from PySide6 import QtCore, QtGui

LABEL_CHARS = 12  # longest label, in average character widths, before it is elided
GAP_PX = 4  # room between two horizontal labels
ROUND_STEPS = tuple(2**k for k in range(16))  # 1, 2, 4, …: feature columns split into heads read well
ALL_LABELLED = 16  # an axis of up to this many tokens labels every one (in a smaller font if need be)
MIN_LABEL_PX = 11  # ... but no smaller than this: still read from the back of a room


@dataclass(frozen=True)
class AxisLabels:
    indices: tuple[int, ...]  # the cells that carry a label
    texts: tuple[str, ...]  # each label as drawn (elided)
    widths: tuple[float, ...]  # each label's advance in pixels
    stride: int
    rotated: bool  # column labels drawn vertically (reading upwards)
    font: LabelFont | None = field(default=None, compare=False)  # drawn in (None: the figure's)

    def font_or(self, font: LabelFont) -> LabelFont:
        """The font the labels are drawn in: their own, else the figure's ``font``."""
        return font if self.font is None else self.font

    def without_last(self) -> AxisLabels:
        k = len(self.indices) - 1
        return AxisLabels(
            self.indices[:k], self.texts[:k], self.widths[:k], self.stride, self.rotated, self.font
        )

    @property
    def extent(self) -> float:
        """Pixels across the axis the labels need (left axis: width; bottom: height if rotated)."""
        return max(self.widths, default=0.0)

    def __len__(self) -> int:
        return len(self.indices)


NO_LABELS = AxisLabels((), (), (), 1, False)


class LabelFont:
    """A font's metrics, with the measures the axis layout asks for again and again."""

    def __init__(self, font: QtGui.QFont, least_px: int = MIN_LABEL_PX):
        self.font = QtGui.QFont(font)
        self.least_px = least_px  # the smallest the labels may shrink to (a projector's is larger)
        self.metrics = QtGui.QFontMetricsF(self.font)
        self.line = self.metrics.height()
        self.ascent = self.metrics.ascent()
        self.max_label = self.metrics.averageCharWidth() * LABEL_CHARS
        self._widths: dict[str, float] = {}
        self._elided: dict[tuple[str, float], str] = {}
        self._smaller: dict[int, LabelFont] = {}

    @property
    def px(self) -> int:
        """The font's pixel size (or what its line height says of it)."""
        px = self.font.pixelSize()
        return px if px > 0 else round(self.line * 0.8)

    def at_px(self, px: int) -> LabelFont:
        """The same font at ``px`` pixels (kept)."""
        found = self._smaller.get(px)
        if found is None:
            f = QtGui.QFont(self.font)
            f.setPixelSize(px)
            found = self._smaller[px] = LabelFont(f, self.least_px)
        return found

    def smaller(self) -> Iterator[LabelFont]:
        """The same font one pixel smaller at a time, down to ``least_px`` (MIN_LABEL_PX)."""
        for px in range(self.px - 1, self.least_px - 1, -1):
            yield self.at_px(px)

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
    font: LabelFont,
    texts: Sequence[str],
    indices: range,
    rotated: bool,
    max_px: float | None,
    own: LabelFont | None = None,
) -> AxisLabels:
    """The labels of ``indices``; ``own``: a smaller font than the figure's ``font`` they are
    drawn in."""
    drawn = own or font
    limit = max_px if own is None else _limit(own, max_px)
    shown = tuple(drawn.elide(texts[i], limit) for i in indices)
    widths = tuple(drawn.width(t) for t in shown)
    return AxisLabels(tuple(indices), shown, widths, indices.step, rotated, own)


def _stride(need_px: float, cell_px: float) -> int:
    return max(1, math.ceil(need_px / cell_px - 1e-9))


def row_font(font: LabelFont, n: int, cell_px: float) -> LabelFont | None:
    """The font whose line fits a row of ``cell_px``: the figure's ``font`` (returned as
    None), or for an axis of at most ALL_LABELLED rows the largest smaller one that does;
    None also where none does (every ``row_stride``-th row is labelled)."""
    if font.line <= cell_px + 1e-9 or n > ALL_LABELLED:
        return None
    return next((f for f in font.smaller() if f.line <= cell_px + 1e-9), None)


def strided_font(font: LabelFont, n: int) -> LabelFont | None:
    """The font of a short axis's labels where not every row has room for one: a figure that
    raised its least size (a projector's) names every other row at that size rather than
    every third at its own; None: the figure's ``font``."""
    if n > ALL_LABELLED or font.least_px <= MIN_LABEL_PX or font.px <= font.least_px:
        return None
    return font.at_px(font.least_px)


def row_stride(font: LabelFont, n: int, cell_px: float) -> int:
    """Every how many rows of an ``n``-row axis a label stands (1: every row)."""
    if cell_px <= 0:
        return max(1, n)
    if font.line <= cell_px + 1e-9 or row_font(font, n, cell_px) is not None:
        return 1
    return _stride((strided_font(font, n) or font).line, cell_px)


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
    own = row_font(font, len(span), cell_px)
    stride = 1
    if own is None and font.line > cell_px + 1e-9:  # not every row has room for a label
        own = strided_font(font, len(span))
        stride = _stride((own or font).line, cell_px)
    return _labels(font, tokens, _strided(span, stride), False, _limit(font, max_px), own)


def token_columns(
    font: LabelFont,
    tokens: Sequence[str],
    cell_px: float,
    span: range | None = None,
    max_px: float | None = None,
) -> AxisLabels:
    """Column labels: horizontal when every label fits its cell, else rotated a line apart
    (``max_px``: the room below the plot for a rotated label; single characters: horizontal,
    every ``stride``-th). An axis of at most ALL_LABELLED columns that would skip some is
    labelled whole in the largest smaller font that fits, horizontal or rotated."""
    span = range(len(tokens)) if span is None else span
    if not len(span) or cell_px <= 0:
        return NO_LABELS
    chars = all(len(tokens[i]) == 1 for i in span)
    found = _columns_in(font, tokens, cell_px, span, max_px, chars)
    if found.stride > 1 and len(span) <= ALL_LABELLED:
        for own in font.smaller():
            whole = _columns_in(own, tokens, cell_px, span, max_px, chars)
            if whole.stride == 1:
                return replace(whole, font=own)
    return found


def _columns_in(
    font: LabelFont, tokens: Sequence[str], cell_px: float, span: range, max_px: float | None, chars: bool
) -> AxisLabels:
    if chars:
        widest_char = max(font.width(tokens[i]) for i in span)
        stride = _stride(widest_char + GAP_PX, cell_px)
        return _labels(font, tokens, _strided(span, stride), False, None)
    # Cheap test first: a cell narrower than two characters holds no token horizontally.
    if cell_px >= 2 * font.metrics.averageCharWidth() + GAP_PX:
        shown = [font.elide(tokens[i]) for i in span]
        widths = [font.width(t) for t in shown]
        if max(widths) + GAP_PX <= cell_px:
            return AxisLabels(tuple(span), tuple(shown), tuple(widths), 1, False)
    stride = _stride(font.line, cell_px)
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
