"""Does the window follow the alignment? p_t against the truth, beside the usual accuracy.

    report = window_report(model, pairs)      held-out pairs of a task with true alignments
    report.accuracy                           SequencePredictions of greedy decoding: exact_match,
                                              word_accuracy, alignment_score() (explorer.seq2seq.sequence_eval)
    report.centre_hits                        per pair, per output step with a true alignment: is p_t
                                              within 1 position of a source word the step translates?
    report.centre_share(), report.centre_error()   over every such step: the share, the mean distance
    report.by_length()                        {source length: LengthRow} the same numbers per length

p_t is measured on the true translation (teacher forcing), as alignment quality is (Luong et
al. 2015, §4.4, score the alignments of the reference): where the window sits for the right
answer, whatever greedy decoding went on to write. A step's distance is to the nearest source
word it translates; steps no source word spells (a date's "-") are left out. Global attention
has no p_t: its rows say None, and ``argmax_hits`` (the largest weight on a true word, on the
same forced steps) compares every model alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from explorer.seq2seq.local_attention import WindowedTranslator
from explorer.seq2seq.sequence_eval import SequencePredictions, predict
from explorer.seq2seq.tasks import Pair, make_sequence_batch

HIT_DISTANCE = 1.0  # "within 1 position of the true alignment"


@dataclass(frozen=True)
class LengthRow:
    length: int
    count: int
    exact_match: float
    word_accuracy: float
    centre_share: float | None  # None for global attention
    centre_error: float | None
    argmax_share: float


@dataclass
class WindowReport:
    model: str
    half_width: int
    accuracy: SequencePredictions
    centres: list[np.ndarray | None]  # per pair [T_true] p_t on the true translation (None: global)
    distances: list[np.ndarray | None]  # per pair, per step with a true alignment: |p_t − nearest true word|
    argmax_hits: list[np.ndarray]  # per pair, per such step: the largest weight on a true word

    @property
    def pairs(self) -> list[Pair]:
        return self.accuracy.pairs

    @property
    def centre_hits(self) -> list[np.ndarray | None]:
        return [None if d is None else d <= HIT_DISTANCE for d in self.distances]

    def centre_share(self, chosen: list[int] | None = None) -> float | None:
        values = self._steps(self.distances, chosen)
        return None if values is None else float(np.mean(values <= HIT_DISTANCE))

    def centre_error(self, chosen: list[int] | None = None) -> float | None:
        values = self._steps(self.distances, chosen)
        return None if values is None else float(np.mean(values))

    def argmax_share(self, chosen: list[int] | None = None) -> float:
        values = self._steps(self.argmax_hits, chosen)
        return float(np.mean(values)) if values is not None else 0.0

    def _steps(self, per_pair, chosen) -> np.ndarray | None:
        rows = range(len(per_pair)) if chosen is None else chosen
        picked = [per_pair[i] for i in rows]
        if not picked or any(p is None for p in picked):
            return None
        joined = np.concatenate(picked) if picked else np.zeros(0)
        return joined if joined.size else None

    def by_length(self) -> dict[int, LengthRow]:
        lengths = np.array([len(p.source) for p in self.pairs])
        correct = self.accuracy.correct()
        rows = {}
        for length in sorted(set(lengths.tolist())):
            chosen = [i for i in range(len(lengths)) if lengths[i] == length]
            part = SequencePredictions(
                [self.pairs[i] for i in chosen],
                [self.accuracy.outputs[i] for i in chosen],
                [self.accuracy.alignments[i] for i in chosen],
            )
            rows[length] = LengthRow(
                length, len(chosen), float(correct[chosen].mean()), part.word_accuracy,
                self.centre_share(chosen), self.centre_error(chosen), self.argmax_share(chosen),
            )  # fmt: skip
        return rows


def forced_stages(model: WindowedTranslator, pairs: list[Pair], batch_size: int = 64):
    """Per pair (p_t [T_true] or None, weights [T_true, n]) on the true translation."""
    vocab = model.spec.vocab
    device = next(model.parameters()).device
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i].source))
    found: list = [None] * len(pairs)
    was_training = model.training
    model.eval()
    with torch.no_grad():
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            batch = make_sequence_batch([pairs[i] for i in rows], vocab).to(device)
            _, looked = model.read(batch.source, batch.lengths, batch.target_in)
            centres = None if looked.centres is None else looked.centres.float().cpu().numpy()
            weights = looked.weights.float().cpu().numpy()
            for r, i in enumerate(rows):
                steps, n = len(pairs[i].target), len(pairs[i].source)
                found[i] = (None if centres is None else centres[r, :steps], weights[r, :steps, :n])
    model.train(was_training)
    return found


def distances_of(centres: np.ndarray, pair: Pair) -> np.ndarray:
    """|p_t − the nearest source word step t translates|, for every step with a true alignment."""
    return np.array(
        [min(abs(centres[t] - s) for s in links) for t, links in enumerate(pair.links) if links], float
    )


def forced_distances(model: WindowedTranslator, pairs: list[Pair], batch_size: int = 64) -> list[np.ndarray]:
    """Per pair, where p_t sits against the truth on the true translation (a local model)."""
    return [distances_of(p, pair) for pair, (p, _) in zip(pairs, forced_stages(model, pairs, batch_size))]


def window_report(model: WindowedTranslator, pairs: list[Pair], batch_size: int = 64) -> WindowReport:
    accuracy = predict(model, pairs, model.spec.vocab, batch_size)
    centres, distances, argmax = [], [], []
    for pair, (p, weights) in zip(pairs, forced_stages(model, pairs, batch_size)):
        linked = [t for t, links in enumerate(pair.links) if links]
        argmax.append(np.array([int(np.argmax(weights[t])) in pair.links[t] for t in linked], bool))
        centres.append(p)
        distances.append(None if p is None else distances_of(p, pair))
    return WindowReport(model.spec.model, model.half_width, accuracy, centres, distances, argmax)
