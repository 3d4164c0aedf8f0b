"""Which device computes, with what precision, and how many CPU threads the work deserves."""

from __future__ import annotations

import functools
import os
import platform
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np
import torch

from explorer.core.config import ConfigError
from explorer.messages import Message

# Below this many multiply-adds one thread: a second one saves at most a few ms, and when
# another process holds a core it costs far more (MiniLM, 2 cores, one kept busy: a 13-token
# forward 9 ms on one thread, 14 ms median and 580 ms worst on two; 128 tokens 39 vs 45 ms).
# 10⁹ is a MiniLM forward of about 90 tokens, about 30 ms on one thread.
SMALL_WORK = 1_000_000_000


def cuda_available() -> bool:
    return torch.cuda.is_available()


def cuda_devices() -> list[str]:
    """'cuda:0 (NVIDIA H200)', … for every visible GPU; empty without CUDA."""
    if not cuda_available():
        return []
    return [f"cuda:{i} ({torch.cuda.get_device_name(i)})" for i in range(torch.cuda.device_count())]


def mps_available() -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend and backend.is_available())


def device_reasons() -> dict[str, Message | None]:
    """For each device choice: None if usable, else why not (for tooltips and messages)."""
    reasons = {
        "auto": None,
        "cpu": None,
        "cuda": None if cuda_available() else Message.of("device.no_cuda"),
        "mps": None if mps_available() else Message.of("device.no_mps"),
    }
    if cuda_available() and torch.cuda.device_count() > 1:  # offer each GPU by number
        reasons.update({f"cuda:{i}": None for i in range(torch.cuda.device_count())})
    return reasons


class DeviceUnavailable(ConfigError):
    """The asked device is absent and the caller said not to fall back (--strict-device)."""


def choose_device(requested: str, strict: bool = False) -> tuple[torch.device, Message | None]:
    """The device to use and, when it differs from the request, a notice saying why.

    ``strict``: raise DeviceUnavailable with that reason instead of falling back to the CPU.
    """
    device, reason = _choose(requested)
    if reason is not None:
        if strict:
            raise DeviceUnavailable.of("device.strict", device=requested.upper(), reason=reason)
        return device, Message.of("device.fallback", device=requested.upper(), reason=reason)
    if device.type == "cuda":
        pin_full_precision()
    return device, None


def _choose(requested: str) -> tuple[torch.device, Message | None]:
    """The device, and why it is not the one asked for (None when it is)."""
    if requested == "auto":
        if cuda_available():
            return torch.device("cuda", torch.cuda.current_device()), None
        if mps_available():
            return torch.device("mps"), None
        return torch.device("cpu"), None
    if requested.startswith("cuda:"):
        index = int(requested.split(":", 1)[1])
        if not cuda_available():
            reason = device_reasons()["cuda"]
        elif index >= torch.cuda.device_count():
            reason = Message.of("device.only_these", devices=", ".join(cuda_devices()))
        else:
            return torch.device("cuda", index), None
        return torch.device("cpu"), reason
    reason = device_reasons().get(requested, Message.of("device.unknown", device=requested))
    if reason:
        return torch.device("cpu"), reason
    if requested == "cuda":
        return torch.device("cuda", torch.cuda.current_device()), None
    return torch.device(requested), None


_pinned = False


def pin_full_precision() -> None:
    """float32 matmuls in full float32 on the GPU, as on the CPU: no TF32 (10-bit mantissa)
    shortcuts, so the GPU's numbers match the CPU's to rounding. Once per process, before
    the first CUDA computation."""
    global _pinned
    if _pinned:
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    _pinned = True


def numerics(device: torch.device) -> dict[str, Any]:
    """What decides the rounding of a trace's numbers, for its metadata."""
    return {
        "compute_dtype": "float32",
        "float32_matmul_precision": torch.get_float32_matmul_precision(),
        "cuda_matmul_allow_tf32": bool(torch.backends.cuda.matmul.allow_tf32),
        "cudnn_allow_tf32": bool(torch.backends.cudnn.allow_tf32),
        "device": str(device),
        "device_name": device_name(device),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "cuda": torch.version.cuda,
    }


def device_name(device: torch.device) -> str:
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    if device.type == "mps":
        return "Apple Metal (MPS)"
    return _cpu_name()


@functools.cache
def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "CPU"


def release_memory(device: torch.device) -> None:
    """Hand the caching allocator's free blocks back after an out-of-memory error."""
    if device.type == "cuda":
        torch.cuda.empty_cache()


def is_out_of_memory(exc: BaseException) -> bool:
    """CUDA's OutOfMemoryError, or the CPU allocator's RuntimeError ("can't allocate memory")."""
    text = str(exc).lower()
    return isinstance(exc, torch.OutOfMemoryError) or "out of memory" in text or "allocate memory" in text


TRAINING_NICENESS = 10  # a training thread's weight against the window's: ~1/10 (Linux CFS)


def yield_to_the_window() -> None:
    """Lower the calling thread's scheduling priority, so that the window's thread gets a core
    at once whenever it has work, however many training threads want both cores.

    Linux keeps a nice value per thread (``setpriority`` on the thread's id changes that thread
    alone); elsewhere the call would change the whole process, so it is skipped there. A
    training thread that runs alone loses nothing: priority decides only who waits.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, max(os.getpriority(os.PRIO_PROCESS, tid), TRAINING_NICENESS))
    except OSError:  # a sandbox that forbids it: the run trains at the window's priority
        pass


@contextmanager
def torch_threads(n: int | None) -> Iterator[None]:
    """torch's intra-op threads set to ``n`` (None: left as they are) for the block, then restored."""
    before = torch.get_num_threads()
    if n is not None and n != before:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        if torch.get_num_threads() != before:
            torch.set_num_threads(before)


@contextmanager
def threads_for(work: int) -> Iterator[int]:
    """Use one thread for small work and every core for large work, then restore."""
    wanted = 1 if work < SMALL_WORK else max(1, os.cpu_count() or 1)
    with torch_threads(wanted):
        yield wanted


_pool: ThreadPoolExecutor | None = None
_Block = TypeVar("_Block")
_pool_lock = threading.Lock()


def run_blocks(work: Callable[[_Block], object], blocks: Sequence[_Block]) -> None:
    """``work(block)`` for every block, spread over as many threads as torch may use now.

    Each thread runs its share with one intra-op thread: many small operations on a
    shared pool wait at a barrier after every operation, which costs more than the work
    when other processes hold the cores (measured: 3× slower on a busy 2-core machine).
    """
    workers = min(len(blocks), torch.get_num_threads())
    if workers <= 1:
        for block in blocks:
            work(block)
        return
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max(2, os.cpu_count() or 2), thread_name_prefix="explorer-blocks")

    inference, grad = torch.is_inference_mode_enabled(), torch.is_grad_enabled()

    def share(first: int) -> None:
        torch.set_num_threads(1)
        # Autograd modes are per thread: carry the caller's over (inference tensors refuse
        # in-place writes outside inference mode).
        with torch.inference_mode(inference), torch.set_grad_enabled(grad):
            for block in blocks[first::workers]:
                work(block)

    before = torch.get_num_threads()
    try:
        for done in [_pool.submit(share, i) for i in range(workers)]:
            done.result()
    finally:
        torch.set_num_threads(before)
