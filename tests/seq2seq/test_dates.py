"""The generator: field spans spell the date's own fields, one reading per text, a clean split."""

from datetime import date

import numpy as np
import pytest

from explorer.seq2seq import dates
from explorer.seq2seq.dates import FORMATS, TARGET_FIELDS, find_fields, render

# Every format's spelling of each field, read back independently of the generator's tables.
EN = "January February March April May June July August September October November December".split()
FR = "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()
ZH = {c: i for i, c in enumerate("〇一二三四五六七八九")}


def zh_value(text: str) -> int:
    if len(text) == 4:  # a year, digit by digit
        return int("".join(str(ZH[c]) for c in text))
    if text == "十":
        return 10
    if text.startswith("十"):
        return 10 + ZH[text[1]]
    if "十" in text:
        tens, ones = text.split("十")
        return ZH[tens] * 10 + (ZH[ones] if ones else 0)
    return ZH[text]


def read_field(fmt: str, field: str, text: str) -> int:
    if fmt == "zh_numerals":
        return zh_value(text)
    if field == "month" and text in EN:
        return EN.index(text) + 1
    if field == "month" and text in FR:
        return FR.index(text) + 1
    if field == "year" and fmt == "dotted_short":
        return (1900 if int(text) >= 50 else 2000) + int(text)
    return int(text)


DAYS = [date(1950, 1, 1), date(2049, 12, 31), date(2018, 5, 9), date(2000, 2, 29), date(1999, 12, 1)]
DAYS += [dates.day(int(n)) for n in np.random.default_rng(5).integers(0, 36525, 60)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_field_spans_spell_the_date(fmt):
    for d in DAYS:
        example = render(d, fmt)
        assert example.target == d.isoformat()
        spelled = {f: "".join(example.source[p] for p in example.spans[f]) for f in ("year", "month", "day")}
        assert (read_field(fmt, "year", spelled["year"]), read_field(fmt, "month", spelled["month"])) == (
            d.year,
            d.month,
        ), (example.source, spelled)
        assert read_field(fmt, "day", spelled["day"]) == d.day, (example.source, spelled)
        # Spans are contiguous, disjoint, and each output digit points at its own field.
        for positions in example.spans.values():
            assert list(positions) == list(range(positions[0], positions[-1] + 1))
        assert len(set().union(*map(set, example.spans.values()))) == sum(map(len, example.spans.values()))
        for out_char, field, span in zip(example.target, TARGET_FIELDS, example.target_spans):
            assert (field is None) == (out_char == "-") == (span == ())


def test_the_issue_examples():
    d = date(2018, 5, 9)
    assert [render(d, f).source for f in FORMATS] == [
        "Wednesday 9 May 2018",
        "May 9, 2018",
        "9 May 2018",
        "9 mai 2018",
        "2018年5月9日星期三",
        "二〇一八年五月九日",
        "05/09/2018",
        "9.5.18",
    ]
    assert render(date(2031, 12, 21), "zh_numerals").source == "二〇三一年十二月二十一日"
    assert render(date(1960, 3, 1), "french").source == "1er mars 1960"


def test_every_text_has_one_reading_and_reads_back():
    """No text is written for two different dates (e.g. 05/09 vs 09/05), over every day."""
    seen: dict[str, date] = {}
    for n in range(36525):
        d = dates.day(n)
        for fmt in FORMATS:
            text = render(d, fmt).source
            assert seen.setdefault(text, d) == d, text
    for text, d in list(seen.items())[::97]:
        assert find_fields(text).date == d
    assert find_fields("9 mai 2018 ") is None  # not exactly a generated text
    assert find_fields("Thursday 9 May 2018") is None  # the wrong weekday
    assert find_fields("31/02/2018") is None
    assert find_fields("😀") is None


def test_held_out_days_never_reach_training():
    train, held = dates.split_days("train"), dates.split_days("held_out")
    assert len(train) + len(held) == 36525
    assert not np.intersect1d(train, held).size
    rng = np.random.default_rng(0)
    sampled = {e.date for e in dates.sample(rng, 3000)}
    held_days = {dates.day(n) for n in held}
    assert not sampled & held_days
    evaluation = dates.held_out_set(100, seed=1)
    assert {e.date for e in evaluation} <= held_days
    assert [e.format for e in evaluation] == [f for f in FORMATS for _ in range(100)]


def test_sampling_is_seeded():
    a = dates.sample(np.random.default_rng(3), 50)
    b = dates.sample(np.random.default_rng(3), 50)
    c = dates.sample(np.random.default_rng(4), 50)
    assert a == b != c
    assert {e.format for e in dates.sample(np.random.default_rng(0), 400)} == set(FORMATS)


def test_readings_say_whether_any_format_parses_a_text_and_how_many_ways():
    """What the tab says beside an answer: no reading (not a date), one, or two (the numeric
    formats, with the day and the month either way round)."""
    assert dates.readings("hello world") == dates.readings("9 May 2018 😀🎉") == ()
    assert dates.readings("31.2.18") == () and dates.readings("") == ()
    (one,) = dates.readings("9 May 2018")
    assert (one.date, one.format, one.swapped) == (date(2018, 5, 9), "day_month_year", False)
    us, swapped = dates.readings("09/05/2018")  # the models' convention first: month first
    assert (us.date, us.day_first) == (date(2018, 9, 5), False)
    assert (swapped.date, swapped.day_first, swapped.swapped) == (date(2018, 5, 9), True, True)
    dotted, other = dates.readings("9.5.18")
    assert (dotted.date, dotted.day_first, other.date) == (date(2018, 5, 9), True, date(2018, 9, 5))
    assert len(dates.readings("05/05/2018")) == 1  # both ways the same day
    (only,) = dates.readings("13/05/2018")  # no thirteenth month: day first is the only reading
    assert only.swapped and only.date == date(2018, 5, 13)
    # every generated text has its own date among its readings, the first unless it is numeric
    for n in range(0, 36525, 211):
        d = dates.day(n)
        for fmt in FORMATS:
            found = dates.readings(render(d, fmt).source)
            assert found[0].date == d and not found[0].swapped, (d, fmt)
            assert len(found) == 1 or (fmt in dates.NUMERIC_FORMATS and d.day <= 12 and d.day != d.month)
