"""The Qt-free parts under the window: state events, latest-wins worker, display arrays, presets."""

import subprocess
import sys
import threading

import numpy as np
import pytest

from explorer.appstate.display import DisplayArrays, display_arrays, reduce_for_display
from explorer.appstate.presets import PRESETS
from explorer.appstate.state import EVENTS, CompareOptions, ExplorerState
from explorer.appstate.worker import LatestWins
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.engine import Engine


def test_state_notifies_each_change():
    state = ExplorerState(AttentionConfig())
    events = []
    unsubscribe = state.subscribe(lambda event, s: events.append(event))
    state.update_config(sentence="a b")
    state.update_config(sentence="a b")  # no change, no event
    state.select_head(3)
    state.select_cell((1, 2))
    state.set_grid_stage("scores")
    with pytest.raises(ConfigError):
        state.update_config(sentence=" ")
    state.clamp_to(heads=2, n_query=1, n_key=5)
    assert events == ["config", "head", "cell", "stage", "head", "cell"]
    assert state.selected_head == 1 and state.selected_cell == (0, 2)
    unsubscribe()
    state.select_head(0)
    assert len(events) == 6


def test_every_view_setting_lives_in_the_state_and_notifies_once():
    state = ExplorerState(AttentionConfig())
    seen = []
    state.subscribe(lambda event, s: seen.append(event))
    changes = [
        (lambda: state.set_compare(CompareOptions.from_changes(scoring="cosine")), "compare"),
        (lambda: state.set_theme("dark"), "theme"),
        (lambda: state.set_language("zh_CN"), "language"),
        (lambda: state.set_presentation(True), "presentation"),
        (lambda: state.set_text_zoom(3), "zoom"),
        (lambda: state.set_stage_zoom(["weights", "not a panel"]), "stage_zoom"),
        (lambda: state.set_values_on_cells(True), "values"),
        (lambda: state.show_lesson(True), "lesson"),
        (lambda: state.set_lesson_step(4), "lesson"),
        (lambda: state.set_tab("heads"), "tab"),
    ]
    for k, (change, event) in enumerate(changes):
        change()
        change()  # the same value again: no second event
        assert seen[-1] == event and seen.count(event) == sum(1 for _, e in changes[: k + 1] if e == event)
    assert set(seen) <= set(EVENTS)
    assert state.stage_zoom == ("weights",) and state.text_zoom == 3 and state.lesson_step == 4
    state.set_text_zoom(99)
    assert state.text_zoom == 12  # clamped
    state.set_lesson_step(-5)
    assert state.lesson_step == 0
    for bad in (
        lambda: state.set_theme("pink"),
        lambda: state.set_language("fr"),
        lambda: state.set_grid_stage("x"),
    ):
        with pytest.raises(ValueError):
            bad()


def test_subscribers_can_ask_for_some_events_only():
    state = ExplorerState(AttentionConfig())
    seen = []
    state.subscribe(lambda event, s: seen.append(event), events=("theme", "tab"))
    state.select_head(2)
    state.set_theme("dark")
    state.set_tab("compare")
    assert seen == ["theme", "tab"]
    with pytest.raises(ValueError):
        state.subscribe(lambda e, s: None, events=("colour",))


def test_compare_options_make_b_from_a():
    a = AttentionConfig(sentence="a b c", scale="sqrt")
    assert CompareOptions().config_b(a).attention == "hard"  # soft vs hard to start
    b = CompareOptions.from_changes(scoring="cosine", temperature=0.1).config_b(a)
    assert (b.scoring, b.scale, b.temperature, b.attention) == ("cosine", "temperature", 0.1, a.attention)
    with pytest.raises(ValueError):
        CompareOptions.from_changes(colour="red")
    with pytest.raises(ConfigError):
        CompareOptions.from_changes(mask="diagonal").config_b(a)


def test_latest_request_wins_and_outdated_results_are_dropped():
    gate, delivered = threading.Event(), []
    done = threading.Event()
    executor = LatestWins(lambda r: (delivered.append(r), done.set() if r.value == "last" else None))
    first = executor.submit("trace", lambda: gate.wait(5) and "first")
    for i in range(5):  # pending requests replace each other
        executor.submit("trace", lambda i=i: f"middle {i}")
    last = executor.submit("trace", lambda: "last")
    gate.set()
    assert done.wait(5)
    executor.shutdown()
    values = [r.value for r in delivered]
    assert "middle 0" not in values and values[-1] == "last"
    assert [r.request_id for r in delivered if executor.is_current(r)] == [last]
    assert first not in [r.request_id for r in delivered if executor.is_current(r)]


def test_errors_come_back_as_results_and_cancel_outdates():
    got = []
    executor = LatestWins(got.append, synchronous=True)
    executor.submit("trace", lambda: AttentionConfig(sentence=""))
    assert isinstance(got[0].error, ConfigError) and executor.is_current(got[0])
    executor.cancel("trace")
    assert not executor.is_current(got[0])


def test_presets_are_valid_configs():
    names = [p.name for p in PRESETS]
    assert len(set(names)) == len(names) >= 7
    for preset in PRESETS:
        preset.config()
    assert any(p.changes.get("query") == "Jane visits Africa in September" for p in PRESETS)
    assert any(p.changes.get("mask") == "causal" for p in PRESETS)
    assert any(p.changes.get("attention") == "hard" for p in PRESETS)


def test_the_app_state_does_not_import_qt():
    code = (
        "import sys, explorer.appstate.state, explorer.appstate.session, explorer.appstate.worker, "
        "explorer.appstate.display, explorer.appstate.presets, explorer.appstate.lesson, "
        "explorer.appstate.data_export, explorer.atomic; "
        "sys.exit(any(m.startswith(('PySide6', 'pyqtgraph', 'explorer.gui')) for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_pooled_reduction_equals_the_numpy_reduction():
    rng = np.random.default_rng(0)
    for shape in [(3, 1000, 777), (600, 600), (2, 300, 257)]:
        a = rng.standard_normal(shape).astype(np.float32)
        for how in ("max", "maxabs"):
            fast = reduce_for_display(a, 256, how)  # float32: torch pooling
            slow = reduce_for_display(a.astype(np.float64), 256, how)  # float64: numpy passes
            np.testing.assert_array_equal(fast, slow.astype(np.float32))


def test_display_arrays_of_a_large_trace():
    trace = Engine().trace(
        AttentionConfig(sentence=" ".join(f"w{i}" for i in range(300)), weights="random", mask="causal")
    )
    display = display_arrays(trace, limit=128)
    n = trace.n_key
    assert display and display.limit == 128
    w = display.picture("weights", 2)
    f = -(-n // 128)  # cells a block, a side
    blocks = -(-n // f)
    assert w.shape == (blocks, blocks) and blocks <= 128
    np.testing.assert_array_equal(w[0, 0], trace.weights[2, :f, :f].max())  # each block's largest weight
    assert display.picture("scores").shape == (trace.heads, blocks, blocks)
    assert display.picture("mask").shape == (blocks, blocks) and display.visible[0, -1] == 0.0
    hidden = display.hidden_cells(trace)
    assert hidden[0, -1] and not hidden[-1, 0]  # a causal mask: the upper right is hidden
    assert display.picture("X_query") is None or display.picture("X_query").shape[-1] <= 128
    small = display_arrays(Engine().trace(AttentionConfig(sentence="a b", weights="random")))
    assert not small and small.picture("weights") is None
    assert np.array_equal(small.hidden_cells(trace), ~trace.mask)
    assert isinstance(small, DisplayArrays)


@pytest.mark.parametrize(
    "changes",
    [{}, {"scale": "temperature", "temperature": 0.01}, {"scoring": "cosine", "scale": "none"}],
    ids=["sqrt", "temperature", "none"],
)
def test_the_scaled_picture_is_the_reduction_of_the_scaled_scores(changes):
    """The picture of the scaled scores comes from the scores' (a monotone map keeps each
    block's extreme): it must equal the reduction of the scaled scores themselves."""
    words = " ".join(f"w{i}" for i in range(600))
    trace = Engine().trace(AttentionConfig(sentence=words, weights="random", **changes))
    display = display_arrays(trace)
    direct = np.stack([reduce_for_display(trace.scaled[h], 256, "maxabs") for h in range(trace.heads)])
    np.testing.assert_array_equal(display.picture("scaled"), direct)


def test_a_large_compare_pair_is_reduced_on_the_worker():
    from explorer.appstate.display import Difference, compare_pair

    words = " ".join(f"w{i}" for i in range(400))
    a = AttentionConfig(sentence=words, weights="random")
    pair = compare_pair(Engine(), a, a.with_(mask="causal"))
    wa, wb, diff = pair.panel_data(3)
    assert isinstance(diff, Difference) and diff.shape == wa.shape
    assert diff[5, 7] == wb[5, 7] - wa[5, 7]  # one cell, read on demand
    np.testing.assert_array_equal(np.asarray(diff), wb - wa)
    np.testing.assert_array_equal(pair.picture("diff", 3), reduce_for_display(wb - wa, 256, "maxabs"))
    np.testing.assert_array_equal(pair.picture("A", 3), reduce_for_display(wa, 256, "max"))
    np.testing.assert_array_equal(pair.picture("hidden_b"), reduce_for_display(~pair.b.mask, 256, "all"))
    small = compare_pair(
        Engine(), AttentionConfig(sentence="a b c", weights="random"), a.with_(sentence="a b c")
    )
    assert not small.pictures and isinstance(small.panel_data(0)[2], np.ndarray)


def test_a_lesson_step_takes_the_window_to_its_tab(monkeypatch):
    from explorer.appstate import state as state_module
    from explorer.appstate.lesson import ATTENTION_STEPS, Step

    steps = (*ATTENTION_STEPS[:2], Step("weights", "All heads", "", "", tab="heads"))
    monkeypatch.setattr(state_module, "STEPS", steps)
    state = ExplorerState()
    tabs = []
    state.subscribe(lambda event, s: tabs.append(s.tab), ("tab",))
    state.set_lesson_step(2)
    assert state.tab == "heads" and tabs == ["heads"]
    state.set_lesson_step(0)
    assert state.tab == "pipeline" and tabs == ["heads", "pipeline"]
