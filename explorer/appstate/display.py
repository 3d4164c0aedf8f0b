"""What the window draws, prepared on the worker: the trace plus reduced copies of huge stages.

A heatmap is a few hundred pixels wide: a matrix larger than ``DISPLAY_LIMIT`` cells a side
is drawn from a block-reduced copy, so the GUI thread never touches millions of cells.
Hover and clicks still read the full matrix. Qt-free.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from explorer.appstate.decoding import DecodingOptions
from explorer.appstate.matrix_zoom import Blocks
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.core.trace import AttentionTrace

DISPLAY_LIMIT = 256
SQUARE_STAGES = ("scores", "scaled", "weights")  # [heads, n_q, n_k]
FEATURE_STAGES = ("Q", "K", "V", "head_outputs")  # [heads, n, d]
ROTATED_STAGES = ("Q_rotated", "K_rotated")  # [heads, n, d] a rotary decoder's turned Q and K
MATRIX_STAGES = ("X_query", "X_key", "concat", "output")  # [n, d]
PER_HEAD_STAGES = SQUARE_STAGES + FEATURE_STAGES + ROTATED_STAGES


class DisplayCancelled(Exception):
    """The display arrays were abandoned because a newer request came."""


@dataclass(frozen=True)
class DisplayArrays:
    """Block-reduced pictures of a trace's large stages (none for a small trace).

    ``pictures[stage]`` has the stage's leading axes (heads) and at most ``limit`` cells a
    side; ``visible`` is the fraction of visible keys in each block of the mask and
    ``hidden`` marks blocks with no visible key (drawn hatched).
    """

    pictures: dict[str, np.ndarray] = field(default_factory=dict)
    visible: np.ndarray | None = None
    hidden: np.ndarray | None = None
    limit: int = DISPLAY_LIMIT

    def picture(self, stage: str, head: int | None = None) -> np.ndarray | None:
        """The reduced picture of one stage (of one head for per-head stages), or None."""
        if stage == "mask":
            return self.visible
        picture = self.pictures.get(stage)
        if picture is None or head is None or stage not in PER_HEAD_STAGES:
            return picture
        return picture[head]

    def hidden_cells(self, trace: AttentionTrace) -> np.ndarray:
        """Masked cells at the resolution they are drawn: the reduced blocks or the full mask."""
        return self.hidden if self.hidden is not None else ~trace.mask

    def __bool__(self) -> bool:
        return bool(self.pictures) or self.visible is not None


@dataclass(frozen=True)
class PreparedTrace:
    """The worker's answer to one request of the window: trace, source, display arrays."""

    trace: AttentionTrace
    source: object  # explorer.core.engine.SourceInfo: the heads and layers the weights offer
    display: DisplayArrays


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
    return reduce_blocks(a, fr, fc, how)


def reduce_blocks(
    a: np.ndarray, fr: int, fc: int, how: str = "maxabs", should_stop: Callable[[], bool] | None = None
) -> np.ndarray:
    """Each block of ``fr`` × ``fc`` cells of the last two axes as one value (``how`` as in
    ``reduce_for_display``); sides that are not whole blocks repeat their last row and
    column. numpy only, so any thread may call it; ``should_stop`` is asked between passes
    (``DisplayCancelled``)."""
    a = np.asarray(a)
    rows, cols = a.shape[-2:]
    if fr == 1 and fc == 1:
        return a
    pr, pc = -rows % fr, -cols % fc
    if pr or pc:
        a = np.pad(a, [(0, 0)] * (a.ndim - 2) + [(0, pr), (0, pc)], mode="edge")
    # Strided slices combined element-wise: a few passes over contiguous memory (a reshape
    # and a reduction over small inner axes is ten times slower).
    if how == "mean":
        a = a.astype(np.float32)

    def combine(x: np.ndarray, factor: int, axis: int, op: Callable[..., Any]) -> np.ndarray:
        if factor == 1:
            return x
        index = [slice(None)] * x.ndim
        index[axis] = slice(0, None, factor)
        out = np.array(x[tuple(index)])
        for k in range(1, factor):
            if should_stop is not None and should_stop():
                raise DisplayCancelled()
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


def region_picture(
    data: Any, blocks: Blocks, how: str = "maxabs", should_stop: Callable[[], bool] | None = None
) -> np.ndarray:
    """The picture of a zoomed region (explorer.appstate.matrix_zoom.blocks_for): the cells
    themselves where each has a pixel, else each block reduced; reads only the region's
    cells (``data`` may be a lazy matrix such as ``Difference``)."""
    rows = slice(blocks.row0, blocks.row0 + blocks.rows * blocks.fr)
    cols = slice(blocks.col0, blocks.col0 + blocks.cols * blocks.fc)
    part = np.asarray(data[rows, cols])
    return reduce_blocks(part, blocks.fr, blocks.fc, how, should_stop)


def _pool_max(a: np.ndarray, fr: int, fc: int, how: str) -> np.ndarray:
    """The same block max / signed max-magnitude with torch (threaded): each row's blocks in
    one pass over contiguous memory (min and max together), then the rows' blocks over that
    sixteen-times-smaller result. Ten times faster than numpy on 4,096 x 4,096 weights, and
    no copy of the matrix unless its sides are not whole blocks (then the last row and
    column are repeated, as with the edge padding above)."""
    import torch
    import torch.nn.functional as F

    x = torch.from_numpy(np.ascontiguousarray(a))
    lead, (rows, cols) = x.shape[:-2], x.shape[-2:]
    pr, pc = -rows % fr, -cols % fc
    with torch.inference_mode():
        if pr or pc:
            x = F.pad(x.reshape(-1, 1, rows, cols), (0, pc, 0, pr), mode="replicate")
            rows, cols = rows + pr, cols + pc
            x = x.reshape(*lead, rows, cols)
        blocks = x.reshape(*lead, rows, cols // fc, fc)
        by_rows = (*lead, rows // fr, fr, cols // fc)
        if how == "max":
            return blocks.amax(-1).reshape(by_rows).amax(-2).numpy()
        lo, hi = torch.aminmax(blocks, dim=-1)
        hi = hi.reshape(by_rows).amax(-2)
        lo = lo.reshape(by_rows).amin(-2)
        return torch.where(-lo > hi, lo, hi).numpy()


def display_arrays(
    trace: AttentionTrace, limit: int = DISPLAY_LIMIT, should_stop: Callable[[], bool] | None = None
) -> DisplayArrays:
    """Reduced copies of the trace's large stages; computed per head so that a newer
    request can stop it between heads (``DisplayCancelled``)."""

    def check() -> None:
        if should_stop is not None and should_stop():
            raise DisplayCancelled()

    pictures: dict[str, np.ndarray] = {}
    visible = hidden = None
    n_q, n_k = trace.mask.shape
    if n_q * n_k > limit * limit:
        scale = _scale_of(trace)
        for stage in SQUARE_STAGES:
            full = getattr(trace, stage)
            parts = []
            for h in range(full.shape[0]):
                check()
                if stage == "scaled" and scale is not None:  # a third less reading of huge matrices
                    parts.append(scale(pictures["scores"][h]))
                    continue
                parts.append(reduce_for_display(full[h], limit, "max" if stage == "weights" else "maxabs"))
            pictures[stage] = np.stack(parts)
        visible = reduce_for_display(trace.mask, limit, "mean")
        hidden = reduce_for_display(~trace.mask, limit, "all")
    for stage in FEATURE_STAGES + MATRIX_STAGES + ROTATED_STAGES:
        full = getattr(trace, stage)
        if (
            full is not None and full.shape[-2] * full.shape[-1] > limit * limit
        ):  # e.g. 12 x 384 features stay as they are
            check()
            pictures[stage] = reduce_for_display(full, limit)
    return DisplayArrays(pictures, visible, hidden, limit)


SCALED_LIMIT = 1e30  # the core clamps scaled scores to ±this (softmax out of saturation)


def _scale_of(trace: AttentionTrace) -> Callable[[np.ndarray], np.ndarray] | None:
    """The map from scores to scaled scores (a division by the positive divisor, then the
    clamp), when the trace's scaled scores are exactly that map of its scores: a monotone
    map keeps every block's extreme where it was, so the picture of the scaled scores is the
    picture of the scores, mapped. None when a sample row says otherwise."""
    import torch

    divisor = trace.scale_divisor
    if not divisor > 0:
        return None

    def scale(x: np.ndarray) -> np.ndarray:
        t = torch.from_numpy(np.ascontiguousarray(x))
        return (t / divisor).clamp_(-SCALED_LIMIT, SCALED_LIMIT).numpy()

    sample = slice(0, 2)
    return scale if np.array_equal(scale(trace.scores[0, sample]), trace.scaled[0, sample]) else None


class Difference:
    """B − A of two matrices, read cell by cell (a huge difference is never formed whole on
    the GUI thread: hovering reads one cell; ``np.asarray`` forms it when asked)."""

    ndim = 2

    def __init__(self, b: np.ndarray, a: np.ndarray):
        self.b, self.a = b, a
        self.shape = a.shape
        self.size = a.size
        self.dtype = np.result_type(a, b)

    def __getitem__(self, index: Any) -> Any:
        return self.b[index] - self.a[index]

    def __array__(self, dtype: np.dtype | None = None, copy: bool | None = None) -> np.ndarray:
        return np.asarray(self.b - self.a, dtype=dtype)


@dataclass(frozen=True)
class ComparedPair:
    """The compare view's job: A and B, and for large inputs the pictures of each head's
    weights of A and B and of B − A (reduced on the worker)."""

    key: tuple[AttentionConfig, AttentionConfig]
    a: AttentionTrace
    b: AttentionTrace
    pictures: dict[str, np.ndarray] = field(default_factory=dict)  # "A", "B", "diff", "hidden_a", "hidden_b"

    def panel_data(self, head: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | Difference]:
        """A's and B's weights of one head and their difference (lazy when large)."""
        wa, wb = self.a.weights[head], self.b.weights[head]
        return wa, wb, (Difference(wb, wa) if self.pictures else wb - wa)

    def picture(self, name: str, head: int | None = None) -> np.ndarray | None:
        picture = self.pictures.get(name)
        return picture if picture is None or head is None else picture[head]


def compare_pair(
    engine: Engine,
    a_config: AttentionConfig,
    b_config: AttentionConfig,
    limit: int = DISPLAY_LIMIT,
    should_stop: Callable[[], bool] | None = None,
) -> ComparedPair:
    """A and B on the worker, and what drawing them needs when they are large."""
    a, b = engine.trace(a_config), engine.trace(b_config)
    pictures: dict[str, np.ndarray] = {}
    n_q, n_k = a.mask.shape
    if n_q * n_k > limit * limit and a.weights.shape == b.weights.shape:
        for name in ("A", "B", "diff"):
            parts = []
            for h in range(min(a.heads, b.heads)):
                if should_stop is not None and should_stop():
                    raise DisplayCancelled()
                wa, wb = a.weights[h], b.weights[h]
                matrix = {"A": wa, "B": wb}.get(name)
                if matrix is None:
                    parts.append(reduce_for_display(wb - wa, limit, "maxabs"))
                else:
                    parts.append(reduce_for_display(matrix, limit, "max"))
            pictures[name] = np.stack(parts)
        pictures["hidden_a"] = reduce_for_display(~a.mask, limit, "all")
        pictures["hidden_b"] = reduce_for_display(~b.mask, limit, "all")
    return ComparedPair((a_config, b_config), a, b, pictures)


def accepts_should_stop(fn: Callable[..., object]) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "should_stop" or p.kind is p.VAR_KEYWORD for p in params)


def prepare_trace(
    engine: Engine,
    config: AttentionConfig,
    should_stop: Callable[[], bool] | None = None,
    decoding: DecodingOptions | None = None,
) -> PreparedTrace:
    """The worker's job for the window: the trace, its source and the display arrays. A newer
    request stops it between encoder layers, before the attention and between heads of the
    display reduction. ``decoding``: its heads off, when the model has them, shape the trace."""
    source = engine.source_info(config)
    heads = None
    if decoding is not None and source.source == "pretrained":
        heads = decoding.head_set(source.layers, source.default_heads)
    extra: dict[str, Any] = {} if heads is None else {"heads": heads}
    if should_stop is not None and accepts_should_stop(engine.trace):
        trace = engine.trace(config, should_stop=should_stop, **extra)
    else:
        trace = engine.trace(config, **extra)
    return PreparedTrace(trace, source, display_arrays(trace, should_stop=should_stop))
