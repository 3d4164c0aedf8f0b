"""What using the window for real (Xvfb) found, each as the test that would have caught it."""

import shutil
from pathlib import Path

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lines import LinesOptions
from explorer.appstate.vision import Picture
from explorer.core.board import board_trace
from explorer.core.config import AttentionConfig
from explorer.gui import i18n
from explorer.gui.heatmap.panel import cell_value_text
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS
from .test_board_tab import SMALL, shown, type_into

ROLE = QtCore.Qt.ItemDataRole.UserRole
B = QtWidgets.QMessageBox.StandardButton


@pytest.fixture
def small(make_window):
    return make_window(AttentionConfig(sentence="a b c", weights="random"))


def asked_when_quitting(qtbot, w) -> bool:
    """Press Ctrl+Q; True when the unsaved-changes question showed (answered Cancel: the
    window stays)."""
    asked = []

    def cancel():
        box = getattr(w, "unsaved_box", None)
        if box is None or not box.isVisible():
            if w.isVisible() and not asked:
                QtCore.QTimer.singleShot(10, cancel)
            return
        asked.append(True)
        box.button(B.Cancel).click()

    QtCore.QTimer.singleShot(0, cancel)
    w.quit_action.trigger()
    assert w.isVisible() == bool(asked)
    return bool(asked)


# -- 1. every setting a session saves counts as a change -----------------------------------------------------


def test_typing_a_source_and_picking_a_model_on_the_translation_tab_asks_before_quitting(
    qtbot, small, tmp_path
):
    """Open a session, type a date on the Translation tab and pick Luong:
    Ctrl+Q quit without asking, and both were lost (it once did)."""
    w = small
    path = tmp_path / "lesson.aexp.json"
    assert w.files.save(path) and w.files.open(path)
    w.state.set_tab(Tab.TRANSLATION)
    view = w.view(Tab.TRANSLATION)
    qtbot.waitUntil(lambda: view.isVisible(), timeout=WAIT_MS)
    assert not w.unsaved()  # only looking: nothing to lose
    view.source_edit.clear()
    qtbot.keyClicks(view.source_edit, "9.5.18")
    assert w.state.translation.settings.source == "9.5.18"
    assert asked_when_quitting(qtbot, w)
    w.files.save(path)
    assert not w.unsaved()
    view.model_box.setCurrentIndex(view.model_box.findData("luong"))
    assert w.state.translation.settings.model == "luong"
    assert asked_when_quitting(qtbot, w)


CHANGES = {
    "translation source": lambda s: s.translation.set_source("9.5.18"),
    "translation model": lambda s: s.translation.set_model("luong"),
    "translation attention": lambda s: s.translation.set_attention("hard"),
    "translation layer": lambda s: (s.translation.set_model("transformer"), s.translation.set_layer(0)),
    "translation view": lambda s: s.translation.set_view("lines"),
    "translation training": lambda s: s.translation.set_training_plan(steps=77, seed=3),
    "vision model": lambda s: s.vision.set_variant("se"),
    "vision picture": lambda s: s.vision.set_picture(Picture(seed=11)),
    "vision brush": lambda s: s.vision.set_brush("blue", 4.0),
    "vision training": lambda s: s.vision.set_training_plan(77, 3),
    "board": lambda s: s.board.set_board(s.board.board.with_tied(not s.board.board.tied)),
    "lines": lambda s: s.lines.set_options(LinesOptions(pipeline=True)),
    "questions": lambda s: s.predict.set_enabled(True),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_every_setting_a_session_keeps_asks_before_quitting(qtbot, small, change):
    w = small
    saved = w.files.current()
    assert not w.unsaved()
    CHANGES[change](w.state)
    assert w.files.current() != saved  # the change is one a session file keeps
    assert asked_when_quitting(qtbot, w)


def test_looking_around_the_tabs_is_no_change(qtbot, small):
    """Browsing (selections, pages, tabs) quits without a question, on every tab."""
    w = small
    for tab in (Tab.TRANSLATION, Tab.VISION, Tab.BOARD):
        w.state.set_tab(tab)
        qtbot.wait(50)
    w.state.translation.select((0, 0))
    w.state.vision.set_page("channel")
    w.state.vision.select_channel(1)
    qtbot.wait(50)
    assert not w.unsaved()
    assert not asked_when_quitting(qtbot, w)


# -- 2. a damaged model folder at start-up, and in Chinese ---------------------------------------------------


def damaged_minilm(folder):
    """The bundled MiniLM's config and tokenizer with a model.safetensors cut short (a broken download)."""
    from explorer.models import catalogue

    source = catalogue.model_dir("minilm")
    folder.mkdir()
    for name in (
        "config.json",
        "tokenizer.json",
        "tokenizer_config.json",
        "vocab.txt",
        "special_tokens_map.json",
    ):
        if (source / name).exists():
            shutil.copy(source / name, folder / name)
    with open(source / "model.safetensors", "rb") as f:
        (folder / "model.safetensors").write_bytes(f.read(5000))
    return folder


def test_a_damaged_model_folder_at_start_up_falls_back_to_the_bundled_model(
    qtbot, engine, tmp_path, monkeypatch
):
    """``main.py --language zh_CN --model-dir TRUNCATED``: the window stayed on "loading…" and
    "Starting…" with empty views, and listed the broken folder."""
    from explorer.gui import i18n
    from explorer.gui.main_window import MainWindow
    from explorer.gui.preferences import MemorySettings

    broken = damaged_minilm(tmp_path / "truncated")
    w = MainWindow(
        engine, AttentionConfig(sentence="the cat sat", model_dir=str(broken)), settings=MemorySettings()
    )
    qtbot.addWidget(w)
    w.state.set_language("zh_CN")
    try:
        with qtbot.waitSignal(w.rendered, timeout=WAIT_MS):
            w.show()
        qtbot.waitUntil(lambda: w.models.loaded is not None and not w.worker.busy(), timeout=WAIT_MS)
        assert w.trace is not None and w.trace.model_name == "all-MiniLM-L6-v2"
        assert w.state.config.model_dir is None and w.state.config.model == "minilm"
        banner = w.banner.text()
        assert w.banner.isVisible() and "无法使用这个模型" in banner and "model.safetensors" in banner
        assert "all-MiniLM-L6-v2" in banner  # says which model it shows instead
        assert "加载中" not in w.controls.model_label.text() and "正在启动" not in w.status_text.text()
        assert w.controls.heads.count() > 0 and w.trace.heads == 12
        assert not w.unsaved()  # the window fell back, the user changed nothing
        picker = w.controls.model_picker
        listed = [picker.itemData(r, ROLE) for r in range(picker.count())]
        assert ("folder", str(broken)) not in listed and w.prefs.recent_models() == []
        # a language switch says it again (the Open below replaces the banner)
        w.state.set_language("en")
        assert "could not be used" in w.banner.text() and "all-MiniLM-L6-v2" in w.banner.text()
        w.state.set_language("zh_CN")
        assert "无法使用这个模型" in w.banner.text()
        assert picker.currentText() == "英文：all-MiniLM-L6-v2"
        chinese = [picker.itemText(r) for r in range(picker.count())]
        assert "打开模型文件夹…" in chinese
        # the same folder through "Open model folder…": every word stays Chinese
        monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: str(broken))
        picker.activated.emit(picker.count() - 1)
        qtbot.waitUntil(lambda: w.models._asked is None and not w.worker.busy(), timeout=WAIT_MS)
        assert w.banner.text().startswith("无法使用这个模型") and "model.safetensors" in w.banner.text()
        assert [picker.itemText(r) for r in range(picker.count())] == chinese
        assert w.prefs.recent_models() == []
    finally:
        i18n.set_language("en")


def test_a_damaged_folder_opened_in_chinese_keeps_every_word_chinese(qtbot, small, tmp_path, monkeypatch):
    """After a failed "Open model folder…" in zh_CN the picker's items and the banner's first
    words were English."""
    from explorer.gui import i18n

    w = small
    broken = damaged_minilm(tmp_path / "truncated")
    picker = w.controls.model_picker
    w.state.set_language("zh_CN")
    try:
        chinese = [picker.itemText(r) for r in range(picker.count())]
        assert "打开模型文件夹…" in chinese
        monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: str(broken))
        picker.activated.emit(picker.count() - 1)
        qtbot.waitUntil(lambda: "model.safetensors" in w.banner.text(), timeout=WAIT_MS)
        assert w.banner.text().startswith("无法使用这个模型")
        assert [picker.itemText(r) for r in range(picker.count())] == chinese
        assert w.prefs.recent_models() == []
    finally:
        i18n.set_language("en")


# -- 3. the board: numbers too large for the arithmetic ----------------------------------------------------------


@pytest.fixture
def board_window(qtbot, make_window):
    w = make_window(SMALL)
    view = w.view(Tab.BOARD)
    with qtbot.waitSignal(view.rendered, timeout=WAIT_MS):
        w.state.set_tab(Tab.BOARD)
    return w, view


def test_a_huge_number_on_the_board_is_refused_and_the_picture_kept(qtbot, board_window, recwarn):
    """3e38 in a Q cell: the Q cell printed 39 digits, the scores were inf beside a finite
    "scaled", inf took the colour of 1.00, and numpy warned of an overflow."""
    w, view = board_window
    before, trace = w.state.board.board, view.trace
    english = "Q row 1, column 1: 3e+38 is too large; type numbers from -1000000 to 1000000"
    for language, words in (("en", english), ("zh_CN", "3e+38 太大了")):
        i18n.set_language(language)
        try:
            type_into(qtbot, view.table, 0, 1, "3e38")  # q1 of the first token
            assert w.state.board.board == before and view.trace is trace  # the last good picture
            assert view.message.isVisible() and words in view.message.text()
            assert "\n" not in view.message.text()
        finally:
            i18n.set_language("en")
    assert english in view.message.text()  # the message said again in the language switched to
    assert not [r for r in recwarn if issubclass(r.category, RuntimeWarning)]
    # the largest number it takes computes finite stages, printed short
    with qtbot.waitSignal(view.rendered, timeout=WAIT_MS):
        type_into(qtbot, view.table, 0, 1, "1e6")
    assert w.state.board.board.q[0][0] == 1e6
    expected = board_trace(w.state.board.board, w.state.config)
    for name in ("scores", "scaled", "weights"):
        assert np.isfinite(shown(view, name).data).all()
    np.testing.assert_array_equal(shown(view, "scores").data, expected.scores[0])
    assert cell_value_text(float(shown(view, "Q").data[0, 0])) == "1.0e6"  # as figure.py prints a cell


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3e38, "3.0e38"),
        (123456.0, "1.2e5"),
        (-98765.4, "-9.9e4"),
        (9999.994, "9999.99"),
        (0.5, "0.50"),
        (-2.0, "-2.00"),
    ],
)
def test_a_cell_prints_large_numbers_short(value, text):
    assert cell_value_text(value) == text
    assert len(cell_value_text(value)) <= 7


# -- 4. file dialogs open in the last folder used, else Documents / home ---------------------------------------


class Dialogs:
    """QFileDialog's static functions, recorded: where each was asked to start, and what it answers."""

    def __init__(self, monkeypatch):
        self.starts: list[tuple[str, str]] = []
        self.answer = ""
        for name in ("getOpenFileName", "getSaveFileName", "getExistingDirectory"):
            monkeypatch.setattr(QtWidgets.QFileDialog, name, self._record(name))

    def _record(self, name):
        def dialog(parent=None, caption="", start="", *rest, **kw):
            self.starts.append((name, start))
            answer = self.answer
            return answer if name == "getExistingDirectory" else (answer, "")

        return dialog

    def folder_of_last(self) -> Path:
        start = Path(self.starts[-1][1])
        return start if start.is_dir() else start.parent


def open_every_dialog(w, qtbot) -> list:
    """Each file dialog of the window, as a user opens it."""
    from explorer.gui.exporting import ExportDialog

    w.files.open_action.trigger()
    w.files.save_as_action.trigger()
    w.exporter.window_dialog()
    dialog = ExportDialog(w.exporter)
    qtbot.addWidget(dialog)
    for what, fmt in (("data", "csv"), ("window", "png")):
        dialog.what.setCurrentIndex(dialog.what.findData(what))
        dialog.format.setCurrentIndex(dialog.format.findData(fmt))
        dialog._browse()
    picker = w.controls.model_picker
    picker.activated.emit(picker.count() - 1)  # Open model folder…
    w.state.set_tab(Tab.VISION)
    w.view(Tab.VISION).load_button.click()


def test_file_dialogs_start_in_the_last_folder_used_never_the_working_directory(
    qtbot, small, tmp_path, monkeypatch
):
    """Every dialog opened in the working directory (the repository, run from source)."""
    w = small
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)  # the working directory: no dialog may start there
    dialogs = Dialogs(monkeypatch)
    open_every_dialog(w, qtbot)
    kinds = {name for name, _ in dialogs.starts}
    assert (
        kinds == {"getOpenFileName", "getSaveFileName", "getExistingDirectory"} and len(dialogs.starts) == 7
    )
    first = QtCore.QStandardPaths.writableLocation(QtCore.QStandardPaths.StandardLocation.DocumentsLocation)
    for name, start in dialogs.starts:
        assert start and Path(start).is_absolute(), (name, start)
        assert Path(start) in (Path(first), home) or Path(start).parent in (Path(first), home), (name, start)
    # a file saved in a folder: every dialog starts there next, in this run and the next
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    dialogs.answer = str(lessons / "monday.aexp.json")
    w.files.save_as_action.trigger()
    assert (lessons / "monday.aexp.json").exists()
    dialogs.answer, dialogs.starts = "", []
    w.files.path = None
    open_every_dialog(w, qtbot)
    for name, start in dialogs.starts:
        assert Path(start) == lessons or Path(start).parent == lessons, (name, start)
    assert w.prefs.dialog_folder() == str(lessons)
