"""Tasks where a window has something to show: every source token written twice (monotonic),
and the lesson's sentences into Chinese, where words move (reordering).

    task = get_task("copy-twice")
    task.sample(rng, 32)             → one batch of strings of one length, 5–30 tokens
    task.truth("a b c".split())      → Pair(("a", "b", "c"), ("a", "a", "b", "b", "c", "c"),
                                            links ((0,), (0,), (1,), (1,), (2,), (2,)))

Output word t translates source word ⌊t/2⌋: the true alignment is a staircase of slope ½, so
the output is twice as long as the source. A model whose window centre moves one word per
output word (local-m, p_t = t) leaves the truth behind after a few words; one that learns
where to look (local-p) has to learn the slope. The letters are the copy task's; held-out
strings of length L are ``held_out(rng, n, L)``, the copy task's convention, so the length
curves (explorer.seq2seq.length_curve) evaluate it at lengths 5, 10, … 60 (longer than any
string trained on from 35 up).

The reordering task, ``reorder-zh``: 1–3 clauses of the sentence grammar (explorer.seq2seq
.sentences) joined by "and", into Chinese. Chinese puts the time before the verb ("Jane visits
Africa in September" → 简 九月 访问 非洲: 九月 translates source word 4 at output step 1) and
drops "in", "the", "to", so the output is shorter than the source and the alignment drifts
ahead of t as the clauses go on: a window at p_t = t (local-m) misses the moved word and, a
clause or two later, the words it should be reading. Held-out sentences are the grammar's
held-out clauses (``held_out(rng, n, clauses)``); ``WINDOW_GROUPS`` says which lengths the
window is measured at for each task.

Registered into explorer.seq2seq.tasks.TASKS on import.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.seq2seq import sentences
from explorer.seq2seq.tasks import COPY_LETTERS, TASKS, Pair, Task

TWICE_SHORTEST, TWICE_LONGEST = 5, 30
REORDER_CLAUSES = 3  # the most clauses a reorder-zh sentence joins


def twice_pair(tokens: tuple[str, ...]) -> Pair:
    target = tuple(t for t in tokens for _ in range(2))
    return Pair(tokens, target, tuple((i // 2,) for i in range(len(target))))


def random_string(rng: np.random.Generator, length: int) -> tuple[str, ...]:
    return tuple(COPY_LETTERS[i] for i in rng.integers(0, len(COPY_LETTERS), size=length))


@dataclass(frozen=True)
class TwiceTask(Task):
    shortest: int = TWICE_SHORTEST
    longest: int = TWICE_LONGEST

    def sample(self, rng: np.random.Generator, n: int, progress: float = 1.0) -> list[Pair]:
        length = int(rng.integers(self.shortest, self.longest + 1))  # one length per batch
        return [twice_pair(random_string(rng, length)) for _ in range(n)]

    def held_out(self, rng: np.random.Generator, n: int, clauses: int = 1) -> list[Pair]:
        """``n`` random strings of length ``clauses`` (random strings are never seen anyway)."""
        return [twice_pair(random_string(rng, clauses)) for _ in range(n)]

    def truth(self, tokens: list[str]) -> Pair | None:
        if tokens and all(t in COPY_LETTERS for t in tokens):
            return twice_pair(tuple(tokens))
        return None


TWICE = TwiceTask(
    "copy-twice",
    f"random strings over 20 letters, {TWICE_SHORTEST}–{TWICE_LONGEST} long, each letter written twice",
    COPY_LETTERS,
    COPY_LETTERS,
    max_source=2 * TWICE_LONGEST,
    example="a b c d e",
    scoring="general",  # Luong's score, the one the local models were built and shipped with
)
TASKS.setdefault(TWICE.name, TWICE)


def sentence_pair(example: sentences.SentenceExample) -> Pair:
    return Pair(example.source, example.target, example.links)


@dataclass(frozen=True)
class ReorderTask(Task):
    clauses: int = REORDER_CLAUSES

    def sample(self, rng: np.random.Generator, n: int, progress: float = 1.0) -> list[Pair]:
        count = int(rng.integers(1, self.clauses + 1))  # one clause count per batch
        return [sentence_pair(sentences.sample_sentence(rng, self.language, count)) for _ in range(n)]

    def held_out(self, rng: np.random.Generator, n: int, clauses: int = 1) -> list[Pair]:
        """``n`` sentences of ``clauses`` held-out clauses (never trained on, alone or joined)."""
        return [
            sentence_pair(sentences.render(sentences.sample_clauses(rng, clauses, "held_out"), self.language))
            for _ in range(n)
        ]

    def read(self, text: str) -> list[str]:
        return text.split()

    def truth(self, tokens: list[str]) -> Pair | None:
        example = sentences.parse(tokens, self.language)
        return sentence_pair(example) if example else None


REORDER = ReorderTask(
    "reorder-zh",
    f"1–{REORDER_CLAUSES} English clauses joined by 'and' → Chinese: the time moves before the verb",
    sentences.source_words(),
    sentences.target_words("zh"),
    max_source=40,
    language="zh",
    example="Jane visits Africa in September",
    scoring="general",
)
TASKS.setdefault(REORDER.name, REORDER)

# The lengths the window's numbers are measured at: string lengths, or clause counts.
WINDOW_GROUPS = {TWICE.name: (5, 10, 20, 30), REORDER.name: (1, 2, 3)}
