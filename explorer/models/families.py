"""The encoder families the explorer reads, and how each spells its config and tensors.

Every family is run by the one BERT forward in ``bert.py``: they differ only in
names (DistilBERT says ``dim`` and ``q_lin``), in where positions start (RoBERTa
and XLM-R count from ``pad_token_id + 1``) and in whether token types exist.
Tensors are renamed here to BERT's names, so the forward and the checks need
to know one spelling only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from explorer import json_text, reading
from explorer.models.bert import ACTIVATIONS, BertConfig
from explorer.models.decoder_config import (
    DECODER_LABELS,
    DecoderConfig,
    guess_decoder_type,
    read_decoder_config,
)
from explorer.models.errors import ModelError
from explorer.models.size_limits import check_size

# The canonical names, after ``encoder.layer.N.``: BERT's own spelling.
LAYER_SUFFIXES = (
    "attention.self.query.weight",
    "attention.self.query.bias",
    "attention.self.key.weight",
    "attention.self.key.bias",
    "attention.self.value.weight",
    "attention.self.value.bias",
    "attention.output.dense.weight",
    "attention.output.dense.bias",
    "attention.output.LayerNorm.weight",
    "attention.output.LayerNorm.bias",
    "intermediate.dense.weight",
    "intermediate.dense.bias",
    "output.dense.weight",
    "output.dense.bias",
    "output.LayerNorm.weight",
    "output.LayerNorm.bias",
)
CANONICAL_LAYER = "encoder.layer."
WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"

_BERT_KEYS = {
    name: name
    for name in (
        "hidden_size",
        "num_attention_heads",
        "num_hidden_layers",
        "intermediate_size",
        "max_position_embeddings",
        "vocab_size",
        "type_vocab_size",
        "layer_norm_eps",
        "hidden_act",
        "pad_token_id",
    )
}


@dataclass(frozen=True)
class Family:
    model_type: str
    label: str  # how the window names it
    config_keys: dict[str, str]  # BertConfig field -> the key in this family's config.json
    defaults: dict[str, object]  # transformers' defaults for keys a config may omit
    positions_from_padding: bool = False  # RoBERTa: position i is pad_token_id + 1 + i
    token_types: bool = True
    reads_is_decoder: bool = True  # transformers computes "is_decoder": true causally (DistilBERT ignores it)
    layer_prefix: str = CANONICAL_LAYER
    layer_names: dict[str, str] = field(default_factory=dict)  # canonical suffix -> own suffix

    def own_name(self, canonical: str) -> str:
        """A canonical tensor name as this family's files spell it (for messages)."""
        if canonical.startswith(CANONICAL_LAYER):
            index, _, suffix = canonical[len(CANONICAL_LAYER) :].partition(".")
            return f"{self.layer_prefix}{index}.{self.layer_names.get(suffix, suffix)}"
        return canonical

    def canonical_name(self, own: str) -> str:
        if self.layer_prefix != CANONICAL_LAYER and own.startswith(self.layer_prefix):
            index, _, suffix = own[len(self.layer_prefix) :].partition(".")
            back = {v: k for k, v in self.layer_names.items()}
            return f"{CANONICAL_LAYER}{index}.{back.get(suffix, suffix)}"
        return own


_ROBERTA_DEFAULTS = {"type_vocab_size": 1, "layer_norm_eps": 1e-5, "hidden_act": "gelu", "pad_token_id": 1}
_BERT_DEFAULTS = {"type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_act": "gelu", "pad_token_id": 0}

FAMILIES: dict[str, Family] = {
    "bert": Family("bert", "BERT", _BERT_KEYS, _BERT_DEFAULTS),
    "roberta": Family("roberta", "RoBERTa", _BERT_KEYS, _ROBERTA_DEFAULTS, positions_from_padding=True),
    "xlm-roberta": Family(
        "xlm-roberta", "XLM-RoBERTa", _BERT_KEYS, _ROBERTA_DEFAULTS, positions_from_padding=True
    ),
    "distilbert": Family(
        "distilbert",
        "DistilBERT",
        {
            "hidden_size": "dim",
            "num_attention_heads": "n_heads",
            "num_hidden_layers": "n_layers",
            "intermediate_size": "hidden_dim",
            "max_position_embeddings": "max_position_embeddings",
            "vocab_size": "vocab_size",
            "hidden_act": "activation",
            "pad_token_id": "pad_token_id",
        },
        # DistilBERT fixes its LayerNorm epsilon in code, not in the config.
        {"hidden_act": "gelu", "pad_token_id": 0, "layer_norm_eps": 1e-12, "type_vocab_size": 0},
        token_types=False,
        reads_is_decoder=False,
        layer_prefix="transformer.layer.",
        layer_names={
            "attention.self.query.weight": "attention.q_lin.weight",
            "attention.self.query.bias": "attention.q_lin.bias",
            "attention.self.key.weight": "attention.k_lin.weight",
            "attention.self.key.bias": "attention.k_lin.bias",
            "attention.self.value.weight": "attention.v_lin.weight",
            "attention.self.value.bias": "attention.v_lin.bias",
            "attention.output.dense.weight": "attention.out_lin.weight",
            "attention.output.dense.bias": "attention.out_lin.bias",
            "attention.output.LayerNorm.weight": "sa_layer_norm.weight",
            "attention.output.LayerNorm.bias": "sa_layer_norm.bias",
            "intermediate.dense.weight": "ffn.lin1.weight",
            "intermediate.dense.bias": "ffn.lin1.bias",
            "output.dense.weight": "ffn.lin2.weight",
            "output.dense.bias": "ffn.lin2.bias",
            "output.LayerNorm.weight": "output_layer_norm.weight",
            "output.LayerNorm.bias": "output_layer_norm.bias",
        },
    ),
}
SUPPORTED = ", ".join([*FAMILIES, *DECODER_LABELS])
LABELS = ", ".join([*(f.label for f in FAMILIES.values()), *DECODER_LABELS.values()])
_SIZES = ("hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size")


def family_of(config: BertConfig) -> Family:
    return FAMILIES[config.model_type]


def read_config(path: Path) -> BertConfig | DecoderConfig:
    """config.json → a checked BertConfig (an encoder's) or DecoderConfig (a decoder's), or
    ModelError naming the key and the fix."""
    raw = read_raw(path)
    model_type = model_type_of(path, raw)
    if model_type in DECODER_LABELS:
        return read_decoder_config(path, raw, model_type)
    return config_from_raw(path, raw, model_type)


def read_raw(path: Path) -> dict[str, Any]:
    """config.json as a dict, or ModelError saying why it is not one."""
    try:
        raw = json_text.loads(reading.read_bytes(path, ModelError).decode("utf-8"))  # a pipe: said so
    except UnicodeDecodeError:
        raise ModelError.of("families.not_utf8", path=path) from None
    except json.JSONDecodeError as exc:
        raise ModelError.of("families.invalid_json", path=path, detail=str(exc)) from None
    if not isinstance(raw, dict):
        raise ModelError.of("families.not_object", path=path)
    return raw


def model_type_of(path: Path, raw: dict[str, Any]) -> str:
    """The family key: model_type, or what the architectures say; ModelError when neither names
    a family the explorer runs (encoders here, decoders in decoder_config.py)."""
    model_type = raw.get("model_type") or _guess_type(raw) or guess_decoder_type(raw)
    if not model_type:
        raise ModelError.of("families.no_model_type", path=path, supported=SUPPORTED)
    if model_type not in FAMILIES and model_type not in DECODER_LABELS:
        raise ModelError.of(
            "families.unsupported_type",
            path=path,
            model_type=model_type,
            supported=SUPPORTED,
            labels=LABELS,
        )
    return model_type


def config_from_raw(path: Path, raw: dict[str, Any], model_type: str) -> BertConfig:
    family = FAMILIES[model_type]
    values: dict[str, object] = {}
    for name, key in family.config_keys.items():
        if key in raw:
            values[name] = raw[key]
        elif name in family.defaults:
            values[name] = family.defaults[name]
        else:
            raise ModelError.of("families.key_missing", path=path, key=key)
    for name, value in family.defaults.items():
        values.setdefault(name, value)
    return _checked(path, family, values, raw)


def _guess_type(raw: dict[str, Any]) -> str | None:
    """Old configs lack model_type; their architectures still say what they are."""
    for arch in raw.get("architectures") or []:
        arch = str(arch)
        for prefix, model_type in (
            ("XLMRoberta", "xlm-roberta"),
            ("Roberta", "roberta"),
            ("DistilBert", "distilbert"),
            ("Bert", "bert"),
        ):
            if arch.startswith(prefix):
                return model_type
    return None


def _checked(path: Path, family: Family, values: dict[str, Any], raw: dict[str, Any]) -> BertConfig:
    def key(name: str) -> str:
        return family.config_keys.get(name, name)

    for name in (*_SIZES, "max_position_embeddings", "vocab_size"):
        if not _whole(values[name]) or values[name] <= 0:
            raise ModelError.of("families.not_positive", path=path, key=key(name), value=values[name])
        check_size(path, name, values[name], key(name))
    types = values["type_vocab_size"]
    fewest = 1 if family.token_types else 0  # BERT, RoBERTa, XLM-R look up type 0: 0 rows was taken
    if not _whole(types) or types < fewest:
        raise ModelError.of("families.type_vocab", path=path, value=types)
    check_size(path, "type_vocab_size", types)
    if values["hidden_size"] % values["num_attention_heads"]:
        raise ModelError.of(
            "families.heads_not_dividing",
            path=path,
            width_key=key("hidden_size"),
            width=values["hidden_size"],
            heads=values["num_attention_heads"],
            heads_key=key("num_attention_heads"),
        )
    eps = values["layer_norm_eps"]
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not (0 < eps < 1):
        raise ModelError.of("families.layer_norm_eps", path=path, value=eps)
    act = values["hidden_act"]
    if not isinstance(act, str) or act not in ACTIVATIONS:
        raise ModelError.of(
            "families.activation",
            path=path,
            key=key("hidden_act"),
            value=act,
            supported=", ".join(ACTIVATIONS),
        )
    kind = raw.get("position_embedding_type", "absolute")
    if kind not in (None, "absolute"):
        raise ModelError.of("families.position_type", path=path, value=kind)
    # A BERT-family model trained as a decoder: transformers computes it with a causal mask.
    causal = raw.get("is_decoder", False)
    if not isinstance(causal, bool) or (causal and not family.reads_is_decoder):
        raise ModelError.of("families.is_decoder", path=path, value=causal, family=family.label)
    pad = values["pad_token_id"]
    offset = 0
    if family.positions_from_padding:
        if not _whole(pad) or not 0 <= pad < values["vocab_size"]:
            raise ModelError.of("families.pad_token", path=path, value=pad)
        offset = pad + 1
        if values["max_position_embeddings"] <= offset:
            raise ModelError.of(
                "families.positions_offset",
                path=path,
                positions=values["max_position_embeddings"],
                offset=offset,
            )
    return BertConfig(
        hidden_size=values["hidden_size"],
        num_attention_heads=values["num_attention_heads"],
        num_hidden_layers=values["num_hidden_layers"],
        intermediate_size=values["intermediate_size"],
        max_position_embeddings=values["max_position_embeddings"],
        vocab_size=values["vocab_size"],
        type_vocab_size=values["type_vocab_size"] if family.token_types else 0,
        layer_norm_eps=float(eps),
        hidden_act=act,
        model_type=family.model_type,
        pad_token_id=pad if _whole(pad) else None,
        position_offset=offset,
        causal=causal,
    )


def _whole(value: object) -> bool:
    """A JSON whole number: 3 or 3.0 would do for Python, but only 3 is honest in a config."""
    return isinstance(value, int) and not isinstance(value, bool)


# -- tensors -------------------------------------------------------------------------------
_LAYER_INDEX = re.compile(r"^(?:encoder|transformer)\.layer\.(\d+)\.")


@dataclass
class CanonicalTensors:
    tensors: dict[str, Any]  # canonical name -> tensor (as stored: not yet upcast)
    own_names: dict[str, str]  # canonical name -> the name in the file, prefix included
    layers_found: int  # 1 + the highest layer index in the file


def canonical_tensors(config: BertConfig, stored: dict[str, Any]) -> CanonicalTensors:
    """Strip a head's prefix (``bert.``, ``roberta.``, ``distilbert.``), rename to BERT's names.

    Tensors outside the encoder (pooler, masked-LM head, position_ids) are dropped.
    """
    family = family_of(config)
    prefix = _prefix(stored)
    out, own, layers = {}, {}, 0
    for name, tensor in stored.items():
        if not name.startswith(prefix):
            continue
        bare = _modern(name[len(prefix) :])
        match = _LAYER_INDEX.match(bare)
        if match and bare.startswith(family.layer_prefix):
            layers = max(layers, int(match.group(1)) + 1)
        canonical = family.canonical_name(bare)
        out[canonical], own[canonical] = tensor, name
    return CanonicalTensors(out, own, layers)


def _prefix(stored: dict[str, Any]) -> str:
    """What precedes ``embeddings.word_embeddings.weight``: '' or a head's ``bert.``."""
    found = [name[: -len(WORD_EMBEDDINGS)] for name in stored if name.endswith(WORD_EMBEDDINGS)]
    found = [p for p in found if p == "" or p.endswith(".")]
    return min(found, key=len) if found else ""


def _modern(name: str) -> str:
    """Checkpoints converted from TensorFlow call LayerNorm's weight and bias gamma and beta."""
    if ".LayerNorm." in name or "layer_norm." in name:
        if name.endswith(".gamma"):
            return name[: -len("gamma")] + "weight"
        if name.endswith(".beta"):
            return name[: -len("beta")] + "bias"
    return name
