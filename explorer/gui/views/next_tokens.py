"""The next-token panel: beside a language model's attention, what it would write next.

For the position whose attention is shown (the selected cell's row, else the last token) the
ten most likely next tokens, each with its probability as a bar. They are computed on the
worker (channel ``next-tokens``, ``explorer.appstate.next_tokens``), from the model's own
forward; the panel only asks and draws. It is shown only for a decoder's trace.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.next_tokens import NextTokens, next_token_position, next_tokens_job
from explorer.gui.heatmap import Style
from explorer.gui.messages import error_message

CHANNEL = "next-tokens"
PANEL_CHARS = 30  # the panel's width in average characters of its font
ROW_PAD_PX = 4
MAX_SHARE = 0.34  # of the tab's width
MIN_WIDTH_PX = 150


def percent(p: float) -> str:
    """A probability as the panel writes it: 23.4 %, 0.05 %, < 0.01 %."""
    if p >= 0.1:
        return f"{100 * p:.1f} %"
    if p >= 0.0001:
        return f"{100 * p:.2g} %"
    return "< 0.01 %"


class ProbabilityBars(QtWidgets.QWidget):
    """Token, bar, percentage, one row each, painted with the figures' font and colours;
    ``picked`` says which row was clicked."""

    picked = QtCore.Signal(int)

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        self.style_ = style
        self.rows: list[tuple[str, float]] = []
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)

    def set_rows(self, rows: list[tuple[str, float]]) -> None:
        self.rows = rows
        self._fit()

    def set_style(self, style: Style) -> None:
        self.style_ = style
        self._fit()

    def row_height(self) -> float:
        return QtGui.QFontMetricsF(self.style_.font).height() + 2 * ROW_PAD_PX

    def _fit(self) -> None:
        self.setFixedHeight(int(self.row_height() * max(len(self.rows), 1)) + 2)
        self.update()

    def row_centre(self, row: int) -> QtCore.QPoint:
        return QtCore.QPoint(self.width() // 2, int((row + 0.5) * self.row_height()))

    def mousePressEvent(self, event):
        row = int(event.position().y() // self.row_height())
        if 0 <= row < len(self.rows):
            self.picked.emit(row)
        super().mousePressEvent(event)

    def paintEvent(self, event):
        painter = QtGui.QPainter(self)
        painter.setFont(self.style_.font)
        metrics = QtGui.QFontMetricsF(self.style_.font)
        fg, accent = QtGui.QColor(self.style_.fg), QtGui.QColor(self.style_.accent)
        bar_colour = QtGui.QColor(accent)
        bar_colour.setAlpha(110)
        width, line = float(self.width()), self.row_height()
        token_w = width * 0.42
        number_w = metrics.horizontalAdvance("< 0.01 %") + 4
        bar_x, bar_w = token_w + 4, max(8.0, width - token_w - number_w - 8)
        top = max((p for _, p in self.rows), default=1.0) or 1.0
        for row, (token, p) in enumerate(self.rows):
            y = row * line
            painter.setPen(fg)
            text = metrics.elidedText(token, QtCore.Qt.TextElideMode.ElideRight, token_w - 2)
            align = QtCore.Qt.AlignmentFlag.AlignVCenter | QtCore.Qt.AlignmentFlag.AlignRight
            painter.drawText(QtCore.QRectF(0, y, token_w - 2, line), align, text)
            painter.fillRect(
                QtCore.QRectF(bar_x, y + ROW_PAD_PX, bar_w * p / top, line - 2 * ROW_PAD_PX), bar_colour
            )
            painter.drawText(
                QtCore.QRectF(bar_x + bar_w + 4, y, number_w, line),
                QtCore.Qt.AlignmentFlag.AlignVCenter | QtCore.Qt.AlignmentFlag.AlignLeft,
                percent(p),
            )
        painter.end()


class NextTokenPanel(QtWidgets.QFrame):
    """Asks the worker for the next tokens of the trace on screen at the selected position,
    and shows the answer; hidden for a trace that is not a language model's."""

    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.context = context
        self.state = context.state
        self.answer: NextTokens | None = None  # the worker's last answer (drawn from it)
        self.error: BaseException | None = None
        self._wanted: tuple | None = None  # (config, position) asked for and not yet answered
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll = QtWidgets.QScrollArea()  # large text on a small screen scrolls, never overlaps
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inside = QtWidgets.QWidget()
        self.scroll.setWidget(inside)
        outer.addWidget(self.scroll)
        layout = QtWidgets.QVBoxLayout(inside)
        self.title = QtWidgets.QLabel()
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.bars = ProbabilityBars(context.style())
        self.bars.picked.connect(self._write_row)
        self.write_button = QtWidgets.QPushButton()  # greedy decoding, one token a click
        self.write_button.clicked.connect(lambda: self._write_row(0))
        self.mass = QtWidgets.QLabel()
        self.mass.setWordWrap(True)
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)
        for widget in (self.title, self.bars, self.write_button, self.mass, self.note):
            layout.addWidget(widget)
        layout.addStretch(1)
        context.worker.listen(CHANNEL, self._on_result)
        self.setVisible(False)
        self.retranslate()

    # -- asking -------------------------------------------------------------------------------
    def follow(self, prepared) -> None:
        """A new trace on screen: shown for a language model, asked for its next tokens."""
        decoder = prepared is not None and prepared.trace.weights_source == "pretrained"
        decoder = decoder and bool(getattr(prepared.source, "is_decoder", False))
        self.setVisible(decoder)
        if decoder:
            self.request()

    def request(self) -> None:
        prepared = self.context.current()
        if prepared is None or not self.isVisible():
            return
        trace = prepared.trace
        position = next_token_position(self.state.selected_cell, trace.n_query)
        key = (trace.config, position)
        if self.answer is not None and (self.answer.config, self.answer.position) == key:
            return
        if key == self._wanted:
            return
        self._wanted = key
        self.error = None
        self.mass.setText(self.tr("Computing the next tokens…"))
        engine, config = self.context.engine, trace.config
        self.context.worker.submit(CHANNEL, lambda: next_tokens_job(engine, config, position))

    def showEvent(self, event):
        super().showEvent(event)
        self.request()  # a row selected on another tab meanwhile

    def _on_result(self, result) -> None:
        self._wanted = None
        if not result.ok:
            self.answer, self.error = None, result.error
        else:
            self.answer, self.error = result.value, None
        self.show_answer()
        self.request()  # the selection or the text moved on meanwhile: ask again

    # -- drawing ------------------------------------------------------------------------------
    def show_answer(self) -> None:
        answer, prepared = self.answer, self.context.current()
        if self.error is not None:
            self.title.setText(self.tr("Next token"))
            self.bars.set_rows([])
            self.write_button.setVisible(False)
            self.mass.setText(error_message(self.error))
            return
        if answer is None or prepared is None:
            return
        tokens = prepared.trace.tokens_query
        after = tokens[answer.position] if answer.position < len(tokens) else "?"
        self.title.setText(
            self.tr("Next token after “{token}” (position {position})").format(
                token=after, position=answer.position
            )
        )
        self.bars.set_rows([(c.token, c.probability) for c in answer.choices])
        self._show_write_button(answer)
        self.mass.setText(
            self.tr("These {k} together: {p} of the probability; every other token shares the rest.").format(
                k=len(answer.choices), p=percent(answer.shown_mass)
            )
        )
        self.scroll.widget().layout().activate()  # the labels under the bars move now, not a turn later

    def _show_write_button(self, answer: NextTokens) -> None:
        """After the last token: write the most likely one (a click on a row writes that one)."""
        self.write_button.setVisible(bool(answer.choices) and answer.position == self._last_position())
        if not answer.choices:
            return
        top = answer.choices[0]
        self.write_button.setText(self.tr("Write “{0}”").format(top.token))
        self.write_button.setEnabled(top.written is not None)
        if top.written is not None:
            tip = self.tr(
                "Append the most likely token to the sentence (greedy decoding): the attention of "
                "the token just written is shown at once. A click on a row writes that token."
            )
        else:
            tip = self.tr(
                "“{0}” is a byte of a character split over tokens: it cannot be typed as text on its "
                "own. A click on another row writes that token."
            ).format(top.token)
        self.write_button.setToolTip(tip)

    def _last_position(self) -> int:
        prepared = self.context.current()
        return prepared.trace.n_query - 1 if prepared is not None else -1

    def _write_row(self, row: int) -> None:
        answer = self.answer
        if answer is None or row >= len(answer.choices) or answer.choices[row].written is None:
            return
        self.state.select_cell(None)  # the next tokens follow the new last token
        self.state.update_config(sentence=answer.choices[row].written)

    def rows(self) -> list[tuple[str, float]]:
        """What the bars show: (token, probability), most likely first."""
        return list(self.bars.rows)

    def restyle(self, style: Style, room: int) -> None:
        self.bars.set_style(style)
        self.fit(room)

    def fit(self, room: int) -> None:
        """As wide as its font asks, but never more than a share of the tab's ``room``: the
        attention stays the larger part (presentation's large text, the lesson column)."""
        wanted = QtGui.QFontMetricsF(self.bars.style_.font).averageCharWidth() * PANEL_CHARS + 24
        self.setFixedWidth(int(min(wanted, max(MIN_WIDTH_PX, room * MAX_SHARE))))

    def retranslate(self) -> None:
        self.note.setText(
            self.tr(
                "From the model's own forward (every layer with its causal attention); the "
                "options change only the layer drawn. Click a row of the attention: the next "
                "token after that one."
            )
        )
        self.setToolTip(
            self.tr(
                "softmax(LM head · final norm(h)) at the selected query's position: what a "
                "language model trained to predict the next token expects after it"
            )
        )
        if self.answer is not None or self.error is not None:
            self.show_answer()
        else:
            self.title.setText(self.tr("Next token"))
