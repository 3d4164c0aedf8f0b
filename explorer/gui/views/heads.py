"""The All-heads tab: one stage for every head at once; click a head to select it everywhere.

Every head shares one colour scale (one colour bar) and, having the same size and tokens,
its axes: the row labels stand left of the first column, the column labels under the last
row. The number of columns is chosen for the room the grid has: the one that labels the
most tokens on both axes with whole titles (a projector at 1024×768 and a wide window get
different grids).

Each head of a trained model has an on/off switch (``HeadSwitches``). For a language model
the next-token panel stands beside the grid: switch a head off and see each next token's
probability before and after; for an encoder the output-cosine panel: each token's output
vector against the one with every head on. Its titles give each head's scores: the weight on the first token (the
attention sink), on the token before (a previous-token head) and, when the text repeats
itself, on the token after the previous occurrence (an induction head).
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.state import GRID_STAGES
from explorer.gui import theme
from explorer.gui.elided import ElidedCombo, ElidedLabel
from explorer.gui.heatmap import Figure, MatrixCanvas
from explorer.gui.heatmap import labels as axis
from explorer.gui.heatmap.figure import Mark, Style, layout_figure, measures
from explorer.gui.heatmap.panel import format_value
from explorer.gui.i18n import translate
from explorer.gui.views import lines as lines_views
from explorer.gui.views import stages
from explorer.gui.views.base import FigureSource, NothingToExport, View, ViewContext
from explorer.gui.views.head_switches import HeadSwitches
from explorer.gui.views.next_tokens import NextTokenPanel
from explorer.gui.views.output_cosine import OutputCosinePanel, own_heads

EXPORT_SIZE = QtCore.QSize(1400, 900)


HOVER_ROOM = "0.00000000 · head 00: [CLS], [SEP]"  # a hover line's start, as wide as it gets
MAX_COLUMNS = 16
MIN_CELL_PX = 3.0  # a grid whose cells are thinner shows no head: whole titles come after


OFF_COLOUR = "#7f7f7f"  # the frame of a head switched off


def heads_off(state, trace) -> frozenset[int]:
    """The heads of the trace's layer that are switched off (a trained model's, at its own
    head count: regrouped heads are not the model's)."""
    if trace is None or trace.layer is None or trace.weights_source != "pretrained" or not own_heads(trace):
        return frozenset()
    return frozenset(h for layer, h in state.decoding.options.heads_off if layer == trace.layer)


def head_marks(state, trace=None) -> dict[int, Mark]:
    marks = {h: Mark(QtGui.QColor(OFF_COLOUR), 2) for h in heads_off(state, trace)}
    marks[state.selected_head] = Mark(QtGui.QColor(theme.SELECTED), 3)
    return marks


def _fit(figure: Figure, rect: QtCore.QRectF, style: Style) -> tuple:
    """How well a grid fits: (whole titles, share of tokens labelled on the worse axis, cell px)."""
    layout = layout_figure(rect, figure, style)
    if not layout.boxes:
        return (False, 0.0, 0.0)
    bold = QtGui.QFont(style.font)
    bold.setBold(True)  # the selected head's title is bold: the widest form
    metrics = measures(bold)
    titles = all(
        metrics.horizontalAdvance(figure.panels[b.index].title) <= b.title.width() for b in layout.boxes
    )
    box = layout.boxes[0]
    rows, cols = figure.panels[box.index].shape
    coverage = min(len(box.rows) / rows, len(box.cols) / cols)
    cell = min(box.plot.width() / cols, box.plot.height() / rows)
    return (titles, round(coverage, 3), cell)


def fitted_grid(panels, size: QtCore.QSize, style: Style, **options) -> Figure:
    """The heads as a grid with shared axes, in the column count that fits ``size`` best:
    cells of a few pixels at least, then the most tokens labelled on the worse axis, with
    titles whole (a title too long for its column is shortened to its head, "head 3"), then
    whole long titles, then larger cells, then the count nearest a wide grid's."""
    full = [p.title for p in panels]
    short = [p.short_title or stages.short_head_title(p.title) for p in panels]
    key = _fit_key(panels, size, style, full, options)
    chosen = _FITS.get(key)
    if chosen is None:
        chosen = _FITS[key] = _best_grid(panels, size, style, full, short, options)
        while len(_FITS) > _FITS_KEPT:
            del _FITS[next(iter(_FITS))]
    columns, whole = chosen
    for p, t in zip(panels, full if whole else short):
        p.title = t
    return Figure(panels, columns=columns, shared_bar=True, shared_axes=True, **options)


# Trying every column count lays the whole grid out up to 32 times: most of a keystroke's GUI
# time on this tab. What a fit depends on barely changes while typing (the tokens' labels,
# the titles' widths, the room), so the choice is kept for the last few of those.
_FITS: dict[tuple, tuple[int, bool]] = {}
_FITS_KEPT = 16
_LAYOUT_FREE = ("selection", "marks")  # options that are drawn but never move a box


def _fit_key(panels, size: QtCore.QSize, style: Style, titles: list[str], options: dict) -> tuple:
    bold = QtGui.QFont(style.font)
    bold.setBold(True)
    metrics = measures(bold)
    first = panels[0] if panels else None
    return (
        size.width(),
        size.height(),
        style.font.key(),
        len(panels),
        None if first is None else (first.data.shape, tuple(first.rows or ()), tuple(first.cols or ())),
        None if first is None else first.levels,
        tuple(round(metrics.horizontalAdvance(t), 1) for t in titles),
        tuple(sorted((k, repr(v)) for k, v in options.items() if k not in _LAYOUT_FREE)),
    )


def _best_grid(panels, size, style, full, short, options) -> tuple[int, bool]:
    """(columns, whole titles) of the best fit, by the order ``fitted_grid`` gives."""
    rect = QtCore.QRectF(0, 0, max(1, size.width()), max(1, size.height()))
    counts = range(1, min(len(panels), MAX_COLUMNS) + 1) or (1,)

    def with_titles(titles) -> None:
        for p, t in zip(panels, titles):
            p.title = t

    # A title is whole when it fits its slot in one line, and a slot is narrower than the width
    # over the count: the widest title, measured once, says which counts cannot keep them whole
    # (their layout with whole titles need not be tried).
    bold = QtGui.QFont(style.font)
    bold.setBold(True)
    metrics = measures(bold)
    widest = max((metrics.horizontalAdvance(t) for t in full), default=0.0)
    target = stages.grid_columns(len(panels))

    def bound(c: int) -> tuple:
        """The best score ``c`` columns could get: titles that fit, every token labelled,
        and cells as large as a plot that takes its whole share of the room (a plot is
        never wider than its column's share of the width, nor taller than its row's share
        of the height, nor smaller than 4 px)."""
        shape = panels[0].shape if panels else (1, 1)
        n_rows = math.ceil(len(panels) / c) if panels else 1
        cell_w = max(4.0, rect.width() / c) / shape[1]
        cell_h = max(4.0, rect.height() / n_rows) / shape[0]
        whole = widest <= rect.width() / c - 4
        coverage = 1.0
        if panels and panels[0].rows is not None:  # a line-high label every stride-th row at most
            stride = axis.row_stride(style.labels, shape[0], cell_h)  # a short axis: a smaller font
            coverage = min(1.0, round(math.ceil(len(panels[0].rows) / stride) / shape[0], 3))
        cell = min(cell_w, cell_h)
        return ((cell >= MIN_CELL_PX, True, coverage, whole, cell, -abs(c - target)), c)

    # Laying the grid out is most of a keystroke's GUI time here: counts are tried from the
    # best bound down, and one whose bound is below the best score found is not laid out (it
    # cannot win: the choice is the one laying out every count makes).
    best = None
    for c in sorted(counts, key=bound, reverse=True):
        if best is not None and bound(c) < best:
            continue
        figure = Figure(panels, columns=c, shared_bar=True, shared_axes=True, **options)
        whole = widest <= rect.width() / c - 4
        if whole:
            with_titles(full)
            whole, coverage, cell = _fit(figure, rect, style)
        if not whole:
            with_titles(short)
            fits_short, coverage, cell = _fit(figure, rect, style)
        else:
            fits_short = True
        scored = ((cell >= MIN_CELL_PX, fits_short, coverage, whole, cell, -abs(c - target)), c)
        best = scored if best is None else max(best, scored)
    assert best is not None
    (_, _, _, whole, _, _), columns = best
    return columns, whole


class HeadGridView(View):
    TAB = "heads"
    STATE_EVENTS = ("head", "cell", "stage", "decoding")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QtWidgets.QHBoxLayout()
        self.stage_label = QtWidgets.QLabel()
        self.stage_combo = ElidedCombo(min_chars=8)  # a long stage name never widens the window
        for name in GRID_STAGES:
            self.stage_combo.addItem("", name)
        self.shape_label = QtWidgets.QLabel()  # the shape every head shares
        self.hover_label = ElidedLabel()
        bar.addWidget(self.stage_label)
        bar.addWidget(self.stage_combo)
        bar.addWidget(self.shape_label)
        bar.addWidget(self.hover_label, 1)
        layout.addLayout(bar)
        self.bar = bar
        # the hover line's own row, where the bar leaves it too little room for its value
        # (a projector beside the lesson gave it 125 px: even the value was cut)
        self.hover_row = QtWidgets.QHBoxLayout()
        layout.addLayout(self.hover_row)
        self.switches = HeadSwitches(self.state)  # a language model's heads, on or off
        layout.addWidget(self.switches)
        beside = QtWidgets.QHBoxLayout()
        column = QtWidgets.QVBoxLayout()
        self.canvas = MatrixCanvas(style=context.style())
        column.addWidget(self.canvas, 1)
        beside.addLayout(column, 1)
        self.next_tokens = NextTokenPanel(context)  # before and after, beside the heads
        self.next_tokens.restyle(context.style(), self.width())
        beside.addWidget(self.next_tokens)
        self.output_cosine = OutputCosinePanel(context)  # an encoder's outputs with heads off
        self.output_cosine.restyle(context.style(), self.width())
        beside.addWidget(self.output_cosine)
        layout.addLayout(beside, 1)
        self.lines_box = lines_views.HeadsLines(self, column)  # the heads overlaid as lines
        bar.insertWidget(bar.indexOf(self.hover_label), self.lines_box)
        self.canvas.installEventFilter(self)
        self.canvas.clicked.connect(self._on_click)
        self.canvas.hovered.connect(self._on_hover)
        self.stage_combo.currentIndexChanged.connect(
            lambda _: self.state.set_grid_stage(self.stage_combo.currentData())
        )
        self._titles: list[str] = []
        self.scores: stages.HeadScores | None = None
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
        self.scores = stages.HeadScores.of(trace)
        off = heads_off(self.state, trace)
        decoder = trace.weights_source == "pretrained" and bool(getattr(prepared.source, "is_decoder", False))
        trained = trace.weights_source == "pretrained" and own_heads(trace)
        self.switches.follow(trace, trained, decoder)
        self.next_tokens.follow(prepared)
        self.output_cosine.follow(prepared)
        panels = []
        for h in range(trace.heads):
            panel = stages.head_panel(trace, display, stage, h, kind, levels, hidden, self.scores, h in off)
            panel.image  # noqa: B018 (colour the cells now, between event-loop turns)
            panels.append(panel)
            yield
        self.shape_label.setText(f"[{stages.shape_text(panels[0].data)}]" if panels else "")
        self._show_hint()
        self._titles = [p.title for p in panels]  # whole: a narrower fit shortens them
        self._fit(panels)
        self.canvas.repaint()
        self.rendered.emit()

    def _fit(self, panels) -> None:
        for panel, title in zip(panels, self._titles):
            panel.title = title
        self.canvas.set_figure(
            fitted_grid(
                panels,
                self.canvas.size(),
                self.canvas.style_,
                selection=self.state.selected_cell,
                marks=head_marks(self.state, self.prepared.trace if self.prepared else None),
            )
        )

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._place_hover()
        self.next_tokens.fit(self.width())
        self.output_cosine.fit(self.width())

    def eventFilter(self, watched, event):
        # The grid's own room changed (the window, or a panel beside it shown or hidden):
        # maybe another column count fits better.
        if watched is self.canvas and event.type() == QtCore.QEvent.Type.Resize and self.canvas.panels:
            self._fit(self.canvas.panels)
        return super().eventFilter(watched, event)

    def on_state(self, event: str) -> None:
        trace = self.prepared.trace if self.prepared is not None else None
        if event == "head":
            self.canvas.set_marks(head_marks(self.state, trace))
        elif event == "cell":
            self.canvas.set_selection(self.state.selected_cell)
            self.next_tokens.request()  # the selected row's next token
        elif event == "decoding" and trace is not None:  # a head switched: its title and frame
            if self.is_shown():
                self.redraw()
            else:
                self.stale = True
        elif event == "stage":
            self._sync_stage()
            if self.is_shown():
                self.redraw()
            else:
                self.stale = True

    def _place_hover(self) -> None:
        """The hover line in the bar when the room left there holds its value and head whole
        (HOVER_ROOM), else on a row of its own under the bar."""
        others = sum(
            w.sizeHint().width() + self.bar.spacing()
            for w in (self.stage_label, self.stage_combo, self.shape_label, self.lines_box)
            if not w.isHidden()
        )
        margins = self.layout().contentsMargins()
        room = self.width() - margins.left() - margins.right() - others
        need = self.hover_label.fontMetrics().horizontalAdvance(HOVER_ROOM)
        row = self.bar if room >= need else self.hover_row
        if row.indexOf(self.hover_label) < 0:
            row.addWidget(self.hover_label, 1)  # taken out of the other row

    def restyle(self) -> None:
        self._place_hover()
        self.canvas.set_style(self.context.style())
        self.next_tokens.restyle(self.context.style(), self.width())
        self.output_cosine.restyle(self.context.style(), self.width())
        if self.prepared is not None:
            self.redraw()  # whole titles again, and the columns for the new font

    def _sync_stage(self) -> None:
        # currentIndexChanged says the state's own stage back: no event
        self.stage_combo.setCurrentIndex(self.stage_combo.findData(self.state.grid_stage))

    def _on_click(self, head: int, r: int, c: int) -> None:
        self.state.select_head(head)
        i, j = self.canvas.panels[head].selection_of(r, c)
        if i >= 0 or j >= 0:
            old = self.state.selected_cell or (0, 0)
            self.state.select_cell((i if i >= 0 else old[0], j if j >= 0 else old[1]))

    def _on_hover(self, head: int, r: int, c: int) -> None:
        if head >= 0:
            self.hover_label.setText(self.hover_text(head, r, c))
            scores = self.head_description(head)
            self.canvas.setToolTip(
                translate("HeadGrid", "head {h}: {text}").format(h=head, text=scores) if scores else ""
            )

    def hover_text(self, head: int, r: int, c: int) -> str:
        """The value hovered first, then where it is and the head's scores: the line is cut at
        its end on a narrow window (trial 8 F19: the value, last, was what went)."""
        panel = self.canvas.panels[head]
        if panel.kind == "mask":
            shown = panel.data[r, c]
            value = (
                translate("PipelineView", "visible")
                if shown
                else translate("PipelineView", "hidden (masked)")
            )
        else:
            value = format_value(panel.data[r, c])
        where = f"{panel.row_name(r)}, {panel.col_name(c)}"
        scores = self.head_description(head)
        text = translate("HeadGrid", "{value} · head {h}: {where}").format(value=value, h=head, where=where)
        return f"{text} · {scores}" if scores else text

    def head_description(self, head: int) -> str:
        """A causal model's head scores in words ("" for an encoder's head)."""
        trace = self.prepared.trace if self.prepared is not None else None
        if trace is None or self.scores is None or head >= trace.heads:
            return ""
        sink = trace.first_token_share[head] if head < len(trace.first_token_share) else float("nan")
        return self.scores.describe(head, sink)

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
        self._show_hint()
        self.switches.retranslate()
        self.next_tokens.retranslate()
        self.output_cosine.retranslate()
        if self.prepared is not None:
            self.redraw()

    def _show_hint(self) -> None:
        """The hint in the line, whole, else in its tooltip only (beside the lesson on a
        projector the line has no room for it: the class reads the grid, not the hint)."""
        hint = self._hint()
        self.hover_label.setToolTip(hint)
        fits = self.hover_label.fontMetrics().horizontalAdvance(hint) <= self.hover_label.width()
        self.hover_label.setText(hint if fits or not self.state.presentation else "")

    def _hint(self) -> str:
        if self.prepared is not None and self.prepared.trace.causal:
            return translate(
                "HeadGrid",
                "Click a head to select it; H̄ is the mean entropy of its weight rows; first token: "
                "the mean weight its rows put on the first token (the attention sink; row 0 left out); "
                "prev: on the token before; ind: on the token after the previous occurrence of the "
                "current one (when the text repeats itself).",
            )
        return translate("HeadGrid", "Click a head to select it; H̄ is the mean entropy of its weight rows.")


def figures(context: ViewContext) -> dict[str, FigureSource]:
    view = context.view(HeadGridView.TAB)

    def build():
        prepared = context.current()
        if prepared is None:
            raise NothingToExport(translate("HeadGrid", "Nothing to export yet: no result has been computed"))
        state = context.state
        off = heads_off(state, prepared.trace)
        panels = stages.head_panels(prepared.trace, prepared.display, state.grid_stage, off)
        shown = view is not None and view.isVisible() and view.canvas.width() > 100
        size = view.canvas.size() if shown else EXPORT_SIZE
        figure = fitted_grid(
            panels,
            size,
            context.style(),
            selection=state.selected_cell,
            marks=head_marks(state, prepared.trace),
        )
        return figure, size

    return {
        "heads": FigureSource(translate("HeadGrid", "All heads"), build),
        **lines_views.figures(context, "heads"),
    }
