"""Pictures of a zoomed region of a large matrix, at the plot's resolution, off the GUI thread.

A matrix larger than the display limit is drawn from a reduced picture (one block of cells
per pixel of a 256-pixel picture). Zoomed into, its region is drawn again from the whole
matrix (``explorer.appstate.display.region_picture``): every cell as it is once a cell has a
pixel, else blocks as small as the screen allows, aligned to multiples of their size; then
stretched to the plot's own pixels by the arithmetic that maps the mouse to a cell, so the
pixel under the mouse is the cell the hover names. A region of up to ``SYNC_CELLS`` cells is
drawn at once; a larger one (millions of cells take longer than a frame) is computed by the
canvas's ``RegionPictures`` on a thread of its own (the newest request per panel wins, an
outdated one stops early), and meanwhile the panel shows the crop of its reduced picture
with the last computed view laid over it where it still lies. An export computes its
picture at once (``picture_now``).
"""

from __future__ import annotations

import logging
import weakref
from dataclasses import dataclass

import numpy as np
from PySide6 import QtCore, QtGui

from explorer.appstate.display import reduce_blocks, region_picture
from explorer.appstate.matrix_zoom import Blocks, Region, blocks_for
from explorer.gui.heatmap.colours import colour_indices
from explorer.gui.heatmap.panel import HATCH_FROM_PX, MatrixPanel, hatch_lines, mask_pixels

# How a block of cells becomes one pixel: the largest weight (a sharp head stays visible),
# the visible share of a mask, the value of largest magnitude of a signed stage.
REDUCTION = {"weights": "max", "mask": "mean"}


def reduction(kind: str) -> str:
    return REDUCTION.get(kind, "maxabs")


SYNC_CELLS = 256 * 256  # a region of at most this many cells is drawn at once, on the GUI thread


@dataclass(frozen=True)
class View:
    """What a zoomed plot shows: the cells of ``region`` in ``width`` × ``height`` pixels
    of the device (the plot's size times the painter's scale)."""

    region: Region
    width: int
    height: int

    def blocks(self, shape: tuple[int, int]) -> Blocks:
        return blocks_for(self.region, *shape, self.height, self.width)


def pixel_cells(first: int, count: int, px: int) -> np.ndarray:
    """The cell of each of ``px`` pixels across ``count`` cells from ``first``: the cell at
    the pixel's near edge, by the same arithmetic as a mouse position's cell (figure.py
    PanelBox.cell_at), so the pixel under the mouse shows the cell the hover names."""
    return first + np.floor((np.arange(px, dtype=np.float64) / px) * count).astype(np.int64)


def _to_pixels(grid: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``grid`` [blocks] stretched to one value per pixel (rows, cols: each pixel's block,
    in order): runs of repeats, cheaper than indexing every pixel."""
    r0, c0 = int(rows[0]), int(cols[0])
    part = grid[r0 : int(rows[-1]) + 1, c0 : int(cols[-1]) + 1]
    part = np.repeat(part, np.bincount(rows - r0, minlength=part.shape[0]), axis=0)
    return np.repeat(part, np.bincount(cols - c0, minlength=part.shape[1]), axis=1)


@dataclass(frozen=True)
class RegionArrays:
    """What is computed (on the thread for a large region): the plot's pixels, each the
    colour of its cell (or of the block of cells it covers), and the fully masked blocks."""

    view: View
    blocks: Blocks
    argb: np.ndarray  # uint32 [height, width], QImage.Format_RGB32, masked cells hatched


def region_arrays(panel: MatrixPanel, view: View, should_stop=None) -> RegionArrays:
    """A zoomed view's pixels and hatching, from the panel's whole matrix and mask (numpy
    only: any thread may call it)."""
    blocks = view.blocks(panel.shape)
    region = view.region
    values = region_picture(panel.data, blocks, reduction(panel.kind), should_stop)
    coloured = panel.colours.argb[colour_indices(values, panel.levels)]
    hidden = _hidden_cells(panel, blocks)
    if hidden is not None:  # grey on the cells (or blocks), fewer than the pixels
        coloured = mask_pixels(coloured, hidden)
    rows = (pixel_cells(region.top, region.rows, view.height) - blocks.row0) // blocks.fr
    cols = (pixel_cells(region.left, region.cols, view.width) - blocks.col0) // blocks.fc
    argb = _to_pixels(coloured, rows, cols)
    if hidden is not None and min(view.width / region.cols, view.height / region.rows) >= HATCH_FROM_PX:
        hatch_lines(argb, _to_pixels(hidden, rows, cols))  # lines at the screen's pixels
    return RegionArrays(view, blocks, np.ascontiguousarray(argb, dtype=np.uint32))


def _hidden_cells(panel: MatrixPanel, blocks: Blocks) -> np.ndarray | None:
    """The blocks with no visible cell, from the whole mask (``visible``, or a ``hidden``
    of the matrix's own size); None when nothing is masked."""
    if panel.hidden_path is None:
        return None
    cells = (
        slice(blocks.row0, blocks.row0 + blocks.rows * blocks.fr),
        slice(blocks.col0, blocks.col0 + blocks.cols * blocks.fc),
    )
    if panel.visible is not None:
        hidden = ~np.asarray(panel.visible[cells], dtype=bool)
    elif np.shape(panel.hidden) == panel.shape:
        hidden = np.asarray(panel.hidden[cells], dtype=bool)
    else:
        return None
    return reduce_blocks(hidden, blocks.fr, blocks.fc, "all")


class RegionPicture:
    """A computed view, ready to paint."""

    def __init__(self, arrays: RegionArrays):
        self.view, self.blocks = arrays.view, arrays.blocks
        argb = arrays.argb
        rows, cols = argb.shape
        self.image = QtGui.QImage(argb.data, cols, rows, cols * 4, QtGui.QImage.Format.Format_RGB32)
        self.image._pixels = argb  # the QImage reads this buffer: keep it alive with the image


def picture_now(panel: MatrixPanel, view: View) -> RegionPicture:
    """The view's picture computed on the calling thread (an export, a small region)."""
    return RegionPicture(region_arrays(panel, view))


class _Wanted:
    """One panel's pictures: the one asked for, the last one ready."""

    def __init__(self):
        self.asked: View | None = None
        self.ready: RegionPicture | None = None


class RegionPictures(QtCore.QObject):
    """A canvas's zoomed pictures: ``get`` answers at once with a ready picture (a small
    region's is made at once), or None after asking the thread for one; ``ready`` is
    emitted when one arrives."""

    ready = QtCore.Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._bridge = None  # its thread starts with the first zoomed large matrix
        self._panels: weakref.WeakKeyDictionary[MatrixPanel, _Wanted] = weakref.WeakKeyDictionary()
        self._channels: set[str] = set()

    def get(self, slot: int, panel: MatrixPanel, view: View) -> RegionPicture | None:
        wanted = self._panels.get(panel)
        if wanted is None:
            wanted = self._panels[panel] = _Wanted()
        if wanted.ready is not None and wanted.ready.view == view:
            return wanted.ready
        if view.region.rows * view.region.cols <= SYNC_CELLS:
            wanted.asked, wanted.ready = view, picture_now(panel, view)
            return wanted.ready
        if wanted.asked != view:
            wanted.asked = view
            self._ask(f"panel {slot}", panel, view)
        return None

    def latest(self, panel: MatrixPanel) -> RegionPicture | None:
        """The panel's last ready picture (of another region, while its own is computed)."""
        wanted = self._panels.get(panel)
        return None if wanted is None else wanted.ready

    def busy(self) -> bool:
        return self._bridge is not None and self._bridge.busy()

    def _ask(self, channel: str, panel: MatrixPanel, view: View) -> None:
        if self._bridge is None:
            from explorer.gui.worker_bridge import WorkerBridge

            self._bridge = WorkerBridge(parent=self)
            executor = self._bridge.executor
            self.destroyed.connect(lambda *_: executor.shutdown(0.0))  # the thread ends with the canvas
        if channel not in self._channels:
            self._channels.add(channel)
            self._bridge.listen(channel, self._arrived)
        ref = weakref.ref(panel)

        def job(should_stop):
            return ref, region_arrays(panel, view, should_stop)

        self._bridge.submit(channel, job, cancellable=True)

    def _arrived(self, result) -> None:
        if not result.ok:  # a newer request stops an older one, which is never delivered
            logging.getLogger(__name__).warning("zoomed picture failed: %r", result.error)
            return
        ref, arrays = result.value
        panel = ref()
        wanted = None if panel is None else self._panels.get(panel)
        if wanted is None or wanted.asked != arrays.view:
            return
        wanted.ready = RegionPicture(arrays)
        self.ready.emit()
