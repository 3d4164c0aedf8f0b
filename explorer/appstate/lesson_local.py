"""The lesson's global vs local steps, shown on the Global vs local tab.

After the encoder–decoder's alignment, the class splits attention the way Luong et al. (2015)
do: global attention reads every source word; local attention reads a window [p_t − D, p_t + D]
(a hard choice of where, soft weights inside), centred at p_t = t (local-m) or at a predicted
p_t (local-p), weighed by a Gaussian of σ = D/2. Qt-free; texts are marked for lupdate in the
"Lesson" context. What each step sets up on the tab (the local model, the D, the page) is the
tab's own (explorer/gui/labs/translation/window_view.py LESSON_SETUPS).
"""

from __future__ import annotations

from explorer.appstate.lesson_step import Step, Track
from explorer.words import QT_TRANSLATE_NOOP

TAB = "local"

LOCAL_STEPS: tuple[Step, ...] = (
    Step(
        "local_global",
        QT_TRANSLATE_NOOP("Lesson", "Global attention: every source word"),
        "a_t(s) = softmax_s score(h_t, h̄_s),   s = 1 … S",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "The attention so far is global: every output word weighs every source word. Here the "
            "task writes each letter twice, so the true alignment is a staircase (the small dots). "
            "On the left, global attention finds it by itself, but it pays for every source word "
            "at every step: a long text costs S scores per word written.",
        ),
        tab=TAB,
        id="local.global",
    ),
    Step(
        "local_monotonic",
        QT_TRANSLATE_NOOP("Lesson", "Local attention: a window at p_t = t"),
        "[p_t − D, p_t + D],   p_t = t",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Local attention reads only a window of 2D + 1 source words: a hard choice of where to "
            "look, soft weights inside it. local-m simply puts the window's centre p_t (the diamond) "
            "at the output position t. That fits when source and target run in step; here the "
            "output is twice as long, so the window runs ahead of the staircase and, past the end of "
            "the source, reads nothing at all.",
        ),
        tab=TAB,
        id="local.monotonic",
    ),
    Step(
        "local_reorder",
        QT_TRANSLATE_NOOP("Lesson", "local-m on reordering: the window misses the word that moved"),
        "p_t = t,   [p_t − D, p_t + D]",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "English into Chinese, where the time comes before the verb. 星期一 (Monday) is "
            "output word 1 but source word 6: local-m's window at p_t = 1 with D = 3 covers source "
            "words 0 to 4 and misses it; with “the” and “in” dropped, p_t = t falls further "
            "behind: near the right word on 6 of 10 steps. local-p predicts p_t: it jumps to 6.2 "
            "for 星期一 and back to 2.0 for the verb, 9 of 10. All three write this sentence right: "
            "the decoder also reads the encoder's summary.",
        ),
        tab=TAB,
        id="local.reorder",
    ),
    Step(
        "local_predictive",
        QT_TRANSLATE_NOOP("Lesson", "local-p: the model predicts p_t"),
        "p_t = S · sigmoid(v_pᵀ tanh(W_p h_t)),   a_t(s) = align_t(s) · exp(−(s − p_t)² / 2σ²)",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "local-p learns where to look: from the decoder state h_t it predicts a position p_t "
            "between 0 and S, and a Gaussian of σ = D/2 around p_t favours the words near it (the "
            "curve under the alignment). The Gaussian is what lets training move p_t. Trained "
            "briefly, Luong's p_t may wobble; our variant (labelled ours) predicts a step forward "
            "instead of a position and follows the staircase.",
        ),
        tab=TAB,
        id="local.predictive",
    ),
    Step(
        "local_width",
        QT_TRANSLATE_NOOP("Lesson", "The window's width D"),
        "σ = D / 2",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "D sets how much the window sees. Move the slider: the same weights, trained with "
            "D = 3, read through a narrower or a wider window; this text comes out right at D = 3 "
            "and 4. Narrower (1, 2), and a p_t slightly off misses the word it needs: the model "
            "writes on past the end. Wider (5 and up), and the weights meet words they never "
            "learned to weigh: wrong again. A window as wide as the text is global attention, "
            "costs as much, and must be trained that wide.",
        ),
        tab=TAB,
        id="local.width",
    ),
    Step(
        "local_train",
        QT_TRANSLATE_NOOP("Lesson", "Watch the window learn to slide"),
        "",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Train global attention and a local model from random weights on the same batches. At "
            "first the window sits anywhere; as the loss falls, p_t climbs the staircase, and the "
            "curve shows how often it lands within one word of the truth.",
        ),
        tab=TAB,
        id="local.train",
    ),
)

LOCAL_TRACK = Track("local", QT_TRANSLATE_NOOP("Lesson", "Global and local attention"), LOCAL_STEPS)
