"""The Why-attention state keeps its language and its run's weights agreeing (trial 9): the
length-curve step is French, a run turns the language to French, and the trained weights a
Chinese step set aside are in use again back in French, unless the teacher chose otherwise."""

from __future__ import annotations

from explorer.appstate.why_attention import WhyAttentionState
from explorer.lab import LabRun, TrainOptions
from explorer.training import Snapshot


def with_run(steps: int = 20) -> WhyAttentionState:
    """A state whose run has snapshots at 0, 10 and 20 and is in use, following it (no thread)."""
    lab = WhyAttentionState()
    run = LabRun(lambda **_: None, TrainOptions(steps=steps, device="cpu"))
    run.snapshots.extend(Snapshot(step, {}) for step in (0, 10, 20))
    lab.run = run
    assert lab.use_trained(None) and lab.follow
    return lab


def test_the_length_curve_step_is_french_whatever_came_before():
    lab = WhyAttentionState()
    lab.show_lesson_step("reordering")
    assert lab.settings.language == "zh"
    lab.show_lesson_step("length_curve")
    assert lab.settings.language == "fr"


def test_chinese_sets_the_run_aside_and_french_takes_it_back():
    lab = with_run()
    lab.use_trained(1)  # scrubbed to step 10
    lab.show_lesson_step("reordering")
    assert lab.weights == "shipped" and lab.shown_snapshot() is None  # the run trained French
    lab.show_lesson_step("length_curve")
    assert lab.weights == "trained" and lab.shown_step() == 10  # where the teacher left it


def test_a_choice_of_the_shipped_weights_stays():
    lab = with_run()
    lab.set_language("zh")
    lab.use_shipped()  # chosen while in Chinese: kept in French too
    lab.set_language("fr")
    assert lab.weights == "shipped"
    lab.use_trained(None)
    lab.use_shipped()  # chosen in French
    lab.set_language("zh")
    lab.set_language("fr")
    assert lab.weights == "shipped"


def test_a_run_started_in_chinese_turns_the_language_to_french(monkeypatch):
    lab = WhyAttentionState()
    lab.set_language("zh")
    heard = []
    lab.subscribe(lambda event, _: heard.append((event, lab.settings.language)), ("request", "weights"))
    monkeypatch.setattr(lab, "new_run", lambda options: LabRun(lambda **_: None, options))
    run = lab.start_training()
    run.join(5)
    assert lab.settings.language == "fr" and lab.weights == "trained" and lab.run_fits(run.spec)
    assert heard[0] == ("request", "fr")  # before the run's weights: never French weights under 中文
