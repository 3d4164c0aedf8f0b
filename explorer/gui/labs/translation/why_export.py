"""What the Why-attention tab exports: the two maps of the sentence shown (one fixed C beside
the attention weights), the accuracy-against-length curve on screen (the shipped run's until a
run here has evaluated: a curve to show whether or not anything was trained), each with a
caption saying what it was computed from (a file has no tab around it to say so)."""

from __future__ import annotations

from PySide6 import QtCore

from explorer.gui.heatmap import Figure
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import CurvesPicture
from explorer.gui.lab.export import Captioned, page_figure, shown_or_computed
from explorer.gui.views.base import FigureSource, ViewContext

TAB = "why_attention"
MAPS_SIZE = QtCore.QSize(1200, 600)
CURVE_SIZE = QtCore.QSize(1000, 520)


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
        figure = why.length_figure(curves, title, lab.settings.measure)
        measure = translate("WhyAttention", why.MEASURE_NAMES[lab.settings.measure])
        caption = " · ".join((pair(), measure, title))
        picture = CurvesPicture([figure], context.style(), columns=1)
        return Captioned(picture, caption), grown(CURVE_SIZE, 1)

    def pair() -> str:
        return translate("WhyAttention", why.LANGUAGE_NAMES[lab.settings.language])

    def grown(size: QtCore.QSize, lines: int) -> QtCore.QSize:
        """The figure's size with room under it for a caption of so many lines."""
        return QtCore.QSize(size.width(), size.height() + int(1.6 * lines * context.style().font.pixelSize()))

    return {
        "why_attention:maps": FigureSource(
            translate("WhyAttention", "Why attention: the fixed C beside the attention weights"), maps
        ),
        "why_attention:length": FigureSource(
            translate("WhyAttention", "Why attention: accuracy against sentence length"), length
        ),
    }


def shown_figure(context: ViewContext) -> str:
    """The figure of the page on screen (the Export dialog's preset): the sentence's maps or the curve."""
    from explorer.gui.labs.translation.why_attention import CURVE_PAGE

    view = context.view(TAB)
    curve = view is not None and view.pages.currentIndex() == CURVE_PAGE
    return page_figure("why_attention:length" if curve else "why_attention:maps", figures(context))
