"""The lab's two tasks, generated here (nothing is downloaded), and the probe that measures heads.

Induction rows (Olsson et al. 2022's setting, made small): each row of ``length`` tokens is
a random segment of k tokens repeated until the row is full, k drawn from 6 … 24 per row.
From position k on, every token is the one k places back: a model that finds the previous
occurrence of the current token and copies the token after it predicts them all. A single
fixed k would let the positions alone solve it.

The probe: random tokens repeated once, t_0 … t_{k−1} t_0 … t_{k−1}. Its first half cannot
be predicted (loss ≈ ln of the vocabulary); its repeated half can, by induction.

Text: character windows from the lab's own corpus (resources/lm/text/, English and Chinese,
written for the project), every fifth paragraph held out; the baseline a model must beat is
a bigram (the previous character alone), with add-α smoothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from explorer.lm.errors import LMError
from explorer.lm.vocab import CharVocab
from explorer.resources import resource_path

PERIODS = (6, 24)  # the induction rows' segment lengths, both included
TEXT_FILES = ("en.txt", "zh.txt")
HELD_OUT_EVERY = 5  # paragraph 4, 9, 14, … of each file is held out


def induction_rows(rng: np.random.Generator, count: int, length: int, symbols: int) -> torch.Tensor:
    """[count, length] token ids: per row a random segment of k ∈ PERIODS tokens, repeated."""
    low, high = PERIODS
    periods = rng.integers(low, high + 1, size=count)
    segments = rng.integers(0, symbols, size=(count, high))
    columns = np.arange(length)[None, :] % periods[:, None]
    return torch.from_numpy(np.take_along_axis(segments, columns, axis=1))


def repeated_probe(rng: np.random.Generator, count: int, period: int, symbols: int) -> torch.Tensor:
    """[count, 2·period]: random tokens t_0 … t_{k−1}, then the same again."""
    if not isinstance(period, int) or period < 2:
        raise LMError.of("lm.period_out_of_range", value=period, limit=10_000)
    first = rng.integers(0, symbols, size=(count, period))
    return torch.from_numpy(np.concatenate([first, first], axis=1))


def probe_halves(period: int) -> tuple[slice, slice]:
    """Which next-token losses (index i predicts token i + 1) are the probe's two halves.

    First half: tokens 1 … k − 1 (nothing to go on but the vocabulary). Repeated half:
    tokens k + 1 … 2k − 1, each the token after the previous occurrence of the token before
    it. Token k (t_0 again) follows t_{k−1}, whose only earlier occurrence is … itself: it
    belongs to neither half."""
    return slice(0, period - 1), slice(period, 2 * period - 1)


# -- text ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    vocab: CharVocab
    train: torch.Tensor  # token ids, paragraphs joined by "\n\n"
    held_out: torch.Tensor
    train_text: str
    held_out_text: str
    held_out_by_language: dict[str, str]  # "en", "zh": each file's held-out paragraphs


@cache
def corpus() -> Corpus:
    """The lab's text, read once: training and held-out paragraphs of every file."""
    train: list[str] = []
    held: list[str] = []
    by_language: dict[str, str] = {}
    for name in TEXT_FILES:
        text = resource_path("lm", "text", name).read_text(encoding="utf-8")
        paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
        kept = [p for i, p in enumerate(paragraphs) if i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1]
        train += [p for p in paragraphs if p not in kept]
        held += kept
        by_language[name.removesuffix(".txt")] = "\n\n".join(kept)
    train_text, held_text = "\n\n".join(train), "\n\n".join(held)
    vocab = CharVocab.of_text(train_text + held_text)  # held-out-only characters get ids, never training
    train_ids, held_ids = torch.tensor(vocab.encode(train_text)), torch.tensor(vocab.encode(held_text))
    return Corpus(vocab, train_ids, held_ids, train_text, held_text, by_language)


def text_windows(rng: np.random.Generator, ids: torch.Tensor, count: int, length: int) -> torch.Tensor:
    """[count, length] windows of ``ids`` at random starts."""
    starts = rng.integers(0, len(ids) - length + 1, size=count)
    return ids[torch.from_numpy(starts)[:, None] + torch.arange(length)[None, :]]


def held_out_windows(ids: torch.Tensor, length: int) -> torch.Tensor:
    """The held-out text cut into consecutive windows (the same every time)."""
    whole = (len(ids) // length) * length
    return ids[:whole].view(-1, length)


def bigram_loss(train: torch.Tensor, held_out: torch.Tensor, vocab_size: int, alpha: float) -> float:
    """Mean −ln p(next | previous) on held_out, p from train's pair counts plus α each."""
    counts = np.full((vocab_size, vocab_size), alpha, dtype=np.float64)
    np.add.at(counts, (train[:-1].numpy(), train[1:].numpy()), 1.0)
    logp = np.log(counts / counts.sum(axis=1, keepdims=True))
    return float(-logp[held_out[:-1].numpy(), held_out[1:].numpy()].mean())


def best_bigram_loss(train: torch.Tensor, held_out: torch.Tensor, vocab_size: int) -> tuple[float, float]:
    """The bigram at its best smoothing, chosen on the held-out text itself (a generous
    baseline): (loss, α)."""
    alphas = [10.0**e for e in np.arange(-3.0, 1.01, 0.25)]
    losses = [bigram_loss(train, held_out, vocab_size, a) for a in alphas]
    best = int(np.argmin(losses))
    return losses[best], alphas[best]


def unigram_loss(train: torch.Tensor, held_out: torch.Tensor, vocab_size: int) -> float:
    counts = np.bincount(train.numpy(), minlength=vocab_size) + 1.0
    return float(-np.log(counts / counts.sum())[held_out.numpy()].mean())


def uniform_loss(vocab_size: int) -> float:
    return math.log(vocab_size)
