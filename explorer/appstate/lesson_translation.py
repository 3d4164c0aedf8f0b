"""The lesson's encoder–decoder steps, shown on the Translation tab.

After self-attention on the pipeline, the class watches attention as *alignment*: a decoder
that writes ``2018-05-09`` from ``9 mai 2018`` one character at a time, and looks back at
the source with new weights at every step. Qt-free; texts are marked for lupdate in the
"Lesson" context like the rest of the lesson (explorer/appstate/lesson.py lists this track
in TRACKS). Each ``stage`` names what the tab highlights (explorer/gui/views/translation.py).
"""

from __future__ import annotations

from explorer.appstate.lesson_step import Step, Track
from explorer.words import QT_TRANSLATE_NOOP

TAB = "translation"
WHY_TAB = "why_attention"  # the Why-attention page (explorer/gui/labs/translation/why_attention.py)


TRANSLATION_STEPS: tuple[Step, ...] = (
    Step(
        "fixed_context",
        QT_TRANSLATE_NOOP("Lesson", "Encoder–decoder: more than one fixed context"),
        "C = f(h₁, …, hₙ),   yᵢ = g(C, y₁, …, yᵢ₋₁)",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "An encoder reads the source sentence into states h₁ … hₙ; a decoder writes the "
            "translation one word at a time. Without attention the whole source is squeezed into "
            "one vector C (the encoder's last states) that every output step reads alike: the left "
            "map is that model, one column C, the same for every word it writes. The right map is "
            "the same encoder–decoder with attention, trained on the same sentences.",
        ),
        tab=WHY_TAB,
        id="translation.fixed_context",
    ),
    Step(
        "length_curve",
        QT_TRANSLATE_NOOP("Lesson", "Long sentences: the fixed C forgets"),
        QT_TRANSLATE_NOOP("Lesson", "accuracy against sentence length"),  # its words are translated
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Both models were trained side by side: the same sentences, the same steps, the same "
            "seed. On short sentences both are right. The longer the sentence, the more the single "
            "vector C must hold, and the model without attention loses the details; the model with "
            "attention looks back at the words it needs and stays right (Bahdanau et al. 2015, "
            "Fig. 2). Press Train from scratch to watch the two curves part.",
        ),
        tab=WHY_TAB,
        id="translation.length_curve",
    ),
    Step(
        "reordering",
        QT_TRANSLATE_NOOP("Lesson", "Attention follows the word order"),
        QT_TRANSLATE_NOOP("Lesson", "αᵢⱼ ≈ 1  where yᵢ translates xⱼ"),  # its words are translated
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Languages order words differently. Chinese puts the time before the verb: writing "
            "九月 (September), the model looks at the last English word, across “visits Africa”. "
            "French puts most adjectives after the noun: pick English → French and “Jane sees the "
            "red car”, and “voiture rouge” looks at “car”, then at “red”. The alignment is not a "
            "diagonal; the score counts the words whose largest weight falls on their true source "
            "word.",
        ),
        tab=WHY_TAB,
        id="translation.reordering",
    ),
    Step(
        "context_per_step",
        QT_TRANSLATE_NOOP("Lesson", "A context for every output step"),
        "cᵢ = Σⱼ αᵢⱼ hⱼ",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "With attention the decoder builds a new context cᵢ for each character it writes, "
            "mixing the encoder states with weights of its own. The matrix shows them: one row per "
            "output step, one column per source character. Writing the year, the model should look "
            "at the year; writing the month, at the month — like a translator who looks at “Jane” "
            "while writing “Jane”.",
        ),
        tab=TAB,
        id="translation.context_per_step",
    ),
    Step(
        "query",
        QT_TRANSLATE_NOOP("Lesson", "The query: the decoder's state"),
        QT_TRANSLATE_NOOP("Lesson", "query = sᵢ₋₁,   keys = values = hⱼ"),  # its words are translated
        QT_TRANSLATE_NOOP(
            "Lesson",
            "What is the decoder looking for? Its state before writing yᵢ, sᵢ₋₁, is the query "
            "(Bahdanau); Luong uses the state after reading the previous character. The keys and "
            "the values are the encoder states hⱼ, each made of a forward and a backward GRU, so "
            "every hⱼ knows its neighbours. Click an output character to see its query.",
        ),
        tab=TAB,
        id="translation.query",
    ),
    Step(
        "alignment_scores",
        QT_TRANSLATE_NOOP("Lesson", "Alignment scores"),
        QT_TRANSLATE_NOOP(
            "Lesson", "eᵢⱼ = vᵀ tanh(W₁ sᵢ₋₁ + W₂ hⱼ)   or   eᵢⱼ = sᵢ₋₁ᵀ W hⱼ"
        ),  # its words are translated
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Each encoder state is scored against the query: additive scoring (Bahdanau) runs a "
            "small tanh network, multiplicative scoring (Luong) puts a matrix W between them, dot "
            "scoring multiplies them directly. W₁, W₂, v and W were learned with the rest of the "
            "model. Open the worked arithmetic (Ctrl+Shift+W) to follow one score with its real numbers.",
        ),
        tab=TAB,
        id="translation.alignment_scores",
    ),
    Step(
        "alignment_weights",
        QT_TRANSLATE_NOOP("Lesson", "Softmax over the source positions"),
        "αᵢⱼ = exp(eᵢⱼ) / Σₖ exp(eᵢₖ)",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Softmax turns the scores of one output step into weights that add up to 1 over the "
            "source characters. The row of an output digit says where the model looks to write it; "
            "the alignment score counts the digits whose largest weight falls on their own field "
            "(year, month or day).",
        ),
        tab=TAB,
        id="translation.alignment_weights",
    ),
    Step(
        "context",
        QT_TRANSLATE_NOOP("Lesson", "The context cᵢ"),
        "cᵢ = Σⱼ αᵢⱼ hⱼ,   sᵢ = GRU([yᵢ₋₁ ; cᵢ], sᵢ₋₁)",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "The weighted sum of the encoder states is this step's context. It goes into the "
            "decoder together with the previous character, and the decoder writes the next one. "
            "Then the next step asks again, with a new query: the context changes at every step.",
        ),
        tab=TAB,
        id="translation.context",
    ),
    Step(
        "soft_hard",
        QT_TRANSLATE_NOOP("Lesson", "Soft or hard attention"),
        QT_TRANSLATE_NOOP(
            "Lesson", "soft: cᵢ = Σⱼ αᵢⱼ hⱼ    hard: cᵢ = h_k,  k = argmax αᵢ  or  k ~ αᵢ"
        ),  # its words are translated
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Soft attention takes the weighted average (an expected value): smooth, and what the "
            "model was trained with. Hard attention keeps one source position, the largest weight "
            "or one drawn with the weights as probabilities. Switch Attention to hard or sample: a "
            "model whose weights are sharp still answers right.",
        ),
        tab=TAB,
        id="translation.soft_hard",
    ),
    Step(
        "learn",
        QT_TRANSLATE_NOOP("Lesson", "Watch it learn"),
        QT_TRANSLATE_NOOP("Lesson", "θ ← θ − η ∇θ loss"),  # its words are translated
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Nobody told the model which characters spell the year. Press Train from scratch: it starts from "
            "random weights, its alignment is a blur, and within a few hundred steps the year "
            "digits look at the year, the month at the month, the day at the day. Drag the scrubber "
            "to replay how the alignment formed.",
        ),
        tab=TAB,
        id="translation.learn",
    ),
)

TRANSLATION_TRACK = Track(
    "translation", QT_TRANSLATE_NOOP("Lesson", "Translation: attention as alignment"), TRANSLATION_STEPS
)
