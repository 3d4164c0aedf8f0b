"""One worker thread that runs the engine off the GUI thread; the latest request wins.

Qt-free: results are handed to a ``deliver`` callback on the worker thread (the Qt
adapter in ``explorer.gui.worker_bridge`` turns that into one signal on the GUI thread).
Each channel ("trace", "compare", "overview", or any name a tab chooses) keeps at most one
pending request; a new request replaces the pending one, and a result whose id is no
longer the latest of its channel (or that was cancelled) is outdated and must be dropped.
"""

from __future__ import annotations

import functools
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Served first when several channels wait: what the user looks at now, then the rest.
CHANNEL_ORDER = ("trace", "compare", "overview")


@dataclass
class Result:
    channel: str
    request_id: int
    value: Any = None
    error: BaseException | None = None
    elapsed_ms: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


class LatestWins:
    """Single-worker executor: submit(channel, fn) -> request id; deliver(Result) per run."""

    def __init__(self, deliver: Callable[[Result], None], synchronous: bool = False):
        self._deliver = deliver
        self._synchronous = synchronous
        self._ids = itertools.count(1)
        self._latest: dict[str, int] = {}
        self._pending: dict[str, tuple[int, Callable[[], Any]]] = {}
        self._running: tuple[str, int] | None = None
        self._cond = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None
        if not synchronous:
            self._thread = threading.Thread(target=self._loop, name="explorer-compute", daemon=True)
            self._thread.start()

    # -- requests -------------------------------------------------------------
    def submit(self, channel: str, fn: Callable[..., Any], cancellable: bool = False) -> int:
        """Queue ``fn()``; with ``cancellable`` it is called as ``fn(should_stop)``, where
        ``should_stop()`` answers True once a newer request or ``cancel`` outdated it."""
        with self._cond:
            request_id = next(self._ids)
            self._latest[channel] = request_id
            if cancellable:
                fn = functools.partial(fn, self._stop_check(channel, request_id))
            if not self._synchronous:
                self._pending[channel] = (request_id, fn)  # replaces an older pending request
                self._cond.notify()
                return request_id
        self._deliver(self._run(channel, request_id, fn))
        return request_id

    def cancel(self, channel: str) -> None:
        """Drop the pending request and mark the running one outdated."""
        with self._cond:
            self._pending.pop(channel, None)
            self._latest[channel] = next(self._ids)

    def _stop_check(self, channel: str, request_id: int) -> Callable[[], bool]:
        def should_stop() -> bool:  # read without the lock: a stale answer only delays a stop
            return self._closed or self._latest.get(channel) != request_id

        return should_stop

    def is_current(self, result: Result) -> bool:
        with self._cond:
            return self._latest.get(result.channel) == result.request_id

    def busy(self, channel: str | None = None) -> bool:
        with self._cond:
            if channel is None:
                return bool(self._pending) or self._running is not None
            running = self._running is not None and self._running[0] == channel
            return channel in self._pending or running

    def shutdown(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._closed = True
            self._pending.clear()
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    # -- the worker -------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                channel = next(c for c in (*CHANNEL_ORDER, *self._pending) if c in self._pending)
                request_id, fn = self._pending.pop(channel)
                if self._latest.get(channel) != request_id:
                    continue
                self._running = (channel, request_id)
            result = self._run(channel, request_id, fn)
            with self._cond:
                self._running = None
                closed = self._closed
            if not closed:
                try:
                    self._deliver(result)
                except Exception:  # a broken receiver must not kill the worker
                    pass

    @staticmethod
    def _run(channel: str, request_id: int, fn: Callable[[], Any]) -> Result:
        started = time.perf_counter()
        try:
            value, error = fn(), None
        except Exception as exc:  # shown to the user as a message, never raised on the GUI
            value, error = None, exc
        return Result(channel, request_id, value, error, (time.perf_counter() - started) * 1e3)
