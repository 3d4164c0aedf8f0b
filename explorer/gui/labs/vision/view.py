"""The Vision tab: channel (SE) and spatial (CBAM) attention, and residual attention, on pictures.

Pick a picture (a generated one by its seed, a PNG, or one drawn on the generated picture)
and a model (plain, SE, CBAM, residual); the pages show the prediction, the channel weights
sorted beside the maps they scale, the spatial map over the picture, every stage of the
block, the worked arithmetic of a clicked channel or position, the variants side by side,
and a model trained from scratch while the class watches.

Everything the tab shows is a VisionTrace computed on the window's worker (channel
"vision"; "vision-compare" for the variants side by side; "vision-load" reads a chosen file
first, so a bad file never becomes the tab's picture), the latest request winning. Training
is the lab's state's run, on a thread of its own, on the labs' training page
(explorer/gui/lab/training.py; what it draws here: ``training``). The settings are the
ExplorerState's ``vision`` (explorer/appstate/vision.py): the tab edits them and redraws
from them. Its parts: ``controls`` (the picture and model row), ``pages`` and their pictures
(``figures``, ``bars``, ``drawing``, ``worked``), ``training``, ``export``.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from PySide6 import QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.lesson_vision import SHOWS, Shows
from explorer.appstate.vision import (
    DRAW_COLOURS,
    MAX_SEED,
    PAGES,
    Picture,
    Stroke,
    VisionState,
    render_drawing,
    stroke_mask,
)
from explorer.appstate.vision_jobs import (
    COMPARED,
    ModelChoice,
    VisionRequest,
    VisionResult,
    compare,
    compute,
    load_file,
    model_choice,
)
from explorer.gui import theme
from explorer.gui.core_text import translated
from explorer.gui.elided import ElidedCombo
from explorer.gui.flow import FlowLayout
from explorer.gui.heatmap import format_value
from explorer.gui.i18n import translate
from explorer.gui.lab import pacing
from explorer.gui.lab.training import TrainingPage
from explorer.gui.lab.warm import plotting_ready
from explorer.gui.labs.vision import figures as vf
from explorer.gui.labs.vision import pages
from explorer.gui.labs.vision.figures import SquareCanvas
from explorer.gui.labs.vision.pages import picture_error
from explorer.gui.labs.vision.picture_dialog import ask_for_picture
from explorer.gui.labs.vision.training import VisionTraining
from explorer.gui.labs.vision.worked import channel_html, position_html
from explorer.gui.messages import ERROR_STYLE, NOTICE_STYLE
from explorer.gui.tabs import lay_out_ahead
from explorer.gui.views.base import View, ViewContext
from explorer.vision.models import VARIANTS
from explorer.vision.trace import VisionTrace
from explorer.vision.worked import WorkedChannel, WorkedPosition, work_channel, work_position

CHANNEL, COMPARE_CHANNEL, LOAD_CHANNEL = "vision", "vision-compare", "vision-load"
BLOCK_SIZES = {"block1": "16×16", "block2": "8×8", "block3": "8×8"}


class VisionView(View):
    TAB = "vision"
    STATE_EVENTS = ("lesson", "tab")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        self.vision: VisionState = self.state.vision
        self.result: VisionResult | None = None  # what the pages show
        self.compared = None  # a CompareResult for the picture on screen
        self.channel_work: WorkedChannel | None = None
        self.position_work: WorkedPosition | None = None
        self.marks: tuple[str, ...] = ()  # the lesson step's panels
        self.shows: Shows | None = None  # what the lesson step on this tab shows
        # pages behind others, drawn when they come to the front (every training snapshot
        # redrew all of them: the hidden pages' figures and arithmetic were half of it)
        self._stale: set[str] = set()
        self._wanted: VisionRequest | None = None
        self._wanted_compare: tuple | None = None
        self._drawn: tuple[Picture, np.ndarray] | None = None  # the drawing's pixels, for the canvas
        self._step: int | None = None  # the lesson step last applied
        self._leaving = False  # a lesson step of another tab: this tab is going out of sight
        self._build()
        context.worker.listen(CHANNEL, self._on_result)
        context.worker.listen(COMPARE_CHANNEL, self._on_compare)
        context.worker.listen(LOAD_CHANNEL, self._on_loaded)
        unsubscribe = self.vision.subscribe(self._on_vision)
        vision = self.vision
        self.destroyed.connect(lambda *_: (unsubscribe(), vision.cancel_training()))
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(vision.stop_training)
        self.retranslate()
        self._sync_controls()
        self._show_drawing()
        self._apply_lesson()

    # -- building -----------------------------------------------------------------------------------------
    def _build(self) -> None:
        style = self.context.style()
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        self.banner = QtWidgets.QLabel()
        self.banner.setWordWrap(True)
        self.banner.setVisible(False)
        layout.addWidget(self.banner)

        self.controls = QtWidgets.QWidget()  # on a projector's training step, room for the curves
        row = FlowLayout(self.controls)  # wraps on a projector: the lesson column leaves the tab ~550 px
        row.setContentsMargins(0, 0, 0, 0)
        self.picture_label = QtWidgets.QLabel()
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, MAX_SEED)
        self.new_button = QtWidgets.QPushButton()
        self.load_button = QtWidgets.QPushButton()
        self.draw_button = QtWidgets.QPushButton()
        self.draw_button.setCheckable(True)
        self.model = ElidedCombo(min_chars=10)  # "residual attention" cut with … when narrow
        for variant in VARIANTS:
            self.model.addItem("", variant)
        self.block = ElidedCombo(min_chars=8)
        for name in BLOCK_SIZES:
            self.block.addItem("", name)
        for w in (self.picture_label, self.seed, self.new_button, self.load_button, self.draw_button):
            row.add(w)
        row.add(self.model)
        row.add(self.block)
        # on a projector the lesson's maps fill the page; the arithmetic comes on demand
        self.worked_button = QtWidgets.QPushButton()
        self.worked_button.setCheckable(True)
        self.worked_button.setVisible(False)
        row.add(self.worked_button)
        layout.addWidget(self.controls)
        self.summary = QtWidgets.QLabel()  # the prediction, the picture, the model; or the hovered value
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.notice = QtWidgets.QLabel()
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(NOTICE_STYLE)
        self.notice.setVisible(False)
        layout.addWidget(self.notice)

        self.pages = QtWidgets.QTabWidget()
        self.pages.setDocumentMode(True)
        # when the titles still overflow (A+ on a projector) the bar scrolls: its two arrows
        # as wide as their large-text hint, not the style's 16 px
        self.pages.tabBar().setStyleSheet("QTabBar::scroller { width: 56px; }")
        self.picture_page = pages.PicturePage(style)
        self.channel_page = pages.ChannelPage(style)
        self.spatial_page = pages.SpatialPage(style)
        self.residual_page = pages.ResidualPage(style)
        self.compare_page = pages.ComparePage(style)
        self.watched = SquareCanvas(style=style)  # the picture's map, beside the curves
        self.train_page = TrainingPage(self.state, self.vision, VisionTraining(), side=self.watched)
        self.page_widgets = {
            "picture": self.picture_page,
            "channel": self.channel_page,
            "spatial": self.spatial_page,
            "residual": self.residual_page,
            "compare": self.compare_page,
            "train": self.train_page,
        }
        assert tuple(self.page_widgets) == PAGES
        for widget in self.page_widgets.values():
            self.pages.addTab(widget, "")
        layout.addWidget(self.pages, 1)

        # the user
        v = self.vision
        self.seed.valueChanged.connect(self._on_seed)
        self.new_button.clicked.connect(self.new_picture)
        self.load_button.clicked.connect(self.choose_file)
        self.draw_button.toggled.connect(self._on_draw_toggled)
        self.model.currentIndexChanged.connect(lambda _: v.set_variant(self.model.currentData()))
        self.block.currentIndexChanged.connect(lambda _: v.set_block(self.block.currentData()))
        self.pages.currentChanged.connect(lambda i: v.set_page(PAGES[i]))
        self.worked_button.toggled.connect(lambda _: self._show_worked())
        p = self.picture_page
        p.positionClicked.connect(self._on_position)
        p.strokeDrawn.connect(v.add_stroke)
        p.brushChanged.connect(lambda colour, radius: v.set_brush(colour, radius))
        p.backgroundChanged.connect(v.set_background)
        p.undoClicked.connect(v.undo_stroke)
        p.clearClicked.connect(v.clear_drawing)
        self.channel_page.channelClicked.connect(
            lambda c: (self._reveal_worked("channel"), v.select_channel(c))
        )
        self.channel_page.placeholder.button.clicked.connect(lambda: v.set_variant("se"))
        self.spatial_page.positionClicked.connect(
            lambda r, c: (self._reveal_worked("spatial"), self._on_position(r, c))
        )
        self.spatial_page.placeholder.button.clicked.connect(lambda: v.set_variant("cbam"))
        self.residual_page.channelChanged.connect(v.select_channel)
        self.residual_page.placeholder.button.clicked.connect(lambda: v.set_variant("residual"))
        self.compare_page.positionClicked.connect(self._on_position)
        for canvas in (p.overlay, self.spatial_page.figure, self.watched, self.compare_page.figure):
            canvas.hovered.connect(lambda i, r, c, canvas=canvas: self._on_hover(canvas, i, r, c))
        self.channel_page.bars.hovered.connect(self._on_bar_hover)

    # -- the picture --------------------------------------------------------------------------------------
    def _on_seed(self, seed: int) -> None:
        picture = self.vision.picture
        if picture.kind == "draw":  # a new background for the drawing: its strokes stay
            self.vision.set_picture(Picture("draw", seed, picture.path, picture.background, picture.strokes))
        else:
            self.vision.generate(seed)

    def new_picture(self) -> None:
        """A generated picture from a new random seed (the seed box shows it)."""
        self.draw_button.setChecked(False)
        self.seed.setValue(random.randint(0, MAX_SEED))

    def _on_draw_toggled(self, on: bool) -> None:
        if on:
            self.vision.draw()
        elif self.vision.picture.kind == "draw":
            self.vision.generate(self.vision.picture.seed)

    def choose_file(self) -> None:
        path = ask_for_picture(self, translate("VisionView", "Open a picture"))
        if path:
            self.load_file(path)

    def load_file(self, path: str) -> None:
        """Read the file on the worker; only a usable picture becomes the tab's picture."""
        self._show_banner(translate("VisionView", "Reading {0}…").format(path), NOTICE_STYLE)
        self.context.worker.submit(LOAD_CHANNEL, lambda: (path, load_file(path)))

    def _on_loaded(self, result) -> None:
        if not result.ok:
            self._show_banner(picture_error(result.error), ERROR_STYLE)
            return
        path, loaded = result.value
        self.banner.setVisible(False)
        self.draw_button.setChecked(False)
        self.vision.load(path)

    # -- computing --------------------------------------------------------------------------------------
    def model_choice(self) -> ModelChoice:
        """The shipped checkpoint, or the training run's snapshot the state names."""
        return model_choice(self.vision)

    def request(self) -> None:
        if not self.is_shown():
            return
        wanted = VisionRequest(self.vision.picture, self.model_choice())
        if self.vision.page == "compare":
            self.request_compare()
        if (self.result is not None and self.result.request == wanted) or wanted == self._wanted:
            return
        self._wanted = wanted
        self.summary.setText(translate("VisionView", "Computing…"))
        self.context.worker.submit(
            CHANNEL, lambda should_stop: compute(wanted, should_stop), cancellable=True
        )

    def request_compare(self) -> None:
        picture = self.vision.picture
        if (
            self.compared is not None and self.compared.picture == picture
        ) or picture == self._wanted_compare:
            return
        self._wanted_compare = picture
        self.context.worker.submit(
            COMPARE_CHANNEL, lambda should_stop: compare(picture, COMPARED, should_stop), cancellable=True
        )

    def cancelled(self) -> None:
        self._wanted = self._wanted_compare = None
        for channel in (CHANNEL, COMPARE_CHANNEL):
            self.context.worker.cancel(channel)

    def activated(self) -> None:
        self.request()

    def draw(self, prepared):
        self.prepared, self.stale = prepared, False  # the text trace: this tab does not use it
        if self.result is not None:
            self.rendered.emit()  # the window is complete now (see _show)
        return iter(())

    def _on_result(self, result) -> None:
        self._wanted = None
        if not result.ok:
            self._show_banner(picture_error(result.error), ERROR_STYLE)
            self.summary.setText(translate("VisionView", "The pages still show the last good result."))
            return
        if self.banner.styleSheet() == ERROR_STYLE:
            self.banner.setVisible(False)
        self.result = result.value
        self._show()
        self._prepare_training()
        self.request()  # the settings changed meanwhile: compute those

    def _on_compare(self, result) -> None:
        self._wanted_compare = None
        if not result.ok:
            self._show_banner(picture_error(result.error), ERROR_STYLE)
            return
        self.compared = result.value
        self._show_compare()
        self.request_compare()

    # -- the state ----------------------------------------------------------------------------------------
    def _on_vision(self, event: str, _vision) -> None:
        if event == "page" and self.vision.page == "train" and not self.train_page.isVisible():
            self._before_training_shows()
        self._sync_controls()
        if event in ("picture", "model", "weights"):
            if event == "picture":
                self.compared = None
                self._show_drawing()
            self.request()
        elif event == "block":
            self._show()
            self._show_compare()
        elif event == "channel" and self.trace is not None:
            self._show_channel()
        elif event == "position" and self.trace is not None:
            self._show_position()
        elif event == "page":
            self._show_stale()
            self.request()
            self._show_compare()
            self._show_worked()
        elif event == "brush":
            p = self.picture_page
            p.show_tools(self.vision.draw_colour, self.vision.brush, self.vision.picture.background)

    def on_state(self, event: str) -> None:
        if event == "tab":
            self._leaving = False  # the tab on show is the state's now
        if event == "tab" and self.is_shown():
            if self._step == self.state.lesson_step:  # else the step's own event comes next, and arranges
                self._arrange_training()
                self._show_worked()
            self.request()
        elif event == "lesson":
            self._apply_lesson()

    def _apply_lesson(self) -> None:
        """A lesson step of this tab: its page, a model that has that attention, its panels framed."""
        step = STEPS[self.state.lesson_step]
        shows = SHOWS.get(step.stage) if self.state.lesson_visible and step.tab == self.TAB else None
        # the lesson takes the window to another tab next (the state's tab follows its step)
        self._leaving = self.state.lesson_visible and step.tab != self.TAB and self.is_shown()
        if self.state.lesson_step != self._step:  # a new step opens as it was made: maps alone
            self._step = self.state.lesson_step
            self.worked_button.setChecked(False)
        self.shows = shows
        self.marks = shows.panels if shows is not None else ()
        if shows is not None:
            if shows.variants and self.vision.variant not in shows.variants:
                self.vision.set_variant(shows.variants[0])
            self.vision.set_page(shows.page)
        self._show()

    def _sync_controls(self) -> None:
        """The controls show the state (their signals blocked: this is not the user)."""
        v = self.vision
        widgets = (self.seed, self.draw_button, self.model, self.block, self.pages)
        for w in widgets:
            w.blockSignals(True)
        self.seed.setValue(v.picture.seed)
        self.draw_button.setChecked(v.picture.kind == "draw")
        self.model.setCurrentIndex(max(0, self.model.findData(v.variant)))
        self.block.setCurrentIndex(max(0, self.block.findData(v.block)))
        self.pages.setCurrentIndex(PAGES.index(v.page))
        for w in widgets:
            w.blockSignals(False)
        self.picture_page.set_drawing(v.picture.kind == "draw")
        self.picture_page.show_tools(v.draw_colour, v.brush, v.picture.background)

    # -- drawing the result ---------------------------------------------------------------------------------
    @property
    def trace(self) -> VisionTrace | None:
        return None if self.result is None else self.result.trace

    def shown_block(self, trace: VisionTrace) -> str:
        names = [b.name for b in trace.blocks]
        return self.vision.block if self.vision.block in names else names[-1]

    def focus(self, page: str) -> tuple[str, ...] | None:
        """On a projector, the lesson step's panels its page shows alone, as large as the page
        allows (None: the page shows everything)."""
        if self.shows is None or not self.state.presentation or self.shows.page != page:
            return None
        return self.shows.projected()

    def _accent(self) -> str:
        return theme.look(self.state).theme.accent

    def _arrange_training(self) -> None:
        """The training page's curves beside the map (``set_focus``): in front, as the lesson
        step shows it; out of sight, as the nearest lesson step that shows it will (this step,
        the next or the previous), else as it is: re-gridded in the key's turn, its plots were
        resized and painted twice (29→30, 31→30: 45–70 ms)."""
        if self.vision.page == "train" and self._in_front():
            on = self.focus("train") is not None
        else:
            near = self._training_step_near()
            if near is None:
                return
            on = near
            if not pacing.pending(self.train_page, "ahead"):
                pacing.later(self.train_page, self._lay_out_training, "ahead")
        self.train_page.set_focus(on)

    def _lay_out_training(self) -> None:
        """The training page behind another page of the tab on show, laid out and painted off
        screen at the place the nearest training step will show it (the room of the controls
        it hides there added), a piece a turn: that step's key only paints it."""
        page = self.train_page
        if page.isVisible() or not self.isVisible() or self.vision.page == "train":
            return
        if any(plot.plot is None for plot in page.plots):  # after their pieces
            if plotting_ready():
                for plot in page.plots:
                    plot.build_ahead()
                pacing.later(page, self._lay_out_training, "ahead")
            return
        layout = self.layout()
        layout.activate()
        room = 0
        if self._training_step_near() and self.state.presentation:
            shown = [w for w in (self.controls, self.summary, self.notice) if not w.isHidden()]
            room = sum(w.height() + layout.spacing() for w in shown)
        pieces = lay_out_ahead(page, self.pages.currentWidget().geometry().adjusted(0, 0, 0, room))

        def next_piece() -> None:
            if next(pieces, "done") != "done":
                pacing.later(page, next_piece, "ahead")

        next_piece()

    def _before_training_shows(self) -> None:
        """The training page about to come to the front: arranged, the controls' room given,
        the tab laid out and the page given its size before it is shown (shown at its old
        size, then laid out, then arranged, its plots were resized and painted two or three
        times in the key's turn: 29→30, 70 ms)."""
        self._arrange_training()
        self._show_worked()
        if self.isVisible():
            self.layout().activate()
            self.train_page.setGeometry(self.pages.currentWidget().geometry())

    def _in_front(self) -> bool:
        return self.is_shown() and not self._leaving

    def _room_for_curves(self) -> bool | None:
        """Whether the controls and the summary give their room to the training curves: with
        the tab in front, on a projector's training step; out of sight, as the nearest lesson
        step will show the tab (None: as they are), so the tab laid out ahead (explorer/gui/
        tabs.py) is laid out as it will be shown (31→30 laid it out anew in the key's turn)."""
        if self.vision.page != "train":
            return False
        if self._in_front():
            return self.focus("train") is not None
        return self._training_step_near()

    def _training_step_near(self) -> bool | None:
        """Whether the nearest lesson step that shows the training page shows it focused (None:
        no step near shows it)."""
        if not self.state.lesson_visible:
            return None
        at = self.state.lesson_step
        for index in (at, at + 1, at - 1):
            if not 0 <= index < len(STEPS) or STEPS[index].tab != self.TAB:
                continue
            shows = SHOWS.get(STEPS[index].stage)
            if shows is not None and shows.page == "train":
                return self.state.presentation
        return None

    def _on_screen(self, page: str) -> bool:
        """The page is in front (drawn now); else it is drawn when it comes there."""
        if self.vision.page == page:
            self._stale.discard(page)
            return True
        self._stale.add(page)
        return False

    def _show_stale(self) -> None:
        """The page that came to the front, if the trace changed while it was behind."""
        if self.trace is None or self.vision.page not in self._stale:
            return
        page = self.vision.page
        if page == "picture":
            self._show_picture()
        elif page in ("channel", "residual"):
            self._show_channel()
        elif page == "spatial":
            self._show_spatial()
        self._stale.discard(page)

    def _show_picture(self) -> None:
        t = self.trace
        if self._on_screen("picture"):
            self.picture_page.show_trace(
                t,
                self.shown_block(t),
                self.vision.position,
                self._accent(),
                self.marks,
                self.focus("picture"),
            )

    def _show(self) -> None:
        """The trace on the page in front (the others when they come there), the map beside
        the training curves and the summary."""
        t = self.trace
        if t is None:
            return
        block = self.shown_block(t)
        self._show_picture()
        self._show_channel()
        self._show_spatial()
        p = float(t.probabilities[t.prediction])
        watched = f"{vf.class_label(t.prediction_name)} {100 * p:.1f} %"  # short: the panel is narrow
        training_focus = self.focus("train") is not None
        figure = vf.Figure(  # beside the curves on a projector: the lit picture alone
            [vf.overlay_panel(t, block, watched)],
            selection=self.vision.position,
            bars=not training_focus,
            axes=not training_focus,
        )
        if self.vision.training or pacing.pending(self.watched, "map"):  # never painted with the curves
            pacing.later(self.watched, lambda: self.watched.set_figure(figure), "map")
        else:
            self.watched.set_figure(figure)
        self._arrange_training()
        self._show_summary()
        self._show_worked()
        if self.context.current() is not None:  # else the window still says it loads its model:
            self.rendered.emit()  # a screenshot waits for draw(), which comes with that model

    def _show_channel(self) -> None:
        """The channel page (its bars, maps and worked arithmetic) and the residual page."""
        t, v = self.trace, self.vision
        block = self.shown_block(t)
        b = t.block(block)
        has_channels = "channel_weights" in b.stages
        self.channel_page.show_content(has_channels)
        self.channel_work = None
        if has_channels:
            channel = self._channel(t, block)
            self.channel_work = work_channel(t, block, channel)
        if has_channels and self._on_screen("channel"):
            second = b.params["w2"] if b.attention == "se" else b.params["w1"]
            html_text = channel_html(self.channel_work, second[channel])
            self.channel_page.show_trace(
                t, block, channel, html_text, self._accent(), self.marks, self.focus("channel")
            )
        has_residual = vf.residual_block(t) is not None
        self.residual_page.show_content(has_residual)
        if has_residual and self._on_screen("residual"):
            self.residual_page.show_trace(
                t, v.channel or 0, self._accent(), self.marks, self.focus("residual")
            )

    def _show_spatial(self) -> None:
        """The spatial page: its stages and the position's worked arithmetic."""
        t, v = self.trace, self.vision
        block = self.shown_block(t)
        has_spatial = "spatial_logits" in t.block(block).stages
        self.spatial_page.show_content(has_spatial)
        self.position_work = None
        if has_spatial:
            position = self._position(t, block)
            self.position_work = work_position(t, block, *position)
        if has_spatial and self._on_screen("spatial"):
            hint = "" if v.position is not None else self._position_hint()
            html_text = hint + position_html(self.position_work)
            self.spatial_page.show_trace(
                t, block, v.position or position, html_text, self._accent(), self.marks, self.focus("spatial")
            )

    def _show_worked(self) -> None:
        """The worked arithmetic beside the maps; on a projector only when asked for. On a
        projector's training step the picture and model controls and the summary give their
        room to the curves (the lesson's next step brings them back)."""
        room = self._room_for_curves()
        if room is not None:
            for widget in (self.controls, self.summary):
                widget.setVisible(not room)
        training_focus = self.controls.isHidden()
        self.notice.setVisible(bool(self.trace is not None and self.trace.notices) and not training_focus)
        offered = False
        for name, page in (("channel", self.channel_page), ("spatial", self.spatial_page)):
            focused = self.focus(name) is not None
            page.worked.setVisible(not focused or self.worked_button.isChecked())
            offered |= focused and self.vision.page == name
        self.worked_button.setVisible(offered)

    def _show_position(self) -> None:
        """A new position: the spatial page's arithmetic, and the selection on every map."""
        self._show_spatial()
        position = self.vision.position
        for canvas in (self.picture_page.overlay, self.watched, self.compare_page.figure):
            canvas.set_selection(position)

    def _position_hint(self) -> str:
        text = translate(
            "VisionView", "The map's largest value is worked out below; click a position to choose another."
        )
        return f"<p><i>{text}</i></p>"

    def _position(self, trace: VisionTrace, block: str) -> tuple[int, int]:
        """The selected position, or the map's largest value (the state keeps None)."""
        m = vf.attention_map(trace, block).data
        p = self.vision.position
        if p is not None and p[0] < m.shape[0] and p[1] < m.shape[1]:
            return p
        return tuple(int(i) for i in np.unravel_index(int(np.argmax(m)), m.shape))

    def _channel(self, trace: VisionTrace, block: str) -> int:
        """The selected channel, or the one with the largest weight."""
        weights = trace.block(block).stages["channel_weights"]
        c = self.vision.channel
        return c if c is not None and c < len(weights) else int(vf.sorted_channels(weights)[0])

    def _show_summary(self) -> None:
        t = self.trace
        p = float(t.probabilities[t.prediction])
        parts = [
            translate("VisionView", "Prediction: {0} ({1})").format(
                vf.class_label(t.prediction_name), pages.percent(p)
            )
        ]
        if t.label is not None:
            parts.append(
                translate("VisionView", "true class: {0}").format(vf.class_label(t.class_names[t.label]))
            )
        picture = self.result.request.picture
        if picture.kind == "file":
            parts.append(translate("VisionView", "picture: {0}").format(Path(picture.path).name))
        elif picture.kind == "draw":
            parts.append(translate("VisionView", "a drawing of {0} stroke(s)").format(len(picture.strokes)))
        choice = self.result.request.model
        if choice.shipped:
            parts.append(
                translate("VisionView", "{0}, shipped checkpoint").format(vf.variant_label(choice.variant))
            )
        else:
            parts.append(
                translate("VisionView", "{0}, training run at step {1}").format(
                    vf.variant_label(choice.variant), choice.step
                )
            )
        self.summary.setText("  ·  ".join(parts))
        self.summary.setToolTip(self.summary.text())
        if t.notices:
            self.notice.setText(translate("VisionView", "Note: ") + "  •  ".join(map(translated, t.notices)))
        self.notice.setVisible(bool(t.notices))

    def _show_compare(self) -> None:
        if self.compared is None or self.compared.picture != self.vision.picture:
            self.compare_page.clear()
        else:
            traces = self.compared.traces
            block = self.shown_block(next(iter(traces.values())))
            self.compare_page.show_traces(traces, block, self.vision.position)
        self.compare_page.note.setText(
            translate("VisionView", "The shipped models on the same picture; maps of {0}.").format(
                self.vision.block
            )
        )
        self.compare_page.note.setToolTip(
            translate(
                "VisionView",
                "The plain and SE models have no spatial attention: their map is the channel mean "
                "of the block's output, an activation map, not attention.",
            )
        )

    def _show_drawing(self) -> None:
        """The drawing's pixels on the canvas: a new stroke is painted onto the last picture."""
        picture = self.vision.picture
        if picture.kind != "draw":
            return
        drawn = self._drawn
        if (
            drawn is not None
            and drawn[0].strokes == picture.strokes[:-1]
            and drawn[0].seed == picture.seed
            and (drawn[0].background == picture.background)
        ):
            pixels = drawn[1].copy()
            stroke: Stroke = picture.strokes[-1]
            pixels[stroke_mask(stroke)] = DRAW_COLOURS[stroke.colour]
        elif drawn is not None and drawn[0] == picture:
            pixels = drawn[1]
        else:
            pixels = render_drawing(picture)
        self._drawn = (picture, pixels)
        self.picture_page.canvas.set_pixels(pixels)

    # -- the user's clicks -----------------------------------------------------------------------------------
    def _reveal_worked(self, page: str) -> None:
        """A click on a bar or a position shows its arithmetic, as the lesson step says
        ("click a bar to see one channel's numbers"), on a projector too, where it waits for
        the Arithmetic button (trial 7: a click there changed nothing in sight)."""
        if self.focus(page) is not None and not self.worked_button.isChecked():
            self.worked_button.setChecked(True)

    def _on_position(self, row: int, col: int) -> None:
        self.vision.select_position((row, col))

    def _on_hover(self, canvas, index: int, r: int, c: int) -> None:
        if index < 0:
            if self.trace is not None:
                self._show_summary()
            return
        panel = canvas.panels[index]
        self.summary.setText(
            translate("VisionView", "row {0}, column {1}: {2}").format(r, c, format_value(panel.data[r, c]))
        )

    def _on_bar_hover(self, key: int) -> None:
        if key < 0 or self.trace is None:
            if self.trace is not None:
                self._show_summary()
            return
        block = self.shown_block(self.trace)
        st = self.trace.block(block).stages
        self.summary.setText(
            translate("VisionView", "channel {0}: z = {1}, weight = {2}").format(
                key, format_value(st["squeeze"][key]), format_value(st["channel_weights"][key])
            )
        )

    # -- training --------------------------------------------------------------------------------------------
    def _prepare_training(self) -> None:
        """The training page's plots made while the tab is idle, a piece per turn of the event
        loop. Made when the page first showed, their 20–50 ms each came with an early Train click."""
        for plot in self.train_page.plots:
            plot.build_ahead()

    def start_training(self) -> None:
        """Train the chosen variant from scratch (the training page's Train button)."""
        if not self.vision.training:
            self.train_page.start()

    # -- looks and words ----------------------------------------------------------------------------------
    def _show_banner(self, text: str, style: str) -> None:
        self.banner.setStyleSheet(style)
        self.banner.setText(text)
        self.banner.setVisible(True)

    def restyle(self) -> None:
        style = self.context.style()
        for page in self.page_widgets.values():
            page.restyle(style)
        self.watched.set_style(style)
        self._show()
        self._show_compare()

    def retranslate(self) -> None:
        self.picture_label.setText(translate("VisionView", "Seed"))
        self.seed.setToolTip(
            translate("VisionView", "The generated picture's seed: the same seed, the same picture")
        )
        self.new_button.setText(translate("VisionView", "New picture"))
        self.new_button.setToolTip(translate("VisionView", "Generate a picture from a new random seed"))
        self.load_button.setText(translate("VisionView", "Load PNG…"))
        self.load_button.setToolTip(translate("VisionView", "A picture file of your own, resized to 32×32"))
        self.draw_button.setText(translate("VisionView", "Draw"))
        self.draw_button.setToolTip(
            translate("VisionView", "Paint on the generated picture (or on plain grey) with the mouse")
        )
        for i in range(self.model.count()):
            self.model.setItemText(i, vf.variant_label(self.model.itemData(i)))
        self.model.setToolTip(
            translate("VisionView", "The trained model: no attention, SE, CBAM or residual attention")
        )
        for i in range(self.block.count()):
            name = self.block.itemData(i)
            self.block.setItemText(i, f"{name} ({BLOCK_SIZES[name]})")
        self.block.setToolTip(translate("VisionView", "Which block's attention the pages show"))
        self.worked_button.setText(translate("VisionView", "Arithmetic"))
        self.worked_button.setToolTip(
            translate("VisionView", "Show the worked arithmetic of the chosen channel or position")
        )
        # one word a title: six pages side by side fit the tab on a projector at 1024×768
        titles = {
            "picture": translate("VisionView", "Picture"),
            "channel": translate("VisionView", "Channel"),
            "spatial": translate("VisionView", "Spatial"),
            "residual": translate("VisionView", "Residual"),
            "compare": translate("VisionView", "Compare"),
            "train": translate("VisionView", "Train"),
        }
        tips = {
            "picture": translate("VisionView", "The picture, the attention over it and the probabilities"),
            "channel": translate("VisionView", "Channel attention (SE, CBAM): a weight for every channel"),
            "spatial": translate("VisionView", "Spatial attention (CBAM): a weight for every position"),
            "residual": translate(
                "VisionView", "Residual attention: the mask branch M(x) and the trunk T(x)"
            ),
            "compare": translate("VisionView", "The models side by side on the same picture"),
            "train": translate("VisionView", "Train a model from scratch while the class watches"),
        }
        for i, page in enumerate(PAGES):
            self.pages.setTabText(i, titles[page])
            self.pages.setTabToolTip(i, tips[page])
        self.channel_page.placeholder.label.setText(
            translate(
                "VisionView", "This block has no channel attention. SE and CBAM blocks weigh their channels."
            )
        )
        self.channel_page.placeholder.button.setText(translate("VisionView", "Show the SE model"))
        self.spatial_page.placeholder.label.setText(
            translate("VisionView", "This block has no spatial attention. CBAM blocks weigh every position.")
        )
        self.spatial_page.placeholder.button.setText(translate("VisionView", "Show the CBAM model"))
        self.residual_page.placeholder.label.setText(
            translate("VisionView", "Only the residual-attention model has a mask branch M(x) (in block1).")
        )
        self.residual_page.placeholder.button.setText(translate("VisionView", "Show the residual model"))
        self.picture_page.retranslate()
        self.residual_page.retranslate()
        if self.trace is not None:
            self._show()
        self._show_compare()
