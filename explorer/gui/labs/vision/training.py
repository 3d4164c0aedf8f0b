"""What the Vision tab's training page says and draws (explorer.gui.lab.training): the
training loss per step with the held-out loss per evaluation, the held-out accuracy with the
goal dashed, the snapshot on screen marked; beside them the watched picture's map."""

from __future__ import annotations

import numpy as np

from explorer.appstate.vision import MAX_SEED, MAX_TRAIN_STEPS, VisionState
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import Curves, Series
from explorer.gui.lab.shipped import history_of, shipped_loss, shipped_metric
from explorer.gui.lab.training import TrainingContent
from explorer.gui.labs.vision import figures as vf
from explorer.gui.labs.vision.bars import percent
from explorer.lab import LabRun
from explorer.vision.checkpoints import checkpoint_paths, shipped_stem

LOSS = "#4477aa"
HELD_OUT = "#ee6677"
ACCURACY = "#228833"


class VisionTraining(TrainingContent):
    steps_range = (10, MAX_TRAIN_STEPS)
    seed_range = (0, MAX_SEED)
    redraw_on = ("model",)  # the intro names the model, the dashed curves are its shipped run (trial 9)

    def intro(self, lab: VisionState) -> str:
        return translate(
            "VisionView",
            "Train {0} from scratch: the loss falls, the held-out accuracy rises and the map finds the shape.",
        ).format(vf.variant_label(lab.variant))

    def measure(self, run: LabRun) -> str | None:
        value = run.last("accuracy")
        if value is None:
            return None
        return translate("VisionView", "held-out accuracy {0}").format(percent(value))

    def starting(self, run: LabRun) -> str | None:
        # the run first draws its pool of training pictures (seconds on a classroom PC), and
        # the trial's page said nothing between Train and the first step
        return translate("VisionView", "Starting: making the training pictures…")

    def steps_tip(self) -> str:
        return translate("VisionView", "Optimiser steps of 32 pictures each")

    def curves(self, lab: VisionState, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        step = translate("VisionView", "step")
        steps = float(run.steps if run is not None else lab.train_steps)
        losses = run.losses if run is not None else []
        evals = np.asarray(run.eval_steps if run is not None else [], dtype=float)
        series = (
            (lambda name: np.asarray(run.series(name), dtype=float))
            if run is not None
            else (lambda _: np.zeros(0))
        )
        accuracy = translate("VisionView", "held-out accuracy")
        # the run that made the shipped checkpoint, dashed, from before any run of the page's
        shipped = history_of(checkpoint_paths(shipped_stem(lab.variant))[0])
        held_out = translate("VisionView", "held out")
        # short legend entries, the accuracy's name as its title: beside the map on a projector
        # each plot is a third of the tab wide (an entry never breaks, a title wraps)
        return [
            Curves(
                title=translate("VisionView", "Loss"),
                series=[
                    Series(
                        translate("VisionView", "training"),
                        np.arange(1, len(losses) + 1),
                        np.asarray(losses),
                        LOSS,
                        1.5,
                    ),
                    Series(
                        held_out,
                        evals,
                        series("held_out_loss"),
                        HELD_OUT,
                        dots=True,
                    ),
                    *shipped_loss(shipped),
                    *shipped_metric(shipped, "held_out_loss", HELD_OUT, held_out),
                ],
                x_label=step,
                x_range=(0.0, steps),
                marker=shown_step,
            ),
            Curves(
                title=accuracy,
                series=[
                    Series(accuracy, evals, series("accuracy"), ACCURACY, dots=True, in_legend=False),
                    *shipped_metric(shipped, "accuracy", ACCURACY, accuracy),
                ],
                x_label=step,
                x_range=(0.0, steps),
                y_range=(0.0, 1.0),
                goal=lab.GOAL.at_least,
                marker=shown_step,
            ),
        ]
