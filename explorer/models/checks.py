"""Before anything is computed: does every tensor fit the config, and is every number finite?

A mismatch found here would otherwise surface as a shape error deep in the forward, or,
worse, as NaN attention that looks like a result. Each problem is one line naming the
file, the tensor and the fix.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import torch

from explorer.finite import count_non_finite
from explorer.models.bert import BertConfig
from explorer.models.errors import ModelError
from explorer.models.families import LAYER_SUFFIXES, CanonicalTensors, family_of

FLOATS = (torch.float32, torch.float16, torch.bfloat16, torch.float64)
# Values checked at a time: a 16-bit vocabulary table is not copied to float32 whole.
_CHECK_BLOCK = 1 << 24


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
    check_layer_count(
        found.layers_found,
        config.num_hidden_layers,
        family.config_keys["num_hidden_layers"],
        weights_file,
        config_file,
    )
    for name, (shape, why) in expected_shapes(config).items():
        own = found.own_names.get(name, family.own_name(name))
        tensor = check_tensor(
            found.tensors.get(name), shape, why, weights_file, own, config_file, family.label
        )
        bad = non_finite(tensor)
        if bad:
            raise ModelError.of("checks.non_finite", weights=weights_file, tensor=own, count=bad)


def check_layer_count(found: int, layers: int, key: str, weights_file: Path, config_file: Path) -> None:
    """The weights hold no more layers than the config's ``key`` says (fewer is named per tensor)."""
    if found > layers:
        raise ModelError.of(
            "checks.layers_in_weights",
            weights=weights_file,
            found=found,
            config=config_file,
            key=key,
            layers=layers,
        )


def check_tensor(
    tensor: torch.Tensor | None,
    shape: tuple[int, ...],
    why: str,
    weights_file: Path,
    own: str,
    config_file: Path,
    family: str,
    explain_shape: Callable[[tuple[int, ...]], None] | None = None,
) -> torch.Tensor:
    """One tensor the forward reads: present, of the config's ``shape`` (``why``: the config sizes
    calling for it), floating point; returned. ``explain_shape`` may raise a more precise message first."""
    if tensor is None:
        raise ModelError.of(
            "checks.tensor_missing", weights=weights_file, tensor=own, config=config_file, family=family
        )
    if tuple(tensor.shape) != shape:
        if explain_shape is not None:
            explain_shape(tuple(tensor.shape))
        raise ModelError.of(
            "checks.tensor_shape",
            weights=weights_file,
            tensor=own,
            shape=list(tensor.shape),
            config=config_file,
            sizes=why,
            expected=list(shape),
        )
    if tensor.dtype not in FLOATS:
        raise ModelError.of(
            "checks.tensor_dtype",
            weights=weights_file,
            tensor=own,
            dtype=str(tensor.dtype).removeprefix("torch."),
        )
    return tensor


def non_finite(tensor: torch.Tensor) -> int:
    """How many NaN or infinite values.

    A sum is NaN or inf when any value is, and takes one pass without a mask as large as
    the tensor; only a suspect sum is counted exactly (finite values can also add up past
    float32's range). numpy sums on one thread: torch's thread pool, spinning while other
    work holds the cores, made this check cost ten times more. Large tensors go a block of
    rows at a time, so a 16-bit table is never copied to float32 whole.
    """
    flat = tensor.reshape(-1)
    return sum(
        _non_finite_block(flat[start : start + _CHECK_BLOCK])
        for start in range(0, flat.numel(), _CHECK_BLOCK)
    )


def _non_finite_block(tensor: torch.Tensor) -> int:
    return count_non_finite(
        (tensor if tensor.dtype in (torch.float32, torch.float64) else tensor.float()).numpy()
    )


def check_vocabulary(
    config: BertConfig, tokenizer_size: int, tokenizer_file: Path, weights_file: Path
) -> None:
    """Every id the tokenizer can produce must have a row in the embedding table."""
    if tokenizer_size > config.vocab_size:
        raise ModelError.of(
            "checks.vocabulary",
            tokenizer=tokenizer_file,
            size=tokenizer_size,
            weights=weights_file,
            rows=config.vocab_size,
        )
