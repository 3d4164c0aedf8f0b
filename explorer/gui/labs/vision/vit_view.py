"""The Vision Transformer tab: self-attention between a picture's patches, beside the CNN.

Pages: **Where it looks** (a clicked patch's attention per layer and head, the CLS token's, or
the rollout across layers, over the picture, with CBAM's spatial map of the CNN trained on as
many pictures beside it and both models' share of attention on the object), **Heads** (each
head's mean attention distance against an evenly spread head's, each head's self share, the
position embeddings' similarity), **Data** (the shipped experiment: held-out accuracy against
training-set size for both models, its caption saying what it shows), **Train** (the live
pair: both models trained at once on the same pictures) and **Photo** (a photograph's own
patches attending to each other with no trained model).

Everything shown is computed on the window's worker (channel "vit": explorer.appstate.vit_jobs;
"vit-photo" for the photograph); the settings are the lab's state ``state.labs["vit"]``
(explorer.appstate.vit), which the controls edit and the pages redraw from.
"""

from __future__ import annotations

import random

from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.lesson_vit import SHOWS
from explorer.appstate.vit import MAPS, MAX_SEED, PAGES, ViTState
from explorer.appstate.vit_jobs import ViTRequest, ViTResult, compute, photo, request_of
from explorer.gui.elided import ElidedCombo
from explorer.gui.flow import FlowLayout, together
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import CurvePlot
from explorer.gui.lab.training import TrainingPage
from explorer.gui.labs.vision.pages import picture_error
from explorer.gui.labs.vision.picture_dialog import ask_for_picture
from explorer.gui.labs.vision.vit_curve import data_caption, data_curves, live_accuracies
from explorer.gui.labs.vision.vit_pictures import HeadBars, PatchMap
from explorer.gui.labs.vision.vit_shown import (
    chosen_map,
    cnn_map,
    distance_bars,
    distance_words,
    heads_words,
    notices,
    photo_map,
    photo_words,
    position_map,
    rollout_map,
    self_bars,
    shares,
    shown_tokens,
    summary,
)
from explorer.gui.labs.vision.vit_tokens import PatchTokens
from explorer.gui.labs.vision.vit_training import PairTraining
from explorer.gui.messages import ERROR_STYLE, NOTICE_STYLE
from explorer.gui.views.base import View, ViewContext
from explorer.vision.data_curve import SIZES, CurveError, CurveResult, shipped_result
from explorer.vision.photo_attention import DEFAULT_PATCH
from explorer.vision.vit import ViTConfig

CHANNEL, PHOTO_CHANNEL = "vit", "vit-photo"
CONFIG = ViTConfig()


class ViTView(View):
    TAB = "vit"
    STATE_EVENTS = ("lesson", "tab")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        self.lab: ViTState = self.state.labs["vit"]
        self.result: ViTResult | None = None
        self.photo = None  # a PhotoAttention
        self.photo_patch = 0
        self.tokens_shown = False  # the lesson's step on patches as tokens: its figure in the maps' place
        self._default_asked = False  # the generated picture asked for (on the Photo page's first showing)
        self._wanted: ViTRequest | None = None
        self.curve: CurveResult | None = None
        self.curve_error = ""
        self._curve_shown: tuple | None = None  # the live accuracies and caption on the Data page
        try:
            self.curve = shipped_result()
        except CurveError as exc:
            self.curve_error = str(exc)
        self._build()
        context.worker.listen(CHANNEL, self._on_result)
        context.worker.listen(PHOTO_CHANNEL, self._on_photo)
        lab = self.lab
        unsubscribe = lab.subscribe(self._on_lab)
        self.destroyed.connect(lambda *_: (unsubscribe(), lab.cancel_training()))
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(lab.stop_training)
        self.retranslate()
        self._sync_controls()
        self._apply_lesson()

    # -- building -----------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        self.banner = QtWidgets.QLabel()
        self.banner.setWordWrap(True)
        self.banner.setVisible(False)
        layout.addWidget(self.banner)
        row = FlowLayout()
        self.picture_label = QtWidgets.QLabel()
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, MAX_SEED)
        self.new_button = QtWidgets.QPushButton()
        self.load_button = QtWidgets.QPushButton()
        self.size_label = QtWidgets.QLabel()
        self.size = ElidedCombo(min_chars=8)  # as wide as the row gives it, the item elided
        for n in SIZES:
            self.size.addItem(f"{n:,}", n)
        self.map = ElidedCombo(min_chars=12)
        for kind in MAPS:
            self.map.addItem("", kind)
        self.layer = ElidedCombo(min_chars=8)
        for i in range(CONFIG.layers):
            self.layer.addItem("", i)
        self.head = ElidedCombo(min_chars=8)
        for i in range(CONFIG.heads):
            self.head.addItem("", i)
        # each label with its box: a wrap parts neither
        # the shipped models' size: hidden on the Train page, whose own box sets the live
        # pair's pictures (two "pictures" boxes there read as two settings of one thing)
        self.size_box = together(self.size_label, self.size)
        for w in (
            together(self.picture_label, self.seed),
            self.new_button,
            self.load_button,
            self.size_box,
        ):
            row.add(w)
        # the picture's row: hidden on the Data page, whose experiment is over every size and
        # 2,000 pictures (beside the lesson at 1024×768 the plot needs that height)
        self.picture_row = QtWidgets.QWidget()
        self.picture_row.setLayout(row)
        row.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.picture_row)
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.notice = QtWidgets.QLabel()
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(NOTICE_STYLE)
        self.notice.setVisible(False)
        layout.addWidget(self.notice)

        self.pages = QtWidgets.QTabWidget()
        self.pages.setDocumentMode(True)
        # looks: the ViT's map and the CNN's side by side, the shares under them
        looks = QtWidgets.QWidget()
        lv = QtWidgets.QVBoxLayout(looks)
        chooser = FlowLayout()  # the map's choices on its own page: the other pages get the row's height
        for w in (self.map, self.layer, self.head):
            chooser.add(w)
        lv.addLayout(chooser)
        maps = QtWidgets.QHBoxLayout()
        self.vit_map, self.cnn_map = PatchMap(), PatchMap()
        maps.addWidget(self.vit_map)
        maps.addWidget(self.cnn_map)
        self.tokens_view = PatchTokens()  # the lesson's "Patches as tokens" step, in the maps' place
        self.tokens_view.setVisible(False)
        maps.addWidget(self.tokens_view)
        lv.addLayout(maps, 1)
        self.shares = QtWidgets.QLabel()
        self.shares.setWordWrap(True)
        lv.addWidget(self.shares)
        # heads, 2×2: the distances over the self shares (their layers and heads aligned), the
        # position embeddings over the shipped experiment's numbers; no scrolling at a projector
        heads_page = QtWidgets.QWidget()
        hv = QtWidgets.QGridLayout(heads_page)
        self.distance_bars, self.self_bars = HeadBars(), HeadBars()
        self.position_map = PatchMap()
        self.heads_text = QtWidgets.QLabel()
        self.heads_text.setWordWrap(True)
        self.heads_text.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.heads_text.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        hv.addWidget(self.distance_bars, 0, 0)
        hv.addWidget(self.self_bars, 1, 0)
        hv.addWidget(self.position_map, 0, 1)
        hv.addWidget(self.heads_text, 1, 1)
        hv.setColumnStretch(0, 7)  # a label in a bar's pitch beside the lesson at 1024×768
        hv.setColumnStretch(1, 3)
        hv.setRowStretch(0, 1)
        hv.setRowStretch(1, 1)
        # data: the shipped experiment
        data = QtWidgets.QWidget()
        dv = QtWidgets.QVBoxLayout(data)
        self.data_plot = CurvePlot(self.context.style())
        self.data_plot.setMinimumHeight(160)  # beside the lesson at 1024×768 the caption needs the rest
        dv.addWidget(self.data_plot, 1)
        self.caption = QtWidgets.QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(QtCore.Qt.TextFormat.RichText)
        dv.addWidget(self.caption)
        # train: the live pair, the ViT's rollout beside the curves
        self.watched = PatchMap()
        self.train_page = TrainingPage(self.state, self.lab, PairTraining(), side=self.watched)
        self.train_size = ElidedCombo(min_chars=8)
        self.train_size.addItem("100", 100)
        self.train_size.addItem("1,000", 1000)
        self.train_size_label = QtWidgets.QLabel()
        train = QtWidgets.QWidget()
        tv = QtWidgets.QVBoxLayout(train)
        tv.setContentsMargins(0, 0, 0, 0)
        size_row = QtWidgets.QHBoxLayout()
        size_row.addWidget(self.train_size_label)
        size_row.addWidget(self.train_size)
        size_row.addStretch(1)
        tv.addLayout(size_row)
        tv.addWidget(self.train_page, 1)
        # photo: a photograph's own patches
        photo_page = QtWidgets.QWidget()
        pv = QtWidgets.QVBoxLayout(photo_page)
        photo_row = QtWidgets.QHBoxLayout()
        self.photo_button = QtWidgets.QPushButton()
        photo_row.addWidget(self.photo_button)
        photo_row.addStretch(1)
        pv.addLayout(photo_row)
        self.photo_map = PatchMap()
        pv.addWidget(self.photo_map, 1)
        self.photo_text = QtWidgets.QLabel()
        self.photo_text.setWordWrap(True)
        pv.addWidget(self.photo_text)

        self.page_widgets = {
            "looks": looks,
            "heads": heads_page,  # a projector shows every page whole: none scrolls
            "data": data,
            "train": train,
            "photo": photo_page,
        }
        assert tuple(self.page_widgets) == PAGES
        for widget in self.page_widgets.values():
            self.pages.addTab(widget, "")
        layout.addWidget(self.pages, 1)

        lab = self.lab
        self.seed.valueChanged.connect(lambda s: lab.generate(s))
        self.new_button.clicked.connect(lambda: self.seed.setValue(random.randint(0, 99_999)))
        self.load_button.clicked.connect(self.choose_file)
        self.photo_button.clicked.connect(self.choose_file)
        self.size.currentIndexChanged.connect(lambda _: lab.set_size(self.size.currentData()))
        self.map.currentIndexChanged.connect(lambda _: lab.set_map(self.map.currentData()))
        self.layer.currentIndexChanged.connect(lambda _: lab.set_layer(self.layer.currentData()))
        self.head.currentIndexChanged.connect(lambda _: lab.set_head(self.head.currentData()))
        self.pages.currentChanged.connect(lambda i: lab.set_page(PAGES[i]))
        self.pages.currentChanged.connect(self._ask_default_photo)
        self.train_size.currentIndexChanged.connect(
            lambda _: lab.set_train_size(self.train_size.currentData())
        )
        self.vit_map.patchClicked.connect(lab.select_patch)
        self.position_map.patchClicked.connect(lab.select_patch)
        self.photo_map.patchClicked.connect(self._on_photo_patch)

    def retranslate(self) -> None:
        self.picture_label.setText(translate("ViTView", "Picture:"))
        self.new_button.setText(translate("ViTView", "New picture"))
        self.load_button.setText(translate("ViTView", "Open photo…"))
        self.photo_button.setText(translate("ViTView", "Open photo…"))
        self.size_label.setText(translate("ViTView", "Trained on (pictures):"))
        self.train_size_label.setText(translate("ViTView", "Training pictures for both models:"))
        for i, text in enumerate(
            (
                translate("ViTView", "a patch's attention"),
                translate("ViTView", "CLS token's attention"),
                translate("ViTView", "rollout (all layers)"),
            )
        ):
            self.map.setItemText(i, text)
        for i in range(CONFIG.layers):
            self.layer.setItemText(i, translate("ViTView", "layer {0}").format(i + 1))
        for i in range(CONFIG.heads):
            self.head.setItemText(i, translate("ViTView", "head {0}").format(i + 1))
        titles = (
            translate("ViTView", "Where it looks"),
            translate("ViTView", "Heads"),
            translate("ViTView", "Data"),
            translate("ViTView", "Train"),
            translate("ViTView", "Photo"),
        )
        for i, title in enumerate(titles):
            self.pages.setTabText(i, title)
        self.heads_text.clear()  # its table is written once per language
        self._show()
        self._show_curve()
        self._show_photo()

    def restyle(self) -> None:
        self.data_plot.set_style(self.context.style())
        self.train_page.restyle()

    # -- the picture ------------------------------------------------------------------------------------
    def choose_file(self) -> None:
        path = ask_for_picture(self, translate("ViTView", "Open a photo"))
        if path:
            self.load_file(path)

    def load_file(self, path: str) -> None:
        """The photo through the models (resized, with a notice) and, with no model, its own patches."""
        self.lab.load(path)
        self.context.worker.submit(
            PHOTO_CHANNEL, lambda should_stop: (path, photo(path, should_stop)), cancellable=True
        )

    # -- computing --------------------------------------------------------------------------------------
    def request(self) -> None:
        if not self.is_shown():
            return
        wanted = request_of(self.lab)
        if (self.result is not None and self.result.request == wanted) or wanted == self._wanted:
            return
        self._wanted = wanted
        self.summary.setText(translate("ViTView", "Computing…"))
        self.context.worker.submit(
            CHANNEL, lambda should_stop: compute(wanted, should_stop), cancellable=True
        )

    def cancelled(self) -> None:
        self._wanted = None
        self.context.worker.cancel(CHANNEL)

    def activated(self) -> None:
        self.request()

    def draw(self, prepared):
        self.prepared, self.stale = prepared, False  # the text trace: this tab does not use it
        if self.result is not None:
            self.rendered.emit()
        return iter(())

    def _on_result(self, result) -> None:
        self._wanted = None
        if not result.ok:
            self._show_banner(picture_error(result.error), ERROR_STYLE)
            return
        if self.banner.styleSheet() == ERROR_STYLE:
            self.banner.setVisible(False)
        self.result = result.value
        self._show()
        self.request()  # the settings changed meanwhile: compute those

    def _ask_default_photo(self, index: int) -> None:
        """The Photo page shown before a photo was opened: the generated picture
        (explorer.vision.photo_attention.default_picture), a patch of its house selected, so the
        page opens on an attention map, never on an empty square."""
        if PAGES[index] != "photo" or self.photo is not None or self._default_asked:
            return
        self._default_asked = True
        self.context.worker.submit(
            PHOTO_CHANNEL, lambda should_stop: (None, photo(None, should_stop)), cancellable=True
        )

    def _on_photo(self, result) -> None:
        if not result.ok:
            self._show_banner(picture_error(result.error), ERROR_STYLE)
            return
        path, self.photo = result.value
        if path is None:  # the generated picture: its house's wall
            row, col = DEFAULT_PATCH
            self.photo_patch = row * self.photo.grid + col
        else:
            self.photo_patch = (self.photo.grid // 2) * self.photo.grid + self.photo.grid // 2
        self._show_photo()

    def _on_photo_patch(self, patch: int) -> None:
        self.photo_patch = patch
        self._show_photo()

    def _show_banner(self, text: str, style: str) -> None:
        self.banner.setText(text)
        self.banner.setStyleSheet(style)
        self.banner.setVisible(True)

    # -- the state ----------------------------------------------------------------------------------------
    def _on_lab(self, event: str, _lab) -> None:
        self._sync_controls()
        if event in ("picture", "model", "weights"):
            self.request()
        elif event == "selection":
            self._show()
        elif event == "page":
            self.request()
            self._show()  # the page's widgets were left as they were while it was hidden
            self._show_curve()
        elif event == "training" and self.lab.settings.page == "data":
            self._show_curve()  # the live squares: on the Data page, drawn when it is shown

    def on_state(self, event: str) -> None:
        if event == "tab" and self.is_shown():
            self.request()
        elif event == "lesson":
            self._apply_lesson()

    def _apply_lesson(self) -> None:
        step = STEPS[self.state.lesson_step]
        shows = SHOWS.get(step.stage) if self.state.lesson_visible and step.tab == self.TAB else None
        tokens = shows is not None and shows.tokens
        changed = tokens != self.tokens_shown
        self.tokens_shown = tokens
        if shows is not None:
            if shows.map is not None:
                self.lab.set_map(shows.map)
            self.lab.set_page(shows.page)
        if changed:  # steps 43 and 44 share a page and a map: no event of the lab's redraws it
            self._sync_controls()
            self._show()

    def _sync_controls(self) -> None:
        s = self.lab.settings
        widgets = (self.seed, self.size, self.map, self.layer, self.head, self.pages, self.train_size)
        for w in widgets:
            w.blockSignals(True)
        self.seed.setValue(s.seed)
        self.size.setCurrentIndex(max(0, self.size.findData(s.size)))
        self.map.setCurrentIndex(MAPS.index(s.map))
        self.layer.setCurrentIndex(s.layer)
        self.head.setCurrentIndex(s.head)
        self.pages.setCurrentIndex(PAGES.index(s.page))
        self.train_size.setCurrentIndex(max(0, self.train_size.findData(s.train_size)))
        for w in widgets:
            w.blockSignals(False)
        # the page set from the state (a lesson step, a session) sent no currentChanged
        self._ask_default_photo(self.pages.currentIndex())
        about_the_picture = s.page != "data"
        self.picture_row.setVisible(about_the_picture)
        self.size_box.setVisible(s.page != "train")
        self.summary.setVisible(about_the_picture)
        self.notice.setVisible(about_the_picture and bool(self.notice.text()))
        for w in (self.vit_map, self.cnn_map, self.map, self.layer, self.head):
            w.setVisible(not self.tokens_shown)
        self.tokens_view.setVisible(self.tokens_shown)
        rollout = s.map == "rollout"  # the rollout mixes every layer and head
        self.layer.setEnabled(not rollout)
        self.head.setEnabled(not rollout)

    # -- drawing the result -------------------------------------------------------------------------------
    def _show(self) -> None:
        """The result on the page shown (and the words above the pages); another page is drawn
        when it is shown: while the pair trains, each snapshot redraws only the rollout beside
        the curves."""
        result = self.result
        if result is None:
            return
        s = self.lab.settings
        self.summary.setText(summary(result, s.size))
        said = notices(s, result)
        self.notice.setText("\n".join(said))
        self.notice.setVisible(bool(said) and s.page != "data")
        if s.page == "looks" and self.tokens_shown:
            shown_tokens(result).on(self.tokens_view)
            self.shares.setText("")
        elif s.page == "looks":
            shown = chosen_map(s, result)
            shown.on(self.vit_map)
            cnn_map(result).on(self.cnn_map)
            self.shares.setText(shares(s, result, shown))
        elif s.page == "heads":
            self._show_heads()
        elif s.page == "train":
            rollout_map(result).on(self.watched)
        if self.context.current() is not None:
            self.rendered.emit()

    def _show_heads(self) -> None:
        if self.result is None:
            return
        distance_bars(self.result).on(self.distance_bars)
        self_bars(self.result).on(self.self_bars)
        position_map(self.lab.settings, self.result).on(self.position_map)
        if not self.heads_text.text():  # the shipped experiment's numbers: the same for every picture
            self.heads_text.setText(heads_words(self.curve))
            self.distance_bars.setToolTip(distance_words(self.curve))

    def _show_curve(self) -> None:
        if self.lab.settings.page != "data":
            return  # drawn when the page is shown
        if self.curve is None:
            self.caption.setText(
                translate("ViTView", "The shipped experiment cannot be read: {0}").format(self.curve_error)
            )
            return
        live = live_accuracies(self.lab)
        caption = data_caption(self.curve, bool(live))
        if (live, caption) == self._curve_shown:
            return  # a training event that changed neither: the plot is not redrawn
        self._curve_shown = (live, caption)
        self.data_plot.set_curves(data_curves(self.curve, 1 / len(CONFIG.classes), live))
        self.caption.setText("<br>".join(caption))

    def _show_photo(self) -> None:
        if self.photo is None:
            self.photo_map.show_map(None, None, None, "")
            self.photo_text.setText(
                translate(
                    "ViTView",
                    "Open a photo: its patches attend to each other with no trained model, each "
                    "described by its colour, brightness spread and edges (Q = K = V). Click a patch "
                    "to see which parts of the photo resemble it.",
                )
            )
            return
        photo_map(self.photo, self.photo_patch).on(self.photo_map)
        self.photo_text.setText(photo_words(self.photo))
