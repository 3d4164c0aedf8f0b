"""The alignment score: does the model look at the right part of the source?

For every output *digit* (the eight characters of YYYY, MM and DD), take the source position
with the largest weight in that step's alignment row and ask whether it lies in the
characters that spell the digit's field (year, month or day). The score is the fraction of
digits where it does. The two '-' have no field and are not counted; nor are weekdays.

``digit_report`` also says, per digit, whether it is *padded* (no source character spells
it: the 0 of ``5月``, the 20 of ``9.5.18``) and whether a miss landed right next to its field
(on the separator that closes or opens it): that is where the GRU models look for padded
digits, since a bidirectional annotation of ``月`` already knows how wide the month was.

``spelled_alignment_score`` is a second figure, shown *beside* the score, never instead of it:
the same fraction over the digits a source character spells, padded digits left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.seq2seq.dates import TARGET_FIELDS, DateExample


def alignment_hits(alignment: np.ndarray, example: DateExample) -> list[bool]:
    """Per output digit, in output order: True when its largest weight is on its own field."""
    return [digit.hit for digit in digit_report(alignment, example)]


def alignment_score(alignment: np.ndarray, example: DateExample) -> float:
    """Fraction of output digits whose largest weight falls on their own field's characters."""
    hits = alignment_hits(alignment, example)
    return float(np.mean(hits)) if hits else 0.0


def spelled_alignment_score(alignment: np.ndarray, example: DateExample) -> float | None:
    """The alignment score over the digits a source character spells (padded digits left out);
    None when every digit is padded (never, for the generated formats)."""
    hits = [digit.hit for digit in digit_report(alignment, example) if not digit.padded]
    return float(np.mean(hits)) if hits else None


@dataclass(frozen=True)
class DigitAlignment:
    step: int  # output position (0–3 year, 5–6 month, 8–9 day)
    field: str
    top: int  # the source position with the largest weight
    hit: bool  # top lies in the field's characters
    padded: bool  # no source character spells this digit
    next_to_field: bool  # a miss on the character just before or after the field


def digit_report(alignment: np.ndarray, example: DateExample) -> list[DigitAlignment]:
    padded = example.padded_steps
    report = []
    for step, field in enumerate(TARGET_FIELDS):
        if field is None or step >= len(alignment):
            continue
        span, top = example.spans[field], int(np.argmax(alignment[step]))
        hit = top in span
        beside = not hit and top in (span[0] - 1, span[-1] + 1)
        report.append(DigitAlignment(step, field, top, hit, step in padded, beside))
    return report
