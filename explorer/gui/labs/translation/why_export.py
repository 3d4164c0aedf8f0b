"""What the Why-attention tab exports: the two maps of the sentence shown (one fixed C beside
the attention weights), the accuracy-against-length curve on screen (the shipped run's until a
run here has evaluated: a curve to show whether or not anything was trained), and a run's
training curves once it has taken a step."""

from __future__ import annotations

from PySide6 import QtCore

from explorer.gui.heatmap import Figure
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import CurvesPicture
from explorer.gui.lab.export import page_figure, shown_or_computed
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
        return Figure(panels, columns=2), MAPS_SIZE

    def length():
        curves, title = why.shown_curves(lab, lab.run)
        figure = why.length_figure(curves, title, lab.settings.measure)
        return CurvesPicture([figure], context.style(), columns=1), CURVE_SIZE

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
