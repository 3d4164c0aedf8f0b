"""Output words whose weight sits on the source word beside their own are named, with why a
bidirectional encoder allows it; a hit or a far miss is not a shift."""

from __future__ import annotations

import numpy as np

from explorer.seq2seq import translate_sequence
from explorer.seq2seq.sequence_eval import shifted_words
from explorer.seq2seq.tasks import Pair


def test_a_weight_on_the_neighbour_of_the_word_translated_is_a_shift():
    pair = Pair(("a", "b", "c", "d"), ("A", "C", "D"), ((0,), (2,), (3,)))
    alignment = np.array(
        [
            [0.9, 0.1, 0.0, 0.0],  # A on a: a hit
            [0.0, 0.7, 0.3, 0.0],  # C on b: one before its own word
            [0.8, 0.0, 0.0, 0.2],  # D on a: a miss, but not next to d
        ]
    )
    assert shifted_words(alignment, pair) == [(1, 1, 2)]


def test_the_lesson_sentence_names_its_shifted_word():
    t = translate_sequence("Jane visits Africa in September", "sentences-fr", "attention")
    shifted = [str(n) for n in t.notices if n.key == "seq2seq.word_shift"]
    assert t.alignment_score is not None and t.alignment_score < 1
    assert shifted == [
        'one word off: "septembre" → "in" ("September") — the encoder reads both ways, so the word beside '
        "holds it too"
    ]
