"""One thread per model: models trained side by side take their steps at once, on cores of their own.

    with ModelThreads(("no-attention", "attention"), threads=1) as lanes:
        losses = lanes.run({"no-attention": step_fixed, "attention": step_attention})

``run`` hands each model's work to that model's thread, waits until every one has finished and
returns what each returned (the first failure is raised again, after all have finished, so no
model is left half a step ahead). The caller's thread only waits meanwhile: its loop (the
batches, the reports, the snapshots, cancel) stays exactly as with one thread, and each model
computes what it would alone, in the same order, so its numbers are bit for bit the same.

Each thread sets its own torch thread count (``set_num_threads`` acts on the calling thread)
and yields to the window (explorer.core.device.yield_to_the_window). Grad mode is per thread
too: work that must not record gradients says so itself (``torch.no_grad``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from explorer.core.device import torch_threads, yield_to_the_window

_Work = tuple[Callable[[], Any], "queue.Queue[tuple[bool, Any]]"]


class ModelThreads:
    def __init__(self, names: Iterable[str], threads: int = 1):
        self._threads = threads
        self._inboxes: dict[str, queue.Queue[_Work | None]] = {}
        self._workers: list[threading.Thread] = []
        for name in names:
            inbox: queue.Queue[_Work | None] = queue.Queue()
            worker = threading.Thread(
                target=self._serve, args=(inbox,), name=f"explorer-model-{name}", daemon=True
            )
            self._inboxes[name] = inbox
            self._workers.append(worker)
            worker.start()

    def _serve(self, inbox: queue.Queue[_Work | None]) -> None:
        yield_to_the_window()
        with torch_threads(self._threads):
            while (item := inbox.get()) is not None:
                work, answer = item
                try:
                    answer.put((True, work()))
                except BaseException as exc:  # handed to the caller's thread, raised there
                    answer.put((False, exc))

    def run(self, work: Mapping[str, Callable[[], Any]]) -> dict[str, Any]:
        answers: dict[str, queue.Queue[tuple[bool, Any]]] = {}
        for name, job in work.items():
            answers[name] = queue.Queue(maxsize=1)
            self._inboxes[name].put((job, answers[name]))
        results: dict[str, Any] = {}
        failure: BaseException | None = None
        for name, answer in answers.items():
            ok, value = answer.get()
            if ok:
                results[name] = value
            elif failure is None:
                failure = value
        if failure is not None:
            raise failure
        return results

    def close(self) -> None:
        for inbox in self._inboxes.values():
            inbox.put(None)
        for worker in self._workers:
            worker.join()

    def __enter__(self) -> ModelThreads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
