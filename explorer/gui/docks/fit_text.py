"""The largest text size at which a wrapped label's text fits a height.

The lesson column beside the stage reads each step whole, without scrolling, in front of a
class; once its title and formula rows took their real heights, nine English explanations ran
5 to 96 px past the column at 1024×768. Those shrink, a pixel at a time, to a floor (22 → 20 px
there); the rest keep the window's size.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

FLOOR = 0.75  # the smallest size, as a share of the window's text size: still read from the back
LEAST_PX = 20  # and never smaller than a projector's least text (tests/gui/projector_check.py)
SLACK_PX = 2  # QLabel lays its lines out a pixel or two taller than the font metrics say


def text_height(font: QtGui.QFont, text: str, width: int) -> int:
    flags = int(QtCore.Qt.TextFlag.TextWordWrap | QtCore.Qt.AlignmentFlag.AlignLeft)
    return QtGui.QFontMetrics(font).boundingRect(QtCore.QRect(0, 0, width, 1 << 20), flags, text).height()


def fitting_px(labels: list[QtWidgets.QLabel], base_px: int, width: int, room: int) -> int:
    """``base_px`` if the labels' texts, one under another, fit ``room`` at ``width``, else the
    largest size down to the floor at which they do (the floor when none does: it scrolls)."""
    font = QtGui.QFont(labels[0].font())
    floor = max(min(base_px, LEAST_PX), round(FLOOR * base_px))
    texts = [label.text() for label in labels if label.text()]
    for px in range(base_px, floor, -1):
        font.setPixelSize(px)
        if sum(text_height(font, text, width) + SLACK_PX for text in texts) <= room:
            return px
    return floor
