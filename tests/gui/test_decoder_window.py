"""A language model in the window, driven as a person would: open a Llama or GPT-2 folder from
the model picker, see its causal attention named as how it was trained, read the next tokens
beside it (for the last token, then for the row clicked), turn the mask off and be told, and
switch to Chinese. The next tokens are checked against transformers' own causal LM."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from PySide6 import QtCore, QtWidgets

from explorer.core.config import AttentionConfig
from explorer.gui.views.next_tokens import percent
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS, click_cell, wait_trace
from .test_model_picker import pick, row_of, wait_model


@pytest.fixture(scope="module")
def tiny_decoders():
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    from tests.models import tiny_decoders

    return tiny_decoders


@pytest.fixture(scope="module")
def llama_folder(tiny_decoders, tmp_path_factory) -> Path:
    return tiny_decoders.build(tmp_path_factory.mktemp("lm") / "tiny-llama", "llama")


@pytest.fixture(scope="module")
def gpt2_folder(tiny_decoders, tmp_path_factory) -> Path:
    return tiny_decoders.build(tmp_path_factory.mktemp("lm") / "tiny-gpt2", "gpt2")


def expected_next_tokens(tiny_decoders, folder: Path, ids: list[int], position: int, k: int = 10):
    """transformers' top-k next tokens after ``position`` (ids, probabilities), float64 softmax."""
    with torch.no_grad():
        logits = tiny_decoders.reference(folder)(torch.tensor([ids])).logits[0, position]
    probs = torch.softmax(logits.double(), -1)
    top = torch.topk(probs, k)
    return top.indices.tolist(), top.values.tolist()


def wait_next_tokens(qtbot, window, position: int):
    panel = window.pipeline.next_tokens

    def done():
        answer = panel.answer
        assert answer is not None and answer.position == position
        assert answer.config == window.trace.config and not window.worker.busy()

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return panel.answer


def assert_next_tokens_match(qtbot, tiny_decoders, folder, window, position: int) -> None:
    answer = wait_next_tokens(qtbot, window, position)
    ids, probs = expected_next_tokens(tiny_decoders, folder, window.trace.token_ids_query, position)
    assert [c.token_id for c in answer.choices] == ids
    np.testing.assert_allclose([c.probability for c in answer.choices], probs, atol=1e-5)
    rows = window.pipeline.next_tokens.rows()  # what the bars show
    assert [p for _, p in rows] == [c.probability for c in answer.choices]
    assert all(label.strip() for label, _ in rows)


@pytest.fixture
def dialog_returns(monkeypatch):
    def set_answer(folder):
        monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))

    return set_answer


def test_open_a_language_model_and_see_its_causal_attention_and_next_tokens(
    qtbot, window, llama_folder, tiny_decoders, dialog_returns
):
    c, p = window.controls, window.pipeline
    assert not p.next_tokens.isVisible()  # MiniLM writes no text: no next-token panel
    dialog_returns(llama_folder)
    pick(qtbot, c.model_picker, row_of(c.model_picker, "open"))
    wait_model(qtbot, window, "tiny-llama")

    # the Weights box names the family and says causal; the mask is the one it was trained with
    assert c.model_label.text().endswith(
        "tiny-llama (Llama, causal, 3 layers × 4 heads sharing 2 K/V heads, 32 wide)"
    )
    assert c.mask.currentData() == "model" and c.mask.currentText() == "causal (as trained)"
    t = window.trace
    assert t.causal and float(np.triu(t.weights, 1).max()) == 0.0
    assert p.panel("mask").title.startswith("mask: causal, as the model was trained (1 = visible)")
    # the scores compare the rotated vectors: the Q and K panels show those
    assert p.panel("Q").title.startswith("Q = RoPE(X·W_Q)  (head 0)")
    assert p.panel("K").title.startswith("K = RoPE(X·W_K)  (head 0 → K/V 0)")
    np.testing.assert_array_equal(p.panel("Q").data, t.Q_rotated[0])
    np.testing.assert_allclose(
        p.panel("scores").data, t.Q_rotated[0] @ t.K_rotated[0].T, rtol=1e-5, atol=1e-5
    )
    assert c.heads.count() == 1  # grouped-query heads cannot be regrouped

    # the next tokens after the last token, beside the attention, as transformers has them
    assert p.next_tokens.isVisible()
    last = t.n_query - 1
    assert_next_tokens_match(qtbot, tiny_decoders, llama_folder, window, last)
    assert p.next_tokens.title.text() == f"Next token after “{t.tokens_query[last]}” (position {last})"
    mass = sum(candidate.probability for candidate in p.next_tokens.answer.choices)
    assert percent(mass) in p.next_tokens.mass.text()

    # writing: the Write button offers the most likely token; a click on a row writes that one
    panel, answer = p.next_tokens, p.next_tokens.answer
    top = answer.choices[0]
    assert panel.write_button.isVisible() and panel.write_button.text() == f"Write “{top.token}”"
    assert panel.write_button.isEnabled() == (top.written is not None)
    row, choice = next((r, one) for r, one in enumerate(answer.choices) if one.written is not None)
    before = list(t.token_ids_query)
    qtbot.mouseClick(panel.bars, QtCore.Qt.MouseButton.LeftButton, pos=panel.bars.row_centre(row))
    written = wait_trace(qtbot, window, sentence=choice.written)
    assert written.token_ids_query == [*before, choice.token_id]  # exactly one token more
    assert written.tokens_query[-1] == choice.token
    assert_next_tokens_match(qtbot, tiny_decoders, llama_folder, window, written.n_query - 1)
    t, last = written, written.n_query - 1

    for candidate in p.next_tokens.answer.choices:
        if candidate.token.startswith("<0x"):  # a byte of a character split over tokens
            assert candidate.written is None

    # a click on a row of the weights: the next token after that row's token
    click_cell(qtbot, p.canvas, p.index("weights"), 2, 1)
    assert window.state.selected_cell == (2, 1)
    assert_next_tokens_match(qtbot, tiny_decoders, llama_folder, window, 2)
    assert "(position 2)" in p.next_tokens.title.text()

    # the causal mask turned off: computed, and the notice says it is not how the model was trained
    c.mask.setCurrentIndex(c.mask.findData("none"))
    wait_trace(qtbot, window, mask="none")
    assert "not how the model was trained" in window.notice.text()
    assert float(np.triu(window.trace.weights, 1).max()) > 0.0
    assert p.panel("mask").title.startswith("mask: none (1 = visible)")
    assert_next_tokens_match(qtbot, tiny_decoders, llama_folder, window, 2)  # still the model's own forward

    # in Chinese
    c.mask.setCurrentIndex(c.mask.findData("model"))
    wait_trace(qtbot, window, mask="model")
    window.state.set_language("zh_CN")
    qtbot.waitUntil(lambda: "因果" in c.mask.currentText(), timeout=WAIT_MS)
    assert "因果" in c.model_label.text()
    wait_next_tokens(qtbot, window, 2)
    qtbot.waitUntil(lambda: "下一个词元" in p.next_tokens.title.text(), timeout=WAIT_MS)
    assert "因果" in p.panel("mask").title
    window.state.set_language("en")


def test_gpt2_folder_next_tokens_and_learned_positions(qtbot, make_window, gpt2_folder, tiny_decoders):
    """A GPT-2 folder given on the command line: no rotation (Q and K as projected), its next
    tokens as transformers' GPT2LMHeadModel has them; a BERT folder after it hides the panel."""
    window = make_window(AttentionConfig(sentence="the animal did not cross", model_dir=str(gpt2_folder)))
    wait_model(qtbot, window, "tiny-gpt2")
    p = window.pipeline
    assert window.controls.model_label.text().endswith("(GPT-2, causal, 3 layers × 4 heads, 32 wide)")
    assert p.panel("Q").title.startswith("Q = X·W_Q  (head 0)") and window.trace.Q_rotated is None
    assert_next_tokens_match(qtbot, tiny_decoders, gpt2_folder, window, window.trace.n_query - 1)
    window.state.update_config(sentence="the street")
    wait_trace(qtbot, window, sentence="the street")
    assert_next_tokens_match(qtbot, tiny_decoders, gpt2_folder, window, window.trace.n_query - 1)

    # the All heads tab: each head's weight on the first token (the attention sink), row 0 left
    # out, and on the token before; on a text that repeats, on the token after the last occurrence
    repeated = "the street and the cat the street and the cat"
    window.state.update_config(sentence=repeated)
    wait_trace(qtbot, window, sentence=repeated)
    window.state.set_tab(Tab.HEADS)
    grid = window.heads
    qtbot.waitUntil(lambda: grid.prepared is window.prepared and len(grid.panels) == 4, timeout=WAIT_MS)
    weights, n = window.trace.weights, window.trace.n_query
    ids = window.trace.token_ids_query
    # the first "the" is spelt without its space: the repetition starts after it, period n / 2
    start, period = 1, n // 2
    assert n % 2 == 0 and ids[0] != ids[period] and ids[1:period] == ids[period + 1 :]
    for h, panel in enumerate(grid.panels):
        sink = float(weights[h, 1:, 0].mean())
        previous = np.mean([weights[h, i, i - 1] for i in range(1, n)])
        induction = np.mean([weights[h, i, i - period + 1] for i in range(start + period, n)])
        assert panel.title.endswith(
            f" · first token {100 * sink:.0f} % · prev {100 * previous:.0f} % · ind {100 * induction:.0f} %"
        ), panel.title
        assert grid.head_description(h) == (
            f"previous token {100 * previous:.0f} %, induction {100 * induction:.0f} % (the text repeats "
            f"every {period} tokens), first token {100 * sink:.0f} %"
        )
    assert "attention sink" in grid.hover_label.text() and "previous occurrence" in grid.hover_label.text()

    # the Compare tab names A's and B's mask as the one the model was trained with
    window.state.set_tab(Tab.COMPARE)
    qtbot.waitUntil(lambda: "Largest change" in window.compare.summary.text(), timeout=WAIT_MS)
    assert window.compare.summary.text().count("causal mask as trained") == 2


def test_a_bert_that_says_decoder_opens_causal_without_next_tokens(qtbot, make_window, tmp_path):
    """ "is_decoder": true on a BERT folder: the window computes it causally and says so, and
    offers no next tokens (it has no LM head)."""
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    from tests.models import tiny

    folder = tiny.build(tmp_path / "bert-decoder", "bert", is_decoder=True)
    window = make_window(AttentionConfig(sentence="the animal", model_dir=str(folder)))
    wait_model(qtbot, window, "bert-decoder")
    c, p = window.controls, window.pipeline
    assert "causal" in c.model_label.text() and c.mask.currentText() == "causal (as trained)"
    assert float(np.triu(window.trace.weights, 1).max()) == 0.0
    assert p.panel("mask").title.startswith("mask: causal, as the model was trained")
    assert not p.next_tokens.isVisible()
