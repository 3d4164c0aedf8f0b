"""What a lab's tab exports besides its own figures: its training curves, drawn from the run's
data, and any figure with a caption under it."""

from __future__ import annotations

from PySide6 import QtCore, QtGui

from explorer.appstate.lab import LabState
from explorer.gui.core_text import error_text
from explorer.gui.heatmap import Style
from explorer.gui.heatmap.figure import paint_figure
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import CurvesPicture
from explorer.gui.lab.training import TrainingContent, run_curves
from explorer.gui.views.base import FigureSource, NothingToExport, ViewContext
from explorer.seq2seq import LabError

CURVES_SIZE = QtCore.QSize(1100, 420)
WINDOW = "window"  # the Export dialog's "the whole window"


def page_figure(name: str | None, offered: dict[str, FigureSource]) -> str:
    """What the Export dialog opens on for a lab's page: its figure (``name``) when offered, else
    (a page with no figure of its own, training curves before a run) the whole window."""
    return name if name is not None and name in offered else WINDOW


def shown_or_computed(shown, shown_request, request, cannot: str):
    """What the tab shows, when it answers ``request``; else computed now (an export asked for a
    tab never opened, or not up to date). ``cannot``: the tab's translated "Cannot …: {0}"."""
    if shown is not None and shown_request == request:
        return shown
    try:
        return request.compute()
    except LabError as exc:
        raise NothingToExport(cannot.format(error_text(exc))) from None


def training_curves(
    context: ViewContext, lab: LabState, content: TrainingContent, label: str
) -> dict[str, FigureSource]:
    """The curves of the lab's run (the snapshot shown marked), side by side, as ``training``:
    offered once a run has taken a step (there is nothing to draw before)."""

    def make():
        run = lab.run
        if run is None or not run.losses:  # the run was replaced since the dialog opened
            raise NothingToExport(translate("LabTraining", "Nothing to export yet: train a model first."))
        plots = run_curves(content, lab, run, lab.shown_step())
        return CurvesPicture(plots, context.style(), columns=len(plots)), CURVES_SIZE

    run = lab.run
    return {} if run is None or not run.losses else {"training": FigureSource(label, make)}


class Captioned:
    """A figure with a caption under it, for a slide or a handout (the Exporter paints it)."""

    def __init__(self, figure, caption: str):
        self.figure, self.caption = figure, caption

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRectF, style: Style) -> None:
        font = QtGui.QFont(style.font)
        metrics = QtGui.QFontMetricsF(font)
        flags = int(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.TextFlag.TextWordWrap)
        pad = metrics.height() / 2
        text = metrics.boundingRect(QtCore.QRectF(0, 0, rect.width() - 2 * pad, 10_000), flags, self.caption)
        below = text.height() + 2 * pad
        above = QtCore.QRectF(rect.left(), rect.top(), rect.width(), max(10.0, rect.height() - below))
        if hasattr(self.figure, "paint"):
            self.figure.paint(painter, above, style)
        else:
            paint_figure(painter, above, self.figure, style)
        painter.setFont(font)
        painter.setPen(style.fg)
        painter.drawText(
            QtCore.QRectF(rect.left() + pad, above.bottom() + pad, rect.width() - 2 * pad, text.height()),
            flags,
            self.caption,
        )
