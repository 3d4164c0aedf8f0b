"""What the Translation tab exports: the alignment (heatmap or lines) with a caption, the
selected output step's stages, and the training curves, drawn from the data whether the tab
is on screen or not (a tab never opened computes its translation now: it was asked for).
"""

from __future__ import annotations

import re

import numpy as np
from PySide6 import QtCore, QtGui

from explorer.gui import theme
from explorer.gui.core_text import error_text
from explorer.gui.heatmap import Figure
from explorer.gui.i18n import translate
from explorer.gui.lab.export import Captioned, page_figure, training_curves
from explorer.gui.labs.translation.parts import (
    ATTENTION_NAMES,
    MODEL_NAMES,
    SCORING_NAMES,
    alignment_panel,
    input_problem,
    score_report,
    shown,
    step_panels,
)
from explorer.gui.labs.translation.training import TranslationTraining
from explorer.gui.lines_view import LinesView
from explorer.gui.views.base import FigureSource, NothingToExport, ViewContext
from explorer.seq2seq import LabError, TranslationTrace

TAB = "translation"
EXPORT_SIZE = QtCore.QSize(900, 600)
STAGES_EXPORT_SIZE = QtCore.QSize(1500, 820)


class LinesPicture:
    """The lines view of a translation, painted into any device: a LinesView never shown."""

    def __init__(self, trace: TranslationTrace, font_px: int, fg: str, bg: str):
        self.view = LinesView()
        self.view.set_style(font_px, fg, bg)
        self.view.set_data(shown(trace.output_tokens), shown(trace.source_tokens), trace.alignment, heads=[0])

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRectF, style) -> None:
        painter.save()
        painter.translate(rect.topLeft())
        self.view.paint_into(painter, rect.width(), rect.height())
        painter.restore()


def weights_words(label: str) -> str:
    """The trace's weights (its ``checkpoint``: the command's English label) in the interface's
    words: a Chinese caption said "shipped bahdanau-additive"."""
    if label.startswith("shipped "):
        return translate("Translation", "the shipped checkpoint")
    step = re.fullmatch(r"training step (\d+)", label)
    if step is not None:
        return translate("Translation", "training step {n}").format(n=step.group(1))
    return label  # a folder: its path


def caption(trace: TranslationTrace) -> str:
    """What the alignment shows, in a sentence under it: the text, the answer, the model."""
    head, _ = score_report(trace)
    what = translate(
        "Translation",
        "“{source}” → “{output}”: {model}, {scoring} scoring, {attention} attention ({checkpoint}). "
        "Each row is an output character, each column a source character; a cell is the weight the "
        "step gave that character.",
    ).format(
        source=trace.source,
        output=trace.output,
        model=translate("Translation", MODEL_NAMES[trace.model]),
        scoring=translate("Translation", SCORING_NAMES.get(trace.scoring, trace.scoring)),
        attention=translate("Translation", ATTENTION_NAMES[trace.attention]),
        checkpoint=weights_words(trace.checkpoint),
    )
    return f"{what} {head}"


def figures(context: ViewContext) -> dict[str, FigureSource]:
    tstate = context.state.translation

    def view():
        return context.view(TAB)

    def trace() -> TranslationTrace:
        shown_view = view()
        if shown_view is not None and shown_view.trace is not None:
            return shown_view.trace
        req = tstate.request()  # never computed: compute it now, it was asked for
        problem = input_problem(req.source)
        if problem is not None:
            raise NothingToExport(problem)
        try:
            return req.compute()
        except LabError as exc:
            raise NothingToExport(
                translate("Translation", "Cannot translate this: {0}").format(error_text(exc))
            ) from None

    def alignment():
        t = trace()
        return Captioned(Figure([alignment_panel(t)], columns=1), caption(t)), EXPORT_SIZE

    def lines():
        t = trace()
        look = theme.look(context.state)
        picture = LinesPicture(t, max(look.figure_px, 16), look.theme.plot_fg, look.theme.plot_bg)
        return Captioned(picture, caption(t)), EXPORT_SIZE

    def step_stages():
        t = trace()
        v = view()
        if v is not None and v.trace is t:
            at, head, selected = v.attention(), v.head(), v.cell()
        else:
            at, head = t.attention_trace("cross", -1), 0
            selected = (0, int(np.argmax(at.weights[0, 0])))
        panels = step_panels(t, at, head)
        return Figure(panels, columns=min(4, len(panels)), selection=selected), STAGES_EXPORT_SIZE

    return {
        "translation:alignment": FigureSource(
            translate("Translation", "Translation: the alignment (heatmap)"), alignment
        ),
        "translation:lines": FigureSource(
            translate("Translation", "Translation: the alignment as lines"), lines
        ),
        "translation:step": FigureSource(
            translate("Translation", "Translation: the selected output step's stages"), step_stages
        ),
        **{
            f"translation:{name}": source
            for name, source in training_curves(
                context,
                tstate,
                TranslationTraining(),
                translate("Translation", "Translation: the training curves"),
            ).items()
        },
    }


def shown_figure(context: ViewContext) -> str:
    """The Export dialog's preset: the alignment as the tab draws it, a heatmap or lines (the
    output step's stages and the training curves beside it have their own entries)."""
    lines = context.state.translation.settings.view == "lines"
    return page_figure("translation:lines" if lines else "translation:alignment", figures(context))
