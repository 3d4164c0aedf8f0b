"""The lesson's steps on the Vision Transformer tab: patches as tokens, a patch's attention, the CLS
token and rollout, local and global heads, little data against much data, and a photograph's
own patches.

Qt-free (texts marked with ``QT_TRANSLATE_NOOP`` in the "Lesson" context). ``SHOWS`` tells the
tab what each step puts on screen: its page and, on the Where-it-looks page, its map.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.appstate.lesson_step import Step, Track
from explorer.words import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Shows:
    page: str  # a page of explorer.appstate.vit.PAGES
    map: str | None = None  # a map of explorer.appstate.vit.MAPS (None: as it is)
    tokens: bool = False  # the patch grid and the tokens z₀ in place of the maps (step "Patches as tokens")


VIT_STEPS: tuple[Step, ...] = (
    Step(
        stage="vit_patches",
        title=QT_TRANSLATE_NOOP("Lesson", "Patches as tokens"),
        formula="z₀ = [x_CLS; E·p₁; …; E·p₆₄] + P",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A Vision Transformer cuts the 32×32 picture into 64 patches of 4×4 pixels. Each "
            "patch is flattened and projected (E) to a vector, like a word's embedding; a "
            "learned position embedding P says where it came from, and an extra CLS token "
            "collects what the classifier reads. From here on it is the same self-attention "
            "as for words.",
        ),
        tab="vit",
        id="vit.patches",
    ),
    Step(
        stage="vit_patch",
        title=QT_TRANSLATE_NOOP("Lesson", "A patch's attention"),
        formula="αᵢⱼ = softmax(qᵢ·kⱼ / √d_k)",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "Click a patch: its query is compared with every patch's key, and the weights are "
            "laid over the picture. Each head of each layer has its own map. Nothing tells a "
            "head to look nearby: a CNN's kernel is local by construction, a head must learn "
            "it.",
        ),
        tab="vit",
        id="vit.patch",
    ),
    Step(
        stage="vit_rollout",
        title=QT_TRANSLATE_NOOP("Lesson", "CLS attention and rollout"),
        formula="R = Â₂·Â₁,  Â = 0.5·mean_h(A) + 0.5·I",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "The class is read from the CLS token, so its attention shows what the decision "
            "draws on. Attention rollout (Abnar & Zuidema 2020) multiplies the layers' "
            "head-averaged weights, each with the residual path added, to follow attention "
            "through both layers. Compare its share on the object with CBAM's spatial map in "
            "the CNN beside it.",
        ),
        tab="vit",
        id="vit.rollout",
    ),
    Step(
        stage="vit_heads",
        title=QT_TRANSLATE_NOOP("Lesson", "Local and global heads"),
        formula="d̄ₕ = Σᵢⱼ αᵢⱼ ‖xᵢ − xⱼ‖ / n",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A head's mean attention distance is how far, in pixels, its weight goes on "
            "average. An evenly spread head marks the line between local and global heads. "
            "The position embeddings show the other prior the ViT had to learn: after "
            "training, neighbouring patches' embeddings are more alike than distant ones'.",
        ),
        tab="vit",
        id="vit.heads",
    ),
    Step(
        stage="vit_data",
        title=QT_TRANSLATE_NOOP("Lesson", "Little data, much data"),
        formula="A(n),  n = 100, 1,000, 10,000",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "The claim: without a CNN's priors, self-attention needs more data. Both models "
            "were trained on 100, 1,000 and 10,000 pictures and tested on 2,000 they never saw. "
            "Read the gap at each size, then train one size live and watch both curves.",
        ),
        tab="vit",
        id="vit.data",
    ),
    Step(
        stage="vit_photo",
        title=QT_TRANSLATE_NOOP("Lesson", "A photograph's own patches"),
        formula="Q = K = V = f(pᵢ)",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "No trained model: each patch of a photograph is described by its colour, its "
            "brightness spread and its edges, and the patches attend to each other with those "
            "numbers as queries and keys. Click a patch: the query finds what resembles it.",
        ),
        tab="vit",
        id="vit.photo",
    ),
)

SHOWS: dict[str, Shows] = {
    "vit_patches": Shows("looks", "patch", tokens=True),
    "vit_patch": Shows("looks", "patch"),
    "vit_rollout": Shows("looks", "rollout"),
    "vit_heads": Shows("heads"),
    "vit_data": Shows("data"),
    "vit_photo": Shows("photo"),
}

VIT_TRACK = Track("vit", QT_TRANSLATE_NOOP("Lesson", "Vision Transformer"), VIT_STEPS)
