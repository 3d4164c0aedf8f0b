"""Driving the views as a user would: click a matrix cell on screen."""

from PySide6 import QtCore, QtGui, QtWidgets


def cell_point(graphics, heatmap, row: int, col: int) -> QtCore.QPoint:
    scene_pt = heatmap.image.mapToScene(QtCore.QPointF(col + 0.5, row + 0.5))
    return graphics.mapFromScene(scene_pt)


def click_cell(qtbot, graphics, heatmap, row: int, col: int) -> None:
    qtbot.mouseClick(
        graphics.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=cell_point(graphics, heatmap, row, col)
    )


def hover_cell(qtbot, graphics, heatmap, row: int, col: int) -> None:
    """A real mouse-move event (QTest.mouseMove only moves the cursor, which offscreen ignores)."""
    viewport = graphics.viewport()
    pos = QtCore.QPointF(cell_point(graphics, heatmap, row, col))
    event = QtGui.QMouseEvent(
        QtCore.QEvent.Type.MouseMove,
        pos,
        viewport.mapToGlobal(pos),
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(viewport, event)
