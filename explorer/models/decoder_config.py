"""The decoder-only families the explorer reads, and how each spells its config.json.

GPT-2 (learned positions, LayerNorm, a fused ``c_attn``), and the Llama kind: Llama, Mistral
and Qwen2 (RMSNorm, rotary positions, grouped-query attention, a SwiGLU MLP; Mistral and Qwen2
can slide a window over the keys; Qwen2 has biases on Q, K and V). Every family is read into
one ``DecoderConfig``; a value the forward cannot honour is refused here, by name, before a
tensor is read. Defaults are transformers' own, so a config that omits a key computes as
transformers computes it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from explorer.models import decoder_messages  # noqa: F401 (registers its messages)
from explorer.models.bert import ACTIVATIONS
from explorer.models.errors import ModelError
from explorer.models.rope import DEFAULT_THETA, ROPE_KINDS, RopeSpec
from explorer.models.size_limits import check_size

DECODER_LABELS = {"gpt2": "GPT-2", "llama": "Llama", "mistral": "Mistral", "qwen2": "Qwen2"}
DECODER_TYPES = tuple(DECODER_LABELS)
_ARCHITECTURES = (("GPT2", "gpt2"), ("Llama", "llama"), ("Mistral", "mistral"), ("Qwen2", "qwen2"))
Raw = dict[str, Any]  # a parsed config.json


@dataclass(frozen=True)
class DecoderConfig:
    model_type: str  # gpt2, llama, mistral, qwen2
    hidden_size: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int
    num_hidden_layers: int
    intermediate_size: int
    vocab_size: int
    max_position_embeddings: int
    norm_eps: float
    hidden_act: str
    rope: RopeSpec | None  # None: learned positions (GPT-2)
    sliding_windows: tuple[int | None, ...]  # per layer: the keys a query sees, or None (all before it)
    attention_bias: bool = False  # biases on Q, K and V
    output_bias: bool = False  # a bias on the output projection
    mlp_bias: bool = False
    tie_word_embeddings: bool = False
    layer_scaled: bool = False  # GPT-2's scale_attn_by_inverse_layer_idx: scores ÷ (layer + 1) too
    bos_token_id: int | None = None
    eos_token_ids: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default=(), compare=False)  # defaults assumed, said to the user

    @property
    def is_decoder(self) -> bool:
        return True

    @property
    def gpt2(self) -> bool:
        return self.model_type == "gpt2"

    @property
    def label(self) -> str:
        return DECODER_LABELS[self.model_type]

    @property
    def group_size(self) -> int:
        """Query heads that read one K/V head."""
        return self.num_attention_heads // self.num_key_value_heads

    @property
    def max_tokens(self) -> int:
        return self.max_position_embeddings

    def kv_head_of(self, head: int) -> int:
        """The K/V head query head ``head`` reads (transformers' repeat_kv: consecutive groups)."""
        return head // self.group_size


def guess_decoder_type(raw: Raw) -> str | None:
    for arch in raw.get("architectures") or []:
        for prefix, model_type in _ARCHITECTURES:
            if str(arch).startswith(prefix):
                return model_type
    return None


def read_decoder_config(path: Path, raw: Raw, model_type: str) -> DecoderConfig:
    """A decoder's config.json (already parsed) → a checked DecoderConfig, or ModelError."""
    reader = _gpt2 if model_type == "gpt2" else _llama_kind
    return reader(Path(path), raw, model_type)


def _gpt2(path: Path, raw: Raw, model_type: str) -> DecoderConfig:
    get = _getter(path, raw)
    width, heads = get("n_embd", 768), get("n_head", 12)
    _positive(path, {"n_embd": width, "n_head": heads})
    if width % heads:
        raise ModelError.of(
            "families.heads_not_dividing",
            path=path,
            width_key="n_embd",
            width=width,
            heads=heads,
            heads_key="n_head",
        )
    if raw.get("scale_attn_weights", True) is not True:
        raise ModelError.of("decoders.unscaled", path=path)
    inner = raw.get("n_inner")
    values: dict[str, Any] = {
        "n_layer": get("n_layer", 12),
        "n_positions": get("n_positions", 1024),
        "vocab_size": get("vocab_size", 50257),
        "n_inner": 4 * width if inner is None else inner,
    }
    _positive(path, values)
    layers = values["n_layer"]
    return DecoderConfig(
        model_type="gpt2",
        hidden_size=width,
        num_attention_heads=heads,
        num_key_value_heads=heads,
        head_dim=width // heads,
        num_hidden_layers=layers,
        intermediate_size=values["n_inner"],
        vocab_size=values["vocab_size"],
        max_position_embeddings=values["n_positions"],
        norm_eps=_eps(path, "layer_norm_epsilon", get("layer_norm_epsilon", 1e-5)),
        hidden_act=_activation(path, "activation_function", get("activation_function", "gelu_new")),
        rope=None,
        sliding_windows=(None,) * layers,
        attention_bias=True,
        output_bias=True,
        mlp_bias=True,
        tie_word_embeddings=_flag(path, raw, "tie_word_embeddings", True),
        # reorder_and_upcast_attn only changes the order of float16 arithmetic; in float32 the
        # numbers are the same, so it is read and needs nothing.
        layer_scaled=_flag(path, raw, "scale_attn_by_inverse_layer_idx", False),
        bos_token_id=_token_id(raw.get("bos_token_id", 50256)),
        eos_token_ids=_token_ids(raw.get("eos_token_id", 50256)),
    )


# transformers' defaults per family for the keys a Llama-kind config may leave out.
_LLAMA_DEFAULTS: dict[str, dict[str, Any]] = {
    "llama": {"max_position_embeddings": 2048, "bos": 1, "eos": 2, "tie": False},
    "mistral": {"max_position_embeddings": 4096 * 32, "bos": 1, "eos": 2, "tie": False},
    "qwen2": {"max_position_embeddings": 32768, "bos": None, "eos": None, "tie": False},
}


def _llama_kind(path: Path, raw: Raw, model_type: str) -> DecoderConfig:
    get = _getter(path, raw)
    defaults = _LLAMA_DEFAULTS[model_type]
    sizes: dict[str, Any] = {
        "hidden_size": get("hidden_size", None),
        "num_attention_heads": get("num_attention_heads", None),
        "num_hidden_layers": get("num_hidden_layers", None),
        "intermediate_size": get("intermediate_size", None),
        "vocab_size": get("vocab_size", None),
        "max_position_embeddings": get("max_position_embeddings", defaults["max_position_embeddings"]),
    }
    _positive(path, sizes)
    heads = sizes["num_attention_heads"]
    kv_heads = raw.get("num_key_value_heads")
    kv_heads = heads if kv_heads is None else kv_heads
    _positive(path, {"num_key_value_heads": kv_heads})
    if heads % kv_heads:
        raise ModelError.of("decoders.kv_heads", path=path, heads=heads, kv_heads=kv_heads)
    head_dim = raw.get("head_dim")
    if head_dim is None:
        if sizes["hidden_size"] % heads:
            raise ModelError.of(
                "families.heads_not_dividing",
                path=path,
                width_key="hidden_size",
                width=sizes["hidden_size"],
                heads=heads,
                heads_key="num_attention_heads",
            )
        head_dim = sizes["hidden_size"] // heads
    _positive(path, {"head_dim": head_dim})
    if head_dim % 2:
        raise ModelError.of("decoders.odd_head_dim", path=path, head_dim=head_dim)
    layers = sizes["num_hidden_layers"]
    rope, notes = _rope(path, raw, sizes["max_position_embeddings"])
    qwen = model_type == "qwen2"
    bias = True if qwen else _flag(path, raw, "attention_bias", False)
    return DecoderConfig(
        model_type=model_type,
        hidden_size=sizes["hidden_size"],
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        head_dim=head_dim,
        num_hidden_layers=layers,
        intermediate_size=sizes["intermediate_size"],
        vocab_size=sizes["vocab_size"],
        max_position_embeddings=sizes["max_position_embeddings"],
        norm_eps=_eps(path, "rms_norm_eps", get("rms_norm_eps", 1e-6)),
        hidden_act=_activation(path, "hidden_act", get("hidden_act", "silu")),
        rope=rope,
        sliding_windows=_windows(path, raw, model_type, layers),
        attention_bias=bias,
        output_bias=False if qwen else bias,
        mlp_bias=False if model_type != "llama" else _flag(path, raw, "mlp_bias", False),
        tie_word_embeddings=_flag(path, raw, "tie_word_embeddings", defaults["tie"]),
        bos_token_id=_token_id(raw.get("bos_token_id", defaults["bos"])),
        eos_token_ids=_token_ids(raw.get("eos_token_id", defaults["eos"])),
        notes=notes,
    )


_ABSENT = object()  # a key the file does not have (None is a null it has)


def _rope(path: Path, raw: Raw, max_positions: int) -> tuple[RopeSpec, tuple[str, ...]]:
    """rope_parameters (transformers 5) or rope_theta + rope_scaling (earlier files). A file with
    both is read as transformers reads it: a rope_scaling that is not empty wins."""
    key = "rope_scaling" if raw.get("rope_scaling") else "rope_parameters"
    params = raw.get(key)
    if params is not None and not isinstance(params, dict):  # named as the file spells it
        if key == "rope_scaling":
            raise ModelError.of("decoders.rope_not_object", path=path, value=_short(params))
        raise ModelError.of("decoders.rope_key_not_object", path=path, key=key, value=_short(params))
    params = dict(params or {})  # Raw
    if set(params) & set(raw.get("layer_types") or ()):
        raise ModelError.of("decoders.rope_per_layer", path=path)
    notes: tuple[str, ...] = ()
    # Absent from both: transformers' default. A null one (in either place) is no default there:
    # it is the value, and transformers cannot rotate by it, so it is refused below.
    theta = params.get("rope_theta", raw.get("rope_theta", _ABSENT))
    if theta is _ABSENT:
        theta = DEFAULT_THETA
        notes = ("rope_theta missing: 10000, as transformers assumes",)  # the window translates it whole
    if not _number(theta) or theta <= 1:
        raise ModelError.of("decoders.rope_theta", path=path, value=_short(theta))
    kind = params.get("rope_type", params.get("type", "default"))
    if kind not in ROPE_KINDS:
        raise ModelError.of(
            "decoders.rope_kind", path=path, kind=_short(kind), supported=", ".join(ROPE_KINDS)
        )
    partial = params.get("partial_rotary_factor", raw.get("partial_rotary_factor", 1.0))
    if partial != 1 and partial != 1.0:
        raise ModelError.of("decoders.rope_partial", path=path, value=_short(partial))

    def number(key: str, default: float | None, minimum: float = 0.0) -> float:
        value = params.get(key, default)
        if value is None:
            value = default
        if not _number(value) or value < minimum:
            raise ModelError.of("decoders.rope_value", path=path, kind=kind, key=key, value=_short(value))
        return float(value)

    spec = RopeSpec(kind=kind, theta=float(theta))
    if kind in ("linear", "dynamic", "llama3", "yarn"):
        # llama3 and yarn only: a top-level original_max_position_embeddings wins over the one in
        # the rope settings, as transformers' standardize_rope_params puts it (Phi-3's layout).
        original = max_positions
        if kind in ("llama3", "yarn"):
            original = raw.get(
                "original_max_position_embeddings",
                params.get("original_max_position_embeddings", max_positions),
            )
        if not _whole(original) or original <= 0:
            raise ModelError.of(
                "decoders.rope_value",
                path=path,
                kind=kind,
                key="original_max_position_embeddings",
                value=_short(original),
            )
        factor = params.get("factor")
        if (
            factor is None and kind == "yarn" and "factor" in params
        ):  # null: the ratio, as transformers takes it
            factor = max_positions / original  # (a yarn without the key is refused there, and here)
        if not _number(factor) or factor < 1:
            raise ModelError.of(
                "decoders.rope_value", path=path, kind=kind, key="factor", value=_short(factor)
            )
        spec = RopeSpec(kind=kind, theta=float(theta), factor=float(factor), original_max_positions=original)
    if kind == "llama3":
        low, high = number("low_freq_factor", None, 0.0), number("high_freq_factor", None, 0.0)
        if not high > low > 0:  # each a valid number: their order is what is wrong
            raise ModelError.of(
                "decoders.rope_frequency_order", path=path, kind=kind, high_key="high_freq_factor",
                high=_short(high), low_key="low_freq_factor", low=_short(low),
            )  # fmt: skip
        spec = RopeSpec(**{**vars(spec), "low_freq_factor": low, "high_freq_factor": high})
    if kind == "yarn":
        attention = params.get("attention_factor")
        if attention is not None and (not _number(attention) or attention <= 0):
            raise ModelError.of(
                "decoders.rope_value", path=path, kind=kind, key="attention_factor", value=_short(attention)
            )
        spec = RopeSpec(
            **{
                **vars(spec),
                "attention_factor": None if attention is None else float(attention),
                "beta_fast": number("beta_fast", 32.0) or 32.0,
                "beta_slow": number("beta_slow", 1.0) or 1.0,
                "mscale": params.get("mscale") if _number(params.get("mscale")) else None,
                "mscale_all_dim": params.get("mscale_all_dim")
                if _number(params.get("mscale_all_dim"))
                else None,
                "truncate": bool(params.get("truncate", True)),
            }
        )
    return spec, notes


def _windows(path: Path, raw: Raw, model_type: str, layers: int) -> tuple[int | None, ...]:
    """Each layer's sliding window, as transformers' Mistral and Qwen2 apply it."""
    if model_type == "llama":
        return (None,) * layers
    window = raw.get("sliding_window", 4096)
    if model_type == "qwen2":
        if not raw.get("use_sliding_window", False):
            return (None,) * layers
        types = raw.get("layer_types")
        if types is None:
            start = raw.get("max_window_layers", 28)
            if not _whole(start):
                raise ModelError.of(
                    "decoders.window", path=path, key="max_window_layers", value=_short(start)
                )
            types = ["sliding_attention" if i >= start else "full_attention" for i in range(layers)]
    else:
        types = ["sliding_attention"] * layers
    if window is None:
        return (None,) * layers
    if not _whole(window) or window <= 0:
        raise ModelError.of("decoders.window", path=path, key="sliding_window", value=_short(window))
    check_size(path, "sliding_window", window)  # 1e30 overflows torch's mask arithmetic
    if not isinstance(types, list) or len(types) != layers:
        raise ModelError.of("decoders.window", path=path, key="layer_types", value=_short(types))
    return tuple(window if kind == "sliding_attention" else None for kind in types)


# -- small readers --------------------------------------------------------------------------------


def _getter(path: Path, raw: Raw) -> Callable[[str, Any], Any]:
    def get(key: str, default: Any) -> Any:
        value = raw.get(key, default)
        if value is None and default is None:
            raise ModelError.of("families.key_missing", path=path, key=key)
        return value

    return get


def _positive(path: Path, values: dict[str, Any]) -> None:
    for key, value in values.items():
        if not _whole(value) or value <= 0:
            raise ModelError.of("families.not_positive", path=path, key=key, value=value)
        check_size(path, _CANONICAL.get(key, key), value, key)


_CANONICAL = {"n_layer": "num_hidden_layers", "n_head": "num_attention_heads"}  # GPT-2's spelling


def _eps(path: Path, key: str, value: object) -> float:
    if not _number(value) or not 0 < value < 1:
        raise ModelError.of("decoders.norm_eps", path=path, key=key, value=_short(value))
    return float(value)


def _activation(path: Path, key: str, value: object) -> str:
    if not isinstance(value, str) or value not in ACTIVATIONS:
        raise ModelError.of(
            "families.activation", path=path, key=key, value=value, supported=", ".join(ACTIVATIONS)
        )
    return value


def _flag(path: Path, raw: Raw, key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ModelError.of("decoders.flag", path=path, key=key, value=_short(value))
    return value


def _token_id(value: object) -> int | None:
    if isinstance(value, list):
        value = value[0] if value else None
    return value if _whole(value) and value >= 0 else None


def _token_ids(value: object) -> tuple[int, ...]:
    values = value if isinstance(value, list) else [value]
    return tuple(v for v in values if _whole(v) and v >= 0)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> TypeGuard[float]:
    """A finite JSON number (booleans are not numbers here)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
