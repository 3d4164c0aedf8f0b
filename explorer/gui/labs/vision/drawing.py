"""The drawing canvas: the picture, large, and a brush that paints strokes on it with the mouse.

The canvas shows the pixels it is given (the drawing so far, rendered by
explorer.appstate.vision.render_drawing) and previews the stroke being drawn; when the button
is released it reports the stroke (colour, radius, points in pixel units) and the state adds
it. It never keeps pixels of its own: what is drawn is the state's.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.vision import DRAW_COLOURS, MAX_POINTS, Stroke
from explorer.vision.shapes import IMAGE_SIZE

MIN_STEP_PX = 0.35  # a new point once the brush moved this far (pixels of the picture)


def qcolour(name: str) -> QtGui.QColor:
    r, g, b = DRAW_COLOURS[name]
    return QtGui.QColor.fromRgbF(r, g, b)


def picture_image(pixels: np.ndarray) -> QtGui.QImage:
    """[H, W, 3] floats in [0, 1] as a QImage (the array is kept alive with it)."""
    rgb = np.ascontiguousarray(np.clip(np.round(pixels * 255), 0, 255).astype(np.uint8))
    h, w = rgb.shape[:2]
    image = QtGui.QImage(rgb.data, w, h, 3 * w, QtGui.QImage.Format.Format_RGB888)
    image._pixels = rgb
    return image


class DrawCanvas(QtWidgets.QWidget):
    strokeFinished = QtCore.Signal(object)  # an explorer.appstate.vision.Stroke

    def __init__(self, parent=None):
        super().__init__(parent)
        self.image: QtGui.QImage | None = None
        self.colour = "red"
        self.radius = 2.0
        self.frame = QtGui.QColor("#808080")
        self._points: list[tuple[float, float]] = []
        self.setMinimumSize(128, 128)
        self.setCursor(QtCore.Qt.CursorShape.CrossCursor)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(320, 320)

    def set_pixels(self, pixels: np.ndarray) -> None:
        self.image = picture_image(pixels)
        self.update()

    def set_brush(self, colour: str, radius: float) -> None:
        self.colour, self.radius = colour, float(radius)

    # -- geometry: the picture is square, centred --------------------------------------------------
    def picture_rect(self) -> QtCore.QRectF:
        side = max(1.0, min(self.width(), self.height()) - 2.0)
        return QtCore.QRectF((self.width() - side) / 2, (self.height() - side) / 2, side, side)

    def pixel_of(self, pos: QtCore.QPointF) -> tuple[float, float]:
        """(row, column) in pixels of the picture, clamped to it."""
        r = self.picture_rect()
        scale = IMAGE_SIZE / r.width()
        row = min(max((pos.y() - r.top()) * scale, 0.0), float(IMAGE_SIZE))
        col = min(max((pos.x() - r.left()) * scale, 0.0), float(IMAGE_SIZE))
        return row, col

    def point_of(self, row: float, col: float) -> QtCore.QPoint:
        """Where pixel (row, column) is on the widget (tests draw there)."""
        r = self.picture_rect()
        scale = r.width() / IMAGE_SIZE
        return QtCore.QPointF(r.left() + col * scale, r.top() + row * scale).toPoint()

    # -- painting ------------------------------------------------------------------------------------
    def paintEvent(self, event):
        p = QtGui.QPainter(self)
        try:
            r = self.picture_rect()
            if self.image is not None:
                p.setRenderHint(QtGui.QPainter.RenderHint.SmoothPixmapTransform, False)
                p.drawImage(r, self.image)
            p.setPen(QtGui.QPen(self.frame, 1))
            p.drawRect(r.adjusted(-0.5, -0.5, 0.5, 0.5))
            if self._points:  # the stroke being drawn, as it will be painted
                scale = r.width() / IMAGE_SIZE
                pen = QtGui.QPen(qcolour(self.colour), 2 * self.radius * scale)
                pen.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
                pen.setJoinStyle(QtCore.Qt.PenJoinStyle.RoundJoin)
                p.setPen(pen)
                points = [
                    QtCore.QPointF(r.left() + c * scale, r.top() + row * scale) for row, c in self._points
                ]
                if len(points) == 1:
                    p.drawPoint(points[0])
                else:
                    p.drawPolyline(QtGui.QPolygonF(points))
        finally:
            p.end()

    # -- the brush -----------------------------------------------------------------------------------
    def mousePressEvent(self, event):
        if event.button() == QtCore.Qt.MouseButton.LeftButton:
            self._points = [self.pixel_of(event.position())]
            self.update()
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event):
        if self._points and event.buttons() & QtCore.Qt.MouseButton.LeftButton:
            row, col = self.pixel_of(event.position())
            last = self._points[-1]
            if math.dist(last, (row, col)) >= MIN_STEP_PX and len(self._points) < MAX_POINTS:
                self._points.append((row, col))
                self.update()
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):
        if event.button() == QtCore.Qt.MouseButton.LeftButton and self._points:
            points, self._points = self._points, []
            stroke = Stroke(self.colour, self.radius, tuple((round(r, 2), round(c, 2)) for r, c in points))
            self.update()
            self.strokeFinished.emit(stroke)
            event.accept()
            return
        super().mouseReleaseEvent(event)
