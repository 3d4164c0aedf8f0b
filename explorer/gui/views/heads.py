"""The All-heads tab: one stage for every head at once; click a head to select it everywhere.

Every head shares one colour scale (one colour bar) and, having the same size and tokens,
labels the same tokens.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.state import GRID_STAGES
from explorer.gui import theme
from explorer.gui.heatmap import Figure, MatrixCanvas
from explorer.gui.heatmap.figure import Mark
from explorer.gui.i18n import translate
from explorer.gui.views import lines as lines_views
from explorer.gui.views import stages
from explorer.gui.views.base import FigureSource, NothingToExport, View, ViewContext

EXPORT_SIZE = QtCore.QSize(1400, 900)


def head_marks(state) -> dict[int, Mark]:
    return {state.selected_head: Mark(QtGui.QColor(theme.SELECTED), 3)}


class HeadGridView(View):
    TAB = "heads"
    STATE_EVENTS = ("head", "cell", "stage")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QtWidgets.QHBoxLayout()
        self.stage_label = QtWidgets.QLabel()
        self.stage_combo = QtWidgets.QComboBox()
        for name in GRID_STAGES:
            self.stage_combo.addItem("", name)
        self.hover_label = QtWidgets.QLabel()
        self.hover_label.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred
        )
        bar.addWidget(self.stage_label)
        bar.addWidget(self.stage_combo)
        bar.addWidget(self.hover_label, 1)
        layout.addLayout(bar)
        self.canvas = MatrixCanvas(style=context.style())
        layout.addWidget(self.canvas, 1)
        self.lines_box = lines_views.HeadsLines(self, layout)  # the heads overlaid as lines
        bar.insertWidget(bar.indexOf(self.hover_label), self.lines_box)
        self.canvas.clicked.connect(self._on_click)
        self.canvas.hovered.connect(self._on_hover)
        self.stage_combo.currentIndexChanged.connect(
            lambda _: self.state.set_grid_stage(self.stage_combo.currentData())
        )
        self._sync_stage()
        self.retranslate()

    @property
    def panels(self):
        return self.canvas.panels

    def draw(self, prepared):
        self.prepared, self.stale = prepared, False
        trace, display, stage = prepared.trace, prepared.display, self.state.grid_stage
        self._sync_stage()
        kind, levels = stages.grid_levels(trace, display, stage)
        hidden = display.hidden_cells(trace)  # one array for all heads: hatched once
        panels = []
        for h in range(trace.heads):
            panel = stages.head_panel(trace, display, stage, h, kind, levels, hidden)
            panel.image  # noqa: B018 (colour the cells now, between event-loop turns)
            panels.append(panel)
            yield
        self.canvas.set_figure(
            Figure(
                panels,
                columns=stages.grid_columns(trace.heads),
                shared_bar=True,
                selection=self.state.selected_cell,
                marks=head_marks(self.state),
            )
        )
        self.canvas.repaint()
        self.rendered.emit()

    def on_state(self, event: str) -> None:
        if event == "head":
            self.canvas.set_marks(head_marks(self.state))
        elif event == "cell":
            self.canvas.set_selection(self.state.selected_cell)
        elif event == "stage":
            self._sync_stage()
            if self.is_shown():
                self.redraw()
            else:
                self.stale = True

    def restyle(self) -> None:
        self.canvas.set_style(self.context.style())

    def _sync_stage(self) -> None:
        self.stage_combo.blockSignals(True)
        self.stage_combo.setCurrentIndex(self.stage_combo.findData(self.state.grid_stage))
        self.stage_combo.blockSignals(False)

    def _on_click(self, head: int, r: int, c: int) -> None:
        self.state.select_head(head)
        i, j = self.canvas.panels[head].selection_of(r, c)
        if i >= 0 or j >= 0:
            old = self.state.selected_cell or (0, 0)
            self.state.select_cell((i if i >= 0 else old[0], j if j >= 0 else old[1]))

    def _on_hover(self, head: int, r: int, c: int) -> None:
        if head >= 0:
            text = self.canvas.panels[head].cell_text(r, c)
            self.hover_label.setText(translate("HeadGrid", "head {h}: {text}").format(h=head, text=text))

    def retranslate(self) -> None:
        self.stage_label.setText(translate("HeadGrid", "Stage"))
        for i in range(self.stage_combo.count()):
            name = self.stage_combo.itemData(i)
            self.stage_combo.setItemText(
                i, QtCore.QCoreApplication.translate("Stages", stages.GRID_STAGE_LABELS[name])
            )
        self.stage_combo.setToolTip(
            translate("HeadGrid", "Which stage every head shows (weights by default)")
        )
        self.hover_label.setText(
            translate("HeadGrid", "Click a head to select it; H̄ is the mean entropy of its weight rows.")
        )
        if self.prepared is not None:
            self.redraw()


def figures(context: ViewContext) -> dict[str, FigureSource]:
    view = context.view(HeadGridView.TAB)

    def build():
        prepared = context.current()
        if prepared is None:
            raise NothingToExport(translate("HeadGrid", "Nothing to export yet: no result has been computed"))
        state = context.state
        panels = stages.head_panels(prepared.trace, prepared.display, state.grid_stage)
        figure = Figure(
            panels,
            columns=stages.grid_columns(len(panels)),
            shared_bar=True,
            selection=state.selected_cell,
            marks=head_marks(state),
        )
        shown = view is not None and view.isVisible() and view.canvas.width() > 100
        return figure, (view.canvas.size() if shown else EXPORT_SIZE)

    return {
        "heads": FigureSource(translate("HeadGrid", "All heads"), build),
        **lines_views.figures(context, "heads"),
    }
