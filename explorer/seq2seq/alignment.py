"""The alignment score: does the model look at the right part of the source?

For every output *digit* (the eight characters of YYYY, MM and DD), take the source position
with the largest weight in that step's alignment row and ask whether it lies in the
characters that spell the digit's field (year, month or day). The score is the fraction of
digits where it does. The two '-' have no field and are not counted; nor are weekdays.
"""

from __future__ import annotations

import numpy as np

from explorer.seq2seq.dates import TARGET_FIELDS, DateExample


def alignment_hits(alignment: np.ndarray, example: DateExample) -> list[bool]:
    """Per output digit, in output order: True when its largest weight is on its own field."""
    hits = []
    for step, field in enumerate(TARGET_FIELDS):
        if field is None or step >= len(alignment):
            continue
        hits.append(int(np.argmax(alignment[step])) in example.spans[field])
    return hits


def alignment_score(alignment: np.ndarray, example: DateExample) -> float:
    """Fraction of output digits whose largest weight falls on their own field's characters."""
    hits = alignment_hits(alignment, example)
    return float(np.mean(hits)) if hits else 0.0
