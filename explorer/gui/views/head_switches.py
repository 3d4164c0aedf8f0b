"""The All-heads tab's on/off switch for each head of a trained model's layer.

A head switched off has its output zeroed (or replaced by its mean over the text) before W_O
in the model's forward; beside the grid a language model's next-token panel then shows each
token's probability before and after (explorer.appstate.next_tokens), an encoder's panel each
token's output vector's cosine to the one with every head on (explorer.appstate.output_cosine),
both computed on the worker. The switches only edit ``state.decoding``; heads of other layers
stay off while another layer is shown, and the row says which.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.gui.flow import FlowLayout
from explorer.gui.i18n import translate


class HeadSwitches(QtWidgets.QWidget):
    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.layer: int | None = None
        self.decoder = False  # what the panel beside shows: next tokens, or output vectors
        self.flow = FlowLayout(self)
        self.label = QtWidgets.QLabel()
        self.flow.add(self.label)
        self.buttons: list[QtWidgets.QToolButton] = []
        self.mode = QtWidgets.QComboBox()
        self.mode.addItem("", "zero")
        self.mode.addItem("", "mean")
        self.mode.currentIndexChanged.connect(
            lambda _: self.state.decoding.update(ablation=self.mode.currentData())
        )
        self.all_on = QtWidgets.QPushButton()
        self.all_on.clicked.connect(lambda: self.state.decoding.set_heads_off(()))
        self.elsewhere = QtWidgets.QLabel()  # heads off in other layers
        self.flow.add(self.mode)
        self.flow.add(self.all_on)
        self.flow.add(self.elsewhere, stretch=True)
        unsubscribe = state.subscribe(lambda *_: self.sync(), ["decoding"])
        self.destroyed.connect(lambda *_: unsubscribe())
        self.setVisible(False)
        self.retranslate()

    def follow(self, trace, shown: bool, decoder: bool) -> None:
        """A new trace: one switch per head of its layer (a trained model's, ``shown``)."""
        shown = shown and trace.layer is not None
        self.setVisible(shown)
        if not shown:
            return
        if decoder != self.decoder:
            self.decoder = decoder
            self.retranslate()
        self.layer = trace.layer
        if len(self.buttons) != trace.heads:
            for button in self.buttons:
                self.flow.removeWidget(button)
                button.deleteLater()
            self.buttons = []
            for head in range(trace.heads):
                button = QtWidgets.QToolButton()
                button.setCheckable(True)
                button.setText(str(head))
                button.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)  # Tab, then Space
                button.toggled.connect(lambda _on, h=head: self._toggle(h))
                self.buttons.append(button)
            # after the label, before the mode: rebuild the flow in reading order
            for widget in (self.mode, self.all_on, self.elsewhere):
                self.flow.removeWidget(widget)
            for button in self.buttons:
                self.flow.add(button)
            self.flow.add(self.mode)
            self.flow.add(self.all_on)
            self.flow.add(self.elsewhere, stretch=True)
        self.sync()

    def _toggle(self, head: int) -> None:
        if self.layer is not None and self.buttons[head].isChecked() != self.state.decoding.is_off(
            self.layer, head
        ):
            self.state.decoding.toggle_head(self.layer, head)

    def sync(self) -> None:
        """Show the state: which heads of this layer are off, the others elsewhere, the mode."""
        options = self.state.decoding.options
        for head, button in enumerate(self.buttons):
            off = self.layer is not None and (self.layer, head) in options.heads_off
            button.blockSignals(True)
            button.setChecked(off)
            button.blockSignals(False)
            state = translate("HeadSwitches", "off") if off else translate("HeadSwitches", "on")
            button.setToolTip(
                translate(
                    "HeadSwitches", "Head {head} of layer {layer}: {state}. Click (or Space) to switch it."
                ).format(head=head, layer=self.layer, state=state)
            )
        self.mode.blockSignals(True)
        self.mode.setCurrentIndex(self.mode.findData(options.ablation))
        self.mode.blockSignals(False)
        others = sorted((layer, head) for layer, head in options.heads_off if layer != self.layer)
        self.elsewhere.setText(
            translate("HeadSwitches", "also off: {0}").format(", ".join(f"{a}.{b}" for a, b in others))
            if others
            else ""
        )
        self.all_on.setEnabled(bool(options.heads_off))

    def retranslate(self) -> None:
        self.label.setText(translate("HeadSwitches", "Heads off:"))
        self.label.setToolTip(
            translate(
                "HeadSwitches",
                "Switch heads of this layer off (any layers: pick another layer and switch more); "
                "the next-token panel shows each token's probability before and after.",
            )
            if self.decoder
            else translate(
                "HeadSwitches",
                "Switch heads of this layer off (any layers: pick another layer and switch more); "
                "the panel beside shows each token's output vector's cosine to the one with every head on.",
            )
        )
        self.mode.setItemText(0, translate("HeadSwitches", "output zeroed"))
        self.mode.setItemText(1, translate("HeadSwitches", "output → its mean"))
        self.mode.setToolTip(
            translate(
                "HeadSwitches",
                "Zeroed: the head writes nothing. Mean: it writes its mean output over the text at "
                "every position (what it adds on average stays, what it says about each token goes). "
                "Both before W_O.",
            )
        )
        self.all_on.setText(translate("HeadSwitches", "All on"))
        self.sync()
