"""The Vision Transformer tab's data experiment as curves for the shared plot (explorer.gui.lab.curves):
held-out accuracy against training-set size on a log axis, a line per model through the seeds'
mean, a dot per seed, chance dashed, and a live run's last accuracy as a hollow square. The
Data page and its export draw the same ``Curves``."""

from __future__ import annotations

import numpy as np

from explorer.appstate.vit import ViTState
from explorer.gui.core_text import translated
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import Curves, Series
from explorer.gui.labs.vision.vit_pictures import MODEL_COLOURS
from explorer.vision.data_curve import CURVE_MODELS, CurveResult

CHANCE_COLOUR = "#777777"
X_MARGIN = 1.6  # the log axis reaches this factor past the smallest and largest size


def model_names() -> dict[str, str]:
    return {
        "cnn": translate("ViTView", "CNN (CBAM, 3 blocks)"),
        "vit": translate("ViTView", "ViT (2 layers, 4 heads)"),
    }


def data_curves(
    result: CurveResult, chance: float, live: dict[str, tuple[int, float]] | None = None
) -> Curves:
    """``live[model]`` = (training pictures, last held-out accuracy) of a run trained in the window."""
    live = dict(live or {})
    names = model_names()
    sizes = sorted(set(result.sizes()) | {n for n, _ in live.values()})
    series = []
    for model in CURVE_MODELS:
        colour = MODEL_COLOURS[model].name()
        measured = [n for n in result.sizes() if result.of(model, n)]
        means = [result.mean_accuracy(model, n) for n in measured]
        series.append(Series(names[model], np.asarray(measured, float), np.asarray(means), colour, 2.5))
        seeds = [(n, a) for n in measured for a in result.accuracies(model, n)]
        series.append(
            Series(
                translate("ViTView", "{0}, each seed").format(names[model]),
                np.asarray([n for n, _ in seeds], float),
                np.asarray([a for _, a in seeds], float),
                colour,
                line=False,
                in_legend=False,  # the caption says the dots are the seeds
            )
        )
    for model, (n, accuracy) in live.items():
        series.append(
            Series(
                translate("ViTView", "{0}, live run").format(names[model]),
                np.asarray([n], float),
                np.asarray([accuracy], float),
                MODEL_COLOURS[model].name(),
                line=False,
                symbol="s",
                hollow=True,
                in_legend=False,
            )
        )
    low, high = (min(sizes) / X_MARGIN, max(sizes) * X_MARGIN) if sizes else (1.0, 10.0)
    series.append(
        Series(
            translate("ViTView", "chance (8 classes)"),
            np.asarray([low, high]),
            np.asarray([chance, chance]),
            CHANCE_COLOUR,
            1.5,
            dashed=True,
        )
    )
    return Curves(
        title=translate("ViTView", "held-out accuracy on 2,000 pictures"),
        x_label=translate("ViTView", "training pictures (log scale)"),
        series=series,
        x_range=(low, high),
        y_range=(0.0, 1.0),
        log_x=True,
        x_ticks=tuple(float(n) for n in sizes),
    )


def live_accuracies(lab: ViTState) -> dict[str, tuple[int, float]]:
    """The live pair's last held-out accuracies, at the size they were trained on."""
    live = {}
    for model, run in (("vit", lab.run), ("cnn", lab.cnn_run)):
        if run is not None and run.last("accuracy") is not None:
            live[model] = (lab.settings.train_size, float(run.last("accuracy")))
    return live


def data_caption(result: CurveResult, live: bool = False) -> list[str]:
    """What the figure shows, line by line: whether the ViT overtakes and why, the CNN's lead
    per size, what the lines and dots are (and, ``live``, the squares)."""
    gaps = result.gaps()
    lines = [translated(result.caption())] if gaps else []
    lines.append(
        translate(
            "ViTView", "The CNN's lead in points: {0}. Lines: the mean of the seeds; dots: each seed ({1})."
        ).format(", ".join(f"{n:,}: {g:+.0f}" for n, g in gaps.items()), ", ".join(map(str, result.seeds())))
    )
    if live:
        lines.append(translate("ViTView", "Squares: the live run's last held-out accuracy (500 pictures)."))
    return lines
