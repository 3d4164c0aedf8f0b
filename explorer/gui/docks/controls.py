"""The inputs and every option of the core, each with a tooltip saying what it changes.

The panel edits the ExplorerState's configuration and shows it back: every edit becomes a
new config (or, when the combination is impossible, an ``invalid`` message for the
banner), and every config change of the state (a preset, a session, the overview) is
shown in the widgets. The texts are set in ``retranslate``, in the interface language.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.model_choice import Choice, LoadedModel
from explorer.appstate.presets import PRESET_CONTEXT, PRESETS
from explorer.appstate.state import ExplorerState
from explorer.core.config import (
    ATTENTIONS,
    MASK_KINDS,
    SCALES,
    SCORINGS,
    SIZED_MASKS,
    WEIGHT_SOURCES,
    AttentionConfig,
    ConfigError,
    MaskSpec,
)
from explorer.core.device import device_reasons
from explorer.gui.core_text import translated
from explorer.gui.elided import ElidedCombo
from explorer.gui.model_picker import ModelPicker, choice_text, summary_text
from explorer.gui.options import option_label

TAU_MIN_LOG, TAU_MAX_LOG, TAU_STEPS = -2.0, 1.0, 300  # τ from 0.01 to 10 on a log scale
MAX_TEXT_CHARS = 1_000_000  # a pasted page is kept whole; the engine cuts tokens and says so
KEEP = object()  # read_config: the heads as the state's configuration has them


SNAP_STEPS = 4  # a slider released this close to the √d_k mark lands on it


def preset_shown(config: AttentionConfig) -> int:
    """The index of the example whose texts and settings the config still has, or -1: once
    the sentence (or anything the example set) is edited, the box no longer names it."""
    for index, preset in enumerate(PRESETS):
        expected = preset.config(base=config)
        fields = {"sentence", "query", *preset.changes}
        if all(getattr(config, f) == getattr(expected, f) for f in fields):
            return index
    return -1


class TauSlider(QtWidgets.QSlider):
    """The temperature slider, with a mark ▼ where τ equals √d_k (where dividing by τ is the
    usual ÷ √d_k scaling)."""

    def __init__(self, orientation, parent=None):
        super().__init__(orientation, parent)
        self.mark: float | None = None

    def set_mark(self, tau: float | None) -> None:
        self.mark = tau
        self.update()

    def mark_x(self) -> float | None:
        """The mark's x in the slider, where the handle's centre is at that value."""
        if self.mark is None:
            return None
        option = QtWidgets.QStyleOptionSlider()
        self.initStyleOption(option)
        style = self.style()
        groove = style.subControlRect(
            QtWidgets.QStyle.ComplexControl.CC_Slider,
            option,
            QtWidgets.QStyle.SubControl.SC_SliderGroove,
            self,
        )
        handle = style.subControlRect(
            QtWidgets.QStyle.ComplexControl.CC_Slider,
            option,
            QtWidgets.QStyle.SubControl.SC_SliderHandle,
            self,
        )
        span = groove.width() - handle.width()
        pos = QtWidgets.QStyle.sliderPositionFromValue(
            self.minimum(), self.maximum(), tau_to_slider(self.mark), span, option.upsideDown
        )
        return groove.left() + pos + handle.width() / 2

    def paintEvent(self, event):
        super().paintEvent(event)
        x = self.mark_x()
        if x is None:
            return
        painter = QtGui.QPainter(self)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        colour = self.palette().color(QtGui.QPalette.ColorRole.Link)  # the theme's accent
        painter.setPen(QtGui.QPen(colour, 2))
        painter.drawLine(QtCore.QPointF(x, 2), QtCore.QPointF(x, self.height() - 2))
        size = max(4.0, self.height() / 4)
        painter.setBrush(colour)
        painter.drawPolygon(
            QtGui.QPolygonF(
                [QtCore.QPointF(x - size, 0), QtCore.QPointF(x + size, 0), QtCore.QPointF(x, size)]
            )
        )
        painter.end()


def tau_to_slider(tau: float) -> int:
    pos = (math.log10(max(tau, 1e-9)) - TAU_MIN_LOG) / (TAU_MAX_LOG - TAU_MIN_LOG)
    return int(round(min(max(pos, 0.0), 1.0) * TAU_STEPS))


def slider_to_tau(value: int) -> float:
    return round(10 ** (TAU_MIN_LOG + (TAU_MAX_LOG - TAU_MIN_LOG) * value / TAU_STEPS), 4)


class Controls(QtWidgets.QWidget):
    invalid = QtCore.Signal(object)  # an edit gave an impossible combination: the ConfigError

    def __init__(self, state: ExplorerState, parent=None):
        super().__init__(parent)
        self.state = state
        self._updating = False
        form = QtWidgets.QFormLayout(self)
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.labels: dict[str, QtWidgets.QLabel] = {}

        def row(key: str, field) -> None:
            label = QtWidgets.QLabel()
            self.labels[key] = label
            if isinstance(field, QtWidgets.QWidget):
                label.setBuddy(field)
            form.addRow(label, field)

        def combo(names) -> QtWidgets.QComboBox:
            box = ElidedCombo()
            for name in names:
                box.addItem("", name)
            return box

        self.preset = ElidedCombo()
        self.preset.addItem("", -1)
        for i in range(len(PRESETS)):
            self.preset.addItem("", i)
        row("example", self.preset)
        self.query = QtWidgets.QLineEdit()
        self.query.setMaxLength(MAX_TEXT_CHARS)  # Qt's default 32,767 would cut a pasted page silently
        row("query", self.query)
        self.sentence = QtWidgets.QLineEdit()
        self.sentence.setMaxLength(MAX_TEXT_CHARS)
        row("sentence", self.sentence)
        self.scoring = combo(SCORINGS)
        row("scoring", self.scoring)
        self.scale = combo(SCALES)
        row("scale", self.scale)
        tau_row = QtWidgets.QHBoxLayout()
        self.tau = TauSlider(QtCore.Qt.Orientation.Horizontal)
        self.tau.setRange(0, TAU_STEPS)
        self.tau.setValue(tau_to_slider(1.0))
        self.tau_label = QtWidgets.QLabel("τ = 1")
        tau_row.addWidget(self.tau, 1)
        tau_row.addWidget(self.tau_label)
        row("tau", tau_row)
        self.heads = ElidedCombo()
        row("heads", self.heads)
        self.attention = combo(ATTENTIONS)
        row("attention", self.attention)
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        row("seed", self.seed)
        mask_row = QtWidgets.QHBoxLayout()
        self.mask = combo(MASK_KINDS)
        self.mask_size = QtWidgets.QSpinBox()
        self.mask_size.setRange(0, 4096)
        self.mask_size.setValue(2)
        mask_row.addWidget(self.mask, 1)
        mask_row.addWidget(self.mask_size)
        row("mask", mask_row)
        self.source = combo(WEIGHT_SOURCES)  # where the weights come from
        row("source", self.source)
        self.model_picker = ModelPicker()  # which model (gui/model_picker.py; the window loads it)
        row("model", self.model_picker)
        self.model_label = QtWidgets.QLabel()  # the model actually loaded: name, family, shape, weights
        self.model_label.setWordWrap(True)
        self.model_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.model_label)
        self.layer = QtWidgets.QSpinBox()
        self.layer.setRange(0, 5)
        row("layer", self.layer)
        self.width = QtWidgets.QSpinBox()
        self.width.setRange(1, 4096)
        self.width.setValue(64)
        row("width", self.width)
        self.device = ElidedCombo()
        model = QtGui.QStandardItemModel(self.device)
        for name, reason in device_reasons().items():
            item = QtGui.QStandardItem(name)
            item.setData(name, QtCore.Qt.ItemDataRole.UserRole)
            item.setEnabled(not reason)
            model.appendRow(item)
        self.device.setModel(model)
        row("device", self.device)

        for w in (self.scoring, self.scale, self.heads, self.attention, self.mask, self.device):
            w.currentIndexChanged.connect(self._changed)
        for w in (self.seed, self.mask_size, self.layer):
            w.valueChanged.connect(self._changed)
        self.query.textChanged.connect(self._changed)
        self.sentence.textChanged.connect(self._changed)
        self.preset.activated.connect(self._on_preset)
        self.heads.activated.connect(self._on_heads_picked)
        self.width.valueChanged.connect(self._on_width)
        self.source.currentIndexChanged.connect(self._on_source)
        self.tau.valueChanged.connect(self._on_tau)
        self.tau.sliderReleased.connect(self._snap_tau)
        for box in self.findChildren(QtWidgets.QComboBox):  # long items must not widen the panel
            box.setSizeAdjustPolicy(
                QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            box.setMinimumContentsLength(8)
        self.retranslate()
        self.show_config(state.config)
        self.show_shape()
        state.subscribe(self._on_state, ("config", "model", "shape"))

    def _on_state(self, event: str, state: ExplorerState) -> None:
        if event == "config":
            self.show_config(state.config)
        elif event == "model":  # the model the window loaded: every label follows it
            self._show_model_texts()
            self._show_width(state.config)
        else:
            self.show_shape()

    # -- language ----------------------------------------------------------------------------
    def retranslate(self) -> None:
        """Every label, item and tooltip in the interface language (also on LanguageChange)."""
        for key, text in {
            "example": self.tr("Example"),
            "query": self.tr("&Query"),
            "sentence": self.tr("&Sentence"),
            "scoring": self.tr("Scoring"),
            "scale": self.tr("Scaling"),
            "tau": "τ",
            "heads": self.tr("Heads"),
            "attention": self.tr("Attention"),
            "seed": self.tr("Seed"),
            "mask": self.tr("Mask"),
            "source": self.tr("Weights"),
            "model": self.tr("Model"),
            "layer": self.tr("Layer"),
            "width": self.tr("Width"),
            "device": self.tr("Device"),
        }.items():
            self.labels[key].setText(text)
        self.preset.setItemText(0, self.tr("Choose an example…"))
        for row in range(1, self.preset.count()):
            preset = PRESETS[self.preset.itemData(row)]
            self.preset.setItemText(row, QtCore.QCoreApplication.translate(PRESET_CONTEXT, preset.name))
            self.preset.setItemData(
                row,
                QtCore.QCoreApplication.translate(PRESET_CONTEXT, preset.description),
                QtCore.Qt.ItemDataRole.ToolTipRole,
            )
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
        items = {
            self.scoring: {
                "dot": (
                    option_label("scoring", "dot"),
                    self.tr("score = q·k: large when query and key point the same way and are long"),
                ),
                "cosine": (
                    option_label("scoring", "cosine"),
                    self.tr("score = q·k / (|q||k|): only the angle counts, from -1 to 1"),
                ),
                "additive": (
                    option_label("scoring", "additive"),
                    self.tr("Bahdanau: score = vᵀ tanh(W₁q + W₂k) with seeded, untrained W₁, W₂, v"),
                ),
                "general": (
                    option_label("scoring", "general"),
                    self.tr("Luong: score = qᵀ W k with a seeded, untrained W"),
                ),
            },
            self.scale: {
                "sqrt": ("÷ √d_k", None),
                "temperature": (self.tr("÷ τ (temperature)"), None),
                "none": (self.tr("none"), None),
            },
            self.attention: {
                "soft": (
                    self.tr("soft (softmax)"),
                    self.tr("softmax: every visible key gets a share of the weight"),
                ),
                "hard": (
                    self.tr("hard (one key)"),
                    self.tr("all the weight goes to the best-scoring key of each row"),
                ),
                "sample": (
                    self.tr("sample (drawn)"),
                    self.tr("one key per row drawn at random from the softmax (seeded)"),
                ),
            },
            self.mask: {
                "model": (
                    self.tr("the model's own"),
                    self.tr("the mask the model was trained with: none for an encoder, causal for a decoder"),
                ),
                "none": (self.tr("none"), self.tr("every query sees every key")),
                "causal": (self.tr("causal"), self.tr("query i sees keys 0..i only (a decoder)")),
                "window": (
                    self.tr("window ±K"),
                    self.tr("query i sees keys within K positions (local attention)"),
                ),
                "valid": (self.tr("valid length N"), self.tr("only the first N keys are visible (padding)")),
            },
            self.source: {
                "pretrained": (
                    self._pretrained_text(),
                    self.tr(
                        "the W_Q, W_K, W_V, W_O of a trained model's layer, with X its hidden state "
                        "entering that layer"
                    ),
                ),
                "random": (
                    self.tr("random (seeded)"),
                    self.tr("seeded random embeddings and projections of the chosen width"),
                ),
                "identity": (self.tr("identity"), self.tr("W = I: Q = K = V = X, to see the bare mechanism")),
            },
        }
        for box, texts in items.items():
            for i in range(box.count()):
                text, tip = texts[box.itemData(i)]
                box.setItemText(i, text)
                box.setItemData(i, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
        self.scoring.setToolTip(
            self.tr("How a query and a key become one score: ")
            + "; ".join(f"{label}: {tip}" for label, tip in items[self.scoring].values())
        )
        self.scale.setToolTip(
            self.tr(
                "What divides the scores before the softmax: √d_k keeps dot products "
                "of long vectors from saturating it; τ sets the sharpness by hand"
            )
        )
        self._tau_tooltip()
        self.heads.setToolTip(
            self.tr(
                "How many heads split the model width: each head gets width/heads "
                "columns of Q, K and V. Only counts that divide the width are offered."
            )
        )
        self.attention.setToolTip(
            self.tr(
                "Soft: softmax weights. Hard: one-hot at the best key. "
                "Sample: one-hot at a key drawn from the softmax with the seed."
            )
        )
        self.seed.setToolTip(
            self.tr(
                "Seeds the sampled attention, the random weights and the untrained parameters of "
                "additive and general scoring: same seed, same numbers"
            )
        )
        self.mask.setToolTip(
            self.tr(
                "Which keys each query may see: hidden scores become -∞ before the "
                "softmax, so their weights are exactly 0 (drawn hatched)"
            )
        )
        self.mask_size.setToolTip(
            self.tr("K for the window (keys within K positions), N for the valid length")
        )
        self.source.setToolTip(self.tr("Where X and the projection matrices come from"))
        self._show_model_texts()  # the mask's own item too: it names a causal model's mask
        self.layer.setToolTip(
            self.tr(
                "Which layer of the pretrained model: X is the hidden state entering "
                "it and W_Q, W_K, W_V, W_O are its projections"
            )
        )
        self.width.setToolTip(
            self.tr(
                "d_model of random and identity weights: the width of X, split among the heads "
                "(with pretrained weights: the model's own width)"
            )
        )
        reasons = device_reasons()
        model = self.device.model()
        for row_index in range(model.rowCount()):  # the devices found when the box was built
            item = model.item(row_index)
            name = item.data(QtCore.Qt.ItemDataRole.UserRole)
            reason = reasons.get(name)
            item.setText(self.tr("auto (best available)") if name == "auto" else name)
            if reason:
                item.setToolTip(self.tr("unavailable: {0}").format(translated(reason)))
            else:
                item.setToolTip(
                    self.tr("CUDA, then MPS, then CPU")
                    if name == "auto"
                    else self.tr("compute on {0}").format(name)
                )
        self.device.setToolTip(
            self.tr("Where the attention is computed; the numbers are the same up to rounding.")
            + "".join(f" {k.upper()}: {translated(v)}." for k, v in reasons.items() if v)
        )
        self._label_heads()

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- reactions ----------------------------------------------------------------------------
    def _changed(self, *_, heads: object = KEEP) -> None:
        if self._updating:
            return
        self._sync_enabled()
        try:
            config = self.read_config(self.state.config, heads)
        except ConfigError as exc:
            self.invalid.emit(exc)
            return
        self.state.set_config(config)

    def _on_preset(self, index: int) -> None:
        data = self.preset.itemData(index)
        if data is not None and data >= 0:
            self.state.apply_preset(PRESETS[int(data)])

    def _on_heads_picked(self, *_):
        self._changed(heads=self.heads.currentData())

    def _on_width(self, *_):
        self._changed(heads=None)  # a new width: the heads follow it again

    def _tau_tooltip(self) -> None:
        text = self.tr(
            "Temperature τ (0.01 to 10, log scale): scores are divided by τ. Small τ: sharp, "
            "almost one-hot weights; large τ: flat weights. Moving it switches scaling to τ."
        )
        mark = self.tau.mark
        if mark is not None:
            text += " " + self.tr(
                "The mark ▼ is τ = √d_k = {0}: there the weights are those of ÷ √d_k scaling "
                "(release the slider near it to land on it)."
            ).format(f"{mark:.4g}")
        elif self.state.shape is not None:
            text += " " + self.tr("√d_k = {0} lies beyond the slider's range.").format(
                f"{math.sqrt(self.state.shape.d_k):.4g}"
            )
        self.tau.setToolTip(text)

    def _snap_tau(self) -> None:
        """A release within a few steps of the √d_k mark lands on it exactly."""
        mark = self.tau.mark
        if mark is not None and abs(self.tau.value() - tau_to_slider(mark)) <= SNAP_STEPS:
            if self.tau.value() != tau_to_slider(mark):
                self.tau.setValue(tau_to_slider(mark))
            else:
                self._changed()

    def _on_tau(self, value: int) -> None:
        self.tau_label.setText(f"τ = {self._tau_value():g}")
        if self._updating:
            return
        if self.scale.currentData() != "temperature":
            self._updating = True
            self.scale.setCurrentIndex(self.scale.findData("temperature"))
            self._updating = False
        self._changed()

    def _on_source(self, index: int) -> None:
        if self._updating:
            return
        self._show_width(self.state.config)  # random weights keep their own width
        self._changed(heads=None)  # the heads follow the new source

    # -- the model in use --------------------------------------------------------------------------
    def _loaded(self) -> LoadedModel | None:
        """The described model if it is the one the configuration names."""
        model = self.state.loaded_model
        return model if model is not None and model.choice.same(Choice.of(self.state.config)) else None

    def _pretrained_text(self) -> str:
        model = self._loaded()
        name = model.name if model is not None else Choice.of(self.state.config).short_name
        return self.tr("pretrained: {0}").format(name)

    def _show_model_texts(self) -> None:
        model, choice = self._loaded(), Choice.of(self.state.config)
        if model is not None:
            text = summary_text(model)
        else:
            text = self.tr("{0} (loading…)").format(choice_text(choice))
        if choice.folder:  # a folder the user chose: where it is, never "bundled"
            text = self.tr("Folder: {0}").format(choice.folder) + "\n" + text
        self.model_label.setText(text)
        self.model_label.setToolTip(self.tr("The model whose weights the pretrained source uses"))
        self.model_label.setEnabled(self.source.currentData() == "pretrained")
        index = self.source.findData("pretrained")
        self.source.setItemText(index, self._pretrained_text())
        self._label_model_mask(model if self.source.currentData() == "pretrained" else None)

    def _label_model_mask(self, model: LoadedModel | None) -> None:
        """A causally trained model's own mask is causal, named as the mask it was trained
        with; turning it off is offered as what it is."""
        own, off = self.mask.findData("model"), self.mask.findData("none")
        window = next((w for w in model.windows if w is not None), None) if model is not None else None
        if model is not None and model.causal and window is not None:
            texts = (
                self.tr("causal, window {0} (as trained)").format(window),
                self.tr(
                    "the mask this model was trained with: each token sees itself and the {0} "
                    "tokens before it at most (a sliding window), never a later one"
                ).format(window - 1),
            )
        elif model is not None and model.causal:
            texts = (
                self.tr("causal (as trained)"),
                self.tr(
                    "the mask this model was trained with: each token sees itself and the tokens "
                    "before it, never a later one"
                ),
            )
        else:
            texts = (
                self.tr("the model's own"),
                self.tr("the mask the model was trained with: none for an encoder, causal for a decoder"),
            )
        self.mask.setItemText(own, texts[0])
        self.mask.setItemData(own, texts[1], QtCore.Qt.ItemDataRole.ToolTipRole)
        if model is not None and model.causal:
            off_tip = self.tr("every query sees every key: not how this model was trained (it says so)")
        else:
            off_tip = self.tr("every query sees every key")
        self.mask.setItemData(off, off_tip, QtCore.Qt.ItemDataRole.ToolTipRole)

    def _show_width(self, config: AttentionConfig) -> None:
        """The model's width with pretrained weights, the chosen d_model with the others."""
        model = self._loaded()
        pretrained = self.source.currentData() == "pretrained"
        width = model.width if pretrained and model is not None else config.d_model
        if self.width.value() != width:
            blocked = self.width.blockSignals(True)
            self.width.setValue(width)
            self.width.blockSignals(blocked)

    def _sync_enabled(self, *_):
        source = self.source.currentData()
        self.layer.setEnabled(source == "pretrained")
        self.width.setEnabled(source in ("random", "identity"))
        self.model_label.setEnabled(source == "pretrained")
        self.mask_size.setEnabled(self.mask.currentData() in SIZED_MASKS)

    # -- config <-> widgets ----------------------------------------------------------------------
    def read_config(self, base: AttentionConfig, heads: object = KEEP) -> AttentionConfig:
        """The widgets' values as a config (raises ConfigError with a message for the user).
        ``heads``: a count picked, None (they follow the model), or KEEP (the base's)."""
        mask = self.mask.currentData()
        if mask in SIZED_MASKS:
            mask = f"{mask}:{self.mask_size.value()}"
        source = self.source.currentData()
        scale = self.scale.currentData()
        own_width = source in ("random", "identity")  # pretrained weights show the model's width
        return AttentionConfig(
            sentence=self.sentence.text(),
            query=self.query.text(),
            scoring=self.scoring.currentData(),
            scale=scale,
            temperature=self._tau_value() if scale == "temperature" else base.temperature,
            heads=base.heads if heads is KEEP else heads,
            attention=self.attention.currentData(),
            mask=mask,
            weights=source,
            layer=self.layer.value(),
            d_model=self.width.value() if own_width else base.d_model,
            seed=self.seed.value(),
            device=self.device.currentData(QtCore.Qt.ItemDataRole.UserRole) or "auto",
            model=base.model,
            model_dir=base.model_dir,  # the model picker chooses (through the window)
            max_tokens=base.max_tokens,
        )

    def show_config(self, config: AttentionConfig) -> None:
        """Set every widget from a config without editing the state back."""
        self._updating = True
        try:
            for field, text in ((self.query, config.query), (self.sentence, config.sentence)):
                show_text(field, text)
            self.scoring.setCurrentIndex(self.scoring.findData(config.scoring))
            self.scale.setCurrentIndex(self.scale.findData(config.scale))
            self.tau.setValue(tau_to_slider(config.temperature))
            self.tau_label.setText(f"τ = {config.temperature:g}")
            self.attention.setCurrentIndex(self.attention.findData(config.attention))
            self.seed.setValue(config.seed)
            spec = MaskSpec.parse(config.mask)
            self.mask.setCurrentIndex(self.mask.findData(spec.kind))
            if spec.kind in SIZED_MASKS:
                self.mask_size.setValue(spec.size)
            self.source.setCurrentIndex(self.source.findData(config.weights))
            if config.layer > self.layer.maximum():
                self.layer.setMaximum(config.layer)
            self.layer.setValue(config.layer)
            self._show_width(config)
            self._show_model_texts()
            self.model_picker.show_choice(Choice.of(config))
            self.device.setCurrentIndex(self.device.findData(config.device, QtCore.Qt.ItemDataRole.UserRole))
            self.preset.setCurrentIndex(max(0, self.preset.findData(preset_shown(config))))
            if config.heads is not None:
                index = self.heads.findData(config.heads)
                if index < 0:
                    self.heads.addItem(str(config.heads), config.heads)
                    index = self.heads.count() - 1
                self.heads.setCurrentIndex(index)
        finally:
            self._updating = False
        self._sync_enabled()

    def _tau_value(self) -> float:
        """τ of the slider: exactly √d_k on its mark, else the slider's step."""
        mark = self.tau.mark
        if mark is not None and self.tau.value() == tau_to_slider(mark):
            return round(mark, 6)
        return slider_to_tau(self.tau.value())

    def _heads_text(self, h: int) -> str:
        shape = self.state.shape
        own = shape is not None and h == shape.default_heads
        return self.tr("{0} (model's own)").format(h) if own else str(h)

    def _label_heads(self) -> None:
        """The head counts in the interface language (the model's own one says so)."""
        for i in range(self.heads.count()):
            self.heads.setItemText(i, self._heads_text(self.heads.itemData(i)))

    def show_shape(self) -> None:
        """The trace on screen's shape: only the head counts its width allows, the layers the
        model has, and the τ slider's mark at √d_k."""
        shape = self.state.shape
        if shape is None:
            return
        root = math.sqrt(shape.d_k)
        self.tau.set_mark(root if 10**TAU_MIN_LOG <= root <= 10**TAU_MAX_LOG else None)
        self._tau_tooltip()
        counts, heads, layers = shape.head_counts, shape.heads, shape.layers
        self._updating = True
        try:
            wanted = [(self._heads_text(h), h) for h in counts]
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


def show_text(field: QtWidgets.QLineEdit, text: str) -> None:
    """A text set from outside (the state, the other field, a lesson step, a session), where
    it differs: shown from its start ("The animal d…", where Qt leaves the cursor at the end
    and shows "…it was too tired"), unless the field is being typed in. Typing into it without
    a click first still types at the end, as before (``TypeAtEnd``)."""
    if field.text() == text:
        return
    field.setText(text)
    if not field.hasFocus():
        field.setCursorPosition(0)
        TypeAtEnd.of(field).armed = True


class TypeAtEnd(QtCore.QObject):
    """A field shown from its start (``show_text``) that a key reaches before any click: the
    cursor goes to the end first, where Qt had left it, so the key types (or deletes) there.
    A click places the cursor itself; focus by Tab selects the whole text as Qt does."""

    KEYS = (QtCore.QEvent.Type.KeyPress, QtCore.QEvent.Type.InputMethod)  # typed, or composed (pinyin)
    PLACED = (QtCore.QEvent.Type.MouseButtonPress, QtCore.QEvent.Type.MouseButtonDblClick)

    def __init__(self, field: QtWidgets.QLineEdit):
        super().__init__(field)
        self.armed = False

    @classmethod
    def of(cls, field: QtWidgets.QLineEdit) -> TypeAtEnd:
        found = field.findChild(cls, options=QtCore.Qt.FindChildOption.FindDirectChildrenOnly)
        if found is None:
            found = cls(field)
            field.installEventFilter(found)
        return found

    def eventFilter(self, watched, event) -> bool:
        if self.armed:
            kind = event.type()
            if kind in self.KEYS:
                self.armed = False
                if not watched.hasSelectedText():  # a selection (select all): the key replaces it
                    watched.end(False)
            elif kind in self.PLACED:
                self.armed = False
            elif kind == QtCore.QEvent.Type.FocusIn and event.reason() in (
                QtCore.Qt.FocusReason.TabFocusReason,
                QtCore.Qt.FocusReason.BacktabFocusReason,
                QtCore.Qt.FocusReason.ShortcutFocusReason,
            ):
                self.armed = False  # Qt selects the whole text: the cursor at its end
        return False
