"""Typing on the Why-attention page with the lesson open: the page and the keyboard stay where
the person put them (each result used to re-apply the lesson step's page, sending the class
back to the curve and the keys to the tab bar)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.gui.labs.translation.why_attention import CURVE_PAGE, SENTENCE_PAGE

from .helpers import WAIT_MS


def test_typing_beside_the_length_curve_step_keeps_the_page_and_the_keys(qtbot, window):
    state = window.state
    window.show()
    state.show_lesson(True)
    state.set_lesson_step([s.id for s in STEPS].index("translation.length_curve"))
    view = window.view("why_attention")
    assert state.tab == "why_attention" and view.pages.currentIndex() == CURVE_PAGE
    view.pages.setCurrentIndex(SENTENCE_PAGE)  # the person opens the sentences
    edit = view.sentence_box.lineEdit()
    qtbot.mouseClick(edit, QtCore.Qt.MouseButton.LeftButton)
    edit.selectAll()
    for text in ("J", "Ja", "Jan"):
        qtbot.keyClick(edit, text[-1])
        qtbot.waitUntil(lambda text=text: view.shown_request == view.lab.request(), timeout=WAIT_MS)
        assert view.lab.settings.sentence == text
        assert view.pages.currentIndex() == SENTENCE_PAGE
        assert QtWidgets.QApplication.focusWidget() in (edit, view.sentence_box) and edit.text() == text
