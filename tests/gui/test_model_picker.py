"""The model picker, driven as a user would: bundled models, recent folders, a folder of one's
own, a .bin that needs converting, a broken folder, the first use of a bundled model that is
prepared on the worker, and both languages. The labels must name the model actually loaded."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
import torch
from PySide6 import QtCore, QtWidgets

from explorer.appstate.presets import PRESETS
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.gui import i18n
from explorer.gui.model_picker import Choice, folder_label
from explorer.gui.preferences import MAX_RECENT, MemorySettings, Preferences
from explorer.models import catalogue, ready

from .helpers import ANIMAL, WAIT_MS, wait_trace

ROLE = QtCore.Qt.ItemDataRole.UserRole


# -- helpers ------------------------------------------------------------------------------------


def row_of(picker, kind: str, value: str | None = None) -> int:
    for row in range(picker.count()):
        data = picker.itemData(row, ROLE)
        if data and data[0] == kind and (value is None or data[1] == value):
            return row
    raise AssertionError(f"no {kind} {value} in the picker")


def pick(qtbot, picker, row: int) -> None:
    """Open the list and click the row, as a user does."""
    picker.showPopup()
    view = picker.view()
    qtbot.waitUntil(view.isVisible, timeout=WAIT_MS)
    index = view.model().index(row, 0)
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
    qtbot.waitUntil(lambda: not view.isVisible(), timeout=WAIT_MS)


def wait_model(qtbot, window, name: str) -> None:
    """Until the trace and every label are of this model and nothing is computing."""

    def done():
        assert window.trace is not None and window.trace.model_name == name
        assert window.models.loaded is not None and window.models.loaded.name == name
        assert not window.worker.busy()

    qtbot.waitUntil(done, timeout=WAIT_MS)


def heads_offered(controls) -> list[int]:
    return [controls.heads.itemData(i) for i in range(controls.heads.count())]


@pytest.fixture(scope="module")
def tiny_module():
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    from tests.models import tiny

    return tiny


@pytest.fixture(scope="module")
def tiny_folder(tiny_module, tmp_path_factory) -> Path:
    return tiny_module.build(tmp_path_factory.mktemp("picked") / "tiny-bert", "bert")


@pytest.fixture
def bin_folder(tiny_module, tmp_path) -> Path:
    return tiny_module.build(tmp_path / "old-checkpoint", "bert", safetensors=False, seed=3)


@pytest.fixture
def dialog_returns(monkeypatch):
    """dialog_returns(folder): "Open model folder…" answers with this folder."""

    def set_answer(folder):
        monkeypatch.setattr(
            QtWidgets.QFileDialog,
            "getExistingDirectory",
            lambda *a, **k: "" if folder is None else str(folder),
        )

    return set_answer


# -- start-up -----------------------------------------------------------------------------------


def test_start_up_loads_only_the_english_model(qtbot, monkeypatch):
    """The window's first trace loads MiniLM alone: the second model is neither loaded,
    nor converted, nor read beyond the catalogue's file checks."""
    import explorer.core.engine as engine_module
    from explorer.gui.main_window import MainWindow

    loaded, prepared = [], []
    real_load, real_ready = engine_module.load_model, ready.ready_dir
    monkeypatch.setattr(
        engine_module, "load_model", lambda path: loaded.append(Path(path)) or real_load(path)
    )
    monkeypatch.setattr(ready, "ready_dir", lambda key: prepared.append(key) or real_ready(key))
    fresh = Engine()
    window = MainWindow(fresh, AttentionConfig(sentence=ANIMAL), settings=MemorySettings())
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.rendered, timeout=WAIT_MS):
        window.show()
    wait_model(qtbot, window, "all-MiniLM-L6-v2")
    assert loaded == [catalogue.model_dir("minilm").resolve()]
    assert "multilingual" not in prepared
    assert [Path(k) for k in fresh._models] == [catalogue.model_dir("minilm").resolve()]
    picker = window.controls.model_picker
    multilingual = picker.model().item(row_of(picker, "catalogue", "multilingual"))
    assert multilingual.isEnabled()  # listed and ready to choose, yet never read
    window.close()


def test_start_up_loads_the_model_after_the_first_paint(qtbot, monkeypatch):
    """The first model's tokenizer holds the interpreter lock while it loads: the window paints
    itself before the worker starts it, never while."""
    from PySide6 import QtCore, QtWidgets

    import explorer.core.engine as engine_module
    from explorer.gui.main_window import MainWindow

    events: list[str] = []
    real_load = engine_module.load_model
    monkeypatch.setattr(engine_module, "load_model", lambda path: events.append("load") or real_load(path))
    window = MainWindow(Engine(), AttentionConfig(sentence=ANIMAL), settings=MemorySettings())
    qtbot.addWidget(window)

    class Paints(QtCore.QObject):
        def eventFilter(self, obj, event):
            if event.type() == QtCore.QEvent.Type.Paint and isinstance(obj, QtWidgets.QWidget):
                if obj.window() is window and "paint" not in events:
                    events.append("paint")
            return False

    paints = Paints()
    QtWidgets.QApplication.instance().installEventFilter(paints)
    try:
        with qtbot.waitSignal(window.rendered, timeout=WAIT_MS):
            window.show()
    finally:
        QtWidgets.QApplication.instance().removeEventFilter(paints)
    assert events[:2] == ["paint", "load"]
    window.close()


# -- the bundled models ------------------------------------------------------------------------------


def test_pick_each_bundled_model_and_every_label_follows(qtbot, window):
    c = window.controls
    picker = c.model_picker
    assert picker.currentText() == "English: all-MiniLM-L6-v2"
    wait_model(qtbot, window, "all-MiniLM-L6-v2")
    assert c.model_label.text() == (
        "all-MiniLM-L6-v2 (BERT, 6 layers × 12 heads, 384 wide; float32 weights as published; "
        "English word pieces)"
    )
    c.layer.setValue(5)
    wait_trace(qtbot, window, layer=5)
    tip = picker.itemData(row_of(picker, "catalogue", "multilingual"), QtCore.Qt.ItemDataRole.ToolTipRole)
    assert "4-bit weights, dequantised; vocabulary pruned" in tip

    pick(qtbot, picker, row_of(picker, "catalogue", "multilingual"))
    wait_model(qtbot, window, "multilingual-e5-small")
    t = window.trace
    assert t.config.model == "multilingual" and t.config.model_dir is None and t.layer == 5
    assert t.weights_source == "pretrained" and t.tokens_key[0] == "<s>"
    assert picker.currentText() == "Chinese + English + French: multilingual-e5-small"
    assert c.model_label.text() == (
        "multilingual-e5-small (XLM-RoBERTa, 12 layers × 12 heads, 384 wide; 4-bit weights, "
        "dequantised; vocabulary pruned to Chinese, English and French)"
    )
    assert "bundled" not in c.model_label.text().lower()
    assert c.source.itemText(c.source.findData("pretrained")) == "pretrained: multilingual-e5-small"
    assert c.width.value() == 384 and not c.width.isEnabled()
    assert c.layer.maximum() == 11
    assert heads_offered(c) == [h for h in range(1, 385) if 384 % h == 0]
    assert c.heads.currentText() == "12 (model's own)"
    assert "multilingual-e5-small layer 5" in window.status_text.text()
    c.layer.setValue(9)
    wait_trace(qtbot, window, layer=9)

    # back to MiniLM: layer 9 does not exist there, so the layer follows the model's range
    pick(qtbot, picker, row_of(picker, "catalogue", "minilm"))
    wait_model(qtbot, window, "all-MiniLM-L6-v2")
    assert window.trace.config.model == "minilm" and window.trace.layer == 5
    assert c.layer.maximum() == 5 and c.layer.value() == 5
    assert c.model_label.text().startswith("all-MiniLM-L6-v2 (BERT, 6 layers × 12 heads, 384 wide")
    assert c.source.itemText(c.source.findData("pretrained")) == "pretrained: all-MiniLM-L6-v2"
    # random weights keep their own width; pretrained shows the model's
    c.source.setCurrentIndex(c.source.findData("random"))
    wait_trace(qtbot, window, weights="random")
    assert c.width.value() == 64 and c.width.isEnabled() and window.trace.X_query.shape[1] == 64
    assert not c.model_label.isEnabled()
    c.source.setCurrentIndex(c.source.findData("pretrained"))
    wait_trace(qtbot, window, weights="pretrained")
    assert c.width.value() == 384 and window.state.config.d_model == 64


def test_chinese_presets_switch_to_the_multilingual_model(qtbot, window):
    c = window.controls
    index = next(i for i, p in enumerate(PRESETS) if p.name.startswith("Who is 它"))
    c.preset.setCurrentIndex(c.preset.findData(index))
    c.preset.activated.emit(c.preset.currentIndex())
    wait_model(qtbot, window, "multilingual-e5-small")
    t = window.trace
    assert t.unk_count == 0 and not window.notice.isVisible()
    assert c.model_picker.currentText() == "Chinese + English + French: multilingual-e5-small"
    assert c.model_label.text().startswith("multilingual-e5-small (XLM-RoBERTa")
    assert (window.state.selected_head, window.state.selected_cell) == (2, (10, 4))
    it, subject = window.state.selected_cell
    assert t.tokens_query[it] == "它" and t.tokens_key[subject] == "机制"
    assert window.pipeline.panel("weights").shown[it, subject] == pytest.approx(t.weights[2, it, subject])


@pytest.mark.parametrize("times", [1, 40])  # 40: cut to 512 tokens, its notice counts what was read
def test_unknown_characters_offer_the_model_that_reads_them(qtbot, window, times):
    """Chinese typed into the English model: the [UNK] notice has a button that switches to the
    multilingual model, which reads every character; on that model the button is gone."""
    sentence = "这只动物没有过马路，因为它太累了。" * times
    window.state.update_config(sentence=sentence)
    wait_trace(qtbot, window, sentence=sentence)
    assert window.trace.unk_count > 0 and "[UNK]" in window.notice.text()
    action = window.strip.action
    assert action.isVisible() and action.text() == "Read it with the multilingual model"
    qtbot.mouseClick(action, QtCore.Qt.MouseButton.LeftButton)
    wait_model(qtbot, window, "multilingual-e5-small")
    assert window.trace.unk_count == 0 and not action.isVisible()
    assert any("这" in token for token in window.trace.tokens_query)


# -- folders of one's own -------------------------------------------------------------------------------------


def test_open_a_model_folder(qtbot, window, tiny_folder, tiny_module, dialog_returns):
    c = window.controls
    dialog_returns(tiny_folder)
    c.layer.setValue(4)
    wait_trace(qtbot, window, layer=4)
    pick(qtbot, c.model_picker, row_of(c.model_picker, "open"))
    wait_model(qtbot, window, "tiny-bert")
    t = window.trace
    assert t.config.model_dir == str(tiny_folder) and t.weights_source == "pretrained"
    assert t.layer == 2 and c.layer.maximum() == 2  # 3 layers: the layer follows
    assert c.width.value() == 32 and heads_offered(c) == [1, 2, 4, 8, 16, 32]
    assert c.heads.currentText() == "4 (model's own)"
    assert c.model_label.text() == f"Folder: {tiny_folder}\ntiny-bert (BERT, 3 layers × 4 heads, 32 wide)"
    assert c.source.itemText(c.source.findData("pretrained")) == "pretrained: tiny-bert"
    assert c.model_picker.currentText() == "tiny-bert"
    assert window.prefs.recent_models() == [str(tiny_folder.resolve())]
    # the numbers shown are transformers' own for that folder (eager attention, last layer)
    ref = tiny_module.reference(tiny_folder)
    model = window.engine.model(str(tiny_folder))
    ids = model.tokenizer.encode(ANIMAL, model.max_tokens).ids
    with torch.no_grad():
        expected = ref(torch.tensor([ids]), output_attentions=True).attentions[2][0].numpy()
    np.testing.assert_allclose(t.weights, expected, atol=1e-5)
    np.testing.assert_array_equal(
        window.pipeline.panel("weights").shown, t.weights[window.state.selected_head]
    )


def test_a_hugging_face_cache_folder_opens_too(
    qtbot, window, tiny_folder, tiny_module, tmp_path, dialog_returns
):
    cache = tiny_module.cache_layout(tiny_folder, tmp_path / "hub", repo="someone/tiny-cached")
    dialog_returns(cache)
    pick(qtbot, window.controls.model_picker, row_of(window.controls.model_picker, "open"))
    wait_model(qtbot, window, "someone/tiny-cached")
    assert window.controls.model_picker.currentText() == "someone/tiny-cached" == folder_label(str(cache))


def test_recent_folders_newest_first_and_missing_ones_greyed(
    qtbot, make_window, tmp_path, tiny_folder, monkeypatch
):
    settings = MemorySettings()
    prefs = Preferences(settings)
    folders = []
    for n in range(MAX_RECENT + 2):
        folder = tmp_path / f"model-{n}"
        folder.mkdir()
        folders.append(folder)
        prefs.add_recent_model(folder)
    assert prefs.recent_models() == [str(f) for f in reversed(folders)][:MAX_RECENT]  # at most 8
    prefs.add_recent_model(folders[5])  # used again: first
    assert prefs.recent_models()[:2] == [str(folders[5]), str(folders[-1])]
    folders[-1].rmdir()  # moved away since
    window = make_window(AttentionConfig(sentence=ANIMAL), settings=settings)
    picker = window.controls.model_picker
    rows = [row_of(picker, "folder", str(f)) for f in (folders[5], folders[-1])]
    assert rows[0] < rows[1]  # newest first
    gone = picker.model().item(rows[1])
    assert not gone.isEnabled() and gone.text() == f"{folders[-1].name} (not found)"
    assert "the folder is gone" in gone.toolTip() and str(folders[-1]) in gone.toolTip()
    assert picker.model().item(rows[0]).isEnabled()
    # a folder that loads goes first in the list and in the preferences
    monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: str(tiny_folder))
    pick(qtbot, picker, row_of(picker, "open"))
    wait_model(qtbot, window, "tiny-bert")
    assert prefs.recent_models()[0] == str(tiny_folder.resolve())
    first_folder_row = min(row_of(picker, "folder", str(f)) for f in (tiny_folder.resolve(), folders[5]))
    assert picker.itemData(first_folder_row, ROLE) == ("folder", str(tiny_folder.resolve()))
    assert len(prefs.recent_models()) == MAX_RECENT


def test_a_broken_folder_keeps_the_last_result_and_the_model(
    qtbot, window, tmp_path, tiny_folder, dialog_returns
):
    from tests.models import tiny

    broken = tiny.copy_folder(tiny_folder, tmp_path / "broken")
    tiny.edit_config(broken, hidden_size=48)  # the tensors say 32
    good, config = window.trace, window.state.config
    picker = window.controls.model_picker
    dialog_returns(broken)
    pick(qtbot, picker, row_of(picker, "open"))
    qtbot.waitUntil(
        lambda: window.banner.isVisible() and "could not be used" in window.banner.text(), timeout=WAIT_MS
    )
    assert "config.json" in window.banner.text() and "last good result" in window.banner.text()
    assert window.trace is good and window.state.config == config
    assert picker.currentText() == "English: all-MiniLM-L6-v2" and picker.pending is None
    assert window.prefs.recent_models() == []  # only folders that loaded are remembered
    # an empty folder too
    empty = tmp_path / "empty"
    empty.mkdir()
    dialog_returns(empty)
    pick(qtbot, picker, row_of(picker, "open"))
    qtbot.waitUntil(
        lambda: "no weights" in window.banner.text() or "config" in window.banner.text(), timeout=WAIT_MS
    )
    assert window.trace is good and picker.currentText() == "English: all-MiniLM-L6-v2"
    # Open model folder… then Cancel in the dialog: nothing changes
    dialog_returns(None)
    pick(qtbot, picker, row_of(picker, "open"))
    assert picker.currentText() == "English: all-MiniLM-L6-v2" and window.state.config == config


# -- pytorch_model.bin: asked, converted on the worker -------------------------------------------------------------


def answer(qtbot, window, button: str) -> QtWidgets.QMessageBox:
    qtbot.waitUntil(
        lambda: window.models.question is not None and window.models.question.isVisible(), timeout=WAIT_MS
    )
    box = window.models.question
    wanted = next(b for b in box.buttons() if b.text().replace("&", "") == button)
    qtbot.mouseClick(wanted, QtCore.Qt.MouseButton.LeftButton)
    return box


def test_a_bin_folder_is_converted_after_the_user_agrees(
    qtbot, window, bin_folder, dialog_returns, monkeypatch
):
    import explorer.models.convert_bin as convert_bin

    threads = []
    real_convert = convert_bin.convert
    monkeypatch.setattr(
        convert_bin,
        "convert",
        lambda source: threads.append(threading.current_thread()) or real_convert(source),
    )
    dialog_returns(bin_folder)
    picker = window.controls.model_picker
    pick(qtbot, picker, row_of(picker, "open"))
    qtbot.waitUntil(lambda: window.models.question is not None, timeout=WAIT_MS)
    box = window.models.question
    size_mb = (bin_folder / "pytorch_model.bin").stat().st_size / 1e6
    target = convert_bin.conversion_target(bin_folder / "pytorch_model.bin")
    assert "pytorch_model.bin" in box.text() and f"{size_mb:.1f} MB" in box.text()
    assert str(target) in box.informativeText() and "nothing in the file is run" in box.informativeText()
    assert window.trace.model_name == "all-MiniLM-L6-v2"  # nothing changed while it asks
    answer(qtbot, window, "Convert")
    wait_model(qtbot, window, "old-checkpoint")
    assert threads and threads[0] is not threading.main_thread()  # converted on the worker
    assert target.is_file() and window.trace.config.model_dir == str(bin_folder)
    assert "converted from pytorch_model.bin" in window.controls.model_label.text()
    assert not window.banner.isVisible()


def test_cancel_keeps_the_last_result_and_the_model(qtbot, window, bin_folder, dialog_returns):
    import explorer.models.convert_bin as convert_bin

    good, config = window.trace, window.state.config
    dialog_returns(bin_folder)
    picker = window.controls.model_picker
    pick(qtbot, picker, row_of(picker, "open"))
    answer(qtbot, window, "Cancel")
    qtbot.waitUntil(lambda: picker.pending is None, timeout=WAIT_MS)
    assert window.trace is good and window.state.config == config
    assert picker.currentText() == "English: all-MiniLM-L6-v2"
    assert "Not converted" in window.banner.text()
    assert not convert_bin.conversion_target(bin_folder / "pytorch_model.bin").exists()


def test_a_bin_folder_from_a_session_asks_too(qtbot, window, bin_folder):
    """A configuration that names a .bin folder (a session, --model-dir): the failed trace
    asks; Cancel goes back to the model of the last result."""
    good = window.trace
    window.state.update_config(model_dir=str(bin_folder))
    answer(qtbot, window, "Cancel")
    wait_trace(qtbot, window, model_dir=None)
    assert window.trace.model_name == "all-MiniLM-L6-v2" and window.trace.tokens_key == good.tokens_key


# -- a bundled model prepared on first use --------------------------------------------------------------------------


def test_first_use_preparation_runs_on_the_worker_and_the_window_stays_usable(qtbot, window, monkeypatch):
    release, calls = threading.Event(), []
    real_ready, real_status = ready.ready_dir, catalogue.status
    monkeypatch.setattr(
        catalogue, "status", lambda key: "convertible" if key == "multilingual" else real_status(key)
    )

    def slow_ready(key):  # stands for the conversion of the bundle's 4-bit file
        if key == "multilingual":
            calls.append(threading.current_thread())
            release.wait(WAIT_MS / 1000)
        return real_ready(key)

    monkeypatch.setattr(ready, "ready_dir", slow_ready)
    picker = window.controls.model_picker
    picker.showPopup()  # the list is checked again when it opens
    tip = picker.itemData(row_of(picker, "catalogue", "multilingual"), QtCore.Qt.ItemDataRole.ToolTipRole)
    picker.hidePopup()
    assert "prepared once" in tip
    pick(qtbot, picker, row_of(picker, "catalogue", "multilingual"))
    qtbot.waitUntil(lambda: bool(calls), timeout=WAIT_MS)
    assert calls[0] is not threading.main_thread()
    assert window.banner.isVisible()
    assert window.banner.text().startswith("Preparing the Chinese model (first use, about 10 s)…")
    # the window answers meanwhile: typing edits the state
    window.controls.sentence.selectAll()
    qtbot.keyClicks(window.controls.sentence, "attention")
    assert window.state.config.sentence == "attention"
    assert picker.currentText() == "Chinese + English + French: multilingual-e5-small"  # what it prepares
    release.set()
    wait_model(qtbot, window, "multilingual-e5-small")
    assert window.trace.config.sentence == "attention" and not window.banner.isVisible()


# -- words --------------------------------------------------------------------------------------------------------------


def test_every_picker_text_in_both_languages(qtbot, window, tiny_folder, bin_folder, dialog_returns):
    c = window.controls
    picker = c.model_picker
    window.models.choose(Choice.folder_of(tiny_folder))
    wait_model(qtbot, window, "tiny-bert")
    english = {row: picker.itemText(row) for row in range(picker.count())}
    english_tips = {
        row: picker.itemData(row, QtCore.Qt.ItemDataRole.ToolTipRole) for row in range(picker.count())
    }
    label, weights = c.model_label.text(), c.source.itemText(c.source.findData("pretrained"))
    window.state.set_language("zh_CN")
    assert i18n.current_language() == "zh_CN"
    assert picker.itemText(row_of(picker, "catalogue", "minilm")) == "英文：all-MiniLM-L6-v2"
    assert (
        picker.itemText(row_of(picker, "catalogue", "multilingual"))
        == "中文 + 英文 + 法文：multilingual-e5-small"
    )
    assert picker.itemText(row_of(picker, "open")) == "打开模型文件夹…"
    for key in ("minilm", "multilingual", "open"):
        row = row_of(picker, "catalogue", key) if key != "open" else row_of(picker, "open")
        assert picker.itemText(row) != english[row]
        assert picker.itemData(row, QtCore.Qt.ItemDataRole.ToolTipRole) != english_tips[row]
    assert c.model_label.text() != label and "文件夹" in c.model_label.text() and "层" in c.model_label.text()
    assert c.source.itemText(c.source.findData("pretrained")) != weights
    assert "模型" in picker.toolTip() and c.labels["model"].text() == "模型"
    # the conversion question speaks Chinese too
    dialog_returns(bin_folder)
    pick(qtbot, picker, row_of(picker, "open"))
    box = answer(qtbot, window, "取消")
    assert box.windowTitle() == "转换模型权重？"
    qtbot.waitUntil(lambda: "未转换" in window.banner.text(), timeout=WAIT_MS)
    window.state.set_language("en")
    assert {row: picker.itemText(row) for row in range(picker.count())} == english
    assert c.model_label.text() == label
