"""The alignment score counts, per output digit, whether its largest weight is on its own field."""

from datetime import date

import numpy as np
import pytest

from explorer.seq2seq.alignment import (
    alignment_score,
    digit_report,
    shifted_steps,
    spelled_alignment_score,
    spelling_positions,
)
from explorer.seq2seq.dates import TARGET_FIELDS, render

DIGIT_STEPS = [i for i, f in enumerate(TARGET_FIELDS) if f]


def one_hot_on(example, pick) -> np.ndarray:
    """An alignment whose row for each output step puts all weight on pick(span)."""
    rows = np.full((10, len(example.source)), 0.0)
    for step, span in enumerate(example.target_spans):
        rows[step, pick(span) if span else 0] = 1.0
    return rows


@pytest.mark.parametrize("fmt", ["weekday_long", "zh_numerals", "dotted_short", "us_numeric"])
def test_on_the_field_scores_one_and_beside_it_scores_zero(fmt):
    example = render(date(2018, 5, 9), fmt)
    assert alignment_score(one_hot_on(example, lambda span: span[-1]), example) == 1.0
    beside = one_hot_on(
        example, lambda span: span[-1] + 1 if span[-1] + 1 < len(example.source) else span[0] - 1
    )
    assert alignment_score(beside, example) == 0.0
    assert all(d.next_to_field and not d.hit for d in digit_report(beside, example))
    half = one_hot_on(example, lambda span: span[0])
    half[DIGIT_STEPS[:4]] = beside[DIGIT_STEPS[:4]]  # the year's four digits look beside the year
    assert alignment_score(half, example) == 0.5


def test_padded_digits_are_the_ones_no_character_spells():
    assert render(date(2018, 5, 9), "dotted_short").padded_steps == (0, 1, 5, 8)
    assert render(date(2018, 5, 9), "us_numeric").padded_steps == ()
    assert render(date(2018, 12, 9), "zh_digits").padded_steps == (8,)
    assert render(date(2018, 10, 10), "zh_numerals").padded_steps == ()  # 十 spells both digits
    assert render(date(2018, 5, 19), "us_long").padded_steps == ()  # May is a word, not a digit
    uniform = np.full((10, 6), 1 / 6)
    assert [d.padded for d in digit_report(uniform, render(date(2018, 5, 9), "dotted_short"))] == [
        True, True, False, False, True, False, True, False,
    ]  # fmt: skip


def test_the_spelled_digit_score_leaves_padded_digits_out():
    example = render(date(2018, 5, 9), "dotted_short")  # 9.5.18: digits 0, 1 (20), 5 (0), 8 (0) are padded
    on_field = one_hot_on(example, lambda span: span[-1])
    for step in example.padded_steps:  # the padded digits look at the '.' beside their field
        span = example.target_spans[step]
        on_field[step] = 0.0
        on_field[step, span[0] - 1 if span[0] else span[-1] + 1] = 1.0
    assert all(d.next_to_field for d in digit_report(on_field, example) if d.padded)
    assert alignment_score(on_field, example) == 0.5  # 4 hits of 8 digits
    assert spelled_alignment_score(on_field, example) == 1.0  # 4 hits of the 4 spelled digits
    on_field[2] = 0.0
    on_field[2, 1] = 1.0  # the year's tens digit now reads the first '.'
    assert alignment_score(on_field, example) == 3 / 8
    assert spelled_alignment_score(on_field, example) == 3 / 4
    us = render(date(2018, 5, 9), "us_numeric")  # nothing padded: both figures agree
    half = one_hot_on(us, lambda span: span[0])
    half[DIGIT_STEPS[:4]] = 0.0
    half[DIGIT_STEPS[:4], 2] = 1.0  # the year's digits read the first '/'
    assert alignment_score(half, us) == spelled_alignment_score(half, us) == 0.5


def test_a_digit_one_character_to_the_right_of_its_own_is_shifted_and_still_a_hit():
    example = render(date(2018, 5, 9), "french")  # "9 mai 2018": year at 6–9, day at 0
    assert spelling_positions(example) == {0: 6, 1: 7, 2: 8, 3: 9, 9: 0}  # not "mai", not the padded 0
    own = one_hot_on(example, lambda span: span[-1])
    for step, pos in spelling_positions(example).items():
        own[step] = 0.0
        own[step, pos] = 1.0
    assert shifted_steps(own, example) == ()
    own[0] = 0.0
    own[0, 7] = 1.0  # "2" looks at "0": inside the year, one to the right
    own[9] = 0.0
    own[9, 1] = 1.0  # "9" looks at the space after it
    assert shifted_steps(own, example) == (0, 9)
    assert digit_report(own, example)[0].hit  # the score counts the field
    assert spelling_positions(render(date(2018, 5, 9), "zh_numerals")) == {}  # 二〇一八 spells no digit


def test_a_counted_share_rounds_halves_up_as_a_class_counts():
    from explorer.seq2seq.alignment import whole_percent

    assert [whole_percent(k / 8) for k in range(9)] == [0, 13, 25, 38, 50, 63, 75, 88, 100]
    assert whole_percent(2 / 3) == 67 and whole_percent(0.004) == 0
