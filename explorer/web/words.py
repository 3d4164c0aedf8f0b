"""The page's own words, English and Simplified Chinese.

Each word once, marked for ``pyside6-lupdate`` (context ``WebPage``), so the page is translated in
the same catalogue as the window (resources/translations/explorer_zh_CN.ts); the keys are what
view.js asks for. A word with ``{name}`` is filled in by the page.
"""

from __future__ import annotations

from types import MappingProxyType

from explorer.words import QT_TRANSLATE_NOOP

CONTEXT = "WebPage"

WORDS = MappingProxyType(
    {
        "app": QT_TRANSLATE_NOOP("WebPage", "Attention Explorer"),
        "layer": QT_TRANSLATE_NOOP("WebPage", "Layer"),
        "head": QT_TRANSLATE_NOOP("WebPage", "Head"),
        "which": QT_TRANSLATE_NOOP("WebPage", "Attention"),
        "heads_title": QT_TRANSLATE_NOOP("WebPage", "Every head of this layer"),
        "lines_title": QT_TRANSLATE_NOOP("WebPage", "Lines: each query token to the keys it attends to"),
        "heatmap_title": QT_TRANSLATE_NOOP("WebPage", "Heatmap: rows are queries, columns are keys"),
        "row_title": QT_TRANSLATE_NOOP("WebPage", "Where the selected query looks"),
        "hint": QT_TRANSLATE_NOOP(
            "WebPage", "Hover a cell or a token for its weight; click a query token to keep it selected."
        ),
        "row_none": QT_TRANSLATE_NOOP("WebPage", "No query selected: hover or click a token on the left."),
        "readout": QT_TRANSLATE_NOOP("WebPage", "“{query}” → “{key}”: {value}"),
        "where": QT_TRANSLATE_NOOP("WebPage", "layer {layer}, head {head}"),
        "more_keys": QT_TRANSLATE_NOOP("WebPage", "and {count} more keys"),
        "needs_script": QT_TRANSLATE_NOOP(
            "WebPage",
            "This view draws itself with JavaScript. In a notebook, run the cell again (or trust the notebook) to see it.",
        ),
        # what the page shows
        "attention": QT_TRANSLATE_NOOP("WebPage", "Self-attention"),
        "cross": QT_TRANSLATE_NOOP("WebPage", "Cross-attention (decoder → source)"),
        "decoder_self": QT_TRANSLATE_NOOP("WebPage", "Decoder self-attention (causal)"),
        "encoder_self": QT_TRANSLATE_NOOP("WebPage", "Encoder self-attention"),
        "query_attention": QT_TRANSLATE_NOOP("WebPage", "Query attends over a sentence"),
        # the settings named on the page
        "model": QT_TRANSLATE_NOOP("WebPage", "Model"),
        "query": QT_TRANSLATE_NOOP("WebPage", "Query text"),
        "weights": QT_TRANSLATE_NOOP("WebPage", "Weights"),
        "heads": QT_TRANSLATE_NOOP("WebPage", "Heads"),
        "scoring": QT_TRANSLATE_NOOP("WebPage", "Scoring"),
        "scale": QT_TRANSLATE_NOOP("WebPage", "Scale"),
        "attention_kind": QT_TRANSLATE_NOOP("WebPage", "Softmax or hard"),
        "mask": QT_TRANSLATE_NOOP("WebPage", "Mask"),
        "seed": QT_TRANSLATE_NOOP("WebPage", "Seed"),
        "device": QT_TRANSLATE_NOOP("WebPage", "Device"),
        "checkpoint": QT_TRANSLATE_NOOP("WebPage", "Checkpoint"),
        "output": QT_TRANSLATE_NOOP("WebPage", "Output"),
        "expected": QT_TRANSLATE_NOOP("WebPage", "Expected"),
        "alignment_score": QT_TRANSLATE_NOOP("WebPage", "Alignment score"),
        # what the page says when it is smaller than the trace
        "quantised": QT_TRANSLATE_NOOP(
            "WebPage",
            "The weights are rounded to multiples of 1/255 (at most 0.002 off) to keep this page small: {values:,} numbers would take {megabytes:.1f} MB exactly.",
        ),
        "trimmed_layers": QT_TRANSLATE_NOOP(
            "WebPage",
            "{name}: only layers {kept} of the {total} layers are on this page (the others would make it too large).",
        ),
        "trimmed_heads": QT_TRANSLATE_NOOP(
            "WebPage",
            "{name}: only heads {kept} of the {total} heads are on this page (the others would make it too large).",
        ),
        "trimmed_queries": QT_TRANSLATE_NOOP(
            "WebPage",
            "{name}: only the first {kept} of the {total} query tokens are on this page (the others would make it too large).",
        ),
    }
)
