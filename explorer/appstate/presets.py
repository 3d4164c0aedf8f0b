"""Ready-made examples for the preset picker: data only, no Qt.

Each preset names the configuration fields it sets; every other field keeps the
defaults of ``AttentionConfig``. The classroom material can append to ``PRESETS``.
A preset whose description quotes a model's numbers names that model (``"model"``); the
others keep the model in use. The layer, head and cell of the multilingual presets were
chosen by measuring every layer and head (tests/appstate/test_presets.py checks the numbers
their descriptions quote).
Names and descriptions are English source strings marked with ``QT_TRANSLATE_NOOP`` so that
``pyside6-lupdate`` extracts them (context "Presets"); the window shows them through
``QCoreApplication.translate(PRESET_CONTEXT, text)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from explorer.appstate.bundled_decoders import REPEATED, TEXT, bundled_decoder
from explorer.core.config import AttentionConfig
from explorer.words import QT_TRANSLATE_NOOP

PRESET_CONTEXT = "Presets"


@dataclass(frozen=True)
class Preset:
    name: str
    description: str  # one line for the tooltip: what to look at
    changes: dict[str, Any] = field(default_factory=dict)
    head: int | None = None  # the head to open with (None: keep the current one)
    cell: tuple[int, int] | None = None  # the (query, key) cell to select, for the worked arithmetic

    def config(self, base: AttentionConfig | None = None) -> AttentionConfig:
        """The preset applied to the defaults (``base`` keeps weights, device and model folder)."""
        keep = {}
        if base is not None:
            keep = {"device": base.device, "model": base.model, "model_dir": base.model_dir}
            if "model" in self.changes:  # a named model, not the folder in use (model_dir wins)
                keep["model_dir"] = None
        return AttentionConfig(**{**keep, **self.changes})


PRESETS: list[Preset] = [
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Thinking Machines (self-attention)"),
        QT_TRANSLATE_NOOP(
            "Presets", "Two words attending to each other: the smallest example of the lesson."
        ),
        {"sentence": "Thinking Machines"},
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Who is 'it'? (the tired animal)"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Layer 5, head 11: the row of 'it' puts 0.65 of its weight on 'animal' and 0.02 on "
            "'street' (layer 3, head 1 does the same); other heads look elsewhere.",
        ),
        {
            "sentence": "The animal didn't cross the street because it was too tired",
            "layer": 5,
            "model": "minilm",
        },
        head=11,
        cell=(10, 2),
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Shopping search: red running shoes"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Soft addressing: the query's weights over the product names (keys) blend their "
            "items (values) into one answer.",
        ),
        {
            "query": "red running shoes",
            "sentence": "blue denim jacket, red trail running shoes, black leather boots, "
            "white tennis shoes, red wool scarf",
        },
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Translation: English query over French"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Multilingual model, layer 6, head 11: each English word finds its French partner "
            "(visits → visite 0.75, Africa → Afrique 0.38, September → Septem 0.44); reorder the "
            "English and the partners stay: the head follows the words, not their positions.",
        ),
        {
            "query": "Jane visits Africa in September",
            "sentence": "Jane visite l'Afrique en Septembre",
            "model": "multilingual",
            "layer": 6,
        },
        head=11,
        cell=(4, 5),
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Chinese on the English model (watch the [UNK] notice)"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "all-MiniLM-L6-v2 knows few Chinese characters: 16 of the 25 tokens of this lesson "
            "sentence become [UNK]. The next example reads it with the multilingual model.",
        ),
        {"sentence": "注意力机制其实是源自于人对于外部信息的处理能力", "model": "minilm"},
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Chinese on the multilingual model: the verb finds its object"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "The same sentence, 0 [UNK]. Layer 6, head 2: the verb 处理 looks at what it processes, "
            "外部 0.19 and 信息 0.17 (external information).",
        ),
        {"sentence": "注意力机制其实是源自于人对于外部信息的处理能力", "model": "multilingual", "layer": 6},
        head=2,
        cell=(13, 10),
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Causal mask (a decoder's view)"),
        QT_TRANSLATE_NOOP(
            "Presets", "Each token may only look at itself and earlier tokens: the upper triangle is hidden."
        ),
        {"sentence": "the model writes one word after another", "mask": "causal"},
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Hard attention: one key per query"),
        QT_TRANSLATE_NOOP(
            "Presets", "Hard attention keeps only the best key of every row (compare with soft)."
        ),
        {"sentence": "the cat sat on the warm mat near the door", "attention": "hard"},
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Sharp softmax: temperature 0.2"),
        QT_TRANSLATE_NOOP(
            "Presets", "A low temperature makes the softmax almost hard; raise τ to flatten it."
        ),
        {"sentence": "the cat sat on the warm mat near the door", "scale": "temperature", "temperature": 0.2},
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Local window of 2 (random weights)"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Seeded random weights with a window mask: each query sees at most 2 neighbours per side.",
        ),
        {
            "sentence": "one two three four five six seven eight nine ten",
            "weights": "random",
            "mask": "window:2",
        },
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Cosine scoring"),
        QT_TRANSLATE_NOOP("Presets", "Cosine similarity ignores vector length: scores lie between -1 and 1."),
        {
            "sentence": "The animal didn't cross the street because it was too tired",
            "scoring": "cosine",
            "scale": "temperature",
            "temperature": 0.1,
        },
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Soft attention: every key gets a share"),
        QT_TRANSLATE_NOOP(
            "Presets", "The same sentence as the hard preset, with the softmax: compare the two weight maps."
        ),
        {"sentence": "the cat sat on the warm mat near the door", "attention": "soft"},
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Padding mask (valid:4)"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "As d2l's valid_lens: only the first 4 keys ([CLS] short text then) are real; the padding after them gets weight 0.",
        ),
        {"sentence": "short text then pad pad pad pad", "mask": "valid:4"},
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Chinese: a teacher at the blackboard"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Multilingual model, layer 6, head 2 (the verb-to-object head of the lesson sentence): "
            "写 (writes) puts 0.32 on 公式, the formula it writes.",
        ),
        {"sentence": "老师在黑板上写下注意力的公式", "model": "multilingual", "layer": 6},
        head=2,
        cell=(7, 11),
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Bahdanau additive scoring (translation)"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Additive scoring vᵀtanh(W₁q + W₂k) on the translation pair; the worked arithmetic "
            "shows the tanh layer (W₁, W₂, v are seeded, untrained).",
        ),
        {
            "query": "Jane visits Africa in September",
            "sentence": "Jane visite l'Afrique en septembre",
            "scoring": "additive",
        },
        cell=(1, 1),
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Multi-head on random weights (5 heads of 20)"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Seeded random weights 100 wide split into 5 heads, as in d2l's MultiHeadAttention test "
            "(num_hiddens 100, 5 heads, valid length 3).",
        ),
        {
            "sentence": "one two three four five six",
            "query": "a b c d",
            "weights": "random",
            "d_model": 100,
            "heads": 5,
            "mask": "valid:3",
        },
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Who is 它? (a pronoun refers back)"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Multilingual model, layer 9, head 2: the row of 它 puts 0.39 on 机制 of 自注意机制, "
            "the subject it stands for; 是 and 的一种 look there too.",
        ),
        {
            "sentence": "自注意机制是注意力机制的一种，它要解决的实际问题是神经网络接收的输入是很多大小不一的向量",
            "model": "multilingual",
            "layer": 9,
        },
        head=2,
        cell=(10, 4),
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Who are 他们? (two kinds of attention)"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "Multilingual model, layer 5, head 6: 他们的 puts 0.40 on 两种 (the two kinds of "
            "attention it refers to); most other rows rest on <s> and </s>.",
        ),
        {
            "sentence": "包含了两种Attention算法，他们的区别就是match操作的不同",
            "model": "multilingual",
            "layer": 5,
        },
        head=6,
        cell=(9, 4),
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Shopping search in Chinese: 男鞋"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "The lesson's query 男鞋 over product names, multilingual model, layer 3, head 8: 男 "
            "puts 0.63 and 0.18 on the two 男 of 男士, 鞋 0.28 and 0.21 on the two 鞋; the dress, "
            "the bag and the knives get almost nothing.",
        ),
        {
            "query": "男鞋",
            "sentence": "女士连衣裙，男士跑鞋，儿童书包，男士皮鞋，厨房刀具",
            "model": "multilingual",
            "layer": 3,
        },
        head=8,
        cell=(2, 7),
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Language model: what comes next"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "The bundled tiny GPT-2 (one token per character), its causal mask as trained: after "
            "“…the futu” the next-token panel gives “r” 90 %; Write appends it.",
        ),
        {"sentence": TEXT, "model_dir": str(bundled_decoder("lm-text").folder), "layer": 1},
        head=0,
    ),
    Preset(
        QT_TRANSLATE_NOOP("Presets", "Language model: induction heads on a repeat"),
        QT_TRANSLATE_NOOP(
            "Presets",
            "The tiny GPT-2 trained on repeats, layer 1: in All heads every head looks at the letter "
            "after the previous “z” (ind 65–92 %), and “u” comes next (54 %).",
        ),
        {"sentence": REPEATED, "model_dir": str(bundled_decoder("lm-induction").folder), "layer": 1},
        head=3,
    ),
]

DEFAULT_PRESET = PRESETS[1]
