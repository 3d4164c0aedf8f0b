"""What the Language model tab exports, drawn from the data: every head's attention on the probe,
the selected head's stages, the training curves, and (once the Generate page has written a
token) each written token's attention per head, captioned with the text and how it was written. The figures come from the tab's result
when it has one, else (a tab never opened) are computed now for the state's settings. The tab
registry names ``figures`` here."""

from __future__ import annotations

from PySide6 import QtCore

from explorer.appstate.lm import HEADS, LMState
from explorer.appstate.lm_jobs import LMResult, compute, request_of
from explorer.gui.heatmap import Figure
from explorer.gui.i18n import translate
from explorer.gui.lab.export import Captioned, page_figure, training_curves
from explorer.gui.labs.lm import heads as lh
from explorer.gui.labs.lm import writing as lw
from explorer.gui.labs.lm.training import LMTraining
from explorer.gui.messages import error_message
from explorer.gui.views.base import FigureSource, NothingToExport, ViewContext

TAB = "lm"
HEADS_SIZE = QtCore.QSize(1400, 760)
STAGES_SIZE = QtCore.QSize(1200, 900)
GENERATE_SIZE = QtCore.QSize(1400, 900)
CAPTION_TEXT = 200  # characters of the written text in a caption (the prompt and up to 64 tokens)


def figures(context: ViewContext) -> dict[str, FigureSource]:
    view = context.view(TAB)
    lab: LMState = context.state.labs[TAB]

    def result() -> LMResult:
        wanted = request_of(lab)
        if view is not None and view.result is not None and view.result.request == wanted:
            return view.result
        try:
            return compute(wanted)
        except ValueError as exc:  # a typed probe the model cannot read
            raise NothingToExport(error_message(exc)) from None

    def heads():
        r = result()
        figure = Figure(lh.all_heads(r), columns=HEADS, shared_bar=True)
        caption = translate(
            "LMView",
            "Every head's attention on the probe (prev: previous-token score, ind: induction score).",
        )
        return Captioned(figure, caption), HEADS_SIZE

    def stages():
        r = result()
        return Figure(lh.stage_panels(r, lab.head), columns=4), STAGES_SIZE

    def generate():
        writing = lab.writing
        if writing is None or not writing.generation.steps:  # a new text begun since the dialog opened
            raise NothingToExport(translate("LMView", "Nothing to export yet: press Generate first."))
        generation = writing.generation
        titles = lw.head_titles(None if view is None else view.result, writing)
        figure = Figure(lw.head_panels(generation, titles), columns=HEADS, shared_bar=True)
        text = lw.written_text(generation)
        if len(text) > CAPTION_TEXT:
            text = "…" + text[-(CAPTION_TEXT - 1) :]  # the end: what was written
        caption = "\n".join(
            (
                translate(
                    "LMView",
                    "Each written token's attention, per head (row: a token written; columns: the text).",
                ),
                translate("LMView", "{n} tokens written").format(n=len(generation.steps))
                + " · "
                + lw.how_written(writing)
                + " · “"
                + text
                + "”",
            )
        )
        return Captioned(figure, caption), GENERATE_SIZE

    # named "lm:…": the Export dialog lists every tab's figures together ("heads" is All heads')
    out = {
        "lm:heads": FigureSource(translate("LMView", "Language model: every head's attention"), heads),
        "lm:stages": FigureSource(translate("LMView", "Language model: the selected head's stages"), stages),
    }
    if lab.writing is not None and lab.writing.generation.steps:
        out["lm:generate"] = FigureSource(
            translate("LMView", "Language model: the written tokens' attention"), generate
        )
    curves = training_curves(
        context, lab, LMTraining(), translate("LMView", "Language model: training curves")
    )
    out.update({f"lm:{name}": source for name, source in curves.items()})
    return out


PAGE_FIGURES = {"train": "lm:training", "heads": "lm:heads", "stages": "lm:stages", "generate": "lm:generate"}


def shown_figure(context: ViewContext) -> str:
    """The figure of the page on screen (the Export dialog's preset)."""
    return page_figure(PAGE_FIGURES.get(context.state.labs[TAB].page), figures(context))
