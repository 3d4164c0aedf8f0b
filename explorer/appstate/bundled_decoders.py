"""The language models that ship with the explorer: the language-model lab's two GPT-2 folders.

They are standard GPT-2 folders (config.json, model.safetensors, tokenizer.json) that the lab
trained and ships for its own tab, so offering them in the model picker costs no bundle space:
a character-level model of a short English and Chinese text, and one trained on sequences
that repeat (it grew induction heads). Qt-free; the names are marked for lupdate.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from explorer.models.catalogue import is_model_folder
from explorer.resources import resource_path
from explorer.words import QT_TRANSLATE_NOOP

# The examples the presets and the lesson show them on.
TEXT = "The model cannot see the futu"  # the characters model writes "r" next
REPEATED = "qwertzuiqwertz"  # eight letters, then the first six again: "u" comes next


@dataclass(frozen=True)
class BundledDecoder:
    key: str
    parts: tuple[str, ...]  # under resources/
    name: str  # the picker's words (context "ModelPicker")
    tip: str

    @property
    def folder(self) -> Path:
        return resource_path(*self.parts)

    @property
    def installed(self) -> bool:
        return is_model_folder(self.folder)


BUNDLED_DECODERS: tuple[BundledDecoder, ...] = (
    BundledDecoder(
        "lm-text",
        ("lm", "text"),
        QT_TRANSLATE_NOOP("ModelPicker", "Language model: tiny GPT-2 (characters)"),
        QT_TRANSLATE_NOOP(
            "ModelPicker",
            "GPT-2, 2 layers × 4 heads, 64 wide, one token per character, trained here for 900 steps "
            "on a short English and Chinese text about attention (the language-model lab's). "
            "Causal, with its next token; layer 0 has a previous-token head.",
        ),
    ),
    BundledDecoder(
        "lm-induction",
        ("lm", "induction"),
        QT_TRANSLATE_NOOP("ModelPicker", "Language model: tiny GPT-2 (repeats, induction heads)"),
        QT_TRANSLATE_NOOP(
            "ModelPicker",
            "GPT-2, 2 layers × 4 heads, one token per letter, trained here on random letters that "
            "repeat (the language-model lab's): type a few letters twice and layer 1's heads look "
            "at the letter after the last time the current one appeared.",
        ),
    ),
)


def bundled_decoder(key: str) -> BundledDecoder:
    for decoder in BUNDLED_DECODERS:
        if decoder.key == key:
            return decoder
    raise KeyError(f"no bundled language model {key!r}")
