"""One labelled heatmap: image, colour bar, token ticks, hover value, click, mask, selection.

A ``Heatmap`` lives inside a ``pg.GraphicsLayout`` (many heatmaps share one
GraphicsLayoutWidget, which is much cheaper than one widget each). Items are built
once and reused: an update only sets the image, levels, ticks and title.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

pg.setConfigOptions(imageAxisOrder="row-major", antialias=False, background="w", foreground="k")

# Colour-blind-safe defaults: blue-white-red diverging (centred at 0), cividis for weights.
DIVERGING = pg.colormap.get("CET-D1A")
SEQUENTIAL = pg.colormap.get("cividis")
LABEL_CHARS = 10

# What rows and columns of a matrix mean, for selection and linking:
#   "qk": rows are queries, columns are keys; "q": rows are queries, columns are features;
#   "k": rows are keys; "hq": rows are heads, columns are queries (entropy).
ROLES = ("qk", "q", "k", "hq")


def short_label(token: str, limit: int = LABEL_CHARS) -> str:
    return token if len(token) <= limit else token[: limit - 1] + "…"


def format_value(value) -> str:
    """The value as float32 holds it: the shortest text that reads back to the same number."""
    return str(np.float32(value))


def symmetric_levels(*arrays: np.ndarray) -> tuple[float, float]:
    peak = 0.0
    for a in arrays:
        finite = a[np.isfinite(a)]
        if finite.size:
            peak = max(peak, float(np.abs(finite).max()))
    peak = peak or 1.0
    # Round up to the next of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (× a power of ten): the colour
    # bar (and its axis picture, costly to regenerate) then stays the same across most edits,
    # and its end labels read cleanly.
    decade = 10 ** math.floor(math.log10(peak))
    nice = next(m for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if m * decade >= peak * (1 - 1e-9))
    peak = float(f"{nice * decade:.6g}")
    return (-peak, peak)


def hatch_image(hidden: np.ndarray, max_px: int = 1536) -> np.ndarray:
    """RGBA overlay: hidden cells grey with dark diagonal hatching, visible cells clear."""
    rows, cols = hidden.shape
    s = int(max(1, min(8, max_px // max(rows, cols, 1))))
    big = np.repeat(np.repeat(hidden, s, axis=0), s, axis=1)
    rgba = np.zeros(big.shape + (4,), dtype=np.ubyte)
    rgba[big] = (170, 170, 170, 235)
    if s >= 4:
        yy, xx = np.indices(big.shape)
        stripe = big & (((xx + yy) % s) < max(1, s // 4))
        rgba[stripe] = (70, 70, 70, 255)
    return rgba


class _CellImage(pg.ImageItem):
    """An ImageItem that reports the cell under the mouse and clicks on it."""

    def __init__(self, owner: Heatmap):
        super().__init__(axisOrder="row-major")
        self._owner = owner
        self.setAcceptHoverEvents(True)

    def _cell(self, pos: QtCore.QPointF) -> tuple[int, int] | None:
        if self.image is None:
            return None
        r, c = int(math.floor(pos.y())), int(math.floor(pos.x()))
        rows, cols = self.image.shape[:2]
        full = self._owner.data.shape if self._owner.data is not None else (rows, cols)
        if (rows, cols) != tuple(full[:2]):  # a reduced image: pixels -> matrix cells
            r = int(math.floor(pos.y() * full[0] / rows))
            c = int(math.floor(pos.x() * full[1] / cols))
            rows, cols = full[:2]
        return (r, c) if 0 <= r < rows and 0 <= c < cols else None

    def hoverEvent(self, ev):  # noqa: N802 (pyqtgraph's name)
        if ev.isExit():
            self._owner.hover_cell(None)
            return
        self._owner.hover_cell(self._cell(ev.pos()))

    def mouseClickEvent(self, ev):  # noqa: N802
        if ev.button() != QtCore.Qt.MouseButton.LeftButton:
            return
        cell = self._cell(ev.pos())
        if cell is not None:
            ev.accept()
            self._owner.click_cell(*cell)


class TokenAxis(pg.AxisItem):
    """Token (or index) tick labels painted straight in one pass.

    pyqtgraph's AxisItem regenerates a QPicture (text measuring, draw specs) whenever its
    ticks or range change: about 1-2 ms per axis, the costliest part of a live update.
    Here ``setTicks`` only stores the labels (and resizes the axis when the widest label
    needs a different width), and ``paint`` draws them with a handful of QPainter calls.
    """

    def __init__(self, orientation: str, **kwargs):
        super().__init__(orientation, **kwargs)
        self.enableAutoSIPrefix(False)  # no SI label to update on every range change
        # Qt keeps the painted labels as a pixmap until they change: a repaint is a blit.
        self.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._labels: list[tuple[float, str]] = []
        self._extent = -1
        self._overhang = 0.0  # how far a bottom label may reach past either end of the axis

    def setTicks(self, ticks):  # noqa: N802 (pyqtgraph's name)
        self._labels = list(ticks[0]) if ticks else []
        metrics = QtGui.QFontMetricsF(self._font())
        self._widths = [metrics.horizontalAdvance(t) for _, t in self._labels]
        self._fit()
        self.update()

    def setStyle(self, **kwargs):  # noqa: N802
        super().setStyle(**kwargs)
        if hasattr(self, "_labels"):
            self._extent = -1
            self._fit()

    def _font(self) -> QtGui.QFont:
        return self.style.get("tickFont") or QtGui.QFont()

    def _fit(self) -> None:
        """Reserve room for the labels; quantised so that small changes never relayout."""
        metrics = QtGui.QFontMetricsF(self._font())
        if self.orientation in ("left", "right"):
            widest = max(getattr(self, "_widths", None) or [0.0])
            extent = int(math.ceil((widest + 8) / 8.0)) * 8
            if extent != self._extent:
                self._extent = extent
                self.setWidth(extent)
        else:
            extent = int(math.ceil(metrics.height() + 6))
            if extent != self._extent:
                self._extent = extent
                self.setHeight(extent)
            # A label is centred on its cell: the first and last may be wider than their cell
            # ("[CLS]" on a narrow first column). Paint them whole, into the empty corners
            # beside the axis (pyqtgraph's bounding rect ends at the axis, clipping them).
            overhang = min(max(getattr(self, "_widths", None) or [0.0]) / 2 + 2, self.MAX_OVERHANG)
            if overhang != self._overhang:
                self.prepareGeometryChange()
                self._overhang = overhang

    MAX_OVERHANG = 80.0

    def boundingRect(self):  # noqa: N802
        rect = super().boundingRect()
        overhang = getattr(self, "_overhang", 0.0)  # (pyqtgraph asks while constructing)
        if self.orientation in ("bottom", "top") and overhang > 0:
            rect = rect.adjusted(-overhang, 0, overhang, 0)
        return rect

    def setRange(self, mn, mx):  # noqa: N802
        if math.isfinite(mn) and math.isfinite(mx):
            self.range = [mn, mx]
            self.update()

    def paint(self, p, opt, widget):
        view = self.linkedView()
        rect = self.boundingRect()
        if view is None:
            return
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
        p.setPen(self.pen())
        vertical = self.orientation in ("left", "right")
        geo = self.rect()
        if self.orientation == "left":
            p.drawLine(QtCore.QLineF(geo.right(), geo.top(), geo.right(), geo.bottom()))
        elif self.orientation == "bottom":
            p.drawLine(QtCore.QLineF(geo.left(), geo.top(), geo.right(), geo.top()))
        if not self._labels:
            return
        # View coordinates -> this item's: a linear map, found from two points.
        a = self.mapFromScene(view.mapViewToScene(QtCore.QPointF(0.0, 0.0)))
        b = self.mapFromScene(view.mapViewToScene(QtCore.QPointF(1.0, 1.0)))
        p.setFont(self._font())
        metrics = QtGui.QFontMetricsF(self._font())
        line_h, ascent = metrics.height(), metrics.ascent()
        widths = getattr(self, "_widths", None) or [metrics.horizontalAdvance(t) for _, t in self._labels]
        # ticks first (one pen), then every label (another pen): two pen changes in all
        spots = []
        ticks = []
        for (value, text), w in zip(self._labels, widths):
            if vertical:
                y = a.y() + value * (b.y() - a.y())
                if rect.top() - line_h <= y <= rect.bottom() + line_h:
                    ticks.append(QtCore.QLineF(geo.right() - 3, y, geo.right(), y))
                    spots.append((QtCore.QPointF(geo.right() - 5 - w, y - line_h / 2 + ascent), text))
            else:
                x = a.x() + value * (b.x() - a.x())
                if rect.left() - w <= x <= rect.right() + w:
                    ticks.append(QtCore.QLineF(x, geo.top(), x, geo.top() + 3))
                    left = min(max(x - w / 2, rect.left()), rect.right() - w)  # whole, never clipped
                    spots.append((QtCore.QPointF(left, geo.top() + 3 + ascent), text))
        p.drawLines(ticks)
        p.setPen(self.textPen())
        for point, text in spots:
            p.drawText(point, text)


def cell_value_text(value: float, unit: bool = False) -> str:
    """A cell's value as printed on it: two decimals; ``unit`` (values in [0, 1], such as
    weights) drops the leading zero, ".07", and writes the ends as "0" and "1", so that
    the values fit cells a third narrower at the same font size."""
    text = f"{value:.2f}"
    if not unit:
        return text
    if text in ("0.00", "-0.00"):
        return "0"
    if text == "1.00":
        return "1"
    return text[1:] if text.startswith("0.") else text


class ValueLabels(pg.GraphicsObject):
    """Every cell's value as text, drawn in one paint pass (never one item per cell)."""

    MIN_CELL_PX = 20
    MAX_CELLS = 64 * 64

    def __init__(self):
        super().__init__()
        self._data: np.ndarray | None = None
        self.setZValue(8)
        self.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)
        self._font = QtGui.QFont()
        self._font.setPointSizeF(7)
        self.unit = False  # values in [0, 1]: the short format of cell_value_text
        self.painted = False  # whether the last paint wrote the values (their cells were large enough)
        self._measure()
        self._colours: tuple | None = None  # (colour map, levels): text contrasts with its cell

    def _measure(self) -> None:
        metrics = QtGui.QFontMetricsF(self._font)
        self._text_w = metrics.horizontalAdvance(".00" if self.unit else "-0.00") + 4
        # digits need their ink height (cap height), not the line height with its leading
        self._text_h = metrics.capHeight() + 4

    def set_font(self, font: QtGui.QFont) -> None:
        self._font = QtGui.QFont(font)
        self._measure()
        self.update()

    def set_unit(self, unit: bool) -> None:
        if unit != self.unit:
            self.unit = unit
            self._measure()
            self.update()

    def set_colours(self, cmap, levels: tuple[float, float]) -> None:
        self._colours = (cmap, levels)

    def _pen_for(self, v: float) -> QtGui.QColor:
        if self._colours is None:
            return QtGui.QColor(255, 255, 255) if abs(v) > 0.55 else QtGui.QColor(0, 0, 0)
        cmap, (lo, hi) = self._colours
        x = 0.5 if hi <= lo else min(max((float(v) - lo) / (hi - lo), 0.0), 1.0)
        r, g, b = cmap.map(x, mode="byte")[:3]
        return (
            QtGui.QColor(0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else QtGui.QColor(255, 255, 255)
        )

    def set_data(self, data: np.ndarray | None) -> None:
        self.prepareGeometryChange()
        self._data = data if data is not None and data.size <= self.MAX_CELLS else None
        self.update()

    def boundingRect(self):  # noqa: N802
        if self._data is None:
            return QtCore.QRectF()
        rows, cols = self._data.shape
        return QtCore.QRectF(-0.5, -0.5, cols, rows)

    def paint(self, p: QtGui.QPainter, *args):
        if self._data is None:
            self.painted = False
            return
        tr = p.transform()
        origin, one = tr.map(QtCore.QPointF(0, 0)), tr.map(QtCore.QPointF(1, 1))
        cw, ch = abs(one.x() - origin.x()), abs(one.y() - origin.y())
        self.painted = cw >= max(self.MIN_CELL_PX, self._text_w) and ch >= max(11, self._text_h)
        if not self.painted:
            return  # the values would not fit their cells: unreadable, so not drawn
        p.save()
        p.resetTransform()
        p.setFont(self._font)
        rows, cols = self._data.shape
        for r in range(rows):
            for c in range(cols):
                v = self._data[r, c]
                centre = tr.map(QtCore.QPointF(c, r))
                rect = QtCore.QRectF(centre.x() - cw / 2, centre.y() - ch / 2, cw, ch)
                p.setPen(self._pen_for(v))
                p.drawText(rect, QtCore.Qt.AlignmentFlag.AlignCenter, cell_value_text(v, self.unit))
        p.restore()


class Heatmap(QtCore.QObject):
    """A labelled matrix plot inside a GraphicsLayout."""

    selected = QtCore.Signal(int, int)  # (query i, key j); -1 where the click says nothing
    hovered = QtCore.Signal(str)
    clicked = QtCore.Signal(int, int)  # the raw (row, col) of this matrix

    def __init__(
        self,
        layout: pg.GraphicsLayout,
        row: int,
        col: int,
        *,
        colorbar: bool = True,
        title_size: str = "9pt",
        tick_font_pt: float = 8.0,
    ):
        super().__init__()
        self.plot: pg.PlotItem = layout.addPlot(
            row=row, col=col, axisItems={"left": TokenAxis("left"), "bottom": TokenAxis("bottom")}
        )
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self._title_size = title_size
        # A LabelItem demands its whole text width as minimum; in a narrow window the title
        # is clipped instead of pushing the plots out of view.
        label = self.plot.titleLabel
        full_update_min = label.updateMin

        def update_min():
            full_update_min()
            label.setMinimumWidth(20)

        label.updateMin = update_min
        vb = self.plot.getViewBox()
        vb.setMouseEnabled(x=False, y=False)
        vb.invertY(True)
        vb.setDefaultPadding(0.0)
        font = QtGui.QFont()
        font.setPointSizeF(tick_font_pt)
        self._metrics = QtGui.QFontMetricsF(font)
        for name in ("left", "bottom"):
            axis = self.plot.getAxis(name)
            axis.setStyle(tickFont=font, tickLength=-3, autoExpandTextSpace=True)
        for name in ("top", "right"):  # hidden, but linked: no SI label to re-typeset per range change
            self.plot.getAxis(name).enableAutoSIPrefix(False)
        self.image = _CellImage(self)
        self.plot.addItem(self.image)
        self.overlay = pg.ImageItem(axisOrder="row-major")
        self.overlay.setZValue(5)
        self.overlay.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)
        self.overlay.setAcceptHoverEvents(False)
        self.plot.addItem(self.overlay)
        self.values = ValueLabels()
        self.plot.addItem(self.values)
        self.row_band = self._band()
        self.col_band = self._band()
        self.bar: pg.ColorBarItem | None = None
        if colorbar:
            self.bar = pg.ColorBarItem(
                values=(0, 1), colorMap=SEQUENTIAL, interactive=False, width=10, colorMapMenu=False
            )
            self.bar.setImageItem(self.image, insert_in=self.plot)
            self.bar.axis.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
            for axis in self.bar.axes.values():
                axis["item"].enableAutoSIPrefix(False)
        else:
            self.image.setColorMap(SEQUENTIAL)
        vb.sigResized.connect(self._apply_ticks)
        # what is shown
        self.data: np.ndarray | None = None
        self.role = "qk"
        self.rows: list[str] = []
        self.cols: list[str] | None = None
        self.levels: tuple[float, float] = (0.0, 1.0)
        self.title = ""
        self.kind = "weights"
        self.show_values = False
        self.row_ticks: list[tuple[int, str]] = []
        self.col_ticks: list[tuple[int, str]] = []
        self.selection: tuple[int, int] | None = None
        self.reduced = False  # the image is a reduced picture of a large matrix
        self._shown_ticks: tuple[list, list] = ([], [])
        self._shown_shape: tuple[int, int] | None = None

    def _band(self) -> QtWidgets.QGraphicsRectItem:
        band = QtWidgets.QGraphicsRectItem()
        band.setPen(QtGui.QPen(QtGui.QColor(230, 120, 0), 0))
        band.setBrush(QtGui.QBrush(QtGui.QColor(255, 170, 0, 55)))
        band.setZValue(10)
        band.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)
        band.setVisible(False)
        self.plot.addItem(band)
        return band

    # -- data -------------------------------------------------------------------
    def set_matrix(
        self,
        data: np.ndarray,
        rows: list[str],
        cols: list[str] | None,
        *,
        title: str,
        kind: str = "diverging",
        role: str = "qk",
        levels: tuple[float, float] | None = None,
        hidden: np.ndarray | None = None,
        display: np.ndarray | None = None,
    ) -> None:
        """Show ``data`` [rows × cols]; ``cols`` None means numbered feature columns.

        kind: "diverging" (centred at 0), "weights" (fixed 0..1) or "mask" (0/1).
        hidden: bool, True where the cell is masked (drawn hatched), at the image's resolution.
        display: a reduced picture of a large ``data`` (explorer.compute.reduce_for_display),
        drawn over the same cells; hover and clicks still read ``data``.
        """
        data = np.asarray(data)
        self.data, self.rows, self.cols, self.role = data, rows, cols, role
        picture = data if display is None else np.asarray(display)
        self.reduced = picture.shape != data.shape
        if levels is None:
            levels = (0.0, 1.0) if kind in ("weights", "mask") else symmetric_levels(picture)
        self.levels = (float(levels[0]), float(levels[1]))
        shown = np.nan_to_num(
            picture.astype(np.float32, copy=False), nan=0.0, posinf=self.levels[1], neginf=self.levels[0]
        )
        if kind != self.kind:
            cmap = SEQUENTIAL if kind in ("weights", "mask") else DIVERGING
            if self.bar is not None:
                self.bar.setColorMap(cmap)
            else:
                self.image.setColorMap(cmap)
            self.kind = kind
        self.image.setImage(shown, levels=self.levels, autoLevels=False)
        n_rows, n_cols = data.shape
        rect = QtCore.QRectF(-0.5, -0.5, n_cols, n_rows)
        self.image.setRect(rect)
        if self.bar is not None and tuple(self.bar.levels()) != self.levels:
            self.bar.setLevels(self.levels)
        if hidden is not None and hidden.any():
            self.overlay.setImage(hatch_image(hidden), levels=None, autoLevels=False)
            self.overlay.setRect(rect)
            self.overlay.setVisible(True)
        else:
            self.overlay.setVisible(False)
        self.values.set_colours(SEQUENTIAL if kind in ("weights", "mask") else DIVERGING, self.levels)
        self.values.set_unit(kind in ("weights", "mask") and self.levels == (0.0, 1.0))
        self.values.set_data(shown if self.show_values and not self.reduced else None)
        if self._shown_shape != (n_rows, n_cols):
            vb = self.plot.getViewBox()
            vb.setLimits(xMin=-0.5, xMax=n_cols - 0.5, yMin=-0.5, yMax=n_rows - 0.5)
            vb.setRange(xRange=(-0.5, n_cols - 0.5), yRange=(-0.5, n_rows - 0.5), padding=0)
            self._shown_shape = (n_rows, n_cols)
        if title != self.title:
            self.set_title(title)
        self._apply_ticks()
        self._place_bands()

    def set_title(self, title: str, color: str | None = None, bold: bool = False) -> None:
        self.title = title
        self.plot.setTitle(title, size=self._title_size, color=color, bold=bold)

    def set_style(self, font_px: int, theme=None) -> None:
        """Tick, title and cell-value fonts in pixels, and the axes' colours from a theme."""
        font = QtGui.QFont()
        font.setPixelSize(int(font_px))
        self._metrics = QtGui.QFontMetricsF(font)
        self._title_size = f"{int(font_px)}px"
        fg = theme.plot_fg if theme is not None else pg.getConfigOption("foreground")
        axes = [self.plot.getAxis("left"), self.plot.getAxis("bottom")]
        if self.bar is not None and getattr(self.bar, "axis", None) is not None:
            axes.append(self.bar.axis)
        for axis in axes:
            axis.setStyle(tickFont=font)
            axis.setPen(fg)
            axis.setTextPen(fg)
        self.values.set_font(font)
        self.plot.setTitle(self.title, size=self._title_size, color=fg)
        self._shown_ticks = ([], [])
        self._apply_ticks()

    def set_show_values(self, show: bool) -> None:
        self.show_values = show
        if self.data is not None:
            self.values.set_data(self.image.image if show and not self.reduced else None)

    def _apply_ticks(self, *_):
        if self.data is None:
            return
        vb = self.plot.getViewBox()
        n_rows, n_cols = self.data.shape
        height, width = max(vb.height(), 1.0), max(vb.width(), 1.0)
        key = (id(self._metrics), n_rows, n_cols, round(height), round(width))
        src = getattr(self, "_tick_src", (None, None))
        if (
            key == getattr(self, "_tick_key", None)
            and src[0] is self.rows
            and src[1] is self.cols
            and self._shown_ticks != ([], [])
        ):
            return  # the same token lists in the same room: nothing to redo
        self._tick_key, self._tick_src = key, (self.rows, self.cols)
        line = self._metrics.height() + 1
        row_step = max(1, math.ceil(n_rows * line / height))
        self.row_ticks = [
            (i, short_label(self.rows[i])) for i in range(0, min(n_rows, len(self.rows)), row_step)
        ]
        if self.cols is not None:
            if n_cols <= 256:
                col_labels = [short_label(t) for t in self.cols]
                widest = max((self._metrics.horizontalAdvance(t) for t in col_labels), default=10) + 6
            else:  # thousands of tokens: size by the longest label, measure only those shown
                widest = self._metrics.averageCharWidth() * LABEL_CHARS * 1.3 + 6
                col_labels = self.cols
        else:
            widest = self._metrics.horizontalAdvance(str(n_cols)) + 10
        col_step = max(1, math.ceil(n_cols * widest / width))
        if self.cols is None:  # feature columns: round steps (1, 2, 4, 8, ... or 5, 10, 50, ...)
            col_step = next(s for s in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096) if s >= col_step)
            self.col_ticks = [(j, str(j)) for j in range(0, n_cols, col_step)]
        else:
            self.col_ticks = [
                (j, short_label(col_labels[j])) for j in range(0, min(n_cols, len(col_labels)), col_step)
            ]
        # Only touch an axis whose ticks changed: regenerating an axis picture is the
        # costliest part of a repaint (measured: about 2 ms per axis).
        if self.row_ticks != self._shown_ticks[0]:
            self.plot.getAxis("left").setTicks([self.row_ticks])
        if self.col_ticks != self._shown_ticks[1]:
            self.plot.getAxis("bottom").setTicks([self.col_ticks])
        self._shown_ticks = (list(self.row_ticks), list(self.col_ticks))

    # -- selection --------------------------------------------------------------
    def _matrix_cell(self, i: int | None, j: int | None) -> tuple[int | None, int | None]:
        """(query i, key j) -> (row, col) of this matrix, None where it has no such axis."""
        if self.role == "qk":
            return i, j
        if self.role == "q":
            return i, None
        if self.role == "k":
            return j, None
        return None, i  # "hq": columns are queries

    def set_selection(self, cell: tuple[int, int] | None) -> None:
        self.selection = cell
        self._place_bands()

    def _place_bands(self) -> None:
        if self.data is None or self.selection is None:
            self.row_band.setVisible(False)
            self.col_band.setVisible(False)
            return
        n_rows, n_cols = self.data.shape
        r, c = self._matrix_cell(*self.selection)
        if r is not None and 0 <= r < n_rows:
            self.row_band.setRect(QtCore.QRectF(-0.5, r - 0.5, n_cols, 1))
            self.row_band.setVisible(True)
        else:
            self.row_band.setVisible(False)
        if c is not None and 0 <= c < n_cols:
            self.col_band.setRect(QtCore.QRectF(c - 0.5, -0.5, 1, n_rows))
            self.col_band.setVisible(True)
        else:
            self.col_band.setVisible(False)

    # -- mouse ------------------------------------------------------------------
    def cell_text(self, r: int, c: int) -> str:
        row = self.rows[r] if r < len(self.rows) else str(r)
        col = self.cols[c] if self.cols is not None else f"dim {c}"
        value = self.data[r, c]
        if self.kind == "mask":
            return f"{row}, {col}: {'visible' if value else 'hidden (masked)'}"
        return f"{row}, {col}: {format_value(value)}"

    def hover_cell(self, cell: tuple[int, int] | None) -> None:
        if cell is None or self.data is None:
            self.hovered.emit("")
            return
        self.hovered.emit(f"{self.title.split('  [')[0]} — {self.cell_text(*cell)}")

    def click_cell(self, r: int, c: int) -> None:
        self.clicked.emit(r, c)
        if self.role == "qk":
            self.selected.emit(r, c)
        elif self.role == "q":
            self.selected.emit(r, -1)
        elif self.role == "k":
            self.selected.emit(-1, r)
        else:
            self.selected.emit(c, -1)
