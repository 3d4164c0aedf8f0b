"""The whole window in Chinese: a walk through every menu, tab, dock, dialog, tooltip, notice
and banner that fails on any English left untranslated.

The inputs are digits and symbols, so no text the user typed can pass for English. What may
stay in Latin letters: model, file and format names, people's names (Bahdanau, Luong), the
formulas' symbols and variable names, units, key names, the [UNK]-style tokens, code
identifiers (W_O, d_k, config.json) and the English terms the Chinese lesson keeps on
purpose (Query, Key, Value, softmax, Transformer).
"""

from __future__ import annotations

import re

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.local_window import EXAMPLES as LOCAL_EXAMPLES
from explorer.appstate.state import CompareOptions
from explorer.appstate.why_attention import EXAMPLES
from explorer.core.config import AttentionConfig
from explorer.gui.docks.registry import Dock
from explorer.gui.exporting import ExportDialog
from explorer.gui.heatmap import MatrixCanvas
from explorer.gui.heatmap.figure import text_places
from explorer.gui.views.registry import TABS
from explorer.gui.views.tokens import TokenChips
from explorer.seq2seq.dates import MONTHS_EN, MONTHS_FR, WEEKDAYS_EN
from explorer.seq2seq.tasks import get_task

from .helpers import WAIT_MS, hover_cell, wait_trace

DIGITS = "3 + 4 = 7 , 8 × 9 = 72 ; 6 / 2 = 3"
# fmt: off
ALLOWED = {
    # names: models, people, products, the program, a language in its own words, a command
    "MiniLM", "BERT", "GPT", "Llama", "Mistral", "Qwen2", "Bahdanau", "Luong", "Olsson", "Abnar", "Zuidema", "Dosovitskiy", "Transformer", "Apple", "Metal", "PyTorch", "torch",
    "Thinking", "Machines", "Attention", "Explorer", "Qt", "English", "trace", "Hugging", "Face", "XLM",
    "local-m", "local-p", "local-p-ours", "softplus",  # Luong's local models, ours, and its step
    "text", "induction",  # the bundled language models' folder names (resources/lm/…), shown as their names
    # devices, formats, files
    "CPU", "GPU", "CUDA", "MPS", "cpu", "cuda", "mps",
    "PNG", "SVG", "CSV", "NPY", "JSON", "json", "npz", "png", "svg", "csv", "npy", "safetensors",
    "bin", "txt", "aexp", "pickle", "pip", "UTF", "NaN",
    # tokens of a vocabulary
    "UNK", "CLS", "SEP", "PAD", "MASK",
    # formulas, and the English terms the Chinese lesson keeps on purpose
    "softmax", "Softmax", "tanh", "exp", "ln", "argmax", "cos", "Query", "Key", "Value", "one-hot",
    "Squeeze", "Excitation", "sigmoid", "Sigmoid", "avg", "max", "logit", "logits",  # SENet's, CBAM's own words
    # units and key names
    "ms", "px", "nats", "KB", "MB", "GB",
    "Ctrl", "Shift", "Alt", "Meta", "Esc", "Del", "Home", "End", "PgUp", "PgDown", "Tab", "Enter",
    "Return", "Space", "Backspace", "Left", "Right", "Up", "Down",
}
# fmt: on
# a date to type into the Translation tab is an input, written as its language writes it
ALLOWED |= set(MONTHS_EN) | set(MONTHS_FR) | set(WEEKDAYS_EN)
# so is a sentence of the Why-attention tab's examples, and its translation (whole, not its words)
_task = get_task("compound-fr")
_reorder = get_task("reorder-zh")  # and the Global vs local tab's English sentences, with their Chinese
INPUT_SENTENCES = sorted(
    {*EXAMPLES, *(_task.join(_task.truth(_task.read(e)).target) for e in EXAMPLES),
     *LOCAL_EXAMPLES["reorder-zh"], *(_reorder.join(_reorder.truth(e.split()).target) for e in LOCAL_EXAMPLES["reorder-zh"])},
    key=len, reverse=True,
)  # fmt: skip
# fmt: off
FORMULA_WORDS = {"scores", "scaled", "weights", "masked", "concat", "output", "sample", "mask", "score", "norm"}
# fmt: on
WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*[A-Za-z]")


def english(text: str) -> list[str]:
    """The English words of a text that should have been translated."""
    for sentence in INPUT_SENTENCES:
        text = text.replace(sentence, " ")
    text = re.sub(r"“[^”]*”|\"[^\"]*\"|'[^']*'", " ", text)  # quoted examples of tokens
    text = re.sub(r"\[CLS\][^）)]*", " ", text)  # a list of example tokens
    text = re.sub(r"\b[a-z]+:(\d+|[KN])\b", " ", text)  # a mask as written: valid:4, window:K
    text = re.sub(r"\S+ → \S+(?= \d)", " ", text)  # tokens that find each other: visits → visite 0.75
    found = []
    for segment in re.split(r"\n|  •  |：|: |；|; ", text):
        # a formula, or the second line of one a narrow figure title wrapped: "softmax(masked)"
        formula = "=" in segment or "→" in segment or re.search(r"\b(soft|arg)max\(", segment) is not None
        for match in WORD.finditer(segment):
            word = match.group(0)
            start, end = match.span()
            before, after = segment[max(0, start - 1) : start], segment[end : end + 1]
            if (
                before in "_./-\\"
                and before
                or after in "_.-/"
                and after
                or before.isdigit()
                or after.isdigit()
            ):
                continue  # part of an identifier, a file name, a path or a number (W_O, d_k, config.json)
            if word in ALLOWED or (formula and word in FORMULA_WORDS):
                continue
            if "--" in word:
                continue  # a folder name as Hugging Face's cache spells it (models--org--name)
            if any(c.isupper() for c in word[1:]):
                continue  # CamelCase: a code identifier (MultiHeadAttention)
            found.append(word)
    return found


class Walk:
    """Collects every text the window shows or can show, with where it was found."""

    def __init__(self, window):
        self.w = window
        self.texts: list[tuple[str, str]] = []

    def add(self, where: str, text) -> None:
        if text:
            self.texts.append((where, str(text)))

    def action(self, where: str, action: QtGui.QAction) -> None:
        if action.isSeparator():
            return
        self.add(f"{where} action", action.text().replace("&", ""))
        self.add(
            f"{where} action tooltip",
            action.toolTip() if action.toolTip() != action.text().replace("&", "") else "",
        )
        self.add(f"{where} action status tip", action.statusTip())
        if action.menu() is not None:
            self.menu(f"{where} > {action.text()}", action.menu())

    def menu(self, where: str, menu: QtWidgets.QMenu) -> None:
        menu.aboutToShow.emit()  # menus filled when opened (recent sessions, ☰)
        self.add(f"{where} title", menu.title().replace("&", ""))
        for action in menu.actions():
            self.action(where, action)

    def widget(self, where: str, w: QtWidgets.QWidget) -> None:
        kind = type(w).__name__
        self.add(f"{where} {kind} tooltip", w.toolTip())
        self.add(f"{where} {kind} status tip", w.statusTip())
        if isinstance(w, QtWidgets.QLabel):
            self.add(f"{where} label", QtGui.QTextDocumentFragment.fromHtml(w.text()).toPlainText())
        elif isinstance(w, QtWidgets.QAbstractButton):
            self.add(f"{where} button", w.text().replace("&", ""))
        elif isinstance(w, QtWidgets.QLineEdit):
            self.add(f"{where} placeholder", w.placeholderText())
        elif isinstance(w, QtWidgets.QComboBox):
            for i in range(w.count()):
                self.add(f"{where} combo item", w.itemText(i))
                self.add(f"{where} combo item tooltip", w.itemData(i, QtCore.Qt.ItemDataRole.ToolTipRole))
        elif isinstance(w, QtWidgets.QTabWidget):
            for i in range(w.count()):
                self.add(f"{where} tab", w.tabText(i))
                self.add(f"{where} tab tooltip", w.tabToolTip(i))
        elif isinstance(w, QtWidgets.QTableWidget):
            for c in range(w.columnCount()):
                item = w.horizontalHeaderItem(c)
                self.add(f"{where} header", item.text() if item else "")
            for r in range(w.rowCount()):
                for c in range(w.columnCount()):
                    item = w.item(r, c)
                    self.add(f"{where} cell", item.text() if item else "")
        elif isinstance(w, QtWidgets.QTextBrowser):  # subscripts are indices (q_d, v_j), not words
            html = re.sub(
                r"<sub>.*?</sub>|<span style=\"[^\"]*vertical-align:sub;[^\"]*\">[^<]*</span>", "", w.toHtml()
            )
            self.add(f"{where} page", QtGui.QTextDocumentFragment.fromHtml(html).toPlainText())
        elif isinstance(w, QtWidgets.QDockWidget):
            self.add(f"{where} dock title", w.windowTitle())
        elif isinstance(w, MatrixCanvas):
            for place in text_places(w.current_layout(), w.figure, w.style_):
                if place.kind in ("title", "header"):
                    self.add(f"{where} figure {place.kind}", place.text)
        elif isinstance(w, TokenChips):
            self.add(f"{where} chips caption", w.caption)
            for group in w.groups:
                self.add(f"{where} chips group", group.title)
            for chip in w.chips():
                self.add(f"{where} chip id", chip.id_text)

    def window_tree(self, where: str, top: QtWidgets.QWidget) -> None:
        self.add(f"{where} title", top.windowTitle())
        for w in [top, *top.findChildren(QtWidgets.QWidget)]:
            if w.window() is top:
                self.widget(where, w)
        for action in top.actions():
            self.action(f"{where} (keys)", action)

    def problems(self) -> list[str]:
        """Each text with English in it, once, with where it was first seen."""
        out: dict[str, str] = {}
        for where, text in self.texts:
            words = english(text)
            if words and text not in out:
                out[text] = f"{where}: {text[:160]!r} ({', '.join(sorted(set(words)))})"
        return sorted(out.values())


def idle(qtbot, w):
    qtbot.waitUntil(lambda: not w.worker.busy(), timeout=WAIT_MS)
    QtWidgets.QApplication.processEvents()


def test_the_detector_finds_english_and_spares_what_may_stay():
    assert english("无法计算：the sentence is empty: type at least one word") == [
        "the",
        "sentence",
        "is",
        "empty",
        "type",
        "at",
        "least",
        "one",
        "word",
    ]
    assert english("注意：The causal mask acts in layer 5 only") != []
    assert english("B：dot, soft, ÷√d_k") == ["dot", "soft"]
    assert english("head 0 · H̄ 1.23") == ["head"]
    assert english("auto (best available)") == ["auto", "best", "available"]
    assert english("picture → CNN blocks → class") == ["picture", "blocks", "class"]  # a formula's words
    assert english("（visits → visite 0.75，Africa → Afrique 0.38）") == []  # tokens that align
    for fine in (
        "scores = Q·Kᵀ  [15×15]",
        "weights = softmax(masked)",
        "头 11 = weights·V",
        "内置 all-MiniLM-L6-v2",
        "训练好的模型某一层的 W_Q、W_K、W_V、W_O",
        "Ctrl+Shift+S",
        "设备 cpu  |  计算 7.6 ms",
        "有 2 个词元变成了 [UNK]",
        "“it”这一行把 0.65 的注意力权重给了“animal”",
        "请使用模型自带的 config.json",
    ):
        assert english(fine) == [], fine


@pytest.fixture
def walk(make_window, qtbot, monkeypatch):
    from explorer.gui import i18n

    w = make_window(AttentionConfig(sentence=DIGITS), size=(1400, 900))
    w.state.set_language("zh_CN")
    assert i18n.current_language() == "zh_CN"
    idle(qtbot, w)
    return Walk(w)


def test_every_text_of_the_window_is_chinese(qtbot, walk, tmp_path, monkeypatch):
    w, s = walk.w, walk.w.state
    # menus (the File, View and Help menus, their submenus) and every key's action
    for action in w.menuBar().actions():
        walk.action("menu bar", action)
    # every tab, with a cell selected (the worked arithmetic, the selection) and hovered
    w.docks.set_visible(Dock.WORKED, True)
    s.select_cell((2, 1))
    s.set_compare(
        CompareOptions.from_changes(scoring="cosine", attention="hard", mask="causal", temperature=0.5)
    )
    for spec in TABS:
        s.set_tab(spec.tab.value)
        idle(qtbot, w)
        view = w.tabs.current_view()
        canvas = getattr(view, "canvas", None)
        if isinstance(canvas, MatrixCanvas) and canvas.current_layout().boxes:
            hover_cell(qtbot, canvas, canvas.current_layout().boxes[0].index, 1, 1)
        walk.window_tree(f"tab {spec.tab.value}", w)
    # the lesson, step by step, then presentation mode (its bar, the ☰ menu, the side lesson)
    s.show_lesson(True)
    for i in range(len(STEPS)):
        s.set_lesson_step(i)
        walk.window_tree(f"lesson step {i + 1}", w)
    w.classroom.set_presentation(True, fullscreen=False)
    s.set_lesson_step(0)
    idle(qtbot, w)
    walk.window_tree("presentation", w)
    walk.menu("☰", w.classroom.menu_button.menu())
    w.classroom.set_presentation(False)
    # dialogs: keyboard shortcuts, export, unsaved changes, a session that cannot open
    w.classroom.act_shortcuts.trigger()
    walk.window_tree("shortcut sheet", w.classroom.sheet)
    w.classroom.sheet.close()
    dialog = ExportDialog(w.exporter)
    qtbot.addWidget(dialog)
    for i in range(dialog.what.count()):
        dialog.what.setCurrentIndex(i)
        walk.window_tree("export dialog", dialog)
    w.controls.sentence.setText(DIGITS + " ! ")
    B = QtWidgets.QMessageBox.StandardButton

    def answer(where: str, button) -> None:
        """Walk the unsaved-changes question when it shows, then answer it."""
        box = getattr(w, "unsaved_box", None)
        if box is None:
            QtCore.QTimer.singleShot(20, lambda: answer(where, button))
            return
        walk.window_tree(where, box)
        box.button(button).click()

    QtCore.QTimer.singleShot(0, lambda: answer("unsaved changes", B.Cancel))
    w.quit_action.trigger()
    assert w.isVisible()
    boxes = []
    monkeypatch.setattr(
        QtWidgets.QMessageBox, "warning", lambda parent, title, text: boxes.append((title, text))
    )
    bad = tmp_path / "broken.aexp.json"  # a field that cannot be used
    bad.write_text('{"format": "attention-explorer-session", "version": 2, "tab": 3}', encoding="utf-8")
    # opening over unsaved changes asks first, as quitting does
    QtCore.QTimer.singleShot(0, lambda: answer("unsaved changes, opening", B.Discard))
    w.files.open(bad, interactive=True)
    ((title, text),) = boxes
    walk.add("session error dialog title", title)
    walk.add("session error dialog", text)
    walk.add("session error banner", w.banner.text())
    # the file dialogs: their titles and filters are ours; their own labels are Qt's
    asked = []
    monkeypatch.setattr(
        QtWidgets.QFileDialog,
        "getOpenFileName",
        lambda parent, title, folder, filters: asked.append((title, filters)) or ("", ""),
    )
    monkeypatch.setattr(
        QtWidgets.QFileDialog,
        "getSaveFileName",
        lambda parent, title, name, filters: asked.append((title, filters)) or ("", ""),
    )
    w.files.open_dialog()
    w.files.save_dialog()
    w.exporter.window_dialog()
    for title, filters in asked:
        walk.add("file dialog title", title)
        walk.add("file dialog filter", filters)
    qt_dialog = QtWidgets.QFileDialog(w, asked[0][0], str(tmp_path), asked[0][1])
    qt_dialog.setOption(QtWidgets.QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(qt_dialog)
    for label in qt_dialog.findChildren(QtWidgets.QLabel):
        walk.add("Qt's file dialog label", label.text().replace("&", ""))
    for button in qt_dialog.findChildren(QtWidgets.QPushButton):
        walk.add("Qt's file dialog button", button.text().replace("&", ""))
    # the status bar
    walk.add("status bar", w.status_text.text())
    assert not walk.problems(), "\n".join(walk.problems())
    assert len(walk.texts) > 600  # it really walked


NOTICES = [  # (config changes, what the notice is about)
    (dict(sentence="注意力 3 4"), "[UNK]"),
    (dict(heads=4), "regrouped heads"),
    (dict(scoring="additive", weights="random"), "untrained (core notice)"),
    (dict(scoring="general"), "untrained (teaching note)"),
    (dict(mask="causal", layer=5), "a mask after context (teaching note)"),
    (dict(mask="window:1", layer=0), "a mask never trained with (teaching note)"),
    (dict(max_tokens=4), "cut tokens"),
    (dict(weights="random", max_tokens=3), "cut words"),
    (dict(mask="valid:0"), "valid length 0"),
    (dict(mask="valid:99"), "valid length beyond"),
    (dict(sentence="3\x07 4"), "control characters"),
    (dict(device="cuda"), "device fallback"),
]


def test_every_notice_and_banner_is_chinese(qtbot, walk, tmp_path):
    w, s = walk.w, walk.w.state
    base = s.config
    for changes, about in NOTICES:
        s.set_config(base.with_(**changes))
        wait_trace(qtbot, w, **changes)
        idle(qtbot, w)
        assert w.notice.text(), about
        walk.add(f"notice: {about}", w.notice.text())
    # banners: errors of the computation, of the controls, of a model folder; cancel; loading
    s.set_config(base)
    wait_trace(qtbot, w, sentence=DIGITS)
    w.controls.sentence.setText("")
    qtbot.waitUntil(w.banner.isVisible, timeout=WAIT_MS)
    walk.add("banner: empty sentence", w.banner.text())
    w.controls.sentence.setText(DIGITS)
    s.set_config(base.with_(weights="random", d_model=64, heads=5))
    qtbot.waitUntil(w.banner.isVisible, timeout=WAIT_MS)
    walk.add("banner: heads do not divide", w.banner.text())
    s.set_config(base.with_(model_dir=str(tmp_path / "no-such-model")))
    qtbot.waitUntil(lambda: w.banner.isVisible() and "no-such-model" in w.banner.text(), timeout=WAIT_MS)
    walk.add("banner: model folder", w.banner.text())
    s.set_config(base)
    wait_trace(qtbot, w, sentence=DIGITS, model_dir=None)
    w.cancel()
    walk.add("banner: cancelled", w.banner.text())
    message = w.exporter.export_panel("pipeline:weights", tmp_path / "nowhere" / "x.png")
    walk.add("export failure", message)
    walk.add("export failure banner", w.banner.text())
    assert not walk.problems(), "\n".join(walk.problems())
