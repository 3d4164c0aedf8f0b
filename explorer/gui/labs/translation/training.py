"""What the Translation tab's training page says and draws (explorer.gui.lab.training): the
training loss per step, the held-out exact match per evaluation with the goal dashed, and the
snapshot on screen marked on both."""

from __future__ import annotations

import numpy as np

from explorer.appstate.translation import SEED_RANGE, STEPS_RANGE, TranslationState
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import Curves, Series
from explorer.gui.lab.shipped import history_of, shipped_loss, shipped_metric
from explorer.gui.lab.training import TrainingContent
from explorer.gui.labs.translation.parts import MODEL_NAMES
from explorer.lab import LabRun
from explorer.seq2seq.checkpoints import WEIGHTS_FILE, shipped_folder

LOSS_COLOUR = "#0072B2"
ACCURACY_COLOUR = "#009E73"


class TranslationTraining(TrainingContent):
    steps_range = STEPS_RANGE
    seed_range = SEED_RANGE

    def intro(self, lab: TranslationState) -> str:
        return translate(
            "Translation",
            "Train {model} from random weights: the loss falls, the held-out accuracy rises, and "
            "the alignment forms as you watch.",
        ).format(model=translate("Translation", MODEL_NAMES[lab.settings.model]))

    def measure(self, run: LabRun) -> str | None:
        value = run.last("exact_match")
        if value is None:
            return None
        return translate("Translation", "held-out exact match {pct:.1f} %").format(pct=100 * value)

    def steps_tip(self) -> str:
        return translate("Translation", "How many optimiser steps (batches of 128 dates) to train for")

    def curves(self, lab: TranslationState, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        step = translate("Translation", "step")
        steps = float(run.steps if run is not None else lab.settings.train_steps)
        losses = run.losses if run is not None else []
        evals = run.eval_steps if run is not None else []
        exact = run.series("exact_match") if run is not None else []
        # one series a plot: its name is the title, which wraps in a narrow plot (a legend
        # entry never breaks: beside the lesson two plots would be wider than their column)
        loss_name = translate("Translation", "training loss")
        accuracy_name = translate("Translation", "held-out exact match")
        loss = Series(
            loss_name, np.arange(1, len(losses) + 1), np.asarray(losses), LOSS_COLOUR, in_legend=False
        )
        accuracy = Series(
            accuracy_name, np.asarray(evals), np.asarray(exact), ACCURACY_COLOUR, dots=True, in_legend=False
        )
        # the run that made the shipped checkpoint, dashed, from before any run of the page's
        shipped = history_of(shipped_folder(lab.settings.model, lab.settings.scoring) / WEIGHTS_FILE)
        return [
            Curves(
                title=loss_name,
                series=[loss, *shipped_loss(shipped)],
                x_label=step,
                x_range=(0.0, steps),
                marker=shown_step,
            ),
            Curves(
                title=accuracy_name,
                series=[
                    accuracy,
                    *shipped_metric(shipped, "exact_match", ACCURACY_COLOUR, accuracy_name),
                ],
                x_label=step,
                x_range=(0.0, steps),
                y_range=(0.0, 1.0),
                goal=lab.GOAL.at_least,
                marker=shown_step,
            ),
        ]
