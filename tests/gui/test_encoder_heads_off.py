"""An encoder's heads switched off, driven as a person would: MiniLM in All heads, a head switched
off with the keyboard, and the panel beside the grid shows each token's output vector's cosine to
the one with every head on (equal to transformers with that head's slice zeroed before the
attention's output dense, computed on the worker thread), then the mean instead of zero."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.gui.views.registry import Tab

from .helpers import ANIMAL, WAIT_MS, wait_trace


def wait_cosine(qtbot, window, panel):
    def done():
        answer = panel.answer
        assert answer is not None and answer.key == panel.wanted_key() and not window.worker.busy()
        assert len(panel.bars.rows) == window.trace.n_key

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return panel.answer


def test_switch_an_encoder_head_off_and_see_its_outputs_move(qtbot, make_window, monkeypatch):
    transformers = pytest.importorskip("transformers", reason="transformers is in the test extra")
    from explorer.models.loader import default_model_dir
    from tests.models.head_hooks import output_cosine

    threads = []
    original = Engine.ablate

    def recorded(self, *args, **kwargs):
        threads.append(threading.current_thread())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Engine, "ablate", recorded)
    window = make_window(AttentionConfig(sentence=ANIMAL, layer=2))
    window.state.set_tab(Tab.HEADS)
    grid = window.heads
    qtbot.waitUntil(lambda: grid.prepared is window.prepared and len(grid.panels) == 12, timeout=WAIT_MS)
    switches, panel = grid.switches, grid.output_cosine
    assert switches.isVisible() and len(switches.buttons) == 12
    assert not grid.next_tokens.isVisible() and not panel.isVisible()  # nothing off yet
    assert not grid.lines_box.pick.isVisible()  # the lines' head picker only with the lines

    button = switches.buttons[3]
    button.setFocus()
    qtbot.keyClick(button, QtCore.Qt.Key.Key_Space)
    assert window.state.decoding.options.heads_off == {(2, 3)} and button.isChecked()
    answer = wait_cosine(qtbot, window, panel)
    assert panel.isVisible() and all(t is not threading.main_thread() for t in threads)
    assert grid.panels[3].title.startswith("head 3 (off)")

    ids = window.trace.token_ids_key
    ref = transformers.AutoModel.from_pretrained(str(default_model_dir()), attn_implementation="eager").eval()
    theirs = output_cosine(ref, ids, {(2, 3)}).numpy()
    assert [token for token, _ in panel.rows()] == window.trace.tokens_key
    np.testing.assert_allclose([c for _, c in panel.rows()], theirs, atol=1e-5, rtol=0)
    assert f"{theirs.mean():.4f}" in panel.mean.text()
    assert "2.3 off" in panel.summary.text() and "zeroed before W_O" in panel.summary.text()
    assert answer.heads.mode == "zero"

    # the mean instead: the panel follows
    switches.mode.setCurrentIndex(switches.mode.findData("mean"))
    answer = wait_cosine(qtbot, window, panel)
    theirs = output_cosine(ref, ids, {(2, 3)}, "mean").numpy()
    np.testing.assert_allclose([c for _, c in panel.rows()], theirs, atol=1e-5, rtol=0)
    assert "mean over the text" in panel.summary.text()

    # another head count is not the model's heads: no switches, no panel
    window.state.update_config(heads=6)
    wait_trace(qtbot, window, heads=6)
    qtbot.waitUntil(lambda: grid.prepared is window.prepared, timeout=WAIT_MS)
    assert not switches.isVisible() and not panel.isVisible()
    assert not any("(off)" in p.title for p in grid.panels)

    # back to the model's heads, All on: the panel goes, the grid has the room again
    window.state.update_config(heads=None)
    wait_trace(qtbot, window, heads=None)
    qtbot.waitUntil(lambda: grid.prepared is window.prepared and switches.isVisible(), timeout=WAIT_MS)
    qtbot.mouseClick(switches.all_on, QtCore.Qt.MouseButton.LeftButton)
    assert window.state.decoding.options.heads_off == frozenset() and not panel.isVisible()
