"""The Language model tab driven as a teacher would: the shipped heads, a few training steps,
the scrubber, a head picked and switched off, the lesson's steps, both languages, the projector.

Every number the tab shows is checked against a computation made here with explorer.lm: the
shipped model (or a training snapshot via model_at) on the same probe, its scores from
probe_measures, the causal test from a forward pass with the heads off.
"""

from dataclasses import replace

import numpy as np
import pytest
import torch
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import STEPS, step_index
from explorer.appstate.lm import PAGES, LMSettings
from explorer.appstate.lm_jobs import PERIOD, default_prompt, random_probe
from explorer.appstate.session import apply_session, load_session, save_session, session_of
from explorer.core.config import AttentionConfig
from explorer.core.decoding import GenerationSpec
from explorer.gui.views.registry import Tab
from explorer.lm.folders import load_shipped
from explorer.lm.generate import generate
from explorer.lm.measures import half_losses, probe_measures
from explorer.lm.trace import trace_ids
from explorer.lm.train import LMSpec, model_at, probe_for, train_lm
from explorer.lm.vocab import INDUCTION_VOCAB

from .helpers import WAIT_MS, click_cell, double_click_panel
from .projector_check import all_problems

SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)


@pytest.fixture
def lm(qtbot, make_window):
    """A window on the Language model tab (opened by a click on its tab), its first result shown."""
    window = make_window(SMALL, size=(1400, 900))
    window.tabs.choose(Tab.LM)
    view = window.view(Tab.LM)
    wait_result(qtbot, view, 2 * WAIT_MS)  # the first: the checkpoint read while the labs warm up
    yield window, view
    view.lab.stop_training()


def wait_result(qtbot, view, timeout=WAIT_MS):
    """Until the tab shows a result for its current settings."""
    from explorer.appstate.lm_jobs import request_of

    def done():
        assert view.result is not None and not view.context.worker.busy("lm")
        assert view.result.request == request_of(view.lab)

    qtbot.waitUntil(done, timeout=timeout)
    return view.result


def run_until(condition, timeout_ms: int = WAIT_MS) -> None:
    """Run the event loop until ``condition()`` (the training thread runs meanwhile)."""
    loop = QtCore.QEventLoop()
    poll = QtCore.QTimer(interval=5)
    poll.timeout.connect(lambda: condition() and loop.quit())
    QtCore.QTimer.singleShot(timeout_ms, loop.quit)
    if not condition():
        poll.start()
        loop.exec()
        poll.stop()
    assert condition()


def test_every_head_of_the_shipped_model_with_its_scores(qtbot, lm):
    window, view = lm
    shipped = load_shipped("induction")
    ids = random_probe("induction", 0)
    assert ids[:PERIOD] == ids[PERIOD:] and len(ids) == 2 * PERIOD
    assert ids == probe_for(INDUCTION_VOCAB)[0].tolist()  # the measuring probe's first row
    reference = trace_ids(shipped.model, ids, INDUCTION_VOCAB.token)
    measured = probe_measures(shipped.model, probe_for(INDUCTION_VOCAB), PERIOD)
    panels = view.heads.panels
    assert len(panels) == 8
    for k, panel in enumerate(panels):
        layer, head = divmod(k, 4)
        np.testing.assert_allclose(panel.data, reference.weights[layer, head], atol=1e-6)
        assert panel.title.startswith(
            f"{layer}.{head} · prev {measured.scores.previous_token[layer, head]:.2f} · "
            f"ind {measured.scores.induction[layer, head]:.2f}"
        )
    # the induction diagonal: the best second-layer head reads the token after the earlier occurrence
    best = int(measured.scores.induction[1].argmax())
    weights = panels[4 + best].data
    rows = np.arange(PERIOD, 2 * PERIOD)
    assert weights[rows, rows - PERIOD + 1].mean() >= 0.5
    assert f"repeated half {measured.repeated_half_loss:.2f}" in view.summary.text()
    assert f"first half {measured.first_half_loss:.2f}" in view.summary.text()


def test_switching_heads_off_brings_the_repeated_half_loss_back(qtbot, lm):
    window, view = lm
    view.lab.set_page("heads")
    shipped = load_shipped("induction")
    probe = probe_for(INDUCTION_VOCAB)
    base = probe_measures(shipped.model, probe, PERIOD)
    off = tuple(base.scores.induction_heads)
    assert off and all(layer == 1 for layer, _ in off)
    for head in off:
        qtbot.mouseClick(view.off_buttons[head], QtCore.Qt.MouseButton.LeftButton)
    assert view.lab.off == off
    result = wait_result(qtbot, view)
    with torch.no_grad():
        logits = shipped.model(probe, off=off).logits
    _, repeated = half_losses(logits, probe, PERIOD)
    assert result.ablated.repeated_half_loss == pytest.approx(repeated, abs=1e-9)
    assert result.ablated.change >= 2.0  # the lesson's causal test
    assert f"({repeated - base.repeated_half_loss:+.2f})" in view.summary.text()
    assert all("(off)" in view.heads.panels[4 + h].title for _, h in off)
    qtbot.mouseClick(view.all_on, QtCore.Qt.MouseButton.LeftButton)
    assert view.lab.off == () and wait_result(qtbot, view).ablated is None


def test_train_a_few_steps_scrub_and_pick_a_head(qtbot, lm):
    window, view = lm
    lab = view.lab
    lab.options = replace(lab.options, eval_every=5, snapshot_every=5, device="cpu")
    page = view.train_page
    page.steps.setValue(10)
    page.seed.setValue(3)
    qtbot.mouseClick(page.train_button, QtCore.Qt.MouseButton.LeftButton)
    run_until(lambda: lab.status == "done")
    run = lab.run
    expected = train_lm(LMSpec("induction"), replace(lab.options, steps=10, seed=3))
    assert run.losses == expected.log.losses
    assert [s.step for s in run.snapshots] == [0, 5, 10] and run.eval_steps == [5, 10]
    assert run.series("induction/1.2") == [m["induction/1.2"] for m in expected.log.metrics]
    run_until(lambda: list(page.curve_data(0)[1]) == run.losses)
    assert "Finished." in page.status.text()
    # the curves: the two half-losses and each second-layer head's induction score per evaluation
    xs, ys = page.curve_data(0, 2)
    assert list(xs) == [5, 10] and list(ys) == run.series("repeated_half_loss")
    assert list(page.curve_data(1, 3)[1]) == run.series("induction/1.3")
    # scrub back to step 5: the heads are the snapshot's
    page.scrubber.setValue(1)
    assert lab.shown_step() == 5
    result = wait_result(qtbot, view)
    assert result.request.model.step == 5
    model = model_at(run.spec.config(), run.snapshot_at(5))
    reference = trace_ids(model, random_probe("induction", 0), INDUCTION_VOCAB.token)
    np.testing.assert_allclose(view.heads.panels[6].data, reference.weights[1, 2], atol=1e-6)
    assert "training step 5" in view.summary.text()
    # pick a head on the Heads page, open its stages with a double click
    lab.set_page("heads")
    qtbot.waitUntil(lambda: view.pages.currentWidget() is view.heads_page)
    click_cell(qtbot, view.heads, 5, 3, 2)
    assert lab.head == (1, 1)
    double_click_panel(qtbot, view.heads, 2)
    assert lab.head == (0, 2) and lab.page == "stages"
    weights = next(p for p in view.stages.panels if p.name == "weights")
    np.testing.assert_allclose(weights.data, reference.weights[0, 2], atol=1e-6)
    mask = next(p for p in view.stages.panels if p.name == "mask")
    assert np.array_equal(np.asarray(mask.data, bool), np.tril(np.ones((2 * PERIOD,) * 2, bool)))


def test_cancel_keeps_the_snapshots_so_far(qtbot, lm):
    window, view = lm
    lab = view.lab
    lab.options = replace(lab.options, eval_every=5, snapshot_every=5, device="cpu")
    view.train_page.steps.setValue(5000)
    qtbot.mouseClick(view.train_page.train_button, QtCore.Qt.MouseButton.LeftButton)
    run_until(lambda: len(lab.run.snapshots) >= 2)
    qtbot.mouseClick(view.train_page.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    run_until(lambda: lab.status == "cancelled")
    assert "Cancelled" in view.train_page.status.text()
    assert lab.run.step < 5000 and len(lab.run.snapshots) >= 2
    view.train_page.scrubber.setValue(0)
    assert lab.shown_step() == 0  # the untrained model, replayable
    assert wait_result(qtbot, view).request.model.step == 0


def test_a_typed_probe_and_one_the_model_cannot_read(qtbot, lm):
    window, view = lm
    qtbot.keyClicks(view.probe, "abcabc")
    result = wait_result(qtbot, view)
    assert result.trace.tokens == list("abcabc") and result.period is None
    assert "typed text" in view.summary.text()
    # the heads' titles keep the measuring probe's scores: the line says so (trial 9)
    assert "the heads' scores and the losses: on 24 random symbols ×2" in view.summary.text()
    view.probe.setText("ab🙂")  # typed (QTest types no emoji)
    view.probe.textEdited.emit("ab🙂")
    qtbot.waitUntil(lambda: view.banner.isVisible(), timeout=WAIT_MS)
    assert "not in this model's vocabulary" in view.banner.text() and "🙂" in view.banner.text()
    # an input mistake is not a bug: no "Unexpected error (LMError)" (trial 9)
    assert view.banner.text().startswith("Cannot compute this:"), view.banner.text()
    assert view.result.trace.tokens == list("abcabc")  # the last good result stays
    view.probe.clear()
    view.lab.set_probe("")
    wait_result(qtbot, view)
    assert not view.banner.isVisible()
    qtbot.mouseClick(view.new_probe, QtCore.Qt.MouseButton.LeftButton)
    assert view.lab.probe_seed == 1
    assert wait_result(qtbot, view).trace.ids == random_probe("induction", 1)


def test_the_lesson_steps_open_the_tab_pick_the_heads_and_switch_them_off(qtbot, make_window):
    window = make_window(SMALL, size=(1400, 900))
    window.state.show_lesson(True)
    ids = [s.id for s in STEPS if s.tab == "lm"]
    assert ids == [
        "lm.next_token",
        "lm.causal_mask",
        "lm.previous_token",
        "lm.induction",
        "lm.phase_change",
        "lm.ablation",
    ]
    window.state.set_lesson_step("lm.next_token")
    assert window.state.tab == "lm"
    view = window.view(Tab.LM)
    wait_result(qtbot, view)
    assert view.lab.page == "heads"
    window.state.set_lesson_step("lm.causal_mask")
    assert view.lab.page == "stages" and view.pages.currentWidget() is view.stages
    window.state.set_lesson_step("lm.previous_token")
    qtbot.waitUntil(lambda: view.lab.head[0] == 0, timeout=WAIT_MS)
    scores = view.result.scores
    assert scores.previous_token[view.lab.head] == scores.previous_token[0].max()
    window.state.set_lesson_step("lm.induction")
    qtbot.waitUntil(lambda: view.lab.head[0] == 1, timeout=WAIT_MS)
    assert scores.induction[view.lab.head] == scores.induction[1].max()
    window.state.set_lesson_step("lm.phase_change")
    assert view.lab.page == "train"
    window.state.set_lesson_step(step_index("lm.ablation"))
    qtbot.waitUntil(lambda: view.lab.off == tuple(scores.induction_heads), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: view.result.ablated is not None, timeout=WAIT_MS)
    assert view.result.ablated.change >= 2.0
    window.state.set_lesson_step("lm.next_token")
    assert view.lab.off == ()  # the steps before the causal test show every head on


def test_sessions_keep_the_tab_settings(qtbot, lm, tmp_path, make_window):
    window, view = lm
    lab = view.lab
    lab.set_probe("abab")
    lab.select_head((0, 3))
    lab.set_off([(1, 2), (1, 0)])
    lab.set_page("heads")
    lab.set_training_plan(300, 4)
    save_session(tmp_path / "lm.json", session_of(window.state))
    other = make_window(SMALL)
    apply_session(other.state, load_session(tmp_path / "lm.json"))
    assert other.state.labs["lm"].settings == LMSettings(
        probe="abab", head=(0, 3), off=((1, 0), (1, 2)), page="heads", train_steps=300, train_seed=4
    )
    for bad, says in [
        ({"head": [2, 0]}, "head 2.0 does not exist"),
        ({"off": [[0, 9]]}, "head 0.9 does not exist"),
        ({"task": "poetry"}, "task 'poetry'"),
        ({"page": "nowhere"}, "page 'nowhere'"),
        ({"colour": 1}, "unknown lm settings: colour"),
    ]:
        with pytest.raises(ValueError, match=says):
            LMSettings.from_dict(bad)


def test_the_tab_in_chinese(qtbot, lm):
    window, view = lm
    window.state.set_language("zh_CN")
    QtWidgets.QApplication.processEvents()
    view.lab.set_page("heads")
    wait_result(qtbot, view)
    texts = [
        view.new_probe.text(),
        view.off_label.text(),
        view.all_on.text(),
        view.heads_hint.text(),
        view.task.currentText(),
        *(view.pages.tabText(i) for i in range(view.pages.count())),
        view.summary.text(),
        view.train_page.status.text(),
    ]
    for text in texts:
        assert text and not any("a" <= ch.lower() <= "z" for ch in text.replace("W_O", "")), text
    window.state.set_language("en")
    QtWidgets.QApplication.processEvents()
    assert view.new_probe.text() == "New random probe"


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_page_fits_the_projector(qtbot, make_window, language):
    """Presentation mode at 1024×768 with the lesson column open: the tab never widens the
    window and adds no squeezed, clipped or overlapping text to what the Pipeline tab has."""
    size = (1024, 768)
    window = make_window(SMALL, size=size)
    window.state.set_language(language)
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.show_lesson(True)
    window.resize(*size)
    QtWidgets.QApplication.processEvents()
    before = set(all_problems(window))
    window.state.set_tab("lm")
    view = window.view(Tab.LM)
    wait_result(qtbot, view)
    for name in PAGES:
        view.lab.set_page(name)
        qtbot.waitUntil(lambda name=name: view.pages.currentWidget() is view.page_widgets[name])
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        assert window.size() == QtCore.QSize(*size), name
        assert view.minimumSizeHint().width() <= view.width(), name
        assert not set(all_problems(window)) - before, (name, set(all_problems(window)) - before)


def test_the_text_model_reads_a_typed_sentence(qtbot, lm):
    window, view = lm
    view.task.setCurrentIndex(view.task.findData("text"))
    assert view.lab.task == "text"
    view.lab.set_probe("the cat sat on the mat. 猫")
    result = wait_result(qtbot, view)
    shipped = load_shipped("text")
    reference = trace_ids(
        shipped.model, shipped.vocab.encode("the cat sat on the mat. 猫"), shipped.vocab.token
    )
    np.testing.assert_allclose(view.heads.panels[0].data, reference.weights[0, 0], atol=1e-6)
    assert view.heads.panels[0].rows[3] == "␣"  # a space shown as a sign on the axis
    assert result.trace.tokens[-1] == "猫" and "the text model" in view.summary.text()


def written_by_the_tab(qtbot, view, count: int, **settings):
    """The Generate page's text after Generate, ``settings`` set through its controls."""
    lab, page = view.lab, view.writer
    lab.set_page("generate")
    qtbot.waitUntil(lambda: view.pages.currentWidget() is page)
    page.tokens.setValue(count)
    for name, value in settings.items():
        getattr(page, name).setValue(value)
    qtbot.mouseClick(page.write_button, QtCore.Qt.MouseButton.LeftButton)
    run_until(lambda: lab.writing_status != "writing")
    return lab.writing


def test_generate_writes_one_token_at_a_time_what_the_model_writes(qtbot, lm):
    window, view = lm
    writing = written_by_the_tab(qtbot, view, 12)
    assert view.lab.writing_status == "done" and len(writing.steps) == 12
    shipped = load_shipped("induction")
    prompt = default_prompt("induction", 0)
    sequence = prompt[:PERIOD]
    assert len(set(sequence)) == PERIOD and prompt == sequence + sequence[:4]  # its start again
    probe = sequence * 2
    expected = generate(shipped.model, shipped.vocab, prompt, GenerationSpec(12, "greedy"))
    assert [s.id for s in writing.steps] == [s.id for s in expected.steps]
    assert expected.text == probe[: PERIOD + 16]  # the induction model copies what came before
    panels = view.writer.canvas.panels
    assert len(panels) == 8
    for k, panel in enumerate(panels):
        np.testing.assert_allclose(panel.data, expected.attention(*divmod(k, 4)), atol=1e-7)
    # the best induction head looks at the token after the earlier occurrence: the one it writes
    best = view.result.scores.induction[1].argmax()
    rows = panels[4 + best].data
    for r, step in enumerate(writing.steps):
        assert rows[r].argmax() == step.position - PERIOD + 1
        assert probe[step.position - PERIOD + 1] == step.token
    assert view.writer.text.text().startswith(prompt)
    assert "12 of 12" in view.writer.status.text() and "shipped checkpoint" in view.writer.status.text()
    assert view.writer.write_button.isEnabled() and not view.writer.stop_button.isEnabled()


def test_seeded_sampling_is_reproducible_and_stop_ends_it(qtbot, lm):
    window, view = lm
    lab, page = view.lab, view.writer
    lab.set_page("generate")
    qtbot.waitUntil(lambda: view.pages.currentWidget() is page)
    page.prompt.setText("")
    qtbot.keyClicks(page.prompt, "abcabcab")
    assert lab.prompt == "abcabcab"
    page.tokens.setValue(64)
    page.temperature.setValue(1.5)
    page.top_k.setValue(5)
    page.seed.setValue(7)
    qtbot.mouseClick(page.write_button, QtCore.Qt.MouseButton.LeftButton)
    run_until(lambda: lab.writing is not None and len(lab.writing.steps) >= 3)
    qtbot.mouseClick(page.stop_button, QtCore.Qt.MouseButton.LeftButton)
    assert lab.writing_status == "stopped"
    stopped = [s.id for s in lab.writing.steps]
    QtWidgets.QApplication.processEvents()
    assert [s.id for s in lab.writing.steps] == stopped and 3 <= len(stopped) < 64
    assert "Stopped after" in page.status.text()
    shipped = load_shipped("induction")
    spec = GenerationSpec(64, "sample", 1.5, 5, seed=7)
    expected = [s.id for s in generate(shipped.model, shipped.vocab, "abcabcab", spec).steps]
    assert stopped == expected[: len(stopped)]
    again = written_by_the_tab(qtbot, view, 20)
    assert [s.id for s in again.steps] == expected[:20]  # the same seed, the same text


def test_a_prompt_the_model_cannot_read_says_so(qtbot, lm):
    window, view = lm
    view.lab.set_writing(prompt="猫 cat")
    writing = written_by_the_tab(qtbot, view, 5)
    assert view.lab.writing_status == "failed" and not writing.steps
    assert view.writer.banner.isVisible() and "vocabulary" in view.writer.banner.text()


def test_the_text_model_writes_and_the_page_speaks_chinese(qtbot, lm):
    window, view = lm
    view.task.setCurrentIndex(view.task.findData("text"))
    writing = written_by_the_tab(qtbot, view, 10)
    shipped = load_shipped("text")
    expected = generate(shipped.model, shipped.vocab, default_prompt("text", 0), GenerationSpec(10, "greedy"))
    assert [s.token for s in writing.steps] == [s.token for s in expected.steps]
    window.state.set_language("zh_CN")
    QtWidgets.QApplication.processEvents()
    page = view.writer
    for text in (
        page.write_button.text(),
        page.stop_button.text(),
        page.hint.text(),
        page.prompt_label.text(),
    ):
        assert text and not any("a" <= ch.lower() <= "z" for ch in text), text
    assert page.status.text() and "Written" not in page.status.text()


class EndedRun:
    """What the training page reads of a text run whose phase change came at step 200."""

    spec = LMSpec("text")
    steps, eval_steps = 600, [100, 200, 300]
    losses = [3.0] * 300
    metrics = [
        {"first_half_loss": 4.0, "repeated_half_loss": r, "held_out_loss": 2.5, "best_previous_token": 0.4}
        for r in (3.9, 1.0, 0.3)
    ]

    def series(self, name):
        return [m.get(name, 0.5) for m in self.metrics]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_curves_legends_fit_their_plots_on_the_projector(qtbot, make_window, language):
    """Each plot's title and legend in at most two lines, broken only between entries: every
    series named (a finished text run, the phase change marked) at 1024×768 with the lesson
    open, where the two plots sit side by side."""
    from PySide6 import QtGui

    from explorer.gui.lab.curves import packed, title_parts

    window = make_window(SMALL, size=(1024, 768))
    window.state.set_language(language)
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.show_lesson(True)
    window.resize(1024, 768)
    window.state.set_tab("lm")
    view = window.view(Tab.LM)
    wait_result(qtbot, view, 2 * WAIT_MS)  # the labs warm up first
    view.lab.set_page("train")
    QtWidgets.QApplication.processEvents()
    page = view.train_page
    curves = page.content.curves(view.lab, EndedRun(), 200)
    # training, both halves, held out, the phase; then the shipped run's loss and halves; the
    # heads, previous-token, the goal's legend entry, then the shipped run's best induction and
    # previous-token scores (explorer.gui.lab.shipped)
    assert [len(c.series) for c in curves] == [5 + 3, 5 + 1 + 2]
    px = page._style().font.pixelSize()

    def width(html: str) -> float:
        document = QtGui.QTextDocument()
        document.setDefaultFont(QtWidgets.QApplication.font())
        document.setDocumentMargin(0)
        document.setHtml(f"<span style='font-size:{px}px'>{html}</span>")
        return document.idealWidth()

    for plot, c in zip(page.plots, curves):
        widths = [width(h) for h, _ in title_parts(c)]
        assert max(widths) <= plot.width(), (c.title, widths, plot.width())
        lines = packed(widths, plot.width(), width("&nbsp; "))
        assert len(lines) <= 2, (c.title, widths, plot.width())


def test_emptying_a_refused_probe_clears_its_banner(qtbot, lm):
    """Classroom trial: the random probe on screen, "hi hi" typed (refused), the field emptied:
    the settings are those of the picture on screen again, and the refusal stayed above it."""
    window, view = lm
    assert view.lab.probe == ""
    view.probe.setText("hi hi")
    view.probe.textEdited.emit("hi hi")
    qtbot.waitUntil(lambda: view.banner.isVisible(), timeout=WAIT_MS)
    # the refusal says what the model reads, and which character is outside it
    assert "character 3 of the text" in view.banner.text(), view.banner.text()
    assert "this model knows only a–z A–Z 0–9 # $" in view.banner.text(), view.banner.text()
    view.probe.clear()
    view.probe.textEdited.emit("")
    qtbot.waitUntil(lambda: not view.banner.isVisible(), timeout=WAIT_MS)
    assert wait_result(qtbot, view).request.probe == ""


def test_a_long_paste_says_only_the_first_characters_are_used(qtbot, lm):
    """Classroom trial: a 50 KB paste into the probe was cut to 64 characters without a word."""
    window, view = lm
    pasted = "ab" * 25_000
    view.probe.setText(pasted)  # what a paste does (QTest pastes nothing)
    assert view.probe.text() == pasted  # the field keeps it whole: the lab decides
    view.probe.textEdited.emit(pasted)
    assert view.lab.probe == pasted[:64] and view.probe.text() == pasted[:64]
    notice = "only the first 64 characters of the text are used"
    assert view.banner.isVisible() and notice in view.banner.text()
    # the induction model reads 48: its refusal, and the notice still
    qtbot.waitUntil(lambda: "at most 48" in view.banner.text(), timeout=WAIT_MS)
    assert notice in view.banner.text()
    refusal, cut = view.banner.text().split("\n")  # on lines of their own (the trial read them as one)
    assert "at most 48" in refusal and notice in cut
    view.probe.setText("abcabc")
    view.probe.textEdited.emit("abcabc")
    assert wait_result(qtbot, view).trace.tokens == list("abcabc")
    assert not view.banner.isVisible()


def test_a_long_pasted_prompt_says_only_the_first_characters_are_used(qtbot, lm):
    """Classroom trial: a 50 KB paste into the prompt was cut to 64 characters without a word."""
    window, view = lm
    page = view.writer
    view.lab.set_page("generate")
    qtbot.waitUntil(lambda: view.pages.currentWidget() is page)
    pasted = "abcd" * 12_500
    page.prompt.setText(pasted)
    assert page.prompt.text() == pasted
    page.prompt.textEdited.emit(pasted)
    assert view.lab.prompt == pasted[:64] and page.prompt.text() == pasted[:64]
    assert page.banner.isVisible()
    assert "only the first 64 characters of the text are used" in page.banner.text()
    page.prompt.setText("abcab")
    page.prompt.textEdited.emit("abcab")
    assert view.lab.prompt == "abcab" and not page.banner.isVisible()
