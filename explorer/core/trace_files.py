"""Trace files: named arrays and their metadata, streamed to NPZ or JSON.

``AttentionTrace.save`` hands them over (``AttentionTrace.file_entries``); this module knows
nothing of the trace (it imports only explorer.finite). Every number written is finite: JSON
is strict JSON, never a bare NaN that readers refuse.

Both writers go block by block through each array, so writing never holds more than one
block beyond the trace itself: a 4,096-token trace has arrays of 537 MB, and turning
them into Python lists first (json.dump) took gigabytes and minutes.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

import numpy as np
import orjson

from explorer.finite import NotFinite, count_non_finite, strict_json

# Bytes of source array per written block: big enough that per-block work is noise,
# small enough to stay out of the memory peak.
BLOCK_BYTES = 8 * 1024 * 1024


@dataclass
class Entry:
    """One array of the file: ``parts`` stacked along a new first axis, or ``parts[0]`` alone."""

    name: str
    parts: list[np.ndarray]
    stacked: bool

    @property
    def shape(self) -> tuple[int, ...]:
        first = self.parts[0].shape
        return (len(self.parts), *first) if self.stacked else first


def output_dtype(array: np.ndarray, floats: str) -> np.dtype:
    """Floating arrays are written as ``floats`` (float32 or float16); the rest as they are."""
    return np.dtype(floats) if array.dtype.kind == "f" else array.dtype


def blocks(array: np.ndarray, dtype: np.dtype) -> Iterator[np.ndarray]:
    """C-contiguous blocks of whole rows (first axis), converted to ``dtype``."""
    if array.ndim == 0 or array.nbytes <= BLOCK_BYTES:
        yield np.ascontiguousarray(array, dtype=dtype)
        return
    rows = max(1, BLOCK_BYTES * len(array) // array.nbytes)
    for start in range(0, len(array), rows):
        yield np.ascontiguousarray(array[start : start + rows], dtype=dtype)


# -- NPZ -----------------------------------------------------------------------------------
def write_npz(f: IO[bytes], meta: dict[str, Any], entries: Iterable[Entry], floats: str) -> None:
    """An uncompressed NPZ (np.load(..., allow_pickle=False) reads it): attention arrays
    compress by 7-10 % at 15-30 MB/s, which made writing slower than computing."""
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        for entry in entries:
            dtype = output_dtype(entry.parts[0], floats)
            with archive.open(f"{entry.name}.npy", "w", force_zip64=True) as out:
                header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False}
                np.lib.format.write_array_header_2_0(out, {**header, "shape": entry.shape})
                for part in entry.parts:
                    for block in blocks(part, dtype):
                        out.write(block.tobytes())
        # Metadata as a JSON string, so loading needs no pickle.
        text = np.array(strict_json(meta, "meta_json", ensure_ascii=False))
        with archive.open("meta_json.npy", "w", force_zip64=True) as out:
            np.lib.format.write_array(out, text, allow_pickle=False)


# -- JSON ----------------------------------------------------------------------------------
def write_json(f: IO[bytes], meta: dict[str, Any], entries: Iterable[Entry], floats: str) -> None:
    """One JSON object: the metadata, then each array as nested lists, streamed.

    Numbers are the shortest text that reads back to the same float32 (or float16); a NaN
    or an infinity is refused (NotFinite), never written."""
    f.write(b"{")
    for i, (key, value) in enumerate(meta.items()):
        f.write(("," if i else "").encode() + _json(key) + b":" + _json(value))
    params = []
    for entry in entries:
        if entry.name.startswith("param_"):
            params.append(entry)
            continue
        f.write(b"," + _json(entry.name) + b":")
        _write_entry(f, entry, floats)
    f.write(b',"scoring_params":{')
    for i, entry in enumerate(params):
        f.write((b"," if i else b"") + _json(entry.name.removeprefix("param_")) + b":")
        _write_entry(f, entry, floats)
    f.write(b"}}")


def _json(value: object) -> bytes:
    return strict_json(value, "meta", ensure_ascii=False).encode("utf-8")


def _write_entry(f: IO[bytes], entry: Entry, floats: str) -> None:
    dtype = output_dtype(entry.parts[0], floats)
    if entry.stacked:
        f.write(b"[")
    for i, part in enumerate(entry.parts):
        if i:
            f.write(b",")
        _write_nested(f, part, dtype, entry.name)
    if entry.stacked:
        f.write(b"]")


def _write_nested(f: IO[bytes], array: np.ndarray, dtype: np.dtype, name: str) -> None:
    if array.ndim <= 1 or array.nbytes <= BLOCK_BYTES:
        f.write(_numbers(np.ascontiguousarray(array, dtype=dtype), name))
    elif array.ndim == 2:  # blocks of rows, each "[[…],[…]]" without its outer brackets
        f.write(b"[")
        for i, block in enumerate(blocks(array, dtype)):
            f.write((b"," if i else b"") + _numbers(block, name)[1:-1])
        f.write(b"]")
    else:
        f.write(b"[")
        for i, sub in enumerate(array):
            if i:
                f.write(b",")
            _write_nested(f, sub, dtype, name)
        f.write(b"]")


def _numbers(block: np.ndarray, name: str) -> bytes:
    if count_non_finite(block):  # orjson would write null, json a bare NaN: neither is the number
        raise NotFinite.of("numbers.json_not_finite", name=name)
    return orjson.dumps(block, option=orjson.OPT_SERIALIZE_NUMPY)
