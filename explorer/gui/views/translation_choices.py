"""The Translation tab's choices (model, scoring, attention, the Transformer's kind, layer
and head), each a label and its box, laid out as many to a row as the width holds.

One row of seven labelled boxes needs about 740 px at the projector's 22 px text: more than
the tab has beside the lesson at 1024×768. A QTabWidget is as wide as its widest page's
minimum, so such a row would widen the window on every tab. These rows ask only for the
width of one labelled box and re-flow into two or more rows when the width is short.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

Pair = tuple[QtWidgets.QWidget | None, QtWidgets.QWidget]  # (its label or None, the box)


class ChoiceRows(QtWidgets.QWidget):
    """Groups of (label, box) pairs; each group starts a row and is cut into rows of as many
    pairs as fit. Hidden boxes take no place."""

    def __init__(self, groups: list[list[Pair]], parent=None):
        super().__init__(parent)
        self.groups = groups
        self.per_row = 0  # pairs a row now (0: not laid out yet)
        self.grid = QtWidgets.QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        for group in groups:
            for label, box in group:
                if label is not None:
                    self.grid.addWidget(label)
                self.grid.addWidget(box)
        self._arrange(max(len(g) for g in groups))

    def _pairs(self) -> list[list[Pair]]:
        return [[p for p in g if p[1].isVisibleTo(self)] for g in self.groups]

    def _row_width(self, row: list[Pair], minimum: bool) -> int:
        def width(w: QtWidgets.QWidget) -> int:
            return (w.minimumSizeHint() if minimum else w.sizeHint()).width()

        spacing = max(0, self.grid.horizontalSpacing())
        widths = [width(w) for pair in row for w in pair if w is not None]
        return sum(widths) + spacing * max(0, len(widths) - 1)

    def _rows(self, per_row: int) -> list[list[Pair]]:
        return [g[k : k + per_row] for g in self._pairs() for k in range(0, len(g), per_row)]

    def needed(self, per_row: int, minimum: bool = False) -> int:
        """The width the rows need with ``per_row`` pairs each (at their size hints, or minimums)."""
        return max((self._row_width(r, minimum) for r in self._rows(per_row)), default=0)

    def fitting(self) -> int:
        """The most pairs a row whose rows fit this width at their size hints (at least one)."""
        most = max((len(g) for g in self._pairs()), default=1)
        return next((k for k in range(most, 1, -1) if self.needed(k) <= self.width()), 1)

    def _arrange(self, per_row: int) -> None:
        self.per_row = per_row
        for k in reversed(range(self.grid.count())):
            self.grid.takeAt(k)
        for r, row in enumerate(self._rows(per_row)):
            for c, (label, box) in enumerate(row):
                if label is not None:
                    self.grid.addWidget(label, r, 2 * c)
                self.grid.addWidget(box, r, 2 * c + 1)
        for c in range(self.grid.columnCount()):  # the boxes take the room, the labels their text
            self.grid.setColumnStretch(c, c % 2 if c < 2 * per_row else 0)
        self.updateGeometry()

    def rearrange(self) -> None:
        """Re-flow for the current width, fonts and shown boxes."""
        self._arrange(self.fitting())

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802
        # the width of one pair a row: never what widens the window; the height of the rows now
        hint = super().minimumSizeHint()
        return QtCore.QSize(self.needed(1, minimum=True), hint.height())

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self.fitting() != self.per_row:
            self._arrange(self.fitting())

    def event(self, event) -> bool:
        if event.type() == QtCore.QEvent.Type.LayoutRequest and self.fitting() != self.per_row:
            self._arrange(self.fitting())  # a larger font or a box shown: maybe fewer a row
        return super().event(event)
