"""The lesson's language-model steps: a decoder's attention in the main tabs.

On the bundled GPT-2 folders (explorer.appstate.bundled_decoders): the causal mask is the
one the model was trained with; the next token after the text; a previous-token head; the
induction heads on a text that repeats; and those heads switched off, the next token gone.
Each step names what it sets up (``DECODER_SETUPS``: the model, the text, the layer, the
head, the heads off), which the lesson dock applies when the step is shown. Qt-free; texts
are marked for lupdate in the "Lesson" context. The numbers they quote are checked by
tests/appstate/test_lesson_decoder.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from explorer.appstate.bundled_decoders import REPEATED, TEXT, bundled_decoder
from explorer.appstate.decoding import DecodingState
from explorer.appstate.lesson_step import Step, Track
from explorer.appstate.presets import Preset
from explorer.words import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class DecoderSetup:
    model: str  # a bundled decoder's key
    sentence: str
    layer: int
    head: int
    heads_off: frozenset[tuple[int, int]] = frozenset()
    cell: tuple[int, int] | None = None  # the (query, key) cell to select (None: the last token's row)


DECODER_STEPS: tuple[Step, ...] = (
    Step(
        "mask",
        QT_TRANSLATE_NOOP("Lesson", "A language model's causal mask"),
        QT_TRANSLATE_NOOP("Lesson", "mask_ij = 1 if j ≤ i, else 0 (as trained)"),
        QT_TRANSLATE_NOOP(
            "Lesson",
            "A language model guesses the next token, so while it learns no token may see the ones "
            "after it: the causal mask is part of how it was trained, not an option. Each row of "
            "the weights sums to 1 over itself and the tokens before it; the cells to the right stay "
            "dark.",
        ),
        id="decoder.causal",
    ),
    Step(
        "weights",
        QT_TRANSLATE_NOOP("Lesson", "The next token"),
        "softmax(W_LM · norm(h_n))",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "After its last layer the model turns the last token's vector into a probability for "
            "every token of its vocabulary: the panel beside the attention. After “…the futu” this "
            "small model gives “r” 90 %. Write appends it; click a row of the weights for the next "
            "token after that row.",
        ),
        id="decoder.next",
    ),
    Step(
        "decoder_previous",  # the All-heads tab: no pipeline panel of its own
        QT_TRANSLATE_NOOP("Lesson", "A previous-token head"),
        "w(i, i − 1) ≈ 1",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "A model trained on letters that repeat. In layer 0, heads 0 and 1 put almost all their "
            "weight on the token just before (prev 99 % in their titles): each position now carries "
            "which letter came before it.",
        ),
        tab="heads",
        id="decoder.previous",
    ),
    Step(
        "decoder_induction",  # the All-heads tab: no pipeline panel of its own
        QT_TRANSLATE_NOOP("Lesson", "Induction heads: the text repeats"),
        "w(i, i − k + 1)",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "The text repeats after 8 letters. In layer 1 every head looks at the letter that "
            "followed the current one last time (ind 65–92 % in the titles): after the second “z” "
            "it looks at the first “u”, and the model writes “u” next (54 %).",
        ),
        tab="heads",
        id="decoder.induction",
    ),
    Step(
        "decoder_ablate",  # the All-heads tab: no pipeline panel of its own
        QT_TRANSLATE_NOOP("Lesson", "Switch heads off: the next token changes"),
        QT_TRANSLATE_NOOP("Lesson", "head output → 0 before W_O"),
        QT_TRANSLATE_NOOP(
            "Lesson",
            "The two previous-token heads of layer 0 are switched off (the grid shows layer 1, "
            "where the induction heads look; beside its buttons: “also off: 0.0, 0.1”): “u” falls "
            "from 54 % to 2 %. The induction heads can no longer find where the current "
            "letter came before. Switch other heads off and on and watch the two bars.",
        ),
        tab="heads",
        id="decoder.ablate",
    ),
)
DECODER_TRACK = Track(
    "decoder", QT_TRANSLATE_NOOP("Lesson", "Language models: attention that writes"), DECODER_STEPS
)

DECODER_SETUPS: dict[str, DecoderSetup] = {
    "decoder.causal": DecoderSetup("lm-text", TEXT, 0, 0),
    "decoder.next": DecoderSetup("lm-text", TEXT, 1, 0),
    "decoder.previous": DecoderSetup("lm-induction", REPEATED, 0, 0),
    # the second "z" (13) and the letter after the first one, "u" (6): where an induction head looks
    "decoder.induction": DecoderSetup("lm-induction", REPEATED, 1, 3, cell=(13, 6)),
    "decoder.ablate": DecoderSetup("lm-induction", REPEATED, 1, 3, frozenset({(0, 0), (0, 1)}), (13, 6)),
}


class ShowsASetup(Protocol):
    """What a step's setup changes (the window's state; named here: the state imports the lesson)."""

    decoding: DecodingState

    def apply_preset(self, preset: Preset) -> None: ...


def apply_setup(state: ShowsASetup, setup: DecoderSetup) -> None:
    """Show what a step talks about: its model, text, layer and head, and its heads off."""
    folder = str(bundled_decoder(setup.model).folder)
    changes = {"sentence": setup.sentence, "model_dir": folder, "layer": setup.layer}
    state.apply_preset(Preset("", "", changes, head=setup.head, cell=setup.cell))
    state.decoding.set_heads_off(setup.heads_off)
