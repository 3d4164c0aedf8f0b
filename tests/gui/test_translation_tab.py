"""The Translation tab driven as a user would: typing, examples, models, clicking an output
step, the worked arithmetic, the lines view, the Transformer's kinds, training with its
curves and scrubber, the shipped checkpoint, the language, export and sessions.

Every number on screen is checked against the Qt-free computation (explorer.seq2seq), and
the scores against the papers' equations written out again here in numpy.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS, track_range
from explorer.appstate.session import apply_session, load_session, save_session, session_of
from explorer.appstate.translation import checkpoint_problem
from explorer.gui.docks.registry import Dock
from explorer.gui.docks.worked import num
from explorer.gui.labs.translation.lesson import LESSON_PARTS
from explorer.gui.labs.translation.parts import shown
from explorer.seq2seq import alignment_at, translate
from explorer.seq2seq.alignment import whole_percent

from .helpers import WAIT_MS, click_cell, pixels
from .projector_check import all_problems

TAB = "translation"


@pytest.fixture
def tab(qtbot, window):
    """The window on the Translation tab, its first translation drawn."""
    window.state.set_tab(TAB)
    view = window.view(TAB)
    wait_translation(qtbot, view, source=window.state.translation.settings.source)
    return window, view


def wait_translation(qtbot, view, **expected):
    """Until the tab shows a translation with these trace fields and asks the worker nothing."""

    def done():
        t = view.trace
        assert t is not None and view._wanted is None
        for key, value in expected.items():
            assert getattr(t, key) == value, (key, getattr(t, key))

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return view.trace


def pick(combo, data) -> None:
    combo.setCurrentIndex(combo.findData(data))


def panel(view, name):
    return next(p for p in view.stages.panels if p.name == name)


def expected_scores(trace) -> np.ndarray:
    """Every step's scores from the trace's queries and keys, by the papers' equations."""
    q = trace.queries.astype(np.float64)  # [T, d]: the decoder states used as queries
    k = trace.keys.astype(np.float64)  # [n, d]: the encoder annotations h_j
    p = {name: a.astype(np.float64) for name, a in trace.scoring_params.items()}
    if trace.scoring == "additive":  # Bahdanau: vᵀ tanh(W₁ q + W₂ k)
        hidden = np.tanh((q @ p["additive_W1"][0])[:, None, :] + (k @ p["additive_W2"][0])[None, :, :])
        return hidden @ p["additive_v"][0]
    if trace.scoring == "general":  # Luong: qᵀ W k
        return q @ p["general_W"][0] @ k.T
    return q @ k.T  # dot, and scaled dot before its division


# -- typing, examples, models ----------------------------------------------------------------------
def test_typing_translates_on_the_worker_and_draws_every_step(qtbot, tab):
    window, view = tab
    view.source_edit.clear()
    qtbot.keyClicks(view.source_edit, "9.5.18")
    t = wait_translation(qtbot, view, source="9.5.18")
    reference = translate("9.5.18")
    assert t.output == reference.output == "2018-05-09"
    np.testing.assert_array_equal(t.alignment, reference.alignment)
    drawn = view.alignment.panels[0]
    np.testing.assert_array_equal(drawn.data, t.alignment)
    assert list(drawn.rows) == list(t.output_tokens) and list(drawn.cols) == list(t.source_tokens)
    assert view.strip.tokens == list(t.output_tokens)
    view.strip.finish()
    assert view.strip.revealed == len(t.output_tokens)  # every step visible
    # the alignment score in words, with its padded misses explained
    assert f"{whole_percent(t.alignment_score)} %" in view.score_label.text()
    assert "padded" in view.score_label.text()
    # what the worker did not finish is never drawn: typing again replaces it
    qtbot.keyClicks(view.source_edit, "x")
    qtbot.keyClick(view.source_edit, QtCore.Qt.Key.Key_Backspace)
    assert wait_translation(qtbot, view, source="9.5.18").output == "2018-05-09"


def test_bad_input_gets_a_message_never_a_traceback(qtbot, tab):
    window, view = tab
    view.source_edit.clear()
    qtbot.waitUntil(lambda: "Type a date" in view.message_text, timeout=WAIT_MS)
    assert view.trace is not None  # the last good translation stays
    view.source_edit.setText("9 mai 2018")  # the text on screen again: the error goes
    assert not view.message.isVisible() and view.trace.source == "9 mai 2018"
    view.source_edit.setText("1" * 60)
    qtbot.waitUntil(lambda: "at most 40 characters" in view.message_text, timeout=WAIT_MS)
    view.source_edit.setText("9 mai 2018 😀")
    t = wait_translation(qtbot, view, source="9 mai 2018 😀")
    assert "<unk>" in view.notice_text and "😀" in view.notice_text and not view.message.isVisible()
    assert t.alignment_score is None and "No alignment score" in view.score_label.text()
    assert not window.banner.isVisible()


def test_the_score_box_fits_each_text_not_the_longest_before_it(qtbot, tab):
    """A label's height for a width is at least its minimum height, and the box set that
    minimum to the text's lines: after a long text every shorter one kept its lines, blank,
    with a scroll bar over them."""
    window, view = tab
    view.source_edit.setText("9 May 2018 😀🎉")  # notices and no score: many lines
    wait_translation(qtbot, view, source="9 May 2018 😀🎉")
    long_floor = view.score_label.minimumHeight()
    view.source_edit.setText("09.05.18")  # fewer lines
    wait_translation(qtbot, view, source="09.05.18")
    qtbot.waitUntil(lambda: not view._shrink.isActive(), timeout=WAIT_MS)  # shorter once typing pauses
    probe = QtWidgets.QLabel()
    probe.setWordWrap(True)
    probe.setFont(view.score_label.font())
    probe.setText(view.score_label.text())
    fresh = probe.heightForWidth(max(50, view.score_scroll.viewport().width()))
    line = view.score_label.fontMetrics().lineSpacing()
    assert fresh < long_floor and view.score_label.minimumHeight() == fresh
    assert view.score_scroll.height() == max(line, min(fresh, 3 * line)) + 2


def test_examples_cover_every_format_and_pick_one(qtbot, tab):
    window, view = tab
    texts = [view.examples.itemData(i) for i in range(1, view.examples.count())]
    assert "2018年5月9日星期三" in texts and "二〇一八年五月九日" in texts and "9 mai 2018" in texts
    index = view.examples.findData("二〇一八年五月九日")
    view.examples.activated.emit(index)
    t = wait_translation(qtbot, view, source="二〇一八年五月九日")
    assert t.output == "2018-05-09" and view.source_edit.text() == "二〇一八年五月九日"
    assert t.example is not None and t.example.format == "zh_numerals"


def test_models_scorings_and_decodings(qtbot, tab):
    window, view = tab
    pick(view.model_box, "luong")
    pick(view.scoring_box, "dot")
    pick(view.attention_box, "hard")
    t = wait_translation(qtbot, view, model="luong", scoring="dot", attention="hard")
    reference = translate(t.source, "luong", "dot", "hard")
    np.testing.assert_array_equal(t.weights, reference.weights)
    assert set(np.unique(t.weights)) <= {0.0, 1.0}  # hard: one-hot rows
    pick(view.model_box, "transformer")
    t = wait_translation(qtbot, view, model="transformer")
    assert t.scoring == "scaled-dot" and t.attention == "hard"
    items = view.scoring_box.model()
    for row in range(view.scoring_box.count()):
        name = view.scoring_box.itemData(row)
        assert items.item(row).isEnabled() == (checkpoint_problem("transformer", name) is None)
        if name != "scaled-dot":
            assert "scaled dot-product" in items.item(row).toolTip()
    sample = view.attention_box.model().item(view.attention_box.findData("sample"))
    assert not sample.isEnabled() and sample.toolTip()
    assert view.kind_box.isVisible() and view.head_box.isVisible()


# -- an output step, its stages and its arithmetic ----------------------------------------------------
def test_clicking_an_output_step_shows_its_stages(qtbot, tab):
    window, view = tab
    t = view.trace
    qtbot.mouseClick(view.strip, QtCore.Qt.MouseButton.LeftButton, pos=view.strip.step_centre(3))
    step = t.step(3)
    assert window.state.translation.settings.cell == (3, int(np.argmax(step.weights)))
    i, j = view.cell()
    np.testing.assert_array_equal(panel(view, "Q").data[i], step.query)
    np.testing.assert_array_equal(panel(view, "scores").data[i], step.scores)
    np.testing.assert_array_equal(panel(view, "scaled").data[i], step.scaled)
    np.testing.assert_array_equal(panel(view, "weights").data[i], step.weights)
    np.testing.assert_array_equal(panel(view, "head_output").data[i], step.context)
    np.testing.assert_array_equal(panel(view, "K").data, t.keys)
    assert view.stages.figure.selection == (i, j) and view.strip.selected == 3
    assert f"“{t.output_tokens[3]}”" in view.step_label.text()
    # a cell of the alignment selects that step and that source character
    click_cell(qtbot, view.alignment, 0, 5, 2)
    assert view.cell() == (5, 2) and view.alignment.figure.selection == (5, 2)
    # a cell of a stage panel too
    index = next(k for k, p in enumerate(view.stages.panels) if p.name == "weights")
    click_cell(qtbot, view.stages, index, 7, 1)
    assert view.cell() == (7, 1)


class LayoutRequests(QtCore.QObject):
    """Counts the layout requests that reach ``widget``."""

    def __init__(self, widget):
        super().__init__()
        self.widget, self.count = widget, 0
        QtWidgets.QApplication.instance().installEventFilter(self)

    def eventFilter(self, obj, event):
        if obj is self.widget and event.type() == QtCore.QEvent.Type.LayoutRequest:
            self.count += 1
        return False

    def stop(self) -> None:
        QtWidgets.QApplication.instance().removeEventFilter(self)


def test_a_new_step_sentence_of_as_many_lines_lays_out_nothing_else(qtbot, tab):
    """At every keystroke the Output step page's sentence changes ("its largest weight, 0.90"):
    as the label of a layout it asked every layout up to the window to lay out again, and the
    whole window was repainted (10 ms of the GUI thread a keystroke). Its box takes the request;
    the sentence stays whole, and a longer one still gets its lines."""
    window, view = tab
    view.pages.setCurrentIndex(0)
    window.state.translation.set_source("9 mai 2017")
    wait_translation(qtbot, view, source="9 mai 2017")
    qtbot.wait(20)
    before = view.step_label.text()
    requests = LayoutRequests(view.step_page)
    try:
        window.state.translation.set_source("9 mai 2013")
        wait_translation(qtbot, view, source="9 mai 2013")
        qtbot.wait(20)
    finally:
        requests.stop()
    label = view.step_label
    assert label.text() != before and requests.count == 0
    assert (
        label.height() >= label.heightForWidth(label.width()) > 0
        and label.width() >= view.step_page.width() - 8
    )
    label.setText(" ".join([before] * 6))  # more lines: the box grows to them
    qtbot.waitUntil(
        lambda: label.height() >= label.heightForWidth(label.width()) > 3 * label.fontMetrics().height()
    )
    assert view.step_page.sentence_box.height() == label.height()


@pytest.mark.parametrize("scoring", ["additive", "general", "dot", "scaled-dot"])
def test_the_worked_dock_works_out_the_selected_step_with_trained_numbers(qtbot, tab, scoring):
    window, view = tab
    window.docks.set_visible(Dock.WORKED, True)
    pick(view.scoring_box, scoring)
    t = wait_translation(qtbot, view, model="bahdanau", scoring=scoring)
    view.select_step(2)
    i, j = view.cell()
    scores = expected_scores(t)
    np.testing.assert_allclose(scores, t.scores, rtol=1e-4, atol=1e-4)  # the trace is the equation
    dock = window.worked
    cell = dock.cell
    assert (cell.head, cell.i, cell.j) == (0, i, j)
    assert cell.score.score == pytest.approx(scores[i, j], rel=1e-4, abs=1e-4)
    assert cell.scaled == pytest.approx(t.scaled[i, j], rel=1e-4, abs=1e-4)
    assert cell.weight == pytest.approx(t.weights[i, j], abs=1e-5)
    text = dock.text()
    assert num(cell.score.score) in text and num(cell.softmax_weight) in text
    formula = {"additive": "tanh(W₁q + W₂k)", "general": "qᵀWk", "dot": "q·k", "scaled-dot": "√d_k = √128"}
    assert formula[scoring] in text
    # another step: the dock follows
    view.select_step(6)
    assert window.worked.cell.i == 6
    # leaving the tab: the dock works out the pipeline's cell again
    window.state.select_cell((1, 2))
    window.state.set_tab("pipeline")
    assert (window.worked.cell.i, window.worked.cell.j) == (1, 2)


def test_lines_view_draws_the_alignment_and_selects_a_step(qtbot, tab):
    window, view = tab
    t = view.trace
    qtbot.mouseClick(view.lines_button, QtCore.Qt.MouseButton.LeftButton)
    assert window.state.translation.settings.view == "lines"
    assert view.stack.currentWidget() is view.lines
    picture = view.lines.picture  # what the view draws: the trace's alignment, one head
    np.testing.assert_array_equal(picture.weights, t.alignment[None])
    assert picture.top == tuple(t.output_tokens)
    assert picture.bottom == tuple("␣" if c == " " else c for c in t.source_tokens)
    qtbot.mouseClick(view.lines, QtCore.Qt.MouseButton.LeftButton, pos=view.lines.token_point("top", 4))
    assert view.cell() == (4, int(np.argmax(t.alignment[4])))
    image = view.lines.render_image(600, 300)
    assert len(np.unique(pixels(image).reshape(-1, 3), axis=0)) > 3  # lines were drawn
    qtbot.mouseClick(view.lines_button, QtCore.Qt.MouseButton.LeftButton)
    assert view.stack.currentWidget() is view.stack.widget(0)


def test_transformer_every_kind_layer_and_head_through_the_stage_panels(qtbot, tab):
    window, view = tab
    pick(view.model_box, "transformer")
    t = wait_translation(qtbot, view, model="transformer")
    pick(view.kind_box, "decoder_self")
    view.layer_box.setValue(0)
    view.head_box.setValue(2)
    at = t.stages["decoder_self"][0]
    np.testing.assert_array_equal(panel(view, "weights").data, at.weights[2])
    np.testing.assert_array_equal(panel(view, "scores").data, at.scores[2])
    mask = panel(view, "mask").data
    np.testing.assert_array_equal(mask, np.tril(np.ones_like(mask)))  # the causal mask, trained with
    np.testing.assert_array_equal(panel(view, "weights").hidden, ~at.mask)  # drawn hatched
    assert panel(view, "weights").hidden_path is not None
    pick(view.kind_box, "encoder_self")
    np.testing.assert_array_equal(panel(view, "Q").data, t.stages["encoder_self"][0].Q[2])
    # the alignment is the last layer's cross-attention averaged over its heads
    np.testing.assert_allclose(
        view.alignment.panels[0].data, t.stages["cross"][-1].weights.mean(axis=0), atol=1e-6
    )
    # clicking an output character goes back to the cross-attention
    view.select_step(1)
    assert window.state.translation.settings.kind == "cross"
    window.docks.set_visible(Dock.WORKED, True)
    assert window.worked.cell.head == 2 and window.worked.cell.i == 1


# -- training ---------------------------------------------------------------------------------------
def wait_run(qtbot, tstate):
    qtbot.waitUntil(lambda: tstate.run is not None and not tstate.run.running, timeout=120_000)


def test_training_runs_beside_the_window_and_can_be_cancelled(qtbot, tab):
    window, view = tab
    tstate = window.state.translation
    panel_ = view.training
    panel_.steps.setValue(400)
    assert (panel_.progress.value(), panel_.progress.maximum()) == (0, 400)  # not "0 of 1 steps"
    qtbot.mouseClick(panel_.train_button, QtCore.Qt.MouseButton.LeftButton)
    assert view.pages.currentIndex() == 1 and tstate.training
    assert not panel_.train_button.isEnabled() and panel_.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: len(tstate.run.snapshots) >= 3, timeout=60_000)
    run = tstate.run
    assert panel_.progress.value() == run.step > 0
    # the alignment follows the newest snapshot while training
    qtbot.waitUntil(lambda: view.trace.checkpoint.startswith("training step"), timeout=WAIT_MS)
    qtbot.mouseClick(panel_.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    wait_run(qtbot, tstate)
    qtbot.waitUntil(lambda: run.status == "cancelled", timeout=WAIT_MS)  # the poll took the end
    assert run.step < 400 and panel_.progress.value() == run.step
    loss_x, loss_y = panel_.curve_data(0)
    assert list(loss_x) == list(range(1, run.step + 1)) and np.allclose(loss_y, run.losses)
    assert panel_.train_button.isEnabled() and not panel_.cancel_button.isEnabled()
    assert "Cancelled" in panel_.status.text()


def test_an_answer_while_a_run_trains_is_drawn_in_a_turn_of_its_own(qtbot, tab, monkeypatch):
    """While a run trains, a translation back from the worker is drawn in a turn of the event
    loop of its own (the pacer's), as a snapshot's is, never in the turn it arrives in (the two
    painted together blocked the GUI thread 62 ms); of two waiting, only the newer is drawn."""
    from types import SimpleNamespace

    window, view = tab
    monkeypatch.setattr(type(window.state.translation), "training", property(lambda self: True))
    drawn, show = [], view.show_trace
    monkeypatch.setattr(view, "show_trace", lambda trace, req: (drawn.append(trace.source), show(trace, req)))
    for text in ("9.5.18", "10.5.18"):
        view._wanted = window.state.translation.request()  # what the answer was asked for
        view._on_result(SimpleNamespace(ok=True, value=translate(text)))
        assert drawn == [] and view.trace.source not in ("9.5.18", "10.5.18")  # not in this turn
    qtbot.waitUntil(lambda: drawn == ["10.5.18"], timeout=WAIT_MS)
    qtbot.wait(100)
    assert drawn == ["10.5.18"] and view.trace.source == "10.5.18"


class Resizes(QtCore.QObject):
    """The resize events of some widgets (an event filter on each)."""

    def __init__(self, widgets):
        super().__init__()
        self.seen: list[tuple[int, int]] = []
        for widget in widgets:
            widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Resize:
            self.seen.append((event.oldSize().height(), event.size().height()))
        return False


def test_the_curves_keep_their_size_while_a_run_trains(qtbot, tab):
    """Pressing Train turns the two-line intro into a one-line status and the first snapshot
    shortens the weights label: neither may move the plots (a resized plot redraws everything)."""
    window, view = tab
    window.resize(1400, 900)
    tstate, panel_ = window.state.translation, view.training
    view.pages.setCurrentIndex(1)
    panel_.steps.setValue(30)
    qtbot.waitUntil(lambda: all(p.plot is not None for p in panel_.plots), timeout=WAIT_MS)
    qtbot.wait(50)  # the page laid out at this size
    resizes = Resizes([p.plot.viewport() for p in panel_.plots])
    heights = [p.height() for p in panel_.plots]
    # no run yet: no empty bar that reads as an empty text field (its room is kept)
    assert tstate.run is None and panel_.progress.isHidden()
    panel_.train_button.click()
    qtbot.waitUntil(lambda: len(tstate.run.snapshots) >= 2 or not tstate.run.running, timeout=60_000)
    qtbot.wait(50)
    assert tstate.run.step > 0 and "Step" in panel_.status.text() and panel_.progress.isVisible()
    assert resizes.seen == [] and [p.height() for p in panel_.plots] == heights
    wait_run(qtbot, tstate)


def test_a_short_run_its_curves_the_scrubber_and_the_shipped_checkpoint(qtbot, tab, tmp_path):
    window, view = tab
    tstate = window.state.translation
    panel_ = view.training
    view.pages.setCurrentIndex(1)
    panel_.steps.setValue(40)
    panel_.start()
    wait_run(qtbot, tstate)
    qtbot.waitUntil(lambda: not panel_.poll_timer.isActive(), timeout=WAIT_MS)
    run = tstate.run
    assert run.status == "done" and [s.step for s in run.snapshots] == [0, 10, 20, 30, 40]
    acc_x, acc_y = panel_.curve_data(1)
    assert list(acc_x) == run.eval_steps == [20, 40] and np.allclose(acc_y, run.series("exact_match"))
    assert panel_.progress.value() == 40
    t = wait_translation(qtbot, view, checkpoint="training step 40")
    source = tstate.settings.source
    np.testing.assert_array_equal(t.alignment, alignment_at(run.spec, run.snapshots[-1], source).alignment)
    # the scrubber: the drawn alignment is the snapshot's
    assert panel_.scrubber.maximum() == 4 and panel_.scrubber.value() == 4
    for index in (1, 0, 3):
        panel_.scrubber.setValue(index)
        t = wait_translation(qtbot, view, checkpoint=f"training step {run.snapshots[index].step}")
        expected = alignment_at(run.spec, run.snapshots[index], source)
        np.testing.assert_array_equal(view.alignment.panels[0].data, expected.alignment)
        assert t.output == expected.output
    # replay runs the scrubber to its end
    panel_.play_button.setChecked(True)
    qtbot.waitUntil(lambda: not panel_.play_button.isChecked(), timeout=WAIT_MS)
    assert panel_.scrubber.value() == 4
    # the shipped checkpoint, at any time
    qtbot.mouseClick(panel_.shipped_button, QtCore.Qt.MouseButton.LeftButton)
    t = wait_translation(qtbot, view, checkpoint="shipped bahdanau-additive")
    np.testing.assert_array_equal(t.alignment, translate(source).alignment)
    assert panel_.trained_button.isEnabled()
    qtbot.mouseClick(panel_.trained_button, QtCore.Qt.MouseButton.LeftButton)
    wait_translation(qtbot, view, checkpoint="training step 40")
    # the curves export, drawn from the run's data
    assert "translation:training" in window.exporter.labels()
    assert window.exporter.export_panel("translation:training", tmp_path / "curves.svg") is None
    assert "held-out exact match" in (tmp_path / "curves.svg").read_text(encoding="utf-8")


# -- language, export, sessions, presentation ------------------------------------------------------------
def test_language_switch_translates_the_tab(qtbot, tab):
    window, view = tab
    english = (view.pages.tabText(1), view.training.train_button.text(), view.score_label.text())
    window.state.set_language("zh_CN")
    chinese = (view.pages.tabText(1), view.training.train_button.text(), view.score_label.text())
    for a, b in zip(english, chinese):
        assert a != b and any("\u4e00" <= ch <= "\u9fff" for ch in b)
    assert window.tabs.title("translation") != "Translation"
    window.state.set_language("en")
    assert view.pages.tabText(1) == english[0]


def test_every_figure_of_the_tab_exports_as_png_and_svg(qtbot, tab, tmp_path):
    window, view = tab
    view.select_step(4)
    x = window.exporter
    for name in ("translation:alignment", "translation:lines", "translation:step", "worked"):
        stem = name.replace(":", "_")
        assert x.export_panel(name, tmp_path / f"{stem}.png") is None, x.message
        image = QtGui.QImage(str(tmp_path / f"{stem}.png"))
        assert not image.isNull() and image.width() > 300 and image.height() > 200
        assert len(np.unique(pixels(image).reshape(-1, 3), axis=0)) > 3
        assert x.export_panel(name, tmp_path / f"{stem}.svg") is None, x.message
        root = ET.parse(tmp_path / f"{stem}.svg").getroot()
        assert root.tag.endswith("svg") and len(list(root.iter())) > 5
    worked_svg = (tmp_path / "worked.svg").read_text(encoding="utf-8")
    i, j = view.cell()
    assert f"{float(view.trace.weights[i, j]):.4f}" in worked_svg  # the selected step's numbers
    # the alignment: a caption says what it is, and no selection is drawn on it
    alignment_svg = (tmp_path / "translation_alignment.svg").read_text(encoding="utf-8")
    assert (
        "9 mai 2018" in alignment_svg
        and "2018-05-09" in alignment_svg
        and "Each row is an output" in alignment_svg
    )
    view.select_step(1)
    assert x.export_panel("translation:alignment", tmp_path / "again.png") is None
    assert QtGui.QImage(str(tmp_path / "again.png")) == QtGui.QImage(
        str(tmp_path / "translation_alignment.png")
    )
    # the training curves: offered once a run has taken a step (the training test exports them)
    assert "translation:training" not in x.labels()


def test_figures_export_without_the_tab_ever_shown(qtbot, window, tmp_path):
    x = window.exporter
    assert x.export_panel("translation:alignment", tmp_path / "a.png") is None, x.message
    assert window.tabs.built(TAB) is None


def test_session_round_trip_keeps_the_tab(qtbot, tab, make_window, tmp_path):
    window, view = tab
    tstate = window.state.translation
    pick(view.model_box, "luong")
    view.source_edit.setText("May 9, 2018")
    wait_translation(qtbot, view, source="May 9, 2018", model="luong")
    view.select_step(5)
    qtbot.mouseClick(view.lines_button, QtCore.Qt.MouseButton.LeftButton)
    view.training.seed.setValue(7)
    save_session(tmp_path / "s.json", session_of(window.state))
    saved = tstate.settings
    other = make_window()
    apply_session(other.state, load_session(tmp_path / "s.json"))
    assert other.state.translation.settings == saved
    other_view = other.view(TAB)
    t = wait_translation(qtbot, other_view, source="May 9, 2018", model="luong")
    assert other_view.cell() == (5, int(np.argmax(t.alignment[5])))
    assert other_view.stack.currentWidget() is other_view.lines and other_view.training.seed.value() == 7


def test_presentation_mode_fits_1024_by_768_with_large_text(qtbot, tab):
    window, view = tab
    window.resize(1024, 768)
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.set_tab(TAB)
    wait_translation(qtbot, view)
    qtbot.wait(50)
    assert window.width() <= 1024 and window.height() <= 768
    for widget in (view.source_edit, view.model_box, view.score_label, view.training.train_button):
        assert QtGui.QFontInfo(widget.font()).pixelSize() >= 20
    assert view.alignment.style_.font.pixelSize() >= 20
    assert view.geometry().right() <= window.width()


def tab_problems(window) -> list[str]:
    """The projector's checks, less the main tab bar's scroll arrows (the window's, not this tab's)."""
    return [p for p in all_problems(window) if "ScrollLeftButton" not in p and "ScrollRightButton" not in p]


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1920, 1080)])
def test_on_every_projector_nothing_is_clipped_in_both_languages_and_models(qtbot, tab, size):
    window, view = tab
    window.resize(*size)  # first: the window's minimum is larger for a moment while it turns presenter
    window.classroom.set_presentation(True, fullscreen=False)
    window.resize(*size)
    window.state.set_tab(TAB)
    view.controls.set_open(True)  # beside the lesson they are folded: the teacher unfolded them
    for language in ("en", "zh_CN"):
        window.state.set_language(language)
        for model in ("bahdanau", "transformer"):
            pick(view.model_box, model)
            wait_translation(qtbot, view, model=model)
            qtbot.wait(20)
            assert window.size() == QtCore.QSize(*size), (language, model)
            assert not tab_problems(window), (language, model, tab_problems(window))
            assert view.kind_box.isVisible() == (model == "transformer")
    if size == (1024, 768):  # A+ twice (the lesson's model): larger text, still on the screen and whole
        pick(view.model_box, "bahdanau")
        wait_translation(qtbot, view, model="bahdanau")
        window.classroom.act_zoom_in.trigger()
        window.classroom.act_zoom_in.trigger()
        qtbot.wait(20)
        assert window.size() == QtCore.QSize(*size)
        assert window.minimumSizeHint().width() <= 1024 and window.minimumSizeHint().height() <= 768
        assert view.choices.per_row[0] < 4  # the choices went onto more rows
        assert not tab_problems(window), tab_problems(window)


def test_the_lesson_walks_onto_the_tab_and_points_at_its_parts(qtbot, tab):
    window, view = tab
    window.state.set_tab("pipeline")
    window.state.show_lesson(True)
    stages_of = {step.stage: k for k, step in enumerate(STEPS) if step.tab == TAB}
    assert set(stages_of) == set(LESSON_PARTS)
    window.state.set_lesson_step(stages_of["alignment_weights"])
    assert window.state.tab == TAB and view.pages.currentIndex() == 0
    marked = [view.stages.panels[i].name for i in view.stages.figure.marks]
    assert marked == ["weights"]
    window.state.set_lesson_step(stages_of["context_per_step"])
    assert list(view.alignment.figure.marks) == [0]
    window.state.set_lesson_step(stages_of["learn"])
    assert view.pages.currentIndex() == 1
    window.state.set_lesson_step(track_range("attention")[-1])  # back on the pipeline
    assert window.state.tab == "pipeline" and not view.alignment.figure.marks


def test_a_revealed_character_repaints_its_own_box_as_the_whole_strip_draws_it(qtbot):
    """The answer is written out a character at a time: each step repaints only its box (not
    the whole strip at every frame), and that box looks as in a paint of the whole strip."""
    from explorer.gui.labs.translation.parts import OutputStrip

    strip = OutputStrip()
    qtbot.addWidget(strip)
    strip.resize(500, strip.sizeHint().height())
    strip.set_output(translate("9.5.18"), animate=True)
    asked: list = []
    strip.update = lambda *area: asked.append(area)  # type: ignore[method-assign]
    for _ in strip.tokens:
        strip._reveal_one()
    assert [a[0] for a in asked] == [strip._slot_area(k) for k in range(len(strip.tokens))]
    whole = QtGui.QImage(strip.size(), QtGui.QImage.Format.Format_ARGB32)
    strip.render(whole)
    for k in (0, 4, len(strip.tokens) - 1):
        part = QtGui.QImage(strip.size(), QtGui.QImage.Format.Format_ARGB32)
        part.fill(0)
        area = strip._slot_area(k)
        strip.render(part, area.topLeft(), QtGui.QRegion(area))  # drawn where it lies
        assert part.copy(area) == whole.copy(area), k


def test_an_emoji_in_the_date_is_labelled_so_the_font_draws_it(qtbot, tab):
    """Classroom trial: a 🎉 typed in the date showed as an empty box. The figures' labels read it as
    the model does (<unk>); a label of the character itself (a source the vocabulary knows, an
    export) is its code point, every character of which the figure's font has."""
    window, view = tab
    view.source_edit.setText("9 mai 2018 🎉")
    view.source_edit.textEdited.emit("9 mai 2018 🎉")
    wait_translation(qtbot, view, source="9 mai 2018 🎉")
    cols = list(view.alignment.panels[0].cols)
    assert cols == list("9␣mai␣2018␣") + ["<unk>"] and "U+1F389" in view.notice_text
    metrics = QtGui.QFontMetrics(view.alignment.font())
    for label in shown(["🎉", "\u200b", "é", "<unk>"]):
        assert len(label) > 1 or metrics.inFontUcs4(ord(label)), label
    assert shown(["🎉", " ", "a"]) == ["U+1F389", "␣", "a"]
