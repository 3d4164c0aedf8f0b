"""Every number written or shown is finite, or the run says why.

``require_finite`` is the one check of a result's numbers, made where results are made (the
AttentionTrace, the translation and vision traces): the command line then exits 2 with one
line, the window keeps its last good picture under a banner, and no file is written. The
weights were checked on loading (a model folder, a lab checkpoint), so what fails here
overflowed while computing. ``require_half_range`` refuses numbers float16 cannot hold,
before a file turns them into infinities; ``strict_json`` writes JSON that every reader
reads (no bare NaN or Infinity).

Qt-free; it imports only explorer.messages, so every package may use it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from explorer.messages import QT_TRANSLATE_NOOP, MessageError, register, section

FLOAT16_MAX = float(np.finfo(np.float16).max)  # 65504

register(
    section(
        QT_TRANSLATE_NOOP(
            "CoreMessages",
            "the numbers overflowed while computing: {stage} holds {count} NaN or infinite value(s) "
            "although the weights are finite (inputs or weights too large for float32)",
            "numbers.overflow",
        ),
        QT_TRANSLATE_NOOP(
            "CoreMessages",
            "float16 cannot hold {stage}: its values reach {value:.0f}, beyond ±65504; write float32",
            "numbers.float16_range",
        ),
        QT_TRANSLATE_NOOP(
            "CoreMessages", "{name}: a number to write is NaN or infinite", "numbers.json_not_finite"
        ),
        QT_TRANSLATE_NOOP(
            "CoreMessages",
            "the numbers overflowed while computing: the trace's {field} holds NaN or infinite values "
            "although the weights are finite (inputs or weights too large for float32)",
            "numbers.field_overflow",
        ),
    )
)


class NotFinite(MessageError, ValueError):
    """A result with a NaN or an infinity in it, or one a file format cannot hold."""


def count_non_finite(array: Any) -> int:
    """How many NaN or infinite values a floating array holds (0 for other arrays).

    One sum finds out (it is NaN or inf when any value is) without a mask as large as the
    array; only a suspect sum is counted exactly (finite values can add up past the range)."""
    values = np.asarray(array)
    if values.dtype.kind not in "fc" or values.size == 0:
        return 0
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(values.sum()):
            return 0
    return int(values.size - np.count_nonzero(np.isfinite(values)))


def first_non_finite(named: Iterable[tuple[str, Any]]) -> tuple[str, int] | None:
    """(name, count) of the first array with NaN or infinite values, or None."""
    for name, array in named:
        count = count_non_finite(array)
        if count:
            return name, count
    return None


def require_finite(named: Iterable[tuple[str, Any]]) -> None:
    """Raise NotFinite naming the first array (in the given order) that is not all finite:
    where the overflow began, when the arrays come in the order they were computed."""
    found = first_non_finite(named)
    if found is not None:
        raise NotFinite.of("numbers.overflow", stage=found[0], count=found[1])


def require_finite_fields(fields: Mapping[str, Any]) -> None:
    """Raise NotFinite naming the first field of a file's metadata (``trace.meta()``: the next
    tokens' probabilities, the heads' shares, …) that holds a NaN or an infinity: the
    arrays were finite, so what overflowed is named by its field, not as "meta"."""
    for key, value in fields.items():
        try:
            json.dumps(value, allow_nan=False)
        except ValueError:
            raise NotFinite.of("numbers.field_overflow", field=key) from None
        except TypeError:
            continue  # not JSON at all: the writer says so


def require_half_range(named: Iterable[tuple[str, Any]]) -> None:
    """Raise NotFinite when a floating array holds values float16 turns into infinities."""
    for name, array in named:
        values = np.asarray(array)
        if values.dtype.kind != "f" or values.size == 0:
            continue
        largest = float(np.max(np.abs(values)))
        if largest > FLOAT16_MAX:
            raise NotFinite.of("numbers.float16_range", stage=name, value=largest)


def strict_json(value: Any, name: str, **options: Any) -> str:
    """json.dumps that refuses NaN and infinities (Python's writes them bare, which JSON
    readers refuse) instead of writing them; ``name``: what is written, for the message."""
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError:
        raise NotFinite.of("numbers.json_not_finite", name=name) from None
