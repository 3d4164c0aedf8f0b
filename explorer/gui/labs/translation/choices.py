"""The Translation tab's choices (model, scoring, attention, the Transformer's kind, layer
and head), each a label and its box, laid out as many to a row as the width holds.

One row of seven labelled boxes needs about 740 px at the projector's 22 px text: more than
the tab has beside the lesson at 1024×768. A QTabWidget is as wide as its widest page's
minimum, so such a row would widen the window on every tab. These rows ask only for the
width of one labelled box and re-flow into two or more rows when the width is short.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

ARROW_PX = 48  # a combo box's frame and arrow beside its text
Pair = tuple[QtWidgets.QWidget | None, QtWidgets.QWidget]  # (its label or None, the box)


class ChoiceRows(QtWidgets.QWidget):
    """Groups of (label, box) pairs; each group starts a row and is cut into rows of as many
    of its pairs as fit. Hidden boxes take no place."""

    def __init__(self, groups: list[list[Pair]], parent=None):
        super().__init__(parent)
        self.groups = groups
        self.per_row: tuple[int, ...] = ()  # pairs a row in each group now
        self.grid = QtWidgets.QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        for group in groups:
            for label, box in group:
                if label is not None:
                    self.grid.addWidget(label)
                self.grid.addWidget(box)
                if isinstance(box, QtWidgets.QComboBox):  # another item, another language
                    box.currentTextChanged.connect(self._refit)
        self._arrange(tuple(len(g) for g in groups))

    def _pairs(self) -> list[list[Pair]]:
        return [[p for p in g if p[1].isVisibleTo(self)] for g in self.groups]

    def _row_width(self, row: list[Pair], minimum: bool) -> int:
        def width(w: QtWidgets.QWidget) -> int:
            if minimum:
                return w.minimumSizeHint().width()
            if isinstance(w, QtWidgets.QComboBox):  # its chosen item whole, not elided
                return max(
                    w.sizeHint().width(), w.fontMetrics().horizontalAdvance(w.currentText()) + ARROW_PX
                )
            return w.sizeHint().width()

        spacing = max(0, self.grid.horizontalSpacing())
        widths = [width(w) for pair in row for w in pair if w is not None]
        return sum(widths) + spacing * max(0, len(widths) - 1)

    def _rows(self, per_row: tuple[int, ...], groups=None) -> list[list[Pair]]:
        groups = self._pairs() if groups is None else groups
        return [g[k : k + n] for g, n in zip(groups, per_row) for k in range(0, len(g), n)]

    def needed(self, per_row: tuple[int, ...], minimum: bool = False, groups=None) -> int:
        """The width the rows need with ``per_row`` pairs a row in each group (at the width
        their texts want, or at their minimums)."""
        rows = self._rows(per_row, groups)
        return max((self._row_width(r, minimum) for r in rows), default=0)

    def fitting(self) -> tuple[int, ...]:
        """For each group, the most pairs a row that fit this width, every text whole (at least one)."""
        return tuple(
            next((k for k in range(len(g), 1, -1) if self.needed((k,), False, [g]) <= self.width()), 1)
            for g in self._pairs()
        )

    def _arrange(self, per_row: tuple[int, ...]) -> None:
        self.per_row = per_row
        for k in reversed(range(self.grid.count())):
            self.grid.takeAt(k)
        for r, row in enumerate(self._rows(per_row)):
            for c, (label, box) in enumerate(row):
                if label is not None:
                    self.grid.addWidget(label, r, 2 * c)
                self.grid.addWidget(box, r, 2 * c + 1)
        widest = max(per_row, default=1)
        for c in range(self.grid.columnCount()):  # the boxes take the room, the labels their text
            self.grid.setColumnStretch(c, c % 2 if c < 2 * widest else 0)
        self.updateGeometry()

    def rearrange(self) -> None:
        """Re-flow for the current width, fonts and shown boxes."""
        self._arrange(self.fitting())

    def minimumSizeHint(self) -> QtCore.QSize:
        # the width of one pair a row: never what widens the window; the height of the rows now
        hint = super().minimumSizeHint()
        ones = (1,) * len(self.groups)
        return QtCore.QSize(self.needed(ones, minimum=True), hint.height())

    def _refit(self) -> None:
        if self.fitting() != self.per_row:
            self._arrange(self.fitting())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._refit()

    def event(self, event) -> bool:
        if event.type() == QtCore.QEvent.Type.LayoutRequest:
            self._refit()  # a larger font: maybe fewer a row
        return super().event(event)
