"""One matrix to draw: its numbers, its axes, its colours, its title. No widget.

A ``MatrixPanel`` is built from data by the views (and by the export, for a stage that is
not on screen); ``paint.py`` draws a list of them. What the panel derives for drawing (the
coloured pixels, the outline of masked cells) is computed once, on first use.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from PySide6 import QtCore, QtGui

from explorer.gui.heatmap.colours import ColourMap, colour_indices, colour_map_for, symmetric_levels
from explorer.gui.i18n import translate

# What rows and columns of a matrix mean, for selection and linking:
#   "qk": rows are queries, columns are keys; "q": rows are queries, columns are features;
#   "k": rows are keys; "hq": rows are heads, columns are queries (entropy); "": neither.
ROLES = ("qk", "q", "k", "hq", "")
UNIT_KINDS = ("weights", "mask", "spotlight")  # values in 0..1
VALUES_MAX_CELLS = 64 * 64
MASK_FILL = QtGui.QColor(170, 170, 170, 235)  # masked cells: grey, then hatched
MASK_HATCH = QtGui.QColor(70, 70, 70)
HATCH_FROM_PX = 4  # cells at least this large are hatched (smaller ones only grey)
COMPACT_FROM = (
    1e4  # a cell prints values this large as 1.2e5  # beyond this, values are never printed in the cells
)


def format_value(value) -> str:
    """The value as float32 holds it: the shortest text that reads back to the same number."""
    return str(np.float32(value))


def cell_value_text(value: float, unit: bool = False) -> str:
    """A cell's value as printed on it: two decimals; ``unit`` (values in [0, 1], such as
    weights) drops the leading zero, ".07", and writes the ends as "0" and "1", so that
    the values fit cells a third narrower at the same font size. From 10 000 on (and below
    -10 000) it is short, "1.2e5": a cell never prints a 39-digit number into its neighbours."""
    if math.isfinite(value) and abs(value) >= COMPACT_FROM:
        mantissa, exponent = f"{value:.1e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    text = f"{value:.2f}"
    if not unit:
        return text
    if text in ("0.00", "-0.00"):
        return "0"
    if text == "1.00":
        return "1"
    return text[1:] if text.startswith("0.") else text


@dataclass(eq=False)
class MatrixPanel:
    """data [rows, cols]: the full matrix (hover and clicks read it).

    rows / cols: token labels, or None for numbered rows / feature columns.
    kind: "weights" (cividis, 0..1), "mask" (cividis, 1 = visible), "spotlight" (0..1 over a
    background: the picture shows through as brightly as the value, darkened where it is
    low, no colour added) or "diverging" (centred at 0 with symmetric levels unless
    ``levels`` is given).
    picture: a reduced copy of a large ``data`` (explorer.appstate.display) drawn over the
    same cells; hidden: masked cells at the picture's resolution, drawn hatched; visible:
    the whole mask (True: visible) behind a reduced ``hidden``, which a zoomed view of the
    panel hatches from at its own resolution.
    background: an RGB image [h, w, 3] (uint8) under the matrix, which is then drawn
    half-transparent (an attention map over an image).
    """

    data: np.ndarray
    rows: Sequence[str] | None = None
    cols: Sequence[str] | None = None
    title: str = ""
    kind: str = "diverging"
    levels: tuple[float, float] | None = None
    picture: np.ndarray | None = None
    hidden: np.ndarray | None = None
    visible: np.ndarray | None = None
    role: str = ""
    background: np.ndarray | None = None
    overlay_alpha: float = 0.55
    name: str = ""  # what the panel shows ("weights", "head 3"): for the views, never drawn
    short_title: str = ""  # what a grid too narrow for the whole title shows ("" : the view decides)

    def __post_init__(self) -> None:
        if not hasattr(self.data, "shape"):  # an array, or a lazy matrix read cell by cell
            self.data = np.asarray(self.data)
        if self.data.ndim != 2:
            raise ValueError(f"a panel shows a matrix, not an array of shape {self.data.shape}")
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}")
        if self.levels is None:
            self.levels = (0.0, 1.0) if self.kind in UNIT_KINDS else symmetric_levels(self.shown)
        self.levels = (float(self.levels[0]), float(self.levels[1]))

    # -- what is drawn ---------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return self.data.shape  # type: ignore[return-value]

    @property
    def shown(self) -> np.ndarray:
        """The matrix as drawn: the reduced picture of a large matrix, else the data."""
        return self.data if self.picture is None else np.asarray(self.picture)

    @property
    def reduced(self) -> bool:
        return self.picture is not None and tuple(np.shape(self.picture)) != self.shape

    @property
    def colours(self) -> ColourMap:
        return colour_map_for(self.kind)

    @property
    def unit(self) -> bool:
        """Values in 0..1 (weights, mask): printed in the short form."""
        return self.kind in UNIT_KINDS and self.levels == (0.0, 1.0)

    @cached_property
    def indices(self) -> np.ndarray:
        """Each drawn cell's entry in the colour table (uint8 [rows, cols])."""
        return colour_indices(self.shown, self.levels)

    @cached_property
    def image(self) -> QtGui.QImage:
        """The coloured cells, one pixel per cell (drawn scaled, nearest neighbour)."""
        pixels = np.ascontiguousarray(self.colours.argb[self.indices])
        if self.background is not None:
            return self._over_background(pixels)
        rows, cols = pixels.shape
        image = QtGui.QImage(pixels.data, cols, rows, cols * 4, QtGui.QImage.Format.Format_RGB32)
        image._pixels = pixels  # the QImage reads this buffer: keep it alive with the image
        return image

    @cached_property
    def masked_image(self) -> QtGui.QImage:
        """The coloured cells with the masked ones grey (a picture's crop shown while a
        zoomed region is computed)."""
        hidden = self.hidden
        if hidden is None or self.background is not None or np.shape(hidden) != self.indices.shape:
            return self.image
        pixels = mask_pixels(self.colours.argb[self.indices], np.asarray(hidden, dtype=bool))
        rows, cols = pixels.shape
        image = QtGui.QImage(pixels.data, cols, rows, cols * 4, QtGui.QImage.Format.Format_RGB32)
        image._pixels = pixels
        return image

    def _over_background(self, pixels: np.ndarray) -> QtGui.QImage:
        bg = np.ascontiguousarray(self.background[..., :3], dtype=np.uint8)
        h, w = bg.shape[:2]
        rows, cols = pixels.shape
        # the matrix stretched over the image, nearest neighbour
        ri = np.minimum((np.arange(h) * rows) // h, rows - 1)
        ci = np.minimum((np.arange(w) * cols) // w, cols - 1)
        over = pixels[ri][:, ci]
        rgb = np.stack([(over >> s) & 0xFF for s in (16, 8, 0)], -1).astype(np.float32)
        if self.kind == "spotlight":  # the picture times the grey of the map's value
            mixed = (bg.astype(np.float32) * rgb / 255).round().astype(np.uint32)
        else:
            a = np.float32(self.overlay_alpha)
            mixed = (a * rgb + (1 - a) * bg.astype(np.float32)).round().astype(np.uint32)
        out = np.ascontiguousarray(
            np.uint32(0xFF000000) | (mixed[..., 0] << 16) | (mixed[..., 1] << 8) | mixed[..., 2]
        )
        image = QtGui.QImage(out.data, w, h, w * 4, QtGui.QImage.Format.Format_RGB32)
        image._pixels = out
        return image

    @cached_property
    def hidden_path(self) -> QtGui.QPainterPath | None:
        """The masked cells as rectangles in cell units (one per run of a row)."""
        return None if self.hidden is None else hidden_path(self.hidden)

    # -- what the cells mean ---------------------------------------------------------
    def cell_at(self, fx: float, fy: float) -> tuple[int, int] | None:
        """The data cell at (fx, fy), fractions 0..1 of the plot's width and height."""
        rows, cols = self.shape
        r, c = int(fy * rows), int(fx * cols)
        return (r, c) if 0 <= r < rows and 0 <= c < cols else None

    def matrix_cell(self, cell: tuple[int, int] | None) -> tuple[int | None, int | None]:
        """(query i, key j) -> (row, col) of this matrix, None where it has no such axis."""
        if cell is None:
            return None, None
        i, j = cell
        if self.role == "qk":
            return i, j
        if self.role == "q":
            return i, None
        if self.role == "k":
            return j, None
        if self.role == "hq":
            return None, i
        return None, None

    def selection_of(self, r: int, c: int) -> tuple[int, int]:
        """A click on (row, col) as a (query i, key j) selection; -1 where it says nothing."""
        return {"qk": (r, c), "q": (r, -1), "k": (-1, r), "hq": (c, -1)}.get(self.role, (-1, -1))

    def row_name(self, r: int) -> str:
        return self.rows[r] if self.rows is not None and r < len(self.rows) else str(r)

    def col_name(self, c: int) -> str:
        if self.cols is not None and c < len(self.cols):
            return self.cols[c]
        return translate("Heatmap", "dim {0}").format(c)  # a feature column

    def cell_text(self, r: int, c: int, visible: str = "visible", hidden: str = "hidden (masked)") -> str:
        """'row, col: value' with the exact value (as float32 holds it)."""
        value = self.data[r, c]
        if self.kind == "mask":
            return f"{self.row_name(r)}, {self.col_name(c)}: {visible if value else hidden}"
        return f"{self.row_name(r)}, {self.col_name(c)}: {format_value(value)}"

    @property
    def values_printable(self) -> bool:
        return self.values_printable_in(None)

    def values_printable_in(self, cells: tuple[int, int] | None) -> bool:
        """Whether values may be printed on the cells shown: all of them (None), or a zoomed
        view of ``cells`` = (rows, columns) of them, read exactly from ``data``."""
        if self.background is not None:
            return False
        if cells is None:
            return not self.reduced and self.data.size <= VALUES_MAX_CELLS
        return cells[0] * cells[1] <= VALUES_MAX_CELLS


def mask_pixels(argb: np.ndarray, hidden: np.ndarray, hatch_px: float = 0.0) -> np.ndarray:
    """Pixels (uint32 0xffRRGGBB) with the hidden ones as masked cells look: the grey of
    ``MASK_FILL`` laid over them, and where cells are ``hatch_px`` ≥ ``HATCH_FROM_PX``, the
    hatching's diagonal lines (``hatch_lines``). A copy; the same look as the painted mask."""
    out = np.array(argb, dtype=np.uint32)
    if not hidden.any():
        return out
    a = MASK_FILL.alpha() / 255
    under = out[hidden]
    channels = [((under >> s) & 0xFF).astype(np.float32) for s in (16, 8, 0)]
    fill = (MASK_FILL.red(), MASK_FILL.green(), MASK_FILL.blue())
    mixed = [np.round(a * f + (1 - a) * c).astype(np.uint32) for f, c in zip(fill, channels)]
    out[hidden] = np.uint32(0xFF000000) | (mixed[0] << 16) | (mixed[1] << 8) | mixed[2]
    if hatch_px >= HATCH_FROM_PX:
        hatch_lines(out, hidden)
    return out


def hatch_lines(pixels: np.ndarray, hidden: np.ndarray) -> None:
    """The hatching's diagonal lines, every 8 pixels, drawn into ``pixels`` where hidden (a
    picture at the screen's resolution, its grey laid before on its cells or blocks)."""
    rows, cols = hidden.shape
    diagonal = np.add.outer(np.arange(rows, dtype=np.uint8) % 8, np.arange(cols, dtype=np.uint8) % 8) % 8
    pixels[hidden & (diagonal == 7)] = np.uint32(
        0xFF000000 | (MASK_HATCH.red() << 16) | (MASK_HATCH.green() << 8) | MASK_HATCH.blue()
    )


def hidden_path(hidden: np.ndarray) -> QtGui.QPainterPath | None:
    """Masked cells (bool [rows, cols]) as rectangles in cell units, one per run of a row;
    None when none is masked."""
    hidden = np.asarray(hidden, dtype=bool)
    if not hidden.any():
        return None
    path = QtGui.QPainterPath()
    padded = np.zeros((hidden.shape[0], hidden.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = hidden
    edges = np.diff(padded, axis=1)
    for r in np.flatnonzero(hidden.any(axis=1)):
        starts = np.flatnonzero(edges[r] == 1)
        ends = np.flatnonzero(edges[r] == -1)
        for a, b in zip(starts, ends):
            path.addRect(QtCore.QRectF(float(a), float(r), float(b - a), 1.0))
    return path
