"""A line under a text field while it has the keys: Esc gives them back.

In presentation mode the status bar, which said so, is hidden; a teacher who clicked into
the sentence pressed → to step the lesson and moved the text cursor instead (trial 10). The
hint stands under the field (above it where the window ends), over whatever is there, takes
no clicks, and goes when the field loses the keys.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

GAP_PX = 2  # between the field and the hint
TEXT_FIELDS = (QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox, QtWidgets.QTextEdit, QtWidgets.QPlainTextEdit)


def typing_in(widget: QtWidgets.QWidget | None) -> bool:
    """Whether the keys go into a text: a field, a number box, a combo box one types in (a lab's
    sentence box); there → moves the cursor, not the lesson."""
    if isinstance(widget, QtWidgets.QComboBox):
        return widget.isEditable()
    return isinstance(widget, TEXT_FIELDS)


class KeyHint(QtWidgets.QLabel):
    """A tooltip-like label, a child of the window (not a top-level one: it never takes the
    focus and moves with the window)."""

    def __init__(self, window: QtWidgets.QWidget):
        super().__init__(window)
        self.setObjectName("keyHint")
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.setAutoFillBackground(True)
        self.setForegroundRole(QtGui.QPalette.ColorRole.ToolTipText)
        self.setBackgroundRole(QtGui.QPalette.ColorRole.ToolTipBase)
        self.setFrameShape(QtWidgets.QFrame.Shape.Box)
        self.setMargin(3)
        self.field: QtWidgets.QWidget | None = None
        self.hide()

    def show_under(self, field: QtWidgets.QWidget, text: str) -> None:
        self.field = field
        self.setText(text)
        self.place()
        self.show()
        self.raise_()

    def place(self) -> None:
        """Under the field, left-aligned with it, inside the window."""
        if self.field is None:
            return
        window = self.parentWidget()
        self.setWordWrap(False)
        if self.sizeHint().width() > window.width():  # a narrow window: on two lines, whole
            self.setWordWrap(True)
            self.resize(window.width(), self.heightForWidth(window.width()))
        else:
            self.resize(self.sizeHint())
        top_left = self.field.mapTo(window, QtCore.QPoint(0, 0))
        y = top_left.y() + self.field.height() + GAP_PX
        if y + self.height() > window.height():  # no room below: above the field
            y = top_left.y() - GAP_PX - self.height()
        x = min(top_left.x(), window.width() - self.width())
        self.move(max(0, x), max(0, y))

    def dismiss(self) -> None:
        self.field = None
        self.hide()
