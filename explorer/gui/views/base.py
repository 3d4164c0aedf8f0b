"""What every tab is given and what it offers the window.

A ``View`` draws from the window's current trace (``context.current()``, a
``PreparedTrace``) and from the ExplorerState; it edits only the state. The window calls
``draw(prepared)`` for a new trace when the tab is on screen (and when it is shown after it
went stale); a view redraws itself when one of its ``STATE_EVENTS`` changes. ``figures()``
names what the tab can export, drawn from the data: a tab need not be on screen (or even
built) for its figures to be exported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from PySide6 import QtCore, QtWidgets

from explorer.appstate.display import PreparedTrace
from explorer.appstate.state import ExplorerState
from explorer.core.trace import AttentionTrace
from explorer.gui import theme
from explorer.gui.heatmap import Figure, Style

SLICE_S = 0.012  # drawing a large result: this long per event-loop turn, then input and timers


class SlicedRun:
    """Runs steps a slice at a time (``SLICE_S`` each, then the event loop runs), then
    ``done()``, so that typing, Cancel and the busy bar stay live while a large result is
    drawn. Starting again abandons the run in progress, and so does ``stop``; a deleted
    owner drops it."""

    def __init__(self, owner: QtCore.QObject):
        self._owner = owner
        self._token: object | None = None  # the run in progress

    def start(self, steps: Iterator[None], done: Callable[[], None]) -> None:
        token = self._token = object()

        def step() -> None:
            if self._token is not token:
                return
            until = time.perf_counter() + SLICE_S
            for _ in steps:
                if time.perf_counter() >= until:
                    QtCore.QTimer.singleShot(2, self._owner, step)  # not 0: queued input runs between
                    return
            self._token = None
            done()

        step()

    def stop(self) -> None:
        self._token = None


@dataclass
class ViewContext:
    """The window's parts a tab or a dock may use."""

    state: ExplorerState
    worker: object  # explorer.gui.worker_bridge.WorkerBridge: submit / listen on a channel
    engine: object  # explorer.core.engine.Engine: the computation, for the worker's jobs
    current: Callable[[], PreparedTrace | None]  # the newest trace the window holds
    view: Callable[[str], QtWidgets.QWidget | None]  # a tab's view if it was built

    def style(self) -> Style:
        return theme.look(self.state).style()


# (trace, head, cell) the worked-arithmetic dock works out.
WorkedSource = tuple[AttentionTrace | None, int, tuple[int, int] | None]


@runtime_checkable
class ExplainsItsOwnAttention(Protocol):
    """A tab whose own attention the worked-arithmetic dock explains while it is shown (the
    board's trace, the Translation tab's output step); other tabs leave it the window's trace."""

    def worked_source(self) -> WorkedSource: ...


@runtime_checkable
class ZoomsMatrix(Protocol):
    """A tab with a zoomable (query, key) matrix: the window hands it the keys no widget
    used (+, −, 0, Shift + an arrow), whichever widget has the focus."""

    def zoom_key(self, key: int, modifiers: QtCore.Qt.KeyboardModifier) -> bool: ...


class NothingToExport(Exception):
    """The figure needs a result that does not exist yet; the message says which."""


@dataclass(frozen=True)
class FigureSource:
    """One exportable picture: its label in the Export dialog and how to draw it from data."""

    label: str
    make: Callable[[], tuple[Figure, QtCore.QSize]]  # may raise NothingToExport


class View(QtWidgets.QWidget):
    rendered = QtCore.Signal()  # new content was drawn (screenshots and tests wait for it)
    STATE_EVENTS: tuple[str, ...] = ()  # besides the look (theme, presentation, zoom)
    TAB = ""

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(parent)
        self.context = context
        self.state = context.state
        self.prepared: PreparedTrace | None = None
        self.stale = True  # the trace changed while the tab was hidden
        unsubscribe = self.state.subscribe(
            self._on_state_event, (*self.STATE_EVENTS, "theme", "presentation", "zoom")
        )
        self.destroyed.connect(lambda *_: unsubscribe())

    # -- what a view implements -------------------------------------------------------------
    def draw(self, prepared: PreparedTrace) -> Iterator[None]:
        """Draw a new trace, yielding between parts (a large trace is drawn a few parts per
        event-loop turn). The last step puts the pixels on screen."""
        self.prepared = prepared
        return iter(())

    def on_state(self, event: str) -> None:
        """One of ``STATE_EVENTS`` changed."""

    def restyle(self) -> None:
        """The theme, presentation mode or text size changed."""

    def retranslate(self) -> None:
        """The interface language changed."""

    def activated(self) -> None:
        """The tab came to the front (after any stale trace was drawn)."""

    def cancelled(self) -> None:
        """Cancel dropped the tab's computations in progress (its own worker channel)."""

    # -- helpers -------------------------------------------------------------------------------
    def is_shown(self) -> bool:
        return self.state.tab == self.TAB

    def redraw(self) -> None:
        """Draw the current trace again now (a head or stage changed)."""
        if self.prepared is not None:
            for _ in self.draw(self.prepared):
                pass

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _on_state_event(self, event: str, state: ExplorerState) -> None:
        if event in ("theme", "presentation", "zoom"):
            self.restyle()
        if event in self.STATE_EVENTS:
            self.on_state(event)
