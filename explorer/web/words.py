"""The page's own words, English and Simplified Chinese.

Each word once, as a literal ``pyside6-lupdate`` reads (context ``WebPage``, the key as its
disambiguation), so the page is translated in the same catalogue as the window
(resources/translations/explorer_zh_CN.ts). A word with ``{name}`` is filled in by the page.
"""

from __future__ import annotations

from types import MappingProxyType

CONTEXT = "WebPage"


def QT_TRANSLATE_NOOP(context: str, text: str, key: str) -> tuple[str, str]:
    """Marks ``text`` for pyside6-lupdate (``key`` becomes its disambiguation); gives (key, text)."""
    if context != CONTEXT:
        raise ValueError(f"word {key!r}: context {context!r}, expected {CONTEXT!r}")
    return key, text


_ENTRIES = (
    QT_TRANSLATE_NOOP("WebPage", "Attention Explorer", "app"),
    QT_TRANSLATE_NOOP("WebPage", "Layer", "layer"),
    QT_TRANSLATE_NOOP("WebPage", "Head", "head"),
    QT_TRANSLATE_NOOP("WebPage", "Attention", "which"),
    QT_TRANSLATE_NOOP("WebPage", "Every head of this layer", "heads_title"),
    QT_TRANSLATE_NOOP("WebPage", "Lines: each query token to the keys it attends to", "lines_title"),
    QT_TRANSLATE_NOOP("WebPage", "Heatmap: rows are queries, columns are keys", "heatmap_title"),
    QT_TRANSLATE_NOOP("WebPage", "Where the selected query looks", "row_title"),
    QT_TRANSLATE_NOOP(
        "WebPage",
        "Hover a cell or a token for its weight; click a query token to keep it selected.",
        "hint",
    ),
    QT_TRANSLATE_NOOP("WebPage", "No query selected: hover or click a token on the left.", "row_none"),
    QT_TRANSLATE_NOOP("WebPage", "“{query}” → “{key}”: {value}", "readout"),
    QT_TRANSLATE_NOOP("WebPage", "layer {layer}, head {head}", "where"),
    QT_TRANSLATE_NOOP("WebPage", "and {count} more keys", "more_keys"),
    QT_TRANSLATE_NOOP(
        "WebPage",
        "This view draws itself with JavaScript. In a notebook, run the cell again (or trust the notebook) to see it.",
        "needs_script",
    ),
    # what the page shows
    QT_TRANSLATE_NOOP("WebPage", "Self-attention", "attention"),
    QT_TRANSLATE_NOOP("WebPage", "Cross-attention (decoder → source)", "cross"),
    QT_TRANSLATE_NOOP("WebPage", "Decoder self-attention (causal)", "decoder_self"),
    QT_TRANSLATE_NOOP("WebPage", "Encoder self-attention", "encoder_self"),
    QT_TRANSLATE_NOOP("WebPage", "Query attends over a sentence", "query_attention"),
    # the settings named on the page
    QT_TRANSLATE_NOOP("WebPage", "Model", "model"),
    QT_TRANSLATE_NOOP("WebPage", "Query text", "query"),
    QT_TRANSLATE_NOOP("WebPage", "Weights", "weights"),
    QT_TRANSLATE_NOOP("WebPage", "Heads", "heads"),
    QT_TRANSLATE_NOOP("WebPage", "Scoring", "scoring"),
    QT_TRANSLATE_NOOP("WebPage", "Scale", "scale"),
    QT_TRANSLATE_NOOP("WebPage", "Softmax or hard", "attention_kind"),
    QT_TRANSLATE_NOOP("WebPage", "Mask", "mask"),
    QT_TRANSLATE_NOOP("WebPage", "Seed", "seed"),
    QT_TRANSLATE_NOOP("WebPage", "Device", "device"),
    QT_TRANSLATE_NOOP("WebPage", "Checkpoint", "checkpoint"),
    QT_TRANSLATE_NOOP("WebPage", "Source", "source"),
    QT_TRANSLATE_NOOP("WebPage", "Output", "output"),
    QT_TRANSLATE_NOOP("WebPage", "Expected", "expected"),
    QT_TRANSLATE_NOOP("WebPage", "Alignment score", "alignment_score"),
    # what the page says when it is smaller than the trace
    QT_TRANSLATE_NOOP(
        "WebPage",
        "The weights are rounded to multiples of 1/255 (at most 0.002 off) to keep this page small: "
        "{values:,} numbers would take {megabytes:.1f} MB exactly.",
        "quantised",
    ),
    QT_TRANSLATE_NOOP(
        "WebPage",
        "{name}: only layers {kept} of the {total} layers are on this page (the others would make it too large).",
        "trimmed_layers",
    ),
    QT_TRANSLATE_NOOP(
        "WebPage",
        "{name}: only heads {kept} of the {total} heads are on this page (the others would make it too large).",
        "trimmed_heads",
    ),
    QT_TRANSLATE_NOOP(
        "WebPage",
        "{name}: only the first {kept} of the {total} query tokens are on this page (the others would make it too large).",
        "trimmed_queries",
    ),
)
WORDS = MappingProxyType(dict(_ENTRIES))
if len(WORDS) != len(_ENTRIES):
    raise ValueError("a page word is given twice")
