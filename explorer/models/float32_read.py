"""Float32 copies of safetensors tensors, read through the file one tensor at a time.

Converting the memory-mapped 16-bit tensors faults the whole mapping in, and its pages count
as the process's own memory until the mapping closes: for a moment the file and all of its
float32 copies were resident together (a 0.5-billion-parameter bfloat16 model: 1 GB over its
2 GB of copies). Read with ordinary file reads, only one tensor's stored bytes sit beside the
copies. The files were opened by safetensors first, which checked their headers and sizes.
One read buffer serves every tensor (a fresh one each time was zero-filled and faulted in
again: ~1 GB of page faults for that model), and each copy's non-finite values are counted as
it is made, while it is still in the cache (the finite check read 2 GB again from memory).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import torch

from explorer.models.checks import non_finite

DTYPES = {"BF16": torch.bfloat16, "F16": torch.float16, "F32": torch.float32, "F64": torch.float64}


def float32_copies(
    files: list[Path],
    tensors: Mapping[str, torch.Tensor],
    own_names: Mapping[str, str],
    non_finite_counts: dict[str, int] | None = None,
) -> dict[str, torch.Tensor]:
    """``tensors`` (canonical name → the mapped tensor) in float32, read from ``files``; a
    tensor of a kind this reader does not know is converted from its mapping instead.
    ``non_finite_counts``, when given, gets each copy's count of NaN and infinite values."""
    wanted = {own_names[canonical]: canonical for canonical in tensors}
    copies: dict[str, torch.Tensor] = {}
    largest = max((t.numel() * t.element_size() for t in tensors.values()), default=0)
    buffer = memoryview(bytearray(largest))
    for file in files:
        with open(file, "rb") as f:
            length = int.from_bytes(f.read(8), "little")
            header = json.loads(f.read(length))
            for name, entry in sorted(header.items(), key=_offset):
                canonical = wanted.get(name)
                dtype = DTYPES.get(entry.get("dtype", "")) if isinstance(entry, dict) else None
                if canonical is None or dtype is None:
                    continue
                begin, end = entry["data_offsets"]
                f.seek(8 + length + begin)
                raw = buffer[: end - begin]
                if end - begin > largest or f.readinto(raw) != len(raw):
                    continue  # left to the mapping, which safetensors checked
                stored = torch.frombuffer(raw, dtype=dtype) if len(raw) else torch.empty(0, dtype=dtype)
                # float() of a float32 tensor would be a view of the buffer, used again next
                copies[canonical] = stored.reshape(entry["shape"]).to(torch.float32, copy=True)
                if non_finite_counts is not None:
                    non_finite_counts[canonical] = non_finite(copies[canonical])
    for canonical, tensor in tensors.items():
        if canonical not in copies:
            copies[canonical] = tensor.float()
            if non_finite_counts is not None:
                non_finite_counts[canonical] = non_finite(copies[canonical])
    return copies


def _offset(item: tuple[str, object]) -> int:
    entry = item[1]
    return entry["data_offsets"][0] if isinstance(entry, dict) and "data_offsets" in entry else -1
