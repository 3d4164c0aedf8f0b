"""Accuracy against sentence length: the figure of Bahdanau et al. 2015 (Fig. 2), measured.

    pairs = evaluation_pairs(task, per_group=20)        held-out sentences of every length
    curve = length_curve(predictions, "attention")      → LengthCurve, one point per length bin
    curve.points                                        [(mean length, exact match, per-word accuracy, count)]
    curve.short, curve.long                             the two summaries the lesson quotes:
                                                        ≤ SHORT words and ≥ LONG words

The evaluation set is fixed (seed ``EVAL_SEED``): for the compound tasks ``per_group``
held-out sentences of each clause count 1–10, for the copy task of each length 5, 10, … 60.
Points are the sentences grouped into bins of ``BIN_WIDTH`` source tokens and placed at the
bin's mean length; an empty bin has no point.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from explorer.seq2seq.sequence_eval import SequencePredictions, word_hits
from explorer.seq2seq.tasks import COPY_LONGEST, COPY_SHORTEST, Pair, Task

EVAL_SEED = 20150901  # the same held-out sentences for every run, seed and model
BIN_WIDTH = 8
SHORT, LONG = 8, 40  # "at ≤ 8 words both models do well; at ≥ 40 only attention does"
CLAUSE_COUNTS = tuple(range(1, 11))
COPY_LENGTHS = tuple(range(COPY_SHORTEST, COPY_LONGEST + 1, 5))


def evaluation_pairs(task: Task, per_group: int = 20, seed: int = EVAL_SEED) -> list[Pair]:
    """Held-out pairs of every length the task writes, ``per_group`` of each."""
    rng = np.random.default_rng(seed)
    groups = COPY_LENGTHS if task.kind == "copy" else CLAUSE_COUNTS if task.kind == "compound" else (1,)
    return [pair for group in groups for pair in task.held_out(rng, per_group, group)]


@dataclass(frozen=True)
class Summary:
    exact_match: float | None  # None: no sentence of that length in the set
    word_accuracy: float | None
    count: int


@dataclass(frozen=True)
class LengthCurve:
    model: str
    lengths: tuple[float, ...]  # the bins' mean source length
    exact_match: tuple[float, ...]
    word_accuracy: tuple[float, ...]
    counts: tuple[int, ...]
    short: Summary  # sentences of ≤ SHORT source tokens
    long: Summary  # sentences of ≥ LONG source tokens
    alignment_score: float | None = None  # over the whole set; None without attention

    @property
    def points(self) -> list[tuple[float, float, float, int]]:
        return list(zip(self.lengths, self.exact_match, self.word_accuracy, self.counts))

    def to_dict(self) -> dict:
        data = asdict(self)
        for key in ("lengths", "exact_match", "word_accuracy", "counts"):
            data[key] = list(data[key])
        return data

    @classmethod
    def from_dict(cls, data: dict) -> LengthCurve:
        """Refuses (ValueError) a curve whose numbers are not shares of 0 … 1 and counts."""
        data = dict(data)
        for key in ("lengths", "exact_match", "word_accuracy", "counts"):
            data[key] = tuple(data[key])
        data["short"], data["long"] = Summary(**data["short"]), Summary(**data["long"])
        curve = cls(**data)
        shares = [*curve.exact_match, *curve.word_accuracy, curve.alignment_score]
        for summary in (curve.short, curve.long):
            shares += [summary.exact_match, summary.word_accuracy]
        if not all(x is None or (isinstance(x, (int, float)) and 0 <= x <= 1) for x in shares):
            raise ValueError(f"{curve.model}: a share outside 0 … 1 (or not a number)")
        if not all(isinstance(x, (int, float)) and 0 < x < 1e6 for x in curve.lengths):
            raise ValueError(f"{curve.model}: a length that is not a positive number")
        if (
            len({len(curve.lengths), len(curve.exact_match), len(curve.word_accuracy), len(curve.counts)})
            != 1
        ):
            raise ValueError(f"{curve.model}: the curve's lists differ in length")
        return curve


def _summary(exact: np.ndarray, right: np.ndarray, words: np.ndarray, chosen: np.ndarray) -> Summary:
    if not chosen.any():
        return Summary(None, None, 0)
    return Summary(
        float(exact[chosen].mean()), float(right[chosen].sum() / words[chosen].sum()), int(chosen.sum())
    )


def length_curve(predictions: SequencePredictions, model: str) -> LengthCurve:
    """Exact match and per-word accuracy (right words over true words) per length bin."""
    lengths = np.array([len(p.source) for p in predictions.pairs])
    exact = predictions.correct().astype(float)
    right = np.array([word_hits(p.target, o) for p, o in zip(predictions.pairs, predictions.outputs)], float)
    words = np.array([len(p.target) for p in predictions.pairs], float)
    bins = (lengths - 1) // BIN_WIDTH
    means, exacts, accuracies, counts = [], [], [], []
    for b in np.unique(bins):
        chosen = bins == b
        means.append(float(lengths[chosen].mean()))
        exacts.append(float(exact[chosen].mean()))
        accuracies.append(float(right[chosen].sum() / words[chosen].sum()))
        counts.append(int(chosen.sum()))
    return LengthCurve(
        model,
        tuple(means),
        tuple(exacts),
        tuple(accuracies),
        tuple(counts),
        _summary(exact, right, words, lengths <= SHORT),
        _summary(exact, right, words, lengths >= LONG),
        predictions.alignment_score(),
    )


def curve_metrics(curve: LengthCurve) -> dict[str, float]:
    """The curve as flat numbers for explorer.training's log (``attention/long/word_accuracy``, …)."""
    m = curve.model
    metrics = {}
    for name, summary in (("short", curve.short), ("long", curve.long)):
        if summary.exact_match is not None and summary.word_accuracy is not None:
            metrics[f"{m}/{name}/exact_match"] = summary.exact_match
            metrics[f"{m}/{name}/word_accuracy"] = summary.word_accuracy
    for length, exact, accuracy, _ in curve.points:
        metrics[f"{m}/length/{length:.1f}/exact_match"] = exact
        metrics[f"{m}/length/{length:.1f}/word_accuracy"] = accuracy
    if curve.alignment_score is not None:
        metrics[f"{m}/alignment_score"] = curve.alignment_score
    return metrics
