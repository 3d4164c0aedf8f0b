"""The translation lab's task: a human-written date → ISO ``YYYY-MM-DD``, generated, never downloaded.

Every example knows which source characters spell its year, month and day (its *field
spans*), so we can ask whether a model's attention looks at the right place.

    render(date(2018, 5, 9), "zh_digits").source      →  "2018年5月9日星期三"
    render(date(2018, 5, 9), "zh_digits").spans        →  {"year": (0, 1, 2, 3), "month": (5,), "day": (7,)}
    find_fields("9 mai 2018")                          →  the same DateExample render() gave, or None
    readings("09/05/2018")                             →  2018-09-05 (the convention), 2018-05-09 (swapped)

Conventions, one per format so no source text has two readings (a test checks every date):
``05/09/2018`` is month/day/year (US); ``9.5.18`` is day.month.year with a two-digit year,
00–49 → 20xx and 50–99 → 19xx (the data covers 1950–2049, so this is exact). A weekday
(``Wednesday``, ``星期三``) belongs to no field: it follows from the date. French writes the
first of the month ``1er``; the day field is the digit ``1``.

Some output digits have no source character of their own (``padded_steps``): the leading 0
of ``5月`` or ``9.5.18``, and the century 20 of ``18``. The model has to infer them.

Held-out dates: a fixed permutation of all 36,525 days (seed ``SPLIT_SEED``) puts every
eighth day aside. Training never sees a held-out day in any format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

import numpy as np

FIRST_DAY = date(1950, 1, 1)
LAST_DAY = date(2049, 12, 31)
SPLIT_SEED = 20180509
HELD_OUT_EVERY = 8  # one day in eight is held out

FIELDS = ("year", "month", "day")
TARGET_LENGTH = 10  # YYYY-MM-DD
# Which field each output character belongs to; the two '-' belong to none.
TARGET_FIELDS = ("year",) * 4 + (None,) + ("month",) * 2 + (None,) + ("day",) * 2

MONTHS_EN = ("January February March April May June July August September October November December").split()
MONTHS_FR = "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()
WEEKDAYS_EN = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
ZH_DIGITS = "〇一二三四五六七八九"
ZH_WEEKDAYS = "一二三四五六日"  # 星期一 … 星期六, 星期日


def zh_number(n: int) -> str:
    """1 → 一, 10 → 十, 12 → 十二, 20 → 二十, 31 → 三十一 (months and days)."""
    tens, ones = divmod(n, 10)
    head = "" if tens == 0 else ("十" if tens == 1 else ZH_DIGITS[tens] + "十")
    return head + (ZH_DIGITS[ones] if ones else "")


def zh_year(year: int) -> str:
    """Digit by digit: 2018 → 二〇一八."""
    return "".join(ZH_DIGITS[int(c)] for c in str(year))


# A format is a list of pieces: literal text (field None) or a field's spelling.
def _pieces(d: date, fmt: str) -> list[tuple[str, str | None]]:
    day, month, year = str(d.day), d.month, str(d.year)
    if fmt == "weekday_long":  # Wednesday 9 May 2018
        return [(WEEKDAYS_EN[d.weekday()] + " ", None), (day, "day"), (" ", None)] + [
            (MONTHS_EN[month - 1], "month"),
            (" ", None),
            (year, "year"),
        ]
    if fmt == "us_long":  # May 9, 2018
        return [(MONTHS_EN[month - 1], "month"), (" ", None), (day, "day"), (", ", None), (year, "year")]
    if fmt == "day_month_year":  # 9 May 2018
        return [(day, "day"), (" ", None), (MONTHS_EN[month - 1], "month"), (" ", None), (year, "year")]
    if fmt == "french":  # 9 mai 2018, 1er mai 2018
        suffix = "er " if d.day == 1 else " "
        return [(day, "day"), (suffix, None), (MONTHS_FR[month - 1], "month"), (" ", None), (year, "year")]
    if fmt == "zh_digits":  # 2018年5月9日星期三
        return [(year, "year"), ("年", None), (str(month), "month"), ("月", None), (day, "day")] + [
            ("日星期" + ZH_WEEKDAYS[d.weekday()], None)
        ]
    if fmt == "zh_numerals":  # 二〇一八年五月九日
        return [(zh_year(d.year), "year"), ("年", None), (zh_number(month), "month"), ("月", None)] + [
            (zh_number(d.day), "day"),
            ("日", None),
        ]
    if fmt == "us_numeric":  # 05/09/2018 (month/day/year)
        return [(f"{month:02d}", "month"), ("/", None), (f"{d.day:02d}", "day"), ("/", None), (year, "year")]
    if fmt == "dotted_short":  # 9.5.18 (day.month.yy)
        return [(day, "day"), (".", None), (str(month), "month"), (".", None), (year[2:], "year")]
    raise ValueError(f"unknown date format {fmt!r}")


FORMATS = (
    "weekday_long",
    "us_long",
    "day_month_year",
    "french",
    "zh_digits",
    "zh_numerals",
    "us_numeric",
    "dotted_short",
)
NUMERIC_FORMATS = ("us_numeric", "dotted_short")
CHINESE_FORMATS = ("zh_digits", "zh_numerals")
EXAMPLE_DATE = date(2018, 5, 9)


@dataclass(frozen=True)
class DateExample:
    date: date
    format: str
    source: str
    spans: dict[str, tuple[int, ...]]  # field → the source positions that spell it

    @property
    def target(self) -> str:
        return self.date.isoformat()

    @property
    def source_fields(self) -> list[str | None]:
        """Per source character: its field, or None (spaces, separators, weekday)."""
        fields: list[str | None] = [None] * len(self.source)
        for name, positions in self.spans.items():
            for p in positions:
                fields[p] = name
        return fields

    @property
    def padded_steps(self) -> tuple[int, ...]:
        """Output digits no source character spells: the leading 0 of a month or day below 10
        written with one character, and the century of a two-digit year (``9.5.18``)."""
        steps: tuple[int, ...] = (0, 1) if self.format == "dotted_short" else ()
        if self.date.month < 10 and len(self.spans["month"]) == 1:
            steps += (5,)
        if self.date.day < 10 and len(self.spans["day"]) == 1:
            steps += (8,)
        return steps

    @property
    def target_spans(self) -> list[tuple[int, ...]]:
        """Per output character: the source positions of its field (none for '-')."""
        return [self.spans[f] if f else () for f in TARGET_FIELDS]


def render(d: date, fmt: str) -> DateExample:
    text, spans, at = "", {}, 0
    for piece, field in _pieces(d, fmt):
        if field:
            spans[field] = tuple(range(at, at + len(piece)))
        text += piece
        at += len(piece)
    return DateExample(d, fmt, text, spans)


def examples_of(d: date) -> list[DateExample]:
    """One date in every format (the tab's example list)."""
    return [render(d, fmt) for fmt in FORMATS]


# -- reading a text back -------------------------------------------------------------------
_EN = "|".join(MONTHS_EN)
_FR = "|".join(MONTHS_FR)
_ZH_NUM = "[一二三四五六七八九十]{1,3}"
_PATTERNS = {
    "weekday_long": rf"(?:{'|'.join(WEEKDAYS_EN)}) (?P<d>\d{{1,2}}) (?P<m>{_EN}) (?P<y>\d{{4}})",
    "us_long": rf"(?P<m>{_EN}) (?P<d>\d{{1,2}}), (?P<y>\d{{4}})",
    "day_month_year": rf"(?P<d>\d{{1,2}}) (?P<m>{_EN}) (?P<y>\d{{4}})",
    "french": rf"(?P<d>\d{{1,2}})(?:er)? (?P<m>{_FR}) (?P<y>\d{{4}})",
    "zh_digits": r"(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日星期[一二三四五六日]",
    "zh_numerals": rf"(?P<y>[{ZH_DIGITS}]{{4}})年(?P<m>{_ZH_NUM})月(?P<d>{_ZH_NUM})日",
    "us_numeric": r"(?P<m>\d{2})/(?P<d>\d{2})/(?P<y>\d{4})",
    "dotted_short": r"(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{2})",
}


def _zh_value(text: str) -> int:
    if "十" not in text:
        return ZH_DIGITS.index(text)
    tens, _, ones = text.partition("十")
    return (ZH_DIGITS.index(tens) if tens else 1) * 10 + (ZH_DIGITS.index(ones) if ones else 0)


def _field_values(fmt: str, y: str, m: str, d: str) -> tuple[int, int, int]:
    if fmt == "zh_numerals":
        return int("".join(str(ZH_DIGITS.index(c)) for c in y)), _zh_value(m), _zh_value(d)
    month = MONTHS_EN.index(m) + 1 if m in MONTHS_EN else MONTHS_FR.index(m) + 1 if m in MONTHS_FR else int(m)
    year = int(y)
    if fmt == "dotted_short":
        year += 2000 if year < 50 else 1900  # the century rule of the module docstring
    return year, month, int(d)


def find_fields(text: str) -> DateExample | None:
    """The example this text is, when it is exactly what the generator writes for some date."""
    for fmt, pattern in _PATTERNS.items():
        match = re.fullmatch(pattern, text)
        if not match:
            continue
        try:
            d = date(*_field_values(fmt, match["y"], match["m"], match["d"]))
        except ValueError:  # 31 February and friends
            continue
        example = render(d, fmt)
        if example.source == text and FIRST_DAY <= d <= LAST_DAY:
            return example
    return None


@dataclass(frozen=True)
class Reading:
    """One way the lab's grammar reads a text as a date."""

    date: date
    format: str
    swapped: bool  # day and month taken the other way round from the format's convention

    @property
    def day_first(self) -> bool:
        """The day written before the month (``9.5.18`` as the models read it)."""
        return (self.format == "dotted_short") != self.swapped


def readings(text: str) -> tuple[Reading, ...]:
    """Every date the lab's grammar reads in this text, one per date: each format whose pattern
    matches all of it with a real day in the data's range, and for the numeric formats, which
    have no month name to tell, the same digits with the day and the month swapped where that
    is a date too (people write both orders). None: no format writes this text; more than one:
    it is ambiguous, and the models read it by their format's convention (the first)."""
    out: dict[date, Reading] = {}
    for fmt, pattern in _PATTERNS.items():
        match = re.fullmatch(pattern, text)
        if not match:
            continue
        year, month, day_ = _field_values(fmt, match["y"], match["m"], match["d"])
        orders = [(month, day_, False)] + ([(day_, month, True)] if fmt in NUMERIC_FORMATS else [])
        for m, d, swapped in orders:
            try:
                found = date(year, m, d)
            except ValueError:  # 31 February, a thirteenth month
                continue
            if FIRST_DAY <= found <= LAST_DAY and found not in out:
                out[found] = Reading(found, fmt, swapped)
    return tuple(out.values())


# -- the split and the sampler -------------------------------------------------------------
@lru_cache(maxsize=1)
def _split() -> tuple[np.ndarray, np.ndarray]:
    """(training day numbers, held-out day numbers), days counted from FIRST_DAY."""
    days = (LAST_DAY - FIRST_DAY).days + 1
    order = np.random.default_rng(SPLIT_SEED).permutation(days)
    held_out = np.sort(order[: days // HELD_OUT_EVERY])
    training = np.sort(order[days // HELD_OUT_EVERY :])
    return training, held_out


def split_days(split: str) -> np.ndarray:
    training, held_out = _split()
    if split == "train":
        return training
    if split == "held_out":
        return held_out
    raise ValueError(f"split must be 'train' or 'held_out', not {split!r}")


def day(number: int) -> date:
    return FIRST_DAY + timedelta(days=int(number))


def sample(rng: np.random.Generator, n: int, split: str = "train", formats=FORMATS) -> list[DateExample]:
    """``n`` examples: days drawn from the split, each in a format drawn uniformly."""
    days = split_days(split)
    picks = rng.integers(0, len(days), size=n)
    fmts = rng.integers(0, len(formats), size=n)
    return [render(day(days[p]), formats[f]) for p, f in zip(picks, fmts)]


def held_out_set(per_format: int, seed: int = 0, formats=FORMATS) -> list[DateExample]:
    """``per_format`` distinct held-out days in each format (the days differ between formats)."""
    rng = np.random.default_rng(seed)
    days = split_days("held_out")
    out = []
    for fmt in formats:
        for p in rng.choice(len(days), size=min(per_format, len(days)), replace=False):
            out.append(render(day(days[p]), fmt))
    return out


def source_alphabet() -> list[str]:
    """Every character the generator can write, sorted: the source vocabulary."""
    chars: set[str] = set("0123456789 ,./年月日星期" + ZH_DIGITS + "十" + ZH_WEEKDAYS + "er")
    for words in (MONTHS_EN, MONTHS_FR, WEEKDAYS_EN):
        for w in words:
            chars.update(w)
    return sorted(chars)
