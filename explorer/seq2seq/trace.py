"""The TranslationTrace: one translation with every number the tab draws, plus JSON/NPZ writers.

For the GRU models the per-step arrays are the decoder's own attention:

    queries [T, d]   the decoder states used as queries (Bahdanau s_{i−1}, Luong h_t)
    keys, values [n, d]   the encoder annotations h_j (the same vectors)
    scores, scaled, weights [T, n]   row i = output step i; weights are what step i used
    context [T, d]   Σ_j weights_ij · values_j
    step(i)          → StepStages: one output step's query, scores, scaled, weights, context

For the Transformer the same names hold the last decoder layer's cross-attention by head
(queries [h, T, d_k], keys and values [h, n, d_k], scores/scaled/weights [h, T, n], context
[T, h·d_k], the heads side by side before W_O), and ``stages`` holds every layer of all three
kinds. Either way ``attention_trace(kind, layer)`` gives an ``explorer.core.trace.AttentionTrace``,
so the window's stage panels and ``explorer.core.worked.work_cell`` apply unchanged.
``alignment`` [T, n] is what the matrix and line views draw (``alignment_note`` says which).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from explorer.atomic import atomic_write, save_json_or_npz
from explorer.core.trace import STAGE_ARRAYS, AttentionTrace
from explorer.finite import require_finite, strict_json
from explorer.seq2seq.alignment import spelled_alignment_score
from explorer.seq2seq.dates import DateExample
from explorer.web import AttentionSet, DrawsItself, Page

TRANSLATION_FORMAT_VERSION = 1
STEP_ARRAYS = ("alignment", "scores", "scaled", "weights", "queries", "keys", "values", "context")
COMPUTED_ORDER = ("keys", "values", "queries", "scores", "scaled", "weights", "context", "alignment")


@dataclass
class StepStages:
    """One GRU output step, for the worked-arithmetic panel."""

    step: int
    output_token: str
    query: np.ndarray  # [d]
    scores: np.ndarray  # [n]
    scaled: np.ndarray  # [n]
    weights: np.ndarray  # [n]
    context: np.ndarray  # [d]


@dataclass(repr=False)
class TranslationTrace(DrawsItself):
    model: str  # bahdanau / luong / transformer
    scoring: str  # additive / general / dot / scaled-dot
    attention: str  # soft / hard / sample
    seed: int
    checkpoint: str  # which weights: "shipped bahdanau-additive", a folder, "training step 40"
    source: str
    source_tokens: list[str]  # one per character; <unk> for characters never trained on
    output_tokens: list[str]
    alignment: np.ndarray  # [T, n]
    alignment_note: str
    scores: np.ndarray
    scaled: np.ndarray
    weights: np.ndarray
    queries: np.ndarray
    keys: np.ndarray
    values: np.ndarray
    context: np.ndarray
    scale_divisor: float
    scoring_params: dict[str, np.ndarray] = field(default_factory=dict)
    stages: dict[str, list[AttentionTrace]] = field(default_factory=dict)  # kind → one per layer
    example: DateExample | None = None  # the source read back as a generated date, if it is one
    alignment_score: float | None = None
    alignment_hits: list[bool] = field(default_factory=list)  # per output digit
    notices: list[str] = field(default_factory=list)
    unknown_characters: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Every number the tab draws and the files hold is finite (the checkpoint's weights
        # were checked on loading; what fails here overflowed), in the order computed.
        require_finite((name, getattr(self, name)) for name in COMPUTED_ORDER)

    @property
    def output(self) -> str:
        return "".join(self.output_tokens)

    @property
    def expected(self) -> str | None:
        return self.example.target if self.example else None

    @property
    def source_fields(self) -> list[str | None] | None:
        """Per source character its field (year/month/day/None), when the source is a known date."""
        return self.example.source_fields if self.example else None

    @property
    def spelled_alignment_score(self) -> float | None:
        """The alignment score over the digits a source character spells (the padded digits of
        ``example.padded_steps`` left out): a second figure beside ``alignment_score``."""
        if self.alignment_score is None or self.example is None:
            return None
        return spelled_alignment_score(self.alignment, self.example)

    @property
    def is_gru(self) -> bool:
        return self.model != "transformer"

    def step(self, i: int) -> StepStages:
        if not self.is_gru:
            raise ValueError("step() is for the GRU models; use attention_trace('cross', layer)")
        return StepStages(
            i,
            self.output_tokens[i],
            self.queries[i],
            self.scores[i],
            self.scaled[i],
            self.weights[i],
            self.context[i],
        )

    def attention_trace(self, kind: str = "cross", layer: int = -1) -> AttentionTrace:
        """explorer.core's view of one attention: every stage, for panels and worked arithmetic."""
        if kind not in self.stages:
            raise ValueError(f"no {kind!r} attention in a {self.model} model ({', '.join(self.stages)})")
        return self.stages[kind][layer]

    def __repr__(self) -> str:
        return (
            f"<TranslationTrace: {self.source!r} → {self.output!r}, {self.model}-{self.scoring}, "
            f"{self.attention} attention>"
        )

    # -- the view (explorer.web): to_html() and a notebook cell's view come with DrawsItself -----
    def page(self, head: int = 0) -> Page:
        """What the interactive view shows (explorer.web.Page), opening on ``head``."""
        return translation_page(self, head)

    # -- files ---------------------------------------------------------------------------
    def meta(self) -> dict:
        return {
            "format_version": TRANSLATION_FORMAT_VERSION,
            "model": self.model,
            "scoring": self.scoring,
            "attention": self.attention,
            "seed": self.seed,
            "checkpoint": self.checkpoint,
            "source": self.source,
            "source_tokens": self.source_tokens,
            "output_tokens": self.output_tokens,
            "output": self.output,
            "expected": self.expected,
            "source_format": self.example.format if self.example else None,
            "source_fields": self.source_fields,
            "alignment_note": self.alignment_note,
            "alignment_score": self.alignment_score,
            "alignment_hits": self.alignment_hits,
            "padded_digits": list(self.example.padded_steps) if self.example else [],
            "spelled_alignment_score": self.spelled_alignment_score,
            "scale_divisor": self.scale_divisor,
            "notices": self.notices,
            "unknown_characters": self.unknown_characters,
            "timings_ms": self.timings_ms,
        }

    def _layer_arrays(self) -> dict[str, np.ndarray]:
        """Transformer stages as flat names: ``encoder_self.0.weights`` (kind.layer.stage)."""
        if self.is_gru:
            return {}
        return {
            f"{kind}.{layer}.{name}": getattr(trace, name)
            for kind, traces in self.stages.items()
            for layer, trace in enumerate(traces)
            for name in STAGE_ARRAYS
        }

    def to_dict(self) -> dict:
        data = self.meta()
        for name in STEP_ARRAYS:
            data[name] = getattr(self, name).tolist()
        data["scoring_params"] = {k: v.tolist() for k, v in self.scoring_params.items()}
        if not self.is_gru:
            data["layers"] = [
                {kind: {name: getattr(traces[layer], name).tolist() for name in STAGE_ARRAYS}
                 for kind, traces in self.stages.items()}
                for layer in range(len(self.stages["cross"]))
            ]  # fmt: skip
        return data

    def to_json(self, path: str | Path) -> None:
        text = strict_json(self.to_dict(), Path(path).name, ensure_ascii=False)
        atomic_write(Path(path), lambda f: f.write(text), "w")

    def to_npz(self, path: str | Path) -> None:
        arrays = {name: getattr(self, name) for name in STEP_ARRAYS}
        arrays.update({f"param_{k}": v for k, v in self.scoring_params.items()})
        arrays.update(self._layer_arrays())
        arrays["meta_json"] = np.array(strict_json(self.meta(), "meta_json", ensure_ascii=False))  # no pickle
        atomic_write(Path(path), lambda f: np.savez_compressed(f, **arrays), "wb")

    def save(self, path: str | Path) -> None:
        save_json_or_npz(path, self.to_json, self.to_npz)


# -- the interactive view ------------------------------------------------------------------
ORDER = ("cross", "decoder_self", "encoder_self")  # what the page opens on first


def translation_page(trace: TranslationTrace, head: int = 0) -> Page:
    """GRU models: one attention (the decoder's, [output, source]). The Transformer: all three
    of every layer and head (cross, decoder self, encoder self), switchable on the page."""
    if trace.is_gru:
        sets = [
            AttentionSet(
                "cross", trace.output_tokens, trace.source_tokens, np.asarray(trace.weights)[None, None], [0]
            )
        ]
    else:
        sets = []
        for kind in sorted(trace.stages, key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER)):
            layers = trace.stages[kind]
            sets.append(
                AttentionSet(
                    kind,
                    layers[0].tokens_query,
                    layers[0].tokens_key,
                    np.stack([layer.weights for layer in layers]),
                    list(range(len(layers))),
                )
            )
    settings = [
        ("model", trace.model),
        ("scoring", trace.scoring),
        ("attention_kind", trace.attention),
        ("checkpoint", trace.checkpoint),
        ("output", trace.output),
    ]
    if trace.expected is not None:
        settings.append(("expected", trace.expected))
    if trace.alignment_score is not None:
        settings.append(("alignment_score", f"{trace.alignment_score:.2f}"))
    if trace.attention == "sample":
        settings.append(("seed", str(trace.seed)))
    return Page(
        kind="translation",
        title=f"{trace.source} → {trace.output}",
        attentions=sets,
        settings=settings,
        notices=list(trace.notices),
        layer=sets[0].layers[-1],  # the last layer: the one the alignment is read from
        head=head,
    )
