"""The part of a large (query, key) matrix a zoomed panel shows: ``state.matrix_zoom``.

A ``Region`` is whole cells, rows ``[top, bottom)`` and columns ``[left, right)``: a zoomed
panel shows exactly those cells, so its labels, hover and clicks name whole tokens. The
Pipeline's query–key stages (scores, scaled, mask, weights) and the Compare tab's A, B and
B − A share one region: they are the same plane of the same inputs. ``None`` is the whole
matrix. The operations take the matrix's shape and keep the region inside it; a region
that covers the whole matrix becomes ``None``. Qt-free.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

MIN_SIDE = 4  # the fewest cells a side a zoomed panel shows
WHEEL_STEP = 1.25  # the zoom of one wheel notch
KEY_STEP = 2.0  # the zoom of one key press (+ or −)
PAN_SHARE = 0.25  # Shift + an arrow moves the view by this share of it


@dataclass(frozen=True)
class Region:
    top: int
    bottom: int
    left: int
    right: int

    def __post_init__(self) -> None:
        for name in ("top", "bottom", "left", "right"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"a region's {name} must be a whole number, 0 or more")
        if not (self.top < self.bottom and self.left < self.right):
            raise ValueError("a region needs top < bottom and left < right")

    @property
    def rows(self) -> int:
        return self.bottom - self.top

    @property
    def cols(self) -> int:
        return self.right - self.left

    @staticmethod
    def whole(n_rows: int, n_cols: int) -> Region:
        return Region(0, max(1, n_rows), 0, max(1, n_cols))

    def contains(self, row: int, col: int) -> bool:
        return self.top <= row < self.bottom and self.left <= col < self.right

    def to_list(self) -> list[int]:
        return [self.top, self.bottom, self.left, self.right]

    @classmethod
    def from_list(cls, data: Any) -> Region:
        """[top, bottom, left, right], as a session saves it (ValueError otherwise)."""
        if not isinstance(data, (list, tuple)) or len(data) != 4:
            raise ValueError("a region is four numbers: top, bottom, left, right")
        return cls(*data)


def _span(start: float, size: int, n: int) -> tuple[int, int]:
    """``size`` cells from about ``start``, inside ``[0, n)``."""
    size = max(1, min(size, n))
    first = min(max(0, round(start)), n - size)
    return first, first + size


def clamp(region: Region | None, n_rows: int, n_cols: int) -> Region | None:
    """The region inside a matrix of this shape (None when it covers all of it): a new
    input of other lengths keeps the view where it was, as far as the matrix reaches."""
    if region is None or n_rows <= 0 or n_cols <= 0:
        return None
    top, bottom = _span(region.top, region.rows, n_rows)
    left, right = _span(region.left, region.cols, n_cols)
    if (top, bottom, left, right) == (0, n_rows, 0, n_cols):
        return None
    return Region(top, bottom, left, right)


def shown(region: Region | None, n_rows: int, n_cols: int) -> Region:
    """The cells a panel of this shape shows: the region, or the whole matrix."""
    return clamp(region, n_rows, n_cols) or Region.whole(n_rows, n_cols)


def _side(current: int, factor: float, n: int) -> int:
    """One axis's length after zooming by ``factor`` (> 1: in), at least one cell of change."""
    low = min(MIN_SIDE, n)
    size = round(current / factor)
    if size == current:
        size += -1 if factor > 1 else 1
    return max(low, min(n, size))


def zoom(
    region: Region | None, n_rows: int, n_cols: int, factor: float, at: tuple[float, float] = (0.5, 0.5)
) -> Region | None:
    """Zoom in (``factor`` > 1) or out about a point of the view, ``at`` = (fraction down,
    fraction across) of what is shown: the cell under that point stays under it."""
    if not (math.isfinite(factor) and factor > 0) or factor == 1 or n_rows <= 0 or n_cols <= 0:
        return clamp(region, n_rows, n_cols)
    now = shown(region, n_rows, n_cols)
    fy, fx = (min(1.0, max(0.0, float(f))) for f in at)
    rows, cols = _side(now.rows, factor, n_rows), _side(now.cols, factor, n_cols)
    top = now.top + fy * now.rows - fy * rows
    left = now.left + fx * now.cols - fx * cols
    t, b = _span(top, rows, n_rows)
    lo, r = _span(left, cols, n_cols)
    return clamp(Region(t, b, lo, r), n_rows, n_cols)


def pan(region: Region | None, n_rows: int, n_cols: int, d_rows: float, d_cols: float) -> Region | None:
    """Move the view by whole cells (down and right positive), never past the matrix's edges."""
    now = clamp(region, n_rows, n_cols)
    if now is None:
        return None
    t, b = _span(now.top + d_rows, now.rows, n_rows)
    lo, r = _span(now.left + d_cols, now.cols, n_cols)
    return Region(t, b, lo, r)


def zoom_about_cell(
    region: Region | None, n_rows: int, n_cols: int, factor: float, cell: tuple[int, int] | None
) -> Region | None:
    """The keys' zoom: about the selected cell while it is in view, else about the middle."""
    now = shown(region, n_rows, n_cols)
    at = (0.5, 0.5)
    if cell is not None and now.contains(*cell):
        at = ((cell[0] - now.top + 0.5) / now.rows, (cell[1] - now.left + 0.5) / now.cols)
    return zoom(region, n_rows, n_cols, factor, at)


def pan_step(region: Region | None, n_rows: int, n_cols: int, down: int, right: int) -> Region | None:
    """Shift + an arrow: a quarter of the view (a cell at least) in that direction."""
    now = clamp(region, n_rows, n_cols)
    if now is None:
        return None
    step_r = max(1, round(now.rows * PAN_SHARE))
    step_c = max(1, round(now.cols * PAN_SHARE))
    return pan(now, n_rows, n_cols, down * step_r, right * step_c)


@dataclass(frozen=True)
class Blocks:
    """How a region is drawn into a plot of a given size in pixels: blocks of ``fr`` × ``fc``
    cells, each one picture pixel (1 × 1 once the cells are at least a pixel: every cell as
    it is). Blocks start at multiples of their size, so panning never re-cuts them (the
    picture does not shimmer); the picture covers rows ``[row0, row0 + rows·fr)`` and
    columns ``[col0, col0 + cols·fc)``, a little more than the region at its edges."""

    fr: int
    fc: int
    row0: int
    col0: int
    rows: int  # the picture's size
    cols: int

    @property
    def exact(self) -> bool:
        return self.fr == 1 and self.fc == 1

    def source(self, region: Region) -> tuple[float, float, float, float]:
        """The region inside the picture, in picture pixels: (x, y, width, height)."""
        return (
            (region.left - self.col0) / self.fc,
            (region.top - self.row0) / self.fr,
            region.cols / self.fc,
            region.rows / self.fr,
        )


def blocks_for(region: Region, n_rows: int, n_cols: int, px_rows: float, px_cols: float) -> Blocks:
    """The coarsest blocks that still give every screen pixel of the plot its own block."""
    fr = max(1, math.ceil(region.rows / max(1.0, px_rows) - 1e-9))
    fc = max(1, math.ceil(region.cols / max(1.0, px_cols) - 1e-9))
    row0, col0 = (region.top // fr) * fr, (region.left // fc) * fc
    row1, col1 = min(n_rows, -(-region.bottom // fr) * fr), min(n_cols, -(-region.right // fc) * fc)
    return Blocks(fr, fc, row0, col0, -(-(row1 - row0) // fr), -(-(col1 - col0) // fc))
