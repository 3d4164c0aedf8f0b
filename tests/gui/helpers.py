"""Helpers of the window tests: waiting for a trace, hovering and clicking cells, pixels."""

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

WAIT_MS = 30_000
ANIMAL = "The animal didn't cross the street because it was too tired"


def wait_trace(qtbot, window, **expected):
    """Wait until the window holds a trace of these config values and computes nothing more."""

    def done():
        t = window.trace
        assert t is not None and not window.worker.busy("trace")
        for key, value in expected.items():
            assert getattr(t.config, key) == value

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return window.trace


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
