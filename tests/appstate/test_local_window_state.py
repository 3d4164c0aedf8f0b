"""The Global vs local tab's state, without a window: its events, its requests, its runs, sessions."""

import pytest

from explorer.appstate.local_window import LocalRequest, LocalSettings, LocalWindowState
from explorer.appstate.session import apply_session, session_of
from explorer.appstate.state import ExplorerState
from explorer.seq2seq.local_lab import ComparedWindows, WindowPair


def heard(state):
    events = []
    state.subscribe(lambda event, _: events.append(event), state.EVENTS)
    return events


def test_each_change_says_what_changed_once():
    lab = LocalWindowState()
    events = heard(lab)
    assert lab.set_window(6) and not lab.set_window(6)
    assert lab.set_local("local-m") and lab.select(4) and lab.set_train_window(5)
    assert events == ["request", "request", "training", "selection", "training"]
    with pytest.raises(ValueError, match="window must be a whole number from 1 to 30"):
        lab.set_window(0)
    with pytest.raises(ValueError, match="not one of"):
        lab.set_local("global")
    assert lab.set_source("a b") and lab.settings.step is None  # another text: no step selected


def test_requests_are_equal_when_they_would_give_the_same_traces():
    lab = LocalWindowState()
    first = lab.request()
    assert first == LocalRequest(lab.settings.source, WindowPair("local-p-ours", 3), 3)
    lab.select(2)
    assert lab.request() == first  # a selection is drawn, not computed
    lab.set_window(4)
    assert lab.request() != first and lab.request().window == 4


def test_another_d_reuses_the_global_trace_of_the_same_text_and_weights(monkeypatch):
    import explorer.appstate.local_window as local_window

    seen = []
    monkeypatch.setattr(local_window, "shipped_pair", lambda pair: {})
    monkeypatch.setattr(local_window, "compare_windows", lambda *a: seen.append(a[4]) or a[4])
    monkeypatch.setattr(local_window, "COMPUTED", local_window.ComputedCache())  # none computed before
    lab = LocalWindowState()
    first = lab.request()
    previous = (first, ComparedWindows("the global trace", "a local trace"))  # type: ignore[arg-type]
    lab.set_window(5)
    lab.request().compute(previous)
    lab.set_source("a b")
    lab.request().compute(previous)
    assert seen == ["the global trace", None]  # another text: global attention decodes it again


def test_a_run_trains_the_chosen_pair_and_reads_with_its_own_d():
    lab = LocalWindowState(LocalSettings(local="local-p", window=7, train_window=2))
    run = lab.new_run(lab.OPTIONS)
    assert run.spec == WindowPair("local-p", 2) and lab.settings.window == 2 and run.goal == lab.GOAL
    assert lab.run_fits(run.spec) and not lab.run_fits(WindowPair("local-m", 2))


def test_sessions_keep_the_settings_not_the_weights():
    state = ExplorerState()
    state.labs["local"].set_window(5)
    state.labs["local"].set_local("local-m")
    saved = session_of(state)
    other = ExplorerState()
    apply_session(other, saved)
    assert other.labs["local"].settings == state.labs["local"].settings
    assert other.labs["local"].weights == "shipped"
