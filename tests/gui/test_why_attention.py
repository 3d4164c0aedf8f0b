"""The Why-attention page driven as a teacher would: the lesson's sentences in both languages,
the fixed-C model's one column beside the attention alignment, typing a sentence, the length
curve (shipped, then trained here side by side), the lesson steps that point at it, sessions.

Every number on screen is checked against the Qt-free computation (explorer.seq2seq).
"""

from __future__ import annotations

import html
from dataclasses import replace

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.appstate.lesson import STEPS
from explorer.appstate.session import apply_session, load_session, save_session, session_of
from explorer.appstate.why_attention import EXAMPLES, WhyAttentionSettings
from explorer.gui.labs.translation.why_attention import CURVE_PAGE, SENTENCE_PAGE
from explorer.seq2seq import shipped_length_result, trace_sequence, translate_sequence
from explorer.seq2seq.alignment import whole_percent
from explorer.seq2seq.sequence_lab import DEFAULTS, curve_from_metrics, models_at
from explorer.seq2seq.tasks import get_task

from .helpers import WAIT_MS

TAB = "why_attention"
LIGHT = replace(DEFAULTS, eval_every=10, eval_size=1, snapshot_every=10, device="cpu")


def wait_shown(qtbot, view, **expected):
    """Until the page shows the translations of what its state asks for."""

    def done():
        assert view.shown is not None and view.shown_request == view.lab.request()
        s = view.lab.settings
        assert view.shown.attention.source == " ".join(get_task(view.shown.task).read(s.sentence))
        for key, value in expected.items():
            assert getattr(view.shown, key) == value

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return view.shown


@pytest.fixture
def page(qtbot, window):
    window.state.set_tab(TAB)
    view = window.view(TAB)
    wait_shown(qtbot, view)
    return window, view


def test_the_fixed_c_model_is_one_column_the_same_for_every_step(qtbot, page):
    window, view = page
    t = wait_shown(qtbot, view, task="compound-fr")
    fixed = translate_sequence(EXAMPLES[0], "compound-fr", "no-attention")
    attention = translate_sequence(EXAMPLES[0], "compound-fr", "attention")
    drawn = view.fixed_map.panels[0]
    assert drawn.cols == ["C"] and list(drawn.rows) == fixed.output_tokens
    np.testing.assert_array_equal(drawn.data, np.ones((len(fixed.output_tokens), 1)))
    # what the decoder reads: exactly the same vector at every step
    assert (t.fixed.context == t.fixed.context[0]).all() and len(t.fixed.context) > 1
    np.testing.assert_array_equal(t.fixed.context, fixed.context)
    shown = view.attention_map.panels[0]
    np.testing.assert_array_equal(shown.data, attention.alignment)
    assert list(shown.cols) == EXAMPLES[0].split() and np.allclose(shown.data.sum(axis=1), 1, atol=1e-5)
    assert not (attention.context == attention.context[0]).all()  # a context per step
    text = view.summary.text()
    assert (
        html.escape(fixed.output) in text
        and f"{fixed.parameters:,}" in text
        and f"{attention.parameters:,}" in text
    )
    assert f"{whole_percent(attention.alignment_score)}%" in text


def test_chinese_by_keyboard_reorders_the_month(qtbot, page):
    window, view = page
    view.language_box.setFocus()
    qtbot.keyClick(view.language_box, QtCore.Qt.Key.Key_Down)
    assert view.lab.settings.language == "zh"
    t = wait_shown(qtbot, view, task="sentences-zh")
    assert t.attention.output == "简九月访问非洲" == t.attention.expected
    shown = view.attention_map.panels[0]
    row = list(shown.rows).index("九月")
    assert shown.cols[int(np.argmax(shown.data[row]))] == "September"  # across "visits Africa"
    np.testing.assert_array_equal(shown.data, translate_sequence(EXAMPLES[0], "sentences-zh").alignment)


def test_typing_a_sentence_and_an_empty_one(qtbot, page):
    window, view = page
    edit = view.sentence_box.lineEdit()
    edit.selectAll()
    qtbot.keyClicks(edit, "Jane sees the red car")
    t = wait_shown(qtbot, view)
    assert t.attention.output == "Jane voit la voiture rouge"
    shown = view.attention_map.panels[0]
    looks = {w: shown.cols[int(np.argmax(shown.data[i]))] for i, w in enumerate(shown.rows)}
    assert looks["voiture"] == "car" and looks["rouge"] == "red"  # the adjective after the noun
    edit.selectAll()
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: bool(view.message_text), timeout=WAIT_MS)
    assert "Jane visits Africa in September" in view.message_text  # the example it says to type
    assert view.shown is None and not view.attention_map.panels and not view.summary.text()


def test_the_shipped_length_curve_and_its_measure(qtbot, page):
    window, view = page
    view.pages.setCurrentIndex(CURVE_PAGE)
    final = shipped_length_result().final
    drawn = view.curve.curves
    assert [s.colour for s in drawn.series] == ["#0072B2", "#D55E00"]
    for series, model in zip(drawn.series, ("attention", "no-attention")):
        assert list(series.xs) == list(final[model].lengths)
        assert list(series.ys) == list(final[model].word_accuracy)
        assert f"{shipped_length_result().parameters[model]:,}" in view.curve_title.text()  # not the legend
    view.measure_box.setFocus()
    qtbot.keyClick(view.measure_box, QtCore.Qt.Key.Key_Down)
    assert view.lab.settings.measure == "exact_match"
    assert list(view.curve.curves.series[1].ys) == list(final["no-attention"].exact_match)


def test_training_here_side_by_side_draws_its_curves_and_its_maps(qtbot, page):
    window, view = page
    lab = view.lab
    lab.options = LIGHT
    view.pages.setCurrentIndex(CURVE_PAGE)
    view.training.steps.setValue(10)  # the fewest the page offers
    shipped = view.curve.curves
    qtbot.mouseClick(view.training.train_button, QtCore.Qt.MouseButton.LeftButton)
    # until its first evaluation the run has no curve: the shipped one stands in, dashed, under
    # the run's title (the run is what the class watches)
    qtbot.waitUntil(lambda: "trained here" in view.curve_title.text(), timeout=WAIT_MS)
    if not lab.run.eval_steps:
        assert "evaluated first at step 10" in view.curve_title.text()
        assert all(s.dashed for s in view.curve.curves.series)
        assert [list(s.ys) for s in view.curve.curves.series] == [list(s.ys) for s in shipped.series]
    qtbot.waitUntil(lambda: lab.run is not None and not lab.run.running, timeout=120_000)
    qtbot.waitUntil(lambda: not view.training.poll_timer.isActive(), timeout=WAIT_MS)
    run = lab.run
    assert run.status == "done" and run.eval_steps == [10]
    expected = curve_from_metrics(run.metrics[-1], "attention")
    assert list(view.curve.curves.series[0].ys) == list(expected.word_accuracy)
    assert "step 10 of 10" in view.curve_title.text()
    wait_shown(qtbot, view, step=10)
    models = models_at(run.spec, run.snapshots[-1])
    again = trace_sequence(models["attention"], get_task("compound-fr"), EXAMPLES[0])
    # the maps follow the run while their page is hidden too: drawn when it is on screen
    view.pages.setCurrentIndex(SENTENCE_PAGE)
    np.testing.assert_array_equal(view.attention_map.panels[0].data, again.alignment)
    # Chinese is not what the run trained: the shipped Chinese models, and back to them
    lab.set_language("zh")
    wait_shown(qtbot, view, task="sentences-zh", step=None)
    view.pages.setCurrentIndex(CURVE_PAGE)  # the figure is drawn while its page is on screen
    assert lab.weights == "shipped" and "shipped" in view.curve_title.text()


def test_an_evaluation_while_training_is_drawn_in_turns_of_its_own(qtbot, page, monkeypatch):
    """The run's report (the training page's status), the figure's redraw and the new
    snapshot's translation each take a turn of the event loop: in one turn with the figure's
    paint after them they blocked the window for their sum."""
    window, view = page
    lab = view.lab
    lab.options = LIGHT  # an evaluation and a snapshot every 10 steps, three of them while it trains
    view.pages.setCurrentIndex(CURVE_PAGE)
    view.training.steps.setValue(40)
    order: list[tuple[str, int | None]] = []
    inside = [False]
    poll, set_curves, submit = lab.poll, view.curve.set_curves, view.context.worker.submit

    def polled():
        inside[0] = True
        try:
            return poll()
        finally:
            inside[0] = False

    def drawn(curves, draw=True):
        training = lab.training  # after the run the last figure is drawn at once, as before
        order.append(("inside poll" if inside[0] and training else "figure", view._curve_key[1]))
        return set_curves(curves, draw)

    def submitted(channel, fn, **kw):
        if channel == "why_attention":
            snapshot = getattr(fn, "__self__", None) and fn.__self__.snapshot
            training = lab.training
            order.append(
                ("inside poll" if inside[0] and training else "translation", snapshot and snapshot.step)
            )
        return submit(channel, fn, **kw)

    view.training.poll_timer.timeout.disconnect()
    view.training.poll_timer.timeout.connect(polled)
    monkeypatch.setattr(view.curve, "set_curves", drawn)
    monkeypatch.setattr(view.context.worker, "submit", submitted)
    qtbot.mouseClick(view.training.train_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: lab.run is not None and not lab.run.running, timeout=120_000)
    qtbot.waitUntil(lambda: not view.training.poll_timer.isActive(), timeout=WAIT_MS)
    run = lab.run
    assert run.status == "done" and run.eval_steps == [10, 20, 30, 40]
    assert "inside poll" not in [what for what, _ in order]
    # an evaluation that came while the run trained: its figure, then its snapshot translated
    first = next(
        k
        for k, (what, key) in enumerate(order)
        if what == "figure" and key is not None and isinstance(key[1], int)  # not "before" it
    )
    index = order[first][1][1]
    step = run.eval_steps[index]
    assert order[first][1] == (run.id, index) and step < 40
    assert ("translation", step) in order[first + 1 :] and ("translation", step) not in order[:first]
    assert list(view.curve.curves.series[0].ys) == list(
        curve_from_metrics(run.metrics[-1], "attention").word_accuracy
    )


def test_the_lesson_steps_show_the_page(qtbot, page):
    window, view = page
    state = window.state
    state.set_tab("pipeline")
    state.show_lesson(True)
    ids = [s.id for s in STEPS]
    assert ids.index("translation.fixed_context") + 1 == 12  # the step keeps its number and id
    assert ids.index("translation.fixed_context") < ids.index("translation.length_curve")
    view.lab.set_language("zh")
    state.set_lesson_step(ids.index("translation.fixed_context"))
    assert state.tab == TAB and view.pages.currentIndex() == SENTENCE_PAGE
    wait_shown(qtbot, view, task="compound-fr")  # the step's own sentence, in French
    assert view.fixed_map.figure.panels[0].cols == ["C"]
    state.set_lesson_step(ids.index("translation.length_curve"))
    assert view.pages.currentIndex() == CURVE_PAGE and view.curve.curves.series
    state.set_lesson_step(ids.index("translation.reordering"))
    assert view.pages.currentIndex() == SENTENCE_PAGE and view.lab.settings.language == "zh"
    wait_shown(qtbot, view, task="sentences-zh")


def test_words_in_both_languages_and_sessions(qtbot, page, make_window, tmp_path):
    window, view = page
    english = (view.pages.tabText(0), view.language_box.itemText(1), view.summary.text())
    window.state.set_language("zh_CN")
    chinese = (view.pages.tabText(0), view.language_box.itemText(1), view.summary.text())
    for a, b in zip(english, chinese):
        assert a != b and any("\u4e00" <= ch <= "\u9fff" for ch in b)
    window.state.set_language("en")
    view.lab.set_sentence(EXAMPLES[1])
    view.lab.set_measure("exact_match")
    save_session(tmp_path / "why.json", session_of(window.state))
    other = make_window()
    apply_session(other.state, load_session(tmp_path / "why.json"))
    assert other.state.labs[TAB].settings == view.lab.settings
    with pytest.raises(ValueError, match="language"):
        WhyAttentionSettings.from_dict({"language": "de"})
    with pytest.raises(ValueError, match="train_steps"):
        WhyAttentionSettings.from_dict({"train_steps": 10**9})


def test_the_shipped_run_is_read_once_until_its_file_changes(monkeypatch, tmp_path):
    """The figure's title asks for the shipped run's parameter counts at every redraw: the
    JSON is parsed again only when the file changed."""
    from explorer.gui.labs.translation import why_attention as page

    copy = tmp_path / "length.json"
    copy.write_bytes(page.shipped_result_path().read_bytes())
    reads = []

    def read():
        reads.append(1)
        return shipped_length_result()

    monkeypatch.setattr(page, "shipped_result_path", lambda: copy)
    monkeypatch.setattr(page, "shipped_length_result", read)
    monkeypatch.setattr(page, "_shipped", [])
    first = page.shipped_run()
    assert page.shipped_run() is first and len(reads) == 1
    copy.write_bytes(copy.read_bytes() + b"\n")  # changed on disk: read again
    assert page.shipped_run() is not first and len(reads) == 2
