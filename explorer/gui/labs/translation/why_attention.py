"""The Why-attention page: an encoder–decoder that reads one fixed context C beside the same
encoder–decoder with attention, on the lesson's sentences, and their accuracy against sentence
length.

Top: the language and the sentence (the lesson's examples, or typed). Then both models'
translations: on the left the model without attention, drawn as what its decoder reads, one
column C, the same for every output word; on the right the attention model's alignment (output
words × source words), not a diagonal where the languages order words differently. Below, the
length experiment: per-word accuracy and exact match against source length for both models,
the shipped run at once, and a run trained here side by side (the lab's training page), the
curves updating at every evaluation and the maps following the run's snapshots.

Translations run on the worker (channel ``why_attention``, latest request wins); the settings
live in ``state.labs["why_attention"]`` (explorer/appstate/why_attention.py).
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.why_attention import EVENTS, EXAMPLES, LANGUAGES, MEASURES, Translations, WhyRequest
from explorer.gui import theme
from explorer.gui.classroom import lesson_keys
from explorer.gui.core_text import error_text, translated
from explorer.gui.heatmap import MatrixCanvas
from explorer.gui.heatmap.figure import Figure, Mark
from explorer.gui.heatmap.panel import MatrixPanel
from explorer.gui.i18n import translate
from explorer.gui.lab import pacing
from explorer.gui.lab.curves import CurvePlot, Curves, Series
from explorer.gui.lab.stages import wrapping
from explorer.gui.lab.training import TrainingContent, TrainingPage
from explorer.gui.messages import ERROR_STYLE, error_message
from explorer.gui.views.base import View, ViewContext
from explorer.lab import LabRun
from explorer.seq2seq.alignment import whole_percent
from explorer.seq2seq.length_curve import LONG, LengthCurve
from explorer.seq2seq.length_result import LengthResult, shipped_length_result, shipped_result_path
from explorer.seq2seq.sequence_lab import curve_from_metrics
from explorer.seq2seq.sequence_trace import SequenceTrace
from explorer.seq2seq.spec import LabError
from explorer.words import QT_TRANSLATE_NOOP

TAB = "why_attention"
CHANNEL = "why_attention"
ATTENTION_COLOUR, FIXED_COLOUR = "#0072B2", "#D55E00"  # the Okabe–Ito blue and vermilion
LONGEST_WORDS = 64.0
# What each lesson step of this page shows most of: the maps or the length curve.
LESSON_FOCUS = {"fixed_context": "maps", "reordering": "maps", "length_curve": "curve"}
MEASURE_NAMES = {
    "word_accuracy": QT_TRANSLATE_NOOP("WhyAttention", "per-word accuracy"),
    "exact_match": QT_TRANSLATE_NOOP("WhyAttention", "exact match"),
}
SENTENCE_PAGE, CURVE_PAGE = 0, 1
SUMMARY_LINES = 5  # the sentence's answers take at most this many lines; the rest scrolls
LANGUAGE_NAMES = {
    "fr": QT_TRANSLATE_NOOP("WhyAttention", "English → French"),
    "zh": QT_TRANSLATE_NOOP("WhyAttention", "English → Chinese"),
}


class WhyTraining(TrainingContent):
    """The training page's words and its one figure: accuracy against sentence length."""

    steps_range = (10, 5000)

    def intro(self, lab) -> str:
        return translate(
            "WhyAttention",
            # two lines at a projector beside the lesson: a third took the figure under 40 %
            "Shown: the shipped run (English → French, 1–10 clauses). Train from scratch: both "
            "models learn side by side.",
        )

    def measure(self, run: LabRun) -> str | None:
        metrics = run.metrics[-1] if run.metrics else None
        if not metrics:
            return None
        att, fixed = (metrics.get(f"{m}/long/word_accuracy") for m in ("attention", "no-attention"))
        if att is None or fixed is None:
            return None
        return translate(
            "WhyAttention", "at ≥ {long} words: {att:.0%} with attention, {fixed:.0%} without"
        ).format(long=LONG, att=att, fixed=fixed)

    def steps_tip(self) -> str:
        return translate(
            "WhyAttention",
            "How many optimiser steps (batches of 32 sentences, the same for both models) to train "
            "for; the model with one fixed C learns at twice the other's rate, or its short "
            "sentences lag within 500 steps",
        )

    def curves(self, lab, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        return []  # the length curve is the page's own figure, above the training controls


def shown_evaluation(lab, run: LabRun | None) -> int | None:
    """Which of the run's evaluations the figure shows: the newest at or before the snapshot
    shown (its newest while it follows the run); None for the shipped weights, and before the
    run's first evaluation (a run just started, the scrubber at step 0: the figure said step
    500 of 500 over the results of step 0, trial 9)."""
    if run is None or not run.metrics or lab.weights != "trained":
        return None
    step = lab.shown_step()
    if step is None:
        return len(run.eval_steps) - 1
    done = [i for i, evaluated in enumerate(run.eval_steps) if evaluated <= step]
    return done[-1] if done else None


def curve_key(lab, run: LabRun | None) -> tuple | None:
    """What the figure shows, as a key: None the shipped run; a run's evaluation; or a run's
    snapshot before its first evaluation."""
    if run is None or lab.weights != "trained":
        return None
    index = shown_evaluation(lab, run)
    return (run.id, index) if index is not None else (run.id, "before", lab.shown_step())


def stands_in(lab, run: LabRun | None) -> bool:
    """Whether the shipped curves stand in for a run not evaluated yet at the snapshot shown:
    drawn dashed under the run's title (the run is what the class watches)."""
    return run is not None and lab.weights == "trained" and shown_evaluation(lab, run) is None


def shown_curves(lab, run: LabRun | None) -> tuple[dict[str, LengthCurve], str]:
    """The curves on screen and their title: the run's evaluation (shown_evaluation), else the
    shipped run's (standing in for the run's, stands_in, or for themselves)."""
    index = shown_evaluation(lab, run)
    if run is not None and index is not None:
        metrics = run.metrics[index]
        found = {m: curve_from_metrics(metrics, m) for m in ("no-attention", "attention")}
        curves = {m: c for m, c in found.items() if c is not None}
        return curves, translate("WhyAttention", "trained here: step {step} of {total}").format(
            step=run.eval_steps[index], total=run.steps
        )
    shipped = shipped_run()
    if run is not None and stands_in(lab, run):
        title = translate(
            "WhyAttention",
            "trained here: step {step} of {total}, evaluated first at step {first} · dashed: the shipped run",
        ).format(
            step=lab.shown_step() or 0,
            total=run.steps,
            first=min(run.options.eval_every, run.steps),
        )
        return shipped.final, title
    return shipped.final, translate("WhyAttention", "shipped: {steps} steps, seed {seed}").format(
        steps=shipped.steps, seed=shipped.seed
    )


_shipped: list[tuple[tuple[int, int], LengthResult]] = []  # the file's (mtime, size) and its result


def shipped_run() -> LengthResult:
    """The shipped length experiment, read again only when its file changed: the figure's
    title asks for its parameter counts at every redraw, and parsing the JSON each time took
    the GUI thread 4–5 ms of the evaluation's tick. Read only (the page never changes it)."""
    try:
        info = shipped_result_path().stat()
    except OSError:
        return shipped_length_result()  # it says what is wrong with the file
    stamp = (info.st_mtime_ns, info.st_size)
    if not _shipped or _shipped[0][0] != stamp:
        _shipped[:] = [(stamp, shipped_length_result())]
    return _shipped[0][1]


def model_names() -> dict[str, str]:
    return {
        "attention": translate("WhyAttention", "with attention"),
        "no-attention": translate("WhyAttention", "one fixed C"),
    }


def length_figure(curves: dict[str, LengthCurve], title: str, measure: str, dashed: bool = False) -> Curves:
    """One curve per model: ``measure`` (a LengthCurve field) against source length. The
    legend names the models only: their parameter counts are said beside the measure's
    picker (in the legend they were cut on a projector). ``dashed``: thin dashed lines, the
    shipped run's beside a run not evaluated yet."""
    series = []
    colours = {"attention": ATTENTION_COLOUR, "no-attention": FIXED_COLOUR}
    for model, name in model_names().items():
        colour = colours[model]
        curve = curves.get(model)
        if curve is not None:
            ys = np.asarray(getattr(curve, measure), dtype=float)
            width = 1.5 if dashed else 3.0
            series.append(Series(name, np.asarray(curve.lengths), ys, colour, width, True, dashed=dashed))
    return Curves(
        title=title,
        x_label=translate("WhyAttention", "source sentence length (words)"),
        series=series,
        x_range=(0.0, LONGEST_WORDS),
        y_range=(0.0, 1.05),
    )


def map_panel(trace: SequenceTrace, title: str) -> MatrixPanel:
    """What each output word reads: the attention weights over the source words, or for the
    model without attention the one column C (alignment_columns)."""
    return MatrixPanel(
        trace.alignment,
        trace.output_tokens,
        trace.alignment_columns,
        title=title,
        kind="weights",
        levels=(0.0, 1.0),
        role="qk",
        name=trace.context_kind,
    )


def summary_lines(t: Translations) -> list[str]:
    """Each model's answer, right or wrong, and its size; the true translation (unless both
    are right) and the attention's alignment score, saying what it counts."""
    lines = []
    for trace, name in (
        (t.fixed, translate("WhyAttention", "one fixed C")),
        (t.attention, translate("WhyAttention", "with attention")),
    ):
        verdict = "" if trace.exact is None else ("  ✓" if trace.exact else "  ✗")
        lines.append(
            translate("WhyAttention", "{model}, {params:,} params: {output}").format(
                model=name, params=trace.parameters, output=trace.output
            )
            + verdict
        )
    a, last = t.attention, []
    both_right = t.fixed.exact and a.exact  # the ✓ say it: the true translation would be a third copy
    if a.expected is not None and not both_right:
        last.append(translate("WhyAttention", "true: {text}").format(text=a.expected))
    if a.alignment_score is not None:
        last.append(
            translate("WhyAttention", "alignment: {score:.0%} of the words look at their source word").format(
                score=whole_percent(a.alignment_score) / 100  # halves up, as counted
            )
        )
    if last:
        lines.append("  ·  ".join(last))
    return lines


def first_lines_height(label: QtWidgets.QLabel, width: int, lines: int) -> int:
    """The height of a rich-text label's first ``lines`` lines wrapped at ``width``, as Qt lays
    them out (the whole text when it has fewer)."""
    doc = QtGui.QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(label.font())
    doc.setHtml(label.text())
    doc.setTextWidth(max(width, 1))
    bottom, counted = 0.0, 0
    block = doc.begin()
    while block.isValid() and counted < lines:
        layout = block.layout()
        top = doc.documentLayout().blockBoundingRect(block).top()
        for k in range(min(layout.lineCount(), lines - counted)):
            line = layout.lineAt(k)
            bottom = top + line.y() + line.height()
            counted += 1
        block = block.next()
    return int(np.ceil(bottom))


class WhyAttentionView(View):
    TAB = TAB
    STATE_EVENTS = ("lesson",)

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        self.lab = context.state.labs[TAB]
        self.shown: Translations | None = None
        self._maps_of: Translations | None = None  # the translations the maps show
        self.shown_request: WhyRequest | None = None
        self._wanted: WhyRequest | None = None
        self.message_text = ""
        self._lesson_step: str | None = None  # the lesson step last arrived at on this page
        self._build()
        context.worker.listen(CHANNEL, self._on_result)
        unsubscribe = self.lab.subscribe(self._on_lab_event, EVENTS)
        lab = self.lab
        self.destroyed.connect(lambda *_: (unsubscribe(), lab.cancel_training()))
        QtWidgets.QApplication.instance().aboutToQuit.connect(lambda: lab.stop_training())
        self.retranslate()
        self.restyle()
        self._show_settings()

    # -- building ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        row = QtWidgets.QHBoxLayout()
        self.language_label, self.sentence_label = QtWidgets.QLabel(), QtWidgets.QLabel()
        self.language_box = QtWidgets.QComboBox()
        self.language_box.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToContents)
        for language in LANGUAGES:
            self.language_box.addItem("", language)
        self.sentence_box = QtWidgets.QComboBox()
        self.sentence_box.setEditable(True)
        self.sentence_box.setInsertPolicy(QtWidgets.QComboBox.InsertPolicy.NoInsert)
        self.sentence_box.addItems(EXAMPLES)
        # no inline completion: "J" would show an example's whole sentence while "J" is translated
        self.sentence_box.setCompleter(None)
        self.sentence_box.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.sentence_box.setMinimumContentsLength(12)  # it never widens the window (zoom, projector)
        # Enter hands the keys back to the lesson, → at the end steps it, as in the window's
        # sentence fields (trial 6 T9: the box kept every key; a teacher walking the lesson was stuck)
        lesson_keys(self.sentence_box)
        self.language_label.setBuddy(self.language_box)
        self.sentence_label.setBuddy(self.sentence_box)
        row.addWidget(self.language_label)
        row.addWidget(self.language_box)
        row.addStretch(1)
        layout.addLayout(row)
        sentence_row = QtWidgets.QHBoxLayout()  # a row of its own: the whole width for the sentence
        sentence_row.addWidget(self.sentence_label)
        sentence_row.addWidget(self.sentence_box, 1)
        layout.addLayout(sentence_row)

        self.message = QtWidgets.QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet(ERROR_STYLE)
        self.message.setVisible(False)
        layout.addWidget(self.message)
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        # At most SUMMARY_LINES lines high, the rest scrolled: wrapped whole at A+ beside the
        # lesson it asked more than a projector's 768 px had, and a window never shrinks back.
        self.summary_area = QtWidgets.QScrollArea()
        self.summary_area.setWidget(self.summary)
        self.summary_area.setWidgetResizable(True)
        self.summary_area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.summary_area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.summary_area.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Fixed
        )
        layout.addWidget(self.summary_area)

        maps = QtWidgets.QWidget()
        maps_layout = QtWidgets.QVBoxLayout(maps)
        maps_layout.setContentsMargins(0, 0, 0, 0)
        pair = QtWidgets.QHBoxLayout()
        self.fixed_map = MatrixCanvas(style=self.context.style())
        self.attention_map = MatrixCanvas(style=self.context.style())
        pair.addWidget(self.fixed_map, 2)
        pair.addWidget(self.attention_map, 5)
        maps_layout.addLayout(pair, 1)

        curve_page = QtWidgets.QWidget()
        curve_layout = QtWidgets.QVBoxLayout(curve_page)
        curve_layout.setContentsMargins(0, 0, 0, 0)
        measure_row = QtWidgets.QHBoxLayout()
        self.measure_label, self.measure_box = QtWidgets.QLabel(), QtWidgets.QComboBox()
        self.measure_box.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToContents)
        for measure in MEASURES:
            self.measure_box.addItem("", measure)
        self.measure_label.setBuddy(self.measure_box)
        measure_row.addWidget(self.measure_label)
        measure_row.addWidget(self.measure_box)
        # which run the curves are from, wrapped beside the picker: in the plot's one title
        # line beside the legend it was cut on a projector
        self.curve_title = QtWidgets.QLabel()
        self.curve_title.setWordWrap(True)
        self.curve_title.setSizePolicy(wrapping())
        measure_row.addWidget(self.curve_title, 1)
        curve_layout.addLayout(measure_row)
        self.curve = CurvePlot(self.context.style())
        curve_layout.addWidget(self.curve, 3)
        self.training = TrainingPage(self.state, self.lab, WhyTraining())
        self.training.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Maximum
        )
        self.training.status.setSizePolicy(wrapping())
        curve_layout.addWidget(self.training, 1)
        self._curve_key: tuple | None = None  # what the figure was drawn from

        self.pages = QtWidgets.QTabWidget()
        self.pages.addTab(maps, "")
        self.pages.addTab(curve_page, "")
        layout.addWidget(self.pages, 1)
        self.pages.currentChanged.connect(lambda _: self._arrange())

        self.measure_box.activated.connect(lambda i: self.lab.set_measure(self.measure_box.itemData(i)))
        self.language_box.activated.connect(lambda i: self.lab.set_language(self.language_box.itemData(i)))
        self.sentence_box.activated.connect(lambda i: self.lab.set_sentence(self.sentence_box.itemText(i)))
        self.sentence_box.lineEdit().textEdited.connect(self.lab.set_sentence)
        self.fixed_map.hovered.connect(lambda i, r, c: self._hover(self.fixed_map, i, r, c))
        self.attention_map.hovered.connect(lambda i, r, c: self._hover(self.attention_map, i, r, c))

    # -- the state -----------------------------------------------------------------------------------
    def _show_settings(self) -> None:
        s = self.lab.settings
        index = self.language_box.findData(s.language)
        if self.language_box.currentIndex() != index:
            self.language_box.setCurrentIndex(index)
        if self.sentence_box.currentText() != s.sentence:
            self.sentence_box.lineEdit().setText(s.sentence)
        index = self.measure_box.findData(s.measure)
        if self.measure_box.currentIndex() != index:
            self.measure_box.setCurrentIndex(index)

    def _on_lab_event(self, event: str, _lab) -> None:
        if event == "request":
            self._show_settings()
        if event == "weights" and self.lab.training and self.is_shown():
            # A run's new snapshot comes with its evaluation, whose figure is drawn first, in
            # turns of its own (draw_curve): translating at once, the worker's Python would
            # hold the interpreter lock that the figure's draw and paint keep taking back.
            pacing.later(self, self._request_if_shown, "request")
        elif event in ("request", "weights") and self.is_shown():
            self.request()
        if event == "measure":
            self._show_settings()
        if event in ("measure", "weights", "training"):
            self.draw_curve()
        if event == "training":
            self._fit_training()  # its status may have taken another line

    def _arrange(self) -> None:
        """On a projector the length curve takes the sentence's rows too (they are the other
        page's: the curve is the same whatever the sentence)."""
        if self.pages.currentIndex() == CURVE_PAGE:
            self.draw_curve()
        else:
            self._draw_maps()
        curve = self.state.presentation and self.pages.currentIndex() == CURVE_PAGE
        for widget in (self.sentence_label, self.sentence_box, self.summary_area):
            widget.setVisible(not curve)
        # Only the page on screen asks for room: a stack's hidden page still adds its minimum
        # (the curve page's wrapped training status at A+ pushed a projector's window past 768).
        shown, hidden = QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Ignored
        for i in range(self.pages.count()):
            policy = shown if i == self.pages.currentIndex() else hidden
            page = self.pages.widget(i)
            if page.sizePolicy().verticalPolicy() != policy:
                page.setSizePolicy(policy, policy)

    def _fit_summary(self) -> None:
        """The summary's height: its wrapped text at the width it has, at most SUMMARY_LINES
        lines (the whole text in its tooltip when it scrolls). The lines are measured as laid
        out: a line of Chinese or of "→" is taller than the font's line spacing, and five
        lines capped at five line spacings cut the fifth (trial 9, 1024×768 in Chinese)."""
        area, label = self.summary_area, self.summary
        width = area.width() - 2 * area.frameWidth()
        need = label.heightForWidth(width) if label.text() and width > 0 else 0
        margins = label.contentsMargins().top() + label.contentsMargins().bottom()
        cap = first_lines_height(label, width, SUMMARY_LINES) + margins if need > 0 else 0
        height = min(max(need, 0), max(cap, 0))
        if area.height() != height or area.minimumHeight() != height:
            area.setFixedHeight(height)
        cut = need > cap
        area.setVerticalScrollBarPolicy(
            QtCore.Qt.ScrollBarPolicy.ScrollBarAsNeeded
            if cut
            else QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        )
        tip = QtGui.QTextDocumentFragment.fromHtml(label.text()).toPlainText() if cut else ""
        if label.toolTip() != tip:
            label.setToolTip(tip)

    def _fit_training(self, shrink: bool = False) -> None:
        """The training controls whole under the curve: on a projector their status wraps to
        more lines than the page's share, and its own scroll area hid the last of them. The
        status changes ten times a second while a run trains: a line it takes stays taken
        until the font or the width changes (``shrink``), so the curve above is not resized
        (its axes laid out anew) back and forth, nor when the run ends."""
        area = self.training.findChild(QtWidgets.QScrollArea)
        if area is None or area.widget() is None:
            return
        need = area.widget().heightForWidth(area.width()) + 2 * area.frameWidth()
        if not shrink:
            need = max(need, self.training.minimumHeight())
        if need > 0 and need != self.training.minimumHeight():
            self.training.setMinimumHeight(need)

    def _curve_wanted(self) -> tuple | None:
        """What the figure should be drawn from, when that is not what it shows; None when the
        figure is up to date or its page is not on screen (drawn when it comes: _arrange,
        activated)."""
        key = (self.lab.settings.measure, curve_key(self.lab, self.lab.run))
        if key == self._curve_key:
            return None
        if self.pages.currentIndex() != CURVE_PAGE or not self.is_shown():
            return None
        return key

    def draw_curve(self) -> None:
        """The length figure, redrawn only when what it shows changed: the run reports ten
        times a second, its curves change at evaluations, and until its first one (a run just
        started) the figure shows the shipped run's, dashed (stands_in). While a run trains the redraw takes a
        turn of the event loop of its own (explorer.gui.lab.pacing), apart from the run's
        report that brought it (the training page's status, its progress): in the same turn
        the two, and the figure's paint after them, blocked the window for their sum."""
        if self._curve_wanted() is None:
            return
        if self.lab.training:
            pacing.later(self, self._draw_curve, "curve")
        else:
            self._draw_curve()

    def _draw_curve(self) -> None:
        key = self._curve_wanted()
        if key is None:
            return
        self._curve_key = key
        run = self.lab.run
        curves, title = shown_curves(self.lab, run)
        # a run in the window trains the shipped run's two architectures: the same counts
        parameters = shipped_run().parameters
        counts = [
            translate("WhyAttention", "{model} ({params:,} parameters)").format(
                model=name, params=parameters[m]
            )
            for m, name in model_names().items()
        ]
        self.curve_title.setText(title + "  ·  " + ", ".join(counts))
        self.curve.set_curves(length_figure(curves, "", self.lab.settings.measure, stands_in(self.lab, run)))

    def on_state(self, event: str) -> None:
        if event == "lesson":
            self._show_lesson()

    # -- computing -----------------------------------------------------------------------------------
    def draw(self, prepared):
        """The window's trace is not this page's: it asks for its own when shown."""
        self.prepared, self.stale = prepared, False
        return iter(())

    def activated(self) -> None:
        self.draw_curve()
        self.request()
        self._show_lesson()

    def cancelled(self) -> None:
        self.context.worker.cancel(CHANNEL)
        self._wanted = None

    def _request_if_shown(self) -> None:
        if self.is_shown():
            self.request()

    def request(self) -> None:
        if pacing.pending(self, "curve"):  # the figure first (see _on_lab_event), then this
            pacing.later(self, self._request_if_shown, "request")
            return
        req = self.lab.request()
        if req == self.shown_request:
            self._wanted = None
            self._say("")
            return
        if req == self._wanted:
            return
        self._wanted = req
        self.context.worker.submit(CHANNEL, req.compute)

    def _on_result(self, result) -> None:
        req, self._wanted = self._wanted, None
        if not result.ok:
            exc = result.error
            text = (
                translate("WhyAttention", "Cannot translate this: {0}").format(error_text(exc))
                if isinstance(exc, LabError)
                else error_message(exc)
            )
            self._say(text)
            self._clear()  # the old sentence's maps must not pass for this one's
            return
        self.show_translations(result.value, req)
        if self.is_shown():
            self.request()  # something changed meanwhile

    # -- drawing -------------------------------------------------------------------------------------
    def show_translations(self, t: Translations, req: WhyRequest | None) -> None:
        self.shown, self.shown_request = t, req
        self._maps_of = None
        self._say("")
        self._draw_maps()
        self._show_summary()
        self._show_lesson()
        self.rendered.emit()

    def _draw_maps(self) -> None:
        """Both maps of the translations shown, drawn while their page is on screen only (a run
        sends new weights every evaluation; the curve page would pay for maps it hides)."""
        t = self.shown
        if t is None or self._maps_of is t or self.pages.currentIndex() != SENTENCE_PAGE:
            return
        self._maps_of = t
        self.fixed_map.show_panel(map_panel(t.fixed, translate("WhyAttention", "one fixed C")))
        self.attention_map.show_panel(
            map_panel(t.attention, translate("WhyAttention", "with attention: αᵢⱼ"))
        )

    def _clear(self) -> None:
        self.shown, self.shown_request, self._maps_of = None, None, None
        self.fixed_map.set_figure(Figure())
        self.attention_map.set_figure(Figure())
        self._show_summary()

    def _show_summary(self) -> None:
        if self.shown is None:
            self.summary.setText("")
            self._fit_summary()
            return
        lines = [html.escape(line) for line in summary_lines(self.shown)]
        notices = [translated(n) for n in self.shown.attention.notices]
        if notices:
            colour = theme.look(self.state).theme.accent
            lines.append(f"<span style='color:{colour}'>{html.escape('  •  '.join(notices))}</span>")
        self.summary.setText("<br>".join(lines))
        self._fit_summary()

    def _say(self, text: str) -> None:
        self.message_text = text
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def _hover(self, canvas: MatrixCanvas, index: int, r: int, c: int) -> None:
        if index >= 0:
            canvas.setToolTip(canvas.panels[index].cell_text(r, c))

    # -- the lesson ------------------------------------------------------------------------------------
    def lesson_focus(self) -> str | None:
        """What the lesson step on screen is about on this page: the maps, the curve, or None."""
        if not self.state.lesson_visible:
            return None
        step = STEPS[self.state.lesson_step]
        return LESSON_FOCUS.get(step.stage) if step.tab == TAB else None

    def _show_lesson(self) -> None:
        focus = self.lesson_focus()
        step = STEPS[self.state.lesson_step].id if focus is not None else None
        if step != self._lesson_step:
            self._lesson_step = step
            if step is not None:  # arriving at a step: its page; the person may leave it after
                self.lab.show_lesson_step(STEPS[self.state.lesson_step].stage)
                self.pages.setCurrentIndex(CURVE_PAGE if focus == "curve" else SENTENCE_PAGE)
        accent = QtGui.QColor(theme.look(self.state).theme.accent)
        mark = {0: Mark(accent, 4)}
        self.fixed_map.set_marks(mark if focus == "maps" else {})
        self.attention_map.set_marks(mark if focus == "maps" else {})

    # -- looks and words ---------------------------------------------------------------------------------
    def restyle(self) -> None:
        self.fixed_map.set_style(self.context.style())
        self.attention_map.set_style(self.context.style())
        self.training.restyle()
        self.curve.set_style(self.context.style())
        self._show_summary()
        self._fit_combos()
        self._arrange()
        self._fit_training(shrink=True)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._fit_combos()  # the window's font (presentation, zoom) is known once shown
        self._fit_training(shrink=True)
        self._fit_summary()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_training(shrink=True)
        self._fit_summary()

    def _fit_combos(self) -> None:
        """Room for the longest item and the arrow, in this font (a projector's, a language's)."""
        for box in (self.language_box, self.measure_box):
            longest = max(box.fontMetrics().horizontalAdvance(box.itemText(i)) for i in range(box.count()))
            box.setMinimumWidth(longest + box.fontMetrics().height() + 32)

    def retranslate(self) -> None:
        self.language_label.setText(translate("WhyAttention", "Language"))
        self.sentence_label.setText(translate("WhyAttention", "Sentence"))
        self.measure_label.setText(translate("WhyAttention", "Plot"))
        for i, measure in enumerate(MEASURES):
            self.measure_box.setItemText(i, translate("WhyAttention", MEASURE_NAMES[measure]))
        self.measure_box.setToolTip(
            translate(
                "WhyAttention",
                "Per-word accuracy: the share of words right at their place; exact match: whole sentences right",
            )
        )
        self.pages.setTabText(SENTENCE_PAGE, translate("WhyAttention", "The sentence"))
        self.pages.setTabText(CURVE_PAGE, translate("WhyAttention", "Accuracy against length"))
        self._curve_key = None
        self.draw_curve()
        for i, language in enumerate(LANGUAGES):
            self.language_box.setItemText(i, translate("WhyAttention", LANGUAGE_NAMES[language]))
        self.language_box.setToolTip(translate("WhyAttention", "The language both models translate into"))
        self._fit_combos()
        self.sentence_box.setToolTip(
            translate(
                "WhyAttention", "One of the lesson's sentences, or type your own from the grammar's words"
            )
        )
        if self.shown is not None:
            self.show_translations(self.shown, self.shown_request)
