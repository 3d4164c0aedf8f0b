"""A row of controls that wraps onto more lines when the window is narrow.

A projector at 1024×768 with 20 px text (and the lesson column beside the tab) has about
550 px for the tab: a row of seven controls would widen the window past the screen. The
flow keeps the controls in reading order, as many on a line as fit, and asks only for its
widest control's width.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


class FlowLayout(QtWidgets.QLayout):
    """Items left to right, wrapped at the layout's width; a stretch item takes a line's rest."""

    def __init__(self, parent=None, spacing: int = 6):
        super().__init__(parent)
        self._items: list[QtWidgets.QLayoutItem] = []
        self._stretch: set[int] = set()  # ids of items that take the rest of their line
        self._heights: dict[tuple, int] = {}  # a height for a width and the items' sizes
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    def add(self, widget: QtWidgets.QWidget, stretch: bool = False) -> None:
        self.addWidget(widget)
        if stretch:
            self._stretch.add(id(self._items[-1]))

    # -- QLayout -----------------------------------------------------------------------------------------
    def addItem(self, item: QtWidgets.QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):
        if not 0 <= index < len(self._items):
            return None
        item = self._items.pop(index)
        self._stretch.discard(id(item))
        return item

    def expandingDirections(self):
        return QtCore.Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        # asked several times for each layout of the window (every new status line while a lab
        # trains): the same width and the same items' sizes give the same height
        sizes = tuple(
            (i.sizeHint().width(), i.sizeHint().height(), id(i) in self._stretch) for i in self._shown()
        )
        m = self.contentsMargins()
        key = (width, self.spacing(), m.left(), m.top(), m.right(), m.bottom(), sizes)
        if key not in self._heights:
            if len(self._heights) > 64:
                self._heights.clear()
            self._heights[key] = self._place(QtCore.QRect(0, 0, width, 0), move=False)
        return self._heights[key]

    def setGeometry(self, rect: QtCore.QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QtCore.QSize:
        shown = self._shown()
        width = sum(i.sizeHint().width() for i in shown) + self.spacing() * max(0, len(shown) - 1)
        height = max((i.sizeHint().height() for i in shown), default=0)
        m = self.contentsMargins()
        return QtCore.QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QtCore.QSize:
        size = QtCore.QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QtCore.QSize(m.left() + m.right(), m.top() + m.bottom())

    # -- placing -----------------------------------------------------------------------------------------
    def _shown(self) -> list[QtWidgets.QLayoutItem]:
        return [i for i in self._items if not i.isEmpty()]

    def _lines(self, width: int) -> list[list[QtWidgets.QLayoutItem]]:
        lines: list[list[QtWidgets.QLayoutItem]] = [[]]
        used = 0
        for item in self._shown():
            w = item.sizeHint().width()
            if lines[-1] and used + self.spacing() + w > width:
                lines.append([])
                used = 0
            used += (self.spacing() if lines[-1] else 0) + w
            lines[-1].append(item)
        return [line for line in lines if line]

    def _place(self, rect: QtCore.QRect, move: bool) -> int:
        m = self.contentsMargins()
        inner = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        y = inner.y()
        for line in self._lines(inner.width()):
            height = max(i.sizeHint().height() for i in line)
            widths = [min(i.sizeHint().width(), inner.width()) for i in line]
            rest = inner.width() - sum(widths) - self.spacing() * (len(line) - 1)
            stretched = [k for k, i in enumerate(line) if id(i) in self._stretch]
            for k in stretched:
                widths[k] += max(0, rest) // len(stretched)
            x = inner.x()
            for item, w in zip(line, widths):
                if move:
                    item.setGeometry(QtCore.QRect(x, y, w, height))
                x += w + self.spacing()
            y += height + self.spacing()
        return y - self.spacing() - inner.y() + m.top() + m.bottom() if y > inner.y() else 0


def together(*widgets: QtWidgets.QWidget) -> QtWidgets.QWidget:
    """Widgets as one item of a flow, so a wrap never parts them (a label from its control)."""
    box = QtWidgets.QWidget()
    row = QtWidgets.QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(4)
    for widget in widgets:
        row.addWidget(widget)
    return box
