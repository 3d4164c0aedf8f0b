"""The curves' horizontal axis: major ticks no closer than their labels are wide.

pyqtgraph spaces the ticks by the axis's length alone, and always draws the major ones: a
projector's large labels in a narrow plot ran together ("100200"). ``FittingAxis`` widens the
major spacing (1, 2, 5 × 10ⁿ, pyqtgraph's own steps) until every label has its room, the
old major ticks becoming the minor ones.
"""

from __future__ import annotations

import math
from functools import cache

GAP_CHARS = 1.5  # between two labels, in widths of "0"


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


@cache
def fitting_axis():
    """The AxisItem class (made once pyqtgraph is imported: the import is the labs' warm-up's)."""
    import pyqtgraph as pg
    from PySide6 import QtGui

    class FittingAxis(pg.AxisItem):
        def tickSpacing(self, minVal, maxVal, size):
            levels = super().tickSpacing(minVal, maxVal, size)
            if not levels:
                return levels
            metrics = QtGui.QFontMetricsF(self.style.get("tickFont") or self.font())
            texts = self.tickStrings([minVal, maxVal], 1.0, levels[0][0])
            label_px = max(metrics.horizontalAdvance(t) for t in texts)
            label_px += GAP_CHARS * metrics.horizontalAdvance("0")
            return fitted_levels(levels, abs(maxVal - minVal), size, label_px)

    return FittingAxis
