"""The Global vs local tab driven as a user would: the two alignments of the shipped pair, the
window framed on each row and p_t marked, D moved on the trained weights, another local model,
a row clicked, a lesson step, training in the window, a session, Chinese, presentation mode.

Every number on screen is the Qt-free comparison's (explorer.seq2seq.local_lab), computed
again here; the window's own numbers are checked against the paper in
tests/seq2seq/test_local_attention.py.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.appstate.lesson import STEPS, step_index
from explorer.appstate.local_window import LocalSettings
from explorer.appstate.session import apply_session, load_session, save_session, session_of
from explorer.seq2seq.local_lab import WindowPair, compare_windows, shipped_pair

from .helpers import WAIT_MS, pixels
from .projector_check import all_problems

TAB = "local"


@pytest.fixture
def tab(qtbot, window):
    window.state.set_tab(TAB)
    view = window.view(TAB)
    wait_compared(qtbot, view)
    return window, view


def wait_compared(qtbot, view, **expected):
    """Until the tab shows a comparison of the state's request, with these local-trace fields."""

    def done():
        c = view.compared
        assert c is not None and view._wanted is None and view.compared_request == view.lstate.request()
        for key, value in expected.items():
            assert getattr(c.local, key) == value, (key, getattr(c.local, key))

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return view.compared


def expected(local: str, text: str, window: int):
    models = shipped_pair(WindowPair(local, 3))
    return compare_windows(models, "copy-twice", text, window)


def test_the_shipped_pair_side_by_side_with_the_window_on_every_row(qtbot, tab):
    window, view = tab
    s = view.lstate.settings
    shown, truth = view.compared, expected(s.local, s.source, s.window)
    for a, b in ((shown.global_, truth.global_), (shown.local, truth.local)):
        assert a.output == b.output
        np.testing.assert_array_equal(a.alignment, b.alignment)
    np.testing.assert_array_equal(shown.local.centres, truth.local.centres)
    assert view.global_canvas.trace is shown.global_ and view.local_canvas.trace is shown.local
    local = shown.local
    for t, bounds in enumerate(local.window_bounds):  # zero outside the framed window
        if bounds is not None:
            outside = np.ones(len(local.source_tokens), bool)
            outside[bounds[0] : bounds[1] + 1] = False
            assert not local.alignment[t, outside].any()
    assert "D = 3" in view.window_label.text() and "3" in view.local_canvas.title
    image = view.local_canvas.grab().toImage()
    assert pixels(image).std() > 10  # the alignment is drawn, not an empty canvas


def test_a_text_it_cannot_compare_greys_the_maps_of_the_last_one(qtbot, tab):
    """Trial 9: a 50 KB paste gave "Cannot compare this" over the previous text's maps, drawn as if
    they were the new text's; the Translation tab greys its old answer and says whose it is."""
    window, view = tab
    before = view.compared_request.source
    too_long = " ".join(["a b c"] * 100)  # more words than the lab reads
    view.source_edit.setText(too_long)
    view.source_edit.textEdited.emit(too_long)
    qtbot.waitUntil(lambda: view.message.isVisible() and view._wanted is None, timeout=WAIT_MS)
    assert f"still those for “{before}”" in view.message_text
    assert not view.global_canvas.isEnabled() and not view.local_canvas.isEnabled()
    assert not view.summary.isEnabled()
    view.source_edit.setText("")
    view.source_edit.textEdited.emit("")  # empty: the same
    qtbot.waitUntil(lambda: "still those" in view.message_text, timeout=WAIT_MS)
    assert not view.local_canvas.isEnabled()
    view.source_edit.setText(before)
    view.source_edit.textEdited.emit(before)
    wait_compared(qtbot, view)
    assert "still those" not in view.message_text
    assert view.global_canvas.isEnabled() and view.local_canvas.isEnabled() and view.summary.isEnabled()


def test_moving_d_reads_the_same_weights_through_another_window(qtbot, tab):
    window, view = tab
    view.window_slider.setValue(6)
    assert view.lstate.settings.window == 6
    shown = wait_compared(qtbot, view, half_width=6)
    truth = expected(view.lstate.settings.local, view.lstate.settings.source, 6)
    np.testing.assert_array_equal(shown.local.alignment, truth.local.alignment)
    assert shown.local.trained_half_width == 3 and any(
        "trained with D = 3" in str(n) for n in shown.local.notices
    )
    assert "trained with 3" in view.window_label.text()


def test_local_m_runs_off_a_source_half_as_long(qtbot, tab):
    window, view = tab
    view.model_box.setCurrentIndex(view.model_box.findData("local-m"))
    view.model_box.activated.emit(view.model_box.currentIndex())
    shown = wait_compared(qtbot, view, model="local-m")
    n = len(shown.local.source_tokens)
    np.testing.assert_array_equal(shown.local.centres, np.arange(len(shown.local.output_tokens)))
    assert [b is None for b in shown.local.window_bounds] == [
        t - 3 > n - 1 for t in range(len(shown.local.centres))
    ]
    assert "nothing" in view.summary.text()  # the steps past the source are named


def test_clicking_a_row_selects_the_step_on_both(qtbot, tab):
    window, view = tab
    canvas = view.local_canvas
    grid, _, ch = canvas._layout()
    qtbot.mouseClick(
        canvas,
        QtCore.Qt.MouseButton.LeftButton,
        pos=QtCore.QPoint(int(grid.center().x()), int(grid.top() + 2.5 * ch)),
    )
    assert view.lstate.settings.step == 2
    assert view.global_canvas.selected == 2 and canvas.selected_step() == 2
    assert "p_t = " in canvas._reading_caption(2)


def test_a_lesson_step_sets_up_the_tab(qtbot, tab):
    window, view = tab
    window.state.show_lesson(True)
    window.state.set_lesson_step(step_index("local.monotonic"))
    assert window.state.tab == TAB and STEPS[window.state.lesson_step].tab == TAB
    assert view.lstate.settings.local == "local-m"
    wait_compared(qtbot, view, model="local-m")


def test_training_both_in_the_window(qtbot, tab, tmp_path):
    window, view = tab
    lab = view.lstate
    lab.options = replace(
        lab.options, batch_size=4, eval_every=2, eval_size=1, snapshot_every=1, device="cpu"
    )
    view.training.steps.setValue(10)
    view.train_window.setValue(2)
    assert lab.settings.train_steps == 10 and lab.settings.train_window == 2
    qtbot.mouseClick(view.training.train_button, QtCore.Qt.MouseButton.LeftButton)
    assert view.pages.currentIndex() == 1 and lab.run.spec == WindowPair("local-p-ours", 2)
    qtbot.waitUntil(lambda: lab.status == "done", timeout=120_000)
    lab.poll()
    assert lab.run.eval_steps[-1] == 10 and 0 <= lab.run.last("window_share") <= 1
    assert view.compared_request.weights == "shipped"  # the training page shows no alignment
    view.pages.setCurrentIndex(0)  # back to the alignments: the run's last snapshot compared
    shown = wait_compared(qtbot, view, half_width=2)
    truth = compare_windows(
        lab.run.spec.models_at(lab.run.snapshots[-1].state), "copy-twice", lab.settings.source, 2
    )
    np.testing.assert_array_equal(shown.local.alignment, truth.local.alignment)
    assert "training step 10" in view.global_canvas.title
    # the session keeps the settings, not the run
    save_session(tmp_path / "s.json", session_of(window.state))
    data = load_session(tmp_path / "s.json")
    other = window.state.labs["local"]
    apply_session(window.state, data)
    assert other.settings == replace(lab.settings) and other.weights == "shipped"


def test_after_cancel_the_trained_model_shows_in_use_and_its_snapshots_replay(qtbot, tab):
    window, view = tab
    lab, panel = view.lstate, view.training
    lab.options = replace(
        lab.options, batch_size=4, eval_every=2, eval_size=1, snapshot_every=1, device="cpu"
    )
    view.training.steps.setValue(400)
    qtbot.mouseClick(panel.train_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(lab.run.snapshots) >= 4, timeout=120_000)
    qtbot.mouseClick(panel.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: lab.status == "cancelled" and not panel.poll_timer.isActive(), timeout=60_000)
    newest = lab.run.snapshots[-1].step
    # the model just trained is in use: its button pressed, not greyed; shipped can be chosen
    assert panel.trained_button.isEnabled() and panel.trained_button.isChecked()
    assert panel.shipped_button.isEnabled() and not panel.shipped_button.isChecked()
    assert lab.shown_step() == newest
    panel.scrubber.setValue(1)  # an older snapshot
    assert lab.shown_step() == lab.run.snapshots[1].step and panel.trained_button.isChecked()
    qtbot.mouseClick(panel.trained_button, QtCore.Qt.MouseButton.LeftButton)
    assert lab.shown_step() == newest and panel.trained_button.isChecked()  # back to the newest
    qtbot.mouseClick(panel.trained_button, QtCore.Qt.MouseButton.LeftButton)  # pressed again: stays
    assert panel.trained_button.isChecked() and lab.weights == "trained"
    qtbot.mouseClick(panel.shipped_button, QtCore.Qt.MouseButton.LeftButton)
    assert lab.weights == "shipped" and panel.shipped_button.isChecked()
    assert not panel.trained_button.isChecked() and panel.trained_button.isEnabled()
    qtbot.mouseClick(panel.trained_button, QtCore.Qt.MouseButton.LeftButton)
    assert lab.shown_step() == newest
    # the loss chart keeps its 0 label at the bottom of its axis
    loss = panel.plots[0]
    qtbot.waitUntil(lambda: loss.plot is not None, timeout=WAIT_MS)
    (_, _), (y0, y1) = loss.plot.getPlotItem().viewRange()
    assert y0 < 0 < y1 and loss._y[0] == 0.0


def test_settings_are_checked():
    assert LocalSettings.from_dict(LocalSettings(window=5).to_dict()).window == 5
    for bad in ({"window": 0}, {"local": "global"}, {"nope": 1}, {"source": 3}):
        with pytest.raises(ValueError):
            LocalSettings.from_dict(bad)
    assert LocalSettings.from_dict({}) == LocalSettings()


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)])
def test_presentation_mode_in_both_languages_nothing_is_clipped(qtbot, tab, size):
    window, view = tab
    window.resize(*size)
    window.classroom.set_presentation(True, fullscreen=False)
    window.resize(*size)
    for language in ("en", "zh_CN"):
        window.state.set_language(language)
        for page in (0, 1):
            view.pages.setCurrentIndex(page)
            qtbot.wait(20)
            assert window.size() == QtCore.QSize(*size), language
            problems = [p for p in all_problems(window) if "Scroll" not in p]
            assert not problems, (language, page, problems)
    assert view.pages.tabText(0) == "全局与局部" and "窗口" in view.window_label.text()
    assert "全局" in view.global_canvas.title
    # the summary names the models as the picker does, never by their ids (trial 8 F1)
    assert view.lstate.settings.local == "local-p-ours" and "我们的（非 Luong）" in view.summary.text()
    assert "local-p-ours" not in view.summary.text()
    assert view.local_canvas.width() >= 300 and view.local_canvas.height() >= 250
    window.state.set_language("en")


def test_an_emptied_training_window_says_what_d_must_be(qtbot, tab):
    """Classroom trial: the run's D field emptied said nothing, and a run then trained with the
    old D. The line names D's range and the D a run takes; a D typed again takes it away."""
    window, view = tab
    view.pages.setCurrentIndex(1)
    edit = view.train_window.lineEdit()
    used = view.lstate.settings.train_window
    edit.selectAll()
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Delete)
    assert edit.text() == "" and view.message.isVisible()
    assert "must be a whole number from 1 to 30" in view.message.text(), view.message.text()
    assert f"a run trains with D = {used}" in view.message.text()
    qtbot.keyClicks(edit, "5")
    assert view.lstate.settings.train_window == 5 and not view.message.isVisible()
