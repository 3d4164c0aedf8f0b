"""The Translation tab's Qt-free state: settings, events, requests, training runs, sessions."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
import torch

from explorer.appstate.session import SessionError, session_from_dict, session_of
from explorer.appstate.state import ExplorerState
from explorer.appstate.translation import (
    NO_CHECKPOINT_TRANSFORMER,
    NO_SAMPLE_TRANSFORMER,
    WINDOW_TRAINING,
    TranslationSettings,
    TranslationState,
    attention_problem,
    checkpoint_problem,
    training_run,
)
from explorer.lab import LabRun
from explorer.seq2seq import alignment_at, train_model, translate
from explorer.seq2seq.spec import GRU_MODELS, SCORINGS


def run_to_end(run: LabRun) -> LabRun:
    if run.status == "idle":
        run.start()
    assert run.join(120)
    run.take()
    return run


def test_settings_are_validated_and_read_back():
    s = TranslationSettings(source="9.5.18", model="luong", cell=(2, 3), view="lines")
    assert TranslationSettings.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    for bad in (
        {"model": "gpt"},
        {"scoring": "cosine"},
        {"attention": "maybe"},
        {"kind": "sideways"},
        {"view": "3d"},
        {"cell": [1]},
        {"cell": [-1, 2]},
        {"train_steps": 0},
        {"train_seed": True},
        {"source": 5},
        {"colour": "red"},
    ):
        with pytest.raises(ValueError):
            TranslationSettings.from_dict(bad)
    assert TranslationSettings.from_dict({}) == TranslationSettings()  # an older session


def test_every_shipped_pair_is_offered_and_the_rest_say_why():
    for model in GRU_MODELS:
        for scoring in SCORINGS:
            assert checkpoint_problem(model, scoring) is None
    assert checkpoint_problem("transformer", "scaled-dot") is None
    assert checkpoint_problem("transformer", "additive") == NO_CHECKPOINT_TRANSFORMER
    assert attention_problem("transformer", "sample") == NO_SAMPLE_TRANSFORMER
    assert attention_problem("bahdanau", "sample") is None


def test_changes_notify_their_events_once_and_keep_the_choices_possible():
    t = TranslationState()
    events = []
    t.subscribe(lambda event, s: events.append(event))
    t.set_source("May 9, 2018")
    t.set_source("May 9, 2018")  # the same: no event
    t.set_attention("sample")
    t.set_scoring("dot")
    assert events == ["request", "request", "request"]
    t.set_model("transformer")  # no dot, no sample: the Transformer's own choices
    assert (t.settings.scoring, t.settings.attention, t.settings.train_steps) == ("scaled-dot", "soft", 600)
    with pytest.raises(ValueError):
        t.set_scoring("additive")
    with pytest.raises(ValueError):
        t.set_attention("sample")
    t.set_kind("decoder_self")
    t.set_model("luong")
    assert t.settings.kind == "cross" and t.settings.train_steps == 300
    with pytest.raises(ValueError):
        t.set_kind("encoder_self")
    events.clear()
    t.select((3, 4))
    t.set_view("lines")
    t.set_head(2)
    assert events == ["selection", "view", "stage"]


def test_a_request_computes_what_translate_computes_and_equal_requests_are_one():
    t = TranslationState()
    t.set_source("二〇一八年五月九日")
    t.set_scoring("general")
    request = t.request()
    assert request == t.request()
    trace = request.compute()
    reference = translate("二〇一八年五月九日", "bahdanau", "general")
    np.testing.assert_array_equal(trace.alignment, reference.alignment)
    assert trace.output == "2018-05-09"
    t.select((1, 1))  # selecting changes no translation
    assert t.request() == request
    t.set_attention("hard")
    assert t.request() != request


def test_a_run_is_the_train_command_step_for_step():
    """The window's run trains exactly what train_model trains with the same seed and options;
    its step 0 is the untrained model train_model starts from."""
    options = replace(WINDOW_TRAINING, steps=20, seed=3)
    run = run_to_end(training_run("bahdanau", "additive", options, watch=("9.5.18", "soft")))
    reference = train_model("bahdanau", "additive", steps=20, seed=3, options=WINDOW_TRAINING)
    assert run.status == "done" and run.step == 20
    assert run.losses == pytest.approx(reference.log.losses, abs=0)
    assert [s.step for s in run.snapshots] == [s.step for s in reference.log.snapshots] == [0, 10, 20]
    for mine, theirs in zip(run.snapshots, reference.log.snapshots):
        assert all(torch.equal(mine.state[k], theirs.state[k]) for k in theirs.state)
    assert run.eval_steps == [20] and run.series("exact_match") == [reference.log.metrics[-1]["exact_match"]]
    step, watched_for, watched = run.watched
    assert (step, watched_for) == (20, ("9.5.18", "soft"))
    np.testing.assert_array_equal(
        watched.alignment, alignment_at(run.spec, run.snapshots[-1], "9.5.18").alignment
    )


def test_the_state_follows_the_run_and_the_scrubber_picks_snapshots():
    t = TranslationState()
    t.set_training_plan(steps=30, seed=0)
    events = []
    t.subscribe(lambda event, s: events.append(event))
    run = t.start_training()
    assert t.training and t.weights == "trained" and events == ["training", "weights"]
    assert run.join(120)
    events.clear()
    t.poll()
    assert run.status == "done" and "training" in events and "weights" in events
    request = t.request()
    assert (request.weights, request.step) == ("trained", 30)
    t.use_trained(1)
    assert t.snapshot == 1 and t.request().step == 10
    np.testing.assert_array_equal(
        t.request().compute().alignment, alignment_at(run.spec, run.snapshots[1], t.settings.source).alignment
    )
    t.use_trained(3)  # the last snapshot of a finished run is its final model
    assert t.snapshot is None
    t.use_shipped()
    assert t.request().weights == "shipped"
    t.set_model("luong")  # the run's weights belong to bahdanau: back to the shipped checkpoint
    assert t.weights == "shipped"
    t.use_trained()  # and the run's weights bring their model and scoring back
    assert t.weights == "trained" and (t.settings.model, t.settings.scoring) == ("bahdanau", "additive")


def test_cancel_stops_between_steps_and_keeps_what_was_learned():
    t = TranslationState()
    t.set_training_plan(steps=5000)
    run = t.start_training()
    while not run.take() or run.step < 3:
        run.join(0.05)
    t.cancel_training()
    run_to_end(run)
    assert run.status == "cancelled" and 3 <= run.step < 5000 and run.snapshots[0].step == 0


def test_sessions_keep_the_settings_and_refuse_bad_ones():
    state = ExplorerState()
    state.translation.set_source("9 May 2018")
    state.translation.set_model("transformer")
    state.translation.set_kind("encoder_self")
    data = json.loads(session_of(state).to_json())
    assert data["translation"]["model"] == "transformer" and data["translation"]["kind"] == "encoder_self"
    assert session_from_dict(data).translation == state.translation.settings
    del data["translation"]  # a session saved before the tab existed
    assert session_from_dict(data).translation == TranslationSettings()
    data["translation"] = {"model": "gpt"}
    with pytest.raises(SessionError, match="model"):
        session_from_dict(data)


def test_lesson_steps_before_learning_show_the_shipped_model_and_learning_gives_the_run_back():
    """Trial 9: the lesson's words on its steps before "Watch it learn" describe the shipped
    model; a run (scrubbed to a snapshot) gives way there and comes back on its own step."""
    t = TranslationState()
    t.set_training_plan(steps=30, seed=0)
    run = run_to_end(t.start_training())
    t.poll()
    t.use_trained(1)
    t.arrive_at_step("translation.soft_hard")
    assert t.weights == "shipped" and t.request().weights == "shipped"
    t.arrive_at_step("translation.context")
    assert t.weights == "shipped"
    t.arrive_at_step("translation.learn")
    assert (t.weights, t.snapshot, t.run) == ("trained", 1, run)
    t.arrive_at_step("translation.query")
    t.use_trained()  # the teacher picks the run on a step by hand: it stays until the next step
    assert t.weights == "trained"
    t.set_model("luong")  # another model since: the run's weights do not come back on "learn"
    t.arrive_at_step("translation.learn")
    assert t.weights == "shipped" and t.settings.model == "luong"
