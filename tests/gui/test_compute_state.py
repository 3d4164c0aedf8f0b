"""The Qt-free parts under the window: state events, latest-wins worker, presets."""

import subprocess
import sys
import threading

import pytest

from explorer.appstate.presets import PRESETS
from explorer.appstate.state import ExplorerState
from explorer.appstate.worker import LatestWins
from explorer.core.config import AttentionConfig, ConfigError


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


def test_state_compute_and_presets_do_not_import_qt():
    code = (
        "import sys, explorer.appstate.state, explorer.appstate.worker, explorer.appstate.display, explorer.appstate.presets; "
        "sys.exit(any(m.startswith(('PySide6', 'pyqtgraph')) for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_pooled_reduction_equals_the_numpy_reduction():
    import numpy as np

    from explorer.appstate.display import reduce_for_display

    rng = np.random.default_rng(0)
    for shape in [(3, 1000, 777), (600, 600), (2, 300, 257)]:
        a = rng.standard_normal(shape).astype(np.float32)
        for how in ("max", "maxabs"):
            fast = reduce_for_display(a, 256, how)  # float32: torch pooling
            slow = reduce_for_display(a.astype(np.float64), 256, how)  # float64: numpy passes
            np.testing.assert_array_equal(fast, slow.astype(np.float32))
