"""Which model the window reads: the picker in the controls dock, and the switch to a new model.

``ModelPicker`` is the combo: the bundled models of the catalogue, the recent model folders
(a folder that is gone stays listed, greyed, with the reason) and "Open model folder…". It
only says what the user chose. ``ModelSwitch``, one of the window's rooms, loads the choice
on the worker and only then sets the state's configuration, so a folder that fails leaves
the window on the model it showed, with the reason in the banner. A folder that holds only
``pytorch_model.bin`` is converted after the user agrees (on the worker, tensors only).

Start-up reads no second model: the picker asks the catalogue for each model's status (a
few file checks); a model is loaded only when it is chosen.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.bundled_decoders import BUNDLED_DECODERS
from explorer.appstate.model_choice import Choice, LoadedModel, folder_label, resolved_folder
from explorer.gui.core_text import error_text, translated
from explorer.gui.i18n import translate
from explorer.gui.messages import ERROR_STYLE, INFO_STYLE
from explorer.gui.preferences import Preferences, default_folder
from explorer.models import catalogue
from explorer.words import QT_TRANSLATE_NOOP

OPEN = "open"
PROVENANCE = "conversion.json"  # what a converter wrote beside the weights (convert_e5)
MAX_NOTE_CHARS = 200


# The loader's notes on how weights were obtained, translated when shown (by their English text).
LOADER_NOTES = (
    QT_TRANSLATE_NOOP("ModelNotes", "float16 weights, computed in float32"),
    QT_TRANSLATE_NOOP("ModelNotes", "bfloat16 weights, computed in float32"),
    QT_TRANSLATE_NOOP("ModelNotes", "converted from pytorch_model.bin"),
    QT_TRANSLATE_NOOP("ModelNotes", "rope_theta missing: 10000, as transformers assumes"),
)
# What each bundled model's weights are, honestly (the catalogue's descriptions, in short).
CATALOGUE_NOTES = {
    "minilm": QT_TRANSLATE_NOOP("ModelNotes", "float32 weights as published; English word pieces"),
    "multilingual": QT_TRANSLATE_NOOP(
        "ModelNotes", "4-bit weights, dequantised; vocabulary pruned to Chinese, English and French"
    ),
}


def describe(engine, choice: Choice, forget: bool = False) -> LoadedModel:
    """The worker's job: load the chosen model (cached by the engine) and describe it.

    ``forget``: a folder that failed before is read again (the user may have fixed it)."""
    if forget and choice.folder:
        engine.forget_model(choice.folder)
    model = engine.model(choice.folder, choice.key or catalogue.DEFAULT_MODEL)
    c = model.config
    decoder = model.is_decoder
    return LoadedModel(
        choice,
        model.name,
        model.family,
        c.num_hidden_layers,
        c.num_attention_heads,
        c.hidden_size,
        tuple(model.notes),
        _provenance(Path(model.path)),
        causal=decoder or bool(getattr(c, "causal", False)),
        kv_heads=c.num_key_value_heads if decoder else None,
        windows=tuple(c.sliding_windows) if decoder else (),
    )


def convert_and_describe(engine, choice: Choice, source: Path) -> LoadedModel:
    """The worker's job after the user agreed: pytorch_model.bin → safetensors, then load."""
    from explorer.models.convert_bin import convert

    convert(source)
    engine.forget_model(choice.folder)
    return describe(engine, choice)


def _provenance(folder: Path) -> str | None:
    try:
        summary = json.loads((folder / PROVENANCE).read_text(encoding="utf-8")).get("summary")
    except (OSError, ValueError, AttributeError):
        return None
    return (
        " ".join(summary.split())[:MAX_NOTE_CHARS] if isinstance(summary, str) and summary.strip() else None
    )


def summary_text(info: LoadedModel) -> str:
    """name (family, layers × heads, width; how the weights were obtained), translated."""
    notes = [translate("ModelNotes", note) for note in info.notes]
    if info.choice.folder is None and info.choice.key in CATALOGUE_NOTES:
        notes.append(translate("ModelNotes", CATALOGUE_NOTES[info.choice.key]))
    elif info.provenance:
        notes.append(info.provenance)
    shape = dict(name=info.name, family=info.family, layers=info.layers, heads=info.heads, width=info.width)
    if info.causal:
        return _causal_summary(info, notes, shape)
    if not notes:
        return translate(
            "ModelPicker", "{name} ({family}, {layers} layers × {heads} heads, {width} wide)"
        ).format(**shape)
    joined = notes[0]
    for note in notes[1:]:
        joined = translate("ModelPicker", "{0}; {1}").format(joined, note)
    return translate(
        "ModelPicker", "{name} ({family}, {layers} layers × {heads} heads, {width} wide; {notes})"
    ).format(notes=joined, **shape)


def _causal_summary(info: LoadedModel, notes: list[str], shape: dict) -> str:
    """A model trained with a causal mask says so, and how its heads share K and V."""
    if info.kv_heads is not None and info.kv_heads < info.heads:
        heads = translate("ModelPicker", "{layers} layers × {heads} heads sharing {kv} K/V heads").format(
            kv=info.kv_heads, **shape
        )
    else:
        heads = translate("ModelPicker", "{layers} layers × {heads} heads").format(**shape)
    if not notes:
        return translate("ModelPicker", "{name} ({family}, causal, {shape}, {width} wide)").format(
            **{**shape, "shape": heads}
        )
    joined = notes[0]
    for note in notes[1:]:
        joined = translate("ModelPicker", "{0}; {1}").format(joined, note)
    return translate("ModelPicker", "{name} ({family}, causal, {shape}, {width} wide; {notes})").format(
        **{**shape, "shape": heads, "notes": joined}
    )


def choice_text(choice: Choice) -> str:
    """The picker's words for a bundled model or a folder."""
    if choice.folder:
        return folder_label(choice.folder)
    if choice.key == "minilm":
        return translate("ModelPicker", "English: all-MiniLM-L6-v2")
    return translate("ModelPicker", "Chinese + English + French: multilingual-e5-small")


def catalogue_tip(key: str) -> str:
    if key == "minilm":
        return translate(
            "ModelPicker",
            "sentence-transformers/all-MiniLM-L6-v2: BERT, 6 layers × 12 heads, 384 wide, float32 "
            "weights as published. Reads English; most Chinese characters become [UNK].",
        )
    return translate(
        "ModelPicker",
        "multilingual-e5-small: XLM-RoBERTa, 12 layers × 12 heads, 384 wide. 4-bit weights, "
        "dequantised; vocabulary pruned to the pieces of Chinese, English and French. "
        "Reads the lesson's Chinese without [UNK].",
    )


class ModelPicker(QtWidgets.QComboBox):
    """The bundled models, the recent folders and "Open model folder…"; ``chosen`` says what
    the user picked (the window loads it, then the state changes)."""

    chosen = QtCore.Signal(object)  # a Choice

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setModel(QtGui.QStandardItemModel(self))
        self.recent: list[str] = []
        self.current: Choice = Choice()
        self.pending: Choice | None = None  # chosen and loading: shown until the switch answers
        self._prefs: Preferences | None = None  # the window's (use_preferences): where the dialog opens
        self._shown: Choice | None = None
        self.activated.connect(self._on_activated)
        self.rebuild()

    # -- what is listed ------------------------------------------------------------------------
    def use_preferences(self, prefs: Preferences) -> None:
        """The window's preferences: where the folder dialog opens, the recent model folders."""
        self._prefs = prefs
        self.set_recent(prefs.recent_models())

    def set_recent(self, folders: list[str]) -> None:
        self.recent = list(folders)
        self.rebuild()

    def show_choice(self, choice: Choice) -> None:
        """Show the model in use (or the one loading)."""
        self.current = choice
        if (self.pending or choice) != self._shown:
            self.rebuild()

    def showPopup(self) -> None:
        self.rebuild()  # installed models and folders may have changed since: a few file checks
        super().showPopup()

    def rebuild(self) -> None:
        model: QtGui.QStandardItemModel = self.model()
        shown = self._shown = self.pending or self.current
        # only activated (the user's pick) says a choice: rebuilding says nothing
        model.clear()
        # each folder resolved once (a check of every part of its path, each of which lets the
        # worker take the interpreter lock: dozens of them held the window at a model switch)
        where = functools.cache(resolved_folder)
        for key in catalogue.MODEL_KEYS:
            self._add_catalogue(model, key)
        bundled = {where(d.folder) for d in BUNDLED_DECODERS if d.folder}
        for decoder in BUNDLED_DECODERS:  # the language-model lab's GPT-2 folders
            self._add_bundled_decoder(model, decoder)
        folders = [f for f in self.recent if where(f) not in bundled]
        if shown.folder and where(shown.folder) not in bundled | {where(f) for f in folders}:
            folders.insert(0, shown.folder)  # a folder from a session or the command line
        if folders:
            self.insertSeparator(model.rowCount())
        for folder in folders:
            self._add_folder(model, folder)
        self.insertSeparator(model.rowCount())
        item = QtGui.QStandardItem(translate("ModelPicker", "Open model folder…"))
        item.setData((OPEN, ""), QtCore.Qt.ItemDataRole.UserRole)
        item.setToolTip(
            translate(
                "ModelPicker",
                "Load any BERT, RoBERTa, XLM-RoBERTa or DistilBERT folder, or a language model "
                "(GPT-2, Llama, Mistral, Qwen2), in Hugging Face layout (config.json, "
                "model.safetensors or pytorch_model.bin, tokenizer.json or vocab.txt); a Hugging "
                "Face cache folder (models--org--name) works too.",
            )
        )
        model.appendRow(item)
        self.setCurrentIndex(self.index_of(shown, where))
        tip = self.itemData(self.currentIndex(), QtCore.Qt.ItemDataRole.ToolTipRole)
        self.setToolTip(
            translate("ModelPicker", "The model whose attention you see: {0}").format(
                tip or self.currentText()
            )
        )

    def _add_catalogue(self, model: QtGui.QStandardItemModel, key: str) -> None:
        item = QtGui.QStandardItem(choice_text(Choice(key)))
        item.setData(("catalogue", key), QtCore.Qt.ItemDataRole.UserRole)
        tip = catalogue_tip(key)
        status = catalogue.status(key)
        if status == "missing":
            item.setEnabled(False)
            tip += "\n" + translate("ModelPicker", "Not installed: {0}").format(
                translated(catalogue.missing_message(key))
            )
        elif status == "convertible":
            tip += "\n" + translate(
                "ModelPicker", "First use: it is prepared once from the bundle (about 10 s)."
            )
        item.setToolTip(tip)
        model.appendRow(item)

    def _add_bundled_decoder(self, model: QtGui.QStandardItemModel, decoder) -> None:
        item = QtGui.QStandardItem(translate("ModelPicker", decoder.name))
        item.setData(("folder", str(decoder.folder)), QtCore.Qt.ItemDataRole.UserRole)
        item.setToolTip(translate("ModelPicker", decoder.tip))
        item.setEnabled(decoder.installed)
        model.appendRow(item)

    def _add_folder(self, model: QtGui.QStandardItemModel, folder: str) -> None:
        present = Path(folder).is_dir()
        text = folder_label(folder)
        item = QtGui.QStandardItem(
            text if present else translate("ModelPicker", "{0} (not found)").format(text)
        )
        item.setData(("folder", folder), QtCore.Qt.ItemDataRole.UserRole)
        item.setEnabled(present)
        item.setToolTip(
            folder
            if present
            else translate("ModelPicker", "{0}: the folder is gone (moved or deleted)").format(folder)
        )
        model.appendRow(item)

    def index_of(self, choice: Choice, where=resolved_folder) -> int:
        """The row showing ``choice`` (-1: none); ``where`` resolves a folder (Choice.same's
        comparison, with the caller's resolved folders)."""
        for row in range(self.count()):
            data = self.itemData(row, QtCore.Qt.ItemDataRole.UserRole)
            if not data or data[0] == OPEN:
                continue
            kind, value = data
            if kind == "catalogue" and choice.folder is None and choice.key == value:
                return row
            if kind != "catalogue" and choice.folder is not None and where(value) == where(choice.folder):
                return row
        return -1

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.rebuild()
        super().changeEvent(event)

    # -- what the user picks ------------------------------------------------------------------------
    def _on_activated(self, index: int) -> None:
        data = self.itemData(index, QtCore.Qt.ItemDataRole.UserRole)
        if not data:
            return
        kind, value = data
        if kind == OPEN:
            self.rebuild()  # the box shows the model in use while the dialog is open
            folder = QtWidgets.QFileDialog.getExistingDirectory(
                self,
                translate(
                    "ModelPicker",
                    "Open a model folder (config.json, weights, tokenizer) or a Hugging Face cache folder",
                ),
                self._prefs.dialog_folder() if self._prefs is not None else default_folder(),
            )
            if self._prefs is not None:
                self._prefs.remember_dialog(folder, folder=True)
            if not folder:
                return
            choice = Choice.folder_of(folder)
        else:
            choice = Choice(value, None) if kind == "catalogue" else Choice(None, value)
        self.chosen.emit(choice)


class ModelSwitch(QtCore.QObject):
    """Loads a chosen model on the worker, then sets the state; asks before converting a .bin.

    One of the window's rooms: it uses the window's state, worker, engine, preferences,
    banner and controls. Channels: ``model`` (a choice to load, or to convert and load) and
    ``model-info`` (the description of the model a new trace used)."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.state, self.worker, self.engine = window.state, window.worker, window.engine
        self.prefs = window.prefs
        self.controls = window.controls
        self.picker: ModelPicker = window.controls.model_picker
        self.question: QtWidgets.QMessageBox | None = None  # the conversion question, while open
        self._asked: Choice | None = None  # what the model channel is loading
        self._good: set[str] = set()  # folders that loaded in this run (never read again)
        self._ready: set[str] = set()  # bundled models that loaded in this run
        self._fell_back = None  # the banner's words after a failed first model (see _fall_back)
        self.picker.use_preferences(self.prefs)
        self.picker.chosen.connect(self.choose)
        self.worker.listen("model", self._on_model)
        self.worker.listen("model-info", self._on_info)
        self.worker.listen("trace", self._on_trace)
        self.state.subscribe(self._on_config, ("config",))

    # -- a choice in the picker ------------------------------------------------------------------------
    def choose(self, choice: Choice) -> None:
        config = self.state.config
        if choice.same(Choice.of(config)) and config.weights == "pretrained" and self._asked is None:
            self.picker.pending = None
            self.picker.show_choice(Choice.of(config))
            return
        self.picker.pending = choice
        self.picker.show_choice(Choice.of(config))
        self._announce(choice)
        forget = choice.folder is not None and resolved_folder(choice.folder) not in self._good
        self._load(choice, lambda: describe(self.engine, choice, forget))

    def _load(self, choice: Choice, job) -> None:
        self._asked = choice
        self.worker.submit("model", job)

    def _announce(self, choice: Choice) -> None:
        if (
            choice.folder is None
            and choice.key not in self._ready
            and catalogue.status(choice.key) == "convertible"
        ):
            text = translate(
                "ModelPicker", "Preparing the Chinese model (first use, about 10 s)… the window stays usable."
            )
        else:
            text = translate("ModelPicker", "Loading {0}…").format(choice.short_name)
        self.window.show_banner(text, INFO_STYLE)

    def _on_model(self, result) -> None:
        choice, self._asked = self._asked, None
        if result.ok:
            self._apply(result.value)
            return
        from explorer.models.errors import NeedsConversion

        if isinstance(result.error, NeedsConversion) and choice is not None:
            self.ask(choice, result.error, from_trace=False)
            return
        self._back_to_current()
        error = result.error
        self.window.show_error(lambda: failure_text(error))  # again in a new language

    def _apply(self, info: LoadedModel) -> None:
        self.picker.pending = None
        self._remember(info.choice)
        self._show(info)
        config = self.state.config
        heads = config.heads if config.heads and info.width % config.heads == 0 else None
        new = info.choice.applied(config).with_(
            weights="pretrained", layer=min(config.layer, info.layers - 1), heads=heads
        )
        if new == config:  # the last trace of this very config failed (a .bin just converted)
            self.window.request_trace()
        else:
            self.state.set_config(new)
        self.picker.show_choice(Choice.of(self.state.config))

    def _back_to_current(self) -> None:
        self.picker.pending = None
        self.picker.show_choice(Choice.of(self.state.config))

    def _remember(self, choice: Choice) -> None:
        if choice.folder:
            resolved = resolved_folder(choice.folder)
            if resolved not in self._good or (self.picker.recent[:1] != [resolved]):
                self._good.add(resolved)
                self.picker.set_recent(self.prefs.add_recent_model(choice.folder))
        else:
            self._ready.add(choice.key)

    # -- a .bin-only folder: ask, then convert on the worker -------------------------------------------------
    def ask(self, choice: Choice, needs, from_trace: bool) -> None:
        """Ask whether to convert ``needs.source`` (a NeedsConversion); the window stays usable."""
        if self.question is not None:
            return
        keep = self.loaded.name if self.loaded is not None else choice_text(Choice())
        box = QtWidgets.QMessageBox(self.window)
        box.setIcon(QtWidgets.QMessageBox.Icon.Question)
        box.setWindowTitle(translate("ModelPicker", "Convert the model's weights?"))
        box.setText(
            translate(
                "ModelPicker",
                "{folder} holds its weights only as pytorch_model.bin ({size:.1f} MB), a Python pickle.",
            ).format(folder=choice.short_name, size=needs.size / 1e6)
        )
        box.setInformativeText(
            translate(
                "ModelPicker",
                "Convert it once to safetensors? Only tensors are read (torch.load with weights_only): "
                "nothing in the file is run. The copy, about {size:.1f} MB, is written to\n{target}\n"
                "The folder itself is not changed. Cancel keeps {keep}.",
            ).format(size=needs.size / 1e6, target=needs.target, keep=keep)
        )
        convert_button = box.addButton(
            translate("ModelPicker", "Convert"), QtWidgets.QMessageBox.ButtonRole.AcceptRole
        )
        box.addButton(QtWidgets.QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(convert_button)
        self.question = box
        if not from_trace:  # "Loading…" is over: the question says what happens next
            self.window.banner.setVisible(False)

        def answered(_code: int) -> None:
            self.question = None
            box.deleteLater()
            if box.clickedButton() is convert_button:
                self.convert(choice, Path(needs.source))
            else:
                self._declined(from_trace)

        box.finished.connect(answered)
        box.open()

    def convert(self, choice: Choice, source: Path) -> None:
        self.picker.pending = choice
        self.picker.show_choice(Choice.of(self.state.config))
        self.window.show_banner(
            translate("ModelPicker", "Converting {0} to safetensors (tensors only)…").format(source.name),
            INFO_STYLE,
        )
        self._load(choice, lambda: convert_and_describe(self.engine, choice, source))

    def _declined(self, from_trace: bool) -> None:
        self._back_to_current()
        if from_trace:  # the window asked for that folder: go back to the model of the last result
            last = self.window.trace
            previous = Choice.of(last.config) if last is not None else Choice()
            self.state.set_config(previous.applied(self.state.config))
            return
        self.window.show_banner(
            translate("ModelPicker", "Not converted: the window keeps {0}.").format(
                self.loaded.name if self.loaded is not None else choice_text(Choice.of(self.state.config))
            ),
            INFO_STYLE,
        )

    # -- what the traces used --------------------------------------------------------------------------------
    def _on_trace(self, result) -> None:
        if not result.ok:
            from explorer.models.errors import ModelError, NeedsConversion

            if isinstance(result.error, NeedsConversion) and self._asked is None:
                self.ask(Choice.of(self.state.config), result.error, from_trace=True)
            elif isinstance(result.error, ModelError) and self.window.trace is None:
                self._fall_back(result.error)
            return
        if self._fell_back is not None:  # the window's own banner went with the new result: say it again
            self.window.show_banner(self._fell_back, ERROR_STYLE)
            self._fell_back = None
        trace = result.value.trace
        if trace.weights_source != "pretrained":
            return
        choice = Choice.of(trace.config)
        self._remember(choice)
        if self.loaded is None or not self.loaded.choice.same(choice):
            self.worker.submit("model-info", lambda: describe(self.engine, choice))

    def _fall_back(self, error: BaseException) -> None:
        """The first model failed (a damaged ``--model-dir`` or a session's folder): nothing
        is on screen yet, so show the default bundled model, and say why."""
        config = self.state.config
        fallback = Choice()
        if config.weights != "pretrained" or Choice.of(config).same(fallback):
            return  # the bundled model itself failed: its message stays

        def text() -> str:
            return (
                failure_text(error)
                + "  "
                + translate("ModelPicker", "The window shows the bundled model instead: {0}.").format(
                    choice_text(fallback)
                )
            )

        self._fell_back = text
        self.window.show_banner(text, ERROR_STYLE)
        files = self.window.files
        untouched = not files.changed()
        self.state.set_config(fallback.applied(config))
        if untouched:  # the window's choice, not the user's: nothing to save on quitting
            files.mark_clean()

    def _on_info(self, result) -> None:
        if result.ok and result.value.choice.same(Choice.of(self.state.config)):
            self._show(result.value)

    @property
    def loaded(self) -> LoadedModel | None:
        """What the labels describe (the state holds it)."""
        return self.state.loaded_model

    def _show(self, info: LoadedModel) -> None:
        self.state.set_loaded_model(info)

    def _on_config(self, event: str, state) -> None:
        choice = Choice.of(state.config)  # the picker shows it (Controls.show_config)
        if (
            state.config.weights == "pretrained"
            and choice.folder is None
            and choice.key not in self._ready
            and self._asked is None
            and catalogue.status(choice.key) == "convertible"
        ):  # a preset or a session chose it: the trace prepares it
            self._announce(choice)


def failure_text(exc: BaseException) -> str:
    return translate("Messages", "The model could not be used: {0}").format(error_text(exc))
