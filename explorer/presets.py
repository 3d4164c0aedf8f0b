"""Ready-made examples for the preset picker: data only, no Qt.

Each preset names the configuration fields it sets; every other field keeps the
defaults of ``AttentionConfig``. The classroom material can append to ``PRESETS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.core.config import AttentionConfig


@dataclass(frozen=True)
class Preset:
    name: str
    description: str  # one line for the tooltip: what to look at
    changes: dict = field(default_factory=dict)

    def config(self, base: AttentionConfig | None = None) -> AttentionConfig:
        """The preset applied to the defaults (``base`` keeps weights, device and model folder)."""
        keep = {}
        if base is not None:
            keep = {"device": base.device, "model_dir": base.model_dir}
        return AttentionConfig(**{**keep, **self.changes})


PRESETS: list[Preset] = [
    Preset("Thinking Machines (self-attention)",
           "Two words attending to each other: the smallest example of the lesson.",
           {"sentence": "Thinking Machines"}),
    Preset("Who is 'it'? (the tired animal)",
           "Click the row of 'it': which keys does each head look at?",
           {"sentence": "The animal didn't cross the street because it was too tired"}),
    Preset("Shopping search: red running shoes",
           "A search query attends over product titles: cross-attention as retrieval.",
           {"query": "red running shoes",
            "sentence": "blue denim jacket, red trail running shoes, black leather boots, "
                        "white tennis shoes, red wool scarf"}),
    Preset("Translation: English query over French",
           "Cross-attention as in an encoder-decoder translator: do words find their partners?",
           {"query": "Jane visits Africa in September",
            "sentence": "Jane visite l'Afrique en septembre"}),
    Preset("Chinese sentence (watch the [UNK] notice)",
           "MiniLM's vocabulary knows few Chinese characters: most become [UNK].",
           {"sentence": "注意力机制源自人对外部信息的处理能力"}),
    Preset("Causal mask (a decoder's view)",
           "Each token may only look at itself and earlier tokens: the upper triangle is hidden.",
           {"sentence": "the model writes one word after another", "mask": "causal"}),
    Preset("Hard attention: one key per query",
           "Hard attention keeps only the best key of every row (compare with soft).",
           {"sentence": "the cat sat on the warm mat near the door", "attention": "hard"}),
    Preset("Sharp softmax: temperature 0.2",
           "A low temperature makes the softmax almost hard; raise τ to flatten it.",
           {"sentence": "the cat sat on the warm mat near the door", "scale": "temperature",
            "temperature": 0.2}),
    Preset("Local window of 2 (random weights)",
           "Seeded random weights with a window mask: each query sees at most 2 neighbours per side.",
           {"sentence": "one two three four five six seven eight nine ten", "weights": "random",
            "mask": "window:2"}),
    Preset("Cosine scoring",
           "Cosine similarity ignores vector length: scores lie between -1 and 1.",
           {"sentence": "The animal didn't cross the street because it was too tired",
            "scoring": "cosine", "scale": "temperature", "temperature": 0.1}),
]

DEFAULT_PRESET = PRESETS[1]


def preset_named(name: str) -> Preset:
    for preset in PRESETS:
        if preset.name == name:
            return preset
    raise KeyError(name)
