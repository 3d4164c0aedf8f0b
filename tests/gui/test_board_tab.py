"""The Board tab: typed vectors, every stage with its numbers, as a teacher uses it.

The numbers on screen are the board trace's (explorer.core.board, itself checked against a
hand computation and SDPA in tests/core/test_board.py); here the typing, the pickers, the
selection, the worked arithmetic, sessions, export, presentation mode and both languages.
"""

import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.board import BOARD_PRESETS
from explorer.core.board import board_trace
from explorer.core.config import AttentionConfig
from explorer.gui import i18n
from explorer.gui.docks.registry import Dock
from explorer.gui.heatmap import MatrixCanvas
from explorer.gui.heatmap.figure import values_fit
from explorer.gui.views.board import stage_names
from explorer.gui.views.registry import TABS, Tab

from .helpers import click_cell

SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)
THINKING = BOARD_PRESETS[0].board


@pytest.fixture
def board_window(qtbot, make_window):
    w = make_window(SMALL, size=(1400, 900))
    view = w.view(Tab.BOARD)
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        w.state.set_tab("board")
    return w, view


def shown(view, name: str):
    return next(p for p in view.canvas.panels if p.name == name)


def type_into(qtbot, table: QtWidgets.QTableWidget, row: int, column: int, text: str) -> None:
    """Double-click a cell, type, press Enter: as a teacher edits the table."""
    table.setCurrentCell(row, column)
    table.editItem(table.item(row, column))
    editor = QtWidgets.QApplication.focusWidget()
    assert isinstance(editor, QtWidgets.QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, QtCore.Qt.Key.Key_Return)
    # the edit is committed after the key, when the editor closes
    qtbot.waitUntil(lambda: table.state() != QtWidgets.QAbstractItemView.State.EditingState)
    QtWidgets.QApplication.processEvents()


def test_every_stage_shows_the_boards_numbers(board_window):
    w, view = board_window
    expected = board_trace(THINKING, w.state.config)
    assert [p.name for p in view.canvas.panels] == [
        "Q",
        "K",
        "V",
        "scores",
        "scaled",
        "exp",
        "exp_sum",
        "weights",
        "head_output",
    ]
    for name, stage in (("Q", "Q"), ("K", "K"), ("V", "V"), ("scores", "scores"), ("scaled", "scaled")):
        np.testing.assert_array_equal(shown(view, name).data, getattr(expected, stage)[0])
    np.testing.assert_array_equal(shown(view, "weights").data, expected.weights[0])
    np.testing.assert_array_equal(shown(view, "head_output").data, expected.head_outputs[0])
    assert shown(view, "scores").data.tolist() == [[3, 0], [1, 1]]
    assert view.canvas.figure.show_values  # every number printed, whatever the pipeline's box says
    for box in view.canvas.current_layout().boxes:
        assert values_fit(box.plot, view.canvas.panels[box.index], view.canvas.style_.labels)
    assert shown(view, "Q").cols == ["q1", "q2", "q3"]  # the table's names
    header = [view.table.horizontalHeaderItem(c).text() for c in range(view.table.columnCount())]
    assert header == ["token", "q1", "q2", "q3", "k1", "k2", "k3", "v1", "v2", "v3"]
    assert view.canvas.style_.font.pixelSize() > w.pipeline.canvas.style_.font.pixelSize()


def test_typing_a_number_recomputes_every_stage(qtbot, board_window):
    w, view = board_window
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        type_into(qtbot, view.table, 1, 4, "-2")  # k1 of "Machines"
    assert w.state.board.board.k[1] == (-2.0, 1.0, 0.0)
    q, k = np.array(THINKING.q, float), np.array(w.state.board.board.k, float)
    np.testing.assert_allclose(shown(view, "scores").data, q @ k.T, atol=1e-6)
    scaled = q @ k.T / math.sqrt(3)
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    np.testing.assert_allclose(shown(view, "weights").data, e / e.sum(axis=1, keepdims=True), atol=1e-6)
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        type_into(qtbot, view.table, 0, 0, "Denken")
    assert shown(view, "weights").rows == ["Denken", "Machines"]


def test_a_bad_number_is_refused_in_words_and_changes_nothing(qtbot, board_window):
    w, view = board_window
    before = w.state.board.board
    type_into(qtbot, view.table, 0, 2, "zwei")
    assert w.state.board.board == before
    assert view.message.isVisible() and view.message.text() == "'zwei' is not a number"
    assert view.table.item(0, 2).background().color().name() == "#ffb3b3"
    type_into(qtbot, view.table, 0, 2, "nan")
    assert view.message.text() == "'nan' is not a finite number" and w.state.board.board == before
    type_into(qtbot, view.table, 0, 0, "   ")
    assert view.message.text() == "token 1 has no name" and w.state.board.board == before


def test_the_pickers_edit_the_board_and_the_options(qtbot, board_window):
    w, view = board_window
    view.mode.setCurrentIndex(view.mode.findData(True))
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        view.mode.activated.emit(view.mode.currentIndex())
    assert w.state.board.board.tied and w.state.board.board.x == THINKING.q
    assert [p.name for p in view.canvas.panels][:2] == ["X", "scores"]
    assert view.table.horizontalHeaderItem(1).text() == "x1"
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        view.tokens_spin.setValue(3)
    assert w.state.board.board.n == 3 and view.table.rowCount() == 3
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        view.width_spin.setValue(4)
    assert [view.heads_combo.itemData(i) for i in range(view.heads_combo.count())] == [1, 2, 4]
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        view.heads_combo.setCurrentIndex(1)
        view.heads_combo.activated.emit(1)
    assert view.trace.heads == 2 and "concat" in [p.name for p in view.canvas.panels]
    # the options row edits the window's configuration: the board follows every option
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        view.attention.setCurrentIndex(view.attention.findData("hard"))
        view.attention.activated.emit(view.attention.currentIndex())
    assert w.state.config.attention == "hard" and w.controls is not None
    weights = shown(view, "weights").data
    assert set(np.unique(weights).tolist()) <= {0.0, 1.0} and weights.sum(axis=1).tolist() == [1, 1, 1]
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        view.mask.setCurrentIndex(view.mask.findData("causal"))
        view.mask.activated.emit(view.mask.currentIndex())
    assert "mask" in [p.name for p in view.canvas.panels] and not view.trace.mask[0, 1]
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        view.example.setCurrentIndex(2)
        view.example.activated.emit(2)
    assert w.state.board.board == BOARD_PRESETS[1].board


def test_the_softmax_is_worked_on_the_board_exp_and_row_sums(board_window):
    """The board skipped from the scaled scores to the weights: the class could not check
    exp and the row's sum by hand."""
    w, view = board_window
    scaled = np.array([[3, 0], [1, 1]]) / math.sqrt(3)  # Thinking Machines' scores ÷ √3
    exps = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    np.testing.assert_allclose(shown(view, "exp").data, exps, rtol=1e-6)
    np.testing.assert_allclose(shown(view, "exp_sum").data[:, 0], exps.sum(axis=1), rtol=1e-6)
    weights = shown(view, "exp").data / shown(view, "exp_sum").data
    np.testing.assert_allclose(weights, shown(view, "weights").data, rtol=1e-6)
    assert shown(view, "exp_sum").cols == ["Σ"] and shown(view, "exp").cols == ["Thinking", "Machines"]
    w.state.set_stage_zoom(("weights",))  # "Show: softmax" shows its arithmetic beside it
    assert [view.canvas.panels[i].name for i in view.canvas.figure.shown()] == ["exp", "exp_sum", "weights"]
    hard = board_trace(THINKING, w.state.config.with_(attention="hard"))
    assert "exp" not in stage_names(THINKING, hard)  # a hard choice takes no exponentials


def test_the_worked_arithmetic_works_on_the_board_whatever_was_selected_before(qtbot, make_window):
    """Selected on a 16-token sentence (row 10, head 11), the board said "the selected cell
    is outside this result": it works out the board's first cell, framed, until a click."""
    w = make_window(
        AttentionConfig(sentence=SMALL.sentence + " and much more text here now"), size=(1400, 900)
    )
    w.state.select_head(11)
    w.state.select_cell((6, 2))
    w.docks.set_visible(Dock.WORKED, True)
    view = w.view(Tab.BOARD)
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        w.state.set_tab("board")
    qtbot.waitUntil(lambda: "Thinking" in w.worked.text(), timeout=10_000)
    assert "3.0000" in w.worked.text() and "outside" not in w.worked.text()
    assert view.canvas.figure.selection == (0, 0)
    assert w.state.selected_cell == (6, 2)  # the sentence's selection is kept for its tabs


def test_a_click_selects_everywhere_and_the_worked_arithmetic_follows_the_board(qtbot, board_window):
    w, view = board_window
    w.docks.set_visible(Dock.WORKED, True)
    click_cell(qtbot, view.canvas, [p.name for p in view.canvas.panels].index("weights"), 0, 0)
    assert w.state.selected_cell == (0, 0)
    assert w.pipeline.canvas.figure.selection == (0, 0)  # the same cell in the pipeline
    text = w.worked.text()
    assert "Thinking" in text and "3.0000" in text  # q₁·k₁ = 1·2 + 0·0 + 1·1
    assert f"{1.7321:.4f}" in text  # ÷ √3
    e = math.exp(3 / math.sqrt(3))
    assert f"{e / (e + 1):.4f}" in text  # 0.8497
    w.state.set_tab("pipeline")
    assert "Thinking" in w.worked.text() and "3.0000" not in w.worked.text()  # the sentence again


def test_the_board_is_saved_with_the_session(qtbot, board_window, tmp_path):
    w, view = board_window
    with qtbot.waitSignal(view.rendered, timeout=10_000):
        type_into(qtbot, view.table, 1, 9, "7")
    saved = w.state.board.board
    path = tmp_path / "board.aexp.json"
    assert w.files.save(path)
    w.state.board.set_board(BOARD_PRESETS[1].board)
    w.state.set_tab("pipeline")
    assert w.files.open(path)
    assert w.state.board.board == saved and w.state.tab == "board"
    qtbot.waitUntil(lambda: view.trace is not None and view.trace_key[0] == saved)
    assert view.table.item(1, 9).text() == "7" and shown(view, "V").data[1, 2] == 7


def test_the_board_exports_as_png_and_svg_without_being_shown(qtbot, make_window, tmp_path):
    w = make_window(SMALL)
    assert w.tabs.built(Tab.BOARD) is None
    x = w.exporter
    assert "board" in x.labels() and "board:weights" in x.labels() and "board:X" not in x.labels()
    for name in ("board", "board:weights"):
        stem = name.replace(":", "_")
        assert x.export_panel(name, tmp_path / f"{stem}.png") is None, x.message
        image = QtGui.QImage(str(tmp_path / f"{stem}.png"))
        assert not image.isNull() and image.width() > 500
        assert x.export_panel(name, tmp_path / f"{stem}.svg") is None, x.message
        assert ET.parse(tmp_path / f"{stem}.svg").getroot().tag.endswith("svg")
    svg = (tmp_path / "board_weights.svg").read_text(encoding="utf-8")
    assert ".85" in svg and ".15" in svg and "Thinking" in svg  # the numbers, as text
    assert w.tabs.built(Tab.BOARD) is None  # exporting built no tab


def smallest_text_px(widget) -> int:
    sizes = [
        QtGui.QFontInfo(c.font()).pixelSize() for c in widget.findChildren(QtWidgets.QWidget) if c.isVisible()
    ]
    sizes += [c.style_.font.pixelSize() for c in widget.findChildren(MatrixCanvas) if c.isVisible()]
    return min(sizes)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_presentation_at_1024x768_in_both_languages(qtbot, make_window, language):
    w = make_window(SMALL, size=(1024, 768))
    try:
        w.state.set_language(language)
        w.classroom.set_presentation(True, fullscreen=False)
        w.state.show_lesson(False)
        view = w.view(Tab.BOARD)
        with qtbot.waitSignal(view.rendered, timeout=10_000):
            w.state.set_tab("board")
        w.resize(1024, 768)
        qtbot.waitUntil(lambda: view.canvas.figure.columns >= 2)
        assert w.width() <= 1024 and w.height() <= 768
        assert smallest_text_px(view) >= 20
        assert view.canvas.style_.font.pixelSize() >= 24
        layout = view.canvas.current_layout()
        for box in layout.boxes:
            assert values_fit(box.plot, view.canvas.panels[box.index], view.canvas.style_.labels)
            assert box.slot.right() <= view.canvas.width() + 1
        for widget in (view.example, view.mode, view.tokens_spin, view.heads_combo, view.mask):
            right = widget.mapTo(view, QtCore.QPoint(widget.width(), 0)).x()
            assert right <= view.width(), widget  # nothing cut off at the right
        tab_title = w.tabs.tabText(next(i for i, spec in enumerate(TABS) if spec.tab == Tab.BOARD))
        if language == "zh_CN":
            assert tab_title == "黑板" and view.tokens_label.text() == "词元"
            assert view.table.horizontalHeaderItem(0).text() == "词元"
        else:
            assert tab_title == "Board" and view.mode.itemText(0) == "Q = K = V = X"
    finally:
        i18n.set_language("en")
