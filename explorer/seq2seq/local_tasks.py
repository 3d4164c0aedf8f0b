"""A task where a window has something to show: every source token written twice.

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

Registered into explorer.seq2seq.tasks.TASKS on import.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.seq2seq.tasks import COPY_LETTERS, TASKS, Pair, Task

TWICE_SHORTEST, TWICE_LONGEST = 5, 30


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
