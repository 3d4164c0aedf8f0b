"""Which device computes, and how many CPU threads the work deserves."""

from __future__ import annotations

import os
from contextlib import contextmanager

import torch

# Below this many multiply-adds one thread wins: waking the pool costs more than the
# work (measured: 20 µs on one thread became 8 ms on two under contention).
SMALL_WORK = 100_000_000


def cuda_available() -> bool:
    return torch.cuda.is_available()


def mps_available() -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend and backend.is_available())


def device_reasons() -> dict[str, str | None]:
    """For each device choice: None if usable, else why not (for tooltips and messages)."""
    return {
        "auto": None,
        "cpu": None,
        "cuda": None if cuda_available() else "no CUDA GPU found (or this torch is a CPU build)",
        "mps": None if mps_available() else "Apple's Metal (MPS) is not available on this machine",
    }


def choose_device(requested: str) -> tuple[torch.device, str | None]:
    """The device to use and, when it differs from the request, a notice saying why."""
    if requested == "auto":
        if cuda_available():
            return torch.device("cuda"), None
        if mps_available():
            return torch.device("mps"), None
        return torch.device("cpu"), None
    reason = device_reasons().get(requested, f"unknown device {requested!r}")
    if reason:
        return torch.device("cpu"), f"{requested.upper()} asked for, but {reason}: computed on the CPU"
    return torch.device(requested), None


def is_out_of_memory(exc: BaseException) -> bool:
    return isinstance(exc, torch.OutOfMemoryError) or "out of memory" in str(exc).lower()


@contextmanager
def threads_for(work: int):
    """Use one thread for small work and every core for large work, then restore."""
    wanted = 1 if work < SMALL_WORK else max(1, os.cpu_count() or 1)
    before = torch.get_num_threads()
    if wanted != before:
        torch.set_num_threads(wanted)
    try:
        yield wanted
    finally:
        if torch.get_num_threads() != before:
            torch.set_num_threads(before)
