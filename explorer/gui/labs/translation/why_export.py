"""What the Why-attention tab exports: the two maps of the sentence shown (one fixed C beside
the attention weights), the accuracy-against-length curve on screen (the shipped run's until a
run here has evaluated: a curve to show whether or not anything was trained) and, once a run
here has taken a step, its training curves (the loss, and each model's accuracy on long
sentences at every evaluation beside the shipped run's), each with a caption saying what it was
computed from and the two models' sizes (a file has no tab around it to say so)."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore

from explorer.gui.heatmap import Figure
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import Curves, CurvesPicture, Series
from explorer.gui.lab.export import Captioned, page_figure, shown_or_computed, training_curves
from explorer.gui.lab.shipped import shipped_name
from explorer.gui.labs.translation.why_attention import (
    ATTENTION_COLOUR,
    FIXED_COLOUR,
    WhyTraining,
    model_names,
    shipped_run,
)
from explorer.gui.views.base import FigureSource, ViewContext
from explorer.lab import LabRun
from explorer.seq2seq.length_curve import LONG

TAB = "why_attention"
MAPS_SIZE = QtCore.QSize(1200, 600)
CURVE_SIZE = QtCore.QSize(1000, 520)
LOSS_COLOUR = "#009E73"  # the Okabe–Ito green: neither model's colour (it is both models' mean)
COLOURS = {"attention": ATTENTION_COLOUR, "no-attention": FIXED_COLOUR}


def parameter_counts() -> str:
    """Both models' sizes, as the curve page says them beside its picker (a run here trains the
    shipped run's two architectures: the same counts)."""
    parameters = shipped_run().parameters
    return ", ".join(
        translate("WhyAttention", "{model} ({params:,} parameters)").format(model=name, params=parameters[m])
        for m, name in model_names().items()
    )


class WhyCurves(WhyTraining):
    """The run's training curves, for the export only (the page shows the length curve): the
    two models' mean loss per step, and each model's per-word accuracy on sentences of at least
    LONG words at every evaluation, the shipped run's dashed beside."""

    def curves(self, lab, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        step = translate("Translation", "step")
        steps = float(run.steps if run is not None else lab.settings.train_steps)
        losses = np.asarray(run.losses if run is not None else [], dtype=float)
        loss_name = translate("WhyAttention", "training loss (both models' mean)")
        loss = Series(loss_name, np.arange(1, len(losses) + 1), losses, LOSS_COLOUR, in_legend=False)
        long_name = translate("WhyAttention", "per-word accuracy at ≥ {long} words").format(long=LONG)
        evals = np.asarray(run.eval_steps if run is not None else [], dtype=float)
        shipped = shipped_run()
        accuracy = []
        for model, name in model_names().items():
            ys = np.asarray(run.series(f"{model}/long/word_accuracy") if run is not None else [], dtype=float)
            accuracy.append(Series(name, evals, ys, COLOURS[model], 3.0, dots=True))
        for model, name in model_names().items():  # the run that made the shipped weights, dashed
            points = [(s, c[model].long.word_accuracy) for s, c in shipped.evaluations if model in c]
            xs = np.asarray([s for s, _ in points], dtype=float)
            ys = np.asarray([np.nan if y is None else y for _, y in points], dtype=float)
            accuracy.append(
                Series(
                    shipped_name(name),
                    xs,
                    ys,
                    COLOURS[model],
                    1.5,
                    dashed=True,
                    in_legend=False,
                    bounds=False,
                )
            )
        return [
            Curves(title=loss_name, series=[loss], x_label=step, x_range=(0.0, steps), marker=shown_step),
            Curves(
                title=long_name,
                series=accuracy,
                x_label=step,
                # a run's own steps; before one, the shipped run's too
                x_range=(0.0, steps if run is not None else max(steps, float(shipped.steps))),
                y_range=(0.0, 1.05),  # no goal line: it is drawn in the fixed C's vermilion
                marker=shown_step,
            ),
        ]


def figures(context: ViewContext) -> dict[str, FigureSource]:
    from explorer.gui.labs.translation import why_attention as why

    lab = context.state.labs[TAB]

    def maps():
        view = context.view(TAB)
        shown = shown_or_computed(
            None if view is None else view.shown,
            None if view is None else view.shown_request,
            lab.request(),
            translate("WhyAttention", "Cannot translate this: {0}"),
        )
        panels = [
            why.map_panel(shown.fixed, translate("WhyAttention", "one fixed C")),
            why.map_panel(shown.attention, translate("WhyAttention", "with attention: αᵢⱼ")),
        ]
        weights = (
            translate("LocalWindow", "shipped weights")
            if shown.step is None
            else translate("LocalWindow", "training step {n}").format(n=shown.step)
        )
        first = " · ".join((pair(), weights, "“" + shown.attention.source + "”"))
        lines = [first, *why.summary_lines(shown)]
        return Captioned(Figure(panels, columns=2), "\n".join(lines)), grown(MAPS_SIZE, len(lines))

    def length():
        curves, title = why.shown_curves(lab, lab.run)
        # the shipped run standing in for one not evaluated yet: dashed, as on screen and as its title says
        figure = why.length_figure(curves, title, lab.settings.measure, why.stands_in(lab, lab.run))
        measure = translate("WhyAttention", why.MEASURE_NAMES[lab.settings.measure])
        caption = " · ".join((pair(), measure, title)) + "\n" + parameter_counts()
        picture = CurvesPicture([figure], context.style(), columns=1)
        return Captioned(picture, caption), grown(CURVE_SIZE, 2)

    def pair() -> str:
        return translate("WhyAttention", why.LANGUAGE_NAMES[lab.settings.language])

    def grown(size: QtCore.QSize, lines: int) -> QtCore.QSize:
        """The figure's size with room under it for a caption of so many lines."""
        return QtCore.QSize(size.width(), size.height() + int(1.6 * lines * context.style().font.pixelSize()))

    def training():
        picture, size = curves["training"].make()
        run = lab.run
        done = translate("WhyAttention", "trained here: step {step} of {total}").format(
            step=len(run.losses) if run is not None else 0, total=run.steps if run is not None else 0
        )
        caption = " · ".join((pair(), done)) + "\n" + parameter_counts()
        return Captioned(picture, caption), grown(size, 2)

    curves = training_curves(
        context, lab, WhyCurves(), translate("WhyAttention", "Why attention: training curves")
    )
    out = {
        "why_attention:maps": FigureSource(
            translate("WhyAttention", "Why attention: the fixed C beside the attention weights"), maps
        ),
        "why_attention:length": FigureSource(
            translate("WhyAttention", "Why attention: accuracy against sentence length"), length
        ),
    }
    if curves:  # a run here has taken a step
        out["why_attention:training"] = FigureSource(curves["training"].label, training)
    return out


def shown_figure(context: ViewContext) -> str:
    """The figure of the page on screen (the Export dialog's preset): the sentence's maps or the curve."""
    from explorer.gui.labs.translation.why_attention import CURVE_PAGE

    view = context.view(TAB)
    curve = view is not None and view.pages.currentIndex() == CURVE_PAGE
    return page_figure("why_attention:length" if curve else "why_attention:maps", figures(context))
