"""Float32 copies of safetensors tensors and their finite check, a block of the file at a time.

Converting the memory-mapped 16-bit tensors faults the whole mapping in, and its pages count
as the process's own memory until the mapping closes: for a moment the file and all of its
float32 copies were resident together (a 0.5-billion-parameter bfloat16 model: 1 GB over its
2 GB of copies). Here each 4 MB block of a tensor is mapped alone and let go after use, so only
that block sits beside the copies; the copy is filled in place (no buffer as large as a tensor:
one was zero-filled and faulted in again for each tensor), and the finite check reads the
stored bits (a value is NaN or infinite when its exponent bits are all ones) without making
a copy at all. Reading the blocks with file reads instead cost ~3× the CPU (the kernel's copy).
The files were opened by safetensors first, which checked their headers and sizes.
"""

from __future__ import annotations

import json
import mmap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

DTYPES = {"BF16": torch.bfloat16, "F16": torch.float16, "F32": torch.float32, "F64": torch.float64}
BLOCK_BYTES = 1 << 22  # 4 MB mapped at a time, then let go

# A value is NaN or infinite when its exponent bits are all ones: |bits| ≥ the infinity's bits.
_BITS = {
    torch.bfloat16: (np.uint16, 0x7FFF, 0x7F80),
    torch.float16: (np.uint16, 0x7FFF, 0x7C00),
    torch.float32: (np.uint32, 0x7FFFFFFF, 0x7F800000),
    torch.float64: (np.uint64, 0x7FFFFFFFFFFFFFFF, 0x7FF0000000000000),
}


@dataclass(frozen=True)
class _Place:
    file: Path
    start: int  # byte offset in the file
    size: int  # bytes
    dtype: torch.dtype
    shape: tuple[int, ...]


class StoredReader:
    """Where each tensor lies in the safetensors ``files`` (headers read once), to count its
    non-finite values or make its float32 copy a block at a time, each block mapped alone and
    let go: safetensors' own mapping is never faulted in (its pages would stay resident beside
    the copies), and no buffer as large as a tensor is made. Thread-safe (each call maps its
    own blocks; numpy's and torch's work on them releases the interpreter lock). A tensor of a
    kind it does not know is left to the mapping."""

    def __init__(self, files: list[Path], own_names: Mapping[str, str]) -> None:
        wanted = {own: canonical for canonical, own in own_names.items()}
        self._places: dict[str, _Place] = {}
        for file in files:
            with open(file, "rb") as f:
                length = int.from_bytes(f.read(8), "little")
                header = json.loads(f.read(length))
            for name, entry in header.items():
                canonical = wanted.get(name)
                dtype = DTYPES.get(entry.get("dtype", "")) if isinstance(entry, dict) else None
                if canonical is not None and dtype is not None:
                    begin, end = entry["data_offsets"]
                    self._places[canonical] = _Place(
                        file, 8 + length + begin, end - begin, dtype, tuple(entry["shape"])
                    )

    def knows(self, canonical: str) -> bool:
        return canonical in self._places

    def float32(self, canonical: str, mapped: torch.Tensor) -> torch.Tensor:
        """The float32 copy of one tensor (``mapped``, its mapped tensor: the fallback)."""
        place = self._places.get(canonical)
        if place is None or place.size != mapped.numel() * mapped.element_size():
            return mapped.float()
        out = torch.empty(place.shape, dtype=torch.float32)
        flat, width = out.reshape(-1), _size(place.dtype)

        def copy(raw: memoryview, first: int) -> None:
            flat[first // width : (first + len(raw)) // width].copy_(torch.frombuffer(raw, dtype=place.dtype))

        self._each_block(place, copy)
        return out

    def non_finite(self, canonical: str) -> int | None:
        """How many NaN or infinite values the stored tensor holds; None when not known here."""
        place = self._places.get(canonical)
        if place is None:
            return None
        kind, mask, infinity = _BITS[place.dtype]
        scratch = np.empty(BLOCK_BYTES // np.dtype(kind).itemsize, dtype=kind)
        bad = [0]

        def count(raw: memoryview, first: int) -> None:
            bits = np.bitwise_and(
                np.frombuffer(raw, dtype=kind), kind(mask), out=scratch[: len(raw) // scratch.itemsize]
            )
            if bits.size and bits.max() >= infinity:  # one pass finds out; only then counted
                bad[0] += int(np.count_nonzero(bits >= infinity))

        self._each_block(place, count)
        return bad[0]

    @staticmethod
    def _each_block(place: _Place, use: Callable[[memoryview, int], None]) -> None:
        """``use(bytes, offset in the tensor)`` for each BLOCK_BYTES of the stored tensor, each
        mapped alone and let go after use: its pages leave the process's memory at once (a file
        read copied them: ~3× the CPU; the whole file mapped stays resident until closed).
        ``use`` must keep no view of the bytes (the block could not be unmapped)."""
        if not place.size:
            return
        with open(place.file, "rb") as f:
            for first in range(0, place.size, BLOCK_BYTES):
                start = place.start + first
                base = start - start % mmap.ALLOCATIONGRANULARITY
                length = min(BLOCK_BYTES, place.size - first)
                # Private and writable (never written): torch.frombuffer wants a writable buffer.
                with mmap.mmap(
                    f.fileno(), start - base + length, flags=mmap.MAP_PRIVATE, offset=base
                ) as block:
                    view = memoryview(block)[start - base :]
                    try:
                        use(view, first)
                    finally:
                        view.release()


def _size(dtype: torch.dtype) -> int:
    return torch.empty(0, dtype=dtype).element_size()
