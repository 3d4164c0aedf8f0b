"""The curves' horizontal axis: as many labelled ticks as fit, their labels never touching.

pyqtgraph spaces the ticks by the axis's length alone, always draws the major ones, and
drops a label that reaches past either end of its axis: a projector's large labels in a
narrow plot ran together ("100200"), and a plot of 0–1,000 steps 125 px wide then labelled
one tick, "500" (0 and 1000 sat at the ends). ``FittingAxis`` picks the closest spacing of
1, 2, 2.5, 4 or 5 × 10ⁿ (``SPACINGS``) whose labels, each centred on its tick and the two at the
ends moved inside the axis (``placed``), keep ``GAP_CHARS`` apart (``fitting_spacing``): 0, 400,
800 there. Only those ticks are labelled; a finer level draws the grid between them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

GAP_CHARS = 0.75  # between two labels, in widths of "0"
SPACINGS = (1.0, 2.0, 2.5, 4.0, 5.0)  # × 10ⁿ
MINOR = {1.0: 2, 2.0: 2, 2.5: 5, 4.0: 2, 5.0: 5}  # the grid's steps between two labelled ticks


def next_step(spacing: float) -> float:
    """The next of 1, 2, 5 × 10ⁿ above ``spacing``."""
    power = 10.0 ** math.floor(math.log10(spacing) + 1e-9)
    mantissa = spacing / power
    return power * (2.0 if mantissa < 1.5 else 5.0 if mantissa < 3.5 else 10.0)


def fitted_levels(levels: list, span: float, size: float, label_px: float) -> list:
    """pyqtgraph's tick levels [(spacing, offset), …] with the major spacing widened until
    ``span / spacing`` intervals of ``size`` pixels each hold a label of ``label_px``."""
    if not levels or span <= 0 or size <= 0 or label_px <= 0:
        return levels
    major, offset = levels[0]
    spacing = major
    while spacing * size / span < label_px and spacing < span:
        spacing = next_step(spacing)
    if spacing == major:
        return levels
    return [(spacing, offset), (major, offset)]


def spacings_from(smallest: float):
    """1, 2, 2.5, 4, 5 × 10ⁿ from the first at least ``smallest``, ascending."""
    power = 10.0 ** math.floor(math.log10(smallest))
    while True:
        for m in SPACINGS:
            if m * power >= smallest * (1 - 1e-9):
                yield m * power
        power *= 10.0


def tick_values(lo: float, hi: float, spacing: float) -> list[float]:
    first = math.ceil(lo / spacing - 1e-9)
    last = math.floor(hi / spacing + 1e-9)
    return [k * spacing for k in range(first, last + 1)]


def placed(xs: list[float], widths: list[float], size: float) -> list[tuple[float, float]]:
    """Each label's (left, right) in pixels: centred on its tick, moved inside [0, size]."""
    out = []
    for x, w in zip(xs, widths):
        left = min(max(x - w / 2, 0.0), size - w)
        out.append((left, left + w))
    return out


def fitting_spacing(
    lo: float, hi: float, size: float, width_of: Callable[[list[float], float], list[float]], gap: float
) -> float | None:
    """The smallest spacing whose labels (``width_of(values, spacing)``: their widths in
    pixels) all fit on an axis of ``size`` pixels from ``lo`` to ``hi``, ``gap`` apart; None:
    not even two labels fit."""
    span = hi - lo
    if not (span > 0 and size > 0 and math.isfinite(span)):
        return None
    one = max(width_of([hi], 1.0) + width_of([lo], 1.0)) / 2  # no spacing packs labels closer
    for spacing in spacings_from(max(span * one / size, span * 1e-6)):
        values = tick_values(lo, hi, spacing)
        if len(values) < 2:
            return None
        xs = [(v - lo) / span * size for v in values]
        rects = placed(xs, width_of(values, spacing), size)
        if all(b[0] - a[1] >= gap for a, b in zip(rects, rects[1:])):
            return spacing
    return None  # not reached: the spacings grow until fewer than two ticks are left


def levels_of(spacing: float) -> list[tuple[float, float]]:
    """pyqtgraph's tick levels: the labelled ticks and the grid between them."""
    power = 10.0 ** math.floor(math.log10(spacing) + 1e-9)
    mantissa = round(spacing / power, 6)
    return [(spacing, 0.0), (spacing / MINOR.get(mantissa, 2), 0.0)]


@cache
def fitting_axis():
    """The AxisItem class (made once pyqtgraph is imported: the import is the labs' warm-up's)."""
    import pyqtgraph as pg
    from PySide6 import QtCore, QtGui

    class FittingAxis(pg.AxisItem):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.style["maxTextLevel"] = 0  # the labelled ticks only: the finer level is the grid's

        def _metrics(self) -> QtGui.QFontMetricsF:
            return QtGui.QFontMetricsF(self.style.get("tickFont") or self.font())

        def tickSpacing(self, minVal, maxVal, size):
            levels = super().tickSpacing(minVal, maxVal, size)
            if not levels:
                return levels
            lo, hi = sorted((minVal, maxVal))
            metrics = self._metrics()

            def widths(values: list[float], spacing: float) -> list[float]:
                return [metrics.horizontalAdvance(t) for t in self.tickStrings(values, 1.0, spacing)]

            gap = GAP_CHARS * metrics.horizontalAdvance("0")
            spacing = fitting_spacing(lo, hi, size, widths, gap)
            if spacing is None:  # not two labels: pyqtgraph's widest level
                return fitted_levels(levels, hi - lo, size, max(widths([lo, hi], levels[0][0])) + gap)
            return levels_of(spacing)

        _reach = 0.0  # how far past its ends the labels are laid out, then moved inside

        def boundingRect(self):
            rect = super().boundingRect()
            return rect.adjusted(-self._reach, 0.0, self._reach, 0.0) if self._reach else rect

        def generateDrawSpecs(self, p):
            # the labels at the ends moved inside the axis (``placed``), not dropped
            self._reach = 10_000.0
            try:
                specs = super().generateDrawSpecs(p)
            finally:
                self._reach = 0.0
            if specs is None or self.orientation not in ("bottom", "top"):
                return specs
            axis, ticks, texts = specs
            bounds = self.mapRectFromParent(self.geometry())
            inside = []
            for rect, flags, text in texts:
                if rect.width() > bounds.width():
                    continue
                shift = max(bounds.left() - rect.left(), 0.0) + min(bounds.right() - rect.right(), 0.0)
                inside.append((QtCore.QRectF(rect).translated(shift, 0.0), flags, text))
            return axis, ticks, inside

    return FittingAxis
