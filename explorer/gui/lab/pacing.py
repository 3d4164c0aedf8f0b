"""Heavy draws one at a time, across the whole window, while a lab trains.

One tick of a training lab can ask for a plot's new data and for a map of the newest snapshot
at once; drawn in the same turn of the event loop, both are painted in the same repaint of
the window, and the GUI thread is blocked for their sum. ``later(owner, draw)`` queues a draw
instead: one runs per turn, ``GAP_MS`` after the one before, so each is painted before the
next begins. A draw queued again for the same owner and name before it ran replaces the older
one (only the newest data is worth drawing), and a draw whose owner was deleted is dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import shiboken6
from PySide6 import QtCore, QtWidgets

GAP_MS = 12  # between two heavy draws: the first one's paint, and a turn for input between them


class Pacer(QtCore.QObject):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.jobs: dict[tuple[int, str], tuple[QtCore.QObject, Callable[[], None]]] = {}
        self.timer = QtCore.QTimer(self, singleShot=True)
        self.timer.timeout.connect(self._run)
        self.last = 0.0  # when the last draw ended (perf_counter)

    def later(self, owner: QtCore.QObject, draw: Callable[[], None], name: str = "") -> None:
        key = (id(owner), name)
        self.jobs.pop(key, None)  # the newest data, in its turn at the end of the queue
        self.jobs[key] = (owner, draw)
        if not self.timer.isActive():
            since_ms = (time.perf_counter() - self.last) * 1e3
            self.timer.start(max(0, int(GAP_MS - since_ms)))

    def pending(self, owner: QtCore.QObject, name: str = "") -> bool:
        return (id(owner), name) in self.jobs

    def _run(self) -> None:
        while self.jobs:
            owner, draw = self.jobs.pop(next(iter(self.jobs)))
            if shiboken6.isValid(owner):
                try:
                    draw()
                finally:
                    self.last = time.perf_counter()
                    if self.jobs:
                        self.timer.start(GAP_MS)
                return


_pacer: list[Pacer] = []


def later(owner: QtCore.QObject, draw: Callable[[], None], name: str = "") -> None:
    """Run ``draw`` in its own turn of the event loop (see the module docstring)."""
    if not _pacer or not shiboken6.isValid(_pacer[0]):
        _pacer[:] = [Pacer(QtWidgets.QApplication.instance())]
    _pacer[0].later(owner, draw, name)


def pending(owner: QtCore.QObject, name: str = "") -> bool:
    """A draw of ``owner`` is queued and has not run yet."""
    return bool(_pacer) and shiboken6.isValid(_pacer[0]) and _pacer[0].pending(owner, name)
