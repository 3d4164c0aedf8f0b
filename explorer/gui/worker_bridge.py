"""The Qt side of explorer.appstate.worker: results arrive on the GUI thread, per channel.

A tab that computes something of its own (the compare pair, the overview's layers, later a
translation or a training run) submits on its own channel and listens to it::

    window.worker.listen("compare", self._on_result)
    window.worker.submit("compare", lambda: (engine.trace(a), engine.trace(b)))

Results of requests that were replaced or cancelled never reach a listener.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6 import QtCore

from explorer.appstate.worker import LatestWins, Result


class WorkerBridge(QtCore.QObject):
    resultReady = QtCore.Signal(object)  # an appstate.worker.Result, emitted on the GUI thread

    def __init__(self, synchronous: bool = False, parent=None):
        super().__init__(parent)
        self._listeners: dict[str, list[Callable[[Result], None]]] = {}
        self.dropped = 0  # outdated or cancelled results that were not delivered
        # Emitting from the worker thread queues the call onto the receivers' (GUI) thread.
        self.resultReady.connect(self._dispatch)
        self.executor = LatestWins(self.resultReady.emit, synchronous=synchronous)

    def listen(self, channel: str, callback: Callable[[Result], None]) -> None:
        """Call ``callback(result)`` on the GUI thread for each current result of ``channel``."""
        self._listeners.setdefault(channel, []).append(callback)

    def submit(self, channel: str, fn: Callable[..., Any], cancellable: bool = False) -> int:
        return self.executor.submit(channel, fn, cancellable=cancellable)

    def cancel(self, channel: str) -> None:
        self.executor.cancel(channel)

    def is_current(self, result: Result) -> bool:
        return self.executor.is_current(result)

    def busy(self, channel: str | None = None) -> bool:
        return self.executor.busy(channel)

    def shutdown(self, timeout: float = 2.0) -> None:
        self.executor.shutdown(timeout)

    def _dispatch(self, result: Result) -> None:
        if not self.executor.is_current(result):
            self.dropped += 1
            return
        for callback in list(self._listeners.get(result.channel, ())):
            callback(result)
