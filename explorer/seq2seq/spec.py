"""What a translation model is: its kind, its scoring, its sizes and its vocabulary.

A ``ModelSpec`` is frozen and validated like ``explorer.core.config.AttentionConfig``; it is
written into every checkpoint's config.json and ``build.build_model`` turns it into a module.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from explorer.core.attention import Settings
from explorer.messages import MessageError

MODELS = ("bahdanau", "luong", "transformer")
GRU_MODELS = ("bahdanau", "luong")
SCORINGS = ("additive", "general", "dot", "scaled-dot")
ATTENTIONS = ("soft", "hard", "sample")
DEFAULT_SCORING = {"bahdanau": "additive", "luong": "general", "transformer": "scaled-dot"}
# The longest generated date has 27 characters; the Transformer's position table ends here.
MAX_SOURCE_CHARS = 40
# No size of this lab's models comes near it (the largest width is 128).
MAX_SIZE = 4096


class LabError(MessageError, ValueError):
    """A user-facing, one-line message from the translation lab (the CLI exits 2 with it; a
    ``seq2seq.*`` key)."""


class SpecError(LabError):
    """An impossible model description."""


def core_settings(scoring: str, attention: str = "soft", seed: int = 0, heads: int = 1) -> Settings:
    """The lab's scoring names in explorer.core's terms: scaled-dot is dot divided by √d."""
    if scoring not in SCORINGS:
        raise SpecError.of("seq2seq.scoring_unknown", value=scoring, choices=", ".join(SCORINGS))
    if attention not in ATTENTIONS:
        raise SpecError.of("seq2seq.attention_unknown", value=attention, choices=", ".join(ATTENTIONS))
    core = "dot" if scoring == "scaled-dot" else scoring
    scale = "sqrt" if scoring == "scaled-dot" else "none"
    return Settings(heads=heads, scoring=core, scale=scale, attention=attention, seed=seed)


@dataclass(frozen=True)
class ModelSpec:
    model: str = "bahdanau"
    scoring: str = "additive"
    source_chars: tuple[str, ...] = ()
    embed: int = 32  # character embedding width (GRU models)
    hidden: int = 64  # encoder GRU width per direction; the decoder has 2 × hidden
    attention_dim: int = 64  # additive scoring's hidden layer d_a
    d_model: int = 64  # Transformer width
    heads: int = 4
    layers: int = 2  # Transformer layers on each side
    ffn: int = 128
    max_source: int = MAX_SOURCE_CHARS

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise SpecError.of("seq2seq.model_unknown", value=self.model, choices=", ".join(MODELS))
        if self.scoring not in SCORINGS:
            raise SpecError.of("seq2seq.scoring_unknown", value=self.scoring, choices=", ".join(SCORINGS))
        if self.model == "transformer" and self.scoring != "scaled-dot":
            raise SpecError.of("seq2seq.transformer_scoring", value=self.scoring)
        if self.model == "transformer" and self.d_model % self.heads:
            raise SpecError.of("seq2seq.heads_not_dividing", d_model=self.d_model, heads=self.heads)
        for name in ("embed", "hidden", "attention_dim", "d_model", "heads", "layers", "ffn", "max_source"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise SpecError.of("seq2seq.not_positive", name=name, value=value)
            if value > MAX_SIZE:  # a damaged config.json: refused before torch tries to allocate it
                raise SpecError.of("seq2seq.too_large", name=name, value=value, limit=MAX_SIZE)
        for index, char in enumerate(self.source_chars):
            if not isinstance(char, str) or len(char) != 1 or char in self.source_chars[:index]:
                raise SpecError.of("seq2seq.source_chars", index=index, value=char)

    @property
    def name(self) -> str:
        """``bahdanau-additive``, ``transformer-scaled-dot``: the checkpoint folder's name."""
        return f"{self.model}-{self.scoring}"

    def with_(self, **changes) -> ModelSpec:
        return replace(self, **changes)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["source_chars"] = list(self.source_chars)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> ModelSpec:
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise SpecError.of("seq2seq.unknown_settings", keys=", ".join(sorted(unknown)))
        data = dict(data)
        data["source_chars"] = tuple(data.get("source_chars", ()))
        return cls(**data)


def default_spec(model: str, scoring: str | None = None) -> ModelSpec:
    from explorer.seq2seq.vocab import Vocabulary

    return ModelSpec(
        model=model,
        scoring=scoring or DEFAULT_SCORING.get(model, "additive"),
        source_chars=Vocabulary.default().source_chars,
    )
