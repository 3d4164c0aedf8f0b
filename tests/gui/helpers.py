"""Driving the views as a user would: hover and click a matrix cell on screen."""

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets


def cell_point(canvas, panel: int, row: int, col: int) -> QtCore.QPoint:
    return canvas.cell_centre(panel, row, col).toPoint()


def click_cell(qtbot, canvas, panel: int, row: int, col: int) -> None:
    qtbot.mouseClick(canvas, QtCore.Qt.MouseButton.LeftButton, pos=cell_point(canvas, panel, row, col))


def double_click_panel(qtbot, canvas, panel: int) -> None:
    rect = canvas.plot_rect(panel)
    qtbot.mouseDClick(canvas, QtCore.Qt.MouseButton.LeftButton, pos=rect.center().toPoint())


def hover_cell(qtbot, canvas, panel: int, row: int, col: int) -> None:
    """A real mouse-move event (QTest.mouseMove only moves the cursor, which offscreen ignores)."""
    pos = QtCore.QPointF(cell_point(canvas, panel, row, col))
    event = QtGui.QMouseEvent(
        QtCore.QEvent.Type.MouseMove,
        pos,
        canvas.mapToGlobal(pos),
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(canvas, event)


def pixels(image: QtGui.QImage) -> np.ndarray:
    """An image's pixels as uint8 [height, width, 3] (RGB)."""
    img = image.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    w, h = img.width(), img.height()
    raw = np.frombuffer(img.constBits(), np.uint8, img.sizeInBytes()).reshape(h, img.bytesPerLine())
    bgra = raw[:, : w * 4].reshape(h, w, 4)
    return bgra[..., [2, 1, 0]].copy()


# -- the pyqtgraph views, until the window moves to the lean heatmap -------------------------
def plot_cell_point(graphics, heatmap, row: int, col: int) -> QtCore.QPoint:
    scene_pt = heatmap.image.mapToScene(QtCore.QPointF(col + 0.5, row + 0.5))
    return graphics.mapFromScene(scene_pt)


def plot_click_cell(qtbot, graphics, heatmap, row: int, col: int) -> None:
    qtbot.mouseClick(
        graphics.viewport(),
        QtCore.Qt.MouseButton.LeftButton,
        pos=plot_cell_point(graphics, heatmap, row, col),
    )


def plot_hover_cell(qtbot, graphics, heatmap, row: int, col: int) -> None:
    viewport = graphics.viewport()
    pos = QtCore.QPointF(plot_cell_point(graphics, heatmap, row, col))
    event = QtGui.QMouseEvent(
        QtCore.QEvent.Type.MouseMove,
        pos,
        viewport.mapToGlobal(pos),
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(viewport, event)
