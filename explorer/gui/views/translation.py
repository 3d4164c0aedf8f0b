"""The Translation tab: a trained encoder–decoder turns a date into ``YYYY-MM-DD``, and you
watch where each output character looks.

Top: the date (typed, or one of the examples, Chinese included), the model, its scoring and
the decoding (soft, hard, sample); for the Transformer the attention kind, layer and head.
Then the answer, one character at a time, with the alignment score in words, and below it
the alignment (output steps × source characters) as a heatmap or as lines as thick as the
weights. Beside it, two pages: the selected output step's stages (the Pipeline's own panels,
on ``trace.attention_trace``, so the worked-arithmetic dock works out that step's score with
the trained numbers), and training from scratch with its curves and scrubber.

Every translation runs on the worker (channel ``translation``, latest request wins); the
settings live in ``ExplorerState.translation`` (explorer/appstate/translation.py). This view
draws them and edits them.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.translation import (
    EVENTS,
    KINDS,
    TranslationRequest,
    attention_problem,
    checkpoint_problem,
)
from explorer.core.trace import AttentionTrace
from explorer.gui import theme
from explorer.gui.core_text import error_text
from explorer.gui.elided import ElidedCombo
from explorer.gui.heatmap import Figure, MatrixCanvas
from explorer.gui.heatmap.figure import Mark
from explorer.gui.i18n import translate
from explorer.gui.lines_view import LinesView
from explorer.gui.messages import ERROR_STYLE, NOTICE_STYLE, error_message
from explorer.gui.views.base import FigureSource, NothingToExport, View, ViewContext
from explorer.gui.views.translation_choices import ChoiceRows
from explorer.gui.views.translation_parts import (
    ATTENTION_HINTS,
    ATTENTION_NAMES,
    FORMAT_NAMES,
    KIND_NAMES,
    MODEL_NAMES,
    REASONS,
    SCORING_FORMULAS,
    SCORING_NAMES,
    OutputStrip,
    alignment_panel,
    examples,
    misses_text,
    notices,
    score_report,
    shown,
    step_panels,
    step_summary,
)
from explorer.gui.views.translation_training import TrainingPanel
from explorer.seq2seq import ATTENTIONS, MODELS, SCORINGS, LabError, TranslationTrace
from explorer.seq2seq.spec import MAX_SOURCE_CHARS

CHANNEL = "translation"
WIDE_PX = 960  # from this width the alignment and the pages sit side by side
STEP_PAGE, TRAIN_PAGE = 0, 1
EXPORT_SIZE = QtCore.QSize(900, 520)
STAGES_EXPORT_SIZE = QtCore.QSize(1500, 820)
# What each lesson step (explorer/appstate/lesson_translation.py) points at in this tab.
LESSON_PARTS = {
    "fixed_context": ("alignment", ()),
    "context_per_step": ("alignment", ()),
    "query": ("step", ("Q",)),
    "alignment_scores": ("step", ("scores",)),
    "alignment_weights": ("step", ("weights",)),
    "context": ("step", ("head_output",)),
    "soft_hard": ("step", ("weights",)),
    "learn": ("train", ()),
}


def input_problem(text: str) -> str | None:
    """Why the models cannot read this text (in the interface language), or None."""
    cleaned = text.strip()
    if not cleaned:
        return translate("Translation", "Type a date, for example 9 May 2018, or pick one of the examples.")
    if len(cleaned) > MAX_SOURCE_CHARS:
        return translate(
            "Translation", "The models read at most {limit} characters; this text has {n}."
        ).format(limit=MAX_SOURCE_CHARS, n=len(cleaned))
    return None


def _combo(names) -> QtWidgets.QComboBox:
    box = ElidedCombo(min_chars=6)  # a long name is elided (its whole text in the list), not widening
    model = QtGui.QStandardItemModel(box)
    for name in names:
        item = QtGui.QStandardItem(name)
        item.setData(name, QtCore.Qt.ItemDataRole.UserRole)
        model.appendRow(item)
    box.setModel(model)
    return box


def _wrapping() -> QtWidgets.QSizePolicy:
    """For a wrapped label: any width (never what widens the window), as tall as its lines
    need there (a new policy would drop the label's height-for-width and cut its last line)."""
    policy = QtWidgets.QSizePolicy(
        QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred
    )
    policy.setHeightForWidth(True)
    return policy


def _select(box: QtWidgets.QComboBox, value) -> None:
    index = box.findData(value)
    if index >= 0 and index != box.currentIndex():
        box.blockSignals(True)
        box.setCurrentIndex(index)
        box.blockSignals(False)


class TranslationView(View):
    TAB = "translation"
    STATE_EVENTS = ("lesson",)
    workedChanged = QtCore.Signal()  # the selected step changed: the worked-arithmetic dock redraws

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        self.tstate = context.state.translation
        self.trace: TranslationTrace | None = None  # the translation on screen
        self.trace_request: TranslationRequest | None = None  # what it was computed for
        self._wanted: TranslationRequest | None = None  # asked of the worker, not back yet
        self.message_text = ""  # the error line above the answer (tests read it)
        self.notice_text = ""  # what to know about the translation on screen (under its score)
        self._stages_stale = False  # the stage panels wait for their page to be shown
        self._choices_for: str | None = None  # the model whose choices are enabled in the pickers
        self._build()
        context.worker.listen(CHANNEL, self._on_result)
        unsubscribe = self.tstate.subscribe(self._on_translation_event, EVENTS)
        tstate = self.tstate
        self.destroyed.connect(lambda *_: (unsubscribe(), tstate.cancel_training()))
        app = QtWidgets.QApplication.instance()
        app.aboutToQuit.connect(self.stop_training)
        self.retranslate()
        self.restyle()
        self._show_settings()

    # -- building ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        row = QtWidgets.QHBoxLayout()
        self.source_label = QtWidgets.QLabel()
        self.source_edit = QtWidgets.QLineEdit()
        self.source_edit.setMaxLength(1000)
        self.source_label.setBuddy(self.source_edit)
        self.examples = ElidedCombo(min_chars=8)
        self.examples.addItem("", None)
        for example in examples():
            self.examples.addItem("", example.source)
        row.addWidget(self.source_label)
        row.addWidget(self.source_edit, 3)
        row.addWidget(self.examples, 2)
        layout.addLayout(row)

        self.model_label, self.scoring_label, self.attention_label = (QtWidgets.QLabel() for _ in range(3))
        self.model_box, self.scoring_box, self.attention_box = (
            _combo(MODELS),
            _combo(SCORINGS),
            _combo(ATTENTIONS),
        )
        self.lines_button = QtWidgets.QPushButton()
        self.lines_button.setCheckable(True)
        self.kind_label, self.layer_label, self.head_label = (QtWidgets.QLabel() for _ in range(3))
        self.kind_box = _combo(KINDS)
        self.layer_box, self.head_box = QtWidgets.QSpinBox(), QtWidgets.QSpinBox()
        self.transformer_boxes = (self.kind_box, self.layer_box, self.head_box)
        groups = [
            [(self.model_label, self.model_box), (self.scoring_label, self.scoring_box)]
            + [(self.attention_label, self.attention_box), (None, self.lines_button)],
            [(self.kind_label, self.kind_box), (self.layer_label, self.layer_box)]
            + [(self.head_label, self.head_box)],
        ]
        for group in groups:
            for label, box in group:
                if label is not None:
                    label.setBuddy(box)
        self.choices = ChoiceRows(groups)  # as many to a row as fit: never what widens the window
        layout.addWidget(self.choices)

        self.message = QtWidgets.QLabel()
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        layout.addWidget(self.message)

        row = QtWidgets.QHBoxLayout()
        self.strip = OutputStrip()
        self.score_label = QtWidgets.QLabel()
        self.score_label.setWordWrap(True)
        self.score_label.setSizePolicy(_wrapping())
        self.score_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.strip, 2)
        row.addWidget(self.score_label, 3)
        layout.addLayout(row)

        self.alignment = MatrixCanvas(style=self.context.style())
        self.lines = LinesView()
        self.stack = QtWidgets.QStackedWidget()
        self.stack.addWidget(self.alignment)
        self.stack.addWidget(self.lines)
        self.pages = QtWidgets.QTabWidget()
        step_page = QtWidgets.QWidget()
        step_layout = QtWidgets.QVBoxLayout(step_page)
        step_layout.setContentsMargins(2, 2, 2, 2)
        self.step_label = QtWidgets.QLabel()
        self.step_label.setWordWrap(True)
        self.step_label.setSizePolicy(_wrapping())
        self.stages = MatrixCanvas(style=self.context.style())
        self.stages_scroll = QtWidgets.QScrollArea()
        self.stages_scroll.setWidgetResizable(True)
        self.stages_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.stages_scroll.setWidget(self.stages)
        # the rest of the page, whatever the panels' hint: the step's sentence keeps its lines
        self.stages_scroll.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Ignored
        )
        step_layout.addWidget(self.step_label)
        step_layout.addWidget(self.stages_scroll, 1)
        self.training = TrainingPanel(self.state, self.tstate)
        training_scroll = QtWidgets.QScrollArea()
        training_scroll.setWidgetResizable(True)
        training_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        training_scroll.setWidget(self.training)
        self.pages.addTab(step_page, "")
        self.pages.addTab(training_scroll, "")
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.stack)
        self.splitter.addWidget(self.pages)
        self.splitter.setChildrenCollapsible(False)
        layout.addWidget(self.splitter, 1)

        self.source_edit.textChanged.connect(self.tstate.set_source)
        self.examples.activated.connect(self._on_example)
        self.model_box.currentIndexChanged.connect(
            lambda _: self.tstate.set_model(self.model_box.currentData())
        )
        self.scoring_box.currentIndexChanged.connect(
            lambda _: self.tstate.set_scoring(self.scoring_box.currentData())
        )
        self.attention_box.currentIndexChanged.connect(
            lambda _: self.tstate.set_attention(self.attention_box.currentData())
        )
        self.lines_button.toggled.connect(lambda on: self.tstate.set_view("lines" if on else "heatmap"))
        self.kind_box.currentIndexChanged.connect(lambda _: self.tstate.set_kind(self.kind_box.currentData()))
        self.layer_box.valueChanged.connect(self.tstate.set_layer)
        self.head_box.valueChanged.connect(self.tstate.set_head)
        self.strip.stepClicked.connect(self.select_step)
        self.alignment.clicked.connect(lambda _, r, c: self._select_alignment(r, c))
        self.alignment.hovered.connect(self._on_hover)
        self.lines.cellClicked.connect(self._select_alignment)
        self.stages.clicked.connect(self._on_stage_click)
        self.stages.hovered.connect(self._on_stage_hover)
        self.training.train_button.clicked.connect(lambda: self.pages.setCurrentIndex(TRAIN_PAGE))
        self.pages.currentChanged.connect(self._on_page)

    # -- the state -----------------------------------------------------------------------------------
    def _show_settings(self) -> None:
        """Every control from the TranslationState (a session, a lesson, the model picker)."""
        s = self.tstate.settings
        if self.source_edit.text() != s.source:
            self.source_edit.blockSignals(True)
            self.source_edit.setText(s.source)
            self.source_edit.blockSignals(False)
        _select(self.model_box, s.model)
        _select(self.scoring_box, s.scoring)
        _select(self.attention_box, s.attention)
        _select(self.kind_box, s.kind)
        if self._choices_for != s.model:  # not on every keystroke
            self._choices_for = s.model
            self._enable_choices()
        for box, value in ((self.layer_box, s.layer), (self.head_box, s.head)):
            if box.value() != value:
                box.blockSignals(True)
                box.setValue(value)
                box.blockSignals(False)
        self.lines_button.blockSignals(True)
        self.lines_button.setChecked(s.view == "lines")
        self.lines_button.blockSignals(False)
        self.stack.setCurrentIndex(1 if s.view == "lines" else 0)
        if self.kind_box.isVisibleTo(self.choices) == self.tstate.is_gru:
            for label, box in zip(
                (self.kind_label, self.layer_label, self.head_label), self.transformer_boxes
            ):
                label.setVisible(not self.tstate.is_gru)
                box.setVisible(not self.tstate.is_gru)
            self.choices.rearrange()

    def _enable_choices(self) -> None:
        """Pairs without a checkpoint and decodings a model lacks are disabled, with the reason."""
        model = self.tstate.settings.model
        for box, problem, hint in (
            (self.scoring_box, lambda name: checkpoint_problem(model, name), SCORING_FORMULAS.get),
            (
                self.attention_box,
                lambda name: attention_problem(model, name),
                lambda n: translate("Translation", ATTENTION_HINTS[n]),
            ),
        ):
            items = box.model()
            for row in range(box.count()):
                name = box.itemData(row)
                reason = problem(name)
                items.item(row).setEnabled(reason is None)
                items.item(row).setToolTip(
                    translate("Translation", REASONS[reason]) if reason else hint(name)
                )

    def _on_translation_event(self, event: str, tstate) -> None:
        if event in ("request", "stage", "view"):
            self._show_settings()
        if event in ("request", "weights"):
            if self.is_shown():
                self.request()
        elif event == "selection":
            self._show_selection()
        elif event == "stage":
            self._draw_stages()
            self._show_selection()  # the step's sentence and the worked arithmetic of this attention
        elif event == "view":
            self._draw_lines()

    def on_state(self, event: str) -> None:
        if event == "lesson":
            self._show_lesson()

    # -- computing -----------------------------------------------------------------------------------
    def draw(self, prepared):
        """The window's trace is not this tab's: just ask for our own when shown."""
        self.prepared, self.stale = prepared, False
        return iter(())

    def activated(self) -> None:
        self.request()
        self.workedChanged.emit()

    def cancelled(self) -> None:
        self.context.worker.cancel(CHANNEL)
        self._wanted = None

    def request(self) -> None:
        """Translate what the state asks for, unless it is on screen or on its way."""
        req = self.tstate.request()
        if req == self.trace_request:
            self._wanted = None
            self._say("", error=False)  # back to the text on screen: an older error no longer holds
            return
        if req == self._wanted:
            return
        problem = input_problem(req.source)
        if problem is not None:
            self.context.worker.cancel(CHANNEL)  # an older answer must not arrive after this
            self._wanted = None
            self._say(problem, error=True)
            return
        watched = self._watched(req)
        if watched is not None:  # the training thread translated this very text at this snapshot
            self.context.worker.cancel(CHANNEL)
            self._wanted = None
            self.show_trace(watched, req)
            return
        self._wanted = req
        self.context.worker.submit(CHANNEL, req.compute)

    def _watched(self, req: TranslationRequest) -> TranslationTrace | None:
        run = self.tstate.run
        if req.weights != "trained" or run is None or run.id != req.run or run.watched is None:
            return None
        step, watched_for, trace = run.watched
        if step == req.step and watched_for == (req.source, req.attention):
            return trace
        return None

    def _on_result(self, result) -> None:
        req, self._wanted = self._wanted, None
        if not result.ok:
            exc = result.error
            text = (
                translate("Translation", "Cannot translate this: {0}").format(error_text(exc))
                if isinstance(exc, LabError)
                else error_message(exc)
            )
            self._say(text, error=True)
            return
        self.show_trace(result.value, req)
        if self.is_shown():
            self.request()  # something changed meanwhile

    # -- drawing -------------------------------------------------------------------------------------
    def show_trace(self, trace: TranslationTrace, req: TranslationRequest | None) -> None:
        """Put a translation on screen: the answer, the score, the alignment and the stages."""
        old = self.trace
        self.trace, self.trace_request = trace, req
        # a new answer is written out one character at a time (the first one appears whole)
        animate = old is not None and old.output != trace.output and self.isVisible()
        self.strip.set_output(trace, animate=animate)
        self._say("", error=False)
        self._show_score()
        self.alignment.show_panel(alignment_panel(trace), selection=self.cell())
        self._draw_lines()
        self._sync_spins()
        self._draw_stages()
        self._show_selection()
        self._show_lesson()
        self.alignment.repaint()
        self.rendered.emit()

    def _show_score(self) -> None:
        """The alignment score, its misses (not in presentation mode: the tooltip has them)
        and what to know about this translation, beside the answer."""
        if self.trace is None:
            return
        head, misses = score_report(self.trace)
        said = notices(self.trace, self.tstate.settings.source)
        self.notice_text = "  •  ".join(said)
        parts = [f"<b>{html.escape(head)}</b>"]
        if misses and not self.state.presentation:
            parts.append(html.escape(misses_text(misses)))
        if said:
            colour = theme.look(self.state).theme.accent
            parts.append(f"<span style='color:{colour}'>{html.escape(self.notice_text)}</span>")
        self.score_label.setText("<br>".join(parts))
        self.score_label.setToolTip(
            " ".join([head, misses_text(misses) if misses else "", self.notice_text]).strip()
        )

    def _say(self, text: str, error: bool) -> None:
        self.message_text = text
        self.message.setText(text)
        self.message.setStyleSheet(ERROR_STYLE if error else NOTICE_STYLE)
        self.message.setVisible(bool(text))

    def _draw_lines(self) -> None:
        """The lines view, when it is the one shown (else when it is shown)."""
        if self.trace is None or self.tstate.settings.view != "lines":
            return
        t = self.trace
        self.lines.set_data(
            shown(t.output_tokens),
            shown(t.source_tokens),
            t.alignment,
            heads=[0],
            title=translate(
                "Translation", "each output character (top) and the source characters it looks at (bottom)"
            ),
        )
        cell = self.cell()
        self.lines.set_selection(cell if self._kind() in ("cross",) or t.is_gru else None)

    def _sync_spins(self) -> None:
        """The Transformer's layer and head pickers cover its layers and heads."""
        t = self.trace
        if t is None or t.is_gru:
            return
        layers = len(t.stages["cross"])
        heads = t.stages["cross"][0].heads
        for box, top in ((self.layer_box, layers - 1), (self.head_box, heads - 1)):
            if box.maximum() != top:
                box.blockSignals(True)
                box.setRange(0, top)
                box.blockSignals(False)

    def _draw_stages(self) -> None:
        """The stage panels, when their page is shown (while training, the Train page is:
        the GUI thread then draws only what is on screen)."""
        at = self.attention()
        self._stages_stale = self.pages.currentIndex() != STEP_PAGE
        if at is None or self._stages_stale:
            return
        panels = step_panels(self.trace, at, self.head())
        self.stages.set_figure(Figure(panels, selection=self.cell(), marks=self._marks()))
        self._lay_out_stages()

    def _lay_out_stages(self) -> None:
        """Every stage, two or four a row; in presentation mode only the lesson's (or the
        weights), as large as the page."""
        panels = self.stages.panels
        visible = None
        if self.state.presentation:
            part = self._lesson_part()
            wanted = part[1] if part is not None and part[0] == "step" else ("weights",)
            visible = [i for i, p in enumerate(panels) if p.name in wanted] or None
        n = len(visible) if visible is not None else len(panels)
        wide = self.pages.width() >= 900 and not self.state.presentation
        columns = max(1, min(n, 4 if wide else 2))
        self.stages.set_visible(visible, columns)
        if self.state.presentation:
            self.stages.setMinimumHeight(0)  # the page's height: no scrolling on a projector
        else:
            rows = -(-n // columns)
            self.stages.setMinimumHeight(rows * max(190, round(theme.look(self.state).figure_px * 14)))
        self.stages.update()

    def _show_selection(self) -> None:
        cell = self.cell()
        self.alignment.set_selection(cell if self._kind() == "cross" else None)
        self.stages.set_selection(cell)
        if self.trace is not None:
            self.lines.set_selection(cell if self._kind() == "cross" else None)
            self.strip.set_selected(cell[0] if cell is not None and self._kind() != "encoder_self" else None)
            at = self.attention()
            self.step_label.setText(
                step_summary(self.trace, at, self._kind(), self._layer(), self.head(), cell)
            )
        self.workedChanged.emit()

    def _on_page(self, index: int) -> None:
        if index == STEP_PAGE and self._stages_stale:
            self._draw_stages()

    # -- what is selected ------------------------------------------------------------------------------
    def _kind(self) -> str:
        return "cross" if self.trace is None or self.trace.is_gru else self.tstate.settings.kind

    def _layer(self) -> int:
        if self.trace is None or self.trace.is_gru:
            return 0
        return min(self.tstate.settings.layer, len(self.trace.stages["cross"]) - 1)

    def attention(self) -> AttentionTrace | None:
        """The attention the stage panels and the worked arithmetic show."""
        if self.trace is None:
            return None
        return self.trace.attention_trace(self._kind(), self._layer())

    def head(self) -> int:
        at = self.attention()
        return 0 if at is None else min(self.tstate.settings.head, at.heads - 1)

    def cell(self) -> tuple[int, int] | None:
        """The selected (row, column) of that attention: the state's, kept inside the shape;
        with none chosen, the first output step at its largest weight."""
        at = self.attention()
        if at is None:
            return None
        chosen = self.tstate.settings.cell
        if chosen is None:
            return 0, int(np.argmax(at.weights[self.head(), 0]))
        return min(chosen[0], at.n_query - 1), min(chosen[1], at.n_key - 1)

    def worked_source(self) -> tuple[AttentionTrace | None, int, tuple[int, int] | None]:
        """What the worked-arithmetic dock works out while this tab is shown."""
        return self.attention(), self.head(), self.cell()

    def stop_training(self) -> None:
        """Quitting: the run stops between two steps (a moment), before torch shuts down."""
        self.tstate.stop_training()

    # -- the user -----------------------------------------------------------------------------------------
    def _on_example(self, index: int) -> None:
        text = self.examples.itemData(index)
        if text:
            self.tstate.set_source(text)
            self._show_settings()
        self.examples.setCurrentIndex(0)

    def select_step(self, step: int) -> None:
        """An output character was clicked: its step, at its largest weight."""
        if self.trace is None:
            return
        if self._kind() == "encoder_self":
            self.tstate.set_kind("cross")
        at = self.attention()
        step = min(step, at.n_query - 1)
        self.tstate.select((step, int(np.argmax(at.weights[self.head(), step]))))

    def _select_alignment(self, r: int, c: int) -> None:
        if self.trace is not None and self._kind() == "encoder_self":
            self.tstate.set_kind("cross")
        self.tstate.select((r, c))

    def _on_stage_click(self, index: int, r: int, c: int) -> None:
        panel = self.stages.panels[index]
        if panel.name == "entropy":
            self.tstate.set_head(r)
            return
        i, j = panel.selection_of(r, c)
        if i < 0 and j < 0:
            return
        old = self.cell() or (0, 0)
        self.tstate.select((i if i >= 0 else old[0], j if j >= 0 else old[1]))

    def _on_hover(self, index: int, r: int, c: int) -> None:
        if index >= 0:
            self.alignment.setToolTip(self.alignment.panels[index].cell_text(r, c))

    def _on_stage_hover(self, index: int, r: int, c: int) -> None:
        if index >= 0:
            panel = self.stages.panels[index]
            self.stages.setToolTip(f"{panel.title.split('  [')[0]} — {panel.cell_text(r, c)}")

    # -- the lesson -------------------------------------------------------------------------------------------
    def _lesson_part(self) -> tuple[str, tuple[str, ...]] | None:
        if not self.state.lesson_visible:
            return None
        step = STEPS[self.state.lesson_step]
        return LESSON_PARTS.get(step.stage) if step.tab == self.TAB else None

    def _marks(self) -> dict[int, Mark]:
        part = self._lesson_part()
        if part is None or part[0] != "step":
            return {}
        accent = QtGui.QColor(theme.look(self.state).theme.accent)
        return {i: Mark(accent, 4) for i, p in enumerate(self.stages.panels) if p.name in part[1]}

    def _show_lesson(self) -> None:
        part = self._lesson_part()
        accent = QtGui.QColor(theme.look(self.state).theme.accent)
        self.alignment.set_marks({0: Mark(accent, 4)} if part and part[0] == "alignment" else {})
        if part is None:
            self.stages.set_marks({})
            if self.state.presentation and self.stages.panels:
                self._lay_out_stages()
            return
        if part[0] == "step":
            self.pages.setCurrentIndex(STEP_PAGE)
        elif part[0] == "train":
            self.pages.setCurrentIndex(TRAIN_PAGE)
        self.stages.set_marks(self._marks())
        if self.state.presentation and self.stages.panels:
            self._lay_out_stages()  # the lesson's panels, large

    # -- looks and words ---------------------------------------------------------------------------------------
    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        wide = self.width() >= WIDE_PX
        orientation = QtCore.Qt.Orientation.Horizontal if wide else QtCore.Qt.Orientation.Vertical
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
        if self.stages.panels:
            self._lay_out_stages()

    def restyle(self) -> None:
        look = theme.look(self.state)
        t = look.theme
        style = self.context.style()
        self.alignment.set_style(style)
        self.stages.set_style(style)
        px = look.widget_px or theme.platform_font_px()
        self.strip.set_style(px, t.plot_fg, t.plot_bg, t.accent)
        self.lines.set_style(max(px, look.figure_px), t.plot_fg, t.plot_bg)
        self.training.restyle()
        self._show_score()
        if self.stages.panels:
            self._lay_out_stages()

    def retranslate(self) -> None:
        self.source_label.setText(translate("Translation", "&Date"))
        self.source_edit.setPlaceholderText(
            translate("Translation", "a date as people write it, e.g. 9 May 2018 or 2018年5月9日")
        )
        self.source_edit.setToolTip(
            translate(
                "Translation",
                "Type a date in any of the trained formats; the answer and its alignment follow as you type",
            )
        )
        self.examples.setItemText(0, translate("Translation", "Examples…"))
        for row in range(1, self.examples.count()):
            text = self.examples.itemData(row)
            fmt = next((e.format for e in examples() if e.source == text), None)
            self.examples.setItemText(
                row, f"{text}  —  {translate('Translation', FORMAT_NAMES[fmt])}" if fmt else text
            )
        self.examples.setToolTip(
            translate("Translation", "One date in every format the models were trained on, Chinese included")
        )
        self.model_label.setText(translate("Translation", "&Model"))
        self.scoring_label.setText(translate("Translation", "&Scoring"))
        self.attention_label.setText(translate("Translation", "&Attention"))
        for box, names in (
            (self.model_box, MODEL_NAMES),
            (self.scoring_box, SCORING_NAMES),
            (self.attention_box, ATTENTION_NAMES),
            (self.kind_box, KIND_NAMES),
        ):
            for row in range(box.count()):
                box.setItemText(row, translate("Translation", names[box.itemData(row)]))
        self.model_box.setToolTip(
            translate("Translation", "Bahdanau: the query is the decoder's state before it writes. Luong: after it read the last "
               "character. Transformer: two layers of self- and cross-attention, four heads.")
        )  # fmt: skip
        self.scoring_box.setToolTip(
            translate(
                "Translation", "How a query and a key are compared; each choice is its own trained model"
            )
        )
        self.attention_box.setToolTip(
            translate(
                "Translation",
                "Soft: the weighted average, as trained. Hard: only the largest weight. Sample: one key drawn by the weights.",
            )
        )
        self.lines_button.setText(translate("Translation", "Lines view"))
        self.lines_button.setToolTip(
            translate(
                "Translation",
                "Show the alignment as lines as thick as the weights (reads well from the back of a room)",
            )
        )
        self.kind_label.setText(translate("Translation", "Attention kind"))
        self.layer_label.setText(translate("Translation", "Layer"))
        self.head_label.setText(translate("Translation", "Head"))
        self.kind_box.setToolTip(
            translate("Translation", "Which of the Transformer's three attentions the stage panels show")
        )
        self.layer_box.setToolTip(translate("Translation", "The layer whose attention the stage panels show"))
        self.head_box.setToolTip(translate("Translation", "The head whose stages are shown"))
        self.pages.setTabText(STEP_PAGE, translate("Translation", "Output step"))
        self.pages.setTabText(TRAIN_PAGE, translate("Translation", "Train from scratch"))
        self.pages.setTabToolTip(
            STEP_PAGE,
            translate("Translation", "The selected output step's query, scores, weights and context"),
        )
        self.pages.setTabToolTip(
            TRAIN_PAGE,
            translate("Translation", "Train a model from random weights and watch the alignment form"),
        )
        self._enable_choices()
        if self.trace is not None:
            self.show_trace(self.trace, self.trace_request)
        else:
            self.step_label.setText(
                translate(
                    "Translation", "Click an output character, or a row of the alignment, to see its step."
                )
            )
            self.score_label.setText("")


# -- export: drawn from the data, whether the tab is on screen or not ------------------------------------
class LinesPicture:
    """The lines view of a translation, painted into any device (the Exporter calls
    ``paint_into``): a LinesView that is never shown."""

    def __init__(self, trace: TranslationTrace, cell, font_px: int, fg: str, bg: str):
        self.view = LinesView()
        self.view.set_style(font_px, fg, bg)
        self.view.set_data(shown(trace.output_tokens), shown(trace.source_tokens), trace.alignment, heads=[0])
        self.view.set_selection(cell)

    def paint_into(self, painter: QtGui.QPainter, width: float, height: float) -> None:
        self.view.paint_into(painter, width, height)


def figures(context: ViewContext) -> dict[str, FigureSource]:
    def view() -> TranslationView | None:
        return context.view(TranslationView.TAB)

    def trace() -> TranslationTrace:
        shown_view = view()
        if shown_view is not None and shown_view.trace is not None:
            return shown_view.trace
        req = context.state.translation.request()  # never computed: compute it now, it was asked for
        problem = input_problem(req.source)
        if problem is not None:
            raise NothingToExport(problem)
        try:
            return req.compute()
        except LabError as exc:
            raise NothingToExport(
                translate("Translation", "Cannot translate this: {0}").format(error_text(exc))
            ) from None

    def cell(t: TranslationTrace):
        v = view()
        if v is not None and v.trace is t and v._kind() == "cross":
            return v.cell()
        return None

    def alignment():
        t = trace()
        return Figure([alignment_panel(t)], columns=1, selection=cell(t)), EXPORT_SIZE

    def lines():
        t = trace()
        look = theme.look(context.state)
        picture = LinesPicture(t, cell(t), max(look.figure_px, 16), look.theme.plot_fg, look.theme.plot_bg)
        return picture, EXPORT_SIZE

    def step_stages():
        t = trace()
        v = view()
        if v is not None and v.trace is t:
            at, head, selected = v.attention(), v.head(), v.cell()
        else:
            at, head = t.attention_trace("cross", -1), 0
            selected = (0, int(np.argmax(at.weights[0, 0])))
        panels = step_panels(t, at, head)
        return Figure(panels, columns=min(4, len(panels)), selection=selected), STAGES_EXPORT_SIZE

    return {
        "translation:alignment": FigureSource(
            translate("Translation", "Translation: the alignment (heatmap)"), alignment
        ),
        "translation:lines": FigureSource(
            translate("Translation", "Translation: the alignment as lines"), lines
        ),
        "translation:step": FigureSource(
            translate("Translation", "Translation: the selected output step's stages"), step_stages
        ),
    }
