"""Trial 8 F23: pressing "2" selected the head titled "head 1" (the keys counted from 1, every
title from 0: the panels, the Pipeline's head box, the Board, the lesson's Q₀…Qₕ₋₁). A digit
now picks the head of its number, on every tab whose titles name heads; 0 still shows a zoomed
matrix whole first."""

import re

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui import theme
from explorer.gui.i18n import translate
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS


def press(qtbot, window, digit: int) -> None:
    window.tabs.setFocus()
    qtbot.keyClick(window.tabs, getattr(QtCore.Qt.Key, f"Key_{digit}"))
    qtbot.waitUntil(lambda: not window.worker.busy(), timeout=WAIT_MS)
    QtWidgets.QApplication.processEvents()


def selected_grid_title(grid) -> str:
    """The title of the head the All-heads grid frames as selected."""
    marks = grid.canvas.figure.marks
    (index,) = [i for i, m in marks.items() if m.colour.name() == QtGui.QColor(theme.SELECTED).name()]
    return grid.canvas.panels[index].title


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_each_digit_selects_the_head_titled_with_it(qtbot, window, language):
    window.state.set_language(language)
    head = translate("Stages", "head")
    assert window.trace.heads >= 10
    board = window.view(Tab.BOARD)
    for tab in (Tab.PIPELINE, Tab.HEADS, Tab.BOARD):
        window.state.set_tab(tab)
        QtWidgets.QApplication.processEvents()
        if tab == Tab.BOARD:  # its typed matrices have heads of their own: two
            qtbot.waitUntil(lambda: board.trace is not None and bool(board.canvas.panels), timeout=WAIT_MS)
        heads = board.trace.heads if tab == Tab.BOARD else window.trace.heads
        for digit in (2, 0, 9, 1, 5):
            before = window.state.selected_head
            press(qtbot, window, digit)
            if digit >= heads:  # no head of that number: the selection stays
                assert window.state.selected_head == before, (tab, digit)
                continue
            assert window.state.selected_head == digit, (tab, digit)
            if tab == Tab.PIPELINE:
                p = window.pipeline
                assert p.head_spin.value() == digit
                titles = [panel.title for panel in p.canvas.panels]
            elif tab == Tab.HEADS:
                qtbot.waitUntil(lambda: bool(window.heads.canvas.panels), timeout=WAIT_MS)
                titles = [selected_grid_title(window.heads)]
                assert titles[0].startswith(f"{head} {digit}"), titles
            else:
                titles = [panel.title for panel in board.canvas.panels]
            # the heads the titles name (concat's "head 0 … head 11" names them all)
            named = {int(n) for t in titles if "…" not in t for n in re.findall(rf"{head} (\d+)", t)}
            assert named == {digit}, (tab, digit, titles)


def test_zero_shows_a_zoomed_matrix_whole_then_selects_head_zero(qtbot, window):
    press(qtbot, window, 3)
    window.state.set_stage_zoom(("weights",))
    QtWidgets.QApplication.processEvents()
    window.tabs.setFocus()
    qtbot.keyClick(window.tabs, QtCore.Qt.Key.Key_Plus)
    assert window.state.matrix_zoom is not None
    press(qtbot, window, 0)
    assert window.state.matrix_zoom is None and window.state.selected_head == 3
    press(qtbot, window, 0)
    assert window.state.selected_head == 0
