"""How good is a sequence model: exact match, per-word accuracy and the alignment score.

Each is computed from one greedy decode (``predict``):

- exact match: the output words are the true translation, no more, no fewer;
- per-word accuracy: the share of the true translation's words that the output has at the
  same position (a missing word is wrong; extra words after the end cost nothing more);
- alignment score, defined like the dates' (explorer.seq2seq.alignment): for every output
  word that has a true alignment, does the source position with the largest attention weight
  lie among the words it translates? The fraction of output words where it does, over the
  steps the output and the truth share. A model without attention has no score (None).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from explorer.seq2seq.sequence_models import SequenceModel
from explorer.seq2seq.tasks import Pair, TokenVocabulary, make_sequence_batch


@dataclass
class SequencePredictions:
    pairs: list[Pair]
    outputs: list[list[str]]
    alignments: list[np.ndarray | None]  # [T_out, n] per pair; None without attention

    def correct(self) -> np.ndarray:
        return np.array([list(p.target) == o for p, o in zip(self.pairs, self.outputs)])

    @property
    def exact_match(self) -> float:
        return float(self.correct().mean()) if self.pairs else 0.0

    @property
    def word_accuracy(self) -> float:
        """Right words over all true words (pairs weighted by their length)."""
        right = sum(word_hits(p.target, o) for p, o in zip(self.pairs, self.outputs))
        total = sum(len(p.target) for p in self.pairs)
        return right / total if total else 0.0

    def alignment_score(self) -> float | None:
        hits = [h for a, p in zip(self.alignments, self.pairs) if a is not None for h in alignment_hits(a, p)]
        if any(a is None for a in self.alignments) or not hits:
            return None
        return float(np.mean(hits))


def word_hits(truth, output) -> int:
    return sum(t == o for t, o in zip(truth, output))


def alignment_hits(alignment: np.ndarray, pair: Pair) -> list[bool]:
    """Per output step that has a true alignment: is its largest weight on one of its words?"""
    steps = min(len(alignment), len(pair.links))
    return [int(np.argmax(alignment[i])) in pair.links[i] for i in range(steps) if pair.links[i]]


def shifted_words(alignment: np.ndarray, pair: Pair) -> list[tuple[int, int, int]]:
    """(output step, source word looked at, the word it translates) for each step whose largest
    weight sits on the source word just before or after one of its own: a bidirectional encoder's
    state there holds its neighbour too, so the model can read the word from it."""
    out = []
    for i in range(min(len(alignment), len(pair.links))):
        links = pair.links[i]
        top = int(np.argmax(alignment[i]))
        if links and top not in links:
            near = [j for j in links if abs(j - top) == 1]
            if near:
                out.append((i, top, near[0]))
    return out


def max_steps_for(pairs: list[Pair]) -> int:
    """Room for every true answer and a few words more (an answer that runs on is cut here)."""
    return max(len(p.target) for p in pairs) + 5


def predict(
    model: SequenceModel, pairs: list[Pair], vocab: TokenVocabulary, batch_size: int = 256, device=None
) -> SequencePredictions:
    """Greedy decode of ``pairs`` (sorted by length into batches, returned in the given order)."""
    device = device or next(model.parameters()).device
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i].source))
    outputs: list = [None] * len(pairs)
    alignments: list = [None] * len(pairs)
    was_training = model.training
    model.eval()
    with torch.no_grad():
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            part = [pairs[i] for i in rows]
            batch = make_sequence_batch(part, vocab).to(device)
            decoded = model.greedy(batch.source, batch.lengths, max_steps_for(part))
            tokens = decoded.tokens.cpu().numpy()
            weights = None if decoded.weights is None else decoded.weights.float().cpu().numpy()
            for r, i in enumerate(rows):
                outputs[i] = vocab.decode_target(tokens[r])
                if weights is not None:
                    alignments[i] = weights[r, : len(outputs[i]) + 1, : len(pairs[i].source)]
    model.train(was_training)
    return SequencePredictions(list(pairs), outputs, alignments)
