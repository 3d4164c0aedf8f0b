"""A fresh translation model for a spec: the one place that knows both model kinds."""

from __future__ import annotations

from explorer.seq2seq.rnn import GRUTranslator
from explorer.seq2seq.spec import ModelSpec
from explorer.seq2seq.transformer import TransformerTranslator


def build_model(spec: ModelSpec) -> GRUTranslator | TransformerTranslator:
    """A fresh, untrained module for the spec (weights from torch's current generator)."""
    if spec.model == "transformer":
        return TransformerTranslator(spec)
    return GRUTranslator(spec)
