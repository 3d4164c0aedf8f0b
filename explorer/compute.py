"""One worker thread that runs the engine off the GUI thread; the latest request wins.

Qt-free: results are handed to a ``deliver`` callback on the worker thread (the Qt
adapter in ``explorer.gui.bridge`` turns that into one signal on the GUI thread).
Each channel ("trace", "overview") keeps at most one pending request; a new request
replaces the pending one, and a result whose id is no longer the latest of its
channel (or that was cancelled) is outdated and must be dropped.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

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
            if self._synchronous:
                pass
            else:
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


# -- display-ready arrays, prepared on the worker -------------------------------------------
# A heatmap is a few hundred pixels wide: a matrix larger than DISPLAY_LIMIT cells a side is
# drawn from a block-reduced copy, so the GUI thread never touches millions of cells.
DISPLAY_LIMIT = 256
SQUARE_STAGES = ("scores", "scaled", "weights")  # [heads, n_q, n_k]
FEATURE_STAGES = ("Q", "K", "V", "head_outputs")  # [heads, n, d]
MATRIX_STAGES = ("X_query", "X_key", "concat", "output")  # [n, d]


class DisplayCancelled(Exception):
    """The display arrays were abandoned because a newer request came."""


def reduce_for_display(a: np.ndarray, limit: int = DISPLAY_LIMIT, how: str = "maxabs") -> np.ndarray:
    """Block-reduce the last two axes to at most ``limit`` a side (the array itself if small).

    how: "maxabs" keeps each block's value of largest magnitude, sign included (so extreme
    scores stay visible and symmetric colour levels are unchanged); "max", "mean", "all".
    """
    a = np.asarray(a)
    rows, cols = a.shape[-2:]
    fr, fc = -(-rows // limit), -(-cols // limit)
    if fr == 1 and fc == 1:
        return a
    if how in ("max", "maxabs") and a.dtype == np.float32:
        return _pool_max(a, fr, fc, how)
    pr, pc = -rows % fr, -cols % fc
    if pr or pc:
        a = np.pad(a, [(0, 0)] * (a.ndim - 2) + [(0, pr), (0, pc)], mode="edge")
    # Strided slices combined element-wise: a few passes over contiguous memory (a reshape
    # and a reduction over small inner axes is ten times slower).
    if how == "mean":
        a = a.astype(np.float32)

    def combine(x: np.ndarray, factor: int, axis: int, op) -> np.ndarray:
        if factor == 1:
            return x
        index = [slice(None)] * x.ndim
        index[axis] = slice(0, None, factor)
        out = np.array(x[tuple(index)])
        for k in range(1, factor):
            index[axis] = slice(k, None, factor)
            op(out, x[tuple(index)], out=out)
        return out

    ops = {"max": np.maximum, "all": np.logical_and, "mean": np.add}
    if how in ops:
        out = combine(combine(a, fc, -1, ops[how]), fr, -2, ops[how])
        return out / np.float32(fr * fc) if how == "mean" else out
    hi = combine(combine(a, fc, -1, np.maximum), fr, -2, np.maximum)
    lo = combine(combine(a, fc, -1, np.minimum), fr, -2, np.minimum)
    return np.where(-lo > hi, lo, hi)


def _pool_max(a: np.ndarray, fr: int, fc: int, how: str) -> np.ndarray:
    """The same block max / signed max-magnitude with torch's pooling (threaded, contiguous):
    ten times faster than numpy on 4,096 x 4,096 weights. Edge blocks are partial, as with
    the edge padding above."""
    import torch
    import torch.nn.functional as F

    x = torch.from_numpy(np.ascontiguousarray(a)).reshape(-1, 1, *a.shape[-2:])
    with torch.inference_mode():
        hi = F.max_pool2d(x, (fr, fc), ceil_mode=True)
        if how == "maxabs":
            lo = -F.max_pool2d(-x, (fr, fc), ceil_mode=True)
            hi = torch.where(-lo > hi, lo, hi)
    return hi.reshape(*a.shape[:-2], *hi.shape[-2:]).numpy()


def display_arrays(
    trace, limit: int = DISPLAY_LIMIT, should_stop: Callable[[], bool] | None = None
) -> dict[str, np.ndarray]:
    """Reduced copies of the trace's large stages, keyed by stage name (only those reduced).

    "mask" is the fraction of visible keys in each block, "hidden" marks blocks with no
    visible key (drawn hatched). Derived only from the trace; computed per head so that a
    newer request can stop it between heads.
    """
    out: dict[str, np.ndarray] = {}
    n_q, n_k = trace.mask.shape
    if n_q * n_k > limit * limit:
        for stage in SQUARE_STAGES:
            full = getattr(trace, stage)
            parts = []
            for h in range(full.shape[0]):
                if should_stop is not None and should_stop():
                    raise DisplayCancelled()
                parts.append(reduce_for_display(full[h], limit, "max" if stage == "weights" else "maxabs"))
            out[stage] = np.stack(parts)
        out["mask"] = reduce_for_display(trace.mask, limit, "mean")
        out["hidden"] = reduce_for_display(~trace.mask, limit, "all")
    for stage in FEATURE_STAGES + MATRIX_STAGES:
        full = getattr(trace, stage)
        if full.shape[-2] * full.shape[-1] > limit * limit:  # e.g. 12 x 384 features stay as they are
            if should_stop is not None and should_stop():
                raise DisplayCancelled()
            out[stage] = reduce_for_display(full, limit)
    return out


def accepts_should_stop(fn: Callable) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "should_stop" or p.kind is p.VAR_KEYWORD for p in params)


def trace_for_display(engine, config, should_stop: Callable[[], bool] | None = None):
    """The worker's job for the window: the trace, its source info and the display arrays
    (``trace.display``). A newer request stops it between encoder layers, before the
    attention and between heads of the display reduction."""
    if should_stop is not None and accepts_should_stop(engine.trace):
        trace = engine.trace(config, should_stop=should_stop)
    else:
        trace = engine.trace(config)
    info = engine.source_info(config)
    trace.display = display_arrays(trace, should_stop=should_stop)
    return trace, info
