"""Before anything is computed: does every tensor fit the config, and is every number finite?

A mismatch found here would otherwise surface as a shape error deep in the forward, or,
worse, as NaN attention that looks like a result. Each problem is one line naming the
file, the tensor and the fix.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from explorer.models.bert import BertConfig
from explorer.models.errors import ModelError
from explorer.models.families import LAYER_SUFFIXES, CanonicalTensors, family_of

_FLOATS = (torch.float32, torch.float16, torch.bfloat16, torch.float64)
_SAME_CONFIG = "use the config.json that came with these weights"


def expected_shapes(config: BertConfig) -> dict[str, tuple[tuple[int, ...], str]]:
    """Canonical name → (shape, which config sizes call for it, in the family's own words)."""
    keys = family_of(config).config_keys
    h, i = config.hidden_size, config.intermediate_size
    wide, inner = keys["hidden_size"], keys["intermediate_size"]  # the family's own key names
    square, vector = ((h, h), f"{wide} × {wide}"), ((h,), wide)
    shapes = {
        "embeddings.word_embeddings.weight": ((config.vocab_size, h), f"{keys['vocab_size']} × {wide}"),
        "embeddings.position_embeddings.weight": (
            (config.max_position_embeddings, h),
            f"{keys['max_position_embeddings']} × {wide}",
        ),
        "embeddings.LayerNorm.weight": vector,
        "embeddings.LayerNorm.bias": vector,
    }
    if config.type_vocab_size:
        shapes["embeddings.token_type_embeddings.weight"] = (
            (config.type_vocab_size, h),
            f"type_vocab_size × {wide}",
        )
    by_suffix = {
        "intermediate.dense.weight": ((i, h), f"{inner} × {wide}"),
        "intermediate.dense.bias": ((i,), inner),
        "output.dense.weight": ((h, i), f"{wide} × {inner}"),
    }
    for layer in range(config.num_hidden_layers):
        for suffix in LAYER_SUFFIXES:
            square_or_vector = square if suffix.endswith("weight") and "LayerNorm" not in suffix else vector
            shapes[f"encoder.layer.{layer}.{suffix}"] = by_suffix.get(suffix, square_or_vector)
    return shapes


def check_tensors(config: BertConfig, found: CanonicalTensors, weights_file: Path, config_file: Path) -> None:
    """Every tensor the forward reads: present, of the config's shape, floating point, finite."""
    family = family_of(config)
    layers_key = family.config_keys["num_hidden_layers"]
    if found.layers_found > config.num_hidden_layers:
        raise ModelError(
            f"{weights_file} holds {found.layers_found} layers but {config_file} says "
            f"{layers_key}={config.num_hidden_layers}; {_SAME_CONFIG} (or set {layers_key} "
            f"to {found.layers_found})"
        )
    for name, (shape, why) in expected_shapes(config).items():
        own = found.own_names.get(name, family.own_name(name))
        tensor = found.tensors.get(name)
        if tensor is None:
            raise ModelError(
                f"{weights_file} lacks the tensor {own} that {config_file} calls for; "
                f"{_SAME_CONFIG}, or a {family.label} model's weights"
            )
        if tuple(tensor.shape) != shape:
            raise ModelError(
                f"{weights_file}: {own} is {list(tensor.shape)} but {config_file} ({why}) calls for "
                f"{list(shape)}; {_SAME_CONFIG}"
            )
        if tensor.dtype not in _FLOATS:
            raise ModelError(
                f"{weights_file}: {own} is stored as {str(tensor.dtype).removeprefix('torch.')}; the "
                "explorer reads float32, float16 or bfloat16 weights: save the model unquantised"
            )
        bad = _non_finite(tensor)
        if bad:
            raise ModelError(
                f"{weights_file}: {own} holds {bad} NaN or infinite value(s); the weights are "
                "damaged (a failed training run or download): get a clean copy"
            )


def _non_finite(tensor: torch.Tensor) -> int:
    """How many NaN or infinite values.

    A sum is NaN or inf when any value is, and takes one pass without a mask as large as
    the tensor; only a suspect sum is counted exactly (finite values can also add up past
    float32's range). numpy sums on one thread: torch's thread pool, spinning while other
    work holds the cores, made this check cost ten times more.
    """
    values = (tensor if tensor.dtype in (torch.float32, torch.float64) else tensor.float()).numpy()
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(values.sum()):
            return 0
    return int(values.size - np.count_nonzero(np.isfinite(values)))


def check_vocabulary(
    config: BertConfig, tokenizer_size: int, tokenizer_file: Path, weights_file: Path
) -> None:
    """Every id the tokenizer can produce must have a row in the embedding table."""
    if tokenizer_size > config.vocab_size:
        raise ModelError(
            f"{tokenizer_file} knows {tokenizer_size} tokens but {weights_file} embeds only "
            f"{config.vocab_size}; use the tokenizer that came with the model"
        )
