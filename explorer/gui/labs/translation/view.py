"""The Translation tab: a trained encoder–decoder turns a date into ``YYYY-MM-DD``, and you
watch where each output character looks.

Top: the date (typed, or one of the examples, Chinese included), the model, its scoring and
the decoding (soft, hard, sample); for the Transformer the attention kind, layer and head.
Then two columns (side by side, or one above the other on a tall tab): the answer, one
character at a time, what its marks mean, and the alignment (output steps × source
characters) as a heatmap or as lines as thick as the weights; the alignment score in words
with what to know about the text (the date grammar's readings, unknown characters, a shifted
digit), and two pages: the selected output step's stages (the Pipeline's own panels, on
``trace.attention_trace``, so the worked-arithmetic dock works out that step's score with
the trained numbers), and training from scratch with its curves and scrubber.

Every translation runs on the worker (channel ``translation``, latest request wins); the
settings live in ``ExplorerState.translation`` (explorer/appstate/translation.py). This view
draws them and edits them. Its parts: ``controls`` (the pickers), ``parts`` (words, panels, the
output strip), ``training`` (what the lab's training page draws), ``lesson`` (what a lesson
step points at), ``export`` (its figures).
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.translation import EVENTS, TranslationRequest
from explorer.core.trace import AttentionTrace
from explorer.gui import theme
from explorer.gui.core_text import error_text
from explorer.gui.heatmap import MatrixCanvas
from explorer.gui.heatmap.figure import Mark
from explorer.gui.i18n import translate
from explorer.gui.lab import pacing
from explorer.gui.lab.stages import StagePanels, wrapping
from explorer.gui.lab.training import TrainingPage
from explorer.gui.labs.translation.controls import TranslationControls
from explorer.gui.labs.translation.lesson import LESSON_PARTS, lesson_part
from explorer.gui.labs.translation.parts import (
    OutputStrip,
    alignment_panel,
    input_problem,
    legend,
    misses_text,
    notices,
    score_report,
    shown,
    step_panels,
    step_summary,
)
from explorer.gui.labs.translation.training import TranslationTraining
from explorer.gui.lines_view import LinesView
from explorer.gui.messages import ERROR_STYLE, NOTICE_STYLE, error_message
from explorer.gui.views.base import View, ViewContext
from explorer.seq2seq import LabError, TranslationTrace

CHANNEL = "translation"
WIDE_PX = 960  # from this width the alignment and the pages sit side by side
SIDE_BY_SIDE_RATIO = 0.9  # and from this width per height, but for the training page
STEP_PAGE, TRAIN_PAGE = 0, 1
SCORE_LINES = 3  # the score and the notices beside the answer scroll beyond this
SCORE_LINES_PRESENTING = 2  # a projector's 768 px: the Labs row above the tab took a line
SCORE_LINES_FOLDED = 5  # beside the lesson the pickers fold into one line: the notices read whole
SCORE_SHRINK_MS = 700  # a score box with fewer lines shrinks once the typing pauses this long
__all__ = ["LESSON_PARTS", "TranslationView", "input_problem"]


def _column(*widgets: QtWidgets.QWidget) -> QtWidgets.QWidget:
    """Widgets one above the other, the last one taking the room left."""
    column = QtWidgets.QWidget()
    layout = QtWidgets.QVBoxLayout(column)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(4)
    for k, widget in enumerate(widgets):
        layout.addWidget(widget, 1 if k == len(widgets) - 1 else 0)
    return column


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
        self.stale_answer = False  # the answer on screen is for an earlier text (greyed out)
        self._stages_stale = False  # the stage panels wait for their page to be shown
        self._build()
        context.worker.listen(CHANNEL, self._on_result)
        unsubscribe = self.tstate.subscribe(self._on_translation_event, EVENTS)
        tstate = self.tstate
        self.destroyed.connect(lambda *_: (unsubscribe(), tstate.cancel_training()))
        app = QtWidgets.QApplication.instance()
        app.aboutToQuit.connect(self.stop_training)
        self.retranslate()
        self.restyle()
        self.controls.show_settings()
        self._show_view()

    # -- building ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        self.controls = TranslationControls(self.tstate)
        self.controls.foldChanged.connect(lambda: self._fit_score(now=True))
        layout.addWidget(self.controls)
        c = self.controls  # the tests and the lesson reach the pickers through the tab
        self.source_edit, self.examples, self.choices = c.source_edit, c.examples, c.choices
        self.model_box, self.scoring_box, self.attention_box = c.model_box, c.scoring_box, c.attention_box
        self.lines_button, self.kind_box, self.layer_box, self.head_box = (
            c.lines_button, c.kind_box, c.layer_box, c.head_box,
        )  # fmt: skip

        self.message = QtWidgets.QLabel()
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        layout.addWidget(self.message)

        # two columns (side by side, or one above the other on a tall tab): the answer, what
        # its marks mean and the alignment; the score with what to know, and the pages
        self.strip = OutputStrip()
        self.legend = QtWidgets.QLabel()  # what ✓ ✗ ∘ and the red characters mean
        self.legend.setWordWrap(True)
        self.legend.setSizePolicy(wrapping())
        self.score_label = QtWidgets.QLabel()
        self.score_label.setWordWrap(True)
        self.score_label.setSizePolicy(wrapping())
        self.score_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.score_scroll = QtWidgets.QScrollArea()  # a few lines high: the figures keep the room
        self.score_scroll.setWidget(self.score_label)
        self.score_scroll.setWidgetResizable(True)
        self.score_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.score_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.alignment = MatrixCanvas(style=self.context.style())
        self.lines = LinesView()
        self.stack = QtWidgets.QStackedWidget()
        self.stack.addWidget(self.alignment)
        self.stack.addWidget(self.lines)
        self.pages = QtWidgets.QTabWidget()
        self.step_page = StagePanels(self.state)
        self.stages, self.step_label = self.step_page.canvas, self.step_page.sentence
        self.training = TrainingPage(self.state, self.tstate, TranslationTraining())
        self.pages.addTab(self.step_page, "")
        self.pages.addTab(self.training, "")
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        self.splitter.addWidget(_column(self.strip, self.legend, self.stack))
        self.splitter.addWidget(_column(self.score_scroll, self.pages))
        self.splitter.setChildrenCollapsible(False)
        self._dragged = False  # the user moved the splitter: their sizes stay
        self._shrink = QtCore.QTimer(self, singleShot=True, interval=SCORE_SHRINK_MS)
        self._shrink.timeout.connect(lambda: self._fit_score(now=True))
        self.splitter.splitterMoved.connect(lambda *_: setattr(self, "_dragged", True))
        layout.addWidget(self.splitter, 1)

        self.strip.stepClicked.connect(self.select_step)
        self.alignment.clicked.connect(lambda _, r, c: self._select_alignment(r, c))
        self.alignment.hovered.connect(self._on_hover)
        self.lines.cellClicked.connect(self._select_alignment)
        self.stages.clicked.connect(self._on_stage_click)
        self.stages.hovered.connect(self._on_stage_hover)
        self.training.started.connect(lambda: self.pages.setCurrentIndex(TRAIN_PAGE))
        self.pages.currentChanged.connect(self._on_page)

    # -- the state -----------------------------------------------------------------------------------
    def _show_view(self) -> None:
        self.stack.setCurrentIndex(1 if self.tstate.settings.view == "lines" else 0)

    def _on_translation_event(self, event: str, tstate) -> None:
        if event in ("request", "stage", "view"):
            self.controls.show_settings()
            self._show_view()
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
            self._fold()
            self._show_lesson()

    def _fold(self) -> None:
        """In presentation mode beside the lesson the pickers fold into one line (a 768 px
        projector: their three rows took the figures' height)."""
        self.controls.set_foldable(self.state.presentation and self.state.lesson_visible)

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
            self._say(problem, error=True, stale=True)
            return
        watched = self._watched(req)
        if watched is not None:  # the training thread translated this very text at this snapshot
            self.context.worker.cancel(CHANNEL)
            self._wanted = None
            if self.tstate.training or pacing.pending(
                self, "trace"
            ):  # in a turn of its own, never painted with the curves
                pacing.later(self, lambda: self.show_trace(watched, req), "trace")
            else:
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
            self._say(text, error=True, stale=True)
            return
        if self.tstate.training or pacing.pending(self, "trace"):
            # in a turn of its own, as a snapshot's translation is: both drawn in one turn were
            # painted together (62 ms); the same name, so the newer of the two is the one drawn
            pacing.later(self, lambda: self._show_result(result.value, req), "trace")
        else:
            self._show_result(result.value, req)

    def _show_result(self, trace: TranslationTrace, req: TranslationRequest | None) -> None:
        self.show_trace(trace, req)
        if self.is_shown():
            self.request()  # something changed meanwhile

    # -- drawing -------------------------------------------------------------------------------------
    def show_trace(self, trace: TranslationTrace, req: TranslationRequest | None) -> None:
        """Put a translation on screen: the answer, the score, the alignment and the stages."""
        old = self.trace
        self.trace, self.trace_request = trace, req
        # the alignment on screen at once; the stage panels (a dozen for the Transformer) in the
        # next paint, so a keystroke's answer does not wait for them
        self.stages.setUpdatesEnabled(False)
        # a new answer is written out one character at a time (the first one appears whole)
        animate = old is not None and old.output != trace.output and self.isVisible()
        self.strip.set_output(trace, animate=animate)
        self._say("", error=False)
        self._show_score()
        self.alignment.show_panel(alignment_panel(trace), selection=self.cell())
        self._draw_lines()
        self.controls.cover(trace)
        self._draw_stages()
        self._show_selection()
        self._show_lesson()
        if not self.tstate.training:  # a keystroke's answer at once; a snapshot's with the rest
            self.alignment.repaint()
        self.stages.setUpdatesEnabled(True)
        self.rendered.emit()

    def _show_score(self, now: bool = False) -> None:
        """The alignment score, its misses (not in presentation mode: the tooltip has them)
        and what to know about this translation, beside the answer (``now``: see _fit_score)."""
        if self.trace is None:
            return
        head, misses = score_report(self.trace)
        said = [*self._weights_said(), *notices(self.trace, self.tstate.settings.source)]
        self.notice_text = "  •  ".join(said)
        shown_head = head
        if self.trace.alignment_score is None and said and self.state.presentation:
            # a projector's few lines: the notices say what the text is, the tooltip why no score
            shown_head = translate("Translation", "No alignment score.")
        parts = [f"<b>{html.escape(shown_head)}</b>"]
        if misses and not self.state.presentation:
            parts.append(html.escape(misses_text(misses)))
        if said:
            colour = theme.look(self.state).theme.accent
            notice = f"<span style='color:{colour}'>{html.escape(self.notice_text)}</span>"
            # no score: what the text is (not a date, two readings) matters more than why no
            # score, and the box shows its first lines only on a projector
            parts.insert(0 if self.trace.alignment_score is None else len(parts), notice)
        self.score_label.setText("<br>".join(parts))
        self.score_label.setToolTip(
            " ".join([head, misses_text(misses) if misses else "", self.notice_text]).strip()
        )
        self._fit_score(now)

    def _weights_said(self) -> list[str]:
        """A run's weights, not the shipped model's, are the answer's: say so first beside it
        (the lesson's words and a class take the answer for the shipped model's)."""
        req, run = self.trace_request, self.tstate.run
        if req is None or req.weights != "trained":
            return []
        steps = run.options.steps if run is not None and run.id == req.run else req.step
        return [
            translate(
                "Translation", "Weights: your run, step {step} of {steps} — not the shipped model."
            ).format(step=req.step, steps=steps)
        ]

    def _fit_score(self, now: bool = False) -> None:
        """As tall as the score and its notices, at most SCORE_LINES lines (then it scrolls).
        A new text that needs fewer lines shrinks the box only once the typing pauses
        (``now``: at once): a date typed one character at a time gains and loses a notice
        line, and each change of height resized the pages below it, the training curves
        redrawn twice a keystroke (30 ms of the GUI thread's 60)."""
        line = self.score_label.fontMetrics().lineSpacing()
        # measured without the floor set below (a label's height for a width is at least its
        # minimum: the box kept the lines of the longest text ever shown, blank, scrolling)
        self.score_label.setMinimumHeight(0)
        need = self.score_label.heightForWidth(max(50, self.score_scroll.viewport().width()))
        if self.controls.folded():
            lines = SCORE_LINES_FOLDED
        else:
            lines = SCORE_LINES_PRESENTING if self.state.presentation else SCORE_LINES
        height = max(line, min(need, lines * line)) + 2
        fixed = self.score_scroll.minimumHeight()  # 0 before the first answer
        if self.tstate.training:  # never shorter while a run trains: the pages below keep their size
            height = max(height, fixed)
        elif height < fixed and not now:
            self._shrink.start()  # (again): shorter when the typing pauses
            height = fixed
        if height != fixed:
            self.score_scroll.setFixedHeight(height)
        # a resizable scroll area sizes a wrapped label by its width-free hint, shorter than its
        # lines at this width: without a floor its last lines were cut instead of scrolled to
        self.score_label.setMinimumHeight(max(0, need))

    def _say(self, text: str, error: bool, stale: bool = False) -> None:
        """A line above the answer; ``stale``: the answer on screen is no longer the text's
        (it is greyed out, and the line says what it is for)."""
        self.stale_answer = stale and self.trace is not None
        if self.stale_answer:
            text += "  " + translate("Translation", "The answer below is still the one for “{text}”.").format(
                text=self.trace.source
            )
        self.message_text = text
        self.message.setText(text)
        style = ERROR_STYLE if error else NOTICE_STYLE
        if self.message.styleSheet() != style:  # a new style sheet re-polishes the label: not per keystroke
            self.message.setStyleSheet(style)
        self.message.setVisible(bool(text))
        for widget in (self.strip, self.score_label, self.alignment, self.lines, self.step_page):
            widget.setEnabled(not self.stale_answer)

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

    def _draw_stages(self) -> None:
        """The stage panels, when their page is shown (while training, the Train page is:
        the GUI thread then draws only what is on screen)."""
        at = self.attention()
        self._stages_stale = self.pages.currentIndex() != STEP_PAGE
        if at is None or self._stages_stale:
            return
        panels = step_panels(self.trace, at, self.head())
        self.step_page.show_panels(panels, selection=self.cell(), marks=self._marks())

    def _point_stages(self) -> None:
        """In presentation mode the stage page shows the lesson's panels (or the weights)."""
        part = lesson_part(self.state)
        self.step_page.point_at(part[1] if part is not None and part[0] == "step" else ())

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
        self._arrange()
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
    def _marks(self) -> dict[int, Mark]:
        part = lesson_part(self.state)
        if part is None or part[0] != "step":
            return {}
        accent = QtGui.QColor(theme.look(self.state).theme.accent)
        return {i: Mark(accent, 4) for i, p in enumerate(self.stages.panels) if p.name in part[1]}

    def _show_lesson(self) -> None:
        part = lesson_part(self.state)
        accent = QtGui.QColor(theme.look(self.state).theme.accent)
        self.alignment.set_marks({0: Mark(accent, 4)} if part and part[0] == "alignment" else {})
        self._point_stages()
        if part is None:
            self.step_page.set_marks({})
            return
        if part[0] == "step":
            self.pages.setCurrentIndex(STEP_PAGE)
        elif part[0] == "train":
            self.pages.setCurrentIndex(TRAIN_PAGE)
        self.step_page.set_marks(self._marks())

    # -- looks and words ---------------------------------------------------------------------------------------
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._arrange()
        self._fit_score(now=True)

    def _arrange(self) -> None:
        """The alignment and the pages side by side on a wide tab, and on one about as wide as
        tall (a projector beside the lesson: stacked, each would get a third of the height).
        There, in presentation mode, the training page shares the tab with the answer and the
        alignment alone: the pickers and the score make room for the curves, and come back
        with the other page."""
        wide = self.width() >= WIDE_PX
        beside = wide or self.width() >= SIDE_BY_SIDE_RATIO * self.height()
        focus = beside and not wide and self.state.presentation and self.pages.currentIndex() == TRAIN_PAGE
        for widget in (self.controls, self.score_scroll):
            widget.setVisible(not focus)
        orientation = QtCore.Qt.Orientation.Horizontal if beside else QtCore.Qt.Orientation.Vertical
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
            self._dragged = False
        if not self._dragged:
            QtCore.QTimer.singleShot(0, self, self._halve)

    def _halve(self) -> None:
        """Side by side, two fifths for the alignment (a few characters wide) and three for the
        pages (titles and sentences on fewer lines); one above the other, halves."""
        if self._dragged:
            return
        horizontal = self.splitter.orientation() == QtCore.Qt.Orientation.Horizontal
        along = self.splitter.width() if horizontal else self.splitter.height()
        first = along * 2 // 5 if horizontal else along // 2
        self.splitter.setSizes([first, along - first])

    def restyle(self) -> None:
        self._fold()  # presentation mode may have changed
        self._arrange()
        look = theme.look(self.state)
        t = look.theme
        self.alignment.set_style(self.context.style())
        self.step_page.restyle()
        px = look.widget_px or theme.platform_font_px()
        self.strip.set_style(px, t.plot_fg, t.plot_bg, t.accent)
        self.lines.set_style(max(px, look.figure_px), t.plot_fg, t.plot_bg)
        self.training.restyle()
        self._show_score(now=True)

    def retranslate(self) -> None:
        self.controls.retranslate()
        self.legend.setText(legend())
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
        if self.trace is not None:
            self.show_trace(self.trace, self.trace_request)
        else:
            self.step_label.setText(
                translate(
                    "Translation", "Click an output character, or a row of the alignment, to see its step."
                )
            )
            self.score_label.setText("")
