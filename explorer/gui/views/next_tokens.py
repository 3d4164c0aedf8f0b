"""The next-token panel: beside a language model's attention, what it would write next.

For the position whose attention is shown (the selected cell's row, else the last token) the
ten most likely next tokens, each with its probability as a bar. They are computed on the
worker (channel ``next-tokens``, ``explorer.appstate.next_tokens``), from the model's own
forward; the panel only asks and draws. It is shown only for a decoder's trace. Its controls
set ``state.decoding``: greedy or sampled writing (temperature, top-k, seed: the bars show the
distribution a draw is made from); with heads turned off in the All-heads grid each row has
two bars, all heads on and with those heads off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.decoding import MAX_SEED, MAX_TOP_K, TEMPERATURE_RANGE
from explorer.appstate.next_tokens import NextTokens, next_token_position, next_tokens_job
from explorer.gui.heatmap import Style
from explorer.gui.messages import error_message

CHANNEL = "next-tokens"
PANEL_CHARS = 30  # the panel's width in average characters of its font
ROW_PAD_PX = 4
MAX_SHARE = 0.34  # of the tab's width
MIN_WIDTH_PX = 150
Row = tuple[str, float, float | None]  # token, probability, with the heads off (None: all on)


NBSP = "\u00a0"  # a number and its % sign are never parted by a line break ("70.1 / % 的概率")


def percent(p: float) -> str:
    """A probability as the panel writes it: 23.4 %, 0.05 %, < 0.01 % (no-break spaces)."""
    if p >= 0.1:
        return f"{100 * p:.1f}{NBSP}%"
    if p >= 0.0001:
        return f"{100 * p:.2g}{NBSP}%"
    return f"<{NBSP}0.01{NBSP}%"


def short_percent(p: float) -> str:
    """Two probabilities side by side need fewer digits: 23, 4.5, 0.07, <0.01 (no sign)."""
    if p >= 0.1:
        return f"{100 * p:.0f}"
    if p >= 0.01:
        return f"{100 * p:.1f}"
    return f"{100 * p:.2f}" if p >= 0.0001 else "<0.01"


def row_number(p: float, after: float | None) -> str:
    return percent(p) if after is None else f"{short_percent(p)}→{short_percent(after)}{NBSP}%"


MIN_LABEL_PX = 7  # a token label too long for its column is drawn smaller, down to this, never cut


def label_font(font: QtGui.QFont, text: str, room: float) -> QtGui.QFont:
    """``font``, or a smaller copy in which ``text`` fits ``room`` pixels (a byte's "<0xE6> 1/3"
    beside the lesson on a projector): a token is read whole or not at all."""
    wide = QtGui.QFontMetricsF(font).horizontalAdvance(text)
    if wide <= room or wide <= 0:
        return font
    smaller = QtGui.QFont(font)
    px = font.pixelSize() if font.pixelSize() > 0 else QtGui.QFontInfo(font).pixelSize()
    size = max(MIN_LABEL_PX, int(px * room / wide))
    smaller.setPixelSize(size)
    while size > MIN_LABEL_PX and QtGui.QFontMetricsF(smaller).horizontalAdvance(text) > room:
        size -= 1  # hinting can round a glyph up: one pixel less until it fits
        smaller.setPixelSize(size)
    return smaller


@dataclass(frozen=True)
class BarNumbers:
    """How a bar's number is written: ``text(value, after)``, ``widest`` the longest it gets
    (the number column's width), ``scale`` the value of a full bar (None: the largest shown)."""

    text: Callable[[float, float | None], str] = row_number
    widest: tuple[str, str] = ("< 0.01 %", "0.00→0.00 %")  # one bar, two bars
    scale: float | None = None


PROBABILITIES = BarNumbers()


def bar_columns(
    rows: list[Row], width: float, metrics: QtGui.QFontMetricsF, numbers: BarNumbers = PROBABILITIES
) -> tuple[float, float]:
    """(token column, number column) widths: the token column as wide as the widest label asks,
    up to about half the width (the bars keep the rest)."""
    ablated = any(after is not None for _, _, after in rows)
    widest = max((metrics.horizontalAdvance(token) for token, _, _ in rows), default=0.0) + 8
    token_w = max(width * 0.15, min(width * (0.4 if ablated else 0.48), widest))
    number_w = metrics.horizontalAdvance(numbers.widest[1 if ablated else 0]) + 4
    return token_w, number_w


def paint_bars(
    painter: QtGui.QPainter,
    rect: QtCore.QRectF,
    rows: list[Row],
    style: Style,
    line: float,
    numbers: BarNumbers = PROBABILITIES,
) -> None:
    """Token, bar, number, one row each (the panel and its export draw the same): with the
    heads off two bars, all heads on (grey, above) and with them off (coloured, below)."""
    painter.setFont(style.font)
    metrics = QtGui.QFontMetricsF(style.font)
    fg, accent = QtGui.QColor(style.fg), QtGui.QColor(style.accent)
    bar_colour = QtGui.QColor(accent)
    bar_colour.setAlpha(110)
    before_colour = QtGui.QColor(style.frame)
    width = rect.width()
    token_w, number_w = bar_columns(rows, width, metrics, numbers)
    bar_x, bar_w = rect.left() + token_w + 4, max(8.0, width - token_w - number_w - 8)
    top = numbers.scale or max((max(p, a or 0.0) for _, p, a in rows), default=1.0) or 1.0
    inner = line - 2 * ROW_PAD_PX
    for row, (token, p, after) in enumerate(rows):
        y = rect.top() + row * line
        painter.setPen(fg)
        painter.setFont(label_font(style.font, token, token_w - 2))
        align = QtCore.Qt.AlignmentFlag.AlignVCenter | QtCore.Qt.AlignmentFlag.AlignRight
        painter.drawText(QtCore.QRectF(rect.left(), y, token_w - 2, line), align, token)
        painter.setFont(style.font)
        if after is None:
            length = bar_w * min(max(p / top, 0.0), 1.0)  # a negative cosine: no bar, its number says it
            painter.fillRect(QtCore.QRectF(bar_x, y + ROW_PAD_PX, length, inner), bar_colour)
        else:
            half = inner / 2
            painter.fillRect(QtCore.QRectF(bar_x, y + ROW_PAD_PX, bar_w * p / top, half - 1), before_colour)
            painter.fillRect(
                QtCore.QRectF(bar_x, y + ROW_PAD_PX + half, bar_w * after / top, half), bar_colour
            )
        painter.drawText(
            QtCore.QRectF(bar_x + bar_w + 4, y, number_w, line),
            QtCore.Qt.AlignmentFlag.AlignVCenter | QtCore.Qt.AlignmentFlag.AlignLeft,
            numbers.text(p, after),
        )


def side_width(font: QtGui.QFont, room: int) -> int:
    """A panel beside the attention: as wide as its font asks, but never more than a share of
    the tab's ``room``: the attention stays the larger part (presentation's large text, the
    lesson column)."""
    wanted = QtGui.QFontMetricsF(font).averageCharWidth() * PANEL_CHARS + 24
    return int(min(wanted, max(MIN_WIDTH_PX, room * MAX_SHARE)))


class ProbabilityBars(QtWidgets.QWidget):
    """Token, bar, percentage, one row each, painted with the figures' font and colours;
    ``picked`` says which row was clicked."""

    picked = QtCore.Signal(int)

    def __init__(self, style: Style, parent=None, numbers: BarNumbers = PROBABILITIES):
        super().__init__(parent)
        self.style_ = style
        self.numbers = numbers
        self.rows: list[Row] = []
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)

    def set_rows(self, rows: list[Row]) -> None:
        self.rows = rows
        self._fit()

    def set_style(self, style: Style) -> None:
        self.style_ = style
        self._fit()

    def row_height(self) -> float:
        return QtGui.QFontMetricsF(self.style_.font).height() + 2 * ROW_PAD_PX

    def _fit(self) -> None:
        self.setFixedHeight(int(self.row_height() * max(len(self.rows), 1)) + 2)
        self.updateGeometry()
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
        paint_bars(
            painter, QtCore.QRectF(self.rect()), self.rows, self.style_, self.row_height(), self.numbers
        )
        painter.end()


class DecodingControls(QtWidgets.QWidget):
    """How the next token is written: greedy, or sampled with a temperature, a top-k and a
    seed; edits ``state.decoding`` and shows it (a change elsewhere is shown here too)."""

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        rows = QtWidgets.QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        self.mode = QtWidgets.QComboBox()
        self.mode.addItem("", "greedy")
        self.mode.addItem("", "sample")
        self.temperature = QtWidgets.QDoubleSpinBox()
        self.temperature.setRange(*TEMPERATURE_RANGE)
        self.temperature.setDecimals(2)
        self.temperature.setSingleStep(0.1)
        self.top_k = QtWidgets.QSpinBox()
        self.top_k.setRange(0, MAX_TOP_K)
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, MAX_SEED)
        self.labels = [QtWidgets.QLabel() for _ in range(4)]
        # Each label in one row with its box, the box taking the rest: a label never stands apart
        # from its box (a form's label column, or its wrapping on a narrow panel, did that).
        self.rows: list[QtWidgets.QWidget] = []
        for label, widget in zip(self.labels, (self.mode, self.temperature, self.top_k, self.seed)):
            label.setBuddy(widget)
            row = QtWidgets.QWidget()
            line = QtWidgets.QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(label)
            line.addWidget(widget, 1)
            widget.setMinimumWidth(QtGui.QFontMetrics(widget.font()).averageCharWidth() * 6)  # fits the panel
            rows.addWidget(row)
            self.rows.append(row)
        self.mode.currentIndexChanged.connect(lambda _: self._edit(decoding=self.mode.currentData()))
        self.temperature.valueChanged.connect(lambda v: self._edit(temperature=round(float(v), 2)))
        self.top_k.valueChanged.connect(lambda v: self._edit(top_k=int(v)))
        self.seed.valueChanged.connect(lambda v: self._edit(seed=int(v)))
        unsubscribe = state.subscribe(lambda *_: self.sync(), ["decoding"])
        self.destroyed.connect(lambda *_: unsubscribe())
        self.retranslate()
        self.sync()

    def _edit(self, **changes) -> None:
        try:
            self.state.decoding.update(**changes)
        except ValueError:  # the boxes' ranges are the options' own: only a stale value lands here
            self.sync()

    def sync(self) -> None:
        """Show the state's options (said back without another change)."""
        options = self.state.decoding.options
        for widget, value in (
            (self.temperature, options.temperature),
            (self.top_k, options.top_k),
            (self.seed, options.seed),
        ):
            widget.blockSignals(True)
            widget.setValue(value)
            widget.blockSignals(False)
        self.mode.blockSignals(True)
        self.mode.setCurrentIndex(self.mode.findData(options.decoding))
        self.mode.blockSignals(False)
        for row in self.rows[1:]:  # the sampling settings only when sampling
            row.setVisible(options.sampled)

    def retranslate(self) -> None:
        for label, text in zip(
            self.labels, (self.tr("&Write"), self.tr("&Temperature"), self.tr("Top-&k"), self.tr("See&d"))
        ):
            label.setText(text)
        self.mode.setItemText(0, self.tr("greedy"))  # short: the panel is narrow beside the lesson
        self.mode.setItemText(1, self.tr("sampled"))
        self.mode.setToolTip(
            self.tr(
                "Greedy: always the most likely token. Sample: a token drawn at random with the "
                "probabilities shown (the same seed and text draw the same token)."
            )
        )
        self.temperature.setToolTip(
            self.tr(
                "The logits are divided by the temperature before the softmax: below 1 sharper, above 1 flatter."
            )
        )
        self.top_k.setSpecialValueText(self.tr("all"))
        self.top_k.setToolTip(
            self.tr(
                "Only the k most likely tokens can be drawn (their probabilities renormalised); 0: every token."
            )
        )
        self.seed.setToolTip(self.tr("The random draw's seed: the same seed writes the same text again."))


class NextTokenPanel(QtWidgets.QFrame):
    """Asks the worker for the next tokens of the trace on screen at the selected position,
    and shows the answer; hidden for a trace that is not a language model's."""

    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.context = context
        self.state = context.state
        self.answer: NextTokens | None = None  # the worker's last answer (drawn from it)
        self.error: BaseException | None = None
        self._wanted: tuple | None = None  # (config, position, options) asked for and not yet answered
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
        self.write_button = QtWidgets.QPushButton()  # one token a click, as the controls say
        self.write_button.clicked.connect(self._write_chosen)
        self.controls = DecodingControls(self.state)
        self.mass = QtWidgets.QLabel()
        self.mass.setWordWrap(True)
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)
        for widget in (self.title, self.bars, self.write_button, self.controls, self.mass, self.note):
            layout.addWidget(widget)
        layout.addStretch(1)
        context.worker.listen(CHANNEL, self._on_result)
        unsubscribe = self.state.subscribe(lambda *_: self.request(), ["decoding"])
        self.destroyed.connect(lambda *_: unsubscribe())
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

    def wanted_key(self) -> tuple | None:
        prepared = self.context.current()
        if prepared is None:
            return None
        trace = prepared.trace
        position = next_token_position(self.state.selected_cell, trace.n_query)
        return (trace.config, position, self.state.decoding.options)

    def request(self) -> None:
        key = self.wanted_key()
        if key is None or not self.isVisible():
            return
        if self.answer is not None and self.answer.key == key:
            return
        if key == self._wanted:
            return
        self._wanted = key
        self.error = None
        self.mass.setText(self.tr("Computing the next tokens…"))
        self.scroll.widget().layout().activate()  # a second line gets its room now, not a turn later
        engine, (config, position, options) = self.context.engine, key
        self.context.worker.submit(CHANNEL, lambda: next_tokens_job(engine, config, position, options))

    def showEvent(self, event):
        super().showEvent(event)
        self.scroll.widget().layout().activate()  # rows that came while hidden: the labels below move
        self.request()  # a row selected on another tab meanwhile

    def _on_result(self, result) -> None:
        # Another panel (the All-heads tab's) may have asked: an answer for the same key serves both.
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
        self.bars.set_rows([(c.token, c.probability, c.after) for c in answer.choices])
        self._show_write_button(answer)
        self.mass.setText(self.summary(answer))
        self.scroll.widget().layout().activate()  # the labels under the bars move now, not a turn later

    def summary(self, answer: NextTokens) -> str:
        """What the bars are: the share they hold, after which settings, with which heads off."""
        parts = []
        options = answer.options
        if options.sampled:
            top_k = str(options.top_k) if options.top_k else self.tr("all")
            parts.append(
                self.tr("The distribution a sample is drawn from: softmax(logits ÷ {t}), top-k {k}.").format(
                    t=f"{options.temperature:g}", k=top_k
                )
            )
        if answer.heads is not None:
            heads = ", ".join(f"{layer}.{head}" for layer, head in sorted(answer.heads.heads))
            how = (
                self.tr("zeroed before W_O")
                if answer.heads.mode == "zero"
                else self.tr("replaced by their mean over the text, before W_O")
            )
            parts.append(
                self.tr(
                    "Two bars a token: grey with every head on, coloured with heads {heads} off "
                    "({how}). The listed tokens hold {p} of the probability before, {q} after."
                ).format(
                    heads=heads,
                    how=how,
                    p=percent(answer.shown_mass),
                    q=percent(answer.shown_mass_after or 0.0),
                )
            )
        else:
            parts.append(
                self.tr(
                    "These {k} together: {p} of the probability; every other token shares the rest."
                ).format(k=len(answer.choices), p=percent(answer.shown_mass))
            )
        return " ".join(parts)

    def _show_write_button(self, answer: NextTokens) -> None:
        """After the last token: write the chosen one (a click on a row writes that one)."""
        chosen = answer.chosen
        self.write_button.setVisible(chosen is not None and answer.position == self._last_position())
        if chosen is None:
            return
        if answer.options.sampled:
            self.write_button.setText(self.tr("Write a sample: “{0}”").format(chosen.token))
        else:
            self.write_button.setText(self.tr("Write “{0}”").format(chosen.token))
        self.write_button.setEnabled(chosen.written is not None)
        if chosen.written is None:
            tip = self.tr(
                "“{0}” is a byte of a character split over tokens: it cannot be typed as text on its "
                "own. A click on another row writes that token."
            ).format(chosen.token)
        elif answer.options.sampled:
            tip = self.tr(
                "Append the token drawn with this seed (sampling): the attention of the token just "
                "written is shown at once. A click on a row writes that token."
            )
        else:
            tip = self.tr(
                "Append the most likely token to the sentence (greedy decoding): the attention of "
                "the token just written is shown at once. A click on a row writes that token."
            )
        if answer.heads is not None:
            tip += " " + self.tr("With heads off, the token is chosen by the model with those heads off.")
        self.write_button.setToolTip(tip)

    def _last_position(self) -> int:
        prepared = self.context.current()
        return prepared.trace.n_query - 1 if prepared is not None else -1

    def _write_chosen(self) -> None:
        answer = self.answer
        if answer is not None and answer.chosen is not None:
            self._write(answer.chosen.written)

    def _write_row(self, row: int) -> None:
        answer = self.answer
        if answer is not None and row < len(answer.choices):
            self._write(answer.choices[row].written)

    def _write(self, text: str | None) -> None:
        if text is None:
            return
        self.state.select_cell(None)  # the next tokens follow the new last token
        self.state.update_config(sentence=text)

    def rows(self) -> list[tuple[str, float]]:
        """What the bars show: (token, probability), most likely first."""
        return [(token, p) for token, p, _ in self.bars.rows]

    def restyle(self, style: Style, room: int) -> None:
        self.bars.set_style(style)
        self.fit(room)
        # on a projector the narrow panel keeps the bars; how they are computed is in the tooltip
        self.note.setVisible(not self.state.presentation)
        self.setToolTip(self.note.text() if self.state.presentation else "")

    def fit(self, room: int) -> None:
        self.setFixedWidth(side_width(self.bars.style_.font, room))

    def retranslate(self) -> None:
        self.controls.retranslate()
        self.note.setText(
            self.tr(
                "From the model's own forward (every layer with its causal attention); the "
                "options change only the layer drawn. Click a row of the attention: the next "
                "token after that one. Turn heads off in the All heads tab."
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


class NextTokensPicture:
    """The panel as an exported figure: its title, the bars and what they are, drawn from the
    worker's answer (the Exporter paints it)."""

    def __init__(self, title: str, rows: list[Row], summary: str):
        self.title, self.rows, self.summary = title, rows, summary

    def size(self, style: Style) -> QtCore.QSize:
        line = QtGui.QFontMetricsF(style.font).height() + 2 * ROW_PAD_PX
        return QtCore.QSize(720, int(line * (len(self.rows) + 5)))

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRectF, style: Style) -> None:
        metrics = QtGui.QFontMetricsF(style.font)
        line = metrics.height() + 2 * ROW_PAD_PX
        bold = QtGui.QFont(style.font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(style.fg)
        painter.drawText(QtCore.QRectF(rect.left() + 8, rect.top(), rect.width() - 16, line), self.title)
        bars = QtCore.QRectF(rect.left() + 8, rect.top() + line, rect.width() - 16, line * len(self.rows))
        paint_bars(painter, bars, self.rows, style, line)
        painter.setFont(style.font)
        painter.setPen(style.fg)
        flags = int(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.TextFlag.TextWordWrap)
        below = QtCore.QRectF(
            rect.left() + 8, bars.bottom() + 4, rect.width() - 16, rect.bottom() - bars.bottom()
        )
        painter.drawText(below, flags, self.summary)


def shown_panel(context) -> NextTokenPanel | None:
    """The next-token panel with an answer for what is on screen (the visible one first)."""
    panels = [
        view.next_tokens for view in (context.view("heads"), context.view("pipeline")) if view is not None
    ]
    panels.sort(key=lambda p: not p.isVisible())
    for panel in panels:
        if panel.answer is not None and panel.answer.key == panel.wanted_key():
            return panel
    return None


def figures(context) -> dict:
    from explorer.gui.i18n import translate
    from explorer.gui.views.base import FigureSource, NothingToExport

    def build():
        panel = shown_panel(context)
        if panel is None:
            raise NothingToExport(
                translate(
                    "NextTokenPanel", "Nothing to export yet: open a language model to see its next tokens"
                )
            )
        picture = NextTokensPicture(panel.title.text(), list(panel.bars.rows), panel.mass.text())
        return picture, picture.size(context.style())

    if shown_panel(context) is None:  # offered once a language model's next tokens are on screen
        return {}
    return {
        "next_tokens": FigureSource(translate("NextTokenPanel", "Next token (a language model's)"), build)
    }
