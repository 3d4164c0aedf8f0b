"""The alignment score: does the model look at the right part of the source?

For every output *digit* (the eight characters of YYYY, MM and DD), take the source position
with the largest weight in that step's alignment row and ask whether it lies in the
characters that spell the digit's field (year, month or day). The score is the fraction of
digits where it does. The two '-' have no field and are not counted; nor are weekdays.

``digit_report`` also says, per digit, whether it is *padded* (no source character spells
it: the 0 of ``5月``, the 20 of ``9.5.18``) and whether a miss landed right next to its field
(on the separator that closes or opens it): that is where the GRU models look for padded
digits, since a bidirectional annotation of ``月`` already knows how wide the month was.

``shifted_steps`` finds the digits that look one character to the right of the one that spells
them: a GRU's annotation hⱼ₊₁ has read hⱼ's character too, so it can serve for that digit, and
the alignment score, which counts the field, calls it a hit.

``spelled_alignment_score`` is a second figure, shown *beside* the score, never instead of it:
the same fraction over the digits a source character spells, padded digits left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.seq2seq.dates import FIELDS, TARGET_FIELDS, DateExample

FIELD_STEPS = {field: tuple(i for i, f in enumerate(TARGET_FIELDS) if f == field) for field in FIELDS}


def whole_percent(share: float) -> int:
    """A share as a whole per cent, halves up: 5 of 8 is 63 %, as a class counts (format's
    half-to-even printed 62 % beside 7 of 8 as 88 %)."""
    return int(np.floor(100 * share + 0.5))


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


def spelling_positions(example: DateExample) -> dict[int, int]:
    """Output step → the source position of the very digit it writes, where the source
    writes that digit (``2018``, the ``9`` of ``9 mai``, the ``18`` of ``9.5.18``; not
    ``二〇一八`` or ``mai``): the field's characters, right-aligned with its output digits."""
    out = {}
    for field, steps in FIELD_STEPS.items():
        span = example.spans[field]
        for step, pos in zip(steps[::-1], span[::-1]):
            if example.source[pos] == example.target[step]:
                out[step] = pos
    return out


def shifted_steps(alignment: np.ndarray, example: DateExample) -> tuple[int, ...]:
    """The output steps whose largest weight is on the character right after the digit they write."""
    return tuple(
        step
        for step, pos in spelling_positions(example).items()
        if step < len(alignment) and int(np.argmax(alignment[step])) == pos + 1
    )
