"""What the Vision Transformer tab's training page says and draws (explorer.gui.lab.training): the
live pair, the ViT and the CNN trained at once on the same pictures, their training losses and
their held-out accuracies on one plot each, the snapshot on screen marked."""

from __future__ import annotations

import numpy as np

from explorer.appstate.vit import MAX_SEED, MAX_TRAIN_STEPS, ViTState
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import Curves, Series
from explorer.gui.lab.shipped import history_of, shipped_loss, shipped_metric
from explorer.gui.lab.training import TrainingContent
from explorer.gui.labs.vision.vit_pictures import MODEL_COLOURS
from explorer.lab import LabRun
from explorer.vision.checkpoints import checkpoint_paths, curve_stem


def _percent(value: float) -> str:
    return f"{100 * value:.1f} %"


class PairTraining(TrainingContent):
    steps_range = (10, MAX_TRAIN_STEPS)
    seed_range = (0, min(MAX_SEED, 999_999))

    def intro(self, lab: ViTState) -> str:
        return translate(
            "ViTView",
            "Train the ViT and the CNN from scratch at the same time, on the same {0} pictures: "
            "which one learns from this little?",
        ).format(f"{lab.settings.train_size:,}")

    def measure(self, run: LabRun) -> str | None:
        vit = run.last("accuracy")
        if vit is None:
            return None
        return translate("ViTView", "held-out accuracy: ViT {0}").format(_percent(vit))

    def steps_tip(self) -> str:
        return translate("ViTView", "Optimiser steps of 64 pictures each, for both models")

    def curves(self, lab: ViTState, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        step = translate("ViTView", "step")
        steps = float(run.steps if run is not None else lab.settings.train_steps)
        runs = {"vit": run, "cnn": lab.cnn_run if run is not None else None}
        names = {"vit": "ViT", "cnn": "CNN"}  # the legend names the models; the title, what is drawn
        losses, accuracies = [], []
        shipped = []  # the data experiment's seed-0 runs at this size, dashed in each model's colour
        for model in runs:
            history = history_of(checkpoint_paths(curve_stem(model, lab.settings.train_size))[0])
            colour = MODEL_COLOURS[model].name()
            shipped.append(
                (
                    shipped_loss(history, colour, names[model]),
                    shipped_metric(history, "accuracy", colour, names[model]),
                )
            )
        for model, r in runs.items():
            values = r.losses if r is not None else []
            losses.append(
                Series(
                    names[model],
                    np.arange(1, len(values) + 1),
                    np.asarray(values, dtype=float),
                    MODEL_COLOURS[model].name(),
                    1.5,
                )
            )
            accuracies.append(
                Series(
                    names[model],
                    np.asarray(r.eval_steps if r is not None else [], dtype=float),
                    np.asarray(r.series("accuracy") if r is not None else [], dtype=float),
                    MODEL_COLOURS[model].name(),
                    dots=True,
                )
            )
        losses += [line for loss, _ in shipped for line in loss]
        accuracies += [line for _, accuracy in shipped for line in accuracy]
        return [
            Curves(
                title=translate("ViTView", "training loss"),
                series=losses,
                x_label=step,
                x_range=(0.0, steps),
                marker=shown_step,
            ),
            Curves(
                title=translate("ViTView", "held-out accuracy"),
                series=accuracies,
                x_label=step,
                x_range=(0.0, steps),
                y_range=(0.0, 1.0),
                goal=lab.GOAL.at_least,
                marker=shown_step,
            ),
        ]
