"""The labs' slow first imports, made before anyone waits for them.

pyqtgraph's import makes every enum of QtCore, QtGui and QtWidgets (about 600): it runs on the
GUI thread at start-up (explorer.gui.app_setup.import_plotting), since two threads making
PySide6's enum types at once failed; here it only happens for a process that did not start
that way. Torch's first optimiser costs 2–5 s (explorer.lab.warm_up): ``warm_up_labs()`` makes
it once, on a thread of its own, so Train starts at once: ``warm_up_when_idle(widget)`` starts it
when the window has been calm a moment after start-up (no input, no long turn of the event
loop: the import shares the interpreter lock with the window's thread); a lab's tab built
before that waits for the same calm (started at once, its imports doubled the time of the
first keystrokes on the tab). A run started meanwhile waits for it on its own thread; one
started before it does the imports itself. The GUI
thread's garbage collections are held meanwhile (walking the imports' ~100,000 new objects
took it 60 ms of CPU at a time), then those objects are frozen: they live as long as the
window. The warm-up thread also imports what numpy loads lazily on a first call the curves
make while a run trains (numpy.ma, ~30 ms on the GUI thread).
"""

from __future__ import annotations

import importlib
import sys
import time

import shiboken6
from PySide6 import QtCore, QtWidgets

from explorer.gui.app_setup import hold_collections, import_plotting, settle
from explorer.lab import warm_up, warmed
from explorer.lab.warm_up import started

CHECK_MS = 50
LAZY_IMPORTS = ("numpy.ma",)  # numpy imports it on the first np.unique, np.ma.is_masked, …


def plotting_ready() -> bool:
    """pyqtgraph can be used on the GUI thread without waiting for its import."""
    return "pyqtgraph" in sys.modules


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

IDLE_CHECK_MS = 100
CALM_MS = 1500  # this long without input and without a long turn of the event loop: idle
LONG_TURN_MS = 60  # a check this late: the window was busy
INPUT = {
    QtCore.QEvent.Type.KeyPress,
    QtCore.QEvent.Type.MouseButtonPress,
    QtCore.QEvent.Type.MouseMove,
    QtCore.QEvent.Type.Wheel,
}


class _Idle(QtCore.QObject):
    """Starts the labs' warm-up once the window it watches has been calm for ``CALM_MS``."""

    def __init__(self, widget: QtWidgets.QWidget):
        super().__init__(widget)
        self.widget = widget
        self.calm_ms = 0.0
        self.last = time.perf_counter()
        self.timer = QtCore.QTimer(self, interval=IDLE_CHECK_MS)
        self.timer.timeout.connect(self._check)
        self.app = QtWidgets.QApplication.instance()
        self.app.installEventFilter(self)
        self.timer.start()

    def eventFilter(self, obj, event) -> bool:
        if event.type() in INPUT:
            self.calm_ms = 0.0
        return False

    def _check(self) -> None:
        now = time.perf_counter()
        late_ms = (now - self.last) * 1e3 - IDLE_CHECK_MS
        self.last = now
        if started():  # a lab's tab started it meanwhile
            self.stop()
            return
        if not self.widget.window().isVisible() or late_ms > LONG_TURN_MS:
            self.calm_ms = 0.0
            return
        self.calm_ms += IDLE_CHECK_MS
        if self.calm_ms >= CALM_MS:
            self.stop()
            warm_up_labs()

    def stop(self) -> None:
        self.timer.stop()
        self.app.removeEventFilter(self)


_watchers: list[_Idle] = []


def warm_up_when_idle(widget: QtWidgets.QWidget) -> None:
    """The labs' warm-up, once ``widget``'s window is shown and has been calm a moment; one
    watcher per window (each sees every event of the application while it waits)."""
    if started():
        return
    window = widget.window()
    _watchers[:] = [w for w in _watchers if shiboken6.isValid(w) and w.timer.isActive()]
    if any(shiboken6.isValid(w.widget) and w.widget.window() is window for w in _watchers):
        return
    _watchers.append(_Idle(widget))


def _window_imports() -> None:
    for name in LAZY_IMPORTS:
        importlib.import_module(name)


def warm_up_labs() -> None:
    """Once per process: pyqtgraph on this thread if start-up did not, then the first
    optimiser on a thread of its own."""
    global _warming
    import_plotting()  # nothing to do once configure_app has run
    if not warm_up(_window_imports):
        return
    hold_collections(True)  # the timer below runs on this thread: nothing collects in between
    _warming = _Warming(QtWidgets.QApplication.instance())
    _warming.timer.start()


def warming() -> bool:
    """The warm-up is under way (the GUI thread's collections are held)."""
    return _warming is not None and _warming.timer.isActive()
