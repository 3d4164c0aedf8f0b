"""The Translation tab's controls: the date (typed, or one of the examples), the model, its
scoring and the decoding, the lines view, and for the Transformer the attention kind, layer and
head. They edit the TranslationState and show it (``show_settings``); they keep nothing of
their own.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.translation import (
    KINDS,
    MAX_TEXT,
    TranslationState,
    attention_problem,
    checkpoint_problem,
)
from explorer.gui.elided import ElidedCombo
from explorer.gui.i18n import translate
from explorer.gui.labs.translation.choices import ChoiceRows
from explorer.gui.labs.translation.parts import (
    ATTENTION_HINTS,
    ATTENTION_NAMES,
    FORMAT_NAMES,
    KIND_NAMES,
    MODEL_NAMES,
    REASONS,
    SCORING_FORMULAS,
    SCORING_NAMES,
    examples,
)
from explorer.seq2seq import ATTENTIONS, MODELS, SCORINGS, TranslationTrace


def _combo(names) -> QtWidgets.QComboBox:
    box = ElidedCombo(min_chars=6)  # a long name is elided (its whole text in the list), not widening
    model = QtGui.QStandardItemModel(box)
    for name in names:
        item = QtGui.QStandardItem(name)
        item.setData(name, QtCore.Qt.ItemDataRole.UserRole)
        model.appendRow(item)
    box.setModel(model)
    return box


def _select(box: QtWidgets.QComboBox, value) -> None:
    index = box.findData(value)
    if index >= 0 and index != box.currentIndex():
        box.blockSignals(True)
        box.setCurrentIndex(index)
        box.blockSignals(False)


def _set_value(box: QtWidgets.QSpinBox, value: int) -> None:
    if box.value() != value:
        box.blockSignals(True)
        box.setValue(value)
        box.blockSignals(False)


class SummaryButton(QtWidgets.QPushButton):
    """One line, left-aligned, as wide as its layout gives it: the settings elided to fit
    (the whole of them in the tooltip) before the action's words, never what widens the window."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.settings, self.action = "", ""  # plain text; the action's words with their &mnemonic
        self.setStyleSheet("text-align: left; padding: 2px 8px;")
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)

    def full_text(self) -> str:
        """What it says, whole, as read (no mnemonic mark)."""
        return f"{self.settings} — {self.action.replace('&', '')}"

    def set_parts(self, settings: str, action: str) -> None:
        if (settings, action) != (self.settings, self.action):
            self.settings, self.action = settings, action
            self._elide()

    def _elide(self) -> None:
        metrics = self.fontMetrics()
        tail = f" — {self.action.replace('&', '')}"
        room = max(20, self.width() - 24 - metrics.horizontalAdvance(tail))
        shown = metrics.elidedText(self.settings, QtCore.Qt.TextElideMode.ElideMiddle, room)
        self.setText(f"{shown.replace('&', '&&')} — {self.action}")
        self.setToolTip(self.settings if shown != self.settings else "")

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._elide()


class TranslationControls(QtWidgets.QWidget):
    """The pickers; in presentation mode beside the lesson folded into one line (``summary``:
    the date, model, scoring and decoding, a click, Space or Alt+C unfolds them) so the
    figures keep the height of a 768 px projector."""

    foldChanged = QtCore.Signal()  # folded or unfolded: the tab fits its score box again

    def __init__(self, tstate: TranslationState, parent=None):
        super().__init__(parent)
        self.tstate = tstate
        self._choices_for: str | None = None  # the model whose choices are enabled in the pickers
        self._foldable = False  # presentation mode beside the lesson
        self._open = False  # unfolded by the teacher (until the mode changes)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        self.summary = SummaryButton()
        self.summary.clicked.connect(lambda: self.set_open(True))
        self.summary.setVisible(False)
        outer.addWidget(self.summary)
        self.full = QtWidgets.QWidget()  # the pickers, unfolded
        outer.addWidget(self.full)
        layout = QtWidgets.QVBoxLayout(self.full)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        row = QtWidgets.QHBoxLayout()
        self.source_label = QtWidgets.QLabel()
        self.source_edit = QtWidgets.QLineEdit()
        self.source_edit.setMaxLength(MAX_TEXT)
        self.source_label.setBuddy(self.source_edit)
        self.examples = ElidedCombo(min_chars=8)
        self.examples.addItem("", None)
        for example in examples():
            self.examples.addItem("", example.source)
        row.addWidget(self.source_label)
        row.addWidget(self.source_edit, 3)
        row.addWidget(self.examples, 2)
        self.fold_button = QtWidgets.QToolButton()  # back to one line (shown where foldable)
        self.fold_button.setText("▴")
        self.fold_button.clicked.connect(lambda: self.set_open(False))
        self.fold_button.setVisible(False)
        row.addWidget(self.fold_button)
        layout.addLayout(row)

        self.model_label, self.scoring_label, self.attention_label = (QtWidgets.QLabel() for _ in range(3))
        self.model_box, self.scoring_box, self.attention_box = (
            _combo(MODELS),
            _combo(SCORINGS),
            _combo(ATTENTIONS),
        )
        self.lines_button = QtWidgets.QPushButton()
        self.lines_button.setCheckable(True)
        self.kind_label, self.layer_label, self.head_label = (QtWidgets.QLabel() for _ in range(3))
        self.kind_box = _combo(KINDS)
        self.layer_box, self.head_box = QtWidgets.QSpinBox(), QtWidgets.QSpinBox()
        self.transformer_boxes = (self.kind_box, self.layer_box, self.head_box)
        groups = [
            [(self.model_label, self.model_box), (self.scoring_label, self.scoring_box)]
            + [(self.attention_label, self.attention_box), (None, self.lines_button)],
            [(self.kind_label, self.kind_box), (self.layer_label, self.layer_box)]
            + [(self.head_label, self.head_box)],
        ]
        for group in groups:
            for label, box in group:
                if label is not None:
                    label.setBuddy(box)
        self.choices = ChoiceRows(groups)  # as many to a row as fit: never what widens the window
        layout.addWidget(self.choices)

        t = tstate
        self.source_edit.textChanged.connect(t.set_source)
        self.examples.activated.connect(self._on_example)
        self.model_box.currentIndexChanged.connect(lambda _: t.set_model(self.model_box.currentData()))
        self.scoring_box.currentIndexChanged.connect(lambda _: t.set_scoring(self.scoring_box.currentData()))
        self.attention_box.currentIndexChanged.connect(
            lambda _: t.set_attention(self.attention_box.currentData())
        )
        self.lines_button.toggled.connect(lambda on: t.set_view("lines" if on else "heatmap"))
        self.kind_box.currentIndexChanged.connect(lambda _: t.set_kind(self.kind_box.currentData()))
        self.layer_box.valueChanged.connect(t.set_layer)
        self.head_box.valueChanged.connect(t.set_head)

    # -- folded into one line -----------------------------------------------------------------------------
    def folded(self) -> bool:
        return self._foldable and not self._open

    def foldable(self) -> bool:
        return self._foldable

    def set_foldable(self, on: bool) -> None:
        """Presentation mode beside the lesson: folded, until the teacher unfolds them."""
        if on != self._foldable:
            self._foldable, self._open = on, False
            self._show_fold()

    def set_open(self, on: bool) -> None:
        """Unfold (or fold) the pickers. The keyboard goes to the button that does the
        reverse, never into a text field (the lesson's ← and → stay the lesson's)."""
        if on == self._open:
            return
        self._open = on
        self._show_fold()
        if self._foldable:
            (self.fold_button if on else self.summary).setFocus(QtCore.Qt.FocusReason.OtherFocusReason)

    def _show_fold(self) -> None:
        folded = self.folded()
        focus = QtWidgets.QApplication.focusWidget()
        if folded and focus is not None and self.full.isAncestorOf(focus):
            self.summary.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)  # before its field hides
        self.summary.setVisible(folded)
        self.full.setVisible(not folded)
        self.fold_button.setVisible(self._foldable and not folded)
        self._show_summary()
        self.foldChanged.emit()

    def _show_summary(self) -> None:
        s = self.tstate.settings
        parts = [translate("Translation", MODEL_NAMES[s.model])]
        if self.tstate.is_gru:
            parts.append(translate("Translation", SCORING_NAMES[s.scoring]))
        parts.append(translate("Translation", ATTENTION_NAMES[s.attention]))
        if not self.tstate.is_gru:
            parts.append(
                translate("Translation", "{kind}, layer {layer}, head {head}").format(
                    kind=translate("Translation", KIND_NAMES[s.kind]), layer=s.layer, head=s.head
                )
            )
        parts.append(f"“{s.source.strip()}”")
        self.summary.set_parts(" · ".join(parts), translate("Translation", "&change…"))

    # -- the state ---------------------------------------------------------------------------------------
    def show_settings(self) -> None:
        """Every control from the TranslationState (a session, a lesson, the model picker)."""
        s = self.tstate.settings
        if self._foldable:
            self._show_summary()
        if self.source_edit.text() != s.source:
            self.source_edit.blockSignals(True)
            self.source_edit.setText(s.source)
            self.source_edit.blockSignals(False)
        _select(self.model_box, s.model)
        _select(self.scoring_box, s.scoring)
        _select(self.attention_box, s.attention)
        _select(self.kind_box, s.kind)
        if self._choices_for != s.model:  # not on every keystroke
            self._choices_for = s.model
            self.enable_choices()
        _set_value(self.layer_box, s.layer)
        _set_value(self.head_box, s.head)
        self.lines_button.blockSignals(True)
        self.lines_button.setChecked(s.view == "lines")
        self.lines_button.blockSignals(False)
        gru = self.tstate.is_gru
        if self.kind_box.isVisibleTo(self.choices) == gru:
            for label, box in zip(
                (self.kind_label, self.layer_label, self.head_label), self.transformer_boxes
            ):
                label.setVisible(not gru)
                box.setVisible(not gru)
            self.choices.rearrange()

    def enable_choices(self) -> None:
        """Pairs without a checkpoint and decodings a model lacks are disabled, with the reason."""
        model = self.tstate.settings.model
        for box, problem, hint in (
            (self.scoring_box, lambda name: checkpoint_problem(model, name), SCORING_FORMULAS.get),
            (
                self.attention_box,
                lambda name: attention_problem(model, name),
                lambda n: translate("Translation", ATTENTION_HINTS[n]),
            ),
        ):
            items = box.model()
            for row in range(box.count()):
                name = box.itemData(row)
                reason = problem(name)
                items.item(row).setEnabled(reason is None)
                items.item(row).setToolTip(
                    translate("Translation", REASONS[reason]) if reason else hint(name)
                )

    def cover(self, trace: TranslationTrace) -> None:
        """The Transformer's layer and head pickers cover its layers and heads."""
        if trace.is_gru:
            return
        layers = len(trace.stages["cross"])
        heads = trace.stages["cross"][0].heads
        for box, top in ((self.layer_box, layers - 1), (self.head_box, heads - 1)):
            if box.maximum() != top:
                box.blockSignals(True)
                box.setRange(0, top)
                box.blockSignals(False)

    def _on_example(self, index: int) -> None:
        text = self.examples.itemData(index)
        if text:
            self.tstate.set_source(text)
            self.show_settings()
        self.examples.setCurrentIndex(0)

    # -- words ----------------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.source_label.setText(translate("Translation", "&Date"))
        self.source_edit.setPlaceholderText(
            translate("Translation", "a date as people write it, e.g. 9 May 2018 or 2018年5月9日")
        )
        self.source_edit.setToolTip(
            translate(
                "Translation",
                "Type a date in any of the trained formats; the answer and its alignment follow as you type",
            )
        )
        self.examples.setItemText(0, translate("Translation", "Examples…"))
        for row in range(1, self.examples.count()):
            text = self.examples.itemData(row)
            fmt = next((e.format for e in examples() if e.source == text), None)
            self.examples.setItemText(
                row, f"{text}  —  {translate('Translation', FORMAT_NAMES[fmt])}" if fmt else text
            )
        self.examples.setToolTip(
            translate("Translation", "One date in every format the models were trained on, Chinese included")
        )
        self.model_label.setText(translate("Translation", "&Model"))
        self.scoring_label.setText(translate("Translation", "&Scoring"))
        self.attention_label.setText(translate("Translation", "&Attention"))
        for box, names in (
            (self.model_box, MODEL_NAMES),
            (self.scoring_box, SCORING_NAMES),
            (self.attention_box, ATTENTION_NAMES),
            (self.kind_box, KIND_NAMES),
        ):
            for row in range(box.count()):
                box.setItemText(row, translate("Translation", names[box.itemData(row)]))
        self.model_box.setToolTip(
            translate("Translation", "Bahdanau: the query is the decoder's state before it writes. Luong: after it read the last "
               "character. Transformer: two layers of self- and cross-attention, four heads.")
        )  # fmt: skip
        self.scoring_box.setToolTip(
            translate(
                "Translation", "How a query and a key are compared; each choice is its own trained model"
            )
        )
        self.attention_box.setToolTip(
            translate(
                "Translation",
                "Soft: the weighted average, as trained. Hard: only the largest weight. Sample: one key drawn by the weights.",
            )
        )
        self.lines_button.setText(translate("Translation", "Lines view"))
        self.lines_button.setToolTip(
            translate(
                "Translation",
                "Show the alignment as lines as thick as the weights (reads well from the back of a room)",
            )
        )
        self.kind_label.setText(translate("Translation", "Attention kind"))
        self.layer_label.setText(translate("Translation", "Layer"))
        self.head_label.setText(translate("Translation", "Head"))
        self.kind_box.setToolTip(
            translate("Translation", "Which of the Transformer's three attentions the stage panels show")
        )
        self.layer_box.setToolTip(translate("Translation", "The layer whose attention the stage panels show"))
        self.head_box.setToolTip(translate("Translation", "The head whose stages are shown"))
        self.fold_button.setToolTip(translate("Translation", "Fold the pickers into one line"))
        self.enable_choices()
        self._show_summary()
