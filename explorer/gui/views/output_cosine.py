"""The encoder's panel beside the All-heads grid: what turning heads off changes in its outputs.

An encoder writes no next token; with heads switched off (the grid's switches, zeroed or
replaced by their mean before W_O) this panel shows each token's output vector (after the last
layer) against the one with every head on: their cosine as a bar per token, in the text's
order, and the mean (1: unchanged). Computed on the worker (channel ``output-cosine``,
``explorer.appstate.output_cosine``); shown only while some of the encoder's heads are off.
"""

from __future__ import annotations

from PySide6 import QtWidgets

from explorer.appstate.output_cosine import OutputCosine, output_cosine_job, output_cosine_key
from explorer.gui.heatmap import Style
from explorer.gui.messages import error_message
from explorer.gui.views.next_tokens import BarNumbers, ProbabilityBars, side_width

CHANNEL = "output-cosine"
COSINES = BarNumbers(lambda c, _after: f"{c:.4f}", ("−0.0000", "−0.0000"), scale=1.0)


def own_heads(trace) -> bool:
    """The trace's heads are the model's own (not regrouped into another count)."""
    return not any(getattr(m, "key", "") == "engine.heads_regrouped" for m in trace.notices)


def encoder_trace(prepared) -> bool:
    """A trained encoder's trace at its own head count: its heads can be switched off."""
    if prepared is None or prepared.trace.weights_source != "pretrained" or prepared.trace.layer is None:
        return False
    return not getattr(prepared.source, "is_decoder", False) and own_heads(prepared.trace)


class OutputCosinePanel(QtWidgets.QFrame):
    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.context = context
        self.state = context.state
        self.answer: OutputCosine | None = None
        self.error: BaseException | None = None
        self._wanted: tuple | None = None
        self._encoder = False
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll = QtWidgets.QScrollArea()  # a long text's tokens scroll
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        inside = QtWidgets.QWidget()
        self.scroll.setWidget(inside)
        outer.addWidget(self.scroll)
        layout = QtWidgets.QVBoxLayout(inside)
        self.title = QtWidgets.QLabel()
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.mean = QtWidgets.QLabel()
        self.mean.setWordWrap(True)
        self.bars = ProbabilityBars(context.style(), numbers=COSINES)
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        for widget in (self.title, self.mean, self.bars, self.summary):
            layout.addWidget(widget)
        layout.addStretch(1)
        context.worker.listen(CHANNEL, self._on_result)
        unsubscribe = self.state.subscribe(lambda *_: self.request(), ["decoding"])
        self.destroyed.connect(lambda *_: unsubscribe())
        self.setVisible(False)
        self.retranslate()

    def follow(self, prepared) -> None:
        """A new trace on screen: an encoder's is asked what its heads off change."""
        self._encoder = encoder_trace(prepared)
        self.request()

    def wanted_key(self) -> tuple | None:
        prepared = self.context.current()
        if not self._encoder or prepared is None:
            return None
        return output_cosine_key(prepared.trace.config, self.state.decoding.options)

    def request(self) -> None:
        prepared = self.context.current()
        key = self.wanted_key()
        shown = key is not None and self._any_off(prepared)
        self.setVisible(shown)
        if not shown or not self.isVisible():  # off screen (another tab): asked when shown
            return
        if (self.answer is not None and self.answer.key == key) or key == self._wanted:
            self.show_answer()
            return
        self._wanted = key
        self.error = None
        self.mean.setText(self.tr("Computing the output vectors with the heads off…"))
        self.scroll.widget().layout().activate()
        engine, config, options = self.context.engine, prepared.trace.config, self.state.decoding.options
        self.context.worker.submit(CHANNEL, lambda: output_cosine_job(engine, config, options))

    def showEvent(self, event):
        super().showEvent(event)
        self.request()  # heads switched or text typed while another tab was in front

    def _any_off(self, prepared) -> bool:
        """Some of this encoder's heads are off (the switches keep heads of other models too)."""
        source, options = prepared.source, self.state.decoding.options
        layers, heads = getattr(source, "layers", 0), getattr(source, "default_heads", 0)
        return options.head_set(layers, heads) is not None

    def _on_result(self, result) -> None:
        self._wanted = None
        self.answer, self.error = (result.value, None) if result.ok else (None, result.error)
        self.show_answer()
        self.request()  # the heads or the text moved on meanwhile: ask again

    def show_answer(self) -> None:
        prepared = self.context.current()
        if self.error is not None:
            self.bars.set_rows([])
            self.mean.setText(error_message(self.error))
            return
        answer = self.answer
        if answer is None or prepared is None or answer.key != self.wanted_key():
            return
        tokens = prepared.trace.tokens_key
        self.bars.set_rows([(t, c, None) for t, c in zip(tokens, answer.cosine)])
        heads = ", ".join(f"{layer}.{head}" for layer, head in sorted(answer.heads.heads))
        how = (
            self.tr("zeroed before W_O")
            if answer.heads.mode == "zero"
            else self.tr("replaced by their mean over the text, before W_O")
        )
        self.mean.setText(self.tr("Mean cosine: {mean:.4f}").format(mean=answer.mean))
        self.summary.setText(
            self.tr(
                "Each token's output vector (after the last layer) with heads {heads} off ({how}), "
                "against every head on: their cosine (1: unchanged)."
            ).format(heads=heads, how=how)
        )
        self.scroll.widget().layout().activate()

    def rows(self) -> list[tuple[str, float]]:
        return [(token, c) for token, c, _ in self.bars.rows]

    def restyle(self, style: Style, room: int) -> None:
        self.bars.set_style(style)
        self.fit(room)

    def fit(self, room: int) -> None:
        self.setFixedWidth(side_width(self.bars.style_.font, room))

    def retranslate(self) -> None:
        self.title.setText(self.tr("Output vectors with heads off"))
        self.setToolTip(
            self.tr(
                "An encoder writes no next token: what its heads do shows in its output vectors. "
                "cos(output with the heads off, output with every head on), per token."
            )
        )
        if self.answer is not None or self.error is not None:
            self.show_answer()
