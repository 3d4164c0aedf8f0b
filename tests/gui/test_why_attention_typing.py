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


def _type_in_the_box(qtbot, window, text: str):
    """At the lesson's fixed-C step, the sentence box clicked, its text replaced by ``text``
    typed as a teacher types it (trial 6 T9); returns the page, the widget with the keys, the
    step."""
    state = window.state
    window.show()
    window.activateWindow()
    state.show_lesson(True)
    step = [s.id for s in STEPS].index("translation.fixed_context")
    state.set_lesson_step(step)
    view = window.view("why_attention")
    assert state.tab == "why_attention" and view.pages.currentIndex() == SENTENCE_PAGE
    box = view.sentence_box
    qtbot.mouseClick(box.lineEdit(), QtCore.Qt.MouseButton.LeftButton)
    keys = QtWidgets.QApplication.focusWidget()
    assert keys in (box, box.lineEdit())
    box.lineEdit().selectAll()
    qtbot.keyClicks(keys, text)
    qtbot.waitUntil(lambda: view.shown_request == view.lab.request(), timeout=WAIT_MS)
    assert view.lab.settings.sentence == text and box.currentText() == text
    assert state.lesson_step == step and QtWidgets.QApplication.focusWidget() is keys
    return view, keys, step


def test_enter_in_the_sentence_box_hands_the_keys_back_to_the_lesson(qtbot, window):
    """Trial 6 T9: Enter in the Why-attention sentence box kept the keys there, and → then
    did not step the lesson (only Esc got out). Now Enter leaves the box, as in the window's
    sentence fields, the typed sentence kept; the next → steps the lesson."""
    view, keys, step = _type_in_the_box(qtbot, window, "Jane sees")
    qtbot.keyClick(keys, QtCore.Qt.Key.Key_Return)
    QtWidgets.QApplication.processEvents()
    focus = QtWidgets.QApplication.focusWidget()
    # the stage's tab bar, not the page (the tabs hold every page, the box among them)
    assert focus is window.tabs or window.tabs.isAncestorOf(focus)
    assert focus not in (view.sentence_box, keys) and not view.isAncestorOf(focus)
    assert view.lab.settings.sentence == "Jane sees" and view.sentence_box.currentText() == "Jane sees"
    qtbot.keyClick(focus, QtCore.Qt.Key.Key_Right)
    QtWidgets.QApplication.processEvents()
    assert window.state.lesson_step == step + 1


def test_right_at_the_end_of_the_sentence_box_steps_the_lesson(qtbot, window):
    """Trial 6 T9: → at the end of the box's text moved nothing; in the window's sentence fields
    it steps the lesson (← at the start steps back), and inside the text it moves the cursor."""
    view, keys, step = _type_in_the_box(qtbot, window, "Jane sees")
    edit = view.sentence_box.lineEdit()
    qtbot.keyClick(keys, QtCore.Qt.Key.Key_Left)  # inside the text: the cursor moves
    assert window.state.lesson_step == step and edit.cursorPosition() == len("Jane sees") - 1
    qtbot.keyClick(keys, QtCore.Qt.Key.Key_Right)  # to the end
    assert window.state.lesson_step == step
    qtbot.keyClick(keys, QtCore.Qt.Key.Key_Right)  # at the end: the next step
    QtWidgets.QApplication.processEvents()
    assert window.state.lesson_step == step + 1


def test_a_50_kb_paste_is_refused_in_words_not_by_an_exception(qtbot, window):
    """Classroom trial: a 50 KB paste into the sentence box raised in the state (a session holds
    at most 1000 characters); it is cut there, as the other labs cut theirs, and the model's
    refusal says how long a sentence it reads."""
    window.state.set_tab("why_attention")
    view = window.view("why_attention")
    view.pages.setCurrentIndex(SENTENCE_PAGE)
    edit = view.sentence_box.lineEdit()
    pasted = "cat " * 12_500
    edit.setText(pasted)
    edit.textEdited.emit(pasted)
    assert len(view.lab.settings.sentence) == 1000
    qtbot.waitUntil(lambda: "this model reads at most" in view.message_text, timeout=WAIT_MS)
    assert view.message.isVisible()
