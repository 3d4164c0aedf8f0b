"""How good is a model: held-out exact match and alignment score, per format.

``predict`` decodes a list of examples in batches (soft attention unless told otherwise) and
returns the answers with the alignment each output step used, so both numbers come from
the same decode.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from explorer.seq2seq.alignment import alignment_hits, digit_report
from explorer.seq2seq.dates import FORMATS, DateExample, held_out_set
from explorer.seq2seq.vocab import Vocabulary, make_batch

if TYPE_CHECKING:
    from explorer.seq2seq.rnn import GRUTranslator
    from explorer.seq2seq.transformer import TransformerTranslator


@dataclass
class Predictions:
    examples: list[DateExample]
    outputs: list[str]
    alignments: list[np.ndarray]  # [T, n_source] each

    def correct(self) -> np.ndarray:
        return np.array([o == e.target for o, e in zip(self.outputs, self.examples)])

    @property
    def exact_match(self) -> float:
        return float(self.correct().mean()) if self.outputs else 0.0

    def alignment_score(self) -> float:
        hits = [h for a, e in zip(self.alignments, self.examples) for h in alignment_hits(a, e)]
        return float(np.mean(hits)) if hits else 0.0

    def spelled_alignment_score(self) -> float | None:
        """The alignment score over the digits a source character spells (padded digits left out)."""
        return self.digit_breakdown()["spelled_alignment_score"]

    def digit_breakdown(self) -> dict[str, float | None]:
        """Alignment score of the digits a source character spells and of padded digits, and
        where padded misses land; None where there are no such digits (a format without a
        padded digit), never NaN, which no JSON reader takes."""
        digits = [d for a, e in zip(self.alignments, self.examples) for d in digit_report(a, e)]
        spelled = [d.hit for d in digits if not d.padded]
        padded = [d for d in digits if d.padded]
        mean = lambda xs: float(np.mean(xs)) if len(xs) else None  # noqa: E731
        return {
            "spelled_alignment_score": mean(spelled),
            "padded_alignment_score": mean([d.hit for d in padded]),
            "padded_share": len(padded) / max(1, len(digits)),
            "padded_next_to_field": mean([d.next_to_field for d in padded]),
        }

    def by_format(self) -> dict[str, dict[str, float | None]]:
        """{format: {"exact_match", "alignment_score", "count", and digit_breakdown()'s keys}}."""
        groups: dict[str, list[int]] = defaultdict(list)
        for i, e in enumerate(self.examples):
            groups[e.format].append(i)
        report = {}
        for fmt in [f for f in FORMATS if f in groups]:
            part = Predictions(
                [self.examples[i] for i in groups[fmt]],
                [self.outputs[i] for i in groups[fmt]],
                [self.alignments[i] for i in groups[fmt]],
            )
            report[fmt] = {
                "exact_match": part.exact_match,
                "alignment_score": part.alignment_score(),
                "count": len(groups[fmt]),
                **part.digit_breakdown(),
            }
        return report


def predict(
    model: GRUTranslator | TransformerTranslator,
    examples: list[DateExample],
    vocab: Vocabulary,
    attention: str = "soft",
    batch_size: int = 1000,
    device: torch.device | None = None,
) -> Predictions:
    device = device or next(model.parameters()).device
    outputs: list[str] = []
    alignments: list[np.ndarray] = []
    was_training = model.training
    model.eval()
    with torch.no_grad():
        for start in range(0, len(examples), batch_size):
            part = examples[start : start + batch_size]
            batch = make_batch(part, vocab).to(device)
            decoded = model.greedy(batch.source, batch.lengths, attention)
            tokens = decoded.tokens.cpu().numpy()
            weights = decoded.alignment.float().cpu().numpy()
            for row, example in enumerate(part):
                outputs.append(vocab.decode_target(tokens[row]))
                alignments.append(weights[row, :, : len(example.source)])
    model.train(was_training)
    return Predictions(list(examples), outputs, alignments)


def held_out_report(model, vocab: Vocabulary, per_format: int, seed: int = 1) -> Predictions:
    """The acceptance check: ``per_format`` held-out days in every format."""
    return predict(model, held_out_set(per_format, seed), vocab)
