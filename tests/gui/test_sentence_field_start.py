"""The sentence fields show a text set from outside from its start (trial 6 T8: at start and on
every Pipeline step the field read "idn't cross the street because it was too tired", its start
hidden), and a key typed into a field without a click first still types at its end, as before
(the first attempt put the cursor at 0, and the typing test of tests/gui/test_window.py then
inserted " today" at the start)."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.core.config import AttentionConfig

from .helpers import WAIT_MS

LONG = "The animal didn't cross the street because it was too tired, and then it slept"
OTHER = "The model cannot see the future tokens of the text it is reading right now"


def fields(w):
    return (w.sentence_bar.sentence, w.controls.sentence)


def shows_start(field: QtWidgets.QLineEdit) -> bool:
    return (
        field.cursorPosition() == 0 and field.cursorRect().left() < 2 * field.fontMetrics().averageCharWidth()
    )


def test_a_sentence_set_from_outside_shows_its_start(qtbot, make_window):
    w = make_window(AttentionConfig(sentence=LONG), size=(1024, 768))
    w.classroom.set_presentation(True, fullscreen=False)
    QtWidgets.QApplication.processEvents()
    for field in fields(w):  # at start
        assert field.text() == LONG and shows_start(field), field.cursorPosition()
    w.state.set_config(w.state.config.with_(sentence=OTHER))  # a lesson step, a session opened
    QtWidgets.QApplication.processEvents()
    for field in fields(w):
        assert field.text() == OTHER and shows_start(field), field.cursorPosition()


def test_typing_without_a_click_types_at_the_end(qtbot, make_window):
    w = make_window(AttentionConfig(sentence=LONG), size=(1024, 768))
    bar, dock = fields(w)
    assert bar.cursorPosition() == 0
    qtbot.keyClicks(bar, " again")  # no click, no focus first
    assert bar.text() == LONG + " again"
    qtbot.waitUntil(lambda: w.state.config.sentence == LONG + " again", timeout=WAIT_MS)
    assert dock.text() == LONG + " again" and dock.cursorPosition() == 0  # the twin, from its start
    qtbot.keyClick(dock, QtCore.Qt.Key.Key_Backspace)  # deletes at the end, as before
    assert dock.text() == LONG + " agai"
    qtbot.keyClicks(dock, "n")
    assert dock.text() == LONG + " again"


def test_a_click_places_the_cursor_and_tab_selects_the_whole_text(qtbot, make_window):
    w = make_window(AttentionConfig(sentence=LONG), size=(1024, 768))
    bar, dock = fields(w)
    qtbot.mouseClick(bar, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(3, bar.height() // 2))
    qtbot.keyClicks(bar, "X")
    assert bar.text() == "X" + LONG  # typed where the click put the cursor
    w.state.set_config(w.state.config.with_(sentence=OTHER))
    QtWidgets.QApplication.processEvents()
    # focus by Tab (the event Qt sends): the whole text selected, the cursor at its end, as before
    QtWidgets.QApplication.sendEvent(
        dock, QtGui.QFocusEvent(QtCore.QEvent.Type.FocusIn, QtCore.Qt.FocusReason.TabFocusReason)
    )
    assert dock.selectedText() == OTHER and dock.cursorPosition() == len(OTHER)


def test_select_all_then_type_replaces_the_text(qtbot, make_window):
    """A selection made without a click (Ctrl+A, selectAll): the key replaces it, as in any
    field; moving the cursor to the end first had appended to the old sentence."""
    w = make_window(AttentionConfig(sentence=LONG), size=(1024, 768))
    for field in fields(w):
        w.state.set_config(w.state.config.with_(sentence=OTHER))
        QtWidgets.QApplication.processEvents()
        field.selectAll()
        qtbot.keyClicks(field, "attention")
        assert field.text() == "attention"
        qtbot.waitUntil(lambda: w.state.config.sentence == "attention", timeout=WAIT_MS)
