"""The Qt side of explorer.compute: worker results arrive as one signal on the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6 import QtCore

from explorer.appstate.worker import LatestWins, Result


class ComputeBridge(QtCore.QObject):
    resultReady = QtCore.Signal(object)  # a compute.Result, emitted on the GUI thread

    def __init__(self, synchronous: bool = False, parent=None):
        super().__init__(parent)
        # Emitting from the worker thread queues the call onto the receivers' (GUI) thread.
        self.executor = LatestWins(self.resultReady.emit, synchronous=synchronous)

    def submit(self, channel: str, fn: Callable[..., Any], cancellable: bool = False) -> int:
        return self.executor.submit(channel, fn, cancellable=cancellable)

    def cancel(self, channel: str) -> None:
        self.executor.cancel(channel)

    def is_current(self, result: Result) -> bool:
        return self.executor.is_current(result)

    def busy(self, channel: str | None = None) -> bool:
        return self.executor.busy(channel)

    def shutdown(self) -> None:
        self.executor.shutdown()
