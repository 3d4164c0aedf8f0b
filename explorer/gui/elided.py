"""Widgets that never widen the window and never cut their text silently: a label of one
line and a combo box, each showing as much as fits with "…" at the cut, the whole text in
its tooltip. A projector at 1024×768 has no room to spare; a text cut without a mark reads
as a different text.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


class ElidedLabel(QtWidgets.QLabel):
    """One line: ``text()`` is the whole text, the label shows as much as fits, the tooltip
    holds it all and a click shows it at once."""

    def __init__(self, parent=None, mode: QtCore.Qt.TextElideMode = QtCore.Qt.TextElideMode.ElideRight):
        super().__init__(parent)
        self._full = ""
        self._mode = mode  # ElideMiddle: a line whose end matters (a value after its name)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)

    def text(self) -> str:  # the whole text, not what fits
        return self._full

    def setText(self, text: str) -> None:
        self._full = text or ""
        self.setToolTip(self._full if self.shown_text() != self._full else "")
        self._elide()

    def shown_text(self) -> str:
        return super().text()

    def sizeHint(self) -> QtCore.QSize:
        # asks for a few characters only: a long line takes the room a layout has left,
        # never more (the text is cut to it)
        hint = super().sizeHint()
        hint.setWidth(min(hint.width(), 12 * self.fontMetrics().averageCharWidth()))
        return hint

    def minimumSizeHint(self) -> QtCore.QSize:
        hint = super().minimumSizeHint()
        hint.setWidth(min(hint.width(), 3 * self.fontMetrics().averageCharWidth()))
        return hint

    def _elide(self) -> None:
        margins = self.contentsMargins()
        room = max(10, self.width() - margins.left() - margins.right() - 2 * self.margin() - 12)
        elided = self.fontMetrics().elidedText(self._full, self._mode, room)
        if elided != super().text():
            super().setText(elided)
        self.setToolTip(self._full if elided != self._full else "")

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._elide()

    def mousePressEvent(self, event):
        if self._full and self.shown_text() != self._full:
            QtWidgets.QToolTip.showText(event.globalPosition().toPoint(), self._full, self)
        super().mousePressEvent(event)


class ElidedCombo(QtWidgets.QComboBox):
    """A combo box as wide as its layout gives it (a few characters at least), its current
    item elided to fit; the open list shows every item whole."""

    def __init__(self, parent=None, min_chars: int = 8):
        super().__init__(parent)
        self.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(min_chars)
        self._hint_key: tuple | None = None
        self._hint = QtCore.QSize()
        self.currentIndexChanged.connect(lambda _: self.updateGeometry())

    def sizeHint(self) -> QtCore.QSize:
        """Room for the current item whole, where the layout has it (a toolbar, a free row);
        the minimum stays a few characters, so it never widens the window."""
        hint = super().sizeHint()
        key = (self.currentText(), self.font().key(), hint.width(), hint.height())
        if self._hint_key != key:  # layouts ask often; the style's answer costs a millisecond
            option = QtWidgets.QStyleOptionComboBox()
            self.initStyleOption(option)
            text = QtCore.QSize(self.fontMetrics().horizontalAdvance(self.currentText()) + 8, hint.height())
            need = self.style().sizeFromContents(
                QtWidgets.QStyle.ContentsType.CT_ComboBox, option, text, self
            )
            self._hint_key, self._hint = key, QtCore.QSize(max(hint.width(), need.width()), hint.height())
        return QtCore.QSize(self._hint)

    def text_room(self) -> int:
        """The pixels the current item has inside the box."""
        option = QtWidgets.QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(
            QtWidgets.QStyle.ComplexControl.CC_ComboBox,
            option,
            QtWidgets.QStyle.SubControl.SC_ComboBoxEditField,
            self,
        )
        return max(10, field.width() - 4)

    def shown_text(self) -> str:
        return self.fontMetrics().elidedText(
            self.currentText(), QtCore.Qt.TextElideMode.ElideRight, self.text_room()
        )

    def paintEvent(self, event):
        if self._hint_key is not None and self._hint_key[0] != self.currentText():
            self.updateGeometry()  # items replaced with signals blocked: ask for the room again
        painter = QtWidgets.QStylePainter(self)
        option = QtWidgets.QStyleOptionComboBox()
        self.initStyleOption(option)
        option.currentText = self.shown_text()
        painter.drawComplexControl(QtWidgets.QStyle.ComplexControl.CC_ComboBox, option)
        painter.drawControl(QtWidgets.QStyle.ControlElement.CE_ComboBoxLabel, option)
        painter.end()


class WrappedLabel(QtWidgets.QLabel):
    """A word-wrapped label whose minimum height is every line at its width and font. The
    lesson column, laid out above the stage and then beside it in the presentation's larger
    font, kept the rows it had measured in the smaller one: a two-line formula showed one line
    ("softmax(W_LM ·", the rest cut). A set minimum is what the layout reads afresh (its cached
    hints were stale)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def setWordWrap(self, on: bool) -> None:
        super().setWordWrap(on)
        self._fit()

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self._fit()  # another width, another count of lines

    def hasHeightForWidth(self) -> bool:
        # The set minimum is the height at this width. A grid that asks the height for a width
        # instead got a cached one in a smaller font (15 px where a line takes 26): the title and
        # formula rows were shorter than their labels, each drawn over the next (stop 36)
        return False if self._laid_out() else super().hasHeightForWidth()

    def sizeHint(self) -> QtCore.QSize:
        hint = super().sizeHint()  # its height is for a width of its own choosing, not this one
        return QtCore.QSize(hint.width(), self.minimumHeight()) if self._laid_out() else hint

    def _laid_out(self) -> bool:
        return self.wordWrap() and bool(self.text()) and self.minimumHeight() > 0

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._fit()

    def _fit(self) -> None:
        laid_out = self.width() >= 8 * self.fontMetrics().averageCharWidth()  # not a passing width
        if not (self.wordWrap() and self.text() and laid_out):
            self.setMinimumHeight(0)
            return
        kept = self.minimumHeight()
        self.setMinimumHeight(0)  # QLabel's height for a width includes a set minimum: never less
        need = self.heightForWidth(self.width())
        self.setMinimumHeight(need if need > 0 else kept)
