"""The lesson's steps on the Vision tab: channel attention, spatial attention, residual attention,
and a model that learns to look while the class watches.

Qt-free, like explorer/appstate/lesson.py (texts marked with ``QT_TRANSLATE_NOOP`` in the
"Lesson" context; Steps from lesson_step.py). ``SHOWS`` tells the tab what each step puts on screen: the page, the model
variants that have that kind of attention (the first one is switched to when the current
model has none), and the panels to frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.appstate.lesson_step import Step, Track
from explorer.words import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Shows:
    page: str  # a page of explorer.appstate.vision.PAGES
    variants: tuple[str, ...] = ()  # models that show this step; empty: any
    panels: tuple[str, ...] = ()  # names of the page's panels to frame
    # on a projector, the panels shown alone and as large as the page (empty: ``panels``);
    # a number the step is about (z_c, s_c) heads its channel's map there
    focus: tuple[str, ...] = ()

    def projected(self) -> tuple[str, ...]:
        return self.focus or self.panels


VISION_STEPS: tuple[Step, ...] = (
    Step(
        stage="vision_picture",
        title=QT_TRANSLATE_NOOP("Lesson", "Attention on pictures"),
        formula=QT_TRANSLATE_NOOP("Lesson", "picture → CNN blocks → class"),  # its words are translated
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A small network sorts pictures into eight classes: a red or blue circle, square, "
            "triangle or cross. Yellow, cyan and green shapes and background clutter are there "
            "to mislead it, so it must look at the right place and read the right colour "
            "channels. Attention lets it weigh both.",
        ),
        tab="vision",
        id="vision.picture",
    ),
    Step(
        stage="vision_squeeze",
        title=QT_TRANSLATE_NOOP("Lesson", "Channel attention: squeeze"),
        formula="z_c = (1 / H·W) Σᵢⱼ X_c(i, j)",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A convolution block gives C feature maps X, one per channel. The squeeze averages "
            "each map over all its positions (global average pooling): one number z_c per "
            "channel, so every channel's weight can depend on the whole picture.",
        ),
        tab="vision",
        id="vision.squeeze",
    ),
    Step(
        stage="vision_excite",
        title=QT_TRANSLATE_NOOP("Lesson", "Channel attention: excite"),
        formula="s = σ(W₂ δ(W₁ z))",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A small bottleneck network reads all of z: W₁ shrinks it to C/r numbers, the ReLU δ "
            "keeps the positive ones, W₂ brings it back to C numbers and the sigmoid σ turns "
            "each into a weight between 0 and 1. Click a bar to see one channel's numbers.",
        ),
        tab="vision",
        id="vision.excite",
    ),
    Step(
        stage="vision_rescale",
        title=QT_TRANSLATE_NOOP("Lesson", "Channel attention: rescale"),
        formula="X̃_c = s_c · X_c",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "Every map is multiplied by its channel's weight: channels with weights near 1 pass "
            "almost unchanged, channels near 0 fade. Important features are lifted, unhelpful "
            "ones suppressed; CBAM does the same with an average- and a max-pooled descriptor.",
        ),
        tab="vision",
        id="vision.rescale",
    ),
    Step(
        stage="vision_pooled",
        title=QT_TRANSLATE_NOOP("Lesson", "Spatial attention: pool over channels"),
        formula="avg(i, j) = mean_c F′_c(i, j),  max(i, j) = max_c F′_c(i, j)",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "CBAM then asks where to look. At every position it takes the mean and the maximum "
            "over all channels of the rescaled maps: two maps as large as the picture's grid.",
        ),
        tab="vision",
        id="vision.pooled",
    ),
    Step(
        stage="vision_conv",
        title=QT_TRANSLATE_NOOP("Lesson", "Spatial attention: a k×k convolution"),
        formula="logit = W ∗ [avg ; max] + b",  # W: the k × k kernel of each pooled map
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "A 7×7 convolution slides over the two pooled maps: each position's score is a "
            "weighted sum of the pooled values around it, plus a bias. Click a position to see "
            "its window, the weights and the sum.",
        ),
        tab="vision",
        id="vision.conv",
    ),
    Step(
        stage="vision_sigmoid",
        title=QT_TRANSLATE_NOOP("Lesson", "Spatial attention: the sigmoid map"),
        formula="M_s = σ(logit),  F″ = M_s ⊙ F′",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "The sigmoid turns each score into a weight between 0 and 1: the spatial map. Laid "
            "over the picture it shows where the model looks; every position of the features "
            "is multiplied by it.",
        ),
        tab="vision",
        id="vision.sigmoid",
    ),
    Step(
        stage="vision_residual",
        title=QT_TRANSLATE_NOOP("Lesson", "Residual attention"),
        formula="H = (1 + M(x)) · T(x)",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "The trunk T(x) extracts features; the mask branch M(x) shrinks the picture, looks, "
            "grows it back and ends in a sigmoid. Multiplying by 1 + M instead of M means "
            "attention can only add to the trunk: with M = 0 the features pass unchanged, so "
            "many attention blocks can be stacked without fading the signal.",
        ),
        tab="vision",
        id="vision.residual",
    ),
    Step(
        stage="vision_train",
        title=QT_TRANSLATE_NOOP("Lesson", "Watch it learn"),
        formula="θ ← θ − η ∇θ loss",
        explanation=QT_TRANSLATE_NOOP(
            "Lesson",
            "Train a model from scratch: the loss falls, the held-out accuracy rises and the "
            "spatial map, first spread everywhere, gathers on the target shape. Drag the slider "
            "to replay how attention formed.",
        ),
        tab="vision",
        id="vision.train",
    ),
)

VISION_TRACK = Track("vision", QT_TRANSLATE_NOOP("Lesson", "Attention on pictures"), VISION_STEPS)

SHOWS: dict[str, Shows] = {
    "vision_picture": Shows("picture", focus=("picture", "overlay")),
    "vision_squeeze": Shows("channel", ("se", "cbam"), ("X", "z")),
    "vision_excite": Shows("channel", ("se", "cbam"), ("s",)),
    "vision_rescale": Shows("channel", ("se", "cbam"), ("rescaled",), ("rescaled", "s")),
    "vision_pooled": Shows("spatial", ("cbam",), ("pooled_avg", "pooled_max")),
    "vision_conv": Shows("spatial", ("cbam",), ("spatial_logits",)),
    "vision_sigmoid": Shows(
        "spatial", ("cbam",), ("spatial_map", "overlay", "output"), ("spatial_map", "overlay")
    ),
    "vision_residual": Shows("residual", ("residual",), ("mask_branch", "output")),
    "vision_train": Shows("train", ("cbam", "se", "plain", "residual"), focus=("overlay", "curves")),
}
