"""The first run's slow start, paid before Train is pressed.

Making torch's first optimiser imports torch._dynamo and about 830 modules with it (measured
2–5 s on two cores, more when they are busy) and ~140 MB of resident memory; the first step
after it costs nothing more. The window calls ``warm_up()`` once a lab's page has been on show
a calm moment (explorer.gui.lab.warm, which adds the window's own slow imports in front), so
that cost does not come between the Train button and the first step, and a window that never
opens a lab never pays it. The imports run on a thread of their own: the interpreter lock is
shared with the window's thread meanwhile, every few milliseconds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import torch

from explorer.core.device import torch_threads, yield_to_the_window

_started = threading.Event()
_done = threading.Event()


def _make_optimiser() -> None:
    with torch_threads(1):
        parameter = torch.nn.Parameter(torch.zeros(2))
        optimiser = torch.optim.Adam([parameter], lr=1e-3)
        torch.autograd.backward(parameter.sum())
        optimiser.step()


def warm_up(first: Callable[[], None] | None = None) -> bool:
    """Once per process, on a thread of its own: ``first()`` (the window's own slow imports),
    then the first optimiser. True when this call started it; a failure is left for whoever
    needs the import (the run, the plot) to report."""
    if _started.is_set():
        return False
    _started.set()

    def work() -> None:
        yield_to_the_window()  # the imports wait whenever the window has work
        for step in (first, _make_optimiser):
            try:
                if step is not None:
                    step()
            except Exception:  # the run (or the plot) will say what is missing
                pass
        _done.set()

    threading.Thread(target=work, name="explorer-lab-warm-up", daemon=True).start()
    return True


def started() -> bool:
    """The warm-up was started in this process (it may have finished)."""
    return _started.is_set()


def warmed() -> bool:
    """The warm-up has finished (or never started: then there is nothing to wait for)."""
    return _done.is_set() or not _started.is_set()


def wait_for_warm_up(stop: Callable[[], bool], poll_s: float = 0.05) -> None:
    """Until the warm-up has finished, or ``stop()``. A run's thread waits here: training
    beside the imports made three Python threads share the interpreter lock, and the window's
    thread waited 100 ms at a time for it (the run needs the imports' modules first anyway)."""
    while not warmed() and not stop():
        _done.wait(poll_s)
