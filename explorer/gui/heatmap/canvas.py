"""The widget that shows a figure: one paint for all its panels, hover and clicks on cells.

``MatrixCanvas`` is the one drawing path of every matrix view (pipeline stages, the head
grid, the overview thumbnails, compare) and the standalone heatmap a new tab embeds::

    canvas = MatrixCanvas()
    canvas.show_panel(MatrixPanel(weights, rows=src, cols=out, title="alignment", kind="weights"))
    canvas.clicked.connect(lambda panel, r, c: ...)

An update replaces the figure (or one panel); the layout (label strides, margins) is
computed once per look (``layout_key``: shapes, tokens, titles, size, font; a new figure of
the same look reuses it), then every repaint is images, lines and short texts, of the
panels that reach into the part repainted.

A figure made ``zoomable`` zooms into its (query, key) panels: Ctrl + the wheel (or a
pinch) about the cell under the mouse, a drag moves the view, and with the keyboard + and −
zoom about the selected cell, 0 shows the whole matrix, Shift + an arrow moves the view.
The canvas asks for a region with ``zoomRequested`` (a view writes it to the state, which
sets it back with ``set_zoom``); a canvas nobody listens to zooms itself.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate import matrix_zoom
from explorer.appstate.matrix_zoom import Region
from explorer.gui.heatmap.figure import (
    Figure,
    Layout,
    Mark,
    PaintCache,
    Style,
    layout_figure,
    layout_key,
    paint_figure,
    rezoom,
)
from explorer.gui.heatmap.panel import MatrixPanel
from explorer.gui.heatmap.zoom import RegionPictures

LAYOUTS_KEPT = 4  # a few recent layouts: typing back and forth between two texts reuses both
PNG_SCALE = 2  # exported pictures are twice the on-screen size, for slides
STALE_VEIL_ALPHA = 170  # a disabled canvas (out-of-date content) under this much of its background


class MatrixCanvas(QtWidgets.QWidget):
    hovered = QtCore.Signal(int, int, int)  # panel index, data row, data column; -1s on leaving
    clicked = QtCore.Signal(int, int, int)  # panel index, data row, data column
    doubleClicked = QtCore.Signal(int)  # panel index under the mouse, -1 outside every panel
    zoomRequested = QtCore.Signal(object)  # a Region of the (query, key) panels, or None: all

    def __init__(self, parent=None, style: Style | None = None):
        super().__init__(parent)
        self.figure = Figure()
        self.style_ = style or Style.make(QtGui.QFontInfo(self.font()).pixelSize())
        self._layout: Layout | None = None
        self._whole: Layout | None = None  # the layout unzoomed: a zoom changes only labels
        self._layouts: dict[tuple, Layout] = {}  # by layout_key: a new figure of the same look reuses one
        self._cache = PaintCache()
        self._hover: tuple[int, int, int] | None = None
        self._press: tuple[QtCore.QPointF, Region, int, QtCore.Qt.MouseButton] | None = None
        self._panning = False
        self.pictures = RegionPictures(self)  # zoomed regions of large matrices, off the GUI thread
        self.pictures.ready.connect(lambda: self.update(self.zoomed_area()))
        self.setMouseTracking(True)
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(420, 320)

    # -- content ----------------------------------------------------------------------
    @property
    def panels(self) -> list[MatrixPanel]:
        return self.figure.panels

    def set_figure(self, figure: Figure) -> None:
        self.figure = figure
        self.setFocusPolicy(
            QtCore.Qt.FocusPolicy.ClickFocus if figure.zoomable else QtCore.Qt.FocusPolicy.NoFocus
        )
        self._relayout()

    def show_panel(self, panel: MatrixPanel, **options) -> None:
        """Show one matrix (the standalone heatmap); options are Figure's fields."""
        self.set_figure(Figure([panel], columns=1, **options))

    def set_selection(self, cell: tuple[int, int] | None) -> None:
        if cell != self.figure.selection:
            self.figure = replace(self.figure, selection=cell)
            self.update()

    def set_marks(self, marks: dict[int, Mark]) -> None:
        if marks != self.figure.marks:
            self.figure = replace(self.figure, marks=dict(marks))
            self.update()

    def set_zoom(self, region: Region | None) -> None:
        """Show these cells of the (query, key) panels (None: the whole matrix)."""
        if region != self.figure.zoom:
            self.figure = replace(self.figure, zoom=region)
            self._layout = None
            self.update(self.zoomed_area())  # the other panels stay as they are

    def zoomed_area(self) -> QtCore.QRect:
        """The part of the canvas a zoom changes: the (query, key) panels' slots (their plots,
        titles and labels); the whole canvas when a zoomed panel's title names its cells."""
        if self.figure.zoom_caption:
            return self.rect()
        area = QtCore.QRectF()
        for box in self.current_layout().boxes:
            if self.figure.panels[box.index].role == "qk":
                area = area.united(box.slot)
        return area.toAlignedRect()

    def set_show_values(self, on: bool) -> None:
        if on != self.figure.show_values:
            self.figure = replace(self.figure, show_values=on)
            self.update()

    def set_visible(self, indices: list[int] | None, columns: int | None = None) -> None:
        """Lay out only these panels (None: all), in ``columns`` columns."""
        self.figure = replace(
            self.figure, visible=indices, columns=columns if columns is not None else self.figure.columns
        )
        self._relayout()

    def set_style(self, style: Style) -> None:
        self.style_ = style
        self._cache.clear()
        self._relayout()

    def _relayout(self) -> None:
        self._layout = self._whole = None
        self.update()

    # -- geometry -------------------------------------------------------------------------
    def current_layout(self) -> Layout:
        if self._layout is None:
            rect, figure = QtCore.QRectF(self.rect()), self.figure
            if figure.zoom is None or figure.zoom_caption:
                self._layout = self._laid_out(rect, figure)
            else:
                if self._whole is None:
                    self._whole = self._laid_out(rect, replace(figure, zoom=None))
                self._layout = rezoom(self._whole, figure, self.style_)
        return self._layout

    def _laid_out(self, rect: QtCore.QRectF, figure: Figure) -> Layout:
        """The figure's layout: one kept for a figure of the same key (a keystroke's new
        numbers in panels of the same shapes, tokens and titles), else computed. A layout
        is never changed once made (a zoom replaces its boxes), so one may be shared."""
        key = layout_key(rect, figure, self.style_)
        found = self._layouts.pop(key, None)  # taken out and put back: the newest last
        if found is None:
            found = layout_figure(rect, figure, self.style_)
            if len(self._layouts) >= LAYOUTS_KEPT:
                self._layouts.pop(next(iter(self._layouts)))
        self._layouts[key] = found
        return found

    def box(self, index: int):
        return next((b for b in self.current_layout().boxes if b.index == index), None)

    def plot_rect(self, index: int) -> QtCore.QRectF | None:
        box = self.box(index)
        return None if box is None else box.plot

    def cell_centre(self, index: int, row: int, col: int) -> QtCore.QPointF:
        """Where a data cell of a panel is on the canvas (tests click there); a cell a
        zoomed panel does not show lies outside its plot."""
        return self.box(index).cell_rect(self.figure.panels[index].shape, row, col).center()

    def cell_at(self, pos: QtCore.QPointF) -> tuple[int, int, int] | None:
        box = self.current_layout().box_at(pos)
        if box is None:
            return None
        cell = box.cell_at(self.figure.panels[box.index].shape, pos)
        return None if cell is None else (box.index, *cell)

    # -- zoom ---------------------------------------------------------------------------------
    def zoom_shape(self) -> tuple[int, int] | None:
        """The shape of the (query, key) matrix the zoom applies to (None: nothing to zoom)."""
        if not self.figure.zoomable:
            return None
        for i in self.figure.shown():
            p = self.figure.panels[i]
            if p.role == "qk":
                return p.shape
        return None

    def request_zoom(self, region: Region | None) -> None:
        if region == self.figure.zoom:
            return
        signal = QtCore.QMetaMethod.fromSignal(self.zoomRequested)
        if self.isSignalConnected(signal):
            self.zoomRequested.emit(region)
        else:
            self.set_zoom(region)

    def _zoomable_box(self, pos: QtCore.QPointF):
        box = self.current_layout().box_at(pos)
        if box is None or not self.figure.zoomable or self.figure.panels[box.index].role != "qk":
            return None
        return box

    def _zoom_at(self, pos: QtCore.QPointF, factor: float) -> bool:
        box = self._zoomable_box(pos)
        if box is None:
            return False
        plot, shape = box.plot, self.figure.panels[box.index].shape
        at = ((pos.y() - plot.top()) / plot.height(), (pos.x() - plot.left()) / plot.width())
        self.request_zoom(matrix_zoom.zoom(self.figure.zoom, *shape, factor, at))
        return True

    def zoom_key(self, key: int, modifiers) -> bool:
        """+ (or =) and − zoom about the selected cell, 0 shows the whole matrix, Shift + an
        arrow moves the view; with Ctrl they are the window's text size, not the matrix's."""
        shape = self.zoom_shape()
        mods = modifiers & ~QtCore.Qt.KeyboardModifier.KeypadModifier
        if shape is None or mods & ~QtCore.Qt.KeyboardModifier.ShiftModifier:
            return False
        K = QtCore.Qt.Key
        zoom, cell = self.figure.zoom, self.figure.selection
        shift = bool(mods & QtCore.Qt.KeyboardModifier.ShiftModifier)
        arrows = {K.Key_Left: (0, -1), K.Key_Right: (0, 1), K.Key_Up: (-1, 0), K.Key_Down: (1, 0)}
        if key in (K.Key_Plus, K.Key_Equal):
            self.request_zoom(matrix_zoom.zoom_about_cell(zoom, *shape, matrix_zoom.KEY_STEP, cell))
        elif key in (K.Key_Minus, K.Key_Underscore):
            self.request_zoom(matrix_zoom.zoom_about_cell(zoom, *shape, 1 / matrix_zoom.KEY_STEP, cell))
        elif key == K.Key_0 and not shift:
            self.request_zoom(None)
        elif key in arrows and shift and zoom is not None:
            self.request_zoom(matrix_zoom.pan_step(zoom, *shape, *arrows[key]))
        else:
            return False
        return True

    # -- Qt events --------------------------------------------------------------------------
    def resizeEvent(self, event):
        self._layout = self._whole = None
        super().resizeEvent(event)

    def paintEvent(self, event):
        painter = QtGui.QPainter(self)
        # the panels whose paint extent misses the part to repaint (scrolled away, or not
        # zoomed) are not painted (tested): a lab's dozen stages, half of them scrolled away
        whole = event.rect().contains(self.rect())
        exposed = None if whole else QtCore.QRectF(event.rect())
        try:
            paint_figure(
                painter,
                QtCore.QRectF(self.rect()),
                self.figure,
                self.style_,
                self.current_layout(),
                self._cache,
                exposed=exposed,
                pictures=self.pictures,
            )
            if not self.isEnabled():  # what it shows is out of date: veiled, still readable
                veil = QtGui.QColor(self.style_.bg)
                veil.setAlpha(STALE_VEIL_ALPHA)
                painter.fillRect(self.rect(), veil)
        finally:
            painter.end()

    def wheelEvent(self, event):
        """Ctrl + the wheel zooms a (query, key) panel; the plain wheel scrolls the page."""
        steps = event.angleDelta().y() / 120
        ctrl = event.modifiers() & QtCore.Qt.KeyboardModifier.ControlModifier
        if ctrl and steps and self._zoom_at(event.position(), matrix_zoom.WHEEL_STEP**steps):
            self.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)
            event.accept()
            return
        super().wheelEvent(event)

    def event(self, event):
        if (
            event.type() == QtCore.QEvent.Type.NativeGesture
            and event.gestureType() == QtCore.Qt.NativeGestureType.ZoomNativeGesture
            and self._zoom_at(event.position(), 1.0 + event.value())
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event):
        if self.zoom_key(event.key(), event.modifiers()):
            event.accept()
            return
        super().keyPressEvent(event)

    def mouseMoveEvent(self, event):
        if self._press is not None:
            self._drag(event.position())
        hit = self.cell_at(event.position())
        if hit != self._hover:
            self._hover = hit
            self.hovered.emit(*(hit or (-1, -1, -1)))
        super().mouseMoveEvent(event)

    def _drag(self, pos: QtCore.QPointF) -> None:
        """Moving with a button held on a zoomed panel moves the view with the mouse."""
        start, region, index, _ = self._press
        if not self._panning:
            if (pos - start).manhattanLength() < QtWidgets.QApplication.startDragDistance():
                return
            self._panning = True
            self.setCursor(QtCore.Qt.CursorShape.ClosedHandCursor)
        box = self.box(index)
        if box is None:
            return
        shape = self.figure.panels[index].shape
        d_rows = -(pos.y() - start.y()) * region.rows / box.plot.height()
        d_cols = -(pos.x() - start.x()) * region.cols / box.plot.width()
        self.request_zoom(matrix_zoom.pan(region, *shape, d_rows, d_cols))

    def leaveEvent(self, event):
        if self._hover is not None:
            self._hover = None
            self.hovered.emit(-1, -1, -1)
        super().leaveEvent(event)

    def mousePressEvent(self, event):
        button = event.button()
        box = self._zoomable_box(event.position())
        if (
            box is not None
            and self.figure.zoom is not None
            and button
            in (
                QtCore.Qt.MouseButton.LeftButton,
                QtCore.Qt.MouseButton.MiddleButton,
            )
        ):  # a zoomed panel: a drag moves it, a left click without one selects (on release)
            self._press = (event.position(), self.figure.zoom, box.index, button)
            self._panning = False
            event.accept()
            return
        if button == QtCore.Qt.MouseButton.LeftButton:
            hit = self.cell_at(event.position())
            if hit is not None:
                self.clicked.emit(*hit)
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event):
        if self._press is not None and event.button() == self._press[3]:
            start, _, _, button = self._press
            clicked = not self._panning and button == QtCore.Qt.MouseButton.LeftButton
            self._press, self._panning = None, False
            self.unsetCursor()
            hit = self.cell_at(start) if clicked else None
            if hit is not None:
                self.clicked.emit(*hit)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event):
        if event.button() == QtCore.Qt.MouseButton.LeftButton:
            box = self.current_layout().panel_at(event.position())
            self.doubleClicked.emit(box.index if box is not None else -1)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)


# -- pictures drawn from data: any figure, on screen or not ---------------------------------------
def render_image(figure: Figure, style: Style, size: QtCore.QSize, scale: float = PNG_SCALE) -> QtGui.QImage:
    """The figure as a raster image ``scale`` times ``size`` (no widget involved)."""
    image = QtGui.QImage(
        max(1, int(size.width() * scale)),
        max(1, int(size.height() * scale)),
        QtGui.QImage.Format.Format_RGB32,
    )
    image.fill(style.bg)
    painter = QtGui.QPainter(image)
    try:
        painter.scale(scale, scale)
        paint_figure(painter, QtCore.QRectF(0, 0, size.width(), size.height()), figure, style)
    finally:
        painter.end()
    return image


def render_svg(figure: Figure, style: Style, size: QtCore.QSize, path: str, title: str) -> None:
    """The figure as SVG: text and lines as vectors, the cells as an embedded picture."""
    from PySide6 import QtSvg  # only when exporting (a sixth of a second at start-up)

    generator = QtSvg.QSvgGenerator()
    generator.setFileName(path)
    generator.setSize(size)
    generator.setViewBox(QtCore.QRect(QtCore.QPoint(0, 0), size))
    generator.setTitle(title)
    painter = QtGui.QPainter(generator)
    try:
        paint_figure(painter, QtCore.QRectF(0, 0, size.width(), size.height()), figure, style)
    finally:
        painter.end()
