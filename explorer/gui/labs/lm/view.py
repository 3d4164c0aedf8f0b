"""The Language model tab: a tiny GPT-2 trained while the class watches, its heads' attention
on a probe, the induction heads forming, and heads switched off.

Pick the model (the induction task's or the text task's) and a probe (a random sequence
repeated once by default, or typed); the pages show training (the curves and the scrubber,
with the two heads that formed beside them), every head's attention titled with its
previous-token and induction scores (click a head to open it; switch heads off and the
repeated half's loss says what they did), and the selected head's stages as the Pipeline
draws them.

Everything the pages show is an LMResult computed on the window's worker (channel "lm", the
latest request winning; explorer.appstate.lm_jobs). Training is the lab's state's run, on a
thread of its own (explorer/gui/lab/training.py; what it draws: ``training``). The settings
are ``state.labs["lm"]`` (explorer/appstate/lm.py): the tab edits them and redraws from them.
"""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.lesson_lm import SHOWS, Shows
from explorer.appstate.lm import HEADS, LAYERS, PAGES, LMState, typed_text
from explorer.appstate.lm_jobs import PERIOD, LMRequest, LMResult, compute, request_of
from explorer.gui import theme
from explorer.gui.core_text import translated
from explorer.gui.elided import ElidedCombo
from explorer.gui.flow import FlowLayout
from explorer.gui.heatmap import Figure, MatrixCanvas
from explorer.gui.heatmap.figure import Mark
from explorer.gui.i18n import translate
from explorer.gui.lab import pacing
from explorer.gui.lab.stages import StagePanels, wrapping
from explorer.gui.lab.training import TrainingPage
from explorer.gui.lab.warm import plotting_ready
from explorer.gui.labs.lm import heads as lh
from explorer.gui.labs.lm.training import LMTraining, task_name
from explorer.gui.labs.lm.writing import GeneratePage, RowsNote
from explorer.gui.messages import ERROR_STYLE, NOTICE_STYLE, error_message
from explorer.gui.tabs import lay_out_ahead
from explorer.gui.views.base import View, ViewContext
from explorer.lm.train import TASKS
from explorer.lm.vocab import MAX_TEXT_CHARS
from explorer.messages import Message

CHANNEL = "lm"
PASTE_CHARS = MAX_TEXT_CHARS  # what the field takes (Qt's own limit, 32767, would cut silently)
TAB = "lm"


class LMView(View):
    TAB = TAB
    STATE_EVENTS = ("lesson", "tab")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        self.lab: LMState = self.state.labs[TAB]
        self.result: LMResult | None = None
        self._wanted: LMRequest | None = None
        self._lesson: Shows | None = None  # the lesson step on screen, while it waits for a result
        self._settling = False
        self._cut: tuple[str, Message] | None = None  # (the probe, its notice) when a text was cut to it
        self._build()
        context.worker.listen(CHANNEL, self._on_result)
        unsubscribe = self.lab.subscribe(self._on_lab)
        lab = self.lab
        self.destroyed.connect(lambda *_: (unsubscribe(), lab.cancel_training(), lab.stop_writing()))
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(lab.stop_training)
        self.retranslate()
        self._sync_controls()
        self._apply_lesson()

    # -- building ------------------------------------------------------------------------------------
    def _build(self) -> None:
        style = self.context.style()
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        self.banner = QtWidgets.QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(ERROR_STYLE)
        self.banner.setVisible(False)
        layout.addWidget(self.banner)

        row = FlowLayout()  # wraps on a projector beside the lesson
        self.task = ElidedCombo(min_chars=10)
        for task in TASKS:
            self.task.addItem("", task)
        self.probe_label = QtWidgets.QLabel()
        self.probe = QtWidgets.QLineEdit()
        self.probe.setMaxLength(PASTE_CHARS)  # the lab cuts a longer text to its limit, and says so
        self.probe.setClearButtonEnabled(True)
        self.probe_label.setBuddy(self.probe)
        self.new_probe = QtWidgets.QPushButton()
        row.add(self.task)
        row.add(self.probe_label)
        row.add(self.probe, stretch=True)
        row.add(self.new_probe)
        layout.addLayout(row)
        self.summary = QtWidgets.QLabel()  # the weights in use, the probe's losses, the heads off
        self.summary.setWordWrap(True)
        self.summary.setSizePolicy(wrapping())
        layout.addWidget(self.summary)

        self.pages = QtWidgets.QTabWidget()
        self.pages.setDocumentMode(True)
        # the two heads that formed, beside the curves
        self.formed = MatrixCanvas(style=lh.projector_style(style, self.state.presentation))
        self.formed.setMinimumHeight(200)
        self.train_page = TrainingPage(
            self.state, self.lab, LMTraining(lambda: self.state.presentation), side=self.formed
        )
        self.heads_page = QtWidgets.QWidget()
        heads_layout = QtWidgets.QVBoxLayout(self.heads_page)
        heads_layout.setContentsMargins(2, 2, 2, 2)
        off_row = FlowLayout()
        self.off_label = QtWidgets.QLabel()
        off_row.add(self.off_label)
        self.off_buttons: dict[tuple[int, int], QtWidgets.QPushButton] = {}
        for layer in range(LAYERS):
            for h in range(HEADS):
                button = QtWidgets.QPushButton(lh.head_name((layer, h)))
                button.setCheckable(True)
                button.toggled.connect(lambda on, head=(layer, h): self._on_off(head, on))
                self.off_buttons[(layer, h)] = button
                off_row.add(button)
        self.all_on = QtWidgets.QPushButton()
        off_row.add(self.all_on)
        heads_layout.addLayout(off_row)
        self.heads_hint = QtWidgets.QLabel()
        self.heads_hint.setWordWrap(True)
        self.heads_hint.setSizePolicy(wrapping())
        heads_layout.addWidget(self.heads_hint)
        self.heads = MatrixCanvas(style=lh.projector_style(style, self.state.presentation))
        heads_layout.addWidget(self.heads, 1)
        self.heads_note = RowsNote(self.heads)  # a short probe at a projector: rows it cannot name
        heads_layout.addWidget(self.heads_note)
        self.stages = StagePanels(self.state)
        self.writer = GeneratePage(self)
        self.page_widgets = {
            "train": self.train_page,
            "heads": self.heads_page,
            "stages": self.stages,
            "generate": self.writer,
        }
        assert tuple(self.page_widgets) == PAGES
        for widget in self.page_widgets.values():
            self.pages.addTab(widget, "")
        layout.addWidget(self.pages, 1)

        lab = self.lab
        self.task.currentIndexChanged.connect(lambda _: lab.set_task(self.task.currentData()))
        self.probe.textEdited.connect(self._on_probe_edited)
        self.new_probe.clicked.connect(lambda: lab.new_probe())
        self.all_on.clicked.connect(lambda: lab.set_off(()))
        self.pages.currentChanged.connect(lambda i: lab.set_page(PAGES[i]))
        self.heads.clicked.connect(self._on_head_clicked)
        self.heads.doubleClicked.connect(self._on_head_double_clicked)
        self.formed.clicked.connect(self._on_formed_clicked)
        for canvas in (self.heads, self.formed, self.stages.canvas):
            canvas.hovered.connect(lambda i, r, c, canvas=canvas: self._on_hover(canvas, i, r, c))

    # -- computing -------------------------------------------------------------------------------------
    def request(self) -> None:
        if not self.is_shown():
            return
        wanted = request_of(self.lab)
        if self.result is not None and self.result.request == wanted:
            # back to the settings on screen (a refused probe emptied): its banner is stale, and so
            # is a computation still running for the refused settings
            if self._wanted is not None:
                self.cancelled()
            self._show_banner()
            return
        if wanted == self._wanted:
            return
        self._wanted = wanted
        self.context.worker.submit(
            CHANNEL, lambda should_stop: compute(wanted, should_stop), cancellable=True
        )

    def cancelled(self) -> None:
        self._wanted = None
        self.context.worker.cancel(CHANNEL)

    def activated(self) -> None:
        self.request()

    def draw(self, prepared):
        self.prepared, self.stale = prepared, False  # the window's trace: this tab does not use it
        if self.result is not None and self._wanted is None:
            self.rendered.emit()
        return iter(())

    def _on_result(self, result) -> None:
        self._wanted = None
        if not result.ok:
            self._show_banner(error_message(result.error))
            self.request()  # the settings may have changed meanwhile
            return
        self._show_banner()
        self.result = result.value
        self._settling = True  # the lesson may pick heads now: what it shows then is not complete
        self._follow_lesson()
        self._settling = False
        self.request()  # the settings changed meanwhile (or the lesson changed them): compute those
        self._show()
        for plot in self.train_page.plots:  # made while the tab is idle, a piece a turn (34→35: 45 ms)
            plot.build_ahead()
        if not pacing.pending(self.train_page, "ahead"):
            pacing.later(self.train_page, self._lay_out_training, "ahead")

    def _lay_out_training(self) -> None:
        """The training page behind another, once its plots are made: laid out and painted off
        screen, a piece a turn (paced with the plots' own pieces)."""
        page = self.train_page
        if page.isVisible() or not self.isVisible() or not plotting_ready():
            return
        if any(plot.plot is None for plot in page.plots):  # after their pieces
            for plot in page.plots:
                plot.build_ahead()
            pacing.later(page, self._lay_out_training, "ahead")
            return
        self.layout().activate()  # a summary's new line may still wait for its layout
        pieces = lay_out_ahead(page, self.pages.currentWidget().geometry())

        def next_piece() -> None:
            if next(pieces, "done") != "done":
                pacing.later(page, next_piece, "ahead")

        next_piece()

    def _on_probe_edited(self, text: str) -> None:
        probe, cut = typed_text(text)
        self._cut = (probe, cut) if cut is not None else None
        self.lab.set_probe(probe)
        self._show_banner()

    def _show_banner(self, error: str | None = None) -> None:
        """The refusal of the settings, else the notice that the probe was cut (while it is the
        probe), else nothing: never a line about an earlier text."""
        if self._cut is not None and self._cut[0] != self.lab.probe:
            self._cut = None
        notice = translated(self._cut[1]) if self._cut is not None else ""
        text = "\n".join(t for t in (error, notice) if t)  # two lines: run together they read as one
        self.banner.setText(text)
        self.banner.setStyleSheet(ERROR_STYLE if error else NOTICE_STYLE)
        self.banner.setVisible(bool(text))

    # -- the state -------------------------------------------------------------------------------------
    def _on_lab(self, event: str, _lab) -> None:
        self._sync_controls()
        if event in ("task", "probe", "off", "weights"):
            self.request()
        elif event == "head":
            self._show()
        elif event == "page":
            self.request()

    def on_state(self, event: str) -> None:
        if event == "tab" and self.is_shown():
            self.request()
        elif event == "lesson":
            self._apply_lesson()

    def _sync_controls(self) -> None:
        lab = self.lab
        page = self.page_widgets[lab.page]
        if self.isVisible() and not page.isVisible():
            # the page comes to the front at the size it will have: shown at its old size and
            # then laid out, the curves' plots were resized and painted twice (34→35)
            page.setGeometry(self.pages.currentWidget().geometry())
        for widget, value in (
            (self.task, self.task.findData(lab.task)),
            (self.pages, PAGES.index(lab.page)),
        ):
            if widget.currentIndex() != value:
                widget.blockSignals(True)
                widget.setCurrentIndex(value)
                widget.blockSignals(False)
        if self.probe.text() != lab.probe:
            self.probe.setText(lab.probe)
        for head, button in self.off_buttons.items():
            if button.isChecked() != (head in lab.off):
                button.blockSignals(True)
                button.setChecked(head in lab.off)
                button.blockSignals(False)
        self.all_on.setEnabled(bool(lab.off))

    def _apply_lesson(self) -> None:
        """A lesson step of this tab: its page now; its head (and the head off) once a result says
        which head is best."""
        step = STEPS[self.state.lesson_step]
        shows = SHOWS.get(step.stage) if self.state.lesson_visible and step.tab == self.TAB else None
        self._lesson = shows
        self.stages.point_at(shows.panels if shows is not None else ())
        if shows is None:
            self._show()
            return
        self.lab.set_page(shows.page)
        if not shows.off_induction and self.lab.off:
            self.lab.set_off(())  # the steps before the causal test show every head on
        self._follow_lesson()
        self._show()

    def _follow_lesson(self) -> None:
        shows, result = self._lesson, self.result
        if shows is None or result is None or result.request.model != request_of(self.lab).model:
            return
        self._lesson = None  # once: the teacher may click another head afterwards
        if shows.best_by is not None:
            best = lh.best_head(result, shows.best_by)
            self.lab.select_head(best)
        if shows.off_induction:
            self.lab.set_off(tuple(result.scores.induction_heads) or (lh.best_head(result, "induction"),))

    # -- showing ---------------------------------------------------------------------------------------
    def _accent(self) -> str:
        return theme.look(self.state).theme.accent

    def _show(self) -> None:
        result = self.result
        if result is None:
            self.summary.setText(translate("LMView", "Computing…"))
            return
        head = self.lab.head
        accent = self._accent()
        presenting = self.state.presentation
        # on a projector the selected head's layer alone, each head titled with its layer's score
        shown = [head[0] * HEADS + h for h in range(HEADS)] if presenting else None
        # on a projector one colour bar for the layer's four maps (they share 0 … 1): four bars
        # beside the lesson left each 48 × 48 map four times as tall as wide (trial 10)
        self.heads.set_figure(
            Figure(
                lh.all_heads(result, short=presenting),
                columns=HEADS,
                shared_bar=presenting,
                marks=lh.head_marks(result, head, accent),
                visible=shown,
            )
        )
        self.heads_note.update_note()
        self.heads_hint.setVisible(not presenting)  # the lesson says it there
        self.formed.setVisible(not presenting)  # the curves get the page's width
        # a projector's room is what it is: the grid shrinks to fit it there, never widens it
        self.heads.setMinimumHeight(0 if self.state.presentation else LAYERS * 160)
        formed = Figure(lh.formed_heads(result), columns=2)
        if self.lab.training or pacing.pending(
            self.formed, "heads"
        ):  # each snapshot's heads in a turn of their own, never with the curves
            pacing.later(self.formed, lambda: self.formed.set_figure(formed), "heads")
        else:
            self.formed.set_figure(formed)
        marks = {}
        if self.state.lesson_visible:
            step = STEPS[self.state.lesson_step]
            shows = SHOWS.get(step.stage) if step.tab == self.TAB else None
            wanted = shows.panels if shows is not None else ()
            marks = {
                i: Mark(QtGui.QColor(accent), 4)
                for i, p in enumerate(lh.stage_panels(result, head))
                if p.name in wanted
            }
        self.stages.show_panels(lh.stage_panels(result, head), marks=marks)
        self.stages.sentence.setText(self._stage_sentence(result, head))
        self.summary.setText(self._summary(result))
        if self.lab.page == "generate":
            self.writer.show_writing()  # the heads' scores beside their names
        if self._wanted is None and not self._settling:  # complete: nothing newer is being computed
            self.rendered.emit()

    def _stage_sentence(self, result: LMResult, head) -> str:
        if head in result.request.off:
            return translate(
                "LMView",
                "Head {head} is off: its values V are zeroed, so its output adds nothing to the next layer.",
            ).format(head=lh.head_name(head))
        return translate(
            "LMView",
            "Head {head}: every stage on the probe, as in the Pipeline tab. The causal mask hides "
            "every later key; the weights of each row add up to 1.",
        ).format(head=lh.head_name(head))

    def _summary(self, result: LMResult) -> str:
        choice = result.request.model
        if choice.shipped:
            weights = translate("LMView", "shipped checkpoint")
        else:
            weights = translate("LMView", "training step {0}").format(choice.step)
        if result.period is not None:
            probe = translate("LMView", "probe: {0} random symbols, then the same again").format(
                result.period
            )
        else:  # the maps are the typed text's; the heads' scores and the losses stay the measuring probe's
            probe = translate(
                "LMView", "probe: the typed text (the heads' scores and the losses: on {0} random symbols ×2)"
            ).format(PERIOD)
        base = result.base
        losses = translate(
            "LMView", "loss on the measuring probe: first half {0:.2f}, repeated half {1:.2f} nats"
        ).format(base.first_half_loss, base.repeated_half_loss)
        parts = [f"{task_name(choice.task)} · {weights}", probe, losses]
        if self.state.presentation:  # short on a projector: the weights and the losses
            parts = [weights, losses] if result.period is not None else [weights, probe, losses]
        if result.ablated is not None:
            a = result.ablated
            parts.append(
                translate("LMView", "with {heads} off: repeated half {loss:.2f} ({change:+.2f})").format(
                    heads=", ".join(lh.head_name(h) for h in a.heads),
                    loss=a.repeated_half_loss,
                    change=a.change,
                )
            )
        return " · ".join(parts)

    # -- the user --------------------------------------------------------------------------------------
    def _head_at(self, panel: int) -> tuple[int, int] | None:
        if not 0 <= panel < LAYERS * HEADS:
            return None
        return panel // HEADS, panel % HEADS

    def _on_head_clicked(self, panel: int, _row: int, _col: int) -> None:
        head = self._head_at(panel)
        if head is not None:
            self.lab.select_head(head)

    def _on_head_double_clicked(self, panel: int) -> None:
        """Open the head's stages."""
        head = self._head_at(panel)
        if head is not None:
            self.lab.select_head(head)
            self.lab.set_page("stages")

    def _on_formed_clicked(self, panel: int, _row: int, _col: int) -> None:
        if self.result is not None and 0 <= panel < 2:
            self.lab.select_head(lh.best_head(self.result, ("previous_token", "induction")[panel]))

    def _on_off(self, head, on: bool) -> None:
        if (head in self.lab.off) != on:
            self.lab.toggle_off(head)

    def _on_hover(self, canvas, index: int, r: int, c: int) -> None:
        if index < 0 or self.result is None or not 0 <= index < len(canvas.panels):
            if self.result is not None:
                self.summary.setText(self._summary(self.result))
            return
        panel = canvas.panels[index]
        rows, cols = panel.rows, panel.cols
        if rows is None or cols is None or not (0 <= r < len(rows) and 0 <= c < len(cols)):
            return
        self.summary.setText(
            translate(
                "LMView", "{title}: from {query} (position {i}) to {key} (position {j}): {value:.3f}"
            ).format(title=panel.title, query=rows[r], i=r, key=cols[c], j=c, value=float(panel.data[r, c]))
        )

    # -- looks and words -------------------------------------------------------------------------------
    def restyle(self) -> None:
        style = self.context.style()
        for canvas in (self.heads, self.formed):  # labels of 20 px at least at a projector
            canvas.set_style(lh.projector_style(style, self.state.presentation))
        self.stages.restyle()
        self.writer.restyle()
        self.train_page.restyle(style)
        self.train_page.draw_curves()  # the loss plot's title follows presentation mode
        self._show()

    def retranslate(self) -> None:
        names = {
            "induction": translate("LMView", "Induction"),
            "text": translate("LMView", "Text"),
        }
        for i in range(self.task.count()):
            self.task.setItemText(i, names[self.task.itemData(i)])
        self.task.setToolTip(
            translate(
                "LMView",
                "The induction model learned random symbols repeated; the text model, English and Chinese",
            )
        )
        self.probe_label.setText(translate("LMView", "Probe"))
        # whole beside the lesson at 1024×768 ("24 random symbols, then the same again" elided)
        self.probe.setPlaceholderText(translate("LMView", "24 random symbols ×2"))
        self.probe.setToolTip(
            translate("LMView", "Type a text the heads read (characters the model knows), or leave it empty")
        )
        self.new_probe.setText(translate("LMView", "New random probe"))
        self.new_probe.setToolTip(translate("LMView", "Another random sequence, repeated once"))
        self.off_label.setText(translate("LMView", "Switch heads off:"))
        self.all_on.setText(translate("LMView", "All on"))
        self.all_on.setToolTip(translate("LMView", "Switch every head back on"))
        for head, button in self.off_buttons.items():
            button.setToolTip(
                translate("LMView", "Head {0} off: its output is zeroed before W_O").format(
                    lh.head_name(head)
                )
            )
        self.heads_hint.setText(
            translate(
                "LMView",
                "Each head's attention on the probe (rows: the position that predicts; columns: "
                "the positions it reads). A previous-token head fills the line just left of the "
                "diagonal; on the random probe an induction head fills the line 23 places left "
                "of it, in the repeated half. Click a head to select it, double-click to open "
                "its stages.",
            )
        )
        titles = {
            "train": translate("LMView", "Train"),
            "heads": translate("LMView", "Heads"),
            "stages": translate("LMView", "Stages"),
            "generate": translate("LMView", "Generate"),
        }
        tips = {
            "train": translate("LMView", "Train the model from scratch and watch the heads form"),
            "heads": translate("LMView", "Every head's attention and scores; switch heads off"),
            "stages": translate(
                "LMView", "The selected head's Q, K, V, scores, causal mask, weights and output"
            ),
            "generate": translate("LMView", "Write text one token at a time and see each token's attention"),
        }
        for i, page in enumerate(PAGES):
            self.pages.setTabText(i, titles[page])
            self.pages.setTabToolTip(i, tips[page])
        self.writer.retranslate()
        if self.result is not None:
            self._show()
