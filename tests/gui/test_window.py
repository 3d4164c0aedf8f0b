"""The window driven as a user would: typing, every control, clicks on cells and heads."""

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from explorer.appstate.presets import PRESETS
from explorer.gui.head_grid import HeadGrid
from explorer.gui.main_window import TAB_HEADS, TAB_OVERVIEW, TAB_PIPELINE
from tests.gui.helpers import plot_click_cell as click_cell
from tests.gui.helpers import plot_hover_cell as hover_cell

from .conftest import WAIT_MS


def wait_config(qtbot, window, **expected):
    def done():
        t = window.trace
        assert t is not None
        for key, value in expected.items():
            assert getattr(t.config, key) == value

    qtbot.waitUntil(done, timeout=WAIT_MS)


def test_first_launch_shows_a_computed_example(window):
    t = window.trace
    assert t is not None and t.n_key == 15 and t.heads == 12
    weights = window.pipeline.maps["weights"]
    np.testing.assert_array_equal(weights.image.image, t.weights[0])
    assert weights.levels == (0.0, 1.0)
    # rows and columns: every k-th token (k as small as the plot size allows), never overlapping
    for ticks, tokens in ((weights.row_ticks, t.tokens_query), (weights.col_ticks, t.tokens_key)):
        step = ticks[1][0] - ticks[0][0]
        assert step <= 4 and ticks == [(j, tokens[j]) for j in range(0, 15, step)]
    assert "scores = Q·Kᵀ" in window.pipeline.maps["scores"].title
    assert "[15×15]" in window.pipeline.maps["scores"].title
    status = window.status_text.text()
    assert "device cpu" in status and "tokens 15×15" in status and "render" in status
    assert not window.banner.isVisible()


def test_typing_in_both_fields_updates_every_view(qtbot, window):
    qtbot.keyClicks(window.controls.sentence, " today")
    wait_config(qtbot, window, sentence="The animal didn't cross the street because it was too tired today")
    assert window.trace.n_key == 16
    assert window.pipeline.maps["weights"].image.image.shape == (16, 16)
    qtbot.keyClicks(window.controls.query, "animal")
    wait_config(qtbot, window, query="animal")
    t = window.trace
    assert t.tokens_query == ["[CLS]", "animal", "[SEP]"]
    assert window.pipeline.maps["weights"].image.image.shape == (3, 16)
    assert [lbl for _, lbl in window.pipeline.maps["Q"].row_ticks] == ["[CLS]", "animal", "[SEP]"]
    np.testing.assert_allclose(window.pipeline.maps["scores"].image.image, t.scores[0], rtol=1e-6)


def test_every_control_changes_the_trace(qtbot, window):
    c = window.controls

    def pick(combo, data):
        combo.setCurrentIndex(combo.findData(data))

    pick(c.scoring, "cosine")
    wait_config(qtbot, window, scoring="cosine")
    assert np.abs(window.trace.scores).max() <= 1.0 + 1e-5
    c.tau.setValue(0)  # τ = 0.01 switches scaling to temperature
    wait_config(qtbot, window, scale="temperature", temperature=0.01)
    assert "τ" in window.pipeline.maps["scaled"].title
    pick(c.scale, "sqrt")
    wait_config(qtbot, window, scale="sqrt")
    pick(c.scoring, "dot")
    wait_config(qtbot, window, scoring="dot")
    pick(c.attention, "hard")
    wait_config(qtbot, window, attention="hard")
    w = window.pipeline.maps["weights"].image.image
    assert set(np.unique(w)) <= {0.0, 1.0} and (w.sum(axis=1) == 1).all()
    pick(c.attention, "sample")
    c.seed.setValue(3)
    wait_config(qtbot, window, attention="sample", seed=3)
    pick(c.mask, "causal")
    wait_config(qtbot, window, mask="causal")
    hm = window.pipeline.maps["weights"]
    assert hm.overlay.isVisible()  # masked cells drawn hatched, not merely dark
    assert hm.overlay.image[..., 3].max() > 0
    pick(c.mask, "window")
    c.mask_size.setValue(1)
    wait_config(qtbot, window, mask="window:1")
    pick(c.mask, "valid")
    c.mask_size.setValue(3)
    wait_config(qtbot, window, mask="valid:3")
    assert not window.trace.mask[:, 3:].any()
    pick(c.mask, "none")
    pick(c.attention, "soft")
    # heads: only counts dividing 384 are offered
    offered = [c.heads.itemData(i) for i in range(c.heads.count())]
    assert offered == [h for h in range(1, 385) if 384 % h == 0]
    c.heads.setCurrentIndex(c.heads.findData(6))
    c.heads.activated.emit(c.heads.currentIndex())
    wait_config(qtbot, window, heads=6)
    assert window.trace.heads == 6 and any("regrouped" in n for n in window.trace.notices)
    assert window.notice.isVisible()
    c.layer.setValue(3)
    wait_config(qtbot, window, layer=3)
    assert window.trace.layer == 3
    pick(c.weights, "random")
    wait_config(qtbot, window, weights="random", heads=None)
    assert window.trace.heads == 8 and window.trace.X_query.shape[1] == 64
    c.width.setValue(48)
    wait_config(qtbot, window, d_model=48)
    pick(c.weights, "identity")
    wait_config(qtbot, window, weights="identity")
    np.testing.assert_allclose(window.trace.Q[0], window.trace.K[0])
    pick(c.device, "cpu")
    wait_config(qtbot, window, device="cpu")


def test_absent_devices_are_disabled_with_a_reason(window):
    from explorer.core.device import device_reasons

    model = window.controls.device.model()
    for row, (_name, reason) in enumerate(device_reasons().items()):
        item = model.item(row)
        assert item.isEnabled() == (reason is None)
        if reason:
            assert reason in item.toolTip()


def test_every_control_has_a_tooltip(window):
    c = window.controls
    for w in (
        c.preset,
        c.query,
        c.sentence,
        c.scoring,
        c.scale,
        c.tau,
        c.heads,
        c.attention,
        c.seed,
        c.mask,
        c.mask_size,
        c.weights,
        c.layer,
        c.width,
        c.device,
    ):
        assert w.toolTip(), w


def test_click_cell_selects_it_everywhere(qtbot, window):
    p = window.pipeline
    click_cell(qtbot, p.graphics, p.maps["weights"], 10, 2)  # query "it", key "animal"
    qtbot.waitUntil(lambda: window.state.selected_cell == (10, 2), timeout=WAIT_MS)
    for name in ("scores", "scaled", "weights", "mask"):
        hm = p.maps[name]
        assert hm.row_band.isVisible() and hm.col_band.isVisible()
        assert hm.row_band.rect().top() == pytest.approx(9.5)
        assert hm.col_band.rect().left() == pytest.approx(1.5)
    assert p.maps["Q"].row_band.isVisible() and not p.maps["Q"].col_band.isVisible()
    assert p.maps["K"].row_band.rect().top() == pytest.approx(1.5)  # K's row 2 is key "animal"
    # a click on K selects a key and keeps the query
    click_cell(qtbot, p.graphics, p.maps["K"], 5, 7)
    qtbot.waitUntil(lambda: window.state.selected_cell == (10, 5), timeout=WAIT_MS)
    window.tabs.setCurrentIndex(TAB_HEADS)
    qtbot.waitUntil(lambda: len(window.heads.maps) == 12, timeout=WAIT_MS)
    assert all(hm.selection == (10, 5) for hm in window.heads.maps)


def test_hover_shows_the_exact_value(qtbot, window):
    p = window.pipeline
    hover_cell(qtbot, p.graphics, p.maps["scores"], 2, 3)
    t = window.trace
    expected = f"{t.tokens_query[2]}, {t.tokens_key[3]}: {str(np.float32(t.scores[0, 2, 3]))}"
    qtbot.waitUntil(lambda: expected in p.hover_label.text(), timeout=WAIT_MS)


def test_head_grid_click_selects_the_head(qtbot, window):
    window.tabs.setCurrentIndex(TAB_HEADS)
    grid: HeadGrid = window.heads
    qtbot.waitUntil(lambda: len(grid.maps) == 12 and grid.trace is window.trace, timeout=WAIT_MS)
    for h, hm in enumerate(grid.maps):
        np.testing.assert_array_equal(hm.image.image, window.trace.weights[h])
        assert hm.title.startswith(f"head {h} · H̄ {window.trace.entropy[h].mean():.2f}")
    click_cell(qtbot, grid.graphics, grid.maps[5], 1, 1)
    qtbot.waitUntil(lambda: window.state.selected_head == 5, timeout=WAIT_MS)
    assert window.state.selected_cell == (1, 1)
    window.tabs.setCurrentIndex(TAB_PIPELINE)
    np.testing.assert_array_equal(window.pipeline.maps["weights"].image.image, window.trace.weights[5])
    assert "(head 5)" in window.pipeline.maps["Q"].title
    # the stage picker
    window.tabs.setCurrentIndex(TAB_HEADS)
    grid.stage_combo.setCurrentIndex(grid.stage_combo.findData("scores"))
    qtbot.waitUntil(lambda: window.state.grid_stage == "scores", timeout=WAIT_MS)
    np.testing.assert_allclose(grid.maps[3].image.image, window.trace.scores[3])
    lo, hi = grid.maps[0].levels
    assert lo == -hi  # diverging, centred at 0


def test_number_keys_select_heads_but_not_while_typing(qtbot, window):
    window.tabs.setFocus()
    qtbot.keyClick(window.tabs, QtCore.Qt.Key.Key_4)
    qtbot.waitUntil(lambda: window.state.selected_head == 3, timeout=WAIT_MS)
    window.controls.query.setFocus()
    qtbot.keyClick(window.controls.query, QtCore.Qt.Key.Key_7)
    wait_config(qtbot, window, query="7")
    assert window.state.selected_head == 3


def test_overview_click_opens_layer_and_head(qtbot, window):
    with qtbot.waitSignal(window.overviewRendered, timeout=WAIT_MS):
        window.tabs.setCurrentIndex(TAB_OVERVIEW)
    ov = window.overview
    assert len(ov.thumbs) == 6 and len(ov.thumbs[0]) == 12
    weights = ov.weights
    np.testing.assert_allclose(weights[0], window.trace.weights, atol=1e-6)
    vb = ov.boxes[4][7]
    qtbot.waitUntil(
        lambda: vb.sceneBoundingRect().contains(ov.thumbs[4][7].mapToScene(QtCore.QPointF(1.5, 1.5))),
        timeout=WAIT_MS,
    )
    pt = ov.graphics.mapFromScene(ov.thumbs[4][7].mapToScene(QtCore.QPointF(1.5, 1.5)))
    qtbot.mouseClick(ov.graphics.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pt)
    wait_config(qtbot, window, layer=4)
    assert window.state.selected_head == 7 and window.tabs.currentIndex() == TAB_PIPELINE
    qtbot.waitUntil(lambda: "(head 7)" in window.pipeline.maps["Q"].title, timeout=WAIT_MS)
    np.testing.assert_allclose(window.pipeline.maps["weights"].image.image, weights[4, 7], atol=1e-6)
    assert vb is ov.boxes[4][7]


def test_error_shows_a_banner_and_keeps_the_last_result(qtbot, window):
    good = window.trace
    window.controls.sentence.clear()
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=WAIT_MS)
    assert "sentence is empty" in window.banner.text()
    assert window.trace is good
    np.testing.assert_array_equal(window.pipeline.maps["weights"].image.image, good.weights[0])
    qtbot.keyClicks(window.controls.sentence, "hello")
    wait_config(qtbot, window, sentence="hello")
    assert not window.banner.isVisible()


def test_bad_model_folder_shows_the_model_error(qtbot, window, tmp_path, monkeypatch):
    monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path))
    good = window.trace
    c = window.controls
    c.weights.setCurrentIndex(c.weights.findData("open"))
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=WAIT_MS)
    assert "model could not be used" in window.banner.text()
    assert window.trace is good and window.state.config.model_dir == str(tmp_path)


def test_presets_all_compute(qtbot, window):
    for i, preset in enumerate(PRESETS):
        window.apply_preset(i)
        wait_config(qtbot, window, **preset.changes)
    window.apply_preset(4)  # Chinese: most characters become [UNK], and the window says so
    qtbot.waitUntil(lambda: "[UNK]" in window.notice.text(), timeout=WAIT_MS)
    assert window.notice.isVisible()


def test_outdated_results_are_dropped(qtbot, window):
    for word in ("a", "a b", "a b c", "a b c d"):
        window.state.update_config(sentence=word)
        window.request_trace()  # several requests in flight: only the newest is drawn
    wait_config(qtbot, window, sentence="a b c d")
    qtbot.wait(50)
    assert window.trace.config.sentence == "a b c d"
    assert window.trace.tokens_key == ["[CLS]", "a", "b", "c", "d", "[SEP]"]


def test_cancel_keeps_the_last_result(qtbot, window, monkeypatch):
    import threading

    release = threading.Event()
    real = window.engine.trace

    def slow(config):
        release.wait(10)
        return real(config)

    good = window.trace
    monkeypatch.setattr(window.engine, "trace", slow)
    qtbot.keyClicks(window.controls.sentence, "!")
    qtbot.waitUntil(lambda: window.cancel_button.isVisible(), timeout=WAIT_MS)
    assert window.progress.isVisible()
    qtbot.mouseClick(window.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    assert not window.cancel_button.isVisible()
    release.set()
    qtbot.waitUntil(lambda: window.dropped >= 1, timeout=WAIT_MS)
    assert window.trace is good
    assert "Cancelled" in window.banner.text()
