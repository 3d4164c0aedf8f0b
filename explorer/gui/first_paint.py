"""``after_first_paint(window, then)``: run ``then`` once the window has painted itself.

Loading a model's tokenizer holds the interpreter lock (``tokenizers`` builds its tables in one
call: 40–100 ms for MiniLM). Started at the window's show, that load held the first paint back
until it ended; started after the first paint, it runs while the window already shows its
banner and waits for nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtCore, QtWidgets

LATEST_MS = 1000  # then anyway (a window that is never exposed never paints)


class _FirstPaint(QtCore.QObject):
    def __init__(self, window: QtWidgets.QWidget, then: Callable[[], None]):
        super().__init__(window)
        self.window, self.then = window, then
        QtWidgets.QApplication.instance().installEventFilter(self)
        QtCore.QTimer.singleShot(LATEST_MS, self, self._run)

    def eventFilter(self, obj, event) -> bool:
        if (
            event.type() == QtCore.QEvent.Type.Paint
            and isinstance(obj, QtWidgets.QWidget)
            and obj.window() is self.window
        ):
            QtCore.QTimer.singleShot(0, self, self._run)  # once this paint (and its siblings') ends
            QtWidgets.QApplication.instance().removeEventFilter(self)
        return False

    def _run(self) -> None:
        if self.then is not None:
            then, self.then = self.then, None
            QtWidgets.QApplication.instance().removeEventFilter(self)
            then()


def after_first_paint(window: QtWidgets.QWidget, then: Callable[[], None]) -> None:
    _FirstPaint(window, then)
