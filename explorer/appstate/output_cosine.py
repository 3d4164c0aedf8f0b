"""What turning an encoder's heads off changes, for the window: the worker's job and its answer.

An encoder writes no next token; what its heads do shows in its output vectors (after the
last layer). With heads switched off in the All-heads grid (``state.decoding``: zeroed, or
replaced by their mean over the text, before W_O), each token's output vector is compared with
the one every head on gives: their cosine, per token and the mean (1: unchanged). The model's
own forward (its own attention at every layer), whatever options the attention stages are
drawn with. Qt-free: the window submits ``output_cosine_job`` on its worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer.appstate.decoding import DecodingOptions
from explorer.core.config import AttentionConfig
from explorer.core.decoding import HeadSet


@dataclass(frozen=True)
class OutputCosine:
    """Each token's output-vector cosine to the unablated one, with ``heads`` off."""

    config: AttentionConfig
    options: DecodingOptions
    heads: HeadSet
    cosine: tuple[float, ...]  # one per token of the sentence

    @property
    def mean(self) -> float:
        return sum(self.cosine) / len(self.cosine) if self.cosine else 1.0

    @property
    def key(self) -> tuple[object, ...]:
        return output_cosine_key(self.config, self.options)


def output_cosine_key(config: AttentionConfig, options: DecodingOptions) -> tuple[object, ...]:
    """What an answer depends on: the text and model, the heads off and how (not sampling)."""
    return (config, options.heads_off, options.ablation)


def encoder_heads_off(engine: Any, config: AttentionConfig, options: DecodingOptions) -> HeadSet | None:
    """The heads off that the config's encoder has (None: none, or not an encoder's weights)."""
    if config.weights != "pretrained":
        return None
    model = engine.model(config.model_dir, config.model)
    if model.is_decoder:
        return None
    c = model.config
    return options.head_set(c.num_hidden_layers, c.num_attention_heads)


def output_cosine_job(engine: Any, config: AttentionConfig, options: DecodingOptions) -> OutputCosine | None:
    """The worker's job: the encoder's output vectors with the heads off against with every head
    on (``Engine.ablate``); None when none of the model's heads is off."""
    heads = encoder_heads_off(engine, config, options)
    if heads is None:
        return None
    result = engine.ablate(config, heads)
    return OutputCosine(config, options, heads, tuple(float(c) for c in result["output_cosine"]))
