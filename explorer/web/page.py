"""What a page shows, and how it fits in a file a browser opens at once.

A ``Page`` holds one or more ``AttentionSet``s (an attention of a model: its tokens and the
weights of every layer and head) and the settings and notices to name on the page. It knows
nothing of traces: ``AttentionTrace.page()`` and ``TranslationTrace.page()`` build one.
``page_data`` turns it into the JSON the view reads, within a size budget:

- up to ``FLOAT_VALUES`` numbers, the weights are written exactly (float32, base64);
- up to ``BYTE_VALUES``, as bytes: rounded to multiples of 1/255, and the page says so;
- beyond, layers, then heads, then query rows are left out, nearest the opening ones kept,
  and the page says which.

Each set's arrays live under ``stages`` by name ("weights" today), each with its own encoding,
so a later stage (scores, a decoder's next-token probabilities) is one more entry.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from explorer.web.language import LANGUAGES, check_language, message_text, word, words
from explorer.web.messages import PageError

PAGE_FORMAT = 1
FLOAT_VALUES = 1 << 20  # 4 MiB of float32, 5.6 MB as base64
BYTE_VALUES = 6 << 20  # 6 MiB of bytes, 8.4 MB as base64


@dataclass(frozen=True)
class AttentionSet:
    """One attention of a model, every layer and head: what the view switches between."""

    name: str  # a page word: attention, query_attention, cross, decoder_self, encoder_self
    tokens_query: Sequence[str]
    tokens_key: Sequence[str]
    weights: np.ndarray  # [layers, heads, n_query, n_key]
    layers: Sequence[int]  # the model's number of each layer
    heads: Sequence[int] = ()  # the number of each head (default 0, 1, …)

    def __post_init__(self) -> None:
        w = np.asarray(self.weights)
        if w.ndim != 4 or w.shape[2:] != (len(self.tokens_query), len(self.tokens_key)):
            raise ValueError(
                f"{self.name}: weights {w.shape} do not match [layers, heads, "
                f"{len(self.tokens_query)}, {len(self.tokens_key)}]"
            )
        if len(self.layers) != w.shape[0]:
            raise ValueError(f"{self.name}: {len(self.layers)} layer numbers for {w.shape[0]} layers")
        if not self.heads:
            object.__setattr__(self, "heads", tuple(range(w.shape[1])))
        if len(self.heads) != w.shape[1]:
            raise ValueError(f"{self.name}: {len(self.heads)} head numbers for {w.shape[1]} heads")
        bad = int(w.size - np.count_nonzero(np.isfinite(w)))
        if bad:
            raise PageError.of("web.not_finite", name=self.name, count=bad)
        object.__setattr__(self, "weights", w)


@dataclass(frozen=True)
class Page:
    """Everything the view draws, in neither language yet."""

    kind: str  # attention / translation
    title: str  # the text the page is about
    attentions: Sequence[AttentionSet]
    settings: Sequence[tuple[str, str]] = ()  # (page word, value): the model and the options
    notices: Sequence[str] = ()  # the trace's notices; Messages are translated on the page
    layer: int | None = None  # the model's layer number to open on (None: the first)
    head: int = 0
    query: int | None = None  # a query token to open with selected
    extra: dict[str, Any] = field(default_factory=dict)  # more fields for later views, written as they are


# -- fitting the budget ---------------------------------------------------------------------


def _nearest(count: int, keep: int, around: int) -> list[int]:
    """``keep`` indices of ``range(count)`` nearest to ``around``, in order."""
    order = sorted(range(count), key=lambda i: (abs(i - around), i))
    return sorted(order[: max(1, keep)])


def _numbers(values: Sequence[int]) -> str:
    return ", ".join(map(str, values))


Cut = tuple[str, dict[str, Any]]  # a page word and its params


def fit(attention: AttentionSet, budget: int, layer: int | None, head: int) -> tuple[AttentionSet, list[Cut]]:
    """The set cut to at most ``budget`` numbers (layers, then heads, then query rows), and
    a note for each cut as (word, params)."""
    w, notes = attention.weights, list[Cut]()
    layers, heads, n_k = w.shape[0], w.shape[1], w.shape[3]
    per_layer = heads * w.shape[2] * n_k
    if w.size > budget and layers > 1:
        around = list(attention.layers).index(layer) if layer is not None and layer in attention.layers else 0
        keep = _nearest(layers, budget // per_layer, around)
        kept = [attention.layers[i] for i in keep]
        notes.append(("trimmed_layers", {"kept": _numbers(kept), "total": layers}))
        attention = replace(attention, weights=w[keep], layers=kept)
        w = attention.weights
    if w.size > budget and heads > 1:
        around = list(attention.heads).index(head) if head in attention.heads else 0
        keep = _nearest(heads, budget // (w.shape[0] * w.shape[2] * n_k), around)
        kept = [attention.heads[i] for i in keep]
        notes.append(("trimmed_heads", {"kept": _numbers(kept), "total": heads}))
        attention = replace(attention, weights=w[:, keep], heads=kept)
        w = attention.weights
    if w.size > budget:
        rows = max(1, budget // (w.shape[0] * w.shape[1] * n_k))
        notes.append(("trimmed_queries", {"kept": rows, "total": w.shape[2]}))
        attention = replace(
            attention, weights=w[:, :, :rows], tokens_query=list(attention.tokens_query)[:rows]
        )
    return attention, notes


def _encode(weights: np.ndarray, exact: bool) -> dict[str, Any]:
    if exact:
        data = np.ascontiguousarray(weights, dtype="<f4").tobytes()
        return {"encoding": "float32", "data": base64.b64encode(data).decode("ascii")}
    data = np.rint(np.clip(weights, 0.0, 1.0) * 255).astype(np.uint8).tobytes()
    return {
        "encoding": "uint8",
        "offset": 0.0,
        "scale": 1 / 255,
        "data": base64.b64encode(data).decode("ascii"),
    }


def page_data(page: Page, language: str = "en") -> dict[str, Any]:
    """The JSON object the view reads: both languages' words, the notes, every set encoded."""
    total = sum(a.weights.size for a in page.attentions)
    exact = total <= FLOAT_VALUES
    notes: list[dict[str, str]] = []
    if not exact:
        megabytes = total * 4 * 4 / 3 / 1e6  # float32 as base64
        notes.append({lang: word("quantised", lang, values=total, megabytes=megabytes) for lang in LANGUAGES})
    sets = []
    for attention in page.attentions:
        if total > BYTE_VALUES:
            budget = BYTE_VALUES * attention.weights.size // total
            attention, cuts = fit(attention, budget, page.layer, page.head)
            for key, params in cuts:
                notes.append(
                    {lang: word(key, lang, name=words(lang)[attention.name], **params) for lang in LANGUAGES}
                )
        sets.append(
            {
                "name": attention.name,
                "label": {lang: words(lang)[attention.name] for lang in LANGUAGES},
                "tokens_query": list(attention.tokens_query),
                "tokens_key": list(attention.tokens_key),
                "layers": [int(n) for n in attention.layers],
                "heads": [int(n) for n in attention.heads],
                "shape": list(attention.weights.shape),
                "stages": {"weights": _encode(attention.weights, exact)},
            }
        )
    return {
        "format": PAGE_FORMAT,
        "kind": page.kind,
        "title": page.title,
        "language": check_language(language),
        "languages": list(LANGUAGES),
        "words": {lang: words(lang) for lang in LANGUAGES},
        "settings": [
            {"label": {lang: words(lang)[key] for lang in LANGUAGES}, "value": value}
            for key, value in page.settings
        ],
        "notes": notes,
        "notices": [{lang: message_text(n, lang) for lang in LANGUAGES} for n in page.notices],
        "open": {"layer": page.layer, "head": page.head, "query": page.query},
        "attentions": sets,
        "extra": page.extra,
    }
