"""The Global vs local tab: the same text through global attention (every source word) and
through a local model's window (Luong et al. 2015), side by side, on one of two tasks:
copy-twice (each letter written twice, so the true alignment is a staircase of slope ½) or
reorder-zh (the lesson's sentences into Chinese: the time moves before the verb and the
output is shorter, where a window at p_t = t goes wrong).

Top: the task, the text (typed, or one of the task's examples), the local model (local-m: p_t = t; local-p: p_t
predicted; ours: p_t stepping forward) and the window's D, which reads the trained weights
through another window. Then two pages: the alignments (explorer.gui.labs.translation
.window_canvas: the window framed on every row, p_t marked, the selected step's Gaussian under
it) with what went right or wrong in words, and training both models from scratch (the lab's
training page; global and local side by side on the same batches).

Every comparison runs on the worker (channel ``local``, latest request wins); the settings live
in ``ExplorerState.labs["local"]`` (explorer/appstate/local_window.py). This view draws them
and edits them.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.local_window import (
    EVENTS,
    EXAMPLES,
    MAX_TEXT,
    TASKS,
    WINDOW_RANGE,
    LocalRequest,
    LocalWindowState,
    window_text_problem,
)
from explorer.gui import theme
from explorer.gui.core_text import error_text, translated
from explorer.gui.elided import ElidedCombo
from explorer.gui.flow import FlowLayout, together
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import Curves, Series
from explorer.gui.lab.shipped import history_of, shipped_loss, shipped_metric
from explorer.gui.lab.training import TrainingContent, TrainingPage
from explorer.gui.labs.translation.window_canvas import WindowCanvas
from explorer.gui.messages import ERROR_STYLE, NOTICE_STYLE, error_message
from explorer.gui.views.base import View
from explorer.lab import LabRun
from explorer.seq2seq.checkpoints import WEIGHTS_FILE
from explorer.seq2seq.local_attention import LOCAL_MODELS
from explorer.seq2seq.local_lab import ComparedWindows
from explorer.seq2seq.sequence_checkpoints import shipped_sequence_folder
from explorer.seq2seq.spec import LabError
from explorer.words import QT_TRANSLATE_NOOP

TAB = "local"
CHANNEL = "local"
WINDOWS_PAGE, TRAIN_PAGE = 0, 1
TASK_NAMES = {
    "copy-twice": QT_TRANSLATE_NOOP("LocalWindow", "each letter twice (monotonic)"),
    "reorder-zh": QT_TRANSLATE_NOOP("LocalWindow", "English → Chinese (words move)"),
}
SOURCE_LABELS = {
    "copy-twice": QT_TRANSLATE_NOOP("LocalWindow", "Letters:"),
    "reorder-zh": QT_TRANSLATE_NOOP("LocalWindow", "English:"),
}
SOURCE_TIPS = {
    "copy-twice": QT_TRANSLATE_NOOP(
        "LocalWindow", "Letters a to t, separated by spaces: each is written twice"
    ),
    "reorder-zh": QT_TRANSLATE_NOOP(
        "LocalWindow",
        "1–3 clauses of the lesson's sentences joined by “and”, e.g. Jane visits Africa in September: "
        "in Chinese the time comes before the verb",
    ),
}
EMPTY_TEXTS = {
    "copy-twice": QT_TRANSLATE_NOOP("LocalWindow", "Type a few letters, a to t, separated by spaces."),
    "reorder-zh": QT_TRANSLATE_NOOP("LocalWindow", "Type an English sentence, or choose an example."),
}
LOCAL_NAMES = {
    "local-m": QT_TRANSLATE_NOOP("LocalWindow", "local-m: p_t = t"),
    "local-p": QT_TRANSLATE_NOOP("LocalWindow", "local-p: p_t = S·sigmoid(v_pᵀ tanh(W_p h_t))"),
    "local-p-ours": QT_TRANSLATE_NOOP("LocalWindow", "ours (not Luong's): p_t = p_{t−1} + softplus(…)"),
}
SHORT_NAMES = {  # in sentences: "local-m wrote …"
    "local-m": "local-m",
    "local-p": "local-p",
    "local-p-ours": QT_TRANSLATE_NOOP("LocalWindow", "ours (not Luong's)"),
}
TRAINING_INTROS = {
    "copy-twice": QT_TRANSLATE_NOOP(
        "LocalWindow",
        "Train global attention and {model} from random weights on the same batches: watch the "
        "window find the staircase.",
    ),
    "reorder-zh": QT_TRANSLATE_NOOP(
        "LocalWindow",
        "Train global attention and {model} from random weights on the same batches of sentences: "
        "watch whether the window reaches the words that move.",
    ),
}
# What each lesson step of the track (explorer/appstate/lesson_local.py) sets up: the local
# model, the D it reads with, the page (its task and text: explorer.appstate.local_window
# LESSON_TEXTS).
LESSON_SETUPS = {
    "local.reorder": ("local-m", 3, WINDOWS_PAGE),
    "local.global": ("local-p-ours", 3, WINDOWS_PAGE),
    "local.monotonic": ("local-m", 3, WINDOWS_PAGE),
    "local.predictive": ("local-p", 3, WINDOWS_PAGE),
    "local.width": ("local-p-ours", 1, WINDOWS_PAGE),
    "local.train": ("local-p-ours", 3, TRAIN_PAGE),
}
LOSS_COLOUR, SHARE_COLOUR = "#0072B2", "#D55E00"


class LocalTraining(TrainingContent):
    """Both models' mean loss, and how often the local window sits on the truth, per evaluation."""

    steps_range = (10, 5000)

    def intro(self, lab: LocalWindowState) -> str:
        return translate("LocalWindow", TRAINING_INTROS[lab.settings.task]).format(
            model=translate("LocalWindow", LOCAL_NAMES[lab.settings.local])
        )

    def measure(self, run: LabRun) -> str | None:
        value = run.last("window_share")
        if value is None:
            return None
        return translate("LocalWindow", "p_t within 1 of the truth on {pct:.1f} % of steps").format(
            pct=100 * value
        )

    def curves(self, lab: LocalWindowState, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        step = translate("LocalWindow", "step")
        steps = float(run.steps if run is not None else lab.settings.train_steps)
        losses = run.losses if run is not None else []
        evals = run.eval_steps if run is not None else []
        share = run.series("window_share") if run is not None else []
        # one series a plot: its name is the title, which wraps in a narrow plot (a legend
        # entry never breaks, and would keep two plots side by side wider than the page)
        loss = translate("LocalWindow", "mean loss of the two")
        within = translate("LocalWindow", "p_t within 1 of the truth")
        # the shipped pair's run (global and this local model on the same batches), dashed
        shipped = history_of(shipped_sequence_folder(lab.settings.task, lab.settings.local) / WEIGHTS_FILE)
        return [
            Curves(
                title=loss,
                series=[Series(loss, np.arange(1, len(losses) + 1), np.asarray(losses), LOSS_COLOUR,
                               in_legend=False), *shipped_loss(shipped)],
                x_label=step, x_range=(0.0, steps), marker=shown_step,
            ),
            Curves(
                title=within,
                series=[Series(within, np.asarray(evals), np.asarray(share), SHARE_COLOUR, dots=True,
                               in_legend=False),
                        *shipped_metric(shipped, "window_share", SHARE_COLOUR, within)],
                x_label=step, x_range=(0.0, steps), y_range=(0.0, 1.0), goal=lab.GOAL.at_least,
                marker=shown_step,
            ),
        ]  # fmt: skip


class LocalWindowView(View):
    TAB = TAB
    STATE_EVENTS = ("lesson",)

    def __init__(self, context, parent=None):
        super().__init__(context, parent)
        self.lstate: LocalWindowState = context.state.labs["local"]
        self.compared: ComparedWindows | None = None
        self.compared_request: LocalRequest | None = None
        self.stale_result = False  # the maps shown are an earlier text's (the typed one fails)
        self._wanted: LocalRequest | None = None
        self.message_text = ""
        self.window_problem = ""  # the line about an emptied D field, while it is shown
        self._before_problem = ("", "")  # the line it stands in front of
        self._build()
        context.worker.listen(CHANNEL, self._on_result)
        unsubscribe = self.lstate.subscribe(self._on_event, EVENTS)
        lstate = self.lstate
        self.destroyed.connect(lambda *_: (unsubscribe(), lstate.cancel_training()))
        QtWidgets.QApplication.instance().aboutToQuit.connect(self.lstate.stop_training)
        self.retranslate()
        self.restyle()
        self._show_settings()

    # -- building ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        row = FlowLayout()
        self.task_label, self.task_box = QtWidgets.QLabel(), ElidedCombo()
        for name in TASKS:
            self.task_box.addItem("", name)
        self.task_label.setBuddy(self.task_box)
        self.source_label, self.source_edit = QtWidgets.QLabel(), QtWidgets.QLineEdit()
        self.source_edit.setMaxLength(MAX_TEXT)
        self.source_label.setBuddy(self.source_edit)
        self.examples = QtWidgets.QComboBox()
        self.examples.addItem("", None)
        self.examples_task = ""  # whose examples the box lists
        self.model_label, self.model_box = QtWidgets.QLabel(), ElidedCombo()
        for name in LOCAL_MODELS:
            self.model_box.addItem("", name)
        self.model_label.setBuddy(self.model_box)
        self.window_label = QtWidgets.QLabel()
        self.window_slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.window_slider.setRange(WINDOW_RANGE[0], 12)
        self.window_slider.setPageStep(1)
        self.window_slider.setMinimumWidth(120)
        self.window_label.setBuddy(self.window_slider)
        for w in (self.task_label, self.task_box, self.source_label, self.source_edit, self.examples, self.model_label, self.model_box,
                  self.window_label, self.window_slider):  # fmt: skip
            row.add(w, stretch=w is self.source_edit)
        self.pickers = QtWidgets.QWidget()  # the task, the text, the model and D shown
        self.pickers.setLayout(row)
        layout.addWidget(self.pickers)
        self.message = QtWidgets.QLabel()
        self.message.setWordWrap(True)
        self.message.setVisible(False)
        layout.addWidget(self.message)

        self.global_canvas, self.local_canvas = WindowCanvas(), WindowCanvas()
        canvases = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        canvases.addWidget(self.global_canvas)
        canvases.addWidget(self.local_canvas)
        canvases.setChildrenCollapsible(False)
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        windows = QtWidgets.QWidget()
        inside = QtWidgets.QVBoxLayout(windows)
        inside.setContentsMargins(0, 0, 0, 0)
        inside.addWidget(canvases, 1)
        inside.addWidget(self.summary)
        self.train_window = QtWidgets.QSpinBox()
        self.train_window.setRange(*WINDOW_RANGE)
        self.train_window_label = QtWidgets.QLabel()
        self.train_window_label.setBuddy(self.train_window)
        # the run's D in the plan's row: the curves get the page's width, side by side
        self.training = TrainingPage(
            self.state,
            self.lstate,
            LocalTraining(),
            controls=(together(self.train_window_label, self.train_window),),
        )
        self.pages = QtWidgets.QTabWidget()
        self.pages.addTab(windows, "")
        self.pages.addTab(self.training, "")
        layout.addWidget(self.pages, 1)

        self.task_box.activated.connect(lambda i: self.lstate.set_task(self.task_box.itemData(i)))
        self.source_edit.textEdited.connect(self.lstate.set_source)
        self.examples.activated.connect(self._on_example)
        self.model_box.activated.connect(lambda i: self.lstate.set_local(self.model_box.itemData(i)))
        self.window_slider.valueChanged.connect(self.lstate.set_window)
        self.train_window.valueChanged.connect(self.lstate.set_train_window)
        self.train_window.lineEdit().textChanged.connect(self._on_train_window_text)
        for canvas in (self.global_canvas, self.local_canvas):
            canvas.stepClicked.connect(self.lstate.select)
        self.training.started.connect(lambda: self.pages.setCurrentIndex(TRAIN_PAGE))
        self.pages.currentChanged.connect(lambda _: self.is_shown() and self.request())
        self.pages.currentChanged.connect(lambda _: self._focus_training())

    def _on_example(self, index: int) -> None:
        text = self.examples.itemData(index)
        if text:
            self.lstate.set_source(text)

    def _on_train_window_text(self, text: str) -> None:
        """An emptied D field says what D must be, and which D a run takes meanwhile; once the
        field holds a D again (or gives it back on leaving it) the line shown before comes back."""
        problem = window_text_problem(text, self.lstate.settings.train_window)
        if problem is not None:
            if not self.window_problem:
                self._before_problem = (self.message_text, self.message.styleSheet())
            self.window_problem = translated(problem)
            self.message.setText(self.window_problem)
            self.message.setStyleSheet(ERROR_STYLE)
            self.message.setVisible(True)
        elif self.window_problem:
            self.window_problem = ""
            text, style = self._before_problem
            self.message.setText(text)
            self.message.setStyleSheet(style)
            self.message.setVisible(bool(text))

    # -- the state -----------------------------------------------------------------------------------
    def _show_settings(self) -> None:
        s = self.lstate.settings
        if self.source_edit.text() != s.source:
            self.source_edit.setText(s.source)
        if self.examples_task != s.task:
            self._list_examples(s.task)
        for box, value in ((self.task_box, s.task), (self.model_box, s.local)):
            index = box.findData(value)
            if index != box.currentIndex():
                box.setCurrentIndex(index)
        for widget, value in ((self.window_slider, s.window), (self.train_window, s.train_window)):
            if widget.value() != value:
                widget.blockSignals(True)
                widget.setValue(value)
                widget.blockSignals(False)
        self._show_window_label()

    def _list_examples(self, task: str) -> None:
        self.examples_task = task
        while self.examples.count() > 1:
            self.examples.removeItem(1)
        for text in EXAMPLES[task]:
            self.examples.addItem(text, text)
        self.source_label.setText(translate("LocalWindow", SOURCE_LABELS[task]))
        self.source_edit.setToolTip(translate("LocalWindow", SOURCE_TIPS[task]))

    def _show_window_label(self) -> None:
        trained = self.compared.local.trained_half_width if self.compared is not None else None
        text = translate("LocalWindow", "Window D = {d}").format(d=self.lstate.settings.window)
        if trained:
            text += " " + translate("LocalWindow", "(trained with {d})").format(d=trained)
        self.window_label.setText(text)

    def _on_event(self, event: str, lstate) -> None:
        if event in ("request", "training"):
            self._show_settings()
        if event in ("request", "weights") and self.is_shown():
            self.request()
        elif event == "selection":
            self._show_selection()

    def on_state(self, event: str) -> None:
        if event == "lesson":
            self._show_lesson()

    # -- computing -----------------------------------------------------------------------------------
    def draw(self, prepared):
        self.prepared, self.stale = prepared, False
        return iter(())

    def activated(self) -> None:
        self._show_lesson()
        self.request()

    def cancelled(self) -> None:
        self.context.worker.cancel(CHANNEL)
        self._wanted = None

    def request(self) -> None:
        """Compare what the state asks for; only while the alignments' page is shown (the
        training page shows none: its new snapshots are compared when the page comes back)."""
        if self.pages.currentIndex() != WINDOWS_PAGE:
            QtCore.QTimer.singleShot(0, self.rendered.emit)  # what the page shows is drawn
            return
        req = self.lstate.request()
        if req == self.compared_request and self.stale_result:  # typed back to the maps' text
            self.context.worker.cancel(CHANNEL)
            self._wanted = None
            self.show_compared(self.compared, req)
            return
        if req == self.compared_request or req == self._wanted:
            return
        if not req.source.strip():
            self.context.worker.cancel(CHANNEL)
            self._wanted = None
            self._say(translate("LocalWindow", EMPTY_TEXTS[req.pair.task]), error=True, stale=True)
            return
        self._wanted = req
        previous = None
        if self.compared is not None and self.compared_request is not None:
            previous = (self.compared_request, self.compared)
        self.context.worker.submit(CHANNEL, partial(req.compute, previous), cancellable=True)

    def _on_result(self, result) -> None:
        if result.ok and result.value is None:  # replaced before it finished: the newer one comes
            return
        req, self._wanted = self._wanted, None
        if not result.ok:
            exc = result.error
            text = (
                translate("LocalWindow", "Cannot compare this: {0}").format(error_text(exc))
                if isinstance(exc, LabError)
                else error_message(exc)
            )
            self._say(text, error=True, stale=True)
            return
        self.show_compared(result.value, req)
        if self.is_shown():
            self.request()  # something changed meanwhile

    # -- drawing -------------------------------------------------------------------------------------
    def show_compared(self, compared: ComparedWindows, req: LocalRequest | None) -> None:
        self.compared, self.compared_request = compared, req
        self._say("", error=False)
        step = req.step if req is not None and req.weights == "trained" else None
        where = (
            translate("LocalWindow", "shipped weights")
            if step is None
            else translate("LocalWindow", "training step {n}").format(n=step)
        )
        self.global_canvas.set_trace(
            compared.global_,
            translate("LocalWindow", "global: every source word ({where})").format(where=where),
        )
        self.local_canvas.set_trace(
            compared.local,
            translate("LocalWindow", "{model}, D = {d}").format(
                model=translate("LocalWindow", LOCAL_NAMES[compared.local.model]), d=compared.local.half_width
            ),
        )
        self._show_window_label()
        self._show_selection()
        self._show_summary()
        self.rendered.emit()

    def _show_selection(self) -> None:
        step = self.lstate.settings.step
        for canvas in (self.global_canvas, self.local_canvas):
            canvas.set_selected(step)

    def _show_summary(self) -> None:
        c = self.compared
        if c is None:
            self.summary.setText("")
            return
        lines = []
        global_name = translate("LocalWindow", "global attention")
        local_name = translate("LocalWindow", SHORT_NAMES[c.local.model])
        for name, trace in ((global_name, c.global_), (local_name, c.local)):
            right = trace.exact
            verdict = (
                "" if right is None
                else translate("LocalWindow", "right") if right
                else translate("LocalWindow", "wrong (true: {t})").format(t=trace.expected)
            )  # fmt: skip
            lines.append(
                translate("LocalWindow", "{model} wrote “{out}” {verdict}").format(
                    model=name, out=trace.output, verdict=verdict
                )
            )
        counted = c.local.centre_count()  # every step written: one past the truth's end is not within
        if counted is not None:
            k, n = counted
            past = c.local.steps_past_truth()
            lines.append(
                translate("LocalWindow", "p_t within 1 of the true word on {k} of {n} steps").format(k=k, n=n)
                if not past
                else translate(
                    "LocalWindow",
                    "p_t within 1 of the true word on {k} of {n} steps ({past} written past the true "
                    "translation's end: not within)",
                ).format(k=k, n=n, past=past)
            )
        lines += [translated(n) for n in c.local.notices]
        legend = translate(
            "LocalWindow",
            "◆ p_t   • the true word   frame: the window [p_t − D, p_t + D]   under it, for the selected "
            "step: pale bars the softmax inside the window, the curve the Gaussian, dark bars a_t(s)",
        )
        for canvas in (self.global_canvas, self.local_canvas):
            canvas.legend = legend
        if not self.state.presentation:  # on a projector the legend is the canvases' tooltip
            lines.append(legend)
        self.summary.setText("\n".join(lines))

    def _say(self, text: str, error: bool, stale: bool = False) -> None:
        """A line above the maps; ``stale``: the maps on screen are no longer the text's (they are
        greyed out, and the line says whose they are), as the Translation tab does (trial 9)."""
        self.stale_result = stale and self.compared_request is not None
        if self.stale_result:
            text += "  " + translate("LocalWindow", "The maps below are still those for “{text}”.").format(
                text=self.compared_request.source
            )
        self.message_text = text
        self.window_problem = ""  # a newer line replaces it
        self.message.setText(text)
        self.message.setStyleSheet(ERROR_STYLE if error else NOTICE_STYLE)
        self.message.setVisible(bool(text))
        for widget in (self.global_canvas, self.local_canvas, self.summary):
            widget.setEnabled(not self.stale_result)

    # -- the lesson -----------------------------------------------------------------------------------
    def _show_lesson(self) -> None:
        if not self.state.lesson_visible:
            return
        setup = LESSON_SETUPS.get(STEPS[self.state.lesson_step].id)
        if setup is None:
            return
        local, window, page = setup
        self.lstate.set_local(local)
        self.lstate.set_window(window)
        self.pages.setCurrentIndex(page)

    # -- looks and words -----------------------------------------------------------------------------
    def restyle(self) -> None:
        look = theme.look(self.state)
        t = look.theme
        px = look.widget_px or theme.platform_font_px()
        for canvas in (self.global_canvas, self.local_canvas):
            canvas.set_style(max(px, look.figure_px), t.plot_fg, t.plot_bg, t.accent, t.muted)
        self.training.restyle()
        self._show_summary()  # presentation mode leaves the legend to the tooltip
        self._focus_training()  # presentation mode may have changed

    def _focus_training(self) -> None:
        """On a projector the training page has the tab to itself: the pickers of the windows
        shown (the task, the text, the model, D) make room for its curves, and come back with
        the windows' page (the run's D is in the training page's own row)."""
        self.pickers.setVisible(not (self.state.presentation and self.pages.currentIndex() == TRAIN_PAGE))

    def retranslate(self) -> None:
        self.task_label.setText(translate("LocalWindow", "Task:"))
        for i, name in enumerate(TASKS):
            self.task_box.setItemText(i, translate("LocalWindow", TASK_NAMES[name]))
        self._list_examples(self.lstate.settings.task)
        self.examples.setItemText(0, translate("LocalWindow", "Examples…"))
        self.model_label.setText(translate("LocalWindow", "Local model:"))
        for i, name in enumerate(LOCAL_MODELS):
            self.model_box.setItemText(i, translate("LocalWindow", LOCAL_NAMES[name]))
        self.window_slider.setToolTip(
            translate(
                "LocalWindow",
                "The window's half-width D: the trained weights read [p_t − D, p_t + D], σ = D/2",
            )
        )
        self.train_window_label.setText(translate("LocalWindow", "Train with D:"))
        self.pages.setTabText(WINDOWS_PAGE, translate("LocalWindow", "Global vs local"))
        self.pages.setTabText(TRAIN_PAGE, translate("LocalWindow", "Train from scratch"))
        self._show_window_label()
        if self.compared is not None:
            self.show_compared(self.compared, self.compared_request)
