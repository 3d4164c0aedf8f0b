"""What the Vision Transformer tab's pages show for a result, in words and numbers: the maps with
their captions, what both models say, the shares on the object, each head's bars. The tab and
its export (vit_export) draw the same things from these."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from explorer.appstate.vit import ViTSettings
from explorer.appstate.vit_jobs import ViTResult, heads
from explorer.gui.core_text import translated
from explorer.gui.i18n import translate
from explorer.gui.labs.vision.figures import class_label
from explorer.vision.data_curve import CurveResult
from explorer.vision.images import photo_caveat
from explorer.vision.photo_attention import PhotoAttention
from explorer.vision.vit import ViTConfig
from explorer.vision.vit_measures import uniform_distance

CONFIG = ViTConfig()


def percent(value: float) -> str:
    return f"{100 * value:.0f}\u00a0%"  # a no-break space: a wrapped line never starts with "%"


def weight_words(value: float) -> str:
    """An attention weight for a colour bar's end: a share in %, a decimal under 10 %."""
    return f"{100 * value:.1f}\u00a0%" if value < 0.1 else percent(value)


def cosine_words(value: float) -> str:
    """A position map's value, (cosine + 1) / 2, as the cosine it stands for."""
    return f"{2 * value - 1:.2f}".replace("-", "\u2212")


@dataclass(frozen=True)
class MapShown:
    """One PatchMap's arguments: the picture, a number per patch, the framed patch, the caption."""

    image: np.ndarray | None
    values: np.ndarray | None
    selected: int | None
    caption: str
    scale: Callable[[float], str] | None = weight_words  # a value in words: the colour bar's ends

    def on(self, patch_map) -> None:
        patch_map.show_map(self.image, self.values, self.selected, self.caption, self.scale)


@dataclass(frozen=True)
class BarsShown:
    """One HeadBars' arguments."""

    values: np.ndarray
    title: str
    layer_word: str
    reference: float
    reference_label: str
    digits: int = 1
    percent: bool = False  # labelled in % of the values

    def on(self, bars) -> None:
        bars.show_bars(
            self.values,
            self.title,
            self.layer_word,
            self.reference,
            self.reference_label,
            digits=self.digits,
            percent=self.percent,
        )


def models_words(result: ViTResult | None, size: int) -> str:
    r = result.request if result is not None else None
    if r is None or r.shipped:
        n = f"{(r.size if r is not None else size):,}"
        return translate("ViTView", "the shipped models trained on {0} pictures").format(n)
    return translate("ViTView", "the live pair at step {0}").format(r.step)


def chosen_map(s: ViTSettings, result: ViTResult) -> MapShown:
    """The ViT's map the settings choose: a patch's row of a head's weights, the CLS token's, the rollout."""
    t = result.vit
    if s.map == "patch":
        grid, on_cls = t.patch_attention(f"layer{s.layer + 1}", s.head, s.patch)
        row, col = divmod(s.patch, CONFIG.grid)
        caption = translate(
            "ViTView", "ViT, layer {0}, head {1}: where patch ({2}, {3}) looks ({4} on CLS)"
        ).format(s.layer + 1, s.head + 1, row + 1, col + 1, percent(on_cls))
        return MapShown(result.pixels, grid, s.patch, caption)
    if s.map == "cls":
        caption = translate("ViTView", "ViT, layer {0}, head {1}: the CLS token's attention").format(
            s.layer + 1, s.head + 1
        )
        return MapShown(result.pixels, t.arrays["cls_attention"][s.layer, s.head], None, caption)
    caption = translate("ViTView", "ViT: attention rollout, the CLS token through both layers")
    return MapShown(result.pixels, t.arrays["rollout_cls"], None, caption)


@dataclass(frozen=True)
class TokensShown:
    """PatchTokens' arguments: the picture, the encoder's input z₀ [1 + patches, d], the words."""

    image: np.ndarray
    tokens: np.ndarray
    caption: str
    headers: tuple[str, str]

    def on(self, view) -> None:
        view.show_tokens(self.image, self.tokens, CONFIG.patch, self.caption, self.headers)


def shown_tokens(result: ViTResult) -> TokensShown:
    """The lesson's "Patches as tokens": the picture cut into its grid, and z₀ row by row."""
    p, n, d = CONFIG.patch, CONFIG.grid**2, CONFIG.width
    caption = translate(
        "ViTView",
        "The picture cut into {0} patches of {1}×{1} pixels. Each row is one token: a patch's {2} "
        "pixels ({3} numbers) in a line, projected to {4} numbers (E·p + P). Row n is patch n; CLS on top.",
    ).format(n, p, p * p, 3 * p * p, d)
    headers = (
        translate("ViTView", "Patches 1–{0}").format(n),
        translate("ViTView", "z₀: pixels → token"),
    )
    return TokensShown(result.pixels, result.vit.arrays["tokens"], caption, headers)


def rollout_map(result: ViTResult) -> MapShown:
    return MapShown(
        result.pixels, result.vit.arrays["rollout_cls"], None, translate("ViTView", "ViT: attention rollout")
    )


def cnn_map(result: ViTResult) -> MapShown:
    if result.cnn is None:
        return MapShown(result.pixels, None, None, translate("ViTView", "CNN: no snapshot yet"))
    return MapShown(
        result.pixels,
        result.cnn.stage("spatial_map", "block3"),
        None,
        translate("ViTView", "CNN (CBAM): its spatial map, block 3"),
        lambda v: f"{v:.2f}",  # a sigmoid's value, not a share
    )


def summary(result: ViTResult, size: int) -> str:
    """What both models say, and which models (each sentence whole: word order differs by language)."""
    t = result.vit
    vit_said = (class_label(t.prediction_name), percent(float(t.probabilities[t.prediction])))
    if result.cnn is None:
        return translate("ViTView", "ViT says {0} ({1}); {2}.").format(*vit_said, models_words(result, size))
    c = result.cnn
    cnn_said = (class_label(c.prediction_name), percent(float(c.probabilities[c.prediction])))
    return translate("ViTView", "ViT says {0} ({1}); CNN says {2} ({3}); {4}.").format(
        *vit_said, *cnn_said, models_words(result, size)
    )


def notices(s: ViTSettings, result: ViTResult) -> list[str]:
    out = [translated(n) for n in result.vit.notices]
    if s.source == "file":
        out.append(translated(photo_caveat()))
    return out


def shares(s: ViTSettings, result: ViTResult, shown: MapShown) -> str:
    """The object's share of the picture and each map's share of attention on it (the rollout
    once: when it is the map shown, it is "this map" too)."""
    t = result.vit
    if result.area is None:
        return translate("ViTView", "A photo has no known object: no share on it can be measured.")
    area, rolled = percent(result.area), percent(t.object_share["rollout"])
    cnn = None if result.cnn_share is None else percent(result.cnn_share)
    if s.map == "rollout":
        if cnn is not None:
            return translate(
                "ViTView",
                "The object covers {0} of the picture. Share of attention on it: the ViT's rollout {1}, "
                "CBAM's spatial map {2}.",
            ).format(area, rolled, cnn)
        return translate(
            "ViTView",
            "The object covers {0} of the picture. Share of attention on it: the ViT's rollout {1}.",
        ).format(area, rolled)
    grid = shown.values
    here = percent(float((grid * t.arrays["patch_object"]).sum() / grid.sum()))
    if cnn is not None:
        return translate(
            "ViTView",
            "The object covers {0} of the picture. Share of attention on it: this ViT map {1}, "
            "rollout {2}, CBAM's spatial map {3}.",
        ).format(area, here, rolled, cnn)
    return translate(
        "ViTView",
        "The object covers {0} of the picture. Share of attention on it: this ViT map {1}, rollout {2}.",
    ).format(area, here, rolled)


def distance_bars(result: ViTResult) -> BarsShown:
    uniform = uniform_distance(CONFIG)
    return BarsShown(
        result.vit.arrays["mean_distance"],
        translate("ViTView", "Mean attention distance per head (px)"),
        translate("ViTView", "layer"),
        uniform,
        translate("ViTView", "dashed: an evenly spread head, {0} px").format(f"{uniform:.1f}"),
    )


def self_bars(result: ViTResult) -> BarsShown:
    return BarsShown(
        result.vit.arrays["self_share"],
        translate("ViTView", "Self share per head (%)"),
        translate("ViTView", "layer"),
        1 / CONFIG.tokens,
        translate("ViTView", "dashed: an even spread, 1/{0} = {1} %").format(
            CONFIG.tokens, f"{100 / CONFIG.tokens:.2f}"
        ),
        digits=2,
        percent=True,  # "2.03" in a bar's width, where "0.0203" overran its neighbours
    )


def heads_words(curve: CurveResult | None) -> str:
    """What the self share is, and how alike the shipped ViTs' position embeddings of
    neighbouring patches are per training-set size: narrow enough for a quarter of the page."""
    said = translate("ViTView", "Self share: the weight a patch keeps on itself.")
    if curve is None:
        return said
    sizes = ", ".join(
        f"{h.size:,}: {h.position_neighbours:.2f}/{h.position_others:.2f}" for h in heads(curve)
    )
    return (
        said
        + " "
        + translate(
            "ViTView", "Position cosine, neighbours/others, of the shipped ViTs by training pictures: {0}."
        ).format(sizes)
    )


def distance_words(curve: CurveResult | None) -> str:
    """The shipped ViTs' mean distance per layer (the mean of its heads) by training-set size."""
    if curve is None:
        return ""
    sizes = ", ".join(
        f"{h.size:,}: " + "/".join(f"{layer.mean():.1f}" for layer in h.mean_distance) for h in heads(curve)
    )
    return translate(
        "ViTView", "Mean distance, layer 1/2 (px), of the shipped ViTs over 2,000 held-out pictures: {0}."
    ).format(sizes)


def position_map(s: ViTSettings, result: ViTResult) -> MapShown:
    similarity = result.vit.arrays["position_similarity"][s.patch].reshape(CONFIG.grid, CONFIG.grid)
    row, col = divmod(s.patch, CONFIG.grid)
    return MapShown(
        None,
        (similarity + 1) / 2,
        s.patch,
        translate("ViTView", "Position embedding of patch ({0}, {1}) against every other (cosine)").format(
            row + 1, col + 1
        ),
        cosine_words,
    )


def photo_map(photo: PhotoAttention, patch: int) -> MapShown:
    """A photograph's patch and where in the photo its own patches resemble it."""
    row, col = divmod(patch, photo.grid)
    return MapShown(
        photo.image,
        photo.matches(patch),
        patch,
        translate("ViTView", "Where patch ({0}, {1}) finds what resembles it").format(row + 1, col + 1),
    )


def photo_words(photo: PhotoAttention) -> str:
    said = " ".join(translated(n) for n in photo.notices)
    return translate("ViTView", "No model was trained for this: the weights are the photo's own numbers.") + (
        " " + said
    )
