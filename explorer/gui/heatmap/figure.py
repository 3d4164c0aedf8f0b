"""A figure: matrix panels in a grid, laid out and painted with one QPainter.

The same code paints a canvas on screen, a PNG and an SVG: ``paint_figure(painter, rect,
figure, style)`` needs no widget, so any stage can be exported whether it is on screen or
not. Every panel of a figure gets the same room (title band, label margins, colour bar),
so panels of the same shape have plots of the same size and label the same tokens.

A figure's ``zoom`` shows part of its (query, key) panels: the same plots, the cells of the
region drawn large and their tokens labelled by the same rules, in the room the whole
matrix's labels take (so zooming never moves a plot). A large matrix's region is drawn from
the whole matrix (zoom.py), never from its reduced picture once its own is ready.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from PySide6 import QtCore, QtGui

from explorer.appstate.matrix_zoom import Region, clamp
from explorer.gui.heatmap import labels as axis
from explorer.gui.heatmap.colours import ColourMap, colour_indices
from explorer.gui.heatmap.panel import HATCH_FROM_PX, MASK_FILL, MASK_HATCH, MatrixPanel, cell_value_text
from explorer.gui.heatmap.zoom import RegionPicture, RegionPictures, View, picture_now
from explorer.gui.i18n import translate

BAR_PX = 10  # colour bar width
TICK_PX = 3
PAD_PX = 4
SELECTION_PEN = QtGui.QColor(230, 120, 0)
SELECTION_FILL = QtGui.QColor(255, 170, 0, 55)
MIN_VALUE_CELL_PX = 20
MIN_VALUE_FONT_PX = 11  # values printed smaller than this are not read from a room's back


@dataclass(frozen=True)
class Style:
    """Fonts and colours of a figure (the theme's, at the view's text size)."""

    font: QtGui.QFont
    fg: QtGui.QColor
    bg: QtGui.QColor
    accent: QtGui.QColor
    frame: QtGui.QColor
    # the smallest a short axis's labels shrink to, to label every token; a figure at a
    # projector may ask for more (a row that has no room for it labels every other token)
    least_label_px: int = axis.MIN_LABEL_PX

    @staticmethod
    def make(font_px: int, fg="#000000", bg="#ffffff", accent="#d55e00", frame="#b0b0b0") -> Style:
        font = QtGui.QFont()
        font.setPixelSize(max(6, int(font_px)))
        return Style(font, QtGui.QColor(fg), QtGui.QColor(bg), QtGui.QColor(accent), QtGui.QColor(frame))

    @property
    def labels(self) -> axis.LabelFont:
        key = (self.font.key(), self.least_label_px)
        cached = _FONTS.get(key)
        if cached is None:
            cached = _FONTS[key] = axis.LabelFont(self.font, self.least_label_px)
        return cached


_FONTS: dict[tuple[str, int], axis.LabelFont] = {}


@dataclass(frozen=True)
class Mark:
    """A frame around a panel (the selected head, the lesson's stage) and its title's colour."""

    colour: QtGui.QColor
    width: int = 3


@dataclass(frozen=True)
class Outline:
    """A frame around one data cell (the class's guess, the real answer), or a block of
    ``rows`` × ``cols`` cells from it (a head's columns), in its own colour."""

    row: int
    col: int
    colour: QtGui.QColor
    width: int = 4
    rows: int = 1
    cols: int = 1


@dataclass
class Figure:
    """What a canvas shows. ``visible``: indices of the panels laid out (None: all)."""

    panels: list[MatrixPanel] = field(default_factory=list)
    columns: int = 1
    shared_bar: bool = False  # one colour bar for all panels (they share levels and map)
    bars: bool = True  # a colour bar beside each panel (when not shared)
    axes: bool = True  # token / index labels
    col_headers: list[str] | None = None  # above each column of the grid
    short_col_headers: list[str] | None = None  # instead, when a header does not fit its column
    row_headers: list[str] | None = None  # left of each row
    visible: list[int] | None = None
    selection: tuple[int, int] | None = None  # (query i, key j)
    marks: dict[int, Mark] = field(default_factory=dict)
    show_values: bool = False
    outlines: dict[int, tuple[Outline, ...]] = field(default_factory=dict)  # panel -> framed cells
    shared_axes: bool = False  # panels of one shape: row labels on the first column, columns at the bottom
    zoom: Region | None = None  # the cells its (query, key) panels show (None: all of them)
    zoomable: bool = False  # the canvas zooms and pans its (query, key) panels
    zoom_caption: bool = False  # a zoomed panel's title says which cells it shows (an export)

    def shown(self) -> list[int]:
        if self.visible is None:
            return list(range(len(self.panels)))
        return [i for i in self.visible if 0 <= i < len(self.panels)]

    def region_of(self, panel: MatrixPanel) -> Region | None:
        """The cells a panel shows when it is zoomed (None: all of them)."""
        if self.zoom is None or panel.role != "qk":
            return None
        return clamp(self.zoom, *panel.shape)


def zoom_caption(region: Region, shape: tuple[int, int]) -> str:
    """Which cells a zoomed (query, key) panel shows, for its title."""
    return translate("Heatmap", "queries {0}–{1} of {2}, keys {3}–{4} of {5}").format(
        region.top, region.bottom - 1, shape[0], region.left, region.right - 1, shape[1]
    )


@dataclass
class PanelBox:
    index: int
    slot: QtCore.QRectF
    title: QtCore.QRectF
    plot: QtCore.QRectF
    bar: QtCore.QRectF | None
    rows: axis.AxisLabels
    cols: axis.AxisLabels
    draw_rows: bool = True  # False: a shared axis labels these rows beside another panel
    draw_cols: bool = True
    row_band: float = 0.0  # room left of the plot for the row labels
    region: Region | None = None  # the cells shown, when zoomed
    title_text: str = ""  # the title as drawn
    col_band: float = 0.0  # room below the plot for the column labels
    labelled: bool = False  # the panels have room for axis labels

    def span(self, shape: tuple[int, int]) -> tuple[int, int, int, int]:
        """(first row, rows, first column, columns) of the cells the plot shows."""
        if self.region is None:
            return 0, shape[0], 0, shape[1]
        r = self.region
        return r.top, r.rows, r.left, r.cols

    def cell_rect(self, shape: tuple[int, int], row: int, col: int) -> QtCore.QRectF:
        """A data cell's rectangle on the canvas (outside the plot when it is not shown)."""
        r0, rows, c0, cols = self.span(shape)
        cw, ch = self.plot.width() / cols, self.plot.height() / rows
        return QtCore.QRectF(self.plot.left() + (col - c0) * cw, self.plot.top() + (row - r0) * ch, cw, ch)

    def cell_at(self, shape: tuple[int, int], pos: QtCore.QPointF) -> tuple[int, int] | None:
        """The data cell under a point of the plot."""
        plot = self.plot
        if plot.width() <= 0 or plot.height() <= 0:
            return None
        r0, rows, c0, cols = self.span(shape)
        fx, fy = (pos.x() - plot.left()) / plot.width(), (pos.y() - plot.top()) / plot.height()
        r, c = int(fy * rows), int(fx * cols)
        return (r0 + r, c0 + c) if 0 <= r < rows and 0 <= c < cols and fx >= 0 and fy >= 0 else None


@dataclass
class Layout:
    boxes: list[PanelBox]
    bar: QtCore.QRectF | None  # the shared colour bar
    col_headers: list[tuple[QtCore.QRectF, str]]
    row_headers: list[tuple[QtCore.QRectF, str]]

    def box_at(self, pos: QtCore.QPointF) -> PanelBox | None:
        for box in self.boxes:
            if box.plot.contains(pos):
                return box
        return None

    def panel_at(self, pos: QtCore.QPointF) -> PanelBox | None:
        for box in self.boxes:
            if box.slot.contains(pos):
                return box
        return None


class PaintCache:
    """Pictures a canvas reuses between paints: an axis's labels (all heads of a grid share
    them, so they are drawn once, not once per head) and the hatching of masked cells.
    Screen only: an exported SVG draws its text as text."""

    MAX = 96

    def __init__(self):
        self._images: dict[tuple, tuple[QtGui.QImage, tuple]] = {}

    def get(self, key: tuple, keep: tuple = ()):
        found = self._images.get(key)
        if found is None or any(a is not b for a, b in zip(found[1], keep)):
            return None
        return found[0]

    def put(self, key: tuple, image: QtGui.QImage, keep: tuple = ()) -> QtGui.QImage:
        if len(self._images) >= self.MAX:
            self._images.pop(next(iter(self._images)))
        self._images[key] = (image, keep)  # ``keep``: objects whose identity is part of the key
        return image

    def clear(self) -> None:
        self._images.clear()


def _font_key(labels: axis.AxisLabels) -> str:
    return "" if labels.font is None else labels.font.font.key()


def _cached_picture(painter, cache, key, keep, area: QtCore.QRectF, draw) -> None:
    """Draw ``draw(painter)`` (which paints inside ``area``) through a cached image."""
    if cache is None:
        draw(painter)
        return
    dpr = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
    key = (*key, round(area.width(), 2), round(area.height(), 2), dpr)
    image = cache.get(key, keep)
    if image is None:
        image = QtGui.QImage(
            max(1, math.ceil(area.width() * dpr)),
            max(1, math.ceil(area.height() * dpr)),
            QtGui.QImage.Format.Format_ARGB32_Premultiplied,
        )
        image.setDevicePixelRatio(dpr)
        image.fill(QtCore.Qt.GlobalColor.transparent)
        p = QtGui.QPainter(image)
        p.setFont(painter.font())
        p.setPen(painter.pen())
        p.translate(-area.left(), -area.top())
        draw(p)
        p.end()
        cache.put(key, image, keep)
    painter.drawImage(area.topLeft(), image)


def bar_labels(levels: tuple[float, float], kind: str) -> list[tuple[float, str]]:
    """The colour bar's labels: its ends and its middle (0 for a diverging map)."""
    lo, hi = levels
    values = (lo, (lo + hi) / 2, hi)
    return [(v, f"{v:.3g}" if abs(v) >= 1e-12 else "0") for v in values]


def _bar_text_width(figure: Figure, font: axis.LabelFont, indices: list[int]) -> float:
    widest = 0.0
    for i in indices:
        p = figure.panels[i]
        for _, text in bar_labels(p.levels, p.kind):
            widest = max(widest, font.width(text))
    return widest


def _strings(texts: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if texts is None else tuple(texts)


def layout_key(rect: QtCore.QRectF, figure: Figure, style: Style) -> tuple:
    """Everything ``layout_figure`` reads, as a key: figures with the same key have the same
    layout (a new translation's panels, of the same shapes, tokens and titles, reuse it);
    what is painted and never laid out (the cells' numbers, the selection, the marks, the
    colours) is not in it. The colour bars' labels take part only through their widest."""
    shown = figure.shown()
    bars = figure.bars or figure.shared_bar
    return (
        rect.getRect(),
        style.font.key(),
        tuple(shown),
        figure.columns,
        figure.shared_bar,
        figure.bars,
        figure.axes,
        figure.shared_axes,
        _strings(figure.col_headers),
        _strings(figure.short_col_headers),
        _strings(figure.row_headers),
        figure.zoom,
        figure.zoomable,
        figure.zoom_caption,
        _bar_text_width(figure, style.labels, shown) if bars else 0.0,
        tuple(
            (p.shape, _strings(p.rows), _strings(p.cols), p.role, _title_of(figure, p, figure.region_of(p)))
            for p in (figure.panels[i] for i in shown)
        ),
    )


def layout_figure(rect: QtCore.QRectF, figure: Figure, style: Style) -> Layout:
    """Where each panel, title, plot, colour bar and header goes, and which labels fit.

    With ``shared_axes`` the grid has one band of row labels (left of its first column) and
    one of column labels (under the last panel of each column): the panels share tokens,
    so the room is not spent once per panel."""
    font = style.labels
    line = font.line
    shown = figure.shown()
    if not shown:
        return Layout([], None, [], [])
    columns = max(1, min(figure.columns, len(shown)))
    n_rows = math.ceil(len(shown) / columns)
    left, top = rect.left(), rect.top()
    width, height = rect.width(), rect.height()
    shared_axes = figure.shared_axes

    header_h = line + PAD_PX if figure.col_headers else 0.0
    header_w = (
        max((font.width(t) for t in figure.row_headers), default=0.0) + 2 * PAD_PX
        if figure.row_headers
        else 0.0
    )
    shared_w = 0.0
    if figure.shared_bar:
        shared_w = BAR_PX + 2 * PAD_PX + TICK_PX + _bar_text_width(figure, font, shown) + PAD_PX

    panels = [figure.panels[i] for i in shown]
    bar_w = 0.0
    if figure.bars and not figure.shared_bar:
        bar_w = PAD_PX + BAR_PX + TICK_PX + PAD_PX + _bar_text_width(figure, font, shown)
    room_w = (width - header_w - shared_w) / columns
    room_h = (height - header_h) / n_rows
    if shared_axes:  # the bands are paid once: a smaller panel still takes labels
        label_room = figure.axes and room_w > 60 and room_h > 40
    else:
        label_room = figure.axes and room_w > 120 and room_h > 80
    if label_room:
        # panels of a grid share their tokens: each distinct axis measured once
        widest_row = max(axis.widest(font, rows, n) for rows, n in _distinct_axes(panels, 0))
        row_band = math.ceil(widest_row + TICK_PX + 2 * PAD_PX)
    else:
        row_band = PAD_PX
    grid_left = row_band if shared_axes else 0.0  # the one band of a shared axis
    slot_left = PAD_PX if shared_axes else row_band  # each slot's own
    slot_w = max(1.0, (width - header_w - shared_w - grid_left) / columns)
    plot_w = float(max(4, math.floor(slot_w - slot_left - bar_w - PAD_PX)))
    regions = {i: figure.region_of(p) for i, p in zip(shown, panels)}
    titles = {i: _title_of(figure, p, regions[i]) for i, p in zip(shown, panels)}
    # titles take a second line rather than lose their end (the shape, the head)
    bold = measures(_title_font(style, Mark(QtGui.QColor())))
    wrapped = {i: title_lines(titles[i], slot_w - 4, bold) for i in shown if titles[i]}
    lines = max((len(w) for w in wrapped.values()), default=0)
    title_h = lines * line + PAD_PX if lines else 0.0

    def column_labels(plot_w: float) -> dict:
        out, seen = {}, {}
        for i, p in zip(shown, panels):
            key = (_axis_key(p.cols, p.shape[1]), plot_w)
            if key not in seen:
                cell = plot_w / p.shape[1]
                if p.cols is None:
                    seen[key] = axis.numbered(font, p.shape[1], cell, vertical=False)
                else:
                    seen[key] = axis.token_columns(font, p.cols, cell)
            out[i] = seen[key]
        return out

    col_labels = column_labels(plot_w) if label_room else {}
    if shared_axes and columns > 1 and any(lab.rotated for lab in col_labels.values()):
        # upright labels are a line wide: the last of one panel and the first of the next
        # must not touch across the gap between them
        n = max(p.shape[1] for p in panels)
        for _ in range(2):
            gap = slot_w - plot_w
            want = line - plot_w / n + 1
            if gap >= want:
                break
            plot_w = float(max(4, math.floor(slot_w - want)))
            col_labels = column_labels(plot_w)
    col_band = PAD_PX
    top_pad = PAD_PX
    if label_room:
        extents = [
            (lab.extent if lab.rotated else lab.font_or(font).line) for lab in col_labels.values() if len(lab)
        ]
        if figure.zoomable or figure.zoom is not None:  # zoomed in, the labels may lie flat
            extents.append(line)
        col_band = math.ceil(max(extents, default=0.0) + TICK_PX + 2 * PAD_PX)
    if figure.shared_bar or bar_w:  # a colour bar's end labels reach half a line past the plot
        col_band = max(col_band, math.ceil(line / 2) + PAD_PX)
    if label_room or figure.shared_bar or bar_w:
        # the first row's label and the colour bar's top label reach half a line above the
        # plot: beside a title no wider than the plot, into its band; else into their own room
        widest = max((bold.horizontalAdvance(t) for w in wrapped.values() for t in w), default=math.inf)
        if not (title_h and widest <= plot_w):
            top_pad = math.ceil(line / 2)
    grid_bottom = col_band if shared_axes else 0.0
    slot_bottom = PAD_PX if shared_axes else col_band
    slot_h = max(1.0, (height - header_h - grid_bottom) / n_rows)
    plot_h = float(max(4, math.floor(slot_h - title_h - top_pad - slot_bottom)))

    boxes = []
    count = len(shown)
    row_labels: dict[tuple, axis.AxisLabels] = {}  # a grid's panels share their rows' labels
    # ... and a row of the grid the same plot top and height: the same last label cleared
    cleared: dict[tuple, axis.AxisLabels] = {}
    for k, (i, p) in enumerate(zip(shown, panels)):
        r, c = divmod(k, columns)
        sx, sy = left + header_w + grid_left + c * slot_w, top + header_h + r * slot_h
        slot = QtCore.QRectF(sx, sy, slot_w, slot_h)
        title = QtCore.QRectF(sx + 2, sy, slot_w - 4, title_h)
        # whole pixels: crisp cells, and pictures of shared axes fit every panel alike
        plot = QtCore.QRectF(round(sx + slot_left), round(sy + title_h + top_pad), plot_w, plot_h)
        bar = None
        if bar_w:
            bar = QtCore.QRectF(plot.right() + PAD_PX, plot.top(), BAR_PX, plot.height())
        rows_l = cols_l = axis.NO_LABELS
        region = regions[i]
        if label_room and region is None:
            n_r = p.shape[0]
            cell_h = plot_h / n_r
            row_key = _axis_key(p.rows, n_r)
            if row_key not in row_labels:
                row_labels[row_key] = (
                    axis.numbered(font, n_r, cell_h, True)
                    if p.rows is None
                    else axis.token_rows(font, p.rows, cell_h)
                )
            place = (row_key, plot.top(), plot.height())  # all _clear_last_row reads of the plot
            if place not in cleared:
                cleared[place] = _clear_last_row(plot, row_labels[row_key], 0, n_r, font)
            rows_l = cleared[place]
            cols_l = col_labels[i]
        draw_rows = not shared_axes or c == 0
        draw_cols = not shared_axes or k + columns >= count  # nothing below it in its column
        box = PanelBox(i, slot, title, plot, bar, rows_l, cols_l, draw_rows, draw_cols, row_band)
        box.title_text, box.col_band, box.labelled = titles[i], col_band, label_room
        boxes.append(box if region is None else zoom_box(box, p, region, font))

    shared = None
    if figure.shared_bar:
        x = left + header_w + grid_left + columns * slot_w + PAD_PX
        first, last = boxes[0].plot, boxes[min(len(boxes), columns * n_rows) - 1].plot
        shared = QtCore.QRectF(
            x, first.top(), BAR_PX, max(last.bottom(), boxes[-1].plot.bottom()) - first.top()
        )
    col_headers = []
    if figure.col_headers:
        texts = figure.col_headers
        if figure.short_col_headers and any(font.width(t) > plot_w for t in texts[:columns]):
            texts = figure.short_col_headers
        for c in range(columns):
            box = boxes[c] if c < len(boxes) else None
            if box is not None and c < len(texts):
                col_headers.append(
                    (QtCore.QRectF(box.plot.left(), top, box.plot.width(), header_h), texts[c])
                )
    row_headers = []
    if figure.row_headers:
        for r in range(n_rows):
            k = r * columns
            if k < len(boxes) and r < len(figure.row_headers):
                plot = boxes[k].plot
                row_headers.append(
                    (QtCore.QRectF(left, plot.top(), header_w - PAD_PX, plot.height()), figure.row_headers[r])
                )
    return Layout(boxes, shared, col_headers, row_headers)


def _axis_key(tokens: Sequence[str] | None, n: int) -> tuple:
    """One axis's identity for measuring its labels: the same list (a grid's panels share one),
    else its tokens."""
    return (n, None) if tokens is None else (n, tuple(tokens))


def _distinct_axes(panels: list[MatrixPanel], dim: int) -> list[tuple[Sequence[str] | None, int]]:
    seen: dict[tuple, tuple[Sequence[str] | None, int]] = {}
    for p in panels:
        tokens = p.rows if dim == 0 else p.cols
        seen.setdefault(_axis_key(tokens, p.shape[dim]), (tokens, p.shape[dim]))
    return list(seen.values())


def _title_of(figure: Figure, p: MatrixPanel, region: Region | None) -> str:
    if region is None or not figure.zoom_caption or not p.title:
        return p.title
    return f"{p.title}  {zoom_caption(region, p.shape)}"


def zoom_box(box: PanelBox, p: MatrixPanel, region: Region | None, font: axis.LabelFont) -> PanelBox:
    """A panel's box showing ``region`` (None: the whole matrix, as laid out): the same
    plot, the labels of the cells shown in the room of the whole matrix's labels."""
    if region is None:
        return box
    rows = cols = axis.NO_LABELS
    if box.labelled:
        rows, cols = _zoomed_labels(font, p, region, box.plot, box.row_band, box.col_band)
    return replace(box, region=region, rows=rows, cols=cols)


def rezoom(whole: Layout, figure: Figure, style: Style) -> Layout:
    """The layout of ``figure`` from the layout of the same figure unzoomed: only the
    zoomed panels' labels change (a title that names the zoom needs ``layout_figure``)."""
    font = style.labels
    boxes = [
        zoom_box(b, figure.panels[b.index], figure.region_of(figure.panels[b.index]), font)
        for b in whole.boxes
    ]
    return replace(whole, boxes=boxes)


def _zoomed_labels(
    font: axis.LabelFont,
    p: MatrixPanel,
    region: Region,
    plot: QtCore.QRectF,
    row_band: float,
    col_band: float,
) -> tuple[axis.AxisLabels, axis.AxisLabels]:
    """The labels of the cells a zoomed panel shows, in the room of the whole matrix's labels."""
    cell_h, cell_w = plot.height() / region.rows, plot.width() / region.cols
    row_span, col_span = range(region.top, region.bottom), range(region.left, region.right)
    if p.rows is None:
        rows = axis.numbered(font, p.shape[0], cell_h, True, row_span)
    else:
        rows = axis.token_rows(font, p.rows, cell_h, row_span, row_band - TICK_PX - 2 * PAD_PX)
    rows = _clear_last_row(plot, rows, region.top, region.rows, font)
    if p.cols is None:
        cols = axis.numbered(font, p.shape[1], cell_w, False, col_span)
    else:
        cols = axis.token_columns(font, p.cols, cell_w, col_span, col_band - TICK_PX - 2 * PAD_PX)
    return rows, cols


# -- painting ---------------------------------------------------------------------------------
def paint_figure(
    painter: QtGui.QPainter,
    rect: QtCore.QRectF,
    figure: Figure,
    style: Style,
    layout: Layout | None = None,
    cache: PaintCache | None = None,
    exposed: QtCore.QRectF | None = None,
    pictures: RegionPictures | None = None,
) -> Layout:
    """Paint the whole figure into ``rect``; returns the layout used (for hit testing).
    With a ``cache`` (a canvas on screen), axis labels and hatching are reused as pictures;
    with ``exposed``, panels outside that part (scrolled away) are not painted; with
    ``pictures`` (a canvas), zoomed regions of large matrices are computed off the GUI
    thread, else (an export) at once."""
    if layout is None:
        layout = layout_figure(rect, figure, style)
    painter.save()
    painter.fillRect(exposed if exposed is not None else rect, style.bg)
    painter.setRenderHint(QtGui.QPainter.RenderHint.SmoothPixmapTransform, False)
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
    painter.setFont(style.font)
    font = style.labels
    for box in layout.boxes:
        if exposed is None or paint_extent(box, figure, font).intersects(exposed):
            _paint_panel(painter, box, figure.panels[box.index], figure, style, font, cache, pictures)
    if layout.bar is not None and layout.boxes:
        p = figure.panels[layout.boxes[0].index]
        _paint_bar(painter, layout.bar, p.colours, p.levels, p.kind, style, font)
    painter.setPen(style.fg)
    for place in text_places(Layout([], None, layout.col_headers, layout.row_headers), figure, style):
        painter.drawText(QtCore.QPointF(place.rect.left(), place.rect.top() + font.ascent), place.text)
    painter.restore()
    return layout


def _row_label_area(box: PanelBox, font: axis.LabelFont) -> QtCore.QRectF:
    """Where a panel's row labels are painted (their picture's rectangle)."""
    plot = box.plot
    return QtCore.QRectF(
        plot.left() - box.row_band, plot.top() - font.line, box.row_band, plot.height() + 2 * font.line
    )


def _col_label_area(box: PanelBox, font: axis.LabelFont) -> QtCore.QRectF:
    """Where a panel's column labels are painted (their picture's rectangle)."""
    plot = box.plot
    extent = (box.cols.extent if box.cols.rotated else font.line) + TICK_PX + PAD_PX
    half = 0.0 if box.cols.rotated else max(box.cols.widths, default=0.0) / 2
    return QtCore.QRectF(
        plot.left() - font.line - half,
        plot.bottom(),
        plot.width() + 2 * (font.line + half),
        extent + PAD_PX,
    )


def paint_extent(box: PanelBox, figure: Figure, font: axis.LabelFont) -> QtCore.QRectF:
    """All a panel paints: its slot, and what reaches past it (a shared axis's labels left
    of the grid's first column, labels wider than their panel, a colour bar's labels, the
    lesson's frame). A repaint of part of a canvas paints the panels whose extent it meets."""
    area = QtCore.QRectF(box.slot)
    mark = figure.marks.get(box.index)
    grow = mark.width if mark is not None else 1.0
    area = area.united(box.plot.adjusted(-grow, -grow, grow, grow))
    if len(box.rows) and box.draw_rows:
        area = area.united(_row_label_area(box, font))
    if len(box.cols) and box.draw_cols:
        area = area.united(_col_label_area(box, font))
    if box.bar is not None:  # its labels (bar_label_places): half a line past its ends
        p = figure.panels[box.index]
        widest = max(font.width(text) for _, text in bar_labels(p.levels, p.kind))
        bar = box.bar
        area = area.united(
            QtCore.QRectF(
                bar.left() - 1,
                bar.top() - font.line / 2,
                bar.width() + TICK_PX + PAD_PX / 2 + widest + 2,
                bar.height() + font.line,
            )
        )
    return area


def _paint_panel(
    painter,
    box: PanelBox,
    p: MatrixPanel,
    figure: Figure,
    style: Style,
    font: axis.LabelFont,
    cache,
    pictures: RegionPictures | None = None,
) -> None:
    plot = box.plot
    mark = figure.marks.get(box.index)
    if box.title_text and box.title.height() > 0:
        _paint_title(painter, box, box.title_text, mark, style, font)
    r0, rows, c0, cols = box.span(p.shape)
    if box.region is None:  # cells, then the masked ones hatched
        painter.drawImage(plot, p.image)
        if p.hidden_path is not None:
            key = ("hatch", id(p.hidden), p.hidden.shape)
            whole = QtCore.QRectF(0, 0, p.hidden.shape[1], p.hidden.shape[0])
            _cached_picture(
                painter, cache, key, (p.hidden,), plot, lambda q: _paint_hatch(q, plot, p.hidden_path, whole)
            )
    else:
        painter.save()
        painter.setClipRect(plot)
        _paint_zoomed_cells(painter, box, p, pictures)
    cw, ch = plot.width() / cols, plot.height() / rows
    if figure.show_values and p.values_printable_in(None if box.region is None else (rows, cols)):
        _paint_values(painter, box, p, font)
    # selection bands
    r_sel, c_sel = p.matrix_cell(figure.selection)
    if r_sel is not None or c_sel is not None:
        painter.setPen(QtGui.QPen(SELECTION_PEN, 1))
        painter.setBrush(SELECTION_FILL)
        if r_sel is not None and r0 <= r_sel < r0 + rows:
            painter.drawRect(QtCore.QRectF(plot.left(), plot.top() + (r_sel - r0) * ch, plot.width(), ch))
        if c_sel is not None and c0 <= c_sel < c0 + cols:
            painter.drawRect(QtCore.QRectF(plot.left() + (c_sel - c0) * cw, plot.top(), cw, plot.height()))
        painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
    for o in figure.outlines.get(box.index, ()):
        if r0 <= o.row < r0 + rows and c0 <= o.col < c0 + cols:
            painter.setPen(QtGui.QPen(o.colour, o.width))
            painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            inset = o.width / 2
            cell = box.cell_rect(p.shape, o.row, o.col)
            cell.setWidth(cell.width() * o.cols)  # an outline may span a block of cells
            cell.setHeight(cell.height() * o.rows)
            painter.drawRect(cell.adjusted(inset, inset, -inset, -inset))
    if box.region is not None:
        painter.restore()  # the clip to the plot
    # frame
    if mark is not None:
        painter.setPen(QtGui.QPen(mark.colour, mark.width))
        painter.drawRect(plot.adjusted(-mark.width / 2, -mark.width / 2, mark.width / 2, mark.width / 2))
    else:
        painter.setPen(QtGui.QPen(style.frame, 1))
        painter.drawRect(plot.adjusted(-0.5, -0.5, 0.5, 0.5))
    # axes: panels that share an axis share its picture
    painter.setPen(style.fg)
    look = (style.font.key(), style.fg.rgba())
    if len(box.rows) and box.draw_rows:
        area = _row_label_area(box, font)
        key = ("rows", box.rows.indices, box.rows.texts, r0, rows, _font_key(box.rows), *look)
        _cached_picture(
            painter, cache, key, (), area, lambda q: _paint_row_labels(q, plot, box.rows, r0, rows, font)
        )
    if len(box.cols) and box.draw_cols:
        area = _col_label_area(box, font)
        key = (
            "cols",
            box.cols.indices,
            box.cols.texts,
            box.cols.rotated,
            c0,
            cols,
            _font_key(box.cols),
            *look,
        )
        _cached_picture(
            painter, cache, key, (), area, lambda q: _paint_col_labels(q, plot, box.cols, c0, cols, font)
        )
    if box.bar is not None:
        _paint_bar(painter, box.bar, p.colours, p.levels, p.kind, style, font)


def _title_font(style: Style, mark: Mark | None) -> QtGui.QFont:
    if mark is None:
        return style.font
    bold = QtGui.QFont(style.font)
    bold.setBold(True)
    return bold


class TextMeasures:
    """A font's QFontMetricsF answers, kept: a grid's titles are measured again and again while
    it is fitted (every column count tried) and painted — the same text in the same font, the
    same answer, asked of Qt once."""

    KEPT = 4096

    def __init__(self, font: QtGui.QFont):
        self.metrics = QtGui.QFontMetricsF(font)
        self._height, self._ascent = self.metrics.height(), self.metrics.ascent()
        self._advances: dict[str, float] = {}
        self._elided: dict[tuple, str] = {}

    def height(self) -> float:
        return self._height

    def ascent(self) -> float:
        return self._ascent

    def horizontalAdvance(self, text: str) -> float:  # QFontMetricsF's names: used in its place
        found = self._advances.get(text)
        if found is None:
            if len(self._advances) >= self.KEPT:
                self._advances.clear()
            found = self._advances[text] = self.metrics.horizontalAdvance(text)
        return found

    def elidedText(self, text: str, mode, width: float) -> str:
        key = (text, mode, width)
        found = self._elided.get(key)
        if found is None:
            if len(self._elided) >= self.KEPT:
                self._elided.clear()
            found = self._elided[key] = self.metrics.elidedText(text, mode, width)
        return found


_MEASURES: dict[str, TextMeasures] = {}


def measures(font: QtGui.QFont) -> TextMeasures:
    """The kept measures of ``font`` (by its key: every property that changes a width)."""
    key = font.key()
    found = _MEASURES.get(key)
    if found is None:
        found = _MEASURES[key] = TextMeasures(font)
    return found


TITLE_LINES = 2


def title_lines(
    title: str, width: float, metrics: QtGui.QFontMetricsF | TextMeasures, most: int = TITLE_LINES
) -> list[str]:
    """The title in at most ``most`` lines of ``width``: whole if it fits, else broken where
    its parts meet (two spaces: "formula  (head 3)  [15×32]"), a part wider than a line
    between its words (or its Chinese characters), the last line elided."""
    if metrics.horizontalAdvance(title) <= width or most <= 1:
        return [metrics.elidedText(title, QtCore.Qt.TextElideMode.ElideRight, width)]
    pieces: list[tuple[str, str]] = []  # (what joins it to the piece before, the piece)
    for part in (p for p in title.split("  ") if p):
        joins = "  " if pieces else ""
        if metrics.horizontalAdvance(part) <= width:
            pieces.append((joins, part))
            continue
        for k, (sep, word) in enumerate(_words(part)):
            pieces.append((joins if k == 0 else sep, word))
    lines: list[str] = []
    for sep, piece in pieces:
        if lines and metrics.horizontalAdvance(lines[-1] + sep + piece) <= width:
            lines[-1] += sep + piece
        elif len(lines) < most:
            lines.append(piece)
        else:
            lines[-1] += sep + piece
    return [metrics.elidedText(t, QtCore.Qt.TextElideMode.ElideRight, width) for t in lines]


_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
_WORD = re.compile(f"(\\s*)([{_CJK}]|[^\\s{_CJK}]+)")
_CLOSING = set("）)]】」，。：；、！？,.:;!?")  # never starts a line
_OPENING = set("（([【「")  # never ends one


def _words(text: str) -> list[tuple[str, str]]:
    """(separator, word) pairs a line may break between: words, and single Chinese
    characters, a closing bracket or mark kept with what it closes, an opening one with
    what it opens."""
    out: list[tuple[str, str]] = []
    for m in _WORD.finditer(text):
        sep, word = m.group(1), m.group(2)
        if out and not sep and (word[0] in _CLOSING or out[-1][1][-1] in _OPENING):
            out[-1] = (out[-1][0], out[-1][1] + word)
        else:
            out.append((sep, word))
    return out


def title_place(
    box: PanelBox, title: str, font: QtGui.QFont
) -> list[tuple[QtCore.QPointF, str, QtCore.QRectF]]:
    """Each line of the title: its baseline point, its text and its rectangle (centred over
    the plot, inside the panel)."""
    metrics = measures(font)
    most = max(1, round((box.title.height() - PAD_PX) / metrics.height()))
    out = []
    top = box.title.top() + PAD_PX / 2
    for text in title_lines(title, box.title.width(), metrics, most):
        width = metrics.horizontalAdvance(text)
        x = min(max(box.title.left(), box.plot.center().x() - width / 2), box.title.right() - width)
        out.append(
            (QtCore.QPointF(x, top + metrics.ascent()), text, QtCore.QRectF(x, top, width, metrics.height()))
        )
        top += metrics.height()
    return out


def _paint_title(
    painter, box: PanelBox, title: str, mark: Mark | None, style: Style, font: axis.LabelFont
) -> None:
    """The title, centred over the plot and never wider than the panel (elided)."""
    painter.setFont(_title_font(style, mark))
    painter.setPen(style.fg if mark is None else mark.colour)
    for point, text, _ in title_place(box, title, painter.font()):
        painter.drawText(point, text)
    if mark is not None:
        painter.setFont(style.font)


def _paint_hatch(painter, plot: QtCore.QRectF, path: QtGui.QPainterPath, source: QtCore.QRectF) -> None:
    """Masked cells hatched: ``path`` in the units of a grid (cells, or blocks of them),
    ``source`` the part of that grid the plot shows."""
    sx, sy = plot.width() / source.width(), plot.height() / source.height()
    transform = QtGui.QTransform(
        sx, 0, 0, sy, plot.left() - source.left() * sx, plot.top() - source.top() * sy
    )
    mapped = transform.map(path)
    painter.fillPath(mapped, MASK_FILL)  # in pixels: the hatching keeps its screen spacing
    if min(sx, sy) >= HATCH_FROM_PX:
        painter.fillPath(mapped, QtGui.QBrush(MASK_HATCH, QtCore.Qt.BrushStyle.BDiagPattern))


def _crop(grid: tuple[int, int], shape: tuple[int, int], region: Region) -> QtCore.QRectF:
    """A region of a matrix of ``shape`` in the units of a grid over it (its picture, its
    reduced mask, an image under it)."""
    gy, gx = grid[0] / shape[0], grid[1] / shape[1]
    return QtCore.QRectF(region.left * gx, region.top * gy, region.cols * gx, region.rows * gy)


def _paint_zoomed_cells(painter, box: PanelBox, p: MatrixPanel, pictures: RegionPictures | None) -> None:
    """The cells of a zoomed panel (the painter clips to the plot), drawn from the whole
    matrix at the plot's pixels (zoom.py). While a large region is computed, the crop of
    the reduced picture is shown with the last computed view over it, where it lies."""
    plot, region = box.plot, box.region
    image = p.image
    crop = _crop((image.height(), image.width()), p.shape, region)
    if p.background is not None:  # an image under the matrix: its crop
        painter.drawImage(plot, image, crop)
        return
    device = painter.device()
    scale = painter.worldTransform().m22() * (device.devicePixelRatioF() if device is not None else 1.0)
    view = View(region, max(1, round(plot.width() * scale)), max(1, round(plot.height() * scale)))
    ready = pictures.get(box.index, p, view) if pictures is not None else picture_now(p, view)
    if ready is not None:
        _paint_region_picture(painter, plot, region, ready)
        return
    painter.drawImage(plot, p.masked_image, crop)  # coarse, its masked blocks grey
    last = pictures.latest(p)
    if last is not None:
        _paint_region_picture(painter, plot, region, last)


def _paint_region_picture(painter, plot: QtCore.QRectF, region: Region, picture: RegionPicture) -> None:
    """A computed view where its cells are: filling the plot when it is of the region
    shown (one image pixel a screen pixel), else partly outside it (the painter clips)."""
    drawn = picture.view.region
    cw, ch = plot.width() / region.cols, plot.height() / region.rows
    target = QtCore.QRectF(
        plot.left() + (drawn.left - region.left) * cw,
        plot.top() + (drawn.top - region.top) * ch,
        drawn.cols * cw,
        drawn.rows * ch,
    )
    painter.drawImage(target, picture.image)  # masked cells hatched in it


def row_label_places(
    plot: QtCore.QRectF, labels: axis.AxisLabels, first: int, n: int, font: axis.LabelFont
) -> list[tuple[QtCore.QRectF, str, float]]:
    """Each row label's rectangle, its text and the y of its tick (rows ``first`` to
    ``first + n`` shown)."""
    ch = plot.height() / n
    font = labels.font_or(font)
    x_tick = plot.left() - TICK_PX
    low = plot.top() - font.line / 2
    high = plot.bottom() + PAD_PX - font.line
    out = []
    for index, text, w in zip(labels.indices, labels.texts, labels.widths):
        y = plot.top() + (index - first + 0.5) * ch
        top = min(max(y - font.line / 2, low), high)  # inside the label band, never under the title
        out.append((QtCore.QRectF(x_tick - PAD_PX / 2 - w, top, w, font.line), text, y))
    return out


def _clear_last_row(
    plot: QtCore.QRectF, labels: axis.AxisLabels, first: int, n: int, font: axis.LabelFont
) -> axis.AxisLabels:
    """Without the last label when, kept inside the label band at the plot's bottom, it
    would sit on the one before it."""
    places = row_label_places(plot, labels, first, n, font)
    if len(places) >= 2 and places[-1][0].top() < places[-2][0].bottom() - 0.01:
        return labels.without_last()
    return labels


def col_label_places(
    plot: QtCore.QRectF, labels: axis.AxisLabels, first: int, n: int, font: axis.LabelFont
) -> list[tuple[QtCore.QRectF, str, float]]:
    """Each column label's rectangle (upright, as it reads on screen), its text and the x of
    its tick. Rotated labels read upwards and end at the plot."""
    cw = plot.width() / n
    font = labels.font_or(font)
    y_tick = plot.bottom() + TICK_PX
    out = []
    for index, text, w in zip(labels.indices, labels.texts, labels.widths):
        x = plot.left() + (index - first + 0.5) * cw
        if labels.rotated:
            rect = QtCore.QRectF(x - font.line / 2, y_tick + PAD_PX / 2, font.line, w)
        else:
            rect = QtCore.QRectF(x - w / 2, y_tick + PAD_PX / 2, w, font.line)
        out.append((rect, text, x))
    return out


def _paint_row_labels(
    painter, plot: QtCore.QRectF, labels: axis.AxisLabels, first: int, n: int, font: axis.LabelFont
) -> None:
    if not len(labels):
        return
    places = row_label_places(plot, labels, first, n, font)
    painter.drawLines([QtCore.QLineF(plot.left() - TICK_PX, y, plot.left(), y) for _, _, y in places])
    own = labels.font_or(font)
    before = painter.font()
    painter.setFont(own.font)  # a short axis's own smaller font, where the figure's is too large
    for rect, text, _ in places:
        painter.drawText(QtCore.QPointF(rect.left(), rect.top() + own.ascent), text)
    painter.setFont(before)


def _paint_col_labels(
    painter, plot: QtCore.QRectF, labels: axis.AxisLabels, first: int, n: int, font: axis.LabelFont
) -> None:
    if not len(labels):
        return
    places = col_label_places(plot, labels, first, n, font)
    y_tick = plot.bottom() + TICK_PX
    painter.drawLines([QtCore.QLineF(x, plot.bottom(), x, y_tick) for _, _, x in places])
    own = labels.font_or(font)
    before = painter.font()
    painter.setFont(own.font)  # a short axis's own smaller font, where the figure's is too large
    if not labels.rotated:
        for rect, text, _ in places:
            painter.drawText(QtCore.QPointF(rect.left(), rect.top() + own.ascent), text)
    else:
        for rect, text, x in places:
            painter.save()
            painter.translate(x, rect.top())
            painter.rotate(-90)  # reads upwards; the label ends at the plot
            painter.drawText(QtCore.QPointF(-rect.height(), -own.line / 2 + own.ascent), text)
            painter.restore()
    painter.setFont(before)


def values_fit(plot: QtCore.QRectF, p: MatrixPanel, font: axis.LabelFont, cells=None) -> bool:
    """Whether a panel's values, printed in its cells, would be readable (else not drawn);
    ``cells``: (rows, columns) shown when zoomed."""
    return value_font(plot, p, font, cells) is not None


def _fits(plot: QtCore.QRectF, p: MatrixPanel, font: axis.LabelFont, rows: int, cols: int) -> bool:
    text_w = font.width(".00" if p.unit else "-0.00") + 4
    text_h = font.metrics.capHeight() + 4
    return plot.width() / cols >= max(MIN_VALUE_CELL_PX, text_w) and plot.height() / rows >= max(11, text_h)


def value_font(
    plot: QtCore.QRectF, p: MatrixPanel, font: axis.LabelFont, cells=None
) -> axis.LabelFont | None:
    """The font the values are printed in: the labels', or a smaller one down to
    MIN_VALUE_FONT_PX where the labels' is too wide for the cells (a projector's large font on
    a 15×15 matrix printed nothing while "values in cells" was on); None: none fits."""
    if not p.values_printable_in(cells):
        return None
    rows, cols = p.shape if cells is None else cells
    if _fits(plot, p, font, rows, cols):
        return font
    px = font.font.pixelSize() if font.font.pixelSize() > 0 else round(font.metrics.height() * 0.8)
    for size in range(px - 1, MIN_VALUE_FONT_PX - 1, -1):
        smaller = _smaller_font(font, size)
        if _fits(plot, p, smaller, rows, cols):
            return smaller
    return None


def _smaller_font(font: axis.LabelFont, px: int) -> axis.LabelFont:
    key = (font.font.key(), px)
    cached = _VALUE_FONTS.get(key)
    if cached is None:
        f = QtGui.QFont(font.font)
        f.setPixelSize(px)
        cached = _VALUE_FONTS[key] = axis.LabelFont(f)
    return cached


_VALUE_FONTS: dict[tuple[str, int], axis.LabelFont] = {}


def _paint_values(painter, box: PanelBox, p: MatrixPanel, font: axis.LabelFont) -> None:
    plot = box.plot
    r0, rows, c0, cols = box.span(p.shape)
    cells = None if box.region is None else (rows, cols)
    chosen = value_font(plot, p, font, cells)
    if chosen is None:
        return  # the values would not fit their cells: unreadable, so not drawn
    painter.save()
    painter.setFont(chosen.font)
    try:
        _paint_values_in(painter, box, p, chosen, rows, cols, r0, c0)
    finally:
        painter.restore()


def _paint_values_in(
    painter, box: PanelBox, p: MatrixPanel, font: axis.LabelFont, rows, cols, r0, c0
) -> None:
    plot = box.plot
    unit = p.unit
    cw, ch = plot.width() / cols, plot.height() / rows
    if box.region is None:
        values, indices = p.data, p.indices
    else:  # read from the whole matrix: the values of the cells shown, exactly
        values = np.asarray(p.data[r0 : r0 + rows, c0 : c0 + cols])
        indices = colour_indices(values, p.levels)
    dark = p.colours.dark[indices]
    shown = ~_masked_cells(p, box, rows, cols, r0, c0)  # a masked cell is hatched, its 0 not printed
    white, black = QtGui.QColor(255, 255, 255), QtGui.QColor(0, 0, 0)
    for on_dark, pen in ((True, white), (False, black)):
        painter.setPen(pen)
        for r, c in zip(*np.nonzero((dark == on_dark) & shown)):
            text = cell_value_text(float(values[r, c]), unit)
            w = font.width(text)
            x = plot.left() + (c + 0.5) * cw - w / 2
            y = plot.top() + (r + 0.5) * ch - font.line / 2 + font.ascent
            painter.drawText(QtCore.QPointF(x, y), text)


def _masked_cells(p: MatrixPanel, box: PanelBox, rows: int, cols: int, r0: int, c0: int) -> np.ndarray:
    """The cells of the values painted that the mask hides (trial 9: a causal mask's upper
    triangle printed "0" in every hatched cell)."""
    mask = None
    if p.visible is not None and np.shape(p.visible) == p.data.shape:
        mask = ~np.asarray(p.visible, dtype=bool)
    elif p.hidden is not None and np.shape(p.hidden) == p.data.shape:
        mask = np.asarray(p.hidden, dtype=bool)
    if mask is None:
        return np.zeros((rows, cols), dtype=bool)
    return mask if box.region is None else mask[r0 : r0 + rows, c0 : c0 + cols]


def _bar_image(cmap: ColourMap) -> QtGui.QImage:
    cached = _BARS.get(cmap.name)
    if cached is None:
        pixels = np.ascontiguousarray(cmap.argb[::-1].reshape(256, 1))  # top: the high end
        cached = QtGui.QImage(pixels.data, 1, 256, 4, QtGui.QImage.Format.Format_RGB32)
        cached._pixels = pixels
        _BARS[cmap.name] = cached
    return cached


_BARS: dict[str, QtGui.QImage] = {}


def bar_label_places(
    bar: QtCore.QRectF, levels, kind: str, font: axis.LabelFont
) -> list[tuple[QtCore.QRectF, str, float]]:
    """The colour bar's labels (rectangle, text, tick y): its ends, and its middle where the
    bar is tall enough for three lines."""
    lo, hi = levels
    labels = bar_labels(levels, kind)
    if bar.height() < 3 * font.line:
        labels = [labels[0], labels[-1]] if bar.height() >= font.line else [labels[-1]]
    out = []
    for value, text in labels:
        frac = 0.5 if hi <= lo else (value - lo) / (hi - lo)
        y = bar.bottom() - frac * bar.height()
        top = min(max(y - font.line / 2, bar.top() - font.line / 2), bar.bottom() - font.line / 2)
        x = bar.right() + TICK_PX + PAD_PX / 2
        out.append((QtCore.QRectF(x, top, font.width(text), font.line), text, y))
    return out


def _paint_bar(
    painter, bar: QtCore.QRectF, cmap: ColourMap, levels, kind: str, style: Style, font: axis.LabelFont
) -> None:
    """The legend: the same colour table and levels as the cells, so it is right by construction."""
    painter.drawImage(bar, _bar_image(cmap))
    painter.setPen(QtGui.QPen(style.frame, 1))
    painter.drawRect(bar.adjusted(-0.5, -0.5, 0.5, 0.5))
    painter.setPen(style.fg)
    for rect, text, y in bar_label_places(bar, levels, kind, font):
        painter.drawLine(QtCore.QLineF(bar.right(), y, bar.right() + TICK_PX, y))
        painter.drawText(QtCore.QPointF(rect.left(), rect.top() + font.ascent), text)


# -- where the texts are: what tests check (nothing clipped, nothing overlapping) ----------------------
@dataclass(frozen=True)
class TextPlace:
    kind: str  # "title", "row", "col", "bar", "header"
    panel: int  # the panel's index (-1: the figure's own, a shared bar or a header)
    text: str
    rect: QtCore.QRectF


def text_places(layout: Layout, figure: Figure, style: Style) -> list[TextPlace]:
    """Every text the figure paints (titles, axis labels, colour-bar labels, headers), with
    the rectangle it covers, from the same geometry the painting uses."""
    font = style.labels
    out: list[TextPlace] = []
    for box in layout.boxes:
        p = figure.panels[box.index]
        r0, rows, c0, cols = box.span(p.shape)
        if box.title_text and box.title.height() > 0:
            mark = figure.marks.get(box.index)
            for _, text, rect in title_place(box, box.title_text, _title_font(style, mark)):
                out.append(TextPlace("title", box.index, text, rect))
        if len(box.rows) and box.draw_rows:
            for rect, text, _ in row_label_places(box.plot, box.rows, r0, rows, font):
                out.append(TextPlace("row", box.index, text, rect))
        if len(box.cols) and box.draw_cols:
            for rect, text, _ in col_label_places(box.plot, box.cols, c0, cols, font):
                out.append(TextPlace("col", box.index, text, rect))
        if box.bar is not None:
            for rect, text, _ in bar_label_places(box.bar, p.levels, p.kind, font):
                out.append(TextPlace("bar", box.index, text, rect))
    if layout.bar is not None and layout.boxes:
        p = figure.panels[layout.boxes[0].index]
        for rect, text, _ in bar_label_places(layout.bar, p.levels, p.kind, font):
            out.append(TextPlace("bar", -1, text, rect))
    for box, text in layout.col_headers:
        t = font.elide(text, box.width())
        x = max(box.left(), box.center().x() - font.width(t) / 2)
        top = box.top() + (box.height() - font.line) / 2
        out.append(TextPlace("header", -1, t, QtCore.QRectF(x, top, font.width(t), font.line)))
    for box, text in layout.row_headers:
        t = font.elide(text, box.width())
        top = box.center().y() - font.line / 2
        out.append(
            TextPlace(
                "header", -1, t, QtCore.QRectF(box.right() - font.width(t), top, font.width(t), font.line)
            )
        )
    return out
