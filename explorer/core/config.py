"""The frozen, validated description of one attention computation.

Every option the window or the ``trace`` command offers is a field here; an
``AttentionConfig`` that constructs without error describes a computation the
engine can run (head counts that depend on the model width are checked by the
engine, which knows the width).
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from explorer.messages import MessageError
from explorer.models.catalogue import DEFAULT_MODEL, MODEL_KEYS

# Each set of choices, declared once: the command line, the controls and the board offer these.
SCORINGS = ("dot", "cosine", "additive", "general")
SCALES = ("none", "sqrt", "temperature")
ATTENTIONS = ("soft", "hard", "sample")
# "model": the mask the model was trained with (none for an encoder, causal for a decoder).
MASK_KINDS = ("model", "none", "causal", "window", "valid")
SIZED_MASKS = ("window", "valid")  # written with their size: window:K, valid:N
UNSIZED_MASKS = tuple(k for k in MASK_KINDS if k not in SIZED_MASKS)  # none, causal
WEIGHT_SOURCES = ("pretrained", "random", "identity")
DEVICES = ("auto", "cpu", "cuda", "mps")  # and "cuda:N" for the N-th GPU

# The encoder's position table ends here; longer inputs are cut and the trace says so.
MAX_TOKENS = 512
MAX_RANDOM_D_MODEL = 4096
# Below this τ a row's scaled scores can pass float32's range and be clamped to one value,
# which turns the one-hot softmax τ → 0 should give into a uniform one.
MIN_TEMPERATURE = 1e-6
# Bounds of the whole numbers a user types, so a 30-digit one is refused in words instead of
# overflowing inside torch: a seed as a spin box holds it, a mask far beyond any input's length.
MAX_SEED = 2**31 - 1
MAX_MASK_SIZE = 1_000_000


class ConfigError(MessageError, ValueError):
    """A user-facing message about an impossible configuration (raise with ``ConfigError.of``)."""


@dataclass(frozen=True)
class MaskSpec:
    """Which keys each query may see.

    kind: ``model`` (the mask the model was trained with: none for an encoder, causal for
    a decoder, with its sliding window where it has one); ``none``; ``causal`` (key j <=
    query i); ``window`` (|i - j| <= size, Luong's local attention); ``valid`` (only the
    first ``size`` keys, d2l's valid_lens).
    """

    kind: str = "none"
    size: int = 0

    @classmethod
    def parse(cls, text: str) -> MaskSpec:
        if text is not None and not isinstance(text, str):  # a number from a script or a file
            raise ConfigError.of("config.mask_malformed", text=repr(text))
        text = (text or "none").strip().lower()
        if text in MASK_KINDS and text not in SIZED_MASKS:
            return cls(text)
        match = re.fullmatch(rf"({'|'.join(SIZED_MASKS)}):\s*(-?[0-9]+)", text)  # ASCII digits only
        if not match:
            raise ConfigError.of("config.mask_malformed", text=text)
        kind, size = match.group(1), int(match.group(2))
        if size < 0:
            raise ConfigError.of("config.mask_negative", kind=kind, size=size)
        if size > MAX_MASK_SIZE:
            raise ConfigError.of("config.mask_too_large", kind=kind, size=size, limit=MAX_MASK_SIZE)
        return cls(kind, size)

    def __str__(self) -> str:
        return f"{self.kind}:{self.size}" if self.kind in SIZED_MASKS else self.kind


@dataclass(frozen=True)
class AttentionConfig:
    sentence: str = "Thinking Machines"
    query: str = ""  # empty: self-attention over the sentence
    scoring: str = "dot"
    scale: str = "sqrt"
    temperature: float = 1.0
    heads: int | None = None  # None: the model's own (pretrained) or 8 (random, identity)
    attention: str = "soft"
    mask: str = "model"  # the model's own; "none" turns even a decoder's causal mask off
    weights: str = "pretrained"
    layer: int = 0
    d_model: int = 64  # width of random and identity weights
    seed: int = 0
    device: str = "auto"
    model: str = DEFAULT_MODEL  # a catalogue key: minilm or multilingual
    model_dir: str | None = None  # any model folder; overrides ``model``
    max_tokens: int = MAX_TOKENS

    def __post_init__(self) -> None:
        _check_choice("config.scoring", self.scoring, SCORINGS)
        _check_choice("config.scale", self.scale, SCALES)
        _check_choice("config.attention", self.attention, ATTENTIONS)
        _check_choice("config.weights", self.weights, WEIGHT_SOURCES)
        _check_device(self.device)
        _check_choice("config.model", self.model, MODEL_KEYS)
        if not isinstance(self.sentence, str) or not isinstance(self.query, str):
            raise ConfigError.of("config.text_not_text")
        if not self.sentence.strip():
            raise ConfigError.of("config.sentence_empty")
        t = self.temperature
        if (
            isinstance(t, bool)
            or not isinstance(t, (int, float))
            or not math.isfinite(t)
            or t < MIN_TEMPERATURE
        ):
            raise ConfigError.of("config.temperature", value=t)
        if self.heads is not None and (not _is_int(self.heads) or self.heads < 1):
            raise ConfigError.of("config.heads", value=self.heads)
        if not _is_int(self.layer) or self.layer < 0:
            raise ConfigError.of("config.layer", value=self.layer)
        if not _is_int(self.d_model) or not 1 <= self.d_model <= MAX_RANDOM_D_MODEL:
            raise ConfigError.of("config.d_model", limit=MAX_RANDOM_D_MODEL, value=self.d_model)
        if not _is_int(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise ConfigError.of("config.seed", limit=MAX_SEED, value=self.seed)
        if not _is_int(self.max_tokens) or self.max_tokens < 2:
            raise ConfigError.of("config.max_tokens", value=self.max_tokens)
        MaskSpec.parse(self.mask)  # raises on a malformed mask

    @property
    def mask_spec(self) -> MaskSpec:
        return MaskSpec.parse(self.mask)

    @property
    def is_self_attention(self) -> bool:
        return not self.query.strip()

    def with_(self, **changes: Any) -> AttentionConfig:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AttentionConfig:
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise ConfigError.of("config.unknown_keys", keys=", ".join(sorted(unknown)))
        return cls(**data)


def _check_choice(key: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ConfigError.of(key, value=value, choices=", ".join(choices))


def _check_device(value: object) -> None:
    if value in DEVICES or (isinstance(value, str) and re.fullmatch(r"cuda:\d{1,3}", value)):
        return
    raise ConfigError.of("config.device", value=value, choices=", ".join(DEVICES))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = [
    "AttentionConfig",
    "ConfigError",
    "MaskSpec",
    "SCORINGS",
    "SCALES",
    "ATTENTIONS",
    "MASK_KINDS",
    "SIZED_MASKS",
    "UNSIZED_MASKS",
    "WEIGHT_SOURCES",
    "DEVICES",
    "MAX_TOKENS",
    "MODEL_KEYS",
]
