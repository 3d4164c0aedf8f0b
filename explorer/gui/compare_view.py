"""Compare mode: configuration A (the current one) beside B (A with a few options changed).

The view shows the selected head's weights for A and B and the difference B − A on a
diverging colour map centred at 0. Both traces come from the engine on the worker (the
window's "compare" channel); the view only lays out the arrays it is given.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from explorer.core.config import SCORINGS, AttentionConfig
from explorer.core.trace import AttentionTrace
from explorer.gui.old_heatmap import Heatmap, symmetric_levels

SAME = "same"


def describe(config: AttentionConfig, short: bool = False) -> str:
    translate = QtCore.QCoreApplication.translate
    scale = {
        "sqrt": "÷√d_k",
        "none": translate("CompareView", "no scaling"),
        "temperature": f"τ = {config.temperature:g}",
    }[config.scale]
    if short:
        return f"{config.scoring}, {config.attention}, {scale}"
    return f"{config.scoring}, {config.attention}, {scale}, " + translate("CompareView", "mask {0}").format(
        config.mask
    )


class CompareView(QtWidgets.QWidget):
    """Options for B, then three heatmaps: A, B and B − A."""

    changed = QtCore.Signal()  # B's options changed: ask for a new pair of traces
    cellSelected = QtCore.Signal(int, int)
    rendered = QtCore.Signal()  # a pair of traces was drawn

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QtWidgets.QHBoxLayout()
        self.b_label = QtWidgets.QLabel()
        bar.addWidget(self.b_label)
        self.scoring = QtWidgets.QComboBox()
        for name in (SAME,) + tuple(SCORINGS):
            self.scoring.addItem("", name)
        self.attention = QtWidgets.QComboBox()
        for name in (SAME, "soft", "hard", "sample"):
            self.attention.addItem("", name)
        self.tau_box = QtWidgets.QCheckBox()
        self.tau = QtWidgets.QDoubleSpinBox()
        self.tau.setRange(0.01, 10.0)
        self.tau.setDecimals(2)
        self.tau.setSingleStep(0.1)
        self.tau.setValue(0.1)
        self.mask = QtWidgets.QComboBox()
        for name in (SAME, "none", "causal"):
            self.mask.addItem("", name)
        for w in (self.scoring, self.attention, self.tau_box, self.tau, self.mask):
            bar.addWidget(w)
        bar.addStretch(1)
        layout.addLayout(bar)
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.graphics = pg.GraphicsLayoutWidget()
        layout.addWidget(self.graphics, 1)
        self.map_a = Heatmap(self.graphics.ci, 0, 0)
        self.map_b = Heatmap(self.graphics.ci, 0, 1)
        self.map_diff = Heatmap(self.graphics.ci, 0, 2)
        self.maps = {"A": self.map_a, "B": self.map_b, "diff": self.map_diff}
        for hm in self.maps.values():
            hm.selected.connect(self.cellSelected)
            hm.plot.getAxis("left").setWidth(80)  # room for the token labels from the start
        self.attention.setCurrentIndex(self.attention.findData("hard"))  # soft vs hard to start
        for combo in (self.scoring, self.attention, self.mask):
            combo.currentIndexChanged.connect(lambda _: self.changed.emit())
        self.tau_box.toggled.connect(lambda _: self.changed.emit())
        self.tau.valueChanged.connect(lambda _: self.tau_box.isChecked() and self.changed.emit())
        self.trace_a: AttentionTrace | None = None
        self.trace_b: AttentionTrace | None = None
        self.head = 0
        self.difference: np.ndarray | None = None
        self.retranslate()

    def retranslate(self) -> None:
        """Every text in the interface language (the window calls this on a language switch)."""
        self.b_label.setText(self.tr("B = A with"))
        same = {
            self.scoring: self.tr("same scoring"),
            self.attention: self.tr("same attention"),
            self.mask: self.tr("same mask"),
        }
        named = {
            self.scoring: self.tr("scoring: {0}"),
            self.attention: self.tr("attention: {0}"),
            self.mask: self.tr("mask: {0}"),
        }
        for combo in (self.scoring, self.attention, self.mask):
            for i in range(combo.count()):
                name = combo.itemData(i)
                combo.setItemText(i, same[combo] if name == SAME else named[combo].format(name))
        self.scoring.setToolTip(self.tr("The scoring function of B (dot, cosine, additive, general)"))
        self.attention.setToolTip(self.tr("Soft (softmax), hard (one-hot at the best key) or sampled for B"))
        self.tau_box.setText(self.tr("τ ="))
        self.tau_box.setToolTip(self.tr("Divide B's scores by the temperature τ instead of A's scaling"))
        if self.trace_a is not None and self.trace_b is not None:
            self.show_pair(self.trace_a, self.trace_b, self.head, self.map_a.selection)
        else:
            self.summary.setText(self.tr("Compare two settings of the same inputs."))

    # -- B's configuration ----------------------------------------------------------
    def changes(self) -> dict:
        out = {}
        for key, combo in (("scoring", self.scoring), ("attention", self.attention), ("mask", self.mask)):
            if combo.currentData() != SAME:
                out[key] = combo.currentData()
        if self.tau_box.isChecked():
            out.update(scale="temperature", temperature=round(self.tau.value(), 4))
        return out

    def set_changes(self, **changes) -> None:
        """Set B's options from code (tests, command line): keys scoring, attention, mask, temperature."""
        widgets = (self.scoring, self.attention, self.mask, self.tau_box, self.tau)
        for w in widgets:
            w.blockSignals(True)
        for key, combo in (("scoring", self.scoring), ("attention", self.attention), ("mask", self.mask)):
            combo.setCurrentIndex(combo.findData(changes.get(key, SAME)))
        self.tau_box.setChecked("temperature" in changes)
        if "temperature" in changes:
            self.tau.setValue(float(changes["temperature"]))
        for w in widgets:
            w.blockSignals(False)
        self.changed.emit()

    def config_b(self, a: AttentionConfig) -> AttentionConfig:
        return a.with_(**self.changes())

    # -- drawing ---------------------------------------------------------------------
    def show_message(self, text: str) -> None:
        self.summary.setText(text)

    def show_pair(
        self, a: AttentionTrace, b: AttentionTrace, head: int, cell: tuple[int, int] | None
    ) -> None:
        self.trace_a, self.trace_b = a, b
        self.head = min(head, a.heads - 1, b.heads - 1)
        h = self.head
        wa, wb = a.weights[h], b.weights[h]
        self.difference = wb - wa
        hidden_a, hidden_b = ~a.mask, ~b.mask
        self.map_a.set_matrix(
            wa,
            a.tokens_query,
            a.tokens_key,
            kind="weights",
            hidden=hidden_a,
            title=self.tr("A: {0}").format(describe(a.config, short=True)),
        )
        self.map_b.set_matrix(
            wb,
            b.tokens_query,
            b.tokens_key,
            kind="weights",
            hidden=hidden_b,
            title=self.tr("B: {0}").format(describe(b.config, short=True)),
        )
        self.map_diff.set_matrix(
            self.difference,
            a.tokens_query,
            a.tokens_key,
            kind="diverging",
            levels=symmetric_levels(self.difference),
            title=self.tr("B − A (red: more in B)"),
        )
        peak = float(np.abs(self.difference).max()) if self.difference.size else 0.0
        i, j = (
            np.unravel_index(int(np.abs(self.difference).argmax()), self.difference.shape)
            if self.difference.size
            else (0, 0)
        )
        self.summary.setText(
            self.tr(
                "Head {5}.  A = {0}.  B = {1}.  Largest change: {2:.4f} at query “{3}”, key “{4}”."
            ).format(describe(a.config), describe(b.config), peak, a.tokens_query[i], a.tokens_key[j], h)
        )
        self.set_selection(cell)

    def set_selection(self, cell: tuple[int, int] | None) -> None:
        for hm in self.maps.values():
            hm.set_selection(cell)
