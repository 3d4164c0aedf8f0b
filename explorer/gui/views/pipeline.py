"""The Pipeline tab: every stage of the selected head, in the order of the lesson.

Row 1: X, Q, K, V. Row 2: raw scores, scaled scores, mask, weights.
Row 3: head output, concatenation of heads, output after W_O, entropy of every head.
The head, the selected cell, values on cells, the stage zoom, the zoomed part of the
(query, key) stages and the lesson's highlight all come from the ExplorerState; this tab
only draws them and edits the state.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.state import ZOOM_NAMES
from explorer.gui import theme
from explorer.gui.elided import ElidedLabel
from explorer.gui.flow import FlowLayout
from explorer.gui.heatmap import Figure, MatrixCanvas, MatrixPanel
from explorer.gui.heatmap.figure import Mark
from explorer.gui.heatmap.labels import LABEL_CHARS
from explorer.gui.i18n import translate
from explorer.gui.views import lines as lines_views
from explorer.gui.views import predict, stages
from explorer.gui.views.base import FigureSource, NothingToExport, View, ViewContext
from explorer.gui.views.next_tokens import NextTokenPanel
from explorer.gui.views.next_tokens import figures as next_token_figures
from explorer.gui.views.tokens import TokenChips
from explorer.gui.views.zoom_bar import ZoomBar

ROW_HEIGHT = 250
PRESENTATION_ROW_FONTS = 17  # a row's height in presentation mode, in font sizes
NARROW_PX = 1100  # below this width the pipeline shows two stages a row
FIT_TOKENS = 40  # rows grow so that up to this many tokens are all labelled
EXPORT_SIZE = QtCore.QSize(1600, 900)
STAGE_EXPORT_SIZE = QtCore.QSize(520, 420)


def highlighted_panels(state) -> tuple[str, ...]:
    """The panels of the lesson's current step, when the lesson is shown."""
    if not state.lesson_visible:
        return ()
    return stages.framed_panels(STEPS[state.lesson_step].stage)


def head_band_outlines(state, trace, head: int, names: list[str]) -> dict:
    """The heads' columns framed on the Q_heads panel (if ``names`` has it), the selected
    head's in the lesson's colour."""
    if "Q_heads" not in names:
        return {}
    look = theme.look(state).theme
    bands = stages.head_bands(trace, head, QtGui.QColor(look.plot_bg), QtGui.QColor(look.accent))
    return {names.index("Q_heads"): bands}


class PipelineView(View):
    TAB = "pipeline"
    STATE_EVENTS = ("head", "cell", "values", "stage_zoom", "matrix_zoom", "lesson", "predict")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = FlowLayout()  # wraps rather than widen the window (a projector, large text)
        self.head_label = QtWidgets.QLabel()
        self.head_spin = QtWidgets.QSpinBox()
        self.values_box = QtWidgets.QCheckBox()
        self.hover_label = ElidedLabel(
            mode=QtCore.Qt.TextElideMode.ElideMiddle
        )  # never widens the window; the value stays
        self.hover_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.zoom_bar = ZoomBar(self.state)
        layout.addLayout(bar)
        self.canvas = MatrixCanvas(style=context.style())
        self.scroll = QtWidgets.QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.canvas)
        self.scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        # the tokens stage: chips instead of matrices (the lesson's first step)
        self.chips = TokenChips(context.style())
        self.chips_scroll = QtWidgets.QScrollArea()
        self.chips_scroll.setWidgetResizable(True)
        self.chips_scroll.setWidget(self.chips)
        self.chips_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.chips_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.pages = QtWidgets.QStackedWidget()
        self.pages.addWidget(self.scroll)
        self.pages.addWidget(self.chips_scroll)
        self.next_tokens = NextTokenPanel(context)  # a language model's next token, beside its attention
        self.next_tokens.restyle(context.style(), self.width())
        beside = QtWidgets.QHBoxLayout()
        beside.setContentsMargins(0, 0, 0, 0)
        beside.addWidget(self.pages, 1)
        beside.addWidget(self.next_tokens)
        layout.addLayout(beside, 1)
        self.names: list[str] = [*stages.PIPELINE_STAGES, *stages.ZOOM_PANELS]
        self._pointed: tuple[str, int, int] | None = None  # the cell the hover line reads (else the hint)
        self.canvas.set_figure(Figure([], columns=4))
        self.lines_box = lines_views.PipelineLines(self)  # the weights stage as lines
        for widget in (self.head_label, self.head_spin, self.values_box, self.lines_box, self.zoom_bar):
            bar.add(widget)
        bar.add(self.hover_label, stretch=True)  # the rest of the line
        self.canvas.clicked.connect(self._on_click)
        self.canvas.hovered.connect(self._on_hover)
        self.canvas.doubleClicked.connect(self._on_double_click)
        self.canvas.zoomRequested.connect(self.state.set_matrix_zoom)
        self.head_spin.valueChanged.connect(self._on_head_spin)
        self.values_box.toggled.connect(self.state.set_values_on_cells)
        self.values_box.setChecked(self.state.values_on_cells)
        self.retranslate()

    # -- the panels ------------------------------------------------------------------------
    @property
    def head(self) -> int:
        trace = self.prepared.trace if self.prepared is not None else None
        return self.state.selected_head if trace is None else min(self.state.selected_head, trace.heads - 1)

    def panel(self, name: str) -> MatrixPanel:
        return self.canvas.panels[self.names.index(name)]

    def index(self, name: str) -> int:
        return self.names.index(name)

    @property
    def zoom(self) -> tuple[str, ...] | None:
        return self.state.stage_zoom

    def draw(self, prepared):
        """Build each stage's panel (its pixels too: the heavy part), then paint them at once."""
        self.prepared, self.stale = prepared, False
        trace, head = prepared.trace, self.head
        self._sync_head_spin()
        panels = []
        for name in self.names:
            panel = stages.pipeline_panel(trace, prepared.display, head, name)
            panel.name = name
            panel.image  # noqa: B018 (colour the cells now, between event-loop turns)
            panel.hidden_path  # noqa: B018
            panels.append(panel)
            yield
        panels = predict.veil(panels, self.state)  # a lesson question waits: its step's numbers too
        first = not self.canvas.panels
        self.chips.set_trace(trace)
        self.canvas.set_figure(self._figure(panels))
        self.zoom_bar.show_zoom(self.canvas.zoom_shape())
        self.pages.setCurrentWidget(self.chips_scroll if self.showing_tokens else self.scroll)
        self._fit_height()
        self.canvas.repaint()  # the keystroke's pixels are on screen when this returns
        if self._pointed is not None:
            self._read_pointed()
        self.next_tokens.follow(prepared)
        if first and highlighted_panels(self.state) and not self.state.stage_zoom:
            QtCore.QTimer.singleShot(0, self, self.scroll_to_highlight)  # the lesson's stage in view
        self.rendered.emit()

    def _figure(self, panels: list[MatrixPanel]) -> Figure:
        return Figure(
            panels,
            columns=self._columns(),
            visible=self._visible(),
            selection=self.state.selected_cell,
            marks=self._marks(),
            show_values=self.state.values_on_cells,
            outlines=self._outlines(panels),
            zoom=self.state.matrix_zoom,
            zoomable=True,
        )

    def _outlines(self, panels: list[MatrixPanel]) -> dict:
        """The class's guess and the answer; the heads' columns on the split into heads."""
        trace = self.prepared.trace
        out = predict.outlines(panels, self.state, trace, self.head)
        return {**out, **head_band_outlines(self.state, trace, self.head, self.names)}

    @property
    def showing_tokens(self) -> bool:
        return self.state.stage_zoom == ("tokens",)

    def _zoomed_panels(self) -> list[str]:
        zoomed = [n for n in (self.state.stage_zoom or ()) if n in self.names]
        rotary = self.prepared is not None and self.prepared.trace.rope_angles is not None
        if rotary and "rope_angles" not in zoomed and {"Q", "K"} & set(zoomed):
            zoomed.append("rope_angles")  # what turned Q and K, beside them
        return zoomed

    def _visible(self) -> list[int]:
        zoom = self._zoomed_panels() or stages.PIPELINE_STAGES  # zoom-only panels wait for a zoom
        return [self.names.index(n) for n in zoom]

    def _columns(self) -> int:
        zoom = self._zoomed_panels()
        if zoom:
            return len(zoom)
        wide = 2 if self.state.presentation else 4
        return min(wide, 4 if self.width() >= NARROW_PX else 2)

    def _marks(self) -> dict[int, Mark]:
        accent = QtGui.QColor(theme.look(self.state).theme.accent)
        return {
            self.names.index(n): Mark(accent, 4) for n in highlighted_panels(self.state) if n in self.names
        }

    def _row_height(self) -> int:
        look = theme.look(self.state)
        if self.state.presentation:
            return round(look.figure_px * PRESENTATION_ROW_FONTS)
        # tall enough that every token of a short input is labelled (rows a line apart); in
        # steps of 8 tokens, so that typing rarely resizes (a resize costs a second paint)
        n = 0
        if self.prepared is not None:
            n = min(FIT_TOKENS, max(self.prepared.trace.n_query, self.prepared.trace.n_key))
            n = -(-n // 8) * 8
        line = self.canvas.style_.labels.line
        bottom = self.canvas.style_.labels.metrics.averageCharWidth() * LABEL_CHARS
        return max(ROW_HEIGHT, math.ceil(line * (n + 2.5) + bottom + 16))

    def _fit_height(self) -> None:
        if self.state.stage_zoom:
            self.canvas.setMinimumHeight(min(self._row_height(), 200))
            return
        rows = math.ceil(len(stages.PIPELINE_STAGES) / self._columns())
        self.canvas.setMinimumHeight(self._row_height() * rows)

    def _relayout(self) -> None:
        self.pages.setCurrentWidget(self.chips_scroll if self.showing_tokens else self.scroll)
        self.canvas.set_visible(self._visible(), self._columns())
        if self._pointed is not None:
            self._read_pointed()  # a panel zoomed away: its value no longer on screen
        self._fit_height()
        # A minimum height lowered while the tokens page hid the scroll area asked no one to
        # refit the canvas (Qt posts the request only to a visible parent), and one stage after
        # it kept every stage's height: the scroll area refits now that it is shown.
        QtCore.QCoreApplication.postEvent(self.scroll, QtCore.QEvent(QtCore.QEvent.Type.LayoutRequest))

    # -- state -----------------------------------------------------------------------------
    def on_state(self, event: str) -> None:
        if event == "head":
            if self.is_shown():
                self.redraw()
            else:
                self.stale = True
        elif event == "cell":
            self.canvas.set_selection(self.state.selected_cell)
            self.next_tokens.request()  # the selected row's next token
        elif event == "values":
            self.values_box.setChecked(self.state.values_on_cells)  # said back: the same, no event
            self.canvas.set_show_values(self.state.values_on_cells)
        elif event == "stage_zoom":
            self._relayout()
            self.zoom_bar.show_zoom(self.canvas.zoom_shape())
        elif event == "matrix_zoom":
            self.canvas.set_zoom(self.state.matrix_zoom)
            self.zoom_bar.show_zoom(self.canvas.zoom_shape())
        elif event == "predict":  # veiled or revealed, the guess and the answer framed
            if self.is_shown():
                self.redraw()
            else:
                self.stale = True
        elif event == "lesson":
            self.canvas.set_marks(self._marks())
            if highlighted_panels(self.state) and not self.state.stage_zoom:
                QtCore.QTimer.singleShot(0, self, self.scroll_to_highlight)

    def restyle(self) -> None:
        self.canvas.set_style(self.context.style())
        self.chips.set_style(self.context.style())
        self.next_tokens.restyle(self.context.style(), self.width())
        self.canvas.set_marks(self._marks())
        self._relayout()
        if self._pointed is None:  # a value pointed at stays
            self._show_hint()

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.next_tokens.fit(self.width())
        if self._columns() != self.canvas.figure.columns:
            self._relayout()

    def scroll_to_highlight(self) -> None:
        rects = [
            self.canvas.box(self.names.index(n)) for n in highlighted_panels(self.state) if n in self.names
        ]
        rects = [b.slot for b in rects if b is not None]
        if not rects:
            return
        top = min(r.top() for r in rects)
        bottom = max(r.bottom() for r in rects)
        bar = self.scroll.verticalScrollBar()
        if top < bar.value() or bottom > bar.value() + self.scroll.viewport().height():
            bar.setValue(max(0, int(top) - 4))

    # -- the user ----------------------------------------------------------------------------
    def _on_click(self, index: int, r: int, c: int) -> None:
        panel = self.canvas.panels[index]
        if panel.name == "entropy":
            self.state.select_head(r)
        i, j = panel.selection_of(r, c)
        if i < 0 and j < 0:
            return
        old = self.state.selected_cell or (0, 0)
        self.state.select_cell((i if i >= 0 else old[0], j if j >= 0 else old[1]))

    def _on_hover(self, index: int, r: int, c: int) -> None:
        if index < 0:
            return
        panel = self.canvas.panels[index]
        self._pointed = (panel.name, r, c)
        self._read_pointed()

    def _read_pointed(self) -> None:
        """The pointed cell's value in the result on screen: a new result (another model, text
        or setting) kept the old one's words and number (trial 10); a cell it no longer has,
        or a panel no longer shown (a zoom), gives the hint back."""
        name, r, c = self._pointed or ("", -1, -1)
        shown = self.canvas.figure.shown() if self.canvas.figure is not None else []
        panel = next((p for i, p in enumerate(self.canvas.panels) if p.name == name and i in shown), None)
        if panel is None or not (0 <= r < panel.shape[0] and 0 <= c < panel.shape[1]):
            self._pointed = None
            self._show_hint()
            return
        title = panel.title.split("  [")[0]
        visible, hidden = translate("PipelineView", "visible"), translate("PipelineView", "hidden (masked)")
        self.hover_label.setText(f"{title} — {panel.cell_text(r, c, visible, hidden)}")

    def _on_double_click(self, index: int) -> None:
        """The panel clicked, alone and large (a lesson step's zoom of several panels too);
        that panel again, or outside every panel: back to every stage."""
        name = self.canvas.panels[index].name if index >= 0 else None
        alone = (name,) if name in ZOOM_NAMES else None
        if alone is None or self.state.stage_zoom == alone:
            self.state.set_stage_zoom(None)
        else:
            self.state.set_stage_zoom(alone)

    def zoom_key(self, key: int, modifiers) -> bool:
        return self.canvas.zoom_key(key, modifiers)

    def _on_head_spin(self, value: int) -> None:
        if self.prepared is not None and value != self.head:
            self.state.select_head(value)

    def _sync_head_spin(self) -> None:
        trace = self.prepared.trace
        self.head_spin.blockSignals(True)
        self.head_spin.setRange(0, trace.heads - 1)
        self.head_spin.setValue(self.head)
        self.head_spin.blockSignals(False)
        self.head_label.setText(translate("PipelineView", "Head (of {n})").format(n=trace.heads))

    def _show_hint(self) -> None:
        """How to read a value, until a cell is pointed at; none on a projector, where the
        values are on the cells and the bar has no room for a sentence."""
        hint = translate(
            "PipelineView",
            "Point at a cell to read its exact value; click to select it; Ctrl + the wheel zooms.",
        )
        self.hover_label.setText("" if self.state.presentation else hint)

    def retranslate(self) -> None:
        trace = self.prepared.trace if self.prepared is not None else None
        self.head_label.setText(
            translate("PipelineView", "Head (of {n})").format(n=trace.heads)
            if trace is not None
            else translate("PipelineView", "Head")
        )
        self.head_spin.setToolTip(
            translate("PipelineView", "The head whose stages are shown (keys 0-9 pick heads 0-9)")
        )
        self.values_box.setText(translate("PipelineView", "Values on cells"))
        self.values_box.setToolTip(
            translate("PipelineView", "Write each cell's value on it when the cells are large enough")
        )
        self._show_hint()
        self.next_tokens.retranslate()
        if self.prepared is not None:  # the panel titles
            self.redraw()


# -- export: drawn from the data, whether the tab is on screen or not ------------------------------
def figures(context: ViewContext) -> dict[str, FigureSource]:
    def make(names: tuple[str, ...]):
        def build():
            prepared = context.current()
            if prepared is None:
                raise NothingToExport(
                    translate("PipelineView", "Nothing to export yet: no result has been computed")
                )
            state = context.state
            panels = stages.pipeline_panels(prepared.trace, prepared.display, state.selected_head, names)
            columns = min(4, len(panels))
            head = min(state.selected_head, prepared.trace.heads - 1)
            outlines = head_band_outlines(state, prepared.trace, head, list(names))
            figure = Figure(  # a zoomed stage as shown, its title saying which cells it shows
                panels,
                columns=columns,
                selection=state.selected_cell,
                show_values=state.values_on_cells,
                outlines=outlines,
                zoom=state.matrix_zoom,
                zoomable=True,
                zoom_caption=True,
            )
            # a fixed size, not the canvas's: in presentation mode or beside the lesson it is
            # small and stretched (trial 8 F10: twelve maps of 16 × 75 px, their titles elided)
            return figure, EXPORT_SIZE if len(names) > 1 else STAGE_EXPORT_SIZE

        return build

    out = {
        "pipeline": FigureSource(
            translate("PipelineView", "Pipeline: every stage of the head"), make(stages.PIPELINE_STAGES)
        )
    }
    prepared = context.current()
    trace = prepared.trace if prepared is not None else None
    for name in (*stages.PIPELINE_STAGES, *stages.ZOOM_PANELS):
        if not stages.has_stage(trace, name):  # offered only what the model has
            continue
        out[f"pipeline:{name}"] = FigureSource(
            translate("PipelineView", "Pipeline stage: {0}").format(stages.stage_name(name)), make((name,))
        )
    out.update(lines_views.figures(context, "pipeline"))
    out.update(next_token_figures(context))
    return out


def shown_figure(context: ViewContext) -> str | None:
    """The Export dialog's preset: the stage the "Show:" picker shows (the first of several), the
    whole window for the token chips; None (the trace's data) when every stage is shown."""
    zoom = context.state.stage_zoom
    if not zoom:
        return None
    offered = figures(context)
    return next((f"pipeline:{name}" for name in zoom if f"pipeline:{name}" in offered), "window")
