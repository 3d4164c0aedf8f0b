"""The Board tab: type tiny vectors, see every stage with every number printed large.

For doing the arithmetic with a class: a few tokens (at most 8) and vectors of a few numbers
(at most 8), typed into one table — X, for self-attention with Q = K = V = X, or Q, K and V
side by side. The board (``state.board``) is computed on the worker (channel "board") by
``explorer.core.board.board_trace`` with the window's options (scoring, scaling, τ,
attention, mask: the row of pickers here edits the same configuration as the controls), and
the stages are the pipeline's panels of that trace, values printed on every cell. A click on
a cell selects it everywhere; the worked-arithmetic dock follows the board while this tab is
shown. Saved with the session; exported as the other tabs' figures.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.board import BOARD_CONTEXT, BOARD_PRESETS
from explorer.appstate.display import DisplayArrays
from explorer.core.board import (
    MAX_BOARD_TOKENS,
    MAX_BOARD_WIDTH,
    Board,
    BoardError,
    board_config,
    board_trace,
    parse_number,
)
from explorer.core.config import ATTENTIONS, SCALES, SCORINGS, UNSIZED_MASKS, ConfigError
from explorer.core.engine import valid_head_counts
from explorer.core.trace import AttentionTrace
from explorer.core.worked import softmax_parts
from explorer.gui import theme
from explorer.gui.core_text import error_text, translated
from explorer.gui.elided import ElidedCombo
from explorer.gui.flow import FlowLayout
from explorer.gui.heatmap import Figure, MatrixCanvas, MatrixPanel, Style
from explorer.gui.i18n import translate
from explorer.gui.options import option_label
from explorer.gui.views import stages
from explorer.gui.views.base import FigureSource, View, ViewContext, WorkedSource

CHANNEL = "board"
BAD_CELL = QtGui.QColor("#ffb3b3")
VALUE_SAMPLE = "-0.00"  # the widest value a cell prints
EXPORT_SIZE = QtCore.QSize(1600, 900)
STAGE_EXPORT_SIZE = QtCore.QSize(560, 460)
TABLE_COLOURS = {"Q": "#dbe9f6", "K": "#fbe3c8", "V": "#d5efe4", "X": "#eeeeee"}  # light: numbers stay black


def number_text(value: float) -> str:
    """A typed number as the table shows it: as typed, up to six significant digits."""
    return f"{value:.6g}"


def board_font_px(state) -> int:
    """Larger than the other figures: the class reads every number from its seat."""
    return max(16, theme.look(state).figure_px + 4)


def board_style(state) -> Style:
    t = theme.look(state).theme
    return Style.make(board_font_px(state), fg=t.plot_fg, bg=t.plot_bg, accent=t.accent, frame=t.muted)


def stage_names(board: Board, trace: AttentionTrace) -> list[str]:
    """The stages on the board, in the lesson's order; the mask only when there is one, the
    concatenation only with several heads (W_O is the identity: the output equals it)."""
    names = ["X"] if board.tied else ["Q", "K", "V"]
    names += ["scores", "scaled"]
    if trace.config.mask not in ("none", "model"):  # the board has no model: its own mask is none
        names.append("mask")
    if trace.config.attention == "soft":  # the softmax worked on the board: exp, then the row sums
        names += ["exp", "exp_sum"]
    names += ["weights", "head_output"]
    if trace.heads > 1:
        names.append("concat")
    return names


def column_names(letter: str, first: int, count: int) -> list[str]:
    """The table's names of a matrix's columns, counted from 1 as on a blackboard: q1, q2, …"""
    return [f"{letter}{first + j + 1}" for j in range(count)]


def board_panel(board: Board, trace: AttentionTrace, head: int, name: str) -> MatrixPanel:
    """One stage of the board: the pipeline's panel, with the board's own titles for its inputs
    and its columns named as in the table (a head's columns keep their place in the vector)."""
    head_word = translate("Stages", "head")
    first = head * trace.d_k  # the head's first column of every vector
    if name == "X":
        title = translate("Board", "X = Q = K = V (typed)")
        if trace.heads > 1:  # the head on screen reads only its own columns of X
            title += f"  ({head_word} {head}: x{first + 1}…x{first + trace.d_k})"
        cols = column_names("x", 0, board.width)
        panel = MatrixPanel(trace.X_query, trace.tokens_query, cols, title=title, role="q")
    elif name in ("Q", "K", "V"):
        data = getattr(trace, name)[head]
        title = translate("Board", "{name} (typed)").format(name=name)
        if trace.heads > 1:
            title += f"  ({head_word} {head})"
        cols = column_names(name.lower(), first, trace.d_k)
        panel = MatrixPanel(data, trace.tokens_query, cols, title=title, role="q" if name == "Q" else "k")
    elif name in ("exp", "exp_sum"):
        _, exps, sums = softmax_parts(trace.scaled[head], trace.mask)
        levels = (0.0, max(1.0, float(sums.max(initial=1.0))))  # exp ≤ 1 after the row max
        if name == "exp":
            panel = MatrixPanel(
                exps,
                trace.tokens_query,
                trace.tokens_key,
                "exp(sᵢⱼ − maxₖ sᵢₖ)",
                "weights",
                levels,
                role="qk",
            )
        else:
            panel = MatrixPanel(
                sums[:, None], trace.tokens_query, ["Σ"], "Σⱼ exp", "weights", levels, role="q"
            )
    else:
        panel = stages.pipeline_panel(trace, DisplayArrays(), head, name)
        panel.title = panel.title.split("  [")[0]
        if name == "head_output":
            panel.cols = column_names("z", first, trace.d_k)
        elif name == "concat":
            panel.cols = column_names("z", 0, trace.concat.shape[1])
    panel.name = name
    return panel


def zoomed_names(board: Board, trace: AttentionTrace, zoom) -> list[str]:
    """The stages the classroom's "Show:" picks (the state's stage zoom), else every stage."""
    every = stage_names(board, trace)
    if zoom and {"X", "Q", "K", "V"} & set(zoom):
        zoom = (*zoom, "X", "Q", "K", "V")  # the inputs, whichever the board typed
    if zoom and "weights" in zoom:
        zoom = ("exp", "exp_sum", *zoom)  # the weights' arithmetic beside them
    chosen = [name for name in every if zoom and name in zoom]
    return chosen or every


def board_figure(board: Board, trace: AttentionTrace, head: int, cell, columns: int, names=None) -> Figure:
    head = min(max(head, 0), trace.heads - 1)
    names = names or stage_names(board, trace)
    panels = [board_panel(board, trace, head, name) for name in names]
    return Figure(
        panels,
        columns=max(1, min(columns, len(panels))),
        bars=False,
        selection=board_cell(trace, cell),
        show_values=True,
    )


def board_cell(trace: AttentionTrace, cell) -> tuple[int, int]:
    """The cell the board shows and works out: the selection where the board has it, else
    its first cell (a selection made on a longer sentence lies outside a 3-token board)."""
    if cell is not None and cell[0] < trace.n_query and cell[1] < trace.n_key:
        return tuple(cell)
    return (0, 0)


def fit_columns(figure: Figure, style: Style, width: int) -> tuple[int, int]:
    """(columns, row height) so that every cell holds its printed value and every token its
    label: a token too wide for its cell stands upright under it, which takes height."""
    labels = style.labels
    panels = figure.panels
    widest_cols = max(p.shape[1] for p in panels)
    widest_rows = max(p.shape[0] for p in panels)
    tokens = [t for p in panels for t in (p.rows or [])]
    features = [t for p in panels if p.role != "qk" for t in (p.cols or [])]
    label_w = max((labels.width(t) for t in tokens), default=0.0)
    cell_w = max(labels.width(VALUE_SAMPLE), max((labels.width(t) for t in features), default=0.0)) + 14
    cell_h = labels.line + 16
    slot_w = label_w + 24 + widest_cols * cell_w + 16
    columns = max(1, min(len(panels), int(width // max(slot_w, 1.0)), 4))
    under = labels.line if label_w + 4 <= cell_w else label_w  # the key names under a square panel
    row_h = labels.line * 2 + widest_rows * cell_h + under + 28
    return columns, math.ceil(row_h)


class BoardView(View):
    TAB = "board"
    STATE_EVENTS = ("board", "config", "head", "cell", "tab", "stage_zoom")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        self.trace: AttentionTrace | None = None  # the board's trace on screen
        self.trace_key = None  # the (board, config) it was computed from
        self._wanted = None  # the (board, config) being computed
        self._syncing = False
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 0)
        self.editor = QtWidgets.QWidget()  # what the teacher types, above what the class reads
        layout = QtWidgets.QVBoxLayout(self.editor)
        layout.setContentsMargins(0, 0, 0, 0)

        bar = FlowLayout()  # wraps on a projector, where the lesson column leaves the tab ~700 px
        self.example_label = QtWidgets.QLabel()
        # long items cut with "…" when the row is narrow (a projector); the open list shows them whole
        self.example = ElidedCombo(min_chars=16)
        self.mode = ElidedCombo(min_chars=10)
        self.mode.addItem("", True)
        self.mode.addItem("", False)
        self.tokens_label = QtWidgets.QLabel()
        self.tokens_spin = QtWidgets.QSpinBox()
        self.tokens_spin.setRange(1, MAX_BOARD_TOKENS)
        self.width_label = QtWidgets.QLabel("d")
        self.width_spin = QtWidgets.QSpinBox()
        self.width_spin.setRange(1, MAX_BOARD_WIDTH)
        self.heads_label = QtWidgets.QLabel()
        self.heads_combo = ElidedCombo(min_chars=2)
        for w in (
            self.example_label,
            self.example,
            self.mode,
            self.tokens_label,
            self.tokens_spin,
            self.width_label,
            self.width_spin,
            self.heads_label,
            self.heads_combo,
        ):
            bar.add(w)
        layout.addLayout(bar)

        options = FlowLayout()  # the window's options, here too (the controls hide on a projector)
        self.scoring = ElidedCombo(min_chars=9)
        for name in SCORINGS:
            self.scoring.addItem(name, name)
        self.scale = ElidedCombo(min_chars=9)
        for name in SCALES:
            self.scale.addItem("", name)
        self.tau = QtWidgets.QDoubleSpinBox()
        self.tau.setRange(0.01, 100.0)
        self.tau.setDecimals(2)
        self.tau.setSingleStep(0.1)
        self.attention = ElidedCombo(min_chars=9)
        for name in ATTENTIONS:
            self.attention.addItem("", name)
        self.mask = ElidedCombo(min_chars=9)
        for name in UNSIZED_MASKS:  # a few tokens: no mask with a size
            self.mask.addItem("", name)
        for w in (self.scoring, self.scale, self.tau, self.attention, self.mask):
            options.add(w)
        layout.addLayout(options)

        self.table = QtWidgets.QTableWidget()
        self.table.setSizePolicy(QtWidgets.QSizePolicy.Policy.Maximum, QtWidgets.QSizePolicy.Policy.Fixed)
        self.table.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.verticalHeader().setVisible(False)
        layout.addWidget(self.table)
        self.message = QtWidgets.QLabel()
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.message.setVisible(False)
        self._message = None  # (words it, is an error): what the message line says
        self.editor.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Maximum
        )

        self.canvas = MatrixCanvas(style=board_style(self.state))
        self.scroll = QtWidgets.QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.canvas)
        self.scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)  # drag: room for the stages
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(self.scroll)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        outer.addWidget(self.splitter, 1)

        self.example.activated.connect(self._on_example)
        self.mode.activated.connect(lambda i: self._edit(lambda b: b.with_tied(self.mode.itemData(i))))
        self.tokens_spin.valueChanged.connect(lambda n: self._edit(lambda b: b.resized(n, b.width)))
        self.width_spin.valueChanged.connect(lambda d: self._edit(lambda b: b.resized(b.n, d)))
        self.heads_combo.activated.connect(
            lambda i: self._edit(lambda b: b.with_heads(self.heads_combo.itemData(i)))
        )
        self.scoring.activated.connect(lambda i: self._option(scoring=self.scoring.itemData(i)))
        self.scale.activated.connect(lambda i: self._option(scale=self.scale.itemData(i)))
        self.tau.valueChanged.connect(lambda t: self._option(scale="temperature", temperature=round(t, 4)))
        self.attention.activated.connect(lambda i: self._option(attention=self.attention.itemData(i)))
        self.mask.activated.connect(lambda i: self._option(mask=self.mask.itemData(i)))
        self.table.itemChanged.connect(self._on_item)
        self.canvas.clicked.connect(self._on_click)
        self.canvas.doubleClicked.connect(self._on_double_click)
        self.scroll.viewport().installEventFilter(self)
        self.editor.installEventFilter(self)
        context.worker.listen(CHANNEL, self._on_result)
        self.retranslate()
        self.restyle()

    # -- the board <-> the widgets ---------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.state.board.board

    def _edit(self, change) -> None:
        if self._syncing:
            return
        try:
            self.state.board.set_board(change(self.board))
        except BoardError as exc:
            self.show_message(lambda e=exc: error_text(e), error=True)
            self._sync_widgets()

    def _option(self, **changes) -> None:
        if self._syncing:
            return
        try:
            self.state.update_config(**changes)
        except ConfigError as exc:
            self.show_message(lambda e=exc: error_text(e), error=True)

    def _on_example(self, index: int) -> None:
        preset = self.example.itemData(index)
        if preset is not None:
            self.state.board.set_board(BOARD_PRESETS[preset].board)

    def _columns(self) -> list[tuple[str, int]]:
        """The table's number columns: (matrix, column of it)."""
        names = ("X",) if self.board.tied else ("Q", "K", "V")
        return [(name, j) for name in names for j in range(self.board.width)]

    def _sync_widgets(self) -> None:
        """Every widget shows the state's board and options (no signal goes back)."""
        board, config = self.board, self.state.config
        self._syncing = True
        try:
            self.mode.setCurrentIndex(self.mode.findData(board.tied))
            self.tokens_spin.setValue(board.n)
            self.width_spin.setValue(board.width)
            self.heads_combo.clear()
            for h in valid_head_counts(board.width):
                self.heads_combo.addItem(str(h), h)
            self.heads_combo.setCurrentIndex(self.heads_combo.findData(board.heads))
            index = next((i for i, p in enumerate(BOARD_PRESETS) if p.board == board), None)
            self.example.setCurrentIndex(0 if index is None else index + 1)
            for combo, value in (
                (self.scoring, config.scoring),
                (self.scale, config.scale),
                (self.attention, config.attention),
                (self.mask, config.mask),
            ):
                found = combo.findData(value)
                if found < 0:  # an option this row does not list (window:2, valid:3): shown as it is
                    combo.addItem(value, value)
                    found = combo.count() - 1
                combo.setCurrentIndex(found)
            self.tau.setValue(config.temperature)
            self.tau.setEnabled(config.scale == "temperature")
            self._fill_table()
        finally:
            self._syncing = False

    def _fill_table(self) -> None:
        """The board in the table: items are kept (typing moves on from cell to cell)."""
        board, table = self.board, self.table
        columns = self._columns()
        table.blockSignals(True)
        table.setRowCount(board.n)
        table.setColumnCount(1 + len(columns))
        table.setHorizontalHeaderLabels(
            [translate("Board", "token")] + [column_names(m.lower(), j, 1)[0] for m, j in columns]
        )
        matrices = board.matrices()
        plain = QtGui.QBrush() if self.state.theme == "dark" else None
        for i in range(board.n):
            for c in range(1 + len(columns)):
                item = table.item(i, c)
                if item is None:
                    item = QtWidgets.QTableWidgetItem()
                    table.setItem(i, c, item)
                if c == 0:
                    item.setText(board.tokens[i])
                    item.setBackground(QtGui.QBrush())
                    continue
                m, j = columns[c - 1]
                item.setText(number_text(matrices[m][i, j]))
                item.setTextAlignment(
                    QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter
                )
                item.setBackground(plain if plain is not None else QtGui.QColor(TABLE_COLOURS[m]))
        table.resizeColumnsToContents()
        table.resizeRowsToContents()
        table.blockSignals(False)
        frame = 2 * table.frameWidth()
        table.setFixedHeight(table.horizontalHeader().height() + table.verticalHeader().length() + frame)
        table.setMaximumWidth(table.horizontalHeader().length() + frame)

    def _on_item(self, item: QtWidgets.QTableWidgetItem) -> None:
        """A typed cell: a token's name or a number; a bad one stays red with a message."""
        row, column = item.row(), item.column()
        try:
            if column == 0:
                board = self.board.with_token(row, item.text())
            else:
                matrix, j = self._columns()[column - 1]
                board = self.board.with_cell(matrix, row, j, parse_number(item.text()))
        except BoardError as exc:
            self.table.blockSignals(True)
            item.setBackground(BAD_CELL)
            self.table.blockSignals(False)
            self.show_message(lambda e=exc: error_text(e), error=True)
            return
        if not self.state.board.set_board(board):
            self._fill_table()  # the same number typed differently: show it as the board holds it

    def show_message(self, text, error: bool = False) -> None:
        """A text, or a function that words it (said again in the new language on a switch)."""
        self._message = (text if callable(text) else (lambda: text), error)
        self._say_message()

    def _say_message(self) -> None:
        make, error = self._message
        text = make()
        self.message.setStyleSheet("color: #c00000; font-weight: bold;" if error else "")
        self.message.setText(text)
        self.message.setVisible(bool(text))

    # -- computing -----------------------------------------------------------------------------------
    def key(self):
        return self.board, board_config(self.board, self.state.config)

    def request(self) -> None:
        key = self.key()
        if key in (self.trace_key, self._wanted):
            return
        self._wanted = key
        board, options = self.board, self.state.config
        self.context.worker.submit(CHANNEL, lambda: (key, board_trace(board, options)))

    def _on_result(self, result) -> None:
        self._wanted = None
        if not result.ok:
            self.show_message(lambda e=result.error: error_text(e), error=True)
            return
        self.trace_key, self.trace = result.value
        notices = self.trace.notices
        self.show_message(lambda: "  •  ".join(translated(n) for n in notices))
        self._show()
        if self.key() != self.trace_key and self.is_shown():
            self.request()  # something changed meanwhile

    def worked_source(self) -> WorkedSource:
        """What the worked-arithmetic dock explains while this tab is shown: the board's
        trace, its head and the cell it frames."""
        if self.trace is None:
            return None, 0, None
        head = min(max(self.state.selected_head, 0), self.trace.heads - 1)
        return self.trace, head, board_cell(self.trace, self.state.selected_cell)

    def draw(self, prepared):
        self.prepared, self.stale = prepared, False  # the sentence's trace: not the board's
        self.request()
        return iter(())

    def activated(self) -> None:
        self._sync_widgets()
        self.request()

    def cancelled(self) -> None:
        self._wanted = None

    # -- drawing -------------------------------------------------------------------------------------
    def _show(self) -> None:
        if self.trace is None:
            return
        names = zoomed_names(self.board, self.trace, self.state.stage_zoom)
        figure = board_figure(
            self.board, self.trace, self.state.selected_head, self.state.selected_cell, 1, names
        )
        columns, row_h = fit_columns(figure, self.canvas.style_, self.scroll.viewport().width())
        figure.columns = columns
        self.canvas.set_figure(figure)
        self.canvas.setMinimumHeight(row_h * math.ceil(len(figure.panels) / columns))
        self.canvas.repaint()
        self.rendered.emit()

    def on_state(self, event: str) -> None:
        if event == "cell":
            if self.trace is not None:
                self.canvas.set_selection(board_cell(self.trace, self.state.selected_cell))
            return
        if event in ("board", "config"):
            self._sync_widgets()
        if event in ("head", "stage_zoom"):
            self._show()
        if self.is_shown():
            self.request()

    def restyle(self) -> None:
        self.canvas.set_style(board_style(self.state))
        # the numbers typed, as large as the numbers computed from them
        px = board_font_px(self.state)
        self.table.setStyleSheet(f"QTableWidget, QHeaderView {{ font-size: {px}px; }}")
        self._fill_table()
        self._show()

    def eventFilter(self, obj, event):
        # the editor's rows wrap when narrow, but a splitter ignores height-for-width: ask for
        # the height the wrapped rows need, or they overlap the table
        if obj is self.editor and event.type() in (
            QtCore.QEvent.Type.Resize,
            QtCore.QEvent.Type.LayoutRequest,
        ):
            need = self.editor.layout().totalHeightForWidth(self.editor.width())
            if need > 0 and need != self.editor.minimumHeight():
                self.editor.setMinimumHeight(need)
            return False
        # the stages' room changed (the window, the splitter): as many columns as fit
        if obj is self.scroll.viewport() and event.type() == QtCore.QEvent.Type.Resize and self.canvas.panels:
            columns, _ = fit_columns(self.canvas.figure, self.canvas.style_, self.scroll.viewport().width())
            if columns != self.canvas.figure.columns:
                QtCore.QTimer.singleShot(0, self, self._show)
        return False

    def _on_double_click(self, index: int) -> None:
        """As in the pipeline: one stage large, or back to every stage."""
        if self.state.stage_zoom or index < 0:
            self.state.set_stage_zoom(None)
            return
        name = self.canvas.panels[index].name
        self.state.set_stage_zoom(("Q", "K", "V") if name in ("X", "Q", "K", "V") else (name,))

    def _on_click(self, index: int, r: int, c: int) -> None:
        i, j = self.canvas.panels[index].selection_of(r, c)
        if i < 0 and j < 0:
            return
        old = self.state.selected_cell or (0, 0)
        self.state.select_cell((i if i >= 0 else old[0], j if j >= 0 else old[1]))

    # -- words -----------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        if self._message is not None:
            self._say_message()
        self.example_label.setText(translate("Board", "Example"))
        self.example.clear()
        self.example.addItem(translate("Board", "Your own vectors"), None)
        for index, preset in enumerate(BOARD_PRESETS):
            name = QtCore.QCoreApplication.translate(BOARD_CONTEXT, preset.name)
            self.example.addItem(name, index)
            self.example.setItemData(index + 1, name, QtCore.Qt.ItemDataRole.ToolTipRole)
        self.example.setToolTip(translate("Board", "Start from a ready-made board; then change any number"))
        self.mode.setItemText(0, translate("Board", "Q = K = V = X"))
        self.mode.setItemText(1, translate("Board", "Q, K, V typed"))
        self.mode.setToolTip(
            translate("Board", "Type one table X (self-attention, W = I) or the three tables Q, K and V")
        )
        self.tokens_label.setText(translate("Board", "Tokens"))
        self.tokens_spin.setToolTip(translate("Board", "How many tokens (at most 8)"))
        self.width_spin.setToolTip(translate("Board", "How many numbers in each vector (at most 8)"))
        self.heads_label.setText(translate("Board", "Heads"))
        self.heads_combo.setToolTip(translate("Board", "Heads split each vector's numbers into equal parts"))
        self.scoring.setToolTip(translate("Board", "How a query and a key become one score"))
        words = {
            self.scale: {
                "sqrt": translate("Board", "÷ √d_k"),
                "temperature": translate("Board", "÷ τ"),
                "none": translate("Board", "no scaling"),
            },
            self.attention: {
                "soft": translate("Board", "soft (softmax)"),
                "hard": translate("Board", "hard (one key)"),
                "sample": translate("Board", "sample (drawn)"),
            },
            self.mask: {
                "model": translate("Board", "the model's own: no mask"),  # hand-typed vectors: no model
                "none": translate("Board", "no mask"),
                "causal": translate("Board", "causal mask"),
            },
        }
        for box, texts in words.items():
            for index in range(box.count()):
                value = box.itemData(index)
                box.setItemText(index, texts.get(value, value))  # a mask this row does not list: as it is
        self.scale.setToolTip(translate("Board", "What the scores are divided by before the softmax"))
        self.tau.setPrefix("τ = ")
        self.tau.setToolTip(translate("Board", "The temperature τ the scores are divided by"))
        self.attention.setToolTip(translate("Board", "Soft weights, one key, or one key drawn at random"))
        for index in range(self.scoring.count()):  # dot, cosine, additive, general, as the controls say
            self.scoring.setItemText(index, option_label("scoring", self.scoring.itemData(index)))
        self.mask.setToolTip(translate("Board", "Which keys each query may see"))
        self.table.setToolTip(
            translate(
                "Board",
                "Type a token's name or a number in any cell (Tab moves on); every stage below follows",
            )
        )
        self._sync_widgets()
        if self.trace is not None:
            self._show()


# -- export: drawn from the data, whether the tab is on screen or not ----------------------------------
def figures(context: ViewContext) -> dict[str, FigureSource]:
    def trace() -> tuple[Board, AttentionTrace]:
        board, options = context.state.board.board, context.state.config
        view = context.view(BoardView.TAB)
        if (
            view is not None
            and view.trace is not None
            and view.trace_key == (board, board_config(board, options))
        ):
            return board, view.trace  # what the tab shows
        return board, board_trace(board, options)  # a few microseconds of arithmetic

    def make(name: str | None):
        def build():
            board, t = trace()
            state = context.state
            names = None if name is None else [name]
            figure = board_figure(
                board, t, state.selected_head, state.selected_cell, 4 if name is None else 1, names
            )
            return figure, EXPORT_SIZE if name is None else STAGE_EXPORT_SIZE

        return build

    out = {"board": FigureSource(translate("Board", "Board: every stage"), make(None))}
    inputs = ("X",) if context.state.board.board.tied else ("Q", "K", "V")
    for name in (*inputs, "scores", "scaled", "mask", "weights", "head_output", "concat"):
        out[f"board:{name}"] = FigureSource(
            translate("Board", "Board stage: {0}").format(stages.stage_name(name)), make(name)
        )
    return out
