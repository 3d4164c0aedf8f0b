"""The lesson's kind of sentence, generated in English with its French and Chinese translation
and the true word alignment of every output word. Word level; nothing is downloaded.

    example = render([clause], "fr")      # or parse("Jane visits Africa in September", "fr")
    example.source  →  ("Jane", "visits", "Africa", "in", "September")
    example.target  →  ("Jane", "visite", "l'", "Afrique", "en", "septembre")
    example.links   →  ((0,), (1,), (2,), (2,), (3,), (4,))     source positions per output word
    example.translation  →  "Jane visite l'Afrique en septembre"   (zh: "简九月访问非洲")

A clause is a subject (a name, or two joined by "and"), a verb, its object (a place, or a noun
phrase with "the"/"a"/"an" and at most one adjective) and an optional time ("in September",
"on Monday"). The translations follow the grammar, not a word list:

- French: verbs agree with the subject (visite / visitent); articles take the noun's gender
  (le / la, un / une) and elide before a vowel or a mute h (l'école, l'hôtel, but le bel hôtel);
  colour adjectives follow the noun and agree (la voiture blanche), small / big / new / old /
  beautiful precede it (la vieille maison, le vieil arbre); countries take their article
  (l'Afrique, le Japon, les États-Unis), "goes to" its preposition (en France, au Japon, aux
  États-Unis, à Paris); "on Monday" is plain "lundi".
- Chinese: the time phrase moves before the verb (简九月访问非洲), "a" becomes 一 and the noun's
  measure word (一辆汽车, 一本书), colour adjectives take 的 (红色的汽车), clauses are joined by "，".
- English itself: "a" is "an" before a vowel (an old car, an umbrella).

Compound sentences join clauses with "and" (French "et", Chinese "，"): the length experiment's
task. Held out: every clause whose English text hashes (CRC-32) to 0 mod ``HELD_OUT_EVERY``;
training never sees one, alone or inside a compound sentence.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

LANGUAGES = ("fr", "zh")
HELD_OUT_EVERY = 8


@dataclass(frozen=True)
class Name:
    en: str
    zh: str


@dataclass(frozen=True)
class Verb:
    en: tuple[str, str]  # (third person singular, plural)
    fr: tuple[str, str]
    zh: str
    takes: tuple[str, ...]  # "place" and/or "thing"
    en_particle: str = ""  # "to" of "goes to"
    fr_preposition: bool = False  # aller: en / au / aux / à instead of the article


@dataclass(frozen=True)
class Place:
    en: tuple[str, ...]
    fr: str
    kind: str  # "f", "m", "vowel" (elides, takes "en"), "plural" (les, aux), "city" (no article)
    zh: str


@dataclass(frozen=True)
class Noun:
    en: str
    fr: str
    gender: str  # "m" / "f"
    zh: str
    measure: str  # 辆, 本, 只, …
    zh_old: str = "旧"  # "old": 旧 for things, 老 for animals, buildings and trees


@dataclass(frozen=True)
class Adjective:
    en: str
    fr_m: str
    fr_f: str
    zh: str
    before: bool = False  # precedes the noun in French
    fr_m_vowel: str = ""  # the masculine form before a vowel: nouvel, vieil, bel


NAMES = tuple(
    Name(en, zh)
    for en, zh in (
        ("Jane", "简"), ("Paul", "保罗"), ("Marie", "玛丽"), ("Tom", "汤姆"),
        ("Anna", "安娜"), ("Lucas", "卢卡斯"), ("Emma", "艾玛"), ("Louis", "路易"),
    )
)  # fmt: skip
VERBS = (
    Verb(("visits", "visit"), ("visite", "visitent"), "访问", ("place",)),
    Verb(("leaves", "leave"), ("quitte", "quittent"), "离开", ("place",)),
    Verb(("goes", "go"), ("va", "vont"), "去", ("place",), en_particle="to", fr_preposition=True),
    Verb(("likes", "like"), ("aime", "aiment"), "喜欢", ("place", "thing")),
    Verb(("sees", "see"), ("voit", "voient"), "看见了", ("thing",)),
    Verb(("buys", "buy"), ("achète", "achètent"), "买了", ("thing",)),
    Verb(("wants", "want"), ("veut", "veulent"), "想要", ("thing",)),
    Verb(("has", "have"), ("a", "ont"), "有", ("thing",)),
)
PLACES = tuple(
    Place(tuple(en.split()), fr, kind, zh)
    for en, fr, kind, zh in (
        ("Africa", "Afrique", "vowel", "非洲"), ("Europe", "Europe", "vowel", "欧洲"),
        ("Asia", "Asie", "vowel", "亚洲"), ("France", "France", "f", "法国"),
        ("China", "Chine", "f", "中国"), ("Italy", "Italie", "vowel", "意大利"),
        ("Spain", "Espagne", "vowel", "西班牙"), ("Japan", "Japon", "m", "日本"),
        ("Canada", "Canada", "m", "加拿大"), ("Brazil", "Brésil", "m", "巴西"),
        ("the United States", "États-Unis", "plural", "美国"), ("Paris", "Paris", "city", "巴黎"),
        ("London", "Londres", "city", "伦敦"), ("Beijing", "Pékin", "city", "北京"),
        ("Rome", "Rome", "city", "罗马"),
    )
)  # fmt: skip
NOUNS = (
    Noun("car", "voiture", "f", "汽车", "辆"),
    Noun("bicycle", "vélo", "m", "自行车", "辆"),
    Noun("book", "livre", "m", "书", "本"),
    Noun("house", "maison", "f", "房子", "座", "老"),
    Noun("cat", "chat", "m", "猫", "只", "老"),
    Noun("dog", "chien", "m", "狗", "只", "老"),
    Noun("table", "table", "f", "桌子", "张"),
    Noun("plane", "avion", "m", "飞机", "架"),
    Noun("school", "école", "f", "学校", "所", "老"),
    Noun("hotel", "hôtel", "m", "酒店", "家", "老"),
    Noun("tree", "arbre", "m", "树", "棵", "老"),
    Noun("piano", "piano", "m", "钢琴", "架"),
    Noun("bag", "sac", "m", "包", "个"),
    Noun("umbrella", "parapluie", "m", "雨伞", "把"),
)
ADJECTIVES = (
    Adjective("red", "rouge", "rouge", "红色的"),
    Adjective("blue", "bleu", "bleue", "蓝色的"),
    Adjective("green", "vert", "verte", "绿色的"),
    Adjective("black", "noir", "noire", "黑色的"),
    Adjective("white", "blanc", "blanche", "白色的"),
    Adjective("yellow", "jaune", "jaune", "黄色的"),
    Adjective("grey", "gris", "grise", "灰色的"),
    Adjective("small", "petit", "petite", "小", before=True),
    Adjective("big", "grand", "grande", "大", before=True),
    Adjective("new", "nouveau", "nouvelle", "新", before=True, fr_m_vowel="nouvel"),
    Adjective("old", "vieux", "vieille", "", before=True, fr_m_vowel="vieil"),  # zh: the noun's zh_old
    Adjective("beautiful", "beau", "belle", "漂亮的", before=True, fr_m_vowel="bel"),
)
MONTHS_EN = "January February March April May June July August September October November December".split()
MONTHS_FR = "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()
MONTHS_ZH = tuple(m + "月" for m in "一 二 三 四 五 六 七 八 九 十 十一 十二".split())
WEEKDAYS_EN = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
WEEKDAYS_FR = "lundi mardi mercredi jeudi vendredi samedi dimanche".split()
WEEKDAYS_ZH = tuple("星期" + d for d in "一二三四五六日")
DETERMINERS = ("the", "a")  # "a" is written "an" before a vowel
CLAUSE_JOIN = {"en": "and", "fr": "et", "zh": "，"}
SUBJECT_JOIN = {"en": "and", "fr": "et", "zh": "和"}
ELIDED = {"fr": "l'"}


@dataclass(frozen=True)
class Thing:
    """A noun phrase: determiner index, adjective index or None, noun index."""

    determiner: int
    adjective: int | None
    noun: int


@dataclass(frozen=True)
class Clause:
    subject: tuple[int, ...]  # one or two NAMES indices
    verb: int
    place: int | None = None  # PLACES index, or
    thing: Thing | None = None  # a noun phrase
    time: tuple[str, int] | None = None  # ("month", 0–11) or ("weekday", 0–6)

    def __post_init__(self) -> None:
        if (self.place is None) == (self.thing is None):
            raise ValueError("a clause's object is a place or a thing, one of the two")

    @property
    def plural(self) -> bool:
        return len(self.subject) > 1

    @property
    def noun_phrase(self) -> Thing:
        if self.thing is None:
            raise ValueError("this clause's object is a place")
        return self.thing


@dataclass(frozen=True)
class SentenceExample:
    source: tuple[str, ...]  # English words
    target: tuple[str, ...]  # French or Chinese words
    links: tuple[tuple[int, ...], ...]  # per target word: the source positions it translates
    language: str
    clause_of_source: tuple[int, ...]  # per source word: which clause it belongs to

    @property
    def text(self) -> str:
        return " ".join(self.source)

    @property
    def translation(self) -> str:
        return join_words(self.target, self.language)

    @property
    def clauses(self) -> int:
        return (self.clause_of_source[-1] + 1) if self.clause_of_source else 0

    def alignment_matrix(self) -> np.ndarray:
        """[T, n] 1 where output word i translates source word j (the true alignment)."""
        matrix = np.zeros((len(self.target), len(self.source)), dtype=np.float32)
        for i, positions in enumerate(self.links):
            matrix[i, list(positions)] = 1.0
        return matrix


def join_words(words, language: str) -> str:
    """Words as written: Chinese without spaces; French with l' joined to the next word."""
    if language == "zh":
        return "".join(words)
    text = ""
    for word in words:
        text += word if (not text or text.endswith("'")) else " " + word
    return text


# -- rendering -------------------------------------------------------------------------------
# A rendered clause is a list of (word, keys) per language; keys name the English words a word
# translates ("subject0", "verb", "noun", …). English words carry exactly one key each.
Piece = tuple[str, tuple[str, ...]]


def _starts_with_vowel(word: str) -> bool:
    """French elision: a vowel or a mute h (every h of this grammar, hôtel, is mute)."""
    return word[:1].lower() in "aeiouéèêàâîôh"


def _english(clause: Clause) -> list[Piece]:
    verb = VERBS[clause.verb]
    out: list[Piece] = [(NAMES[clause.subject[0]].en, ("subject0",))]
    if clause.plural:
        out += [(SUBJECT_JOIN["en"], ("subject_and",)), (NAMES[clause.subject[1]].en, ("subject1",))]
    out.append((verb.en[clause.plural], ("verb",)))
    if verb.en_particle:
        out.append((verb.en_particle, ("particle",)))
    if clause.place is not None:
        out += [(w, (f"place{i}",)) for i, w in enumerate(PLACES[clause.place].en)]
    else:
        thing = clause.noun_phrase
        words = ([ADJECTIVES[thing.adjective].en] if thing.adjective is not None else []) + [
            NOUNS[thing.noun].en
        ]
        det = DETERMINERS[thing.determiner]
        if det == "a" and words[0][0] in "aeiou":
            det = "an"
        out.append((det, ("det",)))
        if thing.adjective is not None:
            out.append((words[0], ("adj",)))
        out.append((NOUNS[thing.noun].en, ("noun",)))
    if clause.time is not None:
        kind, i = clause.time
        if kind == "month":
            out += [("in", ("time_prep",)), (MONTHS_EN[i], ("time",))]
        else:
            out += [("on", ("time_prep",)), (WEEKDAYS_EN[i], ("time",))]
    return out


def _place_keys(place: Place) -> tuple[str, ...]:
    """The English words naming a place, without its "the" (the United States)."""
    start = 1 if place.en[0] == "the" else 0
    return tuple(f"place{i}" for i in range(start, len(place.en)))


def _french(clause: Clause) -> list[Piece]:
    verb = VERBS[clause.verb]
    out: list[Piece] = [(NAMES[clause.subject[0]].en, ("subject0",))]
    if clause.plural:
        out += [(SUBJECT_JOIN["fr"], ("subject_and",)), (NAMES[clause.subject[1]].en, ("subject1",))]
    out.append((verb.fr[clause.plural], ("verb",)))
    if clause.place is not None:
        place = PLACES[clause.place]
        name_keys = _place_keys(place)
        the = ("place0",) if place.en[0] == "the" else name_keys  # les ← the; l', la, le ← the name
        if verb.fr_preposition:
            prep = {"f": "en", "vowel": "en", "m": "au", "plural": "aux", "city": "à"}[place.kind]
            out.append((prep, ("particle", "place0") if place.kind == "plural" else ("particle",)))
        elif place.kind != "city":
            article = {"f": "la", "m": "le", "vowel": ELIDED["fr"], "plural": "les"}[place.kind]
            out.append((article, the))
        out.append((place.fr, name_keys))
    else:
        thing = clause.noun_phrase
        noun = NOUNS[thing.noun]
        adj = ADJECTIVES[thing.adjective] if thing.adjective is not None else None
        feminine = noun.gender == "f"
        adj_word = ""
        if adj is not None:
            adj_word = adj.fr_f if feminine else adj.fr_m
            if adj.before and not feminine and adj.fr_m_vowel and _starts_with_vowel(noun.fr):
                adj_word = adj.fr_m_vowel
        first = adj_word if adj is not None and adj.before else noun.fr  # what the article meets
        if DETERMINERS[thing.determiner] == "the":
            article = ELIDED["fr"] if _starts_with_vowel(first) else ("la" if feminine else "le")
        else:
            article = "une" if feminine else "un"
        out.append((article, ("det",)))
        if adj is not None and adj.before:
            out.append((adj_word, ("adj",)))
        out.append((noun.fr, ("noun",)))
        if adj is not None and not adj.before:
            out.append((adj_word, ("adj",)))
    if clause.time is not None:
        kind, i = clause.time
        if kind == "month":
            out += [("en", ("time_prep",)), (MONTHS_FR[i], ("time",))]
        else:
            out.append((WEEKDAYS_FR[i], ("time",)))
    return out


def _chinese(clause: Clause) -> list[Piece]:
    verb = VERBS[clause.verb]
    out: list[Piece] = [(NAMES[clause.subject[0]].zh, ("subject0",))]
    if clause.plural:
        out += [(SUBJECT_JOIN["zh"], ("subject_and",)), (NAMES[clause.subject[1]].zh, ("subject1",))]
    if clause.time is not None:  # the time phrase goes before the verb
        kind, i = clause.time
        out.append(((MONTHS_ZH if kind == "month" else WEEKDAYS_ZH)[i], ("time",)))
    out.append((verb.zh, ("verb", "particle") if verb.en_particle else ("verb",)))
    if clause.place is not None:
        out.append((PLACES[clause.place].zh, _place_keys(PLACES[clause.place])))
    else:
        thing = clause.noun_phrase
        noun = NOUNS[thing.noun]
        if DETERMINERS[thing.determiner] == "a":
            out += [("一", ("det",)), (noun.measure, ("det", "noun"))]  # the measure word is the noun's
        if thing.adjective is not None:
            adj = ADJECTIVES[thing.adjective]
            out.append((adj.zh or noun.zh_old, ("adj",)))
        out.append((noun.zh, ("noun",)))
    return out


_TARGETS = {"fr": _french, "zh": _chinese}


def render(clauses: list[Clause] | tuple[Clause, ...], language: str) -> SentenceExample:
    """The clauses joined into one sentence, with its translation and true alignment."""
    if language not in _TARGETS:
        raise ValueError(f"language must be one of {LANGUAGES}, not {language!r}")
    source: list[str] = []
    target: list[str] = []
    links: list[tuple[int, ...]] = []
    clause_of: list[int] = []
    for c, clause in enumerate(clauses):
        if c:
            links.append((len(source),))
            target.append(CLAUSE_JOIN[language])
            source.append(CLAUSE_JOIN["en"])
            clause_of.append(c)
        english = _english(clause)
        position = {keys[0]: len(source) + i for i, (_, keys) in enumerate(english)}
        source += [word for word, _ in english]
        clause_of += [c] * len(english)
        for word, keys in _TARGETS[language](clause):
            target.append(word)
            links.append(tuple(sorted(position[k] for k in keys)))
    return SentenceExample(tuple(source), tuple(target), tuple(links), language, tuple(clause_of))


# -- sampling and the split ------------------------------------------------------------------
def random_clause(rng: np.random.Generator) -> Clause:
    first = int(rng.integers(len(NAMES)))
    subject: tuple[int, ...] = (first,)
    if rng.random() < 0.25:
        second = int(rng.integers(len(NAMES) - 1))
        subject = (first, second + (second >= first))
    verb = int(rng.integers(len(VERBS)))
    takes = VERBS[verb].takes
    place = thing = None
    if takes[int(rng.integers(len(takes)))] == "place":
        place = int(rng.integers(len(PLACES)))
    else:
        adjective = int(rng.integers(len(ADJECTIVES) + 1)) - 1
        thing = Thing(
            int(rng.integers(2)), None if adjective < 0 else adjective, int(rng.integers(len(NOUNS)))
        )
    roll = rng.random()
    time = None
    if roll < 0.35:
        time = ("month", int(rng.integers(12)))
    elif roll < 0.6:
        time = ("weekday", int(rng.integers(7)))
    return Clause(subject, verb, place, thing, time)


def is_held_out(clause: Clause) -> bool:
    return zlib.crc32(" ".join(w for w, _ in _english(clause)).encode()) % HELD_OUT_EVERY == 0


def sample_clauses(rng: np.random.Generator, n: int, split: str = "train") -> list[Clause]:
    """``n`` clauses of the split ("train" or "held_out"), drawn until the split matches."""
    if split not in ("train", "held_out"):
        raise ValueError(f"split must be 'train' or 'held_out', not {split!r}")
    out: list[Clause] = []
    while len(out) < n:
        clause = random_clause(rng)
        if is_held_out(clause) == (split == "held_out"):
            out.append(clause)
    return out


def sample_sentence(
    rng: np.random.Generator, language: str, clauses: int = 1, split: str = "train"
) -> SentenceExample:
    return render(sample_clauses(rng, clauses, split), language)


# -- vocabularies ----------------------------------------------------------------------------
@lru_cache(maxsize=1)
def source_words() -> tuple[str, ...]:
    """Every English word the grammar writes, in a fixed order."""
    words = [n.en for n in NAMES] + [SUBJECT_JOIN["en"], "to", "the", "a", "an", "in", "on"]
    words += [f for v in VERBS for f in v.en] + [w for p in PLACES for w in p.en]
    words += [a.en for a in ADJECTIVES] + [n.en for n in NOUNS] + MONTHS_EN + WEEKDAYS_EN
    return tuple(dict.fromkeys(words))


@lru_cache(maxsize=2)
def target_words(language: str) -> tuple[str, ...]:
    """Every word the grammar writes in ``language``, in a fixed order."""
    if language == "fr":
        words = [n.en for n in NAMES] + ["et", "le", "la", "l'", "les", "un", "une", "en", "au", "aux", "à"]
        words += [f for v in VERBS for f in v.fr] + [p.fr for p in PLACES]
        words += [f for a in ADJECTIVES for f in (a.fr_m, a.fr_f, a.fr_m_vowel) if f]
        words += [n.fr for n in NOUNS] + MONTHS_FR + WEEKDAYS_FR
    elif language == "zh":
        words = [n.zh for n in NAMES] + [SUBJECT_JOIN["zh"], CLAUSE_JOIN["zh"], "一"]
        words += [v.zh for v in VERBS] + [p.zh for p in PLACES] + [a.zh for a in ADJECTIVES if a.zh]
        words += ["旧", "老"] + [n.measure for n in NOUNS] + [n.zh for n in NOUNS]
        words += list(MONTHS_ZH + WEEKDAYS_ZH)
    else:
        raise ValueError(f"language must be one of {LANGUAGES}, not {language!r}")
    return tuple(dict.fromkeys(words))


# -- reading an English sentence back --------------------------------------------------------
def parse(text: str | list[str] | tuple[str, ...], language: str) -> SentenceExample | None:
    """The example this English text is, when the grammar writes it exactly; else None."""
    words = text.split() if isinstance(text, str) else list(text)
    clauses: list[Clause] = []
    at = 0
    while True:
        parsed = _parse_clause(words, at)
        if parsed is None:
            return None
        clause, at = parsed
        clauses.append(clause)
        if at == len(words):
            break
        if words[at] != CLAUSE_JOIN["en"]:
            return None
        at += 1
    example = render(clauses, language)
    return example if list(example.source) == words else None


_NAME_INDEX = {n.en: i for i, n in enumerate(NAMES)}


def _parse_clause(words: list[str], at: int) -> tuple[Clause, int] | None:
    """One clause starting at ``at``, and where it ends; None if none starts there."""
    take = lambda i: words[i] if i < len(words) else None  # noqa: E731
    if take(at) not in _NAME_INDEX:
        return None
    subject = [_NAME_INDEX[words[at]]]
    at += 1
    if take(at) == SUBJECT_JOIN["en"] and take(at + 1) in _NAME_INDEX:
        subject.append(_NAME_INDEX[words[at + 1]])
        at += 2
    plural = len(subject) > 1
    verbs = [i for i, v in enumerate(VERBS) if v.en[plural] == take(at)]
    if not verbs:
        return None
    verb = verbs[0]
    at += 1
    if VERBS[verb].en_particle:
        if take(at) != VERBS[verb].en_particle:
            return None
        at += 1
    place = thing = None
    for i, p in enumerate(PLACES):
        if "place" in VERBS[verb].takes and tuple(words[at : at + len(p.en)]) == p.en:
            place, at = i, at + len(p.en)
            break
    if place is None:
        if "thing" not in VERBS[verb].takes or take(at) not in ("the", "a", "an"):
            return None
        determiner = 0 if words[at] == "the" else 1
        at += 1
        adjective = next((i for i, a in enumerate(ADJECTIVES) if a.en == take(at)), None)
        at += adjective is not None
        noun = next((i for i, n in enumerate(NOUNS) if n.en == take(at)), None)
        if noun is None:
            return None
        thing, at = Thing(determiner, adjective, noun), at + 1
    time = None
    if take(at) == "in" and take(at + 1) in MONTHS_EN:
        time, at = ("month", MONTHS_EN.index(words[at + 1])), at + 2
    elif take(at) == "on" and take(at + 1) in WEEKDAYS_EN:
        time, at = ("weekday", WEEKDAYS_EN.index(words[at + 1])), at + 2
    return Clause(tuple(subject), verb, place, thing, time), at
