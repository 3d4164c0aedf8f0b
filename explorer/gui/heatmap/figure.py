"""A figure: matrix panels in a grid, laid out and painted with one QPainter.

The same code paints a canvas on screen, a PNG and an SVG: ``paint_figure(painter, rect,
figure, style)`` needs no widget, so any stage can be exported whether it is on screen or
not. Every panel of a figure gets the same room (title band, label margins, colour bar),
so panels of the same shape have plots of the same size and label the same tokens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from PySide6 import QtCore, QtGui

from explorer.gui.heatmap import labels as axis
from explorer.gui.heatmap.colours import ColourMap
from explorer.gui.heatmap.panel import MatrixPanel, cell_value_text

BAR_PX = 10  # colour bar width
TICK_PX = 3
PAD_PX = 4
SELECTION_PEN = QtGui.QColor(230, 120, 0)
SELECTION_FILL = QtGui.QColor(255, 170, 0, 55)
MASK_FILL = QtGui.QColor(170, 170, 170, 235)
MASK_HATCH = QtGui.QColor(70, 70, 70)
MIN_VALUE_CELL_PX = 20


@dataclass(frozen=True)
class Style:
    """Fonts and colours of a figure (the theme's, at the view's text size)."""

    font: QtGui.QFont
    fg: QtGui.QColor
    bg: QtGui.QColor
    accent: QtGui.QColor
    frame: QtGui.QColor

    @staticmethod
    def make(font_px: int, fg="#000000", bg="#ffffff", accent="#d55e00", frame="#b0b0b0") -> Style:
        font = QtGui.QFont()
        font.setPixelSize(max(6, int(font_px)))
        return Style(font, QtGui.QColor(fg), QtGui.QColor(bg), QtGui.QColor(accent), QtGui.QColor(frame))

    @property
    def labels(self) -> axis.LabelFont:
        cached = _FONTS.get(self.font.key())
        if cached is None:
            cached = _FONTS[self.font.key()] = axis.LabelFont(self.font)
        return cached


_FONTS: dict[str, axis.LabelFont] = {}


@dataclass(frozen=True)
class Mark:
    """A frame around a panel (the selected head, the lesson's stage) and its title's colour."""

    colour: QtGui.QColor
    width: int = 3


@dataclass(frozen=True)
class Outline:
    """A frame around one data cell (the class's guess, the real answer), in its own colour."""

    row: int
    col: int
    colour: QtGui.QColor
    width: int = 4


@dataclass
class Figure:
    """What a canvas shows. ``visible``: indices of the panels laid out (None: all)."""

    panels: list[MatrixPanel] = field(default_factory=list)
    columns: int = 1
    shared_bar: bool = False  # one colour bar for all panels (they share levels and map)
    bars: bool = True  # a colour bar beside each panel (when not shared)
    axes: bool = True  # token / index labels
    col_headers: list[str] | None = None  # above each column of the grid
    row_headers: list[str] | None = None  # left of each row
    visible: list[int] | None = None
    selection: tuple[int, int] | None = None  # (query i, key j)
    marks: dict[int, Mark] = field(default_factory=dict)
    show_values: bool = False
    outlines: dict[int, tuple[Outline, ...]] = field(default_factory=dict)  # panel -> framed cells

    def shown(self) -> list[int]:
        if self.visible is None:
            return list(range(len(self.panels)))
        return [i for i in self.visible if 0 <= i < len(self.panels)]


@dataclass
class PanelBox:
    index: int
    slot: QtCore.QRectF
    title: QtCore.QRectF
    plot: QtCore.QRectF
    bar: QtCore.QRectF | None
    rows: axis.AxisLabels
    cols: axis.AxisLabels


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


def layout_figure(rect: QtCore.QRectF, figure: Figure, style: Style) -> Layout:
    """Where each panel, title, plot, colour bar and header goes, and which labels fit."""
    font = style.labels
    line = font.line
    shown = figure.shown()
    if not shown:
        return Layout([], None, [], [])
    columns = max(1, min(figure.columns, len(shown)))
    n_rows = math.ceil(len(shown) / columns)
    left, top = rect.left(), rect.top()
    width, height = rect.width(), rect.height()

    header_h = line + PAD_PX if figure.col_headers else 0.0
    header_w = (
        max((font.width(t) for t in figure.row_headers), default=0.0) + 2 * PAD_PX
        if figure.row_headers
        else 0.0
    )
    shared_w = 0.0
    if figure.shared_bar:
        shared_w = BAR_PX + 2 * PAD_PX + TICK_PX + _bar_text_width(figure, font, shown) + PAD_PX
    slot_w = max(1.0, (width - header_w - shared_w) / columns)
    slot_h = max(1.0, (height - header_h) / n_rows)

    panels = [figure.panels[i] for i in shown]
    title_h = line + PAD_PX if any(p.title for p in panels) else 0.0
    bar_w = 0.0
    if figure.bars and not figure.shared_bar:
        bar_w = PAD_PX + BAR_PX + TICK_PX + PAD_PX + _bar_text_width(figure, font, shown)
    label_room = figure.axes and slot_w > 120 and slot_h > 80
    if label_room:
        widest_row = max(axis.widest(font, p.rows, p.shape[0]) for p in panels)
        left_m = math.ceil(widest_row + TICK_PX + 2 * PAD_PX)
    else:
        left_m = PAD_PX
    plot_w = float(max(4, math.floor(slot_w - left_m - bar_w - PAD_PX)))

    col_labels = {}
    bottom_m = PAD_PX
    top_pad = PAD_PX
    if label_room:
        for i, p in zip(shown, panels):
            n_cols = p.shape[1]
            cell = plot_w / n_cols
            if p.cols is None:
                col_labels[i] = axis.numbered(font, n_cols, cell, vertical=False)
            else:
                col_labels[i] = axis.token_columns(font, p.cols, cell)
        extents = [(lab.extent if lab.rotated else line) for lab in col_labels.values() if len(lab)]
        bottom_m = math.ceil(max(extents, default=0.0) + TICK_PX + 2 * PAD_PX)
        top_pad = math.ceil(line / 2)  # the first row's label may reach above the plot
    plot_h = float(max(4, math.floor(slot_h - title_h - top_pad - bottom_m)))

    boxes = []
    for k, (i, p) in enumerate(zip(shown, panels)):
        r, c = divmod(k, columns)
        sx, sy = left + header_w + c * slot_w, top + header_h + r * slot_h
        slot = QtCore.QRectF(sx, sy, slot_w, slot_h)
        title = QtCore.QRectF(sx + 2, sy, slot_w - 4, title_h)
        # whole pixels: crisp cells, and pictures of shared axes fit every panel alike
        plot = QtCore.QRectF(round(sx + left_m), round(sy + title_h + top_pad), plot_w, plot_h)
        bar = None
        if bar_w:
            bar = QtCore.QRectF(plot.right() + PAD_PX, plot.top(), BAR_PX, plot.height())
        rows_l = cols_l = axis.NO_LABELS
        if label_room:
            n_r = p.shape[0]
            cell_h = plot_h / n_r
            rows_l = (
                axis.numbered(font, n_r, cell_h, True)
                if p.rows is None
                else axis.token_rows(font, p.rows, cell_h)
            )
            cols_l = col_labels[i]
        boxes.append(PanelBox(i, slot, title, plot, bar, rows_l, cols_l))

    shared = None
    if figure.shared_bar:
        x = left + header_w + columns * slot_w + PAD_PX
        first, last = boxes[0].plot, boxes[min(len(boxes), columns * n_rows) - 1].plot
        shared = QtCore.QRectF(
            x, first.top(), BAR_PX, max(last.bottom(), boxes[-1].plot.bottom()) - first.top()
        )
    col_headers = []
    if figure.col_headers:
        for c in range(columns):
            box = boxes[c] if c < len(boxes) else None
            if box is not None and c < len(figure.col_headers):
                col_headers.append(
                    (QtCore.QRectF(box.plot.left(), top, box.plot.width(), header_h), figure.col_headers[c])
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


# -- painting ---------------------------------------------------------------------------------
def paint_figure(
    painter: QtGui.QPainter,
    rect: QtCore.QRectF,
    figure: Figure,
    style: Style,
    layout: Layout | None = None,
    cache: PaintCache | None = None,
    exposed: QtCore.QRectF | None = None,
) -> Layout:
    """Paint the whole figure into ``rect``; returns the layout used (for hit testing).
    With a ``cache`` (a canvas on screen), axis labels and hatching are reused as pictures;
    with ``exposed``, panels outside that part (scrolled away) are not painted."""
    if layout is None:
        layout = layout_figure(rect, figure, style)
    painter.save()
    painter.fillRect(exposed if exposed is not None else rect, style.bg)
    painter.setRenderHint(QtGui.QPainter.RenderHint.SmoothPixmapTransform, False)
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
    painter.setFont(style.font)
    font = style.labels
    for box in layout.boxes:
        if exposed is None or box.slot.intersects(exposed):
            _paint_panel(painter, box, figure.panels[box.index], figure, style, font, cache)
    if layout.bar is not None and layout.boxes:
        p = figure.panels[layout.boxes[0].index]
        _paint_bar(painter, layout.bar, p.colours, p.levels, p.kind, style, font)
    painter.setPen(style.fg)
    for box, text in layout.col_headers:
        _text_centred(painter, box, font.elide(text, box.width()), font)
    for box, text in layout.row_headers:
        t = font.elide(text, box.width())
        painter.drawText(
            QtCore.QPointF(box.right() - font.width(t), box.center().y() - font.line / 2 + font.ascent), t
        )
    painter.restore()
    return layout


def _text_centred(painter, box: QtCore.QRectF, text: str, font: axis.LabelFont) -> None:
    x = box.center().x() - font.width(text) / 2
    painter.drawText(
        QtCore.QPointF(max(box.left(), x), box.top() + (box.height() - font.line) / 2 + font.ascent), text
    )


def _paint_panel(
    painter, box: PanelBox, p: MatrixPanel, figure: Figure, style: Style, font: axis.LabelFont, cache
) -> None:
    plot = box.plot
    mark = figure.marks.get(box.index)
    if p.title and box.title.height() > 0:
        _paint_title(painter, box, p.title, mark, style, font)
    # cells, then the masked ones hatched
    painter.drawImage(plot, p.image)
    rows, cols = p.shape
    if p.hidden_path is not None:
        key = ("hatch", id(p.hidden), p.hidden.shape)
        _cached_picture(painter, cache, key, (p.hidden,), plot, lambda q: _paint_hatch(q, plot, p))
    cw, ch = plot.width() / cols, plot.height() / rows
    if figure.show_values and p.values_printable:
        _paint_values(painter, plot, p, cw, ch, font)
    # selection bands
    r_sel, c_sel = p.matrix_cell(figure.selection)
    if r_sel is not None or c_sel is not None:
        painter.setPen(QtGui.QPen(SELECTION_PEN, 1))
        painter.setBrush(SELECTION_FILL)
        if r_sel is not None and 0 <= r_sel < rows:
            painter.drawRect(QtCore.QRectF(plot.left(), plot.top() + r_sel * ch, plot.width(), ch))
        if c_sel is not None and 0 <= c_sel < cols:
            painter.drawRect(QtCore.QRectF(plot.left() + c_sel * cw, plot.top(), cw, plot.height()))
        painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
    for o in figure.outlines.get(box.index, ()):
        if 0 <= o.row < rows and 0 <= o.col < cols:
            painter.setPen(QtGui.QPen(o.colour, o.width))
            painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            inset = o.width / 2
            cell = QtCore.QRectF(plot.left() + o.col * cw, plot.top() + o.row * ch, cw, ch)
            painter.drawRect(cell.adjusted(inset, inset, -inset, -inset))
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
    if len(box.rows):
        area = QtCore.QRectF(
            box.slot.left(),
            plot.top() - font.line,
            plot.left() - box.slot.left(),
            plot.height() + 2 * font.line,
        )
        key = ("rows", box.rows.indices, box.rows.texts, rows, *look)
        _cached_picture(
            painter, cache, key, (), area, lambda q: _paint_row_labels(q, plot, box.rows, rows, font)
        )
    if len(box.cols):
        extent = (box.cols.extent if box.cols.rotated else font.line) + TICK_PX + PAD_PX
        half = 0.0 if box.cols.rotated else max(box.cols.widths, default=0.0) / 2
        area = QtCore.QRectF(
            plot.left() - font.line - half,
            plot.bottom(),
            plot.width() + 2 * (font.line + half),
            extent + PAD_PX,
        )
        key = ("cols", box.cols.indices, box.cols.texts, box.cols.rotated, cols, *look)
        _cached_picture(
            painter, cache, key, (), area, lambda q: _paint_col_labels(q, plot, box.cols, cols, font)
        )
    if box.bar is not None:
        _paint_bar(painter, box.bar, p.colours, p.levels, p.kind, style, font)


def _paint_title(
    painter, box: PanelBox, title: str, mark: Mark | None, style: Style, font: axis.LabelFont
) -> None:
    """The title, centred over the plot and never wider than the panel (elided)."""
    if mark is None:
        painter.setPen(style.fg)
        text = font.elide(title, box.title.width())
        width, ascent = font.width(text), font.ascent
    else:
        bold = QtGui.QFont(style.font)
        bold.setBold(True)
        painter.setFont(bold)
        metrics = QtGui.QFontMetricsF(bold)
        text = metrics.elidedText(title, QtCore.Qt.TextElideMode.ElideRight, box.title.width())
        width, ascent = metrics.horizontalAdvance(text), metrics.ascent()
        painter.setPen(mark.colour)
    x = min(max(box.title.left(), box.plot.center().x() - width / 2), box.title.right() - width)
    painter.drawText(QtCore.QPointF(x, box.title.top() + PAD_PX / 2 + ascent), text)
    if mark is not None:
        painter.setFont(style.font)


def _paint_hatch(painter, plot: QtCore.QRectF, p: MatrixPanel) -> None:
    h_rows, h_cols = p.hidden.shape
    sx, sy = plot.width() / h_cols, plot.height() / h_rows
    path = QtGui.QTransform(sx, 0, 0, sy, plot.left(), plot.top()).map(p.hidden_path)
    painter.fillPath(path, MASK_FILL)  # in pixels: the hatching keeps its screen spacing
    if min(sx, sy) >= 4:
        painter.fillPath(path, QtGui.QBrush(MASK_HATCH, QtCore.Qt.BrushStyle.BDiagPattern))


def _paint_row_labels(
    painter, plot: QtCore.QRectF, labels: axis.AxisLabels, n: int, font: axis.LabelFont
) -> None:
    if not len(labels):
        return
    ch = plot.height() / n
    x_tick = plot.left() - TICK_PX
    ticks, texts = [], []
    low = plot.top() - font.line / 2
    high = plot.bottom() + PAD_PX - font.line
    for index, text, w in zip(labels.indices, labels.texts, labels.widths):
        y = plot.top() + (index + 0.5) * ch
        ticks.append(QtCore.QLineF(x_tick, y, plot.left(), y))
        top = min(max(y - font.line / 2, low), high)  # inside the label band, never under the title
        texts.append((QtCore.QPointF(x_tick - PAD_PX / 2 - w, top + font.ascent), text))
    painter.drawLines(ticks)
    for point, text in texts:
        painter.drawText(point, text)


def _paint_col_labels(
    painter, plot: QtCore.QRectF, labels: axis.AxisLabels, n: int, font: axis.LabelFont
) -> None:
    if not len(labels):
        return
    cw = plot.width() / n
    y_tick = plot.bottom() + TICK_PX
    ticks = []
    for index in labels.indices:
        x = plot.left() + (index + 0.5) * cw
        ticks.append(QtCore.QLineF(x, plot.bottom(), x, y_tick))
    painter.drawLines(ticks)
    if not labels.rotated:
        base = y_tick + PAD_PX / 2 + font.ascent
        for index, text, w in zip(labels.indices, labels.texts, labels.widths):
            x = plot.left() + (index + 0.5) * cw
            painter.drawText(QtCore.QPointF(x - w / 2, base), text)
        return
    painter.save()
    for index, text, w in zip(labels.indices, labels.texts, labels.widths):
        x = plot.left() + (index + 0.5) * cw
        painter.save()
        painter.translate(x, y_tick + PAD_PX / 2)
        painter.rotate(-90)  # reads upwards; the label ends at the plot
        painter.drawText(QtCore.QPointF(-w, -font.line / 2 + font.ascent), text)
        painter.restore()
    painter.restore()


def values_fit(plot: QtCore.QRectF, p: MatrixPanel, font: axis.LabelFont) -> bool:
    """Whether a panel's values, printed in its cells, would be readable (else not drawn)."""
    rows, cols = p.shape
    text_w = font.width(".00" if p.unit else "-0.00") + 4
    text_h = font.metrics.capHeight() + 4
    return (
        p.values_printable
        and plot.width() / cols >= max(MIN_VALUE_CELL_PX, text_w)
        and (plot.height() / rows >= max(11, text_h))
    )


def _paint_values(
    painter, plot: QtCore.QRectF, p: MatrixPanel, cw: float, ch: float, font: axis.LabelFont
) -> None:
    if not values_fit(plot, p, font):
        return  # the values would not fit their cells: unreadable, so not drawn
    unit = p.unit
    rows, cols = p.shape
    dark = p.colours.dark[p.indices]
    white, black = QtGui.QColor(255, 255, 255), QtGui.QColor(0, 0, 0)
    values = p.data
    for on_dark, pen in ((True, white), (False, black)):
        painter.setPen(pen)
        for r, c in zip(*np.nonzero(dark == on_dark)):
            text = cell_value_text(float(values[r, c]), unit)
            w = font.width(text)
            x = plot.left() + (c + 0.5) * cw - w / 2
            y = plot.top() + (r + 0.5) * ch - font.line / 2 + font.ascent
            painter.drawText(QtCore.QPointF(x, y), text)


def _bar_image(cmap: ColourMap) -> QtGui.QImage:
    cached = _BARS.get(cmap.name)
    if cached is None:
        pixels = np.ascontiguousarray(cmap.argb[::-1].reshape(256, 1))  # top: the high end
        cached = QtGui.QImage(pixels.data, 1, 256, 4, QtGui.QImage.Format.Format_RGB32)
        cached._pixels = pixels
        _BARS[cmap.name] = cached
    return cached


_BARS: dict[str, QtGui.QImage] = {}


def _paint_bar(
    painter, bar: QtCore.QRectF, cmap: ColourMap, levels, kind: str, style: Style, font: axis.LabelFont
) -> None:
    """The legend: the same colour table and levels as the cells, so it is right by construction."""
    painter.drawImage(bar, _bar_image(cmap))
    painter.setPen(QtGui.QPen(style.frame, 1))
    painter.drawRect(bar.adjusted(-0.5, -0.5, 0.5, 0.5))
    painter.setPen(style.fg)
    lo, hi = levels
    for value, text in bar_labels(levels, kind):
        frac = 0.5 if hi <= lo else (value - lo) / (hi - lo)
        y = bar.bottom() - frac * bar.height()
        painter.drawLine(QtCore.QLineF(bar.right(), y, bar.right() + TICK_PX, y))
        top = min(max(y - font.line / 2, bar.top() - font.line / 2), bar.bottom() - font.line / 2)
        painter.drawText(QtCore.QPointF(bar.right() + TICK_PX + PAD_PX / 2, top + font.ascent), text)
