"""A canvas reuses a figure's layout for a new figure of the same look (a keystroke's new
numbers), and lays out again whenever anything the layout reads changes; a repaint of part
of the canvas paints every panel that reaches into it, labels beyond their slot included."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6 import QtCore, QtGui

from explorer.appstate.matrix_zoom import Region
from explorer.gui.heatmap import Figure, MatrixCanvas, MatrixPanel, Style
from explorer.gui.heatmap.figure import Mark, layout_figure, paint_extent, paint_figure, text_places

from .helpers import pixels

ROWS = "2 0 1 8 - 0 5 - 0 9".split()
COLS = list("9 mai 2018")
WIDE = [f"token{i}" for i in range(10)]  # wider labels than COLS: another layout


def matrix(seed: int, shape=(10, 10), scale: float = 1.0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def stages(seed: int, rows=ROWS, cols=COLS, scale: float = 1.0, title: str = "scores") -> list[MatrixPanel]:
    """A lab's stage panels: the same shapes, tokens and titles whatever the numbers."""
    out = [
        MatrixPanel(matrix(seed + k, scale=scale), rows, cols, title=f"{title} {k}", role="qk")
        for k in range(5)
    ]
    out.append(MatrixPanel(matrix(seed, (10, 16)), rows, None, title="Q = X·W_Q  [10×16]", role="q"))
    return out


def canvas_with(qtbot, figure: Figure, size=(900, 700)) -> MatrixCanvas:
    canvas = MatrixCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(*size)
    canvas.set_figure(figure)
    canvas.show()  # a hidden widget is told of a new size only once shown
    qtbot.waitExposed(canvas)
    return canvas


def fresh(canvas: MatrixCanvas):
    return layout_figure(QtCore.QRectF(canvas.rect()), canvas.figure, canvas.style_)


def test_a_new_figure_of_the_same_look_reuses_the_layout_and_it_is_the_fresh_one(qtbot):
    canvas = canvas_with(qtbot, Figure(stages(0), columns=3))
    first = canvas.current_layout()
    canvas.set_figure(Figure(stages(100), columns=3, selection=(2, 3), marks={1: Mark(QtGui.QColor("red"))}))
    assert canvas.current_layout() is first  # nothing laid out again
    assert canvas.current_layout() == fresh(canvas)  # and it is what laying out gives


CHANGES = {
    "tokens": lambda f: replace(f, panels=stages(1, cols=WIDE)),
    "rows": lambda f: replace(f, panels=stages(1, rows=WIDE)),
    "title": lambda f: replace(
        f, panels=stages(1, title="a much longer title that wraps onto a second line")
    ),
    "shape": lambda f: replace(f, panels=[replace(p, data=p.data[:7]) for p in f.panels]),
    "bar labels": lambda f: replace(f, panels=stages(1, scale=1e5)),  # "-4.1e+05" is wider than "-2.3"
    "columns": lambda f: replace(f, columns=2),
    "visible": lambda f: replace(f, visible=[0, 1]),
    "shared axes": lambda f: replace(f, shared_axes=True),
    "bars": lambda f: replace(f, bars=False),
    "shared bar": lambda f: replace(f, shared_bar=True),
    "axes": lambda f: replace(f, axes=False),
    "headers": lambda f: replace(f, col_headers=["layer 0", "layer 1", "layer 2"]),
    "row headers": lambda f: replace(f, row_headers=["head 0", "head 1"]),
    "zoom": lambda f: replace(f, zoomable=True, zoom=Region(2, 6, 1, 5)),
}


@pytest.mark.parametrize("change", CHANGES)
def test_anything_the_layout_reads_lays_it_out_again(qtbot, change):
    figure = Figure(stages(0), columns=3)
    canvas = canvas_with(qtbot, figure)
    before = canvas.current_layout()
    changed = CHANGES[change](figure)
    canvas.set_figure(changed)
    again = layout_figure(QtCore.QRectF(canvas.rect()), changed, canvas.style_)
    assert again != before  # the change moves something (else this would test nothing)
    assert canvas.current_layout() == again
    canvas.set_figure(figure)  # and back: the kept layout of the first look, still right
    assert canvas.current_layout() == before == fresh(canvas)


def test_a_new_size_or_font_lays_it_out_again(qtbot):
    canvas = canvas_with(qtbot, Figure(stages(0), columns=3))
    before = canvas.current_layout()
    canvas.resize(600, 500)
    assert canvas.current_layout() != before and canvas.current_layout() == fresh(canvas)
    canvas.set_style(Style.make(22))
    assert canvas.current_layout() == fresh(canvas)
    assert canvas.current_layout().boxes[0].plot != before.boxes[0].plot


def test_a_part_repainted_paints_every_panel_that_reaches_into_it(qtbot):
    """With shared axes the row labels lie left of the grid's first column, outside every
    slot: a repaint of just that band must still paint them (it paints the panels whose
    extent meets it, not only those whose slot does)."""
    style = Style.make(13)
    size = QtCore.QSize(900, 700)
    rect = QtCore.QRectF(0, 0, size.width(), size.height())
    new = Figure(stages(0, rows=WIDE), columns=3, shared_axes=True)
    old = replace(new, panels=stages(50, rows=WIDE))
    layout = layout_figure(rect, new, style)
    first = layout.boxes[3]  # the second row's first panel
    band = QtCore.QRectF(0, first.plot.top(), first.slot.left(), first.plot.height())
    assert band.width() > 10 and not first.slot.intersects(band)  # the labels lie outside the slot
    assert paint_extent(first, new, style.labels).intersects(band)

    def paint(figure: Figure, image: QtGui.QImage, area: QtCore.QRectF | None = None) -> QtGui.QImage:
        painter = QtGui.QPainter(image)
        if area is not None:
            painter.setClipRect(area)  # as Qt clips a paint event to its rectangle
        paint_figure(painter, rect, figure, style, exposed=area)
        painter.end()
        return image

    def blank() -> QtGui.QImage:
        image = QtGui.QImage(size, QtGui.QImage.Format.Format_RGB32)
        image.fill(QtGui.QColor("#777777"))  # not the background: what is left unpainted shows
        return image

    whole = pixels(paint(new, blank()))
    for exact in (band, QtCore.QRectF(0, 0, 900, 120), first.slot, QtCore.QRectF(300, 200, 250, 300)):
        r = exact.toAlignedRect().intersected(QtCore.QRect(QtCore.QPoint(0, 0), size))
        area = QtCore.QRectF(r)  # whole pixels, as a paint event's
        part = pixels(paint(new, paint(old, blank()), area))
        np.testing.assert_array_equal(
            part[r.top() : r.bottom() + 1, r.left() : r.right() + 1],
            whole[r.top() : r.bottom() + 1, r.left() : r.right() + 1],
        )


EXTENT_FIGURES = {
    "stages": Figure(stages(0), columns=3),
    "shared axes": Figure(stages(0, rows=WIDE, cols=WIDE), columns=3, shared_axes=True),
    "rotated columns": Figure(stages(0, cols=WIDE), columns=4),
    "wide bar labels": Figure(stages(0, scale=1e5), columns=3),
    "marked": Figure(stages(0), columns=3, marks={0: Mark(QtGui.QColor("red"), 6)}),
    "zoomed": Figure(stages(0), columns=3, zoomable=True, zoom=Region(2, 6, 1, 5)),
}


@pytest.mark.parametrize("name", EXTENT_FIGURES)
def test_a_panels_paint_extent_holds_every_text_it_paints(name):
    figure, style = EXTENT_FIGURES[name], Style.make(13)
    layout = layout_figure(QtCore.QRectF(0, 0, 900, 700), figure, style)
    boxes = {b.index: b for b in layout.boxes}
    places = [t for t in text_places(layout, figure, style) if t.panel >= 0]
    assert {t.kind for t in places} >= {"title", "row", "col", "bar"}
    for place in places:
        extent = paint_extent(boxes[place.panel], figure, style.labels).adjusted(-0.01, -0.01, 0.01, 0.01)
        assert extent.contains(place.rect), (place, extent)
