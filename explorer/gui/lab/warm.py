"""The labs' slow first imports, made on a thread of their own before anyone waits for them.

pyqtgraph's import makes every enum of QtCore, QtGui and QtWidgets (about 600) and costs the
thread that runs it 0.3–2.5 s (docs/benchmarks.md); torch's first optimiser costs 2–5 s more
(explorer.lab.warm_up). ``warm_up_labs()`` starts both once, when a lab's tab is built: the
curves are ready by the time its training page is looked at, and Train starts at once. The
GUI thread's garbage collections are held meanwhile (walking the imports' ~100,000 new
objects took it 60 ms of CPU at a time), then those objects are frozen: they live as long as
the window.
"""

from __future__ import annotations

import threading

from PySide6 import QtCore, QtWidgets

from explorer.gui.app_setup import hold_collections, settle
from explorer.lab import warm_up, warmed

CHECK_MS = 50
_plotting = threading.Event()  # pyqtgraph is imported (or failed to be)


def _import_pyqtgraph() -> None:
    try:
        import pyqtgraph  # noqa: F401
    finally:
        _plotting.set()


def plotting_ready() -> bool:
    """pyqtgraph can be used on the GUI thread without waiting for its import."""
    return _plotting.is_set()


class _Warming(QtCore.QObject):
    """Resumes the GUI thread's collections when the warm-up has ended (a timer on its thread)."""

    def __init__(self, parent):
        super().__init__(parent)
        self.timer = QtCore.QTimer(self, interval=CHECK_MS)
        self.timer.timeout.connect(self._check)

    def _check(self) -> None:
        if warmed():
            self.timer.stop()
            settle()
            hold_collections(False)


_warming: _Warming | None = None


def warm_up_labs() -> None:
    """Once per process: pyqtgraph, then the first optimiser, on a thread of their own."""
    global _warming
    # PySide6 makes an enum type when it is first read; one first read on this thread while the
    # import reads QStyle's on its own once failed ("QStyle has no attribute SubControl"): the
    # ones the window's painting reads are made here, before the thread starts (about 25 ms).
    _ = QtWidgets.QStyle.SubControl, QtWidgets.QStyle.ComplexControl, QtWidgets.QStyle.PixelMetric
    if not warm_up(first=_import_pyqtgraph):
        return
    hold_collections(True)  # the timer below runs on this thread: nothing collects in between
    _warming = _Warming(QtWidgets.QApplication.instance())
    _warming.timer.start()


def warming() -> bool:
    """The warm-up is under way (the GUI thread's collections are held)."""
    return _warming is not None and _warming.timer.isActive()
