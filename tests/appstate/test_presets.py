"""The presets compute, read Chinese without [UNK], and say what the real model shows.

Every number a preset's description quotes is recomputed here with the engine (rounded as the
description rounds it), so a description cannot drift from what the window shows.
"""

import re

import pytest

from explorer.appstate.presets import DEFAULT_PRESET, PRESETS, Preset
from explorer.core.config import AttentionConfig

CJK = re.compile(r"[\u4e00-\u9fff]")


def by_name(name: str) -> Preset:
    return next(p for p in PRESETS if p.name == name)


def is_chinese(preset: Preset) -> bool:
    texts = (preset.changes.get("sentence", ""), preset.changes.get("query", ""))
    return any(CJK.search(text) for text in texts)


@pytest.fixture(scope="module")
def traces(engine):
    """Every preset's trace on the CPU, computed once."""
    return {p.name: engine.trace(p.config().with_(device="cpu")) for p in PRESETS}


def test_every_preset_computes(traces):
    for preset in PRESETS:
        trace = traces[preset.name]
        assert trace.weights.size and trace.weights.shape[0] == trace.heads, preset.name
        if preset.head is not None:
            assert preset.head < trace.heads, preset.name
        if preset.cell is not None:
            assert preset.cell[0] < trace.n_query and preset.cell[1] < trace.n_key, preset.name
    assert len({p.name for p in PRESETS}) == len(PRESETS)


def test_chinese_presets_read_every_character(traces):
    chinese = [p for p in PRESETS if is_chinese(p)]
    assert len(chinese) >= 5
    for preset in chinese:
        if preset.changes.get("model") == "minilm":  # the one contrast: it is about [UNK]
            assert "[UNK]" in preset.description
            assert traces[preset.name].unk_count > 0
            continue
        assert preset.changes.get("model") == "multilingual", preset.name
        assert traces[preset.name].unk_count == 0, preset.name
        assert traces[preset.name].model_name == "multilingual-e5-small"


def test_the_unk_contrast_quotes_its_counts(traces):
    preset = by_name("Chinese on the English model (watch the [UNK] notice)")
    trace = traces[preset.name]
    assert f"{trace.unk_count} of the {trace.n_key} tokens" in preset.description
    twin = by_name("Chinese on the multilingual model: the verb finds its object")
    assert twin.changes["sentence"] == preset.changes["sentence"]  # the same sentence, read


def test_each_selected_cell_is_its_rows_strongest_and_quoted(traces):
    """The cell a preset opens with is where its row puts the most weight, at the value quoted."""
    measured = [p for p in PRESETS if p.head is not None and p.cell is not None]
    assert len(measured) >= 7
    for preset in measured:
        trace = traces[preset.name]
        i, j = preset.cell
        row = trace.weights[preset.head, i]
        assert row.argmax() == j, (preset.name, trace.tokens_key[row.argmax()])
        assert f"{row[j]:.2f}" in preset.description, (preset.name, float(row[j]))


# Further weights the descriptions quote: (query token, key token, which key occurrence).
QUOTED = {
    "Translation: English query over French": [
        ("␣visit", "␣visite", 0, "0.75"),
        ("␣September", "␣Septem", 0, "0.44"),
    ],
    "Chinese on the multilingual model: the verb finds its object": [("处理", "信息", 0, "0.17")],
    "Who is 它? (a pronoun refers back)": [("是", "机制", 0, None), ("的一种", "机制", 0, None)],
    "Shopping search in Chinese: 男鞋": [
        ("男", "男", 1, "0.18"),
        ("鞋", "鞋", 0, "0.28"),
        ("鞋", "鞋", 1, "0.21"),
    ],
}


def test_the_other_quoted_weights(traces):
    for name, claims in QUOTED.items():
        preset = by_name(name)
        trace = traces[name]
        weights = trace.weights[preset.head]
        for query, key, occurrence, quoted in claims:
            i = trace.tokens_query.index(query)
            j = [k for k, token in enumerate(trace.tokens_key) if token == key][occurrence]
            if quoted is None:  # "looks there too": the same key is that row's strongest
                assert weights[i].argmax() == j, (name, query)
            else:
                assert f"{weights[i, j]:.2f}" == quoted, (name, query, key, float(weights[i, j]))
    # the shopping query: the dress, the bag and the knives get almost nothing
    shop = traces["Shopping search in Chinese: 男鞋"]
    row = shop.weights[8, shop.tokens_query.index("鞋")]
    for item in ("裙", "包", "刀"):
        assert row[shop.tokens_key.index(item)] < 0.05


def test_the_translation_head_follows_words_not_positions(engine):
    """Reordered English: the partners the description names are still each row's strongest."""
    preset = by_name("Translation: English query over French")
    trace = engine.trace(preset.config().with_(query="In September Jane visits Africa", device="cpu"))
    weights = trace.weights[preset.head]
    for query, key in (("␣visit", "␣visite"), ("␣Africa", "Afrique"), ("␣September", "␣Septem")):
        assert weights[trace.tokens_query.index(query)].argmax() == trace.tokens_key.index(key)


def test_the_it_preset_quotes_minilm(traces):
    preset = DEFAULT_PRESET
    trace = traces[preset.name]
    assert trace.model_name == "all-MiniLM-L6-v2"
    street = trace.tokens_key.index("street")
    assert f"{trace.weights[preset.head, preset.cell[0], street]:.2f}" in preset.description


def test_a_preset_that_names_a_model_leaves_the_folder_in_use():
    base = AttentionConfig(model_dir="/some/folder", device="cpu")
    named = by_name("Who is 它? (a pronoun refers back)")
    assert named.config(base).model == "multilingual" and named.config(base).model_dir is None
    assert named.config(base).device == "cpu"
    generic = by_name("Thinking Machines (self-attention)")
    assert generic.config(base).model_dir == "/some/folder"  # other presets keep the user's model
