"""The widget that shows a figure: one paint for all its panels, hover and clicks on cells.

``MatrixCanvas`` is the one drawing path of every matrix view (pipeline stages, the head
grid, the overview thumbnails, compare) and the standalone heatmap a new tab embeds::

    canvas = MatrixCanvas()
    canvas.show_panel(MatrixPanel(weights, rows=src, cols=out, title="alignment", kind="weights"))
    canvas.clicked.connect(lambda panel, r, c: ...)

An update replaces the figure (or one panel); the layout (label strides, margins) is
computed once per figure and size, then every repaint is images, lines and short texts.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.heatmap.figure import (
    Figure,
    Layout,
    Mark,
    PaintCache,
    Style,
    layout_figure,
    paint_figure,
)
from explorer.gui.heatmap.panel import MatrixPanel

PNG_SCALE = 2  # exported pictures are twice the on-screen size, for slides


class MatrixCanvas(QtWidgets.QWidget):
    hovered = QtCore.Signal(int, int, int)  # panel index, data row, data column; -1s on leaving
    clicked = QtCore.Signal(int, int, int)  # panel index, data row, data column
    doubleClicked = QtCore.Signal(int)  # panel index under the mouse, -1 outside every panel

    def __init__(self, parent=None, style: Style | None = None):
        super().__init__(parent)
        self.figure = Figure()
        self.style_ = style or Style.make(QtGui.QFontInfo(self.font()).pixelSize())
        self._layout: Layout | None = None
        self._cache = PaintCache()
        self._hover: tuple[int, int, int] | None = None
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
        self._layout = None
        self.update()

    # -- geometry -------------------------------------------------------------------------
    def current_layout(self) -> Layout:
        if self._layout is None:
            self._layout = layout_figure(QtCore.QRectF(self.rect()), self.figure, self.style_)
        return self._layout

    def box(self, index: int):
        return next((b for b in self.current_layout().boxes if b.index == index), None)

    def plot_rect(self, index: int) -> QtCore.QRectF | None:
        box = self.box(index)
        return None if box is None else box.plot

    def cell_centre(self, index: int, row: int, col: int) -> QtCore.QPointF:
        """Where a data cell of a panel is on the canvas (tests click there)."""
        plot = self.plot_rect(index)
        rows, cols = self.figure.panels[index].shape
        return QtCore.QPointF(
            plot.left() + (col + 0.5) * plot.width() / cols, plot.top() + (row + 0.5) * plot.height() / rows
        )

    def cell_at(self, pos: QtCore.QPointF) -> tuple[int, int, int] | None:
        box = self.current_layout().box_at(pos)
        if box is None:
            return None
        plot = box.plot
        cell = self.figure.panels[box.index].cell_at(
            (pos.x() - plot.left()) / plot.width(), (pos.y() - plot.top()) / plot.height()
        )
        return None if cell is None else (box.index, *cell)

    # -- Qt events --------------------------------------------------------------------------
    def resizeEvent(self, event):
        self._layout = None
        super().resizeEvent(event)

    def paintEvent(self, event):
        painter = QtGui.QPainter(self)
        try:
            paint_figure(
                painter,
                QtCore.QRectF(self.rect()),
                self.figure,
                self.style_,
                self.current_layout(),
                self._cache,
            )
        finally:
            painter.end()

    def mouseMoveEvent(self, event):
        hit = self.cell_at(event.position())
        if hit != self._hover:
            self._hover = hit
            self.hovered.emit(*(hit or (-1, -1, -1)))
        super().mouseMoveEvent(event)

    def leaveEvent(self, event):
        if self._hover is not None:
            self._hover = None
            self.hovered.emit(-1, -1, -1)
        super().leaveEvent(event)

    def mousePressEvent(self, event):
        if event.button() == QtCore.Qt.MouseButton.LeftButton:
            hit = self.cell_at(event.position())
            if hit is not None:
                self.clicked.emit(*hit)
                event.accept()
                return
        super().mousePressEvent(event)

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
