"""What the Global vs local tab exports: global attention beside the local model as the tab
draws them (every output step's window, p_t, the truth, the selected step's reading) with a
caption (the task, the sentence, both answers), and a run's training curves once it has taken
a step."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui import theme
from explorer.gui.i18n import translate
from explorer.gui.lab.export import Captioned, page_figure, shown_or_computed, training_curves
from explorer.gui.views.base import FigureSource, ViewContext

TAB = "local"
EXPORT_SIZE = QtCore.QSize(1000, 760)


class WindowsPicture:
    """The tab's two canvases, drawn again off screen side by side (a canvas never shown)."""

    def __init__(self, shown: list[tuple[object, str]], selected: int | None, look):
        self.shown, self.selected, self.look = shown, selected, look

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRectF, style) -> None:
        from explorer.gui.labs.translation.window_canvas import WindowCanvas

        t = self.look.theme
        width = rect.width() / max(1, len(self.shown))
        for k, (trace, title) in enumerate(self.shown):
            canvas = WindowCanvas()
            canvas.set_style(max(14, self.look.figure_px), t.plot_fg, t.plot_bg, t.accent, t.muted)
            canvas.set_trace(trace, title)
            canvas.set_selected(self.selected)
            canvas.resize(max(1, int(width)), max(1, int(rect.height())))
            painter.save()
            painter.translate(rect.left() + k * width, rect.top())
            canvas.render(
                painter, QtCore.QPoint(0, 0), QtGui.QRegion(), QtWidgets.QWidget.RenderFlag.DrawChildren
            )
            painter.restore()
            canvas.deleteLater()


def titles(compared, req) -> tuple[str, str]:
    """The two canvases' titles, as the tab writes them."""
    from explorer.gui.labs.translation.window_view import LOCAL_NAMES

    step = req.step if req is not None and req.weights == "trained" else None
    where = (
        translate("LocalWindow", "shipped weights")
        if step is None
        else translate("LocalWindow", "training step {n}").format(n=step)
    )
    return (
        translate("LocalWindow", "global: every source word ({where})").format(where=where),
        translate("LocalWindow", "{model}, D = {d}").format(
            model=translate("LocalWindow", LOCAL_NAMES[compared.local.model]), d=compared.local.half_width
        ),
    )


def caption(compared, task: str) -> str:
    """What the export was computed from (a file has no tab around it to say so): the task, the
    sentence, each model's answer."""
    from explorer.gui.labs.translation.window_view import TASK_NAMES

    what = translate("LocalWindow", TASK_NAMES[task]) + " · “" + compared.local.source + "”"
    answers = translate("LocalWindow", "global: {0}  ·  local: {1}").format(
        compared.global_.output, compared.local.output
    )
    return what + "\n" + answers


def figures(context: ViewContext) -> dict[str, FigureSource]:
    from explorer.gui.labs.translation.window_view import LocalTraining

    lstate = context.state.labs[TAB]

    def windows():
        view = context.view(TAB)
        req = lstate.request()
        compared = shown_or_computed(
            None if view is None else view.compared,
            None if view is None else view.compared_request,
            req,
            translate("LocalWindow", "Cannot translate this: {0}"),
        )
        shown = list(zip((compared.global_, compared.local), titles(compared, req)))
        picture = WindowsPicture(shown, lstate.settings.step, theme.look(context.state))
        return Captioned(picture, caption(compared, lstate.settings.task)), QtCore.QSize(
            EXPORT_SIZE.width(), EXPORT_SIZE.height() + 4 * context.style().font.pixelSize()
        )

    return {
        "local:windows": FigureSource(
            translate("LocalWindow", "Global vs local: every step's window, p_t and weights"), windows
        ),
        **{
            f"local:{name}": source
            for name, source in training_curves(
                context,
                lstate,
                LocalTraining(),
                translate("LocalWindow", "Global vs local: the training curves"),
            ).items()
        },
    }


def shown_figure(context: ViewContext) -> str:
    """The figure of the page on screen (the Export dialog's preset): the windows or the curves."""
    from explorer.gui.labs.translation.window_view import TRAIN_PAGE

    view = context.view(TAB)
    training = view is not None and view.pages.currentIndex() == TRAIN_PAGE
    return page_figure("local:training" if training else "local:windows", figures(context))
