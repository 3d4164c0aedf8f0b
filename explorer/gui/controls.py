"""Inputs and every option of the core, each with a tooltip saying what it changes."""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.presets import PRESET_CONTEXT, PRESETS
from explorer.core.config import AttentionConfig, MaskSpec
from explorer.core.device import device_reasons

TAU_MIN_LOG, TAU_MAX_LOG, TAU_STEPS = -2.0, 1.0, 300  # τ from 0.01 to 10 on a log scale
OPEN_FOLDER = "open"
MAX_TEXT_CHARS = 1_000_000  # a pasted page is kept whole; the engine cuts tokens and says so

SCORING_TIPS = {
    "dot": "score = q·k: large when query and key point the same way and are long",
    "cosine": "score = q·k / (|q||k|): only the angle counts, from -1 to 1",
    "additive": "Bahdanau: score = vᵀ tanh(W₁q + W₂k) with seeded, untrained W₁, W₂, v",
    "general": "Luong: score = qᵀ W k with a seeded, untrained W",
}


def tau_to_slider(tau: float) -> int:
    pos = (math.log10(max(tau, 1e-9)) - TAU_MIN_LOG) / (TAU_MAX_LOG - TAU_MIN_LOG)
    return int(round(min(max(pos, 0.0), 1.0) * TAU_STEPS))


def slider_to_tau(value: int) -> float:
    return round(10 ** (TAU_MIN_LOG + (TAU_MAX_LOG - TAU_MIN_LOG) * value / TAU_STEPS), 4)


class Controls(QtWidgets.QWidget):
    """Emits ``edited`` on every change; ``read_config`` turns the widgets into a config."""

    edited = QtCore.Signal()
    presetChosen = QtCore.Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._model_dir: str | None = None
        self._heads_auto = True  # heads follow the model until the user picks a count
        self._updating = False
        form = QtWidgets.QFormLayout(self)
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)

        self.preset = QtWidgets.QComboBox()
        self.preset.addItem("Choose an example…", -1)
        for i, _preset in enumerate(PRESETS):
            self.preset.addItem("", i)  # names and descriptions: _fill_presets, in the interface language
        self.preset.setToolTip("Load a ready-made example: it sets the texts and the options it is about")
        self.preset.activated.connect(self._on_preset)
        form.addRow("Example", self.preset)

        self.query = QtWidgets.QLineEdit()
        self.query.setMaxLength(MAX_TEXT_CHARS)  # Qt's default 32,767 would cut a pasted page silently
        self.query.setPlaceholderText("empty: the sentence attends to itself")
        self.query.setToolTip(
            "The tokens that ask (rows of Q). Leave empty for self-attention; "
            "fill it for cross-attention over the sentence."
        )
        form.addRow("&Query", self.query)
        self.sentence = QtWidgets.QLineEdit()
        self.sentence.setMaxLength(MAX_TEXT_CHARS)  # Qt's default 32,767 would cut a pasted page silently
        self.sentence.setToolTip(
            "The tokens that answer: keys (K) and values (V) come from this text (Ctrl+L)"
        )
        form.addRow("&Sentence", self.sentence)

        self.scoring = QtWidgets.QComboBox()
        for name, tip in SCORING_TIPS.items():
            self.scoring.addItem(name, name)
            self.scoring.setItemData(self.scoring.count() - 1, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
        self.scoring.setToolTip(
            "How a query and a key become one score: "
            + "; ".join(f"{k}: {v}" for k, v in SCORING_TIPS.items())
        )
        form.addRow("Scoring", self.scoring)

        self.scale = QtWidgets.QComboBox()
        for name, text in (("sqrt", "÷ √d_k"), ("temperature", "÷ τ (temperature)"), ("none", "none")):
            self.scale.addItem(text, name)
        self.scale.setToolTip(
            "What divides the scores before the softmax: √d_k keeps dot products "
            "of long vectors from saturating it; τ sets the sharpness by hand"
        )
        form.addRow("Scaling", self.scale)
        tau_row = QtWidgets.QHBoxLayout()
        self.tau = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.tau.setRange(0, TAU_STEPS)
        self.tau.setValue(tau_to_slider(1.0))
        self.tau.setToolTip(
            "Temperature τ (0.01 to 10, log scale): scores are divided by τ. "
            "Small τ: sharp, almost one-hot weights; large τ: flat weights. "
            "Moving it switches scaling to τ."
        )
        self.tau_label = QtWidgets.QLabel("τ = 1")
        self.tau_label.setMinimumWidth(60)
        tau_row.addWidget(self.tau, 1)
        tau_row.addWidget(self.tau_label)
        form.addRow("τ", tau_row)

        self.heads = QtWidgets.QComboBox()
        self.heads.setToolTip(
            "How many heads split the model width: each head gets width/heads "
            "columns of Q, K and V. Only counts that divide the width are offered."
        )
        form.addRow("Heads", self.heads)

        att_row = QtWidgets.QHBoxLayout()
        self.attention = QtWidgets.QComboBox()
        for name, tip in (
            ("soft", "softmax: every visible key gets a share of the weight"),
            ("hard", "all the weight goes to the best-scoring key of each row"),
            ("sample", "one key per row drawn at random from the softmax (seeded)"),
        ):
            self.attention.addItem(name, name)
            self.attention.setItemData(self.attention.count() - 1, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
        self.attention.setToolTip(
            "Soft: softmax weights. Hard: one-hot at the best key. "
            "Sample: one-hot at a key drawn from the softmax with the seed."
        )
        att_row.addWidget(self.attention, 1)
        form.addRow("Attention", att_row)

        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip(
            "Seeds the sampled attention, the random weights and the untrained "
            "parameters of additive and general scoring: same seed, same numbers"
        )
        form.addRow("Seed", self.seed)

        mask_row = QtWidgets.QHBoxLayout()
        self.mask = QtWidgets.QComboBox()
        for name, text, tip in (
            ("none", "none", "every query sees every key"),
            ("causal", "causal", "query i sees keys 0..i only (a decoder)"),
            ("window", "window ±K", "query i sees keys within K positions (local attention)"),
            ("valid", "valid length N", "only the first N keys are visible (padding)"),
        ):
            self.mask.addItem(text, name)
            self.mask.setItemData(self.mask.count() - 1, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
        self.mask.setToolTip(
            "Which keys each query may see: hidden scores become -∞ before the "
            "softmax, so their weights are exactly 0 (drawn hatched)"
        )
        self.mask_size = QtWidgets.QSpinBox()
        self.mask_size.setRange(0, 4096)
        self.mask_size.setValue(2)
        self.mask_size.setToolTip("K for the window (keys within K positions), N for the valid length")
        mask_row.addWidget(self.mask, 1)
        mask_row.addWidget(self.mask_size)
        form.addRow("Mask", mask_row)

        self.weights = QtWidgets.QComboBox()
        for name, text, tip in (
            (
                "pretrained",
                "pretrained (MiniLM)",
                "the W_Q, W_K, W_V, W_O of a trained model's layer, "
                "with X its hidden state entering that layer",
            ),
            ("random", "random (seeded)", "seeded random embeddings and projections of the chosen width"),
            ("identity", "identity", "W = I: Q = K = V = X, to see the bare mechanism"),
            (
                OPEN_FOLDER,
                "Open model folder…",
                "load a local BERT-family model folder (config.json, model.safetensors, tokenizer.json)",
            ),
        ):
            self.weights.addItem(text, name)
            self.weights.setItemData(self.weights.count() - 1, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
        self.weights.setToolTip("Where X and the projection matrices come from")
        form.addRow("Weights", self.weights)
        self.model_label = QtWidgets.QLabel("bundled all-MiniLM-L6-v2")
        self.model_label.setWordWrap(True)
        self.model_label.setToolTip("The model folder in use")
        form.addRow("Model", self.model_label)

        self.layer = QtWidgets.QSpinBox()
        self.layer.setRange(0, 5)
        self.layer.setToolTip(
            "Which layer of the pretrained model: X is the hidden state entering "
            "it and W_Q, W_K, W_V, W_O are its projections"
        )
        form.addRow("Layer", self.layer)
        self.width = QtWidgets.QSpinBox()
        self.width.setRange(1, 4096)
        self.width.setValue(64)
        self.width.setToolTip("d_model of random and identity weights: the width of X, split among the heads")
        form.addRow("Width", self.width)

        self.device = QtWidgets.QComboBox()
        model = QtGui.QStandardItemModel(self.device)
        for name, reason in device_reasons().items():
            item = QtGui.QStandardItem(name if name != "auto" else "auto (best available)")
            item.setData(name, QtCore.Qt.ItemDataRole.UserRole)
            if reason:
                item.setEnabled(False)
                item.setToolTip(f"unavailable: {reason}")
            else:
                item.setToolTip(f"compute on {name}" if name != "auto" else "CUDA, then MPS, then CPU")
            model.appendRow(item)
        self.device.setModel(model)
        self.device.setToolTip(
            "Where the attention is computed; the numbers are the same up to rounding. "
            + "; ".join(f"{k.upper()}: {v}" for k, v in device_reasons().items() if v)
        )
        form.addRow("Device", self.device)

        for w in (self.scoring, self.scale, self.heads, self.attention, self.mask, self.device):
            w.currentIndexChanged.connect(self._changed)
        for w in (self.seed, self.mask_size, self.layer):
            w.valueChanged.connect(self._changed)
        self.query.textChanged.connect(self._changed)
        self.sentence.textChanged.connect(self._changed)
        self.heads.activated.connect(self._on_heads_picked)
        self.width.valueChanged.connect(self._on_width)
        self.weights.currentIndexChanged.connect(self._on_weights)
        self.tau.valueChanged.connect(self._on_tau)
        self.mask.currentIndexChanged.connect(self._sync_enabled)
        self._last_weights_index = 0
        for combo in self.findChildren(QtWidgets.QComboBox):  # long items must not widen the panel
            combo.setSizeAdjustPolicy(
                QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(8)
        self.tau_label.setMinimumWidth(0)
        self._sync_enabled()
        self.retranslate()

    # -- language ------------------------------------------------------------------
    def retranslate(self) -> None:
        """Every label, item and tooltip in the interface language (also on LanguageChange)."""
        form = self.layout()
        for field, text in (
            (self.preset, self.tr("Example")),
            (self.query, self.tr("&Query")),
            (self.sentence, self.tr("&Sentence")),
            (self.scoring, self.tr("Scoring")),
            (self.scale, self.tr("Scaling")),
            (self.heads, self.tr("Heads")),
            (self.seed, self.tr("Seed")),
            (self.weights, self.tr("Weights")),
            (self.model_label, self.tr("Model")),
            (self.layer, self.tr("Layer")),
            (self.width, self.tr("Width")),
            (self.device, self.tr("Device")),
        ):
            label = form.labelForField(field) if field is not None else None
            if label is not None:
                label.setText(text)
        for row in range(form.rowCount()):  # the rows whose field is a layout
            item = form.itemAt(row, QtWidgets.QFormLayout.ItemRole.FieldRole)
            label = form.itemAt(row, QtWidgets.QFormLayout.ItemRole.LabelRole)
            if item is None or label is None or item.layout() is None:
                continue
            lay = item.layout()
            widgets = [lay.itemAt(i).widget() for i in range(lay.count())]
            if self.attention in widgets:
                label.widget().setText(self.tr("Attention"))
            elif self.mask in widgets:
                label.widget().setText(self.tr("Mask"))
        self.preset.setItemText(0, self.tr("Choose an example…"))
        self._fill_presets()
        self.preset.setToolTip(
            self.tr("Load a ready-made example: it sets the texts and the options it is about")
        )
        self.query.setPlaceholderText(self.tr("empty: the sentence attends to itself"))
        self.query.setToolTip(
            self.tr(
                "The tokens that ask (rows of Q). Leave empty for self-attention; "
                "fill it for cross-attention over the sentence."
            )
        )
        self.sentence.setToolTip(
            self.tr("The tokens that answer: keys (K) and values (V) come from this text (Ctrl+L)")
        )
        texts = {
            "sqrt": "÷ √d_k",
            "temperature": self.tr("÷ τ (temperature)"),
            "none": self.tr("none"),
            "soft": self.tr("soft (softmax)"),
            "hard": self.tr("hard (one key)"),
            "sample": self.tr("sample (drawn)"),
            "causal": self.tr("causal"),
            "window": self.tr("window ±K"),
            "valid": self.tr("valid length N"),
            "pretrained": self.tr("pretrained (MiniLM)"),
            "random": self.tr("random (seeded)"),
            "identity": self.tr("identity"),
            OPEN_FOLDER: self.tr("Open model folder…"),
        }
        for combo in (self.scale, self.attention, self.mask, self.weights):
            for i in range(combo.count()):
                text = texts.get(combo.itemData(i))
                if text is not None:
                    combo.setItemText(i, text)
        self.scale.setToolTip(
            self.tr(
                "What divides the scores before the softmax: √d_k keeps dot products "
                "of long vectors from saturating it; τ sets the sharpness by hand"
            )
        )
        self.heads.setToolTip(
            self.tr(
                "How many heads split the model width: each head gets width/heads "
                "columns of Q, K and V. Only counts that divide the width are offered."
            )
        )
        self.mask.setToolTip(
            self.tr(
                "Which keys each query may see: hidden scores become -∞ before the "
                "softmax, so their weights are exactly 0 (drawn hatched)"
            )
        )
        self.weights.setToolTip(self.tr("Where X and the projection matrices come from"))
        if not self._model_dir:
            self.model_label.setText(self.tr("bundled all-MiniLM-L6-v2"))

    def _fill_presets(self) -> None:
        """Each preset's name and description (its tooltip) in the interface language."""
        for row in range(self.preset.count()):
            index = self.preset.itemData(row)
            if index is None or index < 0 or index >= len(PRESETS):
                continue
            preset = PRESETS[index]
            self.preset.setItemText(row, QtCore.QCoreApplication.translate(PRESET_CONTEXT, preset.name))
            self.preset.setItemData(
                row,
                QtCore.QCoreApplication.translate(PRESET_CONTEXT, preset.description),
                QtCore.Qt.ItemDataRole.ToolTipRole,
            )

    def changeEvent(self, event):  # noqa: N802
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- reactions ---------------------------------------------------------------
    def _changed(self, *_):
        if not self._updating:
            self._sync_enabled()
            self.edited.emit()

    def _on_preset(self, index: int) -> None:
        data = self.preset.itemData(index)
        if data is not None and data >= 0:
            self.presetChosen.emit(int(data))

    def _on_heads_picked(self, *_):
        self._heads_auto = False
        self._changed()

    def _on_width(self, *_):
        self._heads_auto = True
        self._changed()

    def _on_tau(self, value: int) -> None:
        self.tau_label.setText(f"τ = {slider_to_tau(value):g}")
        if self._updating:
            return
        if self.scale.currentData() != "temperature":
            self._updating = True
            self.scale.setCurrentIndex(self.scale.findData("temperature"))
            self._updating = False
        self._changed()

    def _on_weights(self, index: int) -> None:
        if self._updating:
            return
        if self.weights.itemData(index) == OPEN_FOLDER:
            folder = QtWidgets.QFileDialog.getExistingDirectory(
                self, "Open a BERT-family model folder (config.json, model.safetensors, tokenizer.json)"
            )
            self._updating = True
            self.weights.setCurrentIndex(0 if folder else self._last_weights_index)
            self._updating = False
            if not folder:
                return
            self.set_model_dir(folder)
        self._last_weights_index = self.weights.currentIndex()
        self._heads_auto = True
        self._changed()

    def set_model_dir(self, folder: str | None) -> None:
        self._model_dir = folder or None
        self.model_label.setText(folder or "bundled all-MiniLM-L6-v2")

    def _sync_enabled(self, *_):
        source = self.weights.currentData()
        self.layer.setEnabled(source == "pretrained")
        self.width.setEnabled(source in ("random", "identity"))
        self.mask_size.setEnabled(self.mask.currentData() in ("window", "valid"))

    # -- config <-> widgets --------------------------------------------------------
    def read_config(self, base: AttentionConfig) -> AttentionConfig:
        """The widgets' values as a config (raises ConfigError with a message for the user)."""
        mask = self.mask.currentData()
        if mask in ("window", "valid"):
            mask = f"{mask}:{self.mask_size.value()}"
        weights = self.weights.currentData()
        heads = None if self._heads_auto else self.heads.currentData()
        return AttentionConfig(
            sentence=self.sentence.text(),
            query=self.query.text(),
            scoring=self.scoring.currentData(),
            scale=self.scale.currentData(),
            temperature=slider_to_tau(self.tau.value())
            if self.scale.currentData() == "temperature"
            else base.temperature,
            heads=heads,
            attention=self.attention.currentData(),
            mask=mask,
            weights=weights if weights != OPEN_FOLDER else "pretrained",
            layer=self.layer.value(),
            d_model=self.width.value(),
            seed=self.seed.value(),
            device=self.device.currentData(QtCore.Qt.ItemDataRole.UserRole) or "auto",
            model_dir=self._model_dir if weights == "pretrained" else None,
            max_tokens=base.max_tokens,
        )

    def show_config(self, config: AttentionConfig) -> None:
        """Set every widget from a config without emitting ``edited``."""
        self._updating = True
        try:
            for field, text in ((self.query, config.query), (self.sentence, config.sentence)):
                if field.text() != text:
                    field.setText(text)
            self.scoring.setCurrentIndex(self.scoring.findData(config.scoring))
            self.scale.setCurrentIndex(self.scale.findData(config.scale))
            self.tau.setValue(tau_to_slider(config.temperature))
            self.tau_label.setText(f"τ = {config.temperature:g}")
            self.attention.setCurrentIndex(self.attention.findData(config.attention))
            self.seed.setValue(config.seed)
            spec = MaskSpec.parse(config.mask)
            self.mask.setCurrentIndex(self.mask.findData(spec.kind))
            if spec.kind in ("window", "valid"):
                self.mask_size.setValue(spec.size)
            self.weights.setCurrentIndex(self.weights.findData(config.weights))
            self._last_weights_index = self.weights.currentIndex()
            self.set_model_dir(config.model_dir)
            if config.layer > self.layer.maximum():
                self.layer.setMaximum(config.layer)
            self.layer.setValue(config.layer)
            self.width.setValue(config.d_model)
            self.device.setCurrentIndex(self.device.findData(config.device, QtCore.Qt.ItemDataRole.UserRole))
            self._heads_auto = config.heads is None
            if config.heads is not None:
                index = self.heads.findData(config.heads)
                if index < 0:
                    self.heads.addItem(str(config.heads), config.heads)
                    index = self.heads.count() - 1
                self.heads.setCurrentIndex(index)
        finally:
            self._updating = False
        self._sync_enabled()

    def set_source(self, counts: list[int], default_heads: int, heads: int, layers: int) -> None:
        """Offer only the head counts the width allows, and the layers the model has."""
        self._updating = True
        try:
            wanted = [(f"{h} (model's own)" if h == default_heads else str(h), h) for h in counts]
            current = [(self.heads.itemText(i), self.heads.itemData(i)) for i in range(self.heads.count())]
            if wanted != current:
                self.heads.clear()
                for text, h in wanted:
                    self.heads.addItem(text, h)
            index = self.heads.findData(heads)
            if index >= 0:
                self.heads.setCurrentIndex(index)
            if layers > 0:
                self.layer.setMaximum(layers - 1)
        finally:
            self._updating = False
