"""The window driven as a user would: typing, every control, clicks on cells and heads."""

import threading

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.appstate.presets import PRESETS
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS, click_cell, hover_cell


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
    p = window.pipeline
    weights = p.panel("weights")
    np.testing.assert_array_equal(weights.shown, t.weights[0])
    assert weights.levels == (0.0, 1.0)
    # every token labelled on both axes of every token panel
    for name in ("scores", "scaled", "mask", "weights"):
        box = p.canvas.box(p.index(name))
        assert list(box.rows.texts) == t.tokens_query and list(box.cols.texts) == t.tokens_key
    assert "scores = Q·Kᵀ" in p.panel("scores").title
    assert "[15×15]" in p.panel("scores").title
    status = window.status_text.text()
    assert f"device {t.device}" in status and f"tokens {t.n_query}×{t.n_key}" in status
    assert f"{t.heads} heads × d_k {t.d_k}" in status and f"compute {t.compute_ms:.1f} ms" in status
    assert f"render {window.render_ms:.1f} ms" in status
    assert not window.banner.isVisible()


def test_typing_in_both_fields_updates_every_view(qtbot, window):
    qtbot.keyClicks(window.controls.sentence, " today")
    wait_config(qtbot, window, sentence="The animal didn't cross the street because it was too tired today")
    assert window.trace.n_key == 16
    p = window.pipeline
    assert p.panel("weights").shape == (16, 16)
    qtbot.keyClicks(window.controls.query, "animal")
    wait_config(qtbot, window, query="animal")
    t = window.trace
    assert t.tokens_query == ["[CLS]", "animal", "[SEP]"]
    assert p.panel("weights").shape == (3, 16)
    assert list(p.canvas.box(p.index("Q")).rows.texts) == ["[CLS]", "animal", "[SEP]"]
    np.testing.assert_allclose(p.panel("scores").shown, t.scores[0], rtol=1e-6)


def test_every_control_changes_the_trace(qtbot, window):
    c = window.controls

    def pick(combo, data):
        combo.setCurrentIndex(combo.findData(data))

    pick(c.scoring, "cosine")
    wait_config(qtbot, window, scoring="cosine")
    assert np.abs(window.trace.scores).max() <= 1.0 + 1e-5
    c.tau.setValue(0)  # τ = 0.01 switches scaling to temperature
    wait_config(qtbot, window, scale="temperature", temperature=0.01)
    assert "τ" in window.pipeline.panel("scaled").title
    pick(c.scale, "sqrt")
    wait_config(qtbot, window, scale="sqrt")
    pick(c.scoring, "dot")
    wait_config(qtbot, window, scoring="dot")
    pick(c.attention, "hard")
    wait_config(qtbot, window, attention="hard")
    w = window.pipeline.panel("weights").shown
    assert set(np.unique(w)) <= {0.0, 1.0} and (w.sum(axis=1) == 1).all()
    pick(c.attention, "sample")
    c.seed.setValue(3)
    wait_config(qtbot, window, attention="sample", seed=3)
    pick(c.mask, "causal")
    wait_config(qtbot, window, mask="causal")
    weights = window.pipeline.panel("weights")
    np.testing.assert_array_equal(weights.hidden, ~window.trace.mask)  # masked cells drawn hatched
    assert weights.hidden_path is not None and not weights.hidden_path.isEmpty()
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
    pick(c.source, "random")
    wait_config(qtbot, window, weights="random", heads=None)
    assert window.trace.heads == 8 and window.trace.X_query.shape[1] == 64
    c.width.setValue(48)
    wait_config(qtbot, window, d_model=48)
    pick(c.source, "identity")
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
        c.source,
        c.layer,
        c.width,
        c.device,
    ):
        assert w.toolTip(), w


def test_click_cell_selects_it_everywhere(qtbot, window):
    p = window.pipeline
    click_cell(qtbot, p.canvas, p.index("weights"), 10, 2)  # query "it", key "animal"
    qtbot.waitUntil(lambda: window.state.selected_cell == (10, 2), timeout=WAIT_MS)
    assert p.canvas.figure.selection == (10, 2)
    for name in ("scores", "scaled", "weights", "mask"):
        assert p.panel(name).matrix_cell((10, 2)) == (10, 2)  # a row band and a column band
    assert p.panel("Q").matrix_cell((10, 2)) == (10, None)  # Q's row 10 is query "it"
    assert p.panel("K").matrix_cell((10, 2)) == (2, None)  # K's row 2 is key "animal"
    # a click on K selects a key and keeps the query
    click_cell(qtbot, p.canvas, p.index("K"), 5, 7)
    qtbot.waitUntil(lambda: window.state.selected_cell == (10, 5), timeout=WAIT_MS)
    window.state.set_tab(Tab.HEADS)
    grid = window.heads
    qtbot.waitUntil(lambda: len(grid.panels) == 12, timeout=WAIT_MS)
    assert grid.canvas.figure.selection == (10, 5)


def test_hover_shows_the_exact_value(qtbot, window):
    p = window.pipeline
    hover_cell(qtbot, p.canvas, p.index("scores"), 2, 3)
    t = window.trace
    expected = f"{t.tokens_query[2]}, {t.tokens_key[3]}: {str(np.float32(t.scores[0, 2, 3]))}"
    qtbot.waitUntil(lambda: expected in p.hover_label.text(), timeout=WAIT_MS)


def test_head_grid_click_selects_the_head(qtbot, window):
    window.state.set_tab(Tab.HEADS)
    grid = window.heads
    qtbot.waitUntil(lambda: len(grid.panels) == 12 and grid.prepared is window.prepared, timeout=WAIT_MS)
    boxes = grid.canvas.current_layout().boxes
    assert len({(b.rows.indices, b.cols.indices) for b in boxes}) == 1  # every head labels the same tokens
    for h, panel in enumerate(grid.panels):
        np.testing.assert_array_equal(panel.shown, window.trace.weights[h])
        assert panel.title.startswith(f"head {h} · H̄ {window.trace.entropy[h].mean():.2f}")
    click_cell(qtbot, grid.canvas, 5, 1, 1)
    qtbot.waitUntil(lambda: window.state.selected_head == 5, timeout=WAIT_MS)
    assert window.state.selected_cell == (1, 1)
    assert 5 in grid.canvas.figure.marks  # the selected head is framed
    window.state.set_tab(Tab.PIPELINE)
    np.testing.assert_array_equal(window.pipeline.panel("weights").shown, window.trace.weights[5])
    assert "(head 5)" in window.pipeline.panel("Q").title
    # the stage picker
    window.state.set_tab(Tab.HEADS)
    grid.stage_combo.setCurrentIndex(grid.stage_combo.findData("scores"))
    qtbot.waitUntil(lambda: window.state.grid_stage == "scores", timeout=WAIT_MS)
    np.testing.assert_allclose(grid.panels[3].shown, window.trace.scores[3])
    lo, hi = grid.panels[0].levels
    assert lo == -hi and hi >= np.abs(window.trace.scores).max()  # diverging, centred at 0, one scale
    assert {p.levels for p in grid.panels} == {(lo, hi)}


def test_number_keys_select_heads_but_not_while_typing(qtbot, window):
    window.tabs.setFocus()
    qtbot.keyClick(window.tabs, QtCore.Qt.Key.Key_4)
    qtbot.waitUntil(lambda: window.state.selected_head == 4, timeout=WAIT_MS)
    window.controls.query.setFocus()
    qtbot.keyClick(window.controls.query, QtCore.Qt.Key.Key_7)
    wait_config(qtbot, window, query="7")
    assert window.state.selected_head == 4
    # a digit typed into a board cell (no double-click first) is the cell's, not a head's
    board = window.view(Tab.BOARD)
    window.state.set_tab(Tab.BOARD)
    board.table.setCurrentCell(0, 1)
    board.table.setFocus()
    qtbot.keyClick(board.table, QtCore.Qt.Key.Key_5)
    editor = QtWidgets.QApplication.focusWidget()
    assert isinstance(editor, QtWidgets.QLineEdit) and editor.text() == "5"
    qtbot.keyClick(editor, QtCore.Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.state.board.board.q[0][0] == 5.0, timeout=WAIT_MS)
    assert window.state.selected_head == 4


def test_overview_click_opens_layer_and_head(qtbot, window):
    ov = window.overview
    with qtbot.waitSignal(ov.rendered, timeout=WAIT_MS):
        window.state.set_tab(Tab.OVERVIEW)
    weights = ov.weights
    assert weights.shape[:2] == (6, 12) and len(ov.canvas.panels) == 72
    np.testing.assert_allclose(weights[0], window.trace.weights, atol=1e-6)
    click_cell(qtbot, ov.canvas, 4 * 12 + 7, 1, 1)
    wait_config(qtbot, window, layer=4)
    assert window.state.selected_head == 7 and window.state.tab == Tab.PIPELINE
    assert window.tabs.current_tab() == Tab.PIPELINE
    qtbot.waitUntil(lambda: "(head 7)" in window.pipeline.panel("Q").title, timeout=WAIT_MS)
    np.testing.assert_allclose(window.pipeline.panel("weights").shown, weights[4, 7], atol=1e-6)


def test_error_shows_a_banner_and_keeps_the_last_result(qtbot, window):
    good = window.trace
    window.controls.sentence.clear()
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=WAIT_MS)
    assert "sentence is empty" in window.banner.text()
    assert window.trace is good
    np.testing.assert_array_equal(window.pipeline.panel("weights").shown, good.weights[0])
    qtbot.keyClicks(window.controls.sentence, "hello")
    wait_config(qtbot, window, sentence="hello")
    assert not window.banner.isVisible()


def test_bad_model_folder_shows_the_model_error(qtbot, window, tmp_path, monkeypatch):
    monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path))
    good = window.trace
    picker = window.controls.model_picker
    picker.activated.emit(picker.count() - 1)  # "Open model folder…"
    qtbot.waitUntil(lambda: "model could not be used" in window.banner.text(), timeout=WAIT_MS)
    assert window.trace is good and window.state.config.model_dir is None  # the model in use stays


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


def test_a_cut_hover_line_keeps_the_value_it_was_hovered_for(qtbot, window):
    """Trial 8 F19: on a narrow window the line showed "weights = so⋯", the number cut off."""
    p = window.pipeline
    hover_cell(qtbot, p.canvas, p.index("weights"), 2, 3)
    value = str(np.float32(window.trace.weights[0, 2, 3]))
    qtbot.waitUntil(lambda: p.hover_label.text().endswith(value), timeout=WAIT_MS)
    p.hover_label.resize(14 * p.hover_label.fontMetrics().averageCharWidth(), p.hover_label.height())
    p.hover_label.setText(p.hover_label.text())  # cut to its new width
    shown = p.hover_label.shown_text()
    assert "…" in shown and shown.endswith(value[-3:]), shown


def test_a_lab_s_status_bar_does_not_describe_the_sentence_model(qtbot, window):
    """Trial 10: on a lab tab the status bar still said the sentence pipeline's model, layer
    and heads, which the lab does not use."""
    t = window.trace
    sentence = f"{t.heads} heads × d_k {t.d_k}"
    assert sentence in window.status_text.text()
    window.state.set_tab(Tab.LOCAL)
    status = window.status_text.text()
    assert sentence not in status and window.tabs.title(Tab.LOCAL) in status
    window.state.set_tab(Tab.PIPELINE)
    assert sentence in window.status_text.text()


def test_number_keys_on_a_lab_tab_leave_the_sentence_head_alone(qtbot, window):
    """Trial 10: a digit on a lab's tab picked a head of the sentence model, out of sight,
    and the Pipeline came back on another head."""
    window.state.select_head(2)
    window.state.set_tab(Tab.LOCAL)
    window.tabs.setFocus()
    qtbot.keyClick(window.tabs, QtCore.Qt.Key.Key_5)
    assert window.state.selected_head == 2
    window.state.set_tab(Tab.PIPELINE)
    window.tabs.setFocus()
    qtbot.keyClick(window.tabs, QtCore.Qt.Key.Key_5)
    assert window.state.selected_head == 5


def test_a_lab_tab_does_not_say_computing_for_the_sentence_model(qtbot, window):
    """Stop 39's rough edge: while the sentence model computed, a lab tab's status line read
    "Computing…  {lab}: this lab runs its own models", with the sentence's progress and Cancel."""
    release = threading.Event()
    window.worker.submit("held", lambda: release.wait(WAIT_MS / 1000))  # the sentence side busy
    try:
        window._show_busy()
        assert window.progress.isVisibleTo(window) and "Computing" in window.status_text.text()
        window.state.set_tab(Tab.LOCAL)
        assert "Computing" not in window.status_text.text()
        assert not window.progress.isVisibleTo(window) and not window.cancel_button.isVisibleTo(window)
        window.state.set_tab(Tab.PIPELINE)
        assert window.progress.isVisibleTo(window) and "Computing" in window.status_text.text()
    finally:
        release.set()
    qtbot.waitUntil(lambda: not window.worker.busy(), timeout=WAIT_MS)


def test_the_hover_line_reads_the_result_on_screen_after_a_new_one(qtbot, window):
    """Trial 10: after a model switch the hover line still read the old result's cell (its
    token and its number), under a picture of another model's."""
    from dataclasses import replace

    from .helpers import wait_trace

    p = window.pipeline
    hover_cell(qtbot, p.canvas, p.index("scores"), 2, 3)
    old = p.hover_label.text()
    assert "animal" in old, old
    window.state.set_config(
        replace(window.state.config, sentence="Thinking machines dream of long sentences")
    )
    wait_trace(qtbot, window, sentence="Thinking machines dream of long sentences")
    qtbot.waitUntil(lambda: p.prepared is window.prepared, timeout=WAIT_MS)
    t = window.trace
    now = p.hover_label.text()
    head = window.state.selected_head
    expected = f"{t.tokens_query[2]}, {t.tokens_key[3]}: {str(np.float32(t.scores[head, 2, 3]))}"
    assert expected in now and "animal" not in now, (now, expected)
    window.state.set_config(replace(window.state.config, sentence="Hi"))  # 3 tokens: no column 3
    wait_trace(qtbot, window, sentence="Hi")
    qtbot.waitUntil(lambda: p.prepared is window.prepared, timeout=WAIT_MS)
    assert "—" not in p.hover_label.text()  # the hint, not a cell of another result


def test_the_hover_line_forgets_a_cell_zoomed_out_of_sight(qtbot, window):
    """Trial 10: in a lesson's zoom on the weights the hover line still read a cell of X."""
    p = window.pipeline
    hover_cell(qtbot, p.canvas, p.index("X"), 2, 3)
    assert "animal" in p.hover_label.text()
    window.state.set_stage_zoom(("weights",))
    assert "animal" not in p.hover_label.text() and "—" not in p.hover_label.text()
