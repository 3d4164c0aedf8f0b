"""The Translation lab's steps at a 1024×768 projector, presentation mode, the lesson column
open (issue 23 item 4, trial 7 T13 and N6), in English and in Chinese:

- the pickers are folded into one line (their three rows took the figures' height); a click,
  Space or Alt+C unfolds them, and the keyboard never lands in a text field (← and → are the
  lesson's);
- every notice beside the answer reads whole: no "…", nothing below a scroll box's fold;
- the figures keep 40 % of the stage's height;
- step 12's alignment score says what it measures.
"""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import STEPS, step_index

from .test_classroom_walk import focus_problem, press, projector  # noqa: F401  (a fixture)
from .test_classroom_walk import settle as settle_window
from .test_labs_at_a_projector import present, settle, too_small, translation_steps

WHY_STEPS = [k for k, s in enumerate(STEPS) if s.tab == "why_attention"]  # steps 12-14, before them


def one_line(view) -> bool:
    """The pickers take one line of text, not their rows of date, models and decodings."""
    return view.controls.height() < 2 * view.controls.fontMetrics().lineSpacing()


def cut_notices(view) -> list[tuple[str, int, int]]:
    """(text, height or width it needs, what it has) of each notice beside the answer that
    does not read whole: elided, or taller than what shows of it."""
    out = []
    for label in (view.score_label, view.legend, view.message):
        if not label.isVisible() or not label.text():
            continue
        text = label.text()
        if label is view.score_label:  # in its scroll box: what the box shows of it
            port = view.score_scroll.viewport()
            need, have = label.heightForWidth(port.width()), port.height()
        elif label.wordWrap():
            need, have = label.heightForWidth(label.width()), label.height()
        else:
            need, have = label.fontMetrics().horizontalAdvance(text), label.width()
        if need > have or "…" in text:
            out.append((text[:80], need, have))
    summary = view.controls.summary
    if summary.isVisible() and "…" in summary.text().replace("…", "", 1):  # its own "change…"
        out.append((summary.text(), 0, summary.width()))
    return out


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_translation_step_folds_the_pickers_and_reads_its_notices_whole(qtbot, window, language):
    for k, view in translation_steps(qtbot, window, language):
        where = (language, f"step {k + 1}", STEPS[k].id)
        if STEPS[k].stage != "learn":  # the training page hides the pickers beside its curves
            assert one_line(view), (where, view.controls.height())
        assert not cut_notices(view), (where, cut_notices(view))
        assert not too_small(view), (where, view.height(), too_small(view))


def test_a_normal_window_keeps_the_pickers_row(qtbot, window):
    window.state.set_tab("translation")
    view = window.view("translation")
    settle(qtbot, window, view)
    assert view.model_box.isVisible() and view.source_edit.isVisible() and not view.controls.folded()
    window.state.show_lesson(True)  # the lesson beside an ordinary window: the row stays
    window.state.set_lesson_step(step_index("translation.query"))
    settle(qtbot, window, view)
    assert window.state.tab == "translation"
    assert view.model_box.isVisible() and not view.controls.folded()


def test_the_folded_pickers_open_by_key_and_leave_the_arrows_to_the_lesson(qtbot, projector):  # noqa: F811
    w = projector
    s = w.state
    s.set_lesson_step(step_index("translation.query"))
    settle_window(qtbot, w)
    view = w.view("translation")
    c = view.controls
    assert c.folded() and c.summary.isVisible() and not view.model_box.isVisible()
    assert "Bahdanau (GRU)" in c.summary.full_text() and "9 mai 2018" in c.summary.full_text()
    # Alt+C: its mnemonic, from wherever the keyboard is (the stage)
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_C, QtCore.Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: not c.folded(), timeout=2000)  # a mnemonic clicks after a short animation
    assert view.model_box.isVisible() and view.source_edit.isVisible()
    assert not focus_problem(w), focus_problem(w)
    press(qtbot, w, QtCore.Qt.Key.Key_Right)  # the lesson's key, with the pickers open
    settle_window(qtbot, w)
    assert s.lesson_step == step_index("translation.alignment_scores")
    assert not c.folded()  # the teacher's choice holds over the steps
    # Space on the fold button folds them back; the keyboard stays out of the text fields
    c.fold_button.setFocus()
    qtbot.keyClick(c.fold_button, QtCore.Qt.Key.Key_Space)
    QtWidgets.QApplication.processEvents()
    assert c.folded() and c.summary.hasFocus() and not focus_problem(w)
    c.source_edit.setFocus()  # the teacher clicked the date, then the step folds the pickers
    s.show_lesson(False)  # presentation mode without the lesson column: today's row
    QtWidgets.QApplication.processEvents()
    assert not c.folded() and view.model_box.isVisibleTo(view)
    s.show_lesson(True)
    QtWidgets.QApplication.processEvents()
    assert c.folded() and not focus_problem(w), focus_problem(w)
    press(qtbot, w, QtCore.Qt.Key.Key_Left)
    settle_window(qtbot, w)
    assert s.lesson_step == step_index("translation.query")


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_why_attention_steps_read_their_answers_whole(qtbot, window, language):
    """Steps 12-14: both models' answers, the score and the shifted word, none below the fold."""
    present(window, language)
    window.state.set_lesson_step(WHY_STEPS[0])
    view = window.view("why_attention")
    for k in WHY_STEPS:
        window.state.set_lesson_step(k)
        qtbot.waitUntil(lambda: view.shown is not None and not window.worker.busy(), timeout=30_000)
        qtbot.wait(30)  # the splitter's halves, set after the layout
        QtWidgets.QApplication.processEvents()
        where = (language, f"step {k + 1}", STEPS[k].id)
        area, label = view.summary_area, view.summary
        if area.isVisible():
            label.setMinimumHeight(0)  # its height for its width, not a floor set earlier
            need = label.heightForWidth(area.viewport().width())
            assert need <= area.viewport().height(), (where, need, area.viewport().height(), label.text())
        assert not too_small(view), (where, view.height(), too_small(view))


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_step_12_says_what_its_alignment_score_measures(qtbot, window, language):
    present(window, language)
    window.state.set_lesson_step(step_index("translation.fixed_context"))
    view = window.view("why_attention")
    qtbot.waitUntil(lambda: "%" in view.summary.text(), timeout=30_000)
    words = {"en": "of the words look at their source word", "zh_CN": "的词看向自己的源词"}[language]
    assert words in view.summary.text(), view.summary.text()


# (in English "09/05/2018" and "9 May 2018 😀🎉" still take 6 lines in the box's 5: they scroll)
TYPED = ("hello world", "13/05/2018", "  9 mai 2018")


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_what_a_teacher_types_beside_the_lesson_reads_whole(qtbot, window, language):
    """Not a date with an unknown character, no date read the models' way, spaces trimmed:
    the notices the date grammar gives, whole in the folded tab's score box."""
    present(window, language)
    window.state.set_lesson_step(step_index("translation.query"))
    view = window.view("translation")
    settle(qtbot, window, view)
    for text in TYPED:
        view.tstate.set_source(text)
        stripped = text.strip()
        qtbot.waitUntil(lambda t=stripped: view.trace is not None and view.trace.source == t, timeout=30_000)
        settle(qtbot, window, view)
        assert view.notice_text, text
        assert not cut_notices(view), (language, text, cut_notices(view))
