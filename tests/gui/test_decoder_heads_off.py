"""A language model's heads switched off, and its next token sampled, driven as a person would:
open a GPT-2 folder, go to All heads, switch a head off with the keyboard and read each next
token's probability before and after (equal to transformers with that head's output zeroed
before W_O, computed on the worker thread); then sample with a temperature and a top-k,
write a token, and write the same one again from the same text and seed."""

from __future__ import annotations

import csv
import json
import threading

import numpy as np
import pytest
import torch
from PySide6 import QtCore

from explorer.appstate.lesson import STEPS
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.gui.i18n import translate
from explorer.gui.views.registry import Tab
from tests.models.head_hooks import heads_off

from .helpers import WAIT_MS, wait_trace
from .test_model_picker import wait_model

TEXT = "the animal did not cross the street"


@pytest.fixture(scope="module")
def td():
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    from tests.models import tiny_decoders

    return tiny_decoders


@pytest.fixture(scope="module")
def gpt2_folder(td, tmp_path_factory):
    return td.build(tmp_path_factory.mktemp("lm") / "tiny-gpt2", "gpt2")


def reference_probabilities(td, folder, ids, position, off=()):
    """transformers' next-token probabilities with the heads ``off`` zeroed before c_proj."""
    from tests.appstate.test_decoding_options import reference_logits

    return torch.softmax(reference_logits(td, folder, ids, set(off))[position], -1)


def wait_answer(qtbot, window, panel, options):
    def done():
        answer = panel.answer
        assert answer is not None and answer.key == panel.wanted_key() and answer.options == options
        assert answer.config == window.trace.config and not window.worker.busy()

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return panel.answer


def test_switch_a_head_off_and_see_the_next_tokens_before_and_after(
    qtbot, make_window, gpt2_folder, td, monkeypatch, tmp_path
):
    threads = []
    original = Engine.next_token_logits

    def recorded(self, *args, **kwargs):
        threads.append(threading.current_thread())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Engine, "next_token_logits", recorded)
    window = make_window(AttentionConfig(sentence=TEXT, model_dir=str(gpt2_folder), layer=1))
    wait_model(qtbot, window, "tiny-gpt2")
    window.state.set_tab(Tab.HEADS)
    grid = window.heads
    qtbot.waitUntil(lambda: grid.prepared is window.prepared and len(grid.panels) == 4, timeout=WAIT_MS)
    switches, panel = grid.switches, grid.next_tokens
    assert switches.isVisible() and panel.isVisible() and len(switches.buttons) == 4
    wait_answer(qtbot, window, panel, window.state.decoding.options)

    # the keyboard: Tab reaches the switch, Space turns head 2 of layer 1 off
    button = switches.buttons[2]
    button.setFocus()
    qtbot.keyClick(button, QtCore.Qt.Key.Key_Space)
    assert window.state.decoding.options.heads_off == {(1, 2)} and button.isChecked()
    answer = wait_answer(qtbot, window, panel, window.state.decoding.options)
    assert all(t is not threading.main_thread() for t in threads)  # never on the GUI thread

    ids = window.trace.token_ids_query
    last = len(ids) - 1
    before = reference_probabilities(td, gpt2_folder, ids, last)
    after = reference_probabilities(td, gpt2_folder, ids, last, {(1, 2)})
    assert [c.token_id for c in answer.choices[:10]] == torch.topk(before, 10).indices.tolist()
    for token, p, p_after in panel.bars.rows:  # what the bars show, before and after
        choice = next(c for c in answer.choices if c.token == token)
        assert p == pytest.approx(float(before[choice.token_id]), abs=1e-5)
        assert p_after == pytest.approx(float(after[choice.token_id]), abs=1e-5)
    assert "1.2 off" in panel.mass.text() and "zeroed before W_O" in panel.mass.text()
    assert grid.panels[2].title.startswith("head 2 (off)")  # its title says so

    # the Pipeline's panel shows the same before and after
    window.state.set_tab(Tab.PIPELINE)
    pipeline_panel = window.pipeline.next_tokens
    wait_answer(qtbot, window, pipeline_panel, window.state.decoding.options)
    assert pipeline_panel.bars.rows == panel.bars.rows

    # exported: the panel as a figure, its numbers as CSV and JSON
    exporter = window.exporter
    assert exporter.export_panel("next_tokens", tmp_path / "next.png") is None, exporter.message
    assert (tmp_path / "next.png").stat().st_size > 1000
    assert exporter.export_next_tokens("csv", tmp_path / "next.csv") is None, exporter.message
    with open(tmp_path / "next.csv", newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    assert [int(r["id"]) for r in table] == [c.token_id for c in answer.choices]
    assert [float(r["probability_heads_off"]) for r in table] == [c.after for c in answer.choices]
    assert exporter.export_next_tokens("json", tmp_path / "next.json") is None, exporter.message
    data = json.loads((tmp_path / "next.json").read_text(encoding="utf-8"))
    assert data["decoding"]["heads_off"] == ["1.2"] and data["position"] == last
    assert data["tokens"][0]["probability"] == answer.choices[0].probability

    # heads of another layer stay off and are named; All on turns every head on again
    window.state.set_tab(Tab.HEADS)
    window.state.update_config(layer=2)
    wait_trace(qtbot, window, layer=2)
    qtbot.waitUntil(lambda: grid.prepared is window.prepared, timeout=WAIT_MS)
    assert not any(b.isChecked() for b in switches.buttons) and "1.2" in switches.elsewhere.text()
    # layer 2's grid is the forward with head 1.2 off: what enters layer 2 changed
    ids_t = torch.tensor([window.trace.token_ids_key])
    ref = td.reference(gpt2_folder)
    with heads_off(ref, {(1, 2)}), torch.no_grad():
        expected = ref(ids_t, output_attentions=True).attentions[2][0].numpy()
    np.testing.assert_allclose(grid.prepared.trace.weights, expected, atol=1e-5)
    assert any("1.2 off" in str(n) for n in window.trace.notices)
    qtbot.mouseClick(switches.all_on, QtCore.Qt.MouseButton.LeftButton)
    assert window.state.decoding.options.heads_off == frozenset()
    answer = wait_answer(qtbot, window, panel, window.state.decoding.options)
    assert all(c.after is None for c in answer.choices)
    # and every head on again: the plain forward's weights
    with torch.no_grad():
        plain = ref(ids_t, output_attentions=True).attentions[2][0].numpy()
    qtbot.waitUntil(lambda: not any("off" in str(n) for n in window.trace.notices), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: grid.prepared is window.prepared, timeout=WAIT_MS)
    np.testing.assert_allclose(grid.prepared.trace.weights, plain, atol=1e-5)


def test_sample_with_a_temperature_and_a_top_k_then_write_it_again(qtbot, make_window, gpt2_folder, td):
    window = make_window(AttentionConfig(sentence=TEXT, model_dir=str(gpt2_folder)))
    wait_model(qtbot, window, "tiny-gpt2")
    panel = window.pipeline.next_tokens
    controls = panel.controls
    wait_answer(qtbot, window, panel, window.state.decoding.options)
    assert not controls.temperature.isVisibleTo(panel)  # greedy: nothing to set

    # keyboard: the Write box to "a sample", then temperature and top-k typed in
    controls.mode.setFocus()
    qtbot.keyClick(controls.mode, QtCore.Qt.Key.Key_Down)
    assert window.state.decoding.options.decoding == "sample" and controls.temperature.isVisibleTo(panel)
    for box, text in ((controls.temperature, "0.70"), (controls.top_k, "3"), (controls.seed, "4")):
        box.setFocus()
        box.selectAll()
        qtbot.keyClicks(box, text)
        qtbot.keyClick(box, QtCore.Qt.Key.Key_Tab)
    options = window.state.decoding.options
    assert (options.temperature, options.top_k, options.seed) == (0.7, 3, 4)
    answer = wait_answer(qtbot, window, panel, options)

    ids = window.trace.token_ids_query
    with torch.no_grad():
        scores = td.reference(gpt2_folder)(torch.tensor([ids])).logits[0, -1].double() / 0.7
    kept = torch.topk(scores, 3)
    assert [c.token_id for c in answer.choices] == kept.indices.tolist()
    for (_, p, _), expected in zip(panel.bars.rows, torch.softmax(kept.values, -1).tolist()):
        assert p == pytest.approx(expected, abs=1e-5)
    assert "top-k 3" in panel.mass.text() and "0.7" in panel.mass.text()

    # Write writes the seeded draw; the same text and seed write the same token again
    chosen = answer.chosen
    assert panel.write_button.text() == f"Write a sample: “{chosen.token}”"
    if chosen.written is None:
        pytest.skip("the draw is a byte of a split character: it cannot be written alone")
    qtbot.mouseClick(panel.write_button, QtCore.Qt.MouseButton.LeftButton)
    written = wait_trace(qtbot, window, sentence=chosen.written)
    assert written.token_ids_query == [*ids, chosen.token_id]
    window.state.update_config(sentence=TEXT)
    wait_trace(qtbot, window, sentence=TEXT)
    again = wait_answer(qtbot, window, panel, options)
    assert again.chosen == chosen


def test_the_bundled_language_model_from_the_picker_and_its_lesson_track(qtbot, window):
    """The lab's GPT-2 folder is offered in the picker (in Chinese too); the language-model
    track sets up each step: its model, text, tab and heads off, the next token following."""
    from explorer.appstate.bundled_decoders import REPEATED, bundled_decoder

    from .test_model_picker import pick, row_of

    picker = window.controls.model_picker
    folder = str(bundled_decoder("lm-induction").folder)
    pick(qtbot, picker, row_of(picker, "folder", folder))
    wait_model(qtbot, window, "induction")
    assert "GPT-2, causal" in window.controls.model_label.text()
    assert window.pipeline.next_tokens.isVisible()

    state = window.state
    state.show_lesson(True)
    state.set_lesson_track("decoder")
    assert state.lesson_step_id == "decoder.causal" and state.tab == Tab.PIPELINE
    wait_trace(qtbot, window, model_dir=str(bundled_decoder("lm-text").folder))
    state.set_lesson_step("decoder.ablate")
    assert state.tab == Tab.HEADS and state.decoding.options.heads_off == {(0, 0), (0, 1)}
    wait_trace(qtbot, window, sentence=REPEATED, layer=1)
    grid = window.heads
    qtbot.waitUntil(lambda: grid.prepared is window.prepared, timeout=WAIT_MS)
    answer = wait_answer(qtbot, window, grid.next_tokens, state.decoding.options)
    u = next(c for c in answer.choices if c.token == "u")
    assert round(100 * u.probability) == 54 and round(100 * u.after) == 2  # as the step says
    assert "0.0, 0.1" in grid.switches.elsewhere.text()  # off in another layer than the one shown
    said = STEPS[state.lesson_step].explanation  # the words point at the line the grid shows
    assert f"“{grid.switches.elsewhere.text()}”" in said and "layer 1" in said
    state.set_language("zh_CN")
    qtbot.waitUntil(lambda: "关闭头" in grid.switches.label.text(), timeout=WAIT_MS)
    assert f"“{grid.switches.elsewhere.text()}”" in translate("Lesson", said)
    assert picker.itemText(row_of(picker, "folder", folder)).startswith("语言模型：微型 GPT-2")
    assert "在 W_O 之前置零" in grid.next_tokens.mass.text()
    state.set_language("en")


def test_leaving_the_language_model_steps_brings_back_the_model_before(qtbot, window):
    state = window.state
    before = state.config
    state.show_lesson(True)
    state.set_lesson_step("decoder.induction")
    assert state.config.sentence == "qwertzuiqwertz" and state.config.model_dir
    state.set_lesson_step("decoder.ablate")
    assert state.decoding.options.heads_off == {(0, 0), (0, 1)}
    state.set_lesson_step("attention.tokens")  # another track's step: the window as it was
    assert state.config == before and state.decoding.options.heads_off == frozenset()
    wait_trace(qtbot, window, sentence=before.sentence)
    assert window.trace.model_name == "all-MiniLM-L6-v2"


def test_at_a_projector_byte_labels_are_whole_and_each_label_sits_by_its_box(qtbot, make_window, gpt2_folder):
    """1024x768, presentation, Chinese, the lesson open: a next token that is a byte of a
    character reads whole ("<0xE1> 1/3", drawn smaller when its column is narrow, never cut),
    and each sampling setting's label stands beside its box."""
    from PySide6 import QtGui

    from explorer.gui.views.next_tokens import bar_columns, label_font

    window = make_window(
        AttentionConfig(sentence="我爱北京，我", model_dir=str(gpt2_folder)), size=(1024, 768)
    )
    wait_model(qtbot, window, "tiny-gpt2")
    window.state.set_language("zh_CN")
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.show_lesson(True)
    window.state.decoding.update(decoding="sample", top_k=20, temperature=1.5)
    panel = window.pipeline.next_tokens
    answer = wait_answer(qtbot, window, panel, window.state.decoding.options)
    qtbot.waitUntil(lambda: panel.bars.rows and panel.bars.width() > 50, timeout=WAIT_MS)
    rows, bars = panel.bars.rows, panel.bars
    assert any(token.startswith("<0x") and "/" in token for token, _, _ in rows), rows  # a character begun
    font = bars.style_.font
    token_w, _ = bar_columns(rows, bars.width(), QtGui.QFontMetricsF(font))
    for token, _, _ in rows:
        fitted = label_font(font, token, token_w - 2)
        assert QtGui.QFontMetricsF(fitted).horizontalAdvance(token) <= token_w - 2, token
    ids = window.trace.token_ids_query
    model = window.engine.model(str(gpt2_folder))
    for choice in answer.choices:  # labelled as the text labels it once written
        assert choice.token == model.tokenizer.labels([*ids, choice.token_id])[-1]

    controls = panel.controls
    for label, box in zip(
        controls.labels, (controls.mode, controls.temperature, controls.top_k, controls.seed)
    ):
        assert label.isVisibleTo(panel) and box.isVisibleTo(panel)
        left = label.mapTo(panel, QtCore.QPoint(label.width(), label.height() // 2))
        right = box.mapTo(panel, QtCore.QPoint(0, box.height() // 2))
        assert 0 <= right.x() - left.x() <= 16 and abs(right.y() - left.y()) <= 4, label.text()
        assert box.mapTo(panel, QtCore.QPoint(box.width(), 0)).x() <= panel.width()  # inside the panel
