"""The Why-attention lab as teacher trial 9 gave it: Chinese interface, 1024×768, the lesson
column open, the lesson walked with ← and →, Train from scratch and the replay slider clicked.

- step 13 reached with ← from step 14 said 英语 → 中文 while Train trained French;
- the length curve stayed the shipped one during and after a run the class left mid-way;
- scrubbed to step 0, the figure still said step 500 of 500;
- a five-line result box cut its fifth line (a scroll bar) at 1024×768;
- after a click on the replay slider → moved the slider, not the lesson;
- a run said nothing of how long it had left.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import step_index
from explorer.appstate.why_attention import EXPERIMENT_TASK, SHIPPED_TASK
from explorer.gui.i18n import translate
from explorer.gui.labs.translation.why_attention import CURVE_PAGE, SUMMARY_LINES
from explorer.seq2seq.sequence_lab import DEFAULTS, curve_from_metrics

from .helpers import WAIT_MS
from .test_classroom_walk import press, settle
from .test_labs_at_a_projector import too_small
from .test_why_attention import wait_shown

LIGHT = replace(DEFAULTS, eval_every=10, eval_size=1, snapshot_every=10, device="cpu")
LENGTH_CURVE = step_index("translation.length_curve")
RUN_MS = 240_000  # a loaded classroom PC (trial 9: 300 s for 500 steps)


@pytest.fixture
def lesson(make_window, qtbot):
    """Chinese, 1024×768, the lesson column on, at step 13 (the length curve), keys on the stage."""
    w = make_window(size=(1024, 768))
    w.state.set_language("zh_CN")
    w.state.show_lesson(True)
    w.state.set_lesson_step(LENGTH_CURVE)
    w.activateWindow()
    w.classroom.focus_stage()
    view = w.tabs.current_view()
    view.lab.options = LIGHT
    wait_shown(qtbot, view)
    settle(qtbot, w)
    return w, view


def click(qtbot, widget, pos: QtCore.QPoint | None = None) -> None:
    if pos is None:
        qtbot.mouseClick(widget, QtCore.Qt.MouseButton.LeftButton)
    else:
        qtbot.mouseClick(widget, QtCore.Qt.MouseButton.LeftButton, pos=pos)
    QtWidgets.QApplication.processEvents()


def train(qtbot, view, steps: int) -> None:
    view.training.steps.setValue(steps)
    click(qtbot, view.training.train_button)


def wait_ended(qtbot, view) -> None:
    lab = view.lab
    qtbot.waitUntil(lambda: lab.run is not None and not lab.run.running, timeout=RUN_MS)
    qtbot.waitUntil(lambda: not view.training.poll_timer.isActive(), timeout=WAIT_MS)


def combo_agrees(view) -> None:
    """The language combo, the state and the translations on screen say the same language."""
    lab, shown = view.lab, view.shown
    assert view.language_box.currentData() == lab.settings.language
    expected_task = EXPERIMENT_TASK if shown.step is not None else SHIPPED_TASK[lab.settings.language]
    assert shown.task == expected_task == SHIPPED_TASK[view.language_box.currentData()]


def shows_run_evaluation(view, index: int) -> None:
    run = view.lab.run
    drawn = view.curve.curves
    expected = curve_from_metrics(run.metrics[index], "attention")
    assert list(drawn.series[0].ys) == list(expected.word_accuracy)
    assert not any(s.dashed for s in drawn.series)
    title = translate("WhyAttention", "trained here: step {step} of {total}").format(
        step=run.eval_steps[index], total=run.steps
    )
    assert view.curve_title.text().startswith(title), view.curve_title.text()


def test_step_13_from_step_14_says_the_language_it_trains(qtbot, lesson):
    w, view = lesson
    press(qtbot, w, QtCore.Qt.Key.Key_Right)
    assert w.state.lesson_step == LENGTH_CURVE + 1 and view.lab.settings.language == "zh"
    press(qtbot, w, QtCore.Qt.Key.Key_Left)
    assert w.state.lesson_step == LENGTH_CURVE
    french = translate("WhyAttention", "English → French")
    assert view.language_box.currentText() == french  # was 英语 → 中文 over a French run
    train(qtbot, view, 10)
    wait_ended(qtbot, view)
    wait_shown(qtbot, view, step=10)
    combo_agrees(view)


def test_a_run_started_under_chinese_says_french(qtbot, lesson):
    """Off the lesson's settings: Chinese picked by keyboard, then Train from scratch. The run
    trains the French length experiment: the combo turns to French with it."""
    w, view = lesson
    view.language_box.setFocus()
    qtbot.keyClick(view.language_box, QtCore.Qt.Key.Key_Down)
    assert view.lab.settings.language == "zh"
    train(qtbot, view, 10)
    assert view.language_box.currentText() == translate("WhyAttention", "English → French")
    wait_ended(qtbot, view)
    wait_shown(qtbot, view, step=10)
    combo_agrees(view)
    assert view.shown.attention.expected == "Jane visite l'Afrique en septembre"  # under 英语 → 法语


def test_the_run_curves_show_while_training_and_after_leaving_mid_run(qtbot, lesson):
    w, view = lesson
    lab = view.lab
    train(qtbot, view, 400)
    # the class looks at step 14 (Chinese) while it trains, and comes back
    press(qtbot, w, QtCore.Qt.Key.Key_Right)
    assert lab.settings.language == "zh" and lab.weights == "shipped"  # its run trains French
    press(qtbot, w, QtCore.Qt.Key.Key_Left)
    assert w.state.lesson_step == LENGTH_CURVE and view.pages.currentIndex() == CURVE_PAGE
    assert lab.weights == "trained" and lab.training
    # while it trains: the figure follows its evaluations
    qtbot.waitUntil(lambda: len(lab.run.eval_steps) >= 2 or not lab.training, timeout=RUN_MS)
    assert lab.training, "the run ended before two evaluations: give it more steps"
    qtbot.waitUntil(lambda: view._curve_key[1] not in (None, (lab.run.id, 0)), timeout=WAIT_MS)
    shows_run_evaluation(view, view._curve_key[1][1])
    click(qtbot, view.training.cancel_button)
    wait_ended(qtbot, view)
    settle(qtbot, w)
    run = lab.run
    assert run.status == "cancelled" and lab.weights == "trained"
    shows_run_evaluation(view, len(run.eval_steps) - 1)  # after it: still the run's
    step = run.snapshots[-1].step
    assert view.training.weights_label.text() == translate("LabTraining", "in use: step {step}").format(
        step=step
    )


def test_scrubbed_to_step_0_the_figure_says_step_0(qtbot, lesson):
    w, view = lesson
    train(qtbot, view, 20)
    wait_ended(qtbot, view)
    wait_shown(qtbot, view, step=20)
    settle(qtbot, w)
    shows_run_evaluation(view, 1)
    scrubber = view.training.scrubber
    assert scrubber.maximum() == 2  # snapshots at steps 0, 10 and 20
    click(qtbot, scrubber, QtCore.QPoint(2, scrubber.height() // 2))
    assert scrubber.value() == 0
    wait_shown(qtbot, view, step=0)
    settle(qtbot, w)
    title = view.curve_title.text()
    run = view.lab.run
    said = translate(
        "WhyAttention",
        "trained here: step {step} of {total}, evaluated first at step {first} · dashed: the shipped run",
    ).format(step=0, total=20, first=10)
    assert title.startswith(said), title  # it said step 20 of 20 over step 0's results
    assert view.curve.curves.series and all(s.dashed for s in view.curve.curves.series)
    click(qtbot, scrubber, QtCore.QPoint(scrubber.width() - 2, scrubber.height() // 2))
    assert scrubber.value() == 2
    settle(qtbot, w)
    shows_run_evaluation(view, len(run.eval_steps) - 1)


def test_after_a_click_on_the_replay_slider_the_arrows_walk_the_lesson(qtbot, lesson):
    w, view = lesson
    train(qtbot, view, 20)
    wait_ended(qtbot, view)
    settle(qtbot, w)
    scrubber = view.training.scrubber
    click(qtbot, scrubber, QtCore.QPoint(2, scrubber.height() // 2))
    assert scrubber.value() == 0
    press(qtbot, w, QtCore.Qt.Key.Key_Right)
    assert w.state.lesson_step == LENGTH_CURVE + 1  # the slider kept the keys to itself
    press(qtbot, w, QtCore.Qt.Key.Key_Left)
    assert w.state.lesson_step == LENGTH_CURVE
    # without the lesson a click gives the slider the arrows, as any slider
    w.state.show_lesson(False)
    settle(qtbot, w)
    click(qtbot, scrubber, QtCore.QPoint(2, scrubber.height() // 2))
    assert QtWidgets.QApplication.focusWidget() is scrubber


def test_a_five_line_result_box_shows_its_five_lines(qtbot, lesson):
    """Typed as a teacher would: a sentence of two clauses, whose result takes five lines at
    1024×768 beside the lesson (the word-shift line wraps); they are all shown, no scroll bar."""
    w, view = lesson
    view.pages.setCurrentIndex(CURVE_PAGE)
    edit = view.sentence_box.lineEdit()
    click(qtbot, edit)
    edit.selectAll()
    qtbot.keyClicks(edit, "Tom visits Africa in September and Jane visits France in April")
    wait_shown(qtbot, view)
    settle(qtbot, w)
    area, label = view.summary_area, view.summary
    # the text as large as makes one line wrap (Ctrl+=; at A the lab is wide enough since it
    # gives the settings column up)
    for _ in range(4):
        if laid_out_lines(label, area.viewport().width()) >= SUMMARY_LINES:
            break
        w.state.set_text_zoom(w.state.text_zoom + 1)
        settle(qtbot, w)
    need = label.heightForWidth(area.viewport().width())
    assert laid_out_lines(label, area.viewport().width()) == SUMMARY_LINES, label.text()  # a line wrapped
    assert area.height() >= need and not area.verticalScrollBar().isVisible(), (area.height(), need)


def laid_out_lines(label: QtWidgets.QLabel, width: int) -> int:
    doc = QtGui.QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(label.font())
    doc.setHtml(label.text())
    doc.setTextWidth(width)
    doc.documentLayout()  # lays it out
    block, lines = doc.begin(), 0
    while block.isValid():
        lines += block.layout().lineCount()
        block = block.next()
    return lines


def test_a_run_says_how_long_it_has_left(qtbot, lesson):
    w, view = lesson
    lab = view.lab
    train(qtbot, view, 400)
    qtbot.waitUntil(lambda: lab.run.step > 10 or not lab.training, timeout=RUN_MS)
    assert lab.training
    qtbot.waitUntil(lambda: "剩" in view.training.status.text(), timeout=WAIT_MS)
    left = lab.run.time_left_s
    assert left is not None and left > 0
    # at a projector the longer line leaves the figure its share (readable from the back)
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    settle(qtbot, w)
    assert lab.training and "剩" in view.training.status.text()
    assert not too_small(view), too_small(view)
    click(qtbot, view.training.cancel_button)
    wait_ended(qtbot, view)
    assert "剩" not in view.training.status.text()  # an ended run has nothing left
