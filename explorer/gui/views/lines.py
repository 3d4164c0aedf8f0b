"""The weights stage as lines: a view of the Pipeline's weights panel and of the All-heads tab.

``state.lines`` (explorer.appstate.lines) says which of them draw lines. In the Pipeline a
``PipelineLines`` check box lays a ``LinesView`` over the weights panel of the canvas, in its
place (same slot, same title, the lesson's frame); in the All-heads tab ``HeadsLines`` puts
one lines view with the heads overlaid (all of them or a chosen few) in place of the grid.
Both draw from the tab's trace, follow the state's head, cell and look, and select a cell
everywhere when a token is clicked. ``figures`` exports both as PNG or SVG from the data.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.appstate.display import PreparedTrace
from explorer.appstate.lesson import STEPS
from explorer.gui import theme
from explorer.gui.i18n import translate
from explorer.gui.lines_view import LinesFigure, LinesPicture, LinesView
from explorer.gui.views import predict, stages
from explorer.gui.views.base import FigureSource, NothingToExport, ViewContext

EXPORT_SIZE = QtCore.QSize(1200, 520)


def _captions() -> tuple[str, str]:
    return translate("Lines", "queries"), translate("Lines", "keys")


def pipeline_picture(state, prepared: PreparedTrace, head: int) -> LinesPicture:
    """One head's weights as lines, titled as the pipeline's weights panel, with the lesson's
    frame, the selection and (in the lesson) the veil or the guess and the answer."""
    trace = prepared.trace
    head = min(max(head, 0), trace.heads - 1)
    panel = stages.pipeline_panel(trace, prepared.display, head, "weights")
    highlighted = state.lesson_visible and "weights" in stages.STAGE_PANELS.get(_lesson_stage(state), ())
    word = translate("Stages", "head")
    return LinesPicture.of(
        trace.tokens_query,
        trace.tokens_key,
        trace.weights[head],
        [head],
        title=f"{panel.title.split('  [')[0]}  ({word} {head})",
        captions=_captions(),
        selected=_inside(state.selected_cell, trace),
        key_marks=predict.key_marks(state, trace, head),
        veiled="weights" in predict.veiled_names(state),
        frame=theme.look(state).theme.accent if highlighted else None,
    )


def heads_picture(state, prepared: PreparedTrace) -> LinesPicture:
    """The chosen heads' weights overlaid, one colour each, with a legend."""
    trace = prepared.trace
    heads = state.lines.options.heads_of(trace.heads)
    word = translate("Stages", "head")
    title = (
        translate("Lines", "Weights of every head, overlaid")
        if len(heads) == trace.heads
        else translate("Lines", "Weights of heads {heads}, overlaid").format(heads=", ".join(map(str, heads)))
    )
    return LinesPicture.of(
        trace.tokens_query,
        trace.tokens_key,
        trace.weights[heads],
        heads,
        title=title,
        captions=_captions(),
        selected=_inside(state.selected_cell, trace),
        legend=tuple(f"{word} {h}" for h in heads),
    )


def _lesson_stage(state) -> str:
    return STEPS[state.lesson_step].stage


def _inside(cell, trace) -> tuple[int, int] | None:
    if cell is None or cell[0] >= trace.n_query or cell[1] >= trace.n_key:
        return None
    return cell


def _styled(view: LinesView, state) -> None:
    look = theme.look(state)
    view.set_style(look.figure_px, look.theme.plot_fg, look.theme.plot_bg)


class PipelineLines(QtWidgets.QCheckBox):
    """The Pipeline's "weights as lines" switch, and the lines view it lays over the weights
    panel. It keeps itself in step with the pipeline: its canvas's layout, its trace (each
    ``rendered``), the head, the selected cell, the look and the lesson."""

    def __init__(self, pipeline):
        super().__init__()
        self.pipeline = pipeline
        self.state = pipeline.state
        self.view = LinesView(pipeline.canvas)
        self.view.setVisible(False)
        self.view.cellClicked.connect(lambda i, j: self.state.select_cell((i, j)))
        pipeline.canvas.installEventFilter(self)
        pipeline.rendered.connect(self.refresh)
        self.toggled.connect(self.state.lines.set_pipeline)
        unsubscribe = self.state.subscribe(
            self._on_state,
            ("lines", "cell", "head", "lesson", "predict", "stage_zoom", "theme", "presentation", "zoom"),
        )
        self.destroyed.connect(lambda *_: unsubscribe())
        self.retranslate()
        self._sync_box()

    # -- what it shows ---------------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.state.lines.options.pipeline

    def refresh(self) -> None:
        prepared = self.pipeline.prepared
        shown = self.active and prepared is not None and self._slot() is not None
        if shown:
            _styled(self.view, self.state)
            self.view.set_picture(pipeline_picture(self.state, prepared, self.pipeline.head))
        self.view.setVisible(shown)
        self._place()

    def _slot(self) -> QtCore.QRectF | None:
        canvas = self.pipeline.canvas
        if "weights" not in self.pipeline.names or not canvas.panels:
            return None
        box = canvas.box(self.pipeline.names.index("weights"))
        return None if box is None else box.slot

    def _place(self) -> None:
        slot = self._slot()
        if slot is not None and self.view.isVisible():
            rect = slot.toAlignedRect()
            if rect != self.view.geometry():
                self.view.setGeometry(rect)
            self.view.raise_()

    def eventFilter(self, obj, event):
        # The canvas lays its panels out when it paints or resizes: follow the weights' slot.
        if event.type() in (QtCore.QEvent.Type.Paint, QtCore.QEvent.Type.Resize) and self.view.isVisible():
            self._place()
        return False

    def _on_state(self, event: str, state) -> None:
        if event == "lines":
            self._sync_box()
        self.refresh()

    def _sync_box(self) -> None:
        self.setChecked(self.active)  # toggled says the state's own value back: no event

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setText(translate("Lines", "Weights as lines"))
        self.setToolTip(
            translate(
                "Lines",
                "Draw the weights as lines between the tokens, as thick as each weight: readable "
                "from the back of the room",
            )
        )
        self.refresh()


class HeadsLines(QtWidgets.QWidget):
    """The All-heads tab's "as lines" switch and head picker, and the lines view that takes
    the grid's place, with the chosen heads overlaid."""

    def __init__(self, heads_view, layout: QtWidgets.QBoxLayout):
        super().__init__()
        self.heads_view = heads_view
        self.state = heads_view.state
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.box = QtWidgets.QCheckBox()
        self.pick = QtWidgets.QToolButton()
        self.pick.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QtWidgets.QMenu(self.pick)
        self.pick.setMenu(self.menu)
        self.pick.setVisible(False)
        row.addWidget(self.box)
        row.addWidget(self.pick)
        self.view = LinesView()
        self.view.setVisible(False)
        layout.addWidget(self.view, 1)
        self.view.cellClicked.connect(lambda i, j: self.state.select_cell((i, j)))
        self.box.toggled.connect(self.state.lines.set_heads)
        self.menu.aboutToShow.connect(self._fill_menu)
        heads_view.rendered.connect(self.refresh)
        unsubscribe = self.state.subscribe(
            self._on_state, ("lines", "cell", "head", "theme", "presentation", "zoom")
        )
        self.destroyed.connect(lambda *_: unsubscribe())
        self.retranslate()

    @property
    def active(self) -> bool:
        return self.state.lines.options.heads

    def refresh(self) -> None:
        prepared = self.heads_view.prepared
        on = self.active and prepared is not None
        if on:
            _styled(self.view, self.state)
            self.view.set_picture(heads_picture(self.state, prepared))
        self.view.setVisible(on)
        self.heads_view.canvas.setVisible(not on)
        self.pick.setVisible(self.active)  # only beside its lines: greyed, it read as a head switch
        self.box.setChecked(self.active)  # toggled says the state's own value back: no event

    def _fill_menu(self) -> None:
        """All heads, or any of them: a check box for each."""
        self.menu.clear()
        prepared = self.heads_view.prepared
        count = prepared.trace.heads if prepared is not None else 0
        chosen = set(self.state.lines.options.heads_of(count))
        every = self.menu.addAction(translate("Lines", "Every head"))
        every.triggered.connect(lambda: self.state.lines.set_head_subset(None))
        selected = self.menu.addAction(translate("Lines", "Only the selected head"))
        selected.triggered.connect(lambda: self.state.lines.set_head_subset((self.state.selected_head,)))
        self.menu.addSeparator()
        word = translate("Stages", "head")
        for h in range(count):
            action = self.menu.addAction(f"{word} {h}")
            action.setCheckable(True)
            action.setChecked(h in chosen)
            action.toggled.connect(lambda on, h=h: self._toggle_head(h, on, count))

    def _toggle_head(self, head: int, on: bool, count: int) -> None:
        chosen = set(self.state.lines.options.heads_of(count))
        chosen = chosen | {head} if on else chosen - {head}
        if not chosen:
            return  # at least one head stays
        self.state.lines.set_head_subset(None if len(chosen) == count else sorted(chosen))

    def _on_state(self, event: str, state) -> None:
        self.refresh()

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.box.setText(translate("Lines", "As lines"))
        self.box.setToolTip(
            translate("Lines", "Overlay the heads' weights as lines between the tokens, one colour a head")
        )
        self.pick.setText(translate("Lines", "Heads…"))
        self.pick.setToolTip(translate("Lines", "Which heads the lines overlay"))
        self.refresh()


# -- export: drawn from the data, whether the tab is on screen or not --------------------------------
def figures(context: ViewContext, which: str) -> dict[str, FigureSource]:
    """The lines of the Pipeline ("pipeline") or of the All-heads tab ("heads")."""

    def current() -> PreparedTrace:
        prepared = context.current()
        if prepared is None:
            raise NothingToExport(translate("Lines", "Nothing to export yet: no result has been computed"))
        return prepared

    def pipeline():
        state = context.state
        return LinesFigure(pipeline_picture(state, current(), state.selected_head)), EXPORT_SIZE

    def heads():
        return LinesFigure(heads_picture(context.state, current())), EXPORT_SIZE

    if which == "pipeline":
        return {
            "pipeline:weights:lines": FigureSource(
                translate("Lines", "Pipeline stage: weights as lines"), pipeline
            )
        }
    return {"heads:lines": FigureSource(translate("Lines", "All heads as lines, overlaid"), heads)}
