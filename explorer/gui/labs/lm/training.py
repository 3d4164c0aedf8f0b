"""What the Language model tab's training page says and draws (explorer.gui.lab.training):
the training loss with the probe's two half-losses and the phase change marked; the
induction score of every second-layer head and the best first-layer previous-token score,
the goal dashed; the snapshot on screen marked on both."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from explorer.appstate.lm import HEADS, MAX_SEED, MAX_TRAIN_STEPS, LMState
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import GOAL_COLOUR, Curves, Series
from explorer.gui.lab.shipped import SHIPPED_COLOUR, history_of, shipped_loss, shipped_metric
from explorer.gui.lab.training import TrainingContent
from explorer.lab import LabRun
from explorer.lm.folders import WEIGHTS_FILE, shipped_folder
from explorer.lm.measures import phase_change

LOSS = "#0072B2"
FIRST_HALF = "#E69F00"
REPEATED_HALF = "#009E73"
HELD_OUT = "#CC79A7"
PHASE = "#D55E00"
PREVIOUS = "#555555"
# one colour per head, the same in both score plots (Okabe–Ito, colour-blind safe)
HEAD_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7")


def task_name(task: str) -> str:
    return {
        "induction": translate("LMView", "the induction model (random symbols repeated)"),
        "text": translate("LMView", "the text model (English and Chinese characters)"),
    }[task]


def phase_step(run: LabRun | None) -> int | None:
    """Where the repeated half pulled away from the first (explorer.lm.measures.phase_change)."""
    if run is None or not run.metrics:
        return None
    return phase_change(run.eval_steps, run.series("first_half_loss"), run.series("repeated_half_loss"))


class LMTraining(TrainingContent):
    steps_range = (10, MAX_TRAIN_STEPS)
    seed_range = (0, MAX_SEED)

    def __init__(self, presenting: Callable[[], bool] = lambda: False):
        """``presenting``: whether the window is on a projector (the loss plot's title short
        there, the plots' titles short: a finished run's legends in two lines beside the lesson, the
        loss's axis keeps its ticks)."""
        self.presenting = presenting

    def intro(self, lab: LMState) -> str:
        return translate(
            "LMView",
            "Train {0} from random weights: the loss on the repeated half of the probe drops "
            "suddenly when a previous-token head and an induction head form.",
        ).format(task_name(lab.task))

    def measure(self, run: LabRun) -> str | None:
        """The run's scores and its phase change; what the dashed lines are while they show
        (before a run the page's intro says it)."""
        parts = []
        induction, previous = run.last("best_induction"), run.last("best_previous_token")
        if induction is not None and previous is not None:
            parts.append(
                translate("LMView", "best induction score {0:.2f}, best previous-token score {1:.2f}").format(
                    induction, previous
                )
            )
        step = phase_step(run)
        if step is not None:
            parts.append(translate("LMView", "phase change at step {0}").format(step))
        if history_of(shipped_folder(run.spec.task) / WEIGHTS_FILE) is not None:
            parts.append(translate("LabTraining", "Dashed: the shipped run.").rstrip(".。"))
        return " · ".join(parts) or None

    def goal_reached(self, run: LabRun) -> str:
        return translate(
            "LMView", "(induction score {goal:g} reached at step {step}, {s:.1f} s after Train)"
        ).format(goal=run.goal.at_least, step=run.goal_step, s=run.goal_wall_s)

    def steps_tip(self) -> str:
        return translate("LMView", "Optimiser steps of 32 sequences each")

    def curves(self, lab: LMState, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        """Every legend entry names a line drawn, in its colour and dash: before a run the
        shipped run's dashed lines (the run's own solid ones are empty then, and left out), and
        the goal's dashed line; with a run its solid lines (the status line says what the
        dashed ones are: ``measure``)."""
        step = translate("LMView", "step")
        steps = float(run.steps if run is not None else lab.train_steps)
        losses = np.asarray(run.losses if run is not None else [], dtype=float)
        evals = np.asarray(run.eval_steps if run is not None else [], dtype=float)
        live = run is not None  # the run's solid lines in the legend; before it, the shipped run's

        def series(name: str) -> np.ndarray:
            return np.asarray(run.series(name) if run is not None else [], dtype=float)

        first, repeated = series("first_half_loss"), series("repeated_half_loss")
        training, first_name, repeated_name = (
            translate("LMView", "training"),
            translate("LMView", "1st half"),
            translate("LMView", "repeated"),
        )
        # short names: the legend shares the title's one line (the status line says them in full)
        loss_series = [
            Series(training, np.arange(1, len(losses) + 1), losses, LOSS, 1.0, in_legend=live),
            Series(first_name, evals, first, FIRST_HALF, dots=True, in_legend=live),
            Series(repeated_name, evals, repeated, REPEATED_HALF, dots=True, in_legend=live),
        ]
        if run is not None and run.spec.task == "text":
            loss_series.append(
                Series(translate("LMView", "held out"), evals, series("held_out_loss"), HELD_OUT, dots=True)
            )
        at = phase_step(run)
        if at is not None:  # a vertical line: the phase change
            finite = [v for v in (*losses, *first, *repeated) if math.isfinite(v)]
            top = max(finite) if finite else 1.0
            loss_series.append(
                Series(
                    translate("LMView", "phase"),
                    np.array([at, at], float),
                    np.array([0.0, top]),
                    PHASE,
                    2.0,
                )
            )
        # the legend shares the title's one line: the heads by name, the title says the score
        # lines without dots: five series of dots cost the GUI thread twice the drawing
        scores = [
            Series(f"1.{h}", evals, series(f"induction/1.{h}"), HEAD_COLOURS[h], in_legend=live)
            for h in range(HEADS)
        ]
        previous_name = translate("LMView", "previous")  # short: both plots' legends in two lines
        scores.append(
            Series(previous_name, evals, series("best_previous_token"), PREVIOUS, 2.5, in_legend=live)
        )
        # the run that made the shipped checkpoint, dashed, from before any run of the page's:
        # its two halves part at its phase change
        shipped = history_of(shipped_folder(lab.task) / WEIGHTS_FILE)
        shipped_losses = [
            *shipped_loss(shipped),
            *shipped_metric(shipped, "first_half_loss", FIRST_HALF, first_name),
            *shipped_metric(shipped, "repeated_half_loss", REPEATED_HALF, repeated_name),
        ]
        shipped_scores = [
            *shipped_metric(
                shipped,
                "best_induction",
                SHIPPED_COLOUR,
                translate("LMView", "best induction"),
            ),
            *shipped_metric(shipped, "best_previous_token", PREVIOUS, previous_name),
        ]
        if not live:  # the shipped lines' legend entries (their own names are long: the hover's)
            loss_series += legend_entries(shipped_losses, (training, first_name, repeated_name))
            # "best" beside the title "Induction score": the best head's (the hover says it in full)
            scores += legend_entries(shipped_scores, (translate("LMView", "best"), previous_name))
        # the goal's dashed line (drawn by the plot itself), named
        scores.append(legend_entry(translate("LMView", "goal"), GOAL_COLOUR))
        return [
            Curves(
                title=translate("LMView", "Loss")
                if self.presenting()
                else translate("LMView", "Loss (nats)"),
                series=loss_series + shipped_losses,
                x_label=step,
                x_range=(0.0, steps),
                marker=shown_step,
            ),
            Curves(
                title=translate("LMView", "Scores")
                if self.presenting()
                else translate("LMView", "Induction score"),
                series=scores + shipped_scores,
                x_label=step,
                x_range=(0.0, steps),
                y_range=(0.0, 1.0),
                goal=lab.GOAL.at_least,
                marker=shown_step,
            ),
        ]


def legend_entry(name: str, colour: str) -> Series:
    """A legend's dashed entry for a line drawn otherwise (no data of its own: nothing drawn)."""
    return Series(name, np.zeros(0), np.zeros(0), colour, dashed=True)


def legend_entries(drawn: list[Series], names: tuple[str, ...]) -> list[Series]:
    """The legend's entries of these dashed lines, by their short names."""
    return [legend_entry(name, s.colour) for s, name in zip(drawn, names)]
