"""The Language model tab's Generate page: a prompt, and text written one token at a time with
the weights in use (the shipped checkpoint or the run's snapshot), each new token's attention
to the tokens before it drawn per head as it comes.

The text is the lab's state's ``writing`` (explorer.appstate.lm_jobs.Writing): the page asks
the window's worker for one token (channel "lm-write"), appends it to the state when it comes
and asks for the next, until the count or Stop. Temperature 0 writes the most likely token;
above it the tokens are drawn, seeded (the same settings, the same text).
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lm import HEADS, LAYERS, MAX_SEED, MAX_TEMPERATURE, MAX_WRITTEN, typed_text
from explorer.appstate.lm_jobs import Writing, default_prompt, writing_request
from explorer.gui import theme
from explorer.gui.core_text import translated
from explorer.gui.flow import FlowLayout
from explorer.gui.heatmap import Figure, MatrixCanvas, MatrixPanel
from explorer.gui.heatmap.figure import Mark
from explorer.gui.i18n import translate
from explorer.gui.lab.stages import wrapping
from explorer.gui.labs.lm import heads as lh
from explorer.gui.messages import ERROR_STYLE, NOTICE_STYLE, error_message
from explorer.lm.generate import LMGeneration
from explorer.lm.vocab import MAX_TEXT_CHARS
from explorer.messages import Message

CHANNEL = "lm-write"
MAX_TOP_K = 64


def shown_token(token: str) -> str:
    return lh.shown_tokens([token])[0]


def written_html(generation: LMGeneration, accent: str) -> str:
    """The prompt, then the new tokens in the accent colour (a line break as a sign)."""
    prompt = html.escape("".join(generation.prompt).replace("\n", "↵"))
    new = html.escape("".join(s.token for s in generation.steps).replace("\n", "↵"))
    return f"{prompt}<b style='color:{accent}'>{new}</b>" if new else prompt


def written_text(generation: LMGeneration) -> str:
    """The prompt and what was written after it, as plain text (a line break as a sign)."""
    return "".join(generation.tokens).replace("\n", "↵")


def how_written(writing: Writing) -> str:
    """The weights that wrote the text and how each token was chosen."""
    spec, choice = writing.request.spec, writing.request.model
    weights = (
        translate("LMView", "shipped checkpoint")
        if choice.shipped
        else translate("LMView", "training step {0}").format(choice.step)
    )
    if spec.decoding == "greedy":
        how = translate("LMView", "always the most likely token")
    else:
        how = translate("LMView", "drawn at temperature {t:g}, top-k {k}, seed {seed}").format(
            t=spec.temperature,
            k=spec.top_k if spec.top_k else translate("LMView", "all"),
            seed=spec.seed,
        )
    return f"{weights} · {how}"


def head_titles(result, writing: Writing) -> dict[tuple[int, int], str]:
    """Each head's score beside its name, when the tab's result measured the same weights."""
    if result is None or result.request.model != writing.request.model:
        return {}
    return {(layer, h): lh.short_title(result, (layer, h)) for layer in range(LAYERS) for h in range(HEADS)}


def head_panels(generation: LMGeneration, titles: dict[tuple[int, int], str]) -> list[MatrixPanel]:
    """Per head, [new tokens × the text]: where the position that wrote each new token looked."""
    rows = lh.shown_tokens([s.token for s in generation.steps])
    cols = lh.shown_tokens(generation.tokens)
    return [
        MatrixPanel(
            generation.attention(layer, head),
            rows,
            cols,
            title=titles.get((layer, head), lh.head_name((layer, head))),
            kind="weights",
            levels=(0.0, 1.0),
            role="qk",
            name=lh.head_name((layer, head)),
        )
        for layer in range(LAYERS)
        for head in range(HEADS)
    ]


class RowsNote(QtWidgets.QLabel):
    """One line under a grid saying that its rows name every n-th token only: at a projector a
    row with no room for a PROJECTOR_LABEL_PX label (explorer.gui.labs.lm.heads). Hidden when
    every row is named; ``update_note`` after the grid's figure changes, and on its resizes."""

    def __init__(self, canvas: MatrixCanvas, parent=None):
        super().__init__(parent)
        self.canvas = canvas
        self.setWordWrap(True)
        self.setSizePolicy(wrapping())
        self.setVisible(False)
        canvas.installEventFilter(self)

    def update_note(self) -> None:
        every = lh.rows_named_every(self.canvas.current_layout()) if self.canvas.panels else 1
        text = translate("LMView", "One row in {n} named: hover for each token.").format(n=every)
        text = text if every > 1 else ""
        if self.text() != text:
            self.setText(text)
        if self.isVisibleTo(self.parentWidget() or self) != bool(text):
            self.setVisible(bool(text))

    def eventFilter(self, watched, event):
        if watched is self.canvas and event.type() == QtCore.QEvent.Type.Resize:
            # another height, maybe another stride: once the canvas has laid itself out anew
            QtCore.QTimer.singleShot(0, self, self.update_note)
        return super().eventFilter(watched, event)


class GeneratePage(QtWidgets.QWidget):
    def __init__(self, view, parent=None):
        super().__init__(parent)
        self.view = view  # the tab: its state, worker, style and the heads' scores
        self.state, self.lab = view.state, view.lab
        self._asked: Writing | None = None  # the text whose next token the worker is computing
        self._cut: tuple[str, Message] | None = None  # (the prompt, its notice) when a paste was cut to it
        self._build()
        view.context.worker.listen(CHANNEL, self._on_token)
        unsubscribe = self.lab.subscribe(self._on_lab, ("task", "probe", "writing", "written", "weights"))
        self.destroyed.connect(lambda *_: unsubscribe())

    def _build(self) -> None:
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        row = FlowLayout()
        self.prompt_label = QtWidgets.QLabel()
        self.prompt = QtWidgets.QLineEdit()
        self.prompt.setMaxLength(MAX_TEXT_CHARS)  # the lab cuts a longer paste to its limit, and says so
        self.prompt.setClearButtonEnabled(True)
        self.prompt_label.setBuddy(self.prompt)
        row.add(self.prompt_label)
        row.add(self.prompt, stretch=True)
        self.tokens_label, self.temperature_label = QtWidgets.QLabel(), QtWidgets.QLabel()
        self.top_k_label, self.seed_label = QtWidgets.QLabel(), QtWidgets.QLabel()
        self.tokens, self.top_k, self.seed = QtWidgets.QSpinBox(), QtWidgets.QSpinBox(), QtWidgets.QSpinBox()
        self.tokens.setRange(1, MAX_WRITTEN)
        self.top_k.setRange(0, MAX_TOP_K)
        self.seed.setRange(0, MAX_SEED)
        self.temperature = QtWidgets.QDoubleSpinBox()
        self.temperature.setRange(0.0, MAX_TEMPERATURE)
        self.temperature.setSingleStep(0.1)
        self.temperature.setDecimals(1)
        self.write_button, self.stop_button = QtWidgets.QPushButton(), QtWidgets.QPushButton()
        for label, box in (
            (self.tokens_label, self.tokens),
            (self.temperature_label, self.temperature),
            (self.top_k_label, self.top_k),
            (self.seed_label, self.seed),
        ):
            label.setBuddy(box)
            row.add(label)
            row.add(box)
        row.add(self.write_button)
        row.add(self.stop_button)
        layout.addLayout(row)
        self.banner = QtWidgets.QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(ERROR_STYLE)
        self.banner.setVisible(False)
        layout.addWidget(self.banner)
        self.text = QtWidgets.QLabel()  # what was written
        self.text.setWordWrap(True)
        self.text.setSizePolicy(wrapping())
        self.text.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.text)
        self.status = QtWidgets.QLabel()
        self.status.setWordWrap(True)
        self.status.setSizePolicy(wrapping())
        layout.addWidget(self.status)
        self.hint = QtWidgets.QLabel()
        self.hint.setWordWrap(True)
        self.hint.setSizePolicy(wrapping())
        layout.addWidget(self.hint)
        self.canvas = MatrixCanvas(style=self._style())
        layout.addWidget(self.canvas, 1)
        self.rows_note = RowsNote(self.canvas)  # where not every row has room for its token's name
        layout.addWidget(self.rows_note)

        lab = self.lab
        self.prompt.textEdited.connect(self._on_prompt_edited)
        self.tokens.valueChanged.connect(lambda v: lab.set_writing(write_tokens=v))
        self.temperature.valueChanged.connect(lambda v: lab.set_writing(temperature=round(v, 1)))
        self.top_k.valueChanged.connect(lambda v: lab.set_writing(top_k=v))
        self.seed.valueChanged.connect(lambda v: lab.set_writing(write_seed=v))
        self.write_button.clicked.connect(self.write)
        self.stop_button.clicked.connect(self.stop)
        self.canvas.clicked.connect(self._on_clicked)
        self.canvas.hovered.connect(self._on_hover)

    # -- writing ---------------------------------------------------------------------------------------
    def _on_prompt_edited(self, text: str) -> None:
        prompt, cut = typed_text(text)
        self._cut = (prompt, cut) if cut is not None else None
        self.lab.set_writing(prompt=prompt)
        self._show_banner()

    def _show_banner(self, error: str | None = None) -> None:
        """The writing's failure, else the notice that the prompt was cut (while it is the
        prompt), else nothing."""
        if self._cut is not None and self._cut[0] != self.lab.prompt:
            self._cut = None
        text = "\n".join(t for t in (error, translated(self._cut[1]) if self._cut else "") if t)
        self.banner.setText(text)
        self.banner.setStyleSheet(ERROR_STYLE if error else NOTICE_STYLE)
        self.banner.setVisible(bool(text))

    def write(self) -> None:
        """A new text from the settings, with the weights in use now."""
        self._show_banner()
        self.lab.start_writing(Writing(writing_request(self.lab)))

    def stop(self) -> None:
        self._asked = None
        self.view.context.worker.cancel(CHANNEL)
        self.lab.stop_writing()

    def _ask(self) -> None:
        writing = self.lab.writing
        if not self.lab.is_writing or writing is None or self._asked is writing:
            return
        self._asked = writing
        self.view.context.worker.submit(CHANNEL, lambda w=writing: (w, w.advance()))

    def _on_token(self, result) -> None:
        asked, self._asked = self._asked, None
        if not result.ok:
            if asked is self.lab.writing:
                self._show_banner(error_message(result.error))
                self.lab.stop_writing(failed=True)
            return
        writing, token = result.value
        if token is None:
            self.lab.stop_writing()
        else:
            self.lab.add_written(writing, token)  # "written": drawn, and the next one asked

    # -- the state -------------------------------------------------------------------------------------
    def _on_lab(self, event: str, _lab) -> None:
        if event == "written":
            self._ask()
            self.show_writing()
        else:
            self.sync_controls()

    def sync_controls(self) -> None:
        lab = self.lab
        if self.prompt.text() != lab.prompt:
            self.prompt.setText(lab.prompt)
        for box, value in (
            (self.tokens, lab.write_tokens),
            (self.temperature, lab.temperature),
            (self.top_k, lab.top_k),
            (self.seed, lab.write_seed),
        ):
            if box.value() != value:
                box.blockSignals(True)
                box.setValue(value)
                box.blockSignals(False)
        self.top_k.setEnabled(lab.temperature > 0)  # the most likely token needs no top-k
        self.seed.setEnabled(lab.temperature > 0)
        self.prompt.setPlaceholderText(default_prompt(lab.task, lab.probe_seed))
        writing = lab.is_writing
        self.write_button.setEnabled(not writing)
        self.stop_button.setEnabled(writing)

    def _titles(self, writing: Writing) -> dict[tuple[int, int], str]:
        return head_titles(self.view.result, writing)

    def show_writing(self) -> None:
        self.sync_controls()
        self.hint.setVisible(not self.state.presentation)  # the lesson column says it there
        writing = self.lab.writing
        accent = theme.look(self.state).theme.accent
        if writing is None:
            self.text.setText("")
            self.status.setText(
                translate("LMView", "Press Generate: the model writes {0} tokens after the prompt.").format(
                    self.lab.write_tokens
                )
            )
            self.canvas.set_figure(Figure([]))
            self.rows_note.update_note()
            return
        generation = writing.generation
        self.text.setText(written_html(generation, accent))
        self.status.setText(self._status(writing))
        if not generation.steps:
            self.canvas.set_figure(Figure([]))
            self.rows_note.update_note()
            return
        head = self.lab.head
        presenting = self.state.presentation
        shown = [head[0] * HEADS + h for h in range(HEADS)] if presenting else None
        self.canvas.set_figure(
            Figure(
                head_panels(generation, self._titles(writing)),
                columns=HEADS,
                marks={head[0] * HEADS + head[1]: Mark(QtGui.QColor(accent), 4)},
                visible=shown,
            )
        )
        self.rows_note.update_note()

    def _status(self, writing: Writing) -> str:
        spec, steps = writing.request.spec, writing.steps
        done = {
            "writing": translate("LMView", "Writing: token {0} of {1}"),
            "done": translate("LMView", "Written: {0} of {1} tokens"),
            "stopped": translate("LMView", "Stopped after {0} of {1} tokens"),
            "failed": translate("LMView", "Stopped after {0} of {1} tokens"),
        }[self.lab.writing_status].format(len(steps), spec.tokens)
        parts = [done, how_written(writing)]
        if steps:
            last = steps[-1]
            parts.append(
                translate("LMView", "last: {token} (p = {p:.2f})").format(
                    token=shown_token(last.token), p=last.probability
                )
            )
        return " · ".join(parts)

    # -- the user --------------------------------------------------------------------------------------
    def _on_clicked(self, panel: int, _row: int, _col: int) -> None:
        if 0 <= panel < LAYERS * HEADS:
            self.lab.select_head((panel // HEADS, panel % HEADS))

    def _on_hover(self, index: int, r: int, c: int) -> None:
        writing = self.lab.writing
        panels = self.canvas.panels
        if writing is None or not 0 <= index < len(panels) or not 0 <= r < len(writing.steps):
            if writing is not None:
                self.status.setText(self._status(writing))
            return
        panel = panels[index]
        if not 0 <= c < len(panel.cols):
            return
        step = writing.steps[r]
        self.status.setText(
            translate(
                "LMView",
                "head {head}: writing {new} (from position {i}), it looked at {key} (position {j}): {value:.3f}",
            ).format(
                head=panel.name,
                new=shown_token(step.token),
                i=step.position,
                key=panel.cols[c],
                j=c,
                value=float(panel.data[r, c]),
            )
        )

    # -- looks and words -------------------------------------------------------------------------------
    def _style(self):
        return lh.projector_style(self.view.context.style(), self.state.presentation)

    def restyle(self) -> None:
        self.canvas.set_style(self._style())
        self.show_writing()

    def retranslate(self) -> None:
        self.prompt_label.setText(translate("LMView", "Prompt"))
        self.prompt.setToolTip(
            translate(
                "LMView", "The text the model continues (characters it knows); empty: the one shown grey"
            )
        )
        self.tokens_label.setText(translate("LMView", "Tokens"))
        self.tokens.setToolTip(translate("LMView", "How many tokens to write"))
        self.temperature_label.setText(translate("LMView", "Temperature"))
        self.temperature.setSpecialValueText(translate("LMView", "0 (most likely)"))
        self.temperature.setToolTip(
            translate(
                "LMView",
                "0: always the most likely token; above 0 each token is drawn from the softmax of "
                "logits ÷ temperature (higher: more surprising)",
            )
        )
        self.top_k_label.setText(translate("LMView", "Top-k"))
        self.top_k.setSpecialValueText(translate("LMView", "all"))
        self.top_k.setToolTip(translate("LMView", "Draw only among the k most likely tokens (0: all)"))
        self.seed_label.setText(translate("LMView", "Seed"))
        self.seed.setToolTip(translate("LMView", "The same seed and settings write the same text"))
        self.write_button.setText(translate("LMView", "Generate"))
        self.write_button.setToolTip(
            translate(
                "LMView", "Write the tokens one at a time with the weights in use; the window stays usable"
            )
        )
        self.stop_button.setText(translate("LMView", "Stop"))
        self.stop_button.setToolTip(translate("LMView", "Stop after the token being written"))
        self.hint.setText(
            translate(
                "LMView",
                "One panel per head. Row: a new token; columns: the text. Each row shows where the "
                "position that wrote the token looked. On a repeated sequence an induction head "
                "looks at the token after the earlier occurrence of the current one, and that "
                "token is written: the model copies.",
            )
        )
        self.show_writing()
