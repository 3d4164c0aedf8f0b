"""The Model overview tab: a layers × heads grid of attention-weight thumbnails.

Every layer is computed on the worker (channel "overview") when the tab is shown; huge
weights are block-reduced there. Click a thumbnail to open that layer and head in the
pipeline.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.display import reduce_for_display
from explorer.core.config import AttentionConfig, ConfigError
from explorer.gui import theme
from explorer.gui.heatmap import Figure, MatrixCanvas, format_value
from explorer.gui.heatmap.figure import Mark
from explorer.gui.i18n import translate
from explorer.gui.messages import error_message
from explorer.gui.views import stages
from explorer.gui.views.base import FigureSource, NothingToExport, View, ViewContext

OVERVIEW_LIMIT = 128  # cells a side of a thumbnail
EXPORT_SIZE = QtCore.QSize(1400, 800)


def overview_key(config: AttentionConfig) -> AttentionConfig:
    return config.with_(layer=0)  # every layer of the same inputs


def layer_weights(engine, config: AttentionConfig, should_stop=None) -> np.ndarray:
    """[layers, heads, n_q, n_k], reduced to thumbnails on the worker."""
    return reduce_for_display(engine.layer_weights(config, should_stop), OVERVIEW_LIMIT, "max")


def overview_marks(layers: int, heads: int, selected: tuple[int, int]) -> dict[int, Mark]:
    layer, head = selected
    if 0 <= layer < layers and 0 <= head < heads:
        return {layer * heads + head: Mark(QtGui.QColor(theme.SELECTED), 3)}
    return {}


def overview_figure(weights: np.ndarray, tokens_query, tokens_key, selected: tuple[int, int]) -> Figure:
    layers, heads = weights.shape[:2]
    panels = stages.overview_panels(weights, tokens_query, tokens_key)
    return Figure(
        panels,
        columns=heads,
        shared_bar=True,
        axes=False,
        col_headers=[translate("ModelOverview", "head {h}").format(h=h) for h in range(heads)],
        short_col_headers=[str(h) for h in range(heads)],  # a narrow grid: the numbers
        row_headers=[translate("ModelOverview", "layer {n}").format(n=n) for n in range(layers)],
        marks=overview_marks(layers, heads, selected),
    )


class OverviewView(View):
    TAB = "overview"
    STATE_EVENTS = ("config", "head", "tab")

    def __init__(self, context: ViewContext, parent=None):
        super().__init__(context, parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.info = QtWidgets.QLabel()
        self.info.setWordWrap(True)
        layout.addWidget(self.info)
        self.canvas = MatrixCanvas(style=context.style())
        layout.addWidget(self.canvas, 1)
        self.canvas.clicked.connect(self._on_click)
        self.canvas.hovered.connect(self._on_hover)
        self.weights: np.ndarray | None = None  # [layers, heads, n_q, n_k] as drawn
        self.weights_for: AttentionConfig | None = None
        self._wanted: AttentionConfig | None = None
        self._result = None  # a result that waits for the first trace (its tokens label it)
        context.worker.listen("overview", self._on_result)
        self.retranslate()

    # -- computing ---------------------------------------------------------------------------
    def draw(self, prepared):
        self.prepared, self.stale = prepared, False
        if self._result is not None:
            result, self._result = self._result, None
            self._on_result(result)
        self.request()
        return iter(())

    def activated(self) -> None:
        self.request()

    def on_state(self, event: str) -> None:
        if event == "config" and self.is_shown():
            self.request()
        elif event == "tab" and self.is_shown():
            self.request()
        elif event == "head" and self.weights is not None:
            self.canvas.set_marks(overview_marks(*self.weights.shape[:2], self._selected()))

    def request(self) -> None:
        key = overview_key(self.state.config)
        if key in (self.weights_for, self._wanted):
            return
        self._wanted = key
        self.info.setText(translate("ModelOverview", "Computing every layer and head…"))
        engine, config = self.context.engine, self.state.config
        self.context.worker.submit(
            "overview",
            lambda should_stop: (key, layer_weights(engine, config, should_stop)),
            cancellable=True,
        )

    def cancelled(self) -> None:
        self._wanted = None

    def _on_result(self, result) -> None:
        if result.ok and self.context.current() is None:
            self._result = result  # the first trace is on its way: its tokens label the thumbnails
            return
        self._wanted = None
        if not result.ok:
            self.info.setText(error_message(result.error))
            return
        key, weights = result.value
        if key != overview_key(self.state.config):  # the inputs changed meanwhile
            if self.is_shown():
                self.request()
            return
        self.weights_for, self.weights = key, weights
        self._show()

    def _selected(self) -> tuple[int, int]:
        return (self.state.config.layer, self.state.selected_head)

    def _show(self) -> None:
        trace = self.context.current().trace
        self.canvas.set_figure(
            overview_figure(self.weights, trace.tokens_query, trace.tokens_key, self._selected())
        )
        layers, heads = self.weights.shape[:2]
        source = trace.model_name or translate("ModelOverview", "these weights")
        self.info.setText(
            translate(
                "ModelOverview",
                "{source}: attention weights of {layers} layer(s) × {heads} heads for {nq}×{nk} tokens. "
                "Click one to open it in the pipeline.",
            ).format(source=source, layers=layers, heads=heads, nq=trace.n_query, nk=trace.n_key)
        )
        self.canvas.repaint()
        self.rendered.emit()

    # -- the user ------------------------------------------------------------------------------
    def _on_click(self, index: int, r: int, c: int) -> None:
        heads = self.weights.shape[1]
        layer, head = divmod(index, heads)
        if layer != self.state.config.layer:
            try:
                self.state.update_config(layer=layer)
            except ConfigError:  # a layer the model lacks
                return
        self.state.select_head(head)
        self.state.set_tab("pipeline")

    def _on_hover(self, index: int, r: int, c: int) -> None:
        if index < 0 or self.weights is None:
            return
        layer, head = divmod(index, self.weights.shape[1])
        panel = self.canvas.panels[index]
        value = format_value(self.weights[layer, head, r, c])
        self.info.setText(
            translate("ModelOverview", "layer {layer}, head {head}").format(layer=layer, head=head)
            + f" — {panel.row_name(r)}, {panel.col_name(c)}: {value}"
        )

    def restyle(self) -> None:
        self.canvas.set_style(self.context.style())

    def retranslate(self) -> None:
        if self.weights is None:
            self.info.setText(
                translate(
                    "ModelOverview",
                    "Attention weights of every layer and head for the current sentence. "
                    "Click one to open it in the pipeline.",
                )
            )
        elif self.context.current() is not None:
            self._show()


def figures(context: ViewContext) -> dict[str, FigureSource]:
    view = context.view(OverviewView.TAB)

    def build():
        prepared = context.current()
        if prepared is None:
            raise NothingToExport(
                translate("ModelOverview", "Nothing to export yet: no result has been computed")
            )
        state = context.state
        key = overview_key(state.config)
        if view is not None and view.weights_for == key:
            weights = view.weights
        else:  # not computed on the worker yet: compute it now, the user asked for it
            weights = layer_weights(context.engine, state.config)
        figure = overview_figure(
            weights,
            prepared.trace.tokens_query,
            prepared.trace.tokens_key,
            (state.config.layer, state.selected_head),
        )
        shown = view is not None and view.isVisible() and view.canvas.width() > 100
        return figure, (view.canvas.size() if shown else EXPORT_SIZE)

    return {"overview": FigureSource(translate("ModelOverview", "Model overview"), build)}
