"""What a sequence model learns: a task's pairs, its vocabularies, batches and a curriculum.

    task = get_task("sentences-fr")      # or sentences-zh, compound-fr, compound-zh, dates, copy
    task.sample(rng, 32, progress=0.3)   → list[Pair]: one batch (one clause count per batch)
    task.held_out(rng, 200)              → pairs never trained on
    task.read("Jane visits Africa")      → (tokens, notices), what a model reads of a typed text
    task.truth(tokens)                   → the Pair the tokens are (true translation and
                                           alignment), or None when the task does not write them
    make_sequence_batch(pairs, vocab)    → SequenceBatch of padded ids

A ``Pair`` is tokens in, tokens out, and per output token the source positions it translates
(``links``; empty for an output token no source token spells, such as a date's "-").

Tasks:
  sentences-fr / -zh   one clause of the grammar (explorer.seq2seq.sentences), 3–10 words.
  compound-fr / -zh    1–10 clauses joined by "and" (3 to about 100 words; most ≥ 10-clause
                       sentences have 60 or more): the length experiment. ``progress`` (0 → 1
                       over training) raises the longest clause count drawn, the curriculum.
  dates                the dates of explorer.seq2seq.dates, one token per character.
  copy                 random strings over 20 letters, 5–60 long; the answer is the string.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from explorer.seq2seq import dates, sentences

PAD, UNK = 0, 1  # source ids
BOS, EOS = 1, 2  # target ids (0 is padding there too)
SOURCE_SPECIALS = ("<pad>", "<unk>")
TARGET_SPECIALS = ("<pad>", "<bos>", "<eos>")


@dataclass(frozen=True)
class Pair:
    source: tuple[str, ...]
    target: tuple[str, ...]
    links: tuple[tuple[int, ...], ...]  # per target token


@dataclass(frozen=True)
class Curriculum:
    """Which clause counts a batch may have at a point of training (``progress`` 0 → 1).

    The first ``hold`` of training stays at ``start`` clauses; then the longest count drawn
    grows linearly from ``start`` to ``longest`` over the next ``ramp``; each batch draws one
    count uniformly up to it, with ``short_share`` of the batches kept at a single clause so
    the short sentences are never forgotten."""

    start: int = 1
    longest: int = 10
    ramp: float = 0.4
    short_share: float = 0.15
    hold: float = 0.0

    def top(self, progress: float) -> int:
        progress = max(0.0, progress - self.hold)
        if self.ramp <= 0:
            return self.longest
        grown = self.start + (self.longest - self.start) * min(1.0, progress / self.ramp)
        return max(self.start, min(self.longest, int(round(grown))))

    def draw(self, rng: np.random.Generator, progress: float) -> int:
        if rng.random() < self.short_share:
            return 1
        return int(rng.integers(1, self.top(progress) + 1))


@dataclass(frozen=True)
class Task:
    name: str
    description: str
    source_tokens: tuple[str, ...]  # the vocabulary, specials excluded
    target_tokens: tuple[str, ...]
    max_source: int  # the longest input a model of this task reads
    language: str = ""  # how output tokens are written back: "fr", "zh", or "" (characters)
    curriculum: Curriculum | None = None  # compound tasks only
    example: str = ""
    # The attention models' scoring. Additive aligns single sentences more sharply (held-out
    # alignment score 0.93 against general's 0.85, sentences-fr, 300 steps); on 60-word
    # sentences it costs a fifth more per step and learned less in the same steps, so the long
    # tasks score with general (docs/benchmarks.md).
    scoring: str = "additive"

    @property
    def kind(self) -> str:
        return self.name.split("-")[0]

    def sample(self, rng: np.random.Generator, n: int, progress: float = 1.0) -> list[Pair]:
        if self.kind in ("sentences", "compound"):
            clauses = self.curriculum.draw(rng, progress) if self.curriculum else 1
            return [_sentence_pair(sentences.sample_sentence(rng, self.language, clauses)) for _ in range(n)]
        if self.kind == "dates":
            return [_date_pair(e) for e in dates.sample(rng, n)]
        length = int(rng.integers(COPY_SHORTEST, COPY_LONGEST + 1))
        return [_copy_pair(rng, length) for _ in range(n)]

    def held_out(self, rng: np.random.Generator, n: int, clauses: int = 1) -> list[Pair]:
        """``n`` pairs never trained on; ``clauses`` for the sentence tasks (copy: ``clauses``
        is the string length)."""
        if self.kind in ("sentences", "compound"):
            return [
                _sentence_pair(
                    sentences.render(sentences.sample_clauses(rng, clauses, "held_out"), self.language)
                )
                for _ in range(n)
            ]
        if self.kind == "dates":
            days = dates.split_days("held_out")
            picks = rng.choice(len(days), size=min(n, len(days)), replace=False)
            formats = rng.integers(0, len(dates.FORMATS), size=len(picks))
            return [
                _date_pair(dates.render(dates.day(days[p]), dates.FORMATS[f])) for p, f in zip(picks, formats)
            ]
        return [_copy_pair(rng, clauses) for _ in range(n)]  # random strings: never seen anyway

    def read(self, text: str) -> list[str]:
        """The tokens a model of this task reads in ``text`` (words, or characters)."""
        if self.kind in ("sentences", "compound", "copy"):
            return text.split()
        return list(text)

    def truth(self, tokens: list[str]) -> Pair | None:
        if self.kind in ("sentences", "compound"):
            sentence = sentences.parse(tokens, self.language)
            return _sentence_pair(sentence) if sentence else None
        if self.kind == "dates":
            date = dates.find_fields("".join(tokens))
            return _date_pair(date) if date else None
        if tokens and all(t in COPY_LETTERS for t in tokens):
            return _copy_pair_of(tuple(tokens))
        return None

    def join(self, tokens) -> str:
        if self.language:
            return sentences.join_words(tokens, self.language)
        return ("" if self.kind == "dates" else " ").join(tokens)


def _sentence_pair(example: sentences.SentenceExample) -> Pair:
    return Pair(example.source, example.target, example.links)


def _date_pair(example: dates.DateExample) -> Pair:
    return Pair(tuple(example.source), tuple(example.target), tuple(example.target_spans))


COPY_LETTERS = tuple("abcdefghijklmnopqrst")  # 20 symbols
COPY_SHORTEST, COPY_LONGEST = 5, 60


def _copy_pair_of(tokens: tuple[str, ...]) -> Pair:
    return Pair(tokens, tokens, tuple((i,) for i in range(len(tokens))))


def _copy_pair(rng: np.random.Generator, length: int) -> Pair:
    return _copy_pair_of(tuple(COPY_LETTERS[i] for i in rng.integers(0, len(COPY_LETTERS), size=length)))


def _make_tasks() -> dict[str, Task]:
    tasks = {}
    for language, words in (("fr", "French"), ("zh", "Chinese")):
        targets = sentences.target_words(language)
        tasks[f"sentences-{language}"] = Task(
            f"sentences-{language}", f"one English clause → {words}, word by word",
            sentences.source_words(), targets, max_source=40, language=language,
            example="Jane visits Africa in September",
        )  # fmt: skip
        tasks[f"compound-{language}"] = Task(
            f"compound-{language}", f"1–10 English clauses joined by 'and' → {words}",
            sentences.source_words(), targets, max_source=160, language=language,
            curriculum=Curriculum(), example="Jane visits Africa in September and Paul sees the red car",
            scoring="general",
        )  # fmt: skip
    tasks["dates"] = Task(
        "dates", "a written date → YYYY-MM-DD, character by character",
        tuple(dates.source_alphabet()), tuple("0123456789-"), max_source=40, example="9 May 2018",
    )  # fmt: skip
    tasks["copy"] = Task(
        "copy", "random strings over 20 letters, 5–60 long, copied",
        COPY_LETTERS, COPY_LETTERS, max_source=2 * COPY_LONGEST, example="a b c d e", scoring="general",
    )  # fmt: skip
    return tasks


TASKS = _make_tasks()


def get_task(name: str) -> Task:
    from explorer.seq2seq.spec import LabError

    if name not in TASKS:
        raise LabError.of("seq2seq.task_unknown", value=name, choices=", ".join(TASKS))
    return TASKS[name]


# -- ids and batches -------------------------------------------------------------------------
@dataclass(frozen=True)
class TokenVocabulary:
    source_tokens: tuple[str, ...]
    target_tokens: tuple[str, ...]

    @property
    def source_size(self) -> int:
        return len(SOURCE_SPECIALS) + len(self.source_tokens)

    @property
    def target_size(self) -> int:
        return len(TARGET_SPECIALS) + len(self.target_tokens)

    def source_index(self) -> dict[str, int]:
        return {t: i + len(SOURCE_SPECIALS) for i, t in enumerate(self.source_tokens)}

    def target_index(self) -> dict[str, int]:
        return {t: i + len(TARGET_SPECIALS) for i, t in enumerate(self.target_tokens)}

    def encode_source(self, tokens) -> list[int]:
        index = self.source_index()
        return [index.get(t, UNK) for t in tokens]

    def decode_target(self, ids) -> list[str]:
        """Output tokens up to (without) the first <eos>; <pad> and <bos> never count as words."""
        words = []
        for i in ids:
            i = int(i)
            if i == EOS:
                break
            words.append(self.target_name(i))
        return words

    def target_name(self, i: int) -> str:
        return (
            TARGET_SPECIALS[i] if i < len(TARGET_SPECIALS) else self.target_tokens[i - len(TARGET_SPECIALS)]
        )


@dataclass
class SequenceBatch:
    source: torch.Tensor  # [B, n] ids, PAD after each text
    lengths: torch.Tensor  # [B] (CPU, int64)
    target_in: torch.Tensor  # [B, T+1] <bos>, then the answer
    target: torch.Tensor  # [B, T+1] the answer, then <eos>, then PAD

    def to(self, device) -> SequenceBatch:
        return SequenceBatch(
            self.source.to(device), self.lengths, self.target_in.to(device), self.target.to(device)
        )


def _padded(rows: list[list[int]]) -> np.ndarray:
    """The rows one under the other, each padded with PAD to the longest (int64). Filled in
    one numpy step, not a torch copy per row: a training run draws a batch every step on the
    run's thread, and each small torch call there held the interpreter lock the window needs."""
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    out = np.full((len(rows), int(lengths.max())), PAD, dtype=np.int64)
    out[np.arange(out.shape[1]) < lengths[:, None]] = np.fromiter(
        (i for row in rows for i in row), dtype=np.int64, count=int(lengths.sum())
    )
    return out


def make_sequence_batch(pairs: list[Pair], vocab: TokenVocabulary) -> SequenceBatch:
    sources = [vocab.encode_source(p.source) for p in pairs]
    index = vocab.target_index()
    targets = [[index[t] for t in p.target] + [EOS] for p in pairs]
    source = torch.from_numpy(_padded(sources))
    target = torch.from_numpy(_padded(targets))
    target_in = torch.cat([torch.full((len(pairs), 1), BOS, dtype=torch.long), target[:, :-1]], dim=1)
    target_in[target_in == EOS] = PAD  # nothing is read after the answer's end
    lengths = torch.tensor([len(s) for s in sources])
    return SequenceBatch(source, lengths, target_in, target)
