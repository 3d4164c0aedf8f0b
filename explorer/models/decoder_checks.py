"""Before a decoder computes: does every tensor fit its config, and is every number finite?

The same promise as ``checks.py`` for encoders, in a decoder's words: a head_dim or a K/V head
count that the weights contradict is named as such, since "q_proj is [64, 32]" alone does not
say which number in config.json is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from explorer.models.checks import check_layer_count, check_tensor, non_finite
from explorer.models.decoder import DecoderNames, FoundTensors, expected_parts
from explorer.models.decoder_config import DecoderConfig
from explorer.models.errors import ModelError


def expected_shapes(config: DecoderConfig) -> dict[str, tuple[tuple[int, ...], str]]:
    """Canonical name → (shape, the config sizes that call for it, in the family's words)."""
    h, inner, vocab = config.hidden_size, config.intermediate_size, config.vocab_size
    q_rows = config.num_attention_heads * config.head_dim
    kv_rows = config.num_key_value_heads * config.head_dim
    if config.gpt2:
        wide, ffn = "n_embd", "n_inner"
        shapes = {
            "embed": ((vocab, h), f"vocab_size × {wide}"),
            "positions": ((config.max_position_embeddings, h), f"n_positions × {wide}"),
            "final_norm.weight": ((h,), wide),
            "final_norm.bias": ((h,), wide),
        }
        per_layer = {
            "norm1.weight": ((h,), wide),
            "norm1.bias": ((h,), wide),
            "qkv.weight": ((h, 3 * h), f"{wide} × 3·{wide} (Conv1D: in × out)"),
            "qkv.bias": ((3 * h,), f"3·{wide}"),
            "o.weight": ((h, h), f"{wide} × {wide}"),
            "o.bias": ((h,), wide),
            "norm2.weight": ((h,), wide),
            "norm2.bias": ((h,), wide),
            "fc.weight": ((h, inner), f"{wide} × {ffn}"),
            "fc.bias": ((inner,), ffn),
            "proj.weight": ((inner, h), f"{ffn} × {wide}"),
            "proj.bias": ((h,), wide),
        }
    else:
        wide, ffn = "hidden_size", "intermediate_size"
        q_sizes, kv_sizes = "num_attention_heads·head_dim", "num_key_value_heads·head_dim"
        shapes = {
            "embed": ((vocab, h), f"vocab_size × {wide}"),
            "final_norm.weight": ((h,), wide),
        }
        per_layer = {
            "norm1.weight": ((h,), wide),
            "q.weight": ((q_rows, h), f"{q_sizes} × {wide}"),
            "q.bias": ((q_rows,), q_sizes),
            "k.weight": ((kv_rows, h), f"{kv_sizes} × {wide}"),
            "k.bias": ((kv_rows,), kv_sizes),
            "v.weight": ((kv_rows, h), f"{kv_sizes} × {wide}"),
            "v.bias": ((kv_rows,), kv_sizes),
            "o.weight": ((h, q_rows), f"{wide} × {q_sizes}"),
            "o.bias": ((h,), wide),
            "norm2.weight": ((h,), wide),
            "gate.weight": ((inner, h), f"{ffn} × {wide}"),
            "gate.bias": ((inner,), ffn),
            "up.weight": ((inner, h), f"{ffn} × {wide}"),
            "up.bias": ((inner,), ffn),
            "down.weight": ((h, inner), f"{wide} × {ffn}"),
            "down.bias": ((h,), wide),
        }
    if not config.tie_word_embeddings:
        shapes["lm_head"] = ((vocab, h), f"vocab_size × {wide}")
    parts = expected_parts(config)
    for layer in range(config.num_hidden_layers):
        for part in parts:
            shapes[f"layers.{layer}.{part}"] = per_layer[part]
    return shapes


def check_decoder_tensors(
    config: DecoderConfig, found: FoundTensors, weights_file: Path, config_file: Path
) -> None:
    """Every tensor the forward reads: present, of the config's shape, floating point (read from
    the file's header alone: no value is touched; ``check_finite`` reads the values)."""
    names = DecoderNames.of(config)
    layers_key = "n_layer" if config.gpt2 else "num_hidden_layers"
    check_layer_count(found.layers_found, config.num_hidden_layers, layers_key, weights_file, config_file)
    for name, (shape, why) in expected_shapes(config).items():
        own = found.own_names.get(name, names.own(name, found.base))

        def explain(found_shape: tuple[int, ...], name: str = name, own: str = own) -> None:
            _explain_heads(config, name, found_shape, weights_file, own, config_file)

        check_tensor(
            found.tensors.get(name), shape, why, weights_file, own, config_file, config.label, explain
        )


def check_finite(
    config: DecoderConfig, found: FoundTensors, weights_file: Path, counted: Mapping[str, int] | None = None
) -> None:
    """No NaN or infinity in any tensor the forward reads (``found.tensors`` may already hold
    the float32 copies the model keeps: then no value is converted twice); ``counted``: the
    counts already taken as the copies were made."""
    names = DecoderNames.of(config)
    counted = counted or {}
    for name in expected_shapes(config):
        bad = counted[name] if name in counted else non_finite(found.tensors[name])
        if bad:
            own = found.own_names.get(name, names.own(name, found.base))
            raise ModelError.of("checks.non_finite", weights=weights_file, tensor=own, count=bad)


def _explain_heads(
    config: DecoderConfig, name: str, shape: tuple[int, ...], weights_file: Path, own: str, config_file: Path
) -> None:
    """A projection whose rows are whole heads of another width, or another count of K/V heads."""
    part = name.split(".", 2)[-1]
    if (
        config.gpt2
        or part not in ("q.weight", "k.weight")
        or len(shape) != 2
        or shape[1] != config.hidden_size
    ):
        return
    rows = shape[0]
    if part == "q.weight" and rows % config.num_attention_heads == 0:
        raise ModelError.of(
            "decoders.head_dim_weights",
            weights=weights_file,
            tensor=own,
            rows=rows,
            heads=config.num_attention_heads,
            found=rows // config.num_attention_heads,
            config=config_file,
            head_dim=config.head_dim,
        )
    if part == "k.weight" and rows % config.head_dim == 0:
        raise ModelError.of(
            "decoders.kv_heads_weights",
            weights=weights_file,
            tensor=own,
            rows=rows,
            found=rows // config.head_dim,
            head_dim=config.head_dim,
            config=config_file,
            kv_heads=config.num_key_value_heads,
        )


def check_token_ids(config: DecoderConfig, largest_id: int, tokenizer_file: Path, weights_file: Path) -> None:
    """Every id the tokenizer can produce must have a row in the embedding and the LM head."""
    if largest_id >= config.vocab_size:
        raise ModelError.of(
            "decoders.vocabulary",
            tokenizer=tokenizer_file,
            largest=largest_id,
            weights=weights_file,
            rows=config.vocab_size,
        )
