"""The AttentionTrace: every stage of one computation as numpy arrays, plus its story.

This is what the window draws and what ``trace`` writes; nothing downstream computes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from explorer.atomic import atomic_write
from explorer.core import trace_files
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.head_measures import previous_token_score, self_share, text_induction_score
from explorer.core.trace_files import Entry
from explorer.finite import require_finite, require_finite_fields, require_half_range
from explorer.messages import Message
from explorer.web import AttentionSet, DrawsItself, Page

# Array stages, in the order of the lesson; JSON keys and NPZ names alike.
STAGE_ARRAYS = (
    "X_query",
    "X_key",
    "Q",
    "K",
    "V",
    "scores",
    "scaled",
    "mask",
    "weights",
    "head_outputs",
    "concat",
    "output",
    "entropy",
)
# A rotary decoder's stages beyond those: Q and K after the rotation, and the angle of every
# position and pair of dimensions. Other traces hold None there (and never write them).
ROTARY_STAGES = ("Q_rotated", "K_rotated", "rope_angles")
ALL_STAGES = (*STAGE_ARRAYS[:5], *ROTARY_STAGES, *STAGE_ARRAYS[5:])
# Arrays with one entry per head first; ``--only-heads`` keeps some of them.
PER_HEAD_STAGES = frozenset(
    {"Q", "K", "V", "Q_rotated", "K_rotated", "scores", "scaled", "weights", "head_outputs", "entropy"}
)
TRACE_DTYPES = ("float32", "float16")
TRACE_FORMAT_VERSION = 3  # 3: decoders (rotation, shared K/V heads, next tokens, generation, ablation)


@dataclass(frozen=True)
class TraceSelection:
    """Which arrays a trace file holds, and in what precision. Metadata is always written."""

    stages: tuple[str, ...] = ALL_STAGES  # those a trace lacks (a decoder's rotation) are skipped
    heads: tuple[int, ...] | None = None  # None: every head
    dtype: str = "float32"  # floating arrays; the mask stays bool
    projections: bool = False  # W_Q, W_K, W_V, W_O and biases, sliced per head

    def __post_init__(self) -> None:
        unknown = [s for s in self.stages if s not in ALL_STAGES]
        if unknown or not self.stages:
            stages = ", ".join(ALL_STAGES)
            if unknown:
                raise ConfigError.of("trace.stage_unknown", stage=unknown[0], stages=stages)
            raise ConfigError.of("trace.stage_none", stages=stages)
        if self.dtype not in TRACE_DTYPES:
            raise ConfigError.of("trace.dtype", value=self.dtype, choices=", ".join(TRACE_DTYPES))
        # Lesson order, each stage once, whatever order they were asked in.
        object.__setattr__(self, "stages", tuple(s for s in ALL_STAGES if s in self.stages))
        if self.heads is not None:
            if not self.heads or any(not isinstance(h, int) or h < 0 for h in self.heads):
                raise ConfigError.of("trace.head_numbers", heads=list(self.heads))
            object.__setattr__(self, "heads", tuple(sorted(set(self.heads))))

    @classmethod
    def parse(
        cls, stages: str | None, heads: str | None, dtype: str = "float32", projections: bool = False
    ) -> TraceSelection:
        """From the command line's comma-separated lists (None: everything)."""
        names = ALL_STAGES if stages is None else tuple(s.strip() for s in stages.split(",") if s.strip())
        numbers = None
        if heads is not None:
            if not re.fullmatch(r"\s*\d+\s*(,\s*\d+\s*)*", heads):
                raise ConfigError.of("trace.heads_to_write", text=heads)
            numbers = tuple(int(h) for h in heads.split(","))
        return cls(names, numbers, dtype, projections)

    def heads_of(self, head_count: int) -> list[int]:
        """The heads to write, checked against the trace's head count."""
        if self.heads is None:
            return list(range(head_count))
        missing = [h for h in self.heads if h >= head_count]
        if missing:
            raise ConfigError.of("trace.head_missing", head=missing[0], count=head_count, last=head_count - 1)
        return list(self.heads)


@dataclass(repr=False)
class AttentionTrace(DrawsItself):
    config: AttentionConfig
    tokens_query: list[str]
    tokens_key: list[str]
    X_query: np.ndarray  # [n_q, d_model]
    X_key: np.ndarray  # [n_k, d_model]
    Q: np.ndarray  # [h, n_q, d_k]
    K: np.ndarray  # [h, n_k, d_k]
    V: np.ndarray  # [h, n_k, d_v]
    scores: np.ndarray  # [h, n_q, n_k] before scaling and masking
    scaled: np.ndarray  # [h, n_q, n_k] before masking
    mask: np.ndarray  # [n_q, n_k] bool, True where the query may attend
    weights: np.ndarray  # [h, n_q, n_k]
    head_outputs: np.ndarray  # [h, n_q, d_v]
    concat: np.ndarray  # [n_q, h * d_v]
    output: np.ndarray  # [n_q, d_model]
    entropy: np.ndarray  # [h, n_q] nats
    heads: int
    d_k: int
    scale_divisor: float
    device: str
    weights_source: str  # what was used: pretrained / random / identity
    model_name: str | None = None
    layer: int | None = None
    scoring_params: dict[str, np.ndarray] = field(default_factory=dict)
    untrained: list[str] = field(default_factory=list)  # parameters that are seeded, not learned
    # Fallbacks, truncation, [UNK], regrouping: explorer.messages.Message, English text with a key.
    notices: list[Message] = field(default_factory=list)
    unk_count: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)
    # the tokens' ids in the model's vocabulary (pretrained weights; empty otherwise)
    token_ids_query: list[int] = field(default_factory=list)
    token_ids_key: list[int] = field(default_factory=list)
    # nn.Linear weights [out, in] and biases [out] on the CPU: w_q, b_q, … w_o, b_o.
    projections: dict[str, np.ndarray] = field(default_factory=dict)
    numerics: dict[str, Any] = field(default_factory=dict)  # precision, versions, device name
    # Each head's mean weight on the first key (the attention sink), over the rows that could
    # choose (a causal row 0 sees only key 0 and is left out).
    first_token_share: list[float] = field(default_factory=list)
    model_family: str | None = None  # "BERT", "GPT-2", "Llama", …
    causal: bool = False  # the model was trained with a causal mask (its own mask, "model")
    pieces_query: list[str] = field(default_factory=list)  # the vocabulary's spelling ("Ġthe")
    pieces_key: list[str] = field(default_factory=list)
    # -- a decoder's layer --------------------------------------------------------------------
    Q_rotated: np.ndarray | None = None  # [h, n, d_k] Q after the rotation (rotary decoders)
    K_rotated: np.ndarray | None = None  # [h, n, d_k] K after the rotation, as each query head reads it
    rope_angles: np.ndarray | None = None  # [n, d_k/2] angle p·ω_i of position p, pair (i, i + d_k/2)
    rope: dict[str, Any] | None = None  # the rotation's kind, θ, scaling, formula
    positions: str | None = None  # "rotary" or "learned" (GPT-2)
    kv_heads: int | None = None  # K/V heads (grouped-query attention: fewer than heads)
    kv_head_of: list[int] = field(default_factory=list)  # the K/V head each query head reads
    sliding_window: int | None = None  # this layer's window of keys, None: every key before
    first_token_share_by_layer: list[list[float]] = field(default_factory=list)  # [layers][heads]
    next_tokens: list[list[dict[str, Any]]] | None = None  # per position: [{"id", "token", "probability"}]
    generation: dict[str, Any] | None = None  # tokens written after the text, with their attention
    ablation: dict[str, Any] | None = None  # heads turned off and what changed
    # Every layer's weights [layers, heads, n_q, n_k] when asked for (explorer.trace's
    # all_layers, trace --html): the page and the notebook view switch layers with them.
    # Not a stage: save() writes the trace's own layer, as ever.
    layer_weights: np.ndarray | None = None

    def __repr__(self) -> str:
        source = self.model_name or f"{self.weights_source} weights"
        layer = "" if self.layer is None else f", layer {self.layer}"
        layers = 0 if self.layer_weights is None else len(self.layer_weights)
        every = f" (of {layers} layers)" if layers > 1 else ""
        return (
            f"<AttentionTrace: {self.heads} heads, {self.n_query}×{self.n_key} tokens, "
            f"{source}{layer}{every}, on {self.device}>"
        )

    # -- the view (explorer.web): to_html() and a notebook cell's view come with DrawsItself -----
    def page(self, head: int = 0) -> Page:
        """What the interactive view shows (explorer.web.Page), opening on ``head``."""
        return attention_page(self, head)

    def __post_init__(self) -> None:
        # Here every trace is made (the engine, the board, the labs' attention): one that
        # overflowed is refused before anyone draws or writes it, naming where it began.
        require_finite((name, getattr(self, name)) for name in STAGE_ARRAYS)

    @property
    def n_query(self) -> int:
        return len(self.tokens_query)

    @property
    def n_key(self) -> int:
        return len(self.tokens_key)

    @property
    def compute_ms(self) -> float:
        return self.timings_ms.get("total", 0.0)

    @property
    def self_share(self) -> np.ndarray | None:
        """[heads]: the mean weight a token keeps on itself (the diagonal; head_measures.self_share),
        or None when the queries are another text's tokens and no key is the query itself."""
        if not self.config.is_self_attention or self.n_query != self.n_key:
            return None
        return self_share(self.weights)

    @property
    def previous_token_score(self) -> np.ndarray | None:
        """[heads]: the mean weight from each token on the one before it (a previous-token
        head's mark), or None where the keys are not the queries' own tokens."""
        if not self.config.is_self_attention or self.n_query != self.n_key or self.n_query < 2:
            return None
        return previous_token_score(self.weights)

    @property
    def induction(self) -> tuple[np.ndarray, int] | None:
        """([heads] induction scores, period) when the text repeats itself (head_measures.
        repeat_period: the weight on the token after the previous occurrence), else None."""
        if not self.config.is_self_attention or self.n_query != self.n_key:
            return None
        return text_induction_score(self.weights, self.token_ids_query or self.tokens_query)

    def meta(self, selection: TraceSelection | None = None) -> dict[str, Any]:
        """Everything but the arrays; with a selection, also what the file holds."""
        data = {
            "format_version": TRACE_FORMAT_VERSION,
            "config": self.config.to_dict(),
            "device": self.device,
            "tokens_query": self.tokens_query,
            "tokens_key": self.tokens_key,
            "heads": self.heads,
            "d_k": self.d_k,
            "scale_divisor": self.scale_divisor,
            "weights_source": self.weights_source,
            "model_name": self.model_name,
            "layer": self.layer,
            "untrained": self.untrained,
            "notices": self.notices,
            "unk_count": self.unk_count,
            "compute_ms": self.compute_ms,
            "timings_ms": self.timings_ms,
            "numerics": self.numerics,
            "model_family": self.model_family,
            "causal": self.causal,
            "pieces_query": self.pieces_query,
            "pieces_key": self.pieces_key,
            "first_token_share": self.first_token_share,
        }
        shares = self.self_share
        written = range(self.heads) if selection is None else selection.heads_of(self.heads)
        data["self_share"] = None if shares is None else [float(shares[h]) for h in written]
        if self.kv_head_of:  # a decoder's layer
            data.update(
                positions=self.positions,
                rope=self.rope,
                kv_heads=self.kv_heads,
                kv_head_of=self.kv_head_of,
                sliding_window=self.sliding_window,
                first_token_share_by_layer=self.first_token_share_by_layer,
            )
        for name in ("next_tokens", "generation", "ablation"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if selection is not None:
            data["stages_written"] = [s for s in selection.stages if getattr(self, s) is not None]
            data["heads_written"] = selection.heads_of(self.heads)
            data["dtype"] = selection.dtype
            if selection.projections:
                data["projections"] = {
                    "layout": PROJECTION_LAYOUT,
                    "absent_biases": [b for b in ("b_q", "b_k", "b_v", "b_o") if b not in self.projections],
                }
        return data

    def save(self, path: str | Path, selection: TraceSelection | None = None) -> None:
        """Write the selected arrays (default: every stage) to FILE.json or FILE.npz."""
        suffix = Path(path).suffix.lower()
        if suffix not in (".json", ".npz"):
            raise ConfigError.of("trace.file_suffix", path=path)
        if not Path(path).expanduser().parent.exists():  # never folders nobody asked for, as the command
            raise ConfigError.of("files.no_folder", folder=Path(path).expanduser().parent)
        self._write(Path(path), suffix[1:], selection or TraceSelection())

    def to_json(self, path: str | Path, selection: TraceSelection | None = None) -> None:
        self._write(Path(path), "json", selection or TraceSelection())

    def to_npz(self, path: str | Path, selection: TraceSelection | None = None) -> None:
        self._write(Path(path), "npz", selection or TraceSelection())

    def _write(self, path: Path, fmt: str, selection: TraceSelection) -> None:
        selection.heads_of(self.heads)  # an impossible head fails before any byte is written
        write = trace_files.write_json if fmt == "json" else trace_files.write_npz
        entries = [(e.name, part) for e in self.file_entries(selection) for part in e.parts]
        require_finite(entries)  # named by its stage, before the metadata derived from it
        if selection.dtype == "float16":  # refused before a byte is written, not written as inf
            require_half_range(entries)
        meta = self.meta(selection)
        require_finite_fields(meta)  # the next tokens, the shares: named by their field
        atomic_write(path, lambda f: write(f, meta, self.file_entries(selection), selection.dtype), "wb")

    def file_entries(self, selection: TraceSelection) -> Iterator[Entry]:
        """The arrays the selection asks for, in the file's order (views, not copies)."""
        heads = selection.heads_of(self.heads)
        every_head = heads == list(range(self.heads))

        def entry(name: str, array: np.ndarray, per_head: bool) -> Entry:
            if per_head and not every_head:
                return Entry(name, [array[h] for h in heads], True)
            return Entry(name, [array], False)

        for name in selection.stages:
            array = getattr(self, name)
            if array is not None:  # a decoder's rotation: absent from other traces
                yield entry(name, array, name in PER_HEAD_STAGES)
        if selection.projections:
            for name, array in self.projection_slices(heads).items():
                yield Entry(name, [array], False)
        for name, array in self.scoring_params.items():  # [heads, …], seeded per head
            yield entry(f"param_{name}", array, True)

    def projection_slices(self, heads: list[int]) -> dict[str, np.ndarray]:
        """W_Q … b_O per head, so that for head h (see PROJECTION_LAYOUT)
        Q[h] = X_query · W_Q[h]ᵀ + b_Q[h] and output = Σ_h head_outputs[h] · W_O[h]ᵀ + b_O."""
        d_k, p = self.d_k, self.projections
        if "w_q" not in p:
            raise ConfigError.of("trace.no_projections")

        def rows(h: int) -> slice:  # head h's rows of W_q (and W_O's columns); a K/V head's of W_k, W_v
            return slice(h * d_k, (h + 1) * d_k)

        # Grouped-query attention: query head h reads the K/V rows of its K/V head.
        kv = self.kv_head_of or list(range(self.heads))
        out = {}
        for name in ("q", "k", "v"):
            weight = p[f"w_{name}"]
            bias = p.get(f"b_{name}", np.zeros(weight.shape[0], dtype=weight.dtype))
            owner = list(range(self.heads)) if name == "q" else kv  # whose rows head h reads
            out[f"W_{name.upper()}"] = np.stack(
                [weight[rows(owner[h])] for h in heads]
            )  # [heads, d_k, d_model]
            out[f"b_{name.upper()}"] = np.stack([bias[rows(owner[h])] for h in heads])  # [heads, d_k]
        out["W_O"] = np.stack([p["w_o"][:, rows(h)] for h in heads])  # [heads, d_model, d_k]
        out["b_O"] = np.array(p.get("b_o", np.zeros(p["w_o"].shape[0], dtype=p["w_o"].dtype)))  # [d_model]
        return out


# -- the interactive view ------------------------------------------------------------------
def page_settings(trace: AttentionTrace) -> list[tuple[str, str]]:
    """The model and options, named on the page (values as the command line writes them)."""
    c = trace.config
    model = trace.model_name or f"{trace.weights_source}, d_model {trace.X_key.shape[-1]}"
    scale = f"temperature {c.temperature:g}" if c.scale == "temperature" else c.scale
    rows = [
        ("model", model),
        ("weights", trace.weights_source),
        ("heads", f"{trace.heads} × d_k {trace.d_k}"),
        ("scoring", c.scoring),
        ("scale", scale),
        ("attention_kind", c.attention),
        ("mask", c.mask),
    ]
    if trace.weights_source != "pretrained" or c.attention == "sample" or trace.untrained:
        rows.append(("seed", str(c.seed)))
    rows.append(("device", trace.device))
    if not c.is_self_attention:
        rows.append(("query", c.query))
    return rows


def attention_page(trace: AttentionTrace, head: int = 0) -> Page:
    """An AttentionTrace as the interactive view's page: tokens, every layer and head, the settings."""
    every = trace.layer_weights
    if every is not None and len(every) > 1:
        weights, layers = every, list(range(len(every)))
    else:  # one layer: the trace's own (random and identity weights have no layer number)
        weights = trace.weights[None] if every is None else every
        layers = [trace.layer if trace.layer is not None else trace.config.layer]
    title = (
        trace.config.sentence
        if trace.config.is_self_attention
        else f"{trace.config.query} → {trace.config.sentence}"
    )
    return Page(
        kind="attention",
        title=title,
        attentions=[
            AttentionSet(
                "attention" if trace.config.is_self_attention else "query_attention",
                trace.tokens_query,
                trace.tokens_key,
                np.asarray(weights),
                layers,
            )
        ],
        settings=page_settings(trace),
        notices=list(trace.notices),
        layer=layers[0] if trace.layer is None else trace.layer,
        head=head,
    )


PROJECTION_LAYOUT = (
    "nn.Linear convention, weight [out, in]. Head h owns rows h*d_k ... (h+1)*d_k - 1 of W_q, W_k, W_v "
    "and columns h*d_k ... (h+1)*d_k - 1 of W_O. W_Q[i] = W_q[rows of head heads_written[i]] "
    "[d_k, d_model] and b_Q[i] its bias slice, so Q[i] = X_query @ W_Q[i].T + b_Q[i] (K and V from "
    "X_key alike); W_O[i] = W_O[:, columns of that head] [d_model, d_k], and with every head written "
    "output = sum_i head_outputs[i] @ W_O[i].T + b_O. Absent biases are written as zeros. A decoder "
    "with grouped-query attention: W_K[i] and W_V[i] are the rows of K/V head kv_head_of[i]; with "
    "rotary positions, Q_rotated and K_rotated turn Q and K by rope_angles (see rope.formula)."
)
