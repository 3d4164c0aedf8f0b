"""The Compare tab: configuration A (the current one) beside B (A with a few options changed).

It shows the selected head's weights for A and B and the difference B − A on a diverging
colour map centred at 0. B's options are the ExplorerState's ``compare``; both traces
come from the engine on the worker (channel "compare") while the tab is shown.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.appstate.display import ComparedPair, compare_pair
from explorer.appstate.state import CompareOptions
from explorer.core.config import ATTENTIONS, SCORINGS, UNSIZED_MASKS, AttentionConfig, ConfigError
from explorer.gui.core_text import error_text
from explorer.gui.elided import ElidedCombo
from explorer.gui.heatmap import Figure, MatrixCanvas
from explorer.gui.i18n import translate
from explorer.gui.messages import error_message
from explorer.gui.options import option_label
from explorer.gui.views import stages
from explorer.gui.views.base import FigureSource, NothingToExport, View, ViewContext
from explorer.gui.views.zoom_bar import ZoomBar

SAME = "same"
EXPORT_SIZE = QtCore.QSize(1500, 520)
STAGE_EXPORT_SIZE = QtCore.QSize(520, 440)


def describe(config: AttentionConfig, short: bool = False, causal: bool = False) -> str:
    """The options in words; ``causal``: the model was trained with a causal mask, named so."""
    scale = {
        "sqrt": "÷√d_k",
        "none": translate("CompareView", "no scaling"),
        "temperature": f"τ = {config.temperature:g}",
    }[config.scale]
    scoring = option_label("scoring", config.scoring)
    attention = option_label("attention", config.attention)
    if short:
        return f"{scoring}, {attention}, {scale}"
    if causal and config.mask_spec.kind in ("model", "causal"):
        return f"{scoring}, {attention}, {scale}, " + translate("CompareView", "causal mask as trained")
    return f"{scoring}, {attention}, {scale}, " + translate("CompareView", "mask {0}").format(
        option_label("mask", config.mask)
    )


def short(token: str, limit: int = 24) -> str:
    """A token as a sentence quotes it: a very long one cut ("…")."""
    return token if len(token) <= limit else token[: limit - 1] + "…"


def compare_figure(pair: ComparedPair, head: int, cell, zoom=None, caption: bool = False) -> Figure:
    a, b = pair.a, pair.b
    head = min(head, a.heads - 1, b.heads - 1)
    titles = (
        translate("CompareView", "A: {0}").format(describe(a.config, short=True)),
        translate("CompareView", "B: {0}").format(describe(b.config, short=True)),
        translate("CompareView", "B − A (red: more in B)"),
    )
    return Figure(
        stages.compare_panels(pair, head, titles),
        columns=3,
        selection=cell,
        zoom=zoom,
        zoomable=True,
        zoom_caption=caption,
    )


class CompareView(View):
    TAB = "compare"
    STATE_EVENTS = ("config", "compare", "head", "cell", "tab", "matrix_zoom")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QtWidgets.QHBoxLayout()
        self.b_label = QtWidgets.QLabel()
        bar.addWidget(self.b_label)
        self.scoring = ElidedCombo(min_chars=6)
        for name in (SAME, *SCORINGS):
            self.scoring.addItem("", name)
        self.attention = ElidedCombo(min_chars=6)
        for name in (SAME, *ATTENTIONS):
            self.attention.addItem("", name)
        self.tau_box = QtWidgets.QCheckBox()
        self.tau = QtWidgets.QDoubleSpinBox()
        self.tau.setRange(0.01, 10.0)
        self.tau.setDecimals(2)
        self.tau.setSingleStep(0.1)
        self.tau.setValue(0.1)
        self.mask = ElidedCombo(min_chars=6)
        for name in (SAME, *UNSIZED_MASKS):
            self.mask.addItem("", name)
        for w in (self.scoring, self.attention):
            bar.addWidget(w, 1)
        bar.addStretch(0)
        layout.addLayout(bar)
        second = QtWidgets.QHBoxLayout()  # a second row: the bar fits a projector's 1024 px
        for w in (self.mask, self.tau_box, self.tau):
            second.addWidget(w)
        self.zoom_bar = ZoomBar(self.state)
        second.addWidget(self.zoom_bar, 1)
        second.addStretch(0)
        layout.addLayout(second)
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        # a pasted 300-letter token cannot wrap: it must not widen the window either
        self.summary.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred
        )
        layout.addWidget(self.summary)
        self.canvas = MatrixCanvas(style=context.style())
        layout.addWidget(self.canvas, 1)
        self.canvas.clicked.connect(self._on_click)
        self.canvas.zoomRequested.connect(self.state.set_matrix_zoom)
        self.pair: ComparedPair | None = None  # the pair on screen
        self._wanted = None
        self._show_options()
        for combo in (self.scoring, self.attention, self.mask):
            combo.currentIndexChanged.connect(self._edited)
        self.tau_box.toggled.connect(self._edited)
        self.tau.valueChanged.connect(lambda _: self.tau_box.isChecked() and self._edited())
        context.worker.listen("compare", self._on_result)
        self.retranslate()

    # -- B's options <-> the state --------------------------------------------------------------
    def _edited(self, *_) -> None:
        changes = {}
        for key, combo in (("scoring", self.scoring), ("attention", self.attention), ("mask", self.mask)):
            if combo.currentData() != SAME:
                changes[key] = combo.currentData()
        if self.tau_box.isChecked():
            changes["temperature"] = round(self.tau.value(), 4)
        self.state.set_compare(CompareOptions.from_changes(**changes))

    def _show_options(self) -> None:
        options = self.state.compare
        widgets = (self.scoring, self.attention, self.mask, self.tau_box, self.tau)
        for w in widgets:
            w.blockSignals(True)
        for combo, value in (
            (self.scoring, options.scoring),
            (self.attention, options.attention),
            (self.mask, options.mask),
        ):
            index = combo.findData(value if value is not None else SAME)
            if index < 0:  # an option this picker does not list (a session, the command line)
                combo.addItem(value, value)
                index = combo.count() - 1
            combo.setCurrentIndex(index)
        self.tau_box.setChecked(options.temperature is not None)
        if options.temperature is not None:
            self.tau.setValue(options.temperature)
        for w in widgets:
            w.blockSignals(False)

    # -- computing -------------------------------------------------------------------------------
    def activated(self) -> None:
        self.request()

    def draw(self, prepared):
        self.prepared, self.stale = prepared, False
        self.request()
        return iter(())

    def key(self) -> tuple[AttentionConfig, AttentionConfig]:
        return (self.state.config, self.state.compare_config())

    def request(self) -> None:
        try:
            key = self.key()
        except ConfigError as exc:
            self.summary.setText(
                translate("CompareView", "B cannot be computed: {0}").format(error_text(exc))
            )
            return
        if self.pair is not None and key == self.pair.key or key == self._wanted:
            return
        self._wanted = key
        self.summary.setText(translate("CompareView", "Computing A and B…"))
        engine = self.context.engine
        self.context.worker.submit(
            "compare",
            lambda should_stop: compare_pair(engine, *key, should_stop=should_stop),
            cancellable=True,
        )

    def cancelled(self) -> None:
        self._wanted = None

    def _on_result(self, result) -> None:
        self._wanted = None
        if not result.ok:
            self.summary.setText(error_message(result.error))
            return
        self.pair = result.value
        self._show()
        try:
            current = self.key()
        except ConfigError:
            return
        if current != self.pair.key and self.is_shown():
            self.request()  # something changed meanwhile

    def on_state(self, event: str) -> None:
        if event == "compare":
            self._show_options()
        if event in ("config", "compare", "tab"):
            if self.is_shown():
                self.request()
        elif event == "head" and self.pair is not None:
            self._show()
        elif event == "cell":
            self.canvas.set_selection(self.state.selected_cell)
        elif event == "matrix_zoom":
            self.canvas.set_zoom(self.state.matrix_zoom)
            self.zoom_bar.show_zoom(self.canvas.zoom_shape())

    def zoom_key(self, key: int, modifiers) -> bool:
        return self.canvas.zoom_key(key, modifiers)

    # -- drawing -------------------------------------------------------------------------------------
    @property
    def difference(self) -> np.ndarray | None:
        return None if self.pair is None else np.asarray(self.canvas.panels[2].data)

    def _show(self) -> None:
        a, b = self.pair.a, self.pair.b
        figure = compare_figure(
            self.pair, self.state.selected_head, self.state.selected_cell, self.state.matrix_zoom
        )
        self.canvas.set_figure(figure)
        self.zoom_bar.show_zoom(self.canvas.zoom_shape())
        diff = figure.panels[2].shown  # the picture of a large difference: its extremes are kept
        h = min(self.state.selected_head, a.heads - 1, b.heads - 1)
        peak = float(np.abs(diff).max()) if diff.size else 0.0
        i, j = np.unravel_index(int(np.abs(diff).argmax()), diff.shape) if diff.size else (0, 0)
        if figure.panels[2].reduced:  # a block of tokens: name its first
            i = i * a.n_query // diff.shape[0]
            j = j * a.n_key // diff.shape[1]
        self.summary.setText(
            translate(
                "CompareView",
                "Head {5}.  A = {0}.  B = {1}.  Largest change: {2:.4f} at query “{3}”, key “{4}”.",
            ).format(
                describe(a.config, causal=a.causal),
                describe(b.config, causal=b.causal),
                peak,
                short(a.tokens_query[i]),
                short(a.tokens_key[j]),
                h,
            )
        )
        self.canvas.repaint()
        self.rendered.emit()

    def _on_click(self, index: int, r: int, c: int) -> None:
        self.state.select_cell((r, c))

    def restyle(self) -> None:
        self.canvas.set_style(self.context.style())

    def retranslate(self) -> None:
        self.b_label.setText(translate("CompareView", "B = A with"))
        same = {
            self.scoring: translate("CompareView", "same scoring"),
            self.attention: translate("CompareView", "same attention"),
            self.mask: translate("CompareView", "same mask"),
        }
        named = {
            self.scoring: translate("CompareView", "scoring: {0}"),
            self.attention: translate("CompareView", "attention: {0}"),
            self.mask: translate("CompareView", "mask: {0}"),
        }
        for combo in (self.scoring, self.attention, self.mask):
            for i in range(combo.count()):
                name = combo.itemData(i)
                kind = {self.scoring: "scoring", self.attention: "attention", self.mask: "mask"}[combo]
                label = option_label(kind, name)
                combo.setItemText(i, same[combo] if name == SAME else named[combo].format(label))
        self.scoring.setToolTip(
            translate("CompareView", "The scoring function of B (dot, cosine, additive, general)")
        )
        self.attention.setToolTip(
            translate("CompareView", "Soft (softmax), hard (one-hot at the best key) or sampled for B")
        )
        self.tau_box.setText(translate("CompareView", "τ ="))
        self.tau_box.setToolTip(
            translate("CompareView", "Divide B's scores by the temperature τ instead of A's scaling")
        )
        if self.pair is not None:
            self._show()
        else:
            self.summary.setText(translate("CompareView", "Compare two settings of the same inputs."))


def figures(context: ViewContext) -> dict[str, FigureSource]:
    view = context.view(CompareView.TAB)

    def pair() -> ComparedPair:
        if view is not None and view.pair is not None:  # what the tab shows
            return view.pair
        prepared = context.current()  # else A is the trace on screen, and B is computed now
        if prepared is None:
            raise NothingToExport(
                translate("CompareView", "Nothing to export yet: no result has been computed")
            )
        a = prepared.trace.config
        try:
            b = context.state.compare.config_b(a)
        except ConfigError as exc:
            raise NothingToExport(
                translate("CompareView", "B cannot be computed: {0}").format(error_text(exc))
            ) from None
        return compare_pair(context.engine, a, b)

    def make(index: int | None):
        def build():
            state = context.state  # a zoomed view as shown, its titles saying which cells
            figure = compare_figure(pair(), state.selected_head, state.selected_cell, state.matrix_zoom, True)
            if index is None:
                shown = view is not None and view.isVisible() and view.canvas.width() > 100
                return figure, (view.canvas.size() if shown else EXPORT_SIZE)
            figure.panels = [figure.panels[index]]
            figure.columns = 1
            return figure, STAGE_EXPORT_SIZE

        return build

    out = {"compare": FigureSource(translate("CompareView", "Compare: A, B and B − A"), make(None))}
    for index, name in enumerate(("A", "B", "diff")):
        label = translate("CompareView", "B − A") if name == "diff" else name
        out[f"compare:{name}"] = FigureSource(
            translate("CompareView", "Compare: {0}").format(label), make(index)
        )
    return out
