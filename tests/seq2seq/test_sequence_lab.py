"""The length experiment as a lab run: the window's run is the command's run, its curves come
back whole from the flat numbers it reports, and its snapshots turn back into both models."""

from dataclasses import replace
from functools import partial

import numpy as np
import pytest
import torch

from explorer.lab import LabRun, run_all
from explorer.seq2seq.length_curve import evaluation_pairs, length_curve
from explorer.seq2seq.length_result import shipped_length_result
from explorer.seq2seq.sequence_eval import predict
from explorer.seq2seq.sequence_lab import (
    DEFAULTS,
    GOAL,
    RunModels,
    curve_from_metrics,
    models_at,
    side_by_side_specs,
    train_side_by_side,
)
from explorer.seq2seq.sequence_models import build_sequence_model, parameter_count
from explorer.seq2seq.sequence_trace import trace_sequence
from explorer.seq2seq.sequence_train import (
    LENGTH_EXPERIMENT_LR_FACTORS,
    SequenceTrainOptions,
    train_sequence_models,
)
from explorer.seq2seq.tasks import get_task

TASK = "compound-fr"
LIGHT = replace(DEFAULTS, steps=3, eval_every=3, eval_size=1, snapshot_every=3, device="cpu")


@pytest.fixture(scope="module")
def runs():
    """(a lab run, the same run made directly), trained once for the module."""
    run = run_all([LabRun(partial(train_side_by_side, TASK), LIGHT, goal=GOAL)], timeout=300)[0]
    direct = train_sequence_models(
        ("no-attention", "attention"), TASK, 3, 0,
        options=SequenceTrainOptions(eval_every=3, eval_per_group=1, snapshot_every=3, device="cpu",
                                     lr_factors=LENGTH_EXPERIMENT_LR_FACTORS),  # the command's default
    )  # fmt: skip
    return run, direct


def test_the_lab_run_is_the_commands_run_step_for_step(runs):
    """Through LabRun (its thread, its inbox) the losses, the curves and the weights are those
    of train_sequence_models with the same numbers."""
    run, direct = runs
    assert run.status == "done", run.error
    mean = [(a + b) / 2 for a, b in zip(direct.losses["no-attention"], direct.losses["attention"])]
    assert np.allclose(run.losses, mean, rtol=0, atol=1e-12)
    assert [s.step for s in run.snapshots] == [0, 3] and run.eval_steps == [3]
    for name, model in direct.models.items():
        back = models_at(side_by_side_specs(TASK), run.snapshots[-1])[name]
        for key, tensor in model.state_dict().items():
            assert torch.equal(tensor, back.state_dict()[key]), key
    # the curve read back from the run's flat numbers is the curve the training measured
    for name, curve in direct.final_curves.items():
        back = curve_from_metrics(run.metrics[-1], name)
        assert back.lengths == curve.lengths and back.word_accuracy == curve.word_accuracy
        assert back.exact_match == curve.exact_match and back.long == replace(curve.long, count=0)
        assert back.alignment_score == curve.alignment_score


def test_a_snapshots_models_measure_what_the_run_reported(runs):
    run = runs[0]
    models = models_at(side_by_side_specs(TASK), run.snapshots[-1])
    task = get_task(TASK)
    for name, model in models.items():
        curve = length_curve(predict(model, evaluation_pairs(task, 1), model.spec.vocab), name)
        assert curve.word_accuracy == curve_from_metrics(run.metrics[-1], name).word_accuracy


def test_the_run_models_built_once_translate_as_fresh_ones_at_every_snapshot(runs):
    """RunModels loads each snapshot into the modules it built for the run: the translations are
    those of fresh models with that snapshot, and a trace made before keeps its own numbers."""
    run = runs[0]
    specs, task, text = side_by_side_specs(TASK), get_task(TASK), "Jane sees the red car"
    kept = RunModels()
    traces = []
    for snapshot in (run.snapshots[0], run.snapshots[-1], run.snapshots[0]):
        with kept.at(specs, snapshot) as models:
            traces.append({m: trace_sequence(models[m], task, text) for m in models})
        fresh = models_at(specs, snapshot)
        for name, model in fresh.items():
            again = trace_sequence(model, task, text)
            np.testing.assert_array_equal(traces[-1][name].alignment, again.alignment)
            np.testing.assert_array_equal(traces[-1][name].context, again.context)
            assert traces[-1][name].output == again.output
    first, later = traces[0]["attention"], traces[1]["attention"]
    assert not np.array_equal(first.context, later.context)  # two snapshots, two sets of weights
    # the second trace's scoring weights are its snapshot's, not the ones loaded after it
    own = models_at(specs, run.snapshots[-1])["attention"].attention.params().as_arrays()
    assert own and set(later.attention_trace().scoring_params) == set(own)
    for name, array in later.attention_trace().scoring_params.items():
        np.testing.assert_array_equal(array, own[name])
    with kept.at(dict(specs), run.snapshots[-1]) as models:  # equal specs: the same modules
        assert models["attention"] is kept._models["attention"]


def test_the_windows_runs_train_the_shipped_architectures():
    """The page names both models' sizes from the shipped record: a run here has the same."""
    shipped = shipped_length_result()
    for name, spec in side_by_side_specs(TASK).items():
        assert parameter_count(build_sequence_model(spec)) == shipped.parameters[name]
    assert shipped.parameters["no-attention"] >= shipped.parameters["attention"]
    assert (DEFAULTS.steps, DEFAULTS.seed) == (shipped.steps, shipped.seed)


def test_no_numbers_no_curve():
    assert curve_from_metrics({"loss": 1.0}, "attention") is None
