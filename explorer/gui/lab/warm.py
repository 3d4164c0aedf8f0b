"""The labs' slow first imports, made before anyone waits for them.

pyqtgraph's import makes every enum of QtCore, QtGui and QtWidgets (about 600): it runs on the
GUI thread at start-up (explorer.gui.app_setup.import_plotting), since two threads making
PySide6's enum types at once failed; here it only happens for a process that did not start
that way. Torch's first optimiser costs 2–5 s (explorer.lab.warm_up): ``warm_up_labs()`` makes
it once, on a thread of its own, so Train starts at once: ``warm_up_when_idle(widget)`` starts it
once a lab's page is on show and the window has been calm a moment (no input, no long turn of
the event loop: the import shares the interpreter lock with the window's thread; started at
once, its imports doubled the time of the first keystrokes on the tab). Not at start-up: it
costs ~140 MB of resident memory, which a window that never opens a lab never pays. A run
started meanwhile waits for it on its own thread; Train pressed before it starts it. The GUI
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
    """Starts the labs' warm-up once one of the lab widgets it watches has been on show and the
    window calm for ``CALM_MS``. Until one is shown it only waits for their own Show events: no
    timer, nothing watching the application's events (a window that never opens a lab never
    pays the warm-up's ~140 MB)."""

    def __init__(self, app: QtCore.QCoreApplication):
        super().__init__(app)
        self.widgets: list[QtWidgets.QWidget] = []
        self.calm_ms = 0.0
        self.last = time.perf_counter()
        self.timer = QtCore.QTimer(self, interval=IDLE_CHECK_MS)
        self.timer.timeout.connect(self._check)
        self.app = app
        self.watching = False  # the calm is counted (a lab widget is on show)
        self.filtering = False  # the application's input is watched
        self.ahead = False  # the lesson's next step is a lab's: its page is built ahead
        self.done = False

    def add(self, widget: QtWidgets.QWidget) -> None:
        self.widgets = [w for w in self.widgets if shiboken6.isValid(w)]
        if widget in self.widgets:
            return
        self.widgets.append(widget)
        widget.installEventFilter(self)
        if widget.isVisible():
            self._watch(True)

    def shown(self) -> bool:
        """One of the lab widgets is on show."""
        return any(shiboken6.isValid(w) and w.isVisible() for w in self.widgets)

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind in INPUT:
            self.calm_ms = 0.0
        elif kind == QtCore.QEvent.Type.Show and obj in self.widgets and not self.done:
            self._watch(True)
        return False

    def _watch(self, on: bool) -> None:
        """Count the calm (on) or wait for a lab widget's next Show (off)."""
        if on == self.watching:
            return
        self.watching = on
        self.calm_ms = 0.0
        if on:
            self.last = time.perf_counter()
            self.timer.start()
        else:
            self.timer.stop()
            self._filter(False)

    def _filter(self, on: bool) -> None:
        """The application's events through ``eventFilter`` (a Python call for every event:
        about 1,000 in the turn that builds a lab's plots, hence not before that turn is over)."""
        if on != self.filtering:
            self.filtering = on
            if on:
                self.app.installEventFilter(self)
            else:
                self.app.removeEventFilter(self)

    def _check(self) -> None:
        now = time.perf_counter()
        late_ms = (now - self.last) * 1e3 - IDLE_CHECK_MS
        self.last = now
        if started():  # a lab's tab (or Train) started it meanwhile
            self.stop()
            return
        if not (self.shown() or self.ahead):  # back to a tab without labs: wait for the next Show
            self._watch(False)
            return
        if late_ms > LONG_TURN_MS:
            self.calm_ms = 0.0
            return
        if not self.filtering:  # the lab's opening is over: input from now on puts it off
            self._filter(True)
            return
        self.calm_ms += IDLE_CHECK_MS
        if self.calm_ms >= CALM_MS:
            self.stop()
            warm_up_labs()

    def stop(self) -> None:
        self.done = True
        self._watch(False)
        for widget in self.widgets:
            if shiboken6.isValid(widget):
                widget.removeEventFilter(self)
        self.widgets.clear()

    def waiting(self) -> bool:
        return not self.done


_watchers: list[_Idle] = []


def warm_up_when_idle(widget: QtWidgets.QWidget) -> None:
    """The labs' warm-up, once ``widget`` (a lab's page, or a part of one) is on show and the
    window has been calm a moment; not before: a window that never shows a lab never makes it.
    One watcher for every such widget (while one is on show it sees every event of the
    application)."""
    if started():
        return
    _watchers[:] = [w for w in _watchers if shiboken6.isValid(w) and w.waiting()]
    app = QtWidgets.QApplication.instance()
    if app is None:
        return
    if not _watchers:
        _watchers.append(_Idle(app))
    _watchers[0].add(widget)


def warm_up_ahead() -> None:
    """The lesson's next step is a lab's (its page is being built ahead): count the calm from
    now as if the page were on show, so that Train on that step starts at once (with the
    warm-up waiting for a lab's page, Train pressed half a second after the page came up
    waited 2.7–3.7 s for it)."""
    if started():
        return
    app = QtWidgets.QApplication.instance()
    if app is None:
        return
    _watchers[:] = [w for w in _watchers if shiboken6.isValid(w) and w.waiting()]
    if not _watchers:
        _watchers.append(_Idle(app))
    _watchers[0].ahead = True
    _watchers[0]._watch(True)


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
