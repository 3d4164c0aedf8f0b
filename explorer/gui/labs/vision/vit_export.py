"""What the Vision Transformer tab exports, as PNG or SVG with a caption under each figure: where
the ViT looks beside the CNN's spatial map, the heads, the data experiment, a photograph's own
patches, and the live pair's training curves.

The figures come from the tab's result when it is the one its settings ask for, else (a tab
never opened, settings changed since) are computed now: the user asked for them. The maps and
bars are the tab's own painted widgets, made here at the figure's size in the export's style;
the data experiment is the shared curve plot's. The tab registry names ``figures`` here.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.vit import ViTState
from explorer.appstate.vit_jobs import ViTResult, compute, request_of
from explorer.gui.heatmap import Style
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import CurvesPicture
from explorer.gui.lab.export import Captioned, page_figure, training_curves
from explorer.gui.labs.vision import vit_shown as shown
from explorer.gui.labs.vision.pages import picture_error
from explorer.gui.labs.vision.vit_curve import data_caption, data_curves, live_accuracies
from explorer.gui.labs.vision.vit_pictures import HeadBars, PatchMap
from explorer.gui.labs.vision.vit_training import PairTraining
from explorer.gui.views.base import FigureSource, NothingToExport, ViewContext
from explorer.vision.data_curve import CurveError, shipped_result

TAB = "vit"
LOOKS_SIZE = QtCore.QSize(1200, 710)
HEADS_SIZE = QtCore.QSize(1400, 640)
DATA_SIZE = QtCore.QSize(1000, 700)
PHOTO_SIZE = QtCore.QSize(800, 900)


class Painted:
    """The tab's painted widgets side by side, each a column of the figure, in the export's style."""

    def __init__(self, widgets: list[QtWidgets.QWidget]):
        self.widgets = widgets

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRectF, style: Style) -> None:
        width = rect.width() / len(self.widgets)
        for k, widget in enumerate(self.widgets):
            widget.setFont(style.font)
            palette = widget.palette()
            palette.setColor(QtGui.QPalette.ColorRole.WindowText, style.fg)
            widget.setPalette(palette)
            widget.resize(max(1, int(width)), max(1, int(rect.height())))
            painter.save()
            painter.translate(rect.left() + k * width, rect.top())
            widget.render(painter, QtCore.QPoint(0, 0), renderFlags=QtWidgets.QWidget.RenderFlag.DrawChildren)
            painter.restore()


def _map(what: shown.MapShown) -> PatchMap:
    widget = PatchMap()
    what.on(widget)
    return widget


def _bars(what: shown.BarsShown) -> HeadBars:
    widget = HeadBars()
    what.on(widget)
    return widget


def figures(context: ViewContext) -> dict[str, FigureSource]:
    view = context.view(TAB)
    lab: ViTState = context.state.labs[TAB]

    def result() -> ViTResult:
        wanted = request_of(lab)
        if view is not None and view.result is not None and view.result.request == wanted:
            return view.result
        try:
            return compute(wanted)
        except ValueError as exc:  # a photo that cannot be read (ImageError), a run without a snapshot
            raise NothingToExport(picture_error(exc)) from None

    def looks():
        r, s = result(), lab.settings
        chosen = shown.chosen_map(s, r)
        caption = shown.summary(r, s.size) + "\n" + shown.shares(s, r, chosen)
        return Captioned(Painted([_map(chosen), _map(shown.cnn_map(r))]), caption), LOOKS_SIZE

    def heads():
        r, s = result(), lab.settings
        figure = Painted(
            [_bars(shown.distance_bars(r)), _bars(shown.self_bars(r)), _map(shown.position_map(s, r))]
        )
        caption = translate("ViTView", "The ViT's heads on this picture: {0}.").format(
            shown.models_words(r, s.size)
        )
        try:  # the words beside the bars on the page, and the distances of its tooltip
            curve = view.curve if view is not None and view.curve is not None else shipped_result()
        except CurveError:
            curve = None  # the figure alone: the page says why the experiment cannot be read
        said = [shown.heads_words(curve), shown.distance_words(curve)]
        return Captioned(figure, "\n".join([caption, *filter(None, said)])), HEADS_SIZE

    def data():
        curve = view.curve if view is not None and view.curve is not None else None
        if curve is None:
            try:
                curve = shipped_result()
            except CurveError as exc:
                raise NothingToExport(str(exc)) from None
        live = live_accuracies(lab)
        picture = CurvesPicture([data_curves(curve, 1 / len(shown.CONFIG.classes), live)], context.style(), 1)
        return Captioned(picture, "\n".join(data_caption(curve, bool(live)))), DATA_SIZE

    def photo():
        if view is None or view.photo is None:
            raise NothingToExport(translate("ViTView", "Open a photo on the Photo page first."))
        figure = Painted([_map(shown.photo_map(view.photo, view.photo_patch))])
        return Captioned(figure, shown.photo_words(view.photo)), PHOTO_SIZE

    out = {
        "vit:looks": FigureSource(
            translate("ViTView", "Vision Transformer: where it looks, beside the CNN"), looks
        ),
        "vit:heads": FigureSource(translate("ViTView", "Vision Transformer: its heads"), heads),
        "vit:data": FigureSource(translate("ViTView", "Vision Transformer: accuracy against data"), data),
    }
    if view is not None and view.photo is not None:
        out["vit:photo"] = FigureSource(
            translate("ViTView", "Vision Transformer: a photo's own patches"), photo
        )
    curves = training_curves(
        context,
        lab,
        PairTraining(),
        translate("ViTView", "Vision Transformer: the live pair's training curves"),
    )
    out.update({f"vit:{name}": source for name, source in curves.items()})
    return out


PAGE_FIGURES = {
    "looks": "vit:looks",
    "heads": "vit:heads",
    "data": "vit:data",
    "train": "vit:training",
    "photo": "vit:photo",
}


def shown_figure(context: ViewContext) -> str:
    """The figure of the page on screen (the Export dialog's preset)."""
    lab: ViTState = context.state.labs[TAB]
    return page_figure(PAGE_FIGURES.get(lab.settings.page), figures(context))
