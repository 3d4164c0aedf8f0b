"""Training side by side: deterministic per seed, the same batches for every model, curves at
evaluations, cancel; a short run learns single sentences."""

from dataclasses import replace

import pytest
import torch

from explorer.seq2seq.length_curve import LONG, SHORT, evaluation_pairs
from explorer.seq2seq.sequence_train import SequenceTrainOptions, train_sequence_models
from explorer.training import TrainingCancelled

TINY = SequenceTrainOptions(
    batch_size=8, eval_every=3, eval_per_group=2, hidden=8, embed=8, device="cpu"
)  # fmt: skip


def run(models, seed, task="compound-fr", steps=4, options=TINY, **kwargs):
    return train_sequence_models(models, task, steps, seed, options=options, **kwargs)


def test_same_seed_same_losses_and_curves_and_weights():
    first, again, other = (run(("no-attention", "attention"), seed) for seed in (3, 3, 4))
    assert first.losses == again.losses
    assert first.losses != other.losses
    assert first.final_curves == again.final_curves
    for name in first.models:
        for key, tensor in first.models[name].state_dict().items():
            assert torch.equal(tensor, again.models[name].state_dict()[key])


def test_a_model_alone_trains_exactly_as_beside_another():
    """Same start, same batches: side by side is only a convenience, never a different run."""
    together = run(("no-attention", "attention"), 5)
    alone = run(("attention",), 5)
    assert together.losses["attention"] == alone.losses["attention"]
    assert together.final_curves["attention"] == alone.final_curves["attention"]


def test_a_models_own_learning_rate_changes_that_model_only():
    """lr_factors: the fixed C at twice the rate trains as with lr doubled; the attention
    model beside it as without any factor (the same batches, its own rate)."""
    factored = replace(TINY, lr_factors=(("no-attention", 2.0),))
    both = run(("no-attention", "attention"), 2, options=factored)
    plain = run(("no-attention", "attention"), 2)
    doubled = run(("no-attention",), 2, options=replace(TINY, lr=2 * TINY.lr))
    assert both.losses["attention"] == plain.losses["attention"]
    assert both.losses["no-attention"] == doubled.losses["no-attention"] != plain.losses["no-attention"]


def test_progress_carries_curves_at_evaluations_and_cpu_seconds():
    seen = []
    result = run(("no-attention", "attention"), 0, steps=7, on_progress=seen.append)
    assert [p.step for p in seen] == list(range(1, 8))
    evaluated = [p for p in seen if p.curves is not None]
    assert [p.step for p in evaluated] == [3, 6, 7] == [step for step, _ in result.curves]
    last = evaluated[-1]
    assert set(last.curves) == {"no-attention", "attention"}
    assert last.curves == result.final_curves
    assert last.curves["no-attention"].alignment_score is None
    assert last.curves["attention"].alignment_score is not None
    assert all(last.cpu_seconds[m] > 0 for m in last.cpu_seconds) and last.cpu_seconds == result.cpu_seconds
    assert "attention/long/word_accuracy" in last.metrics and "eval_seconds" in last.metrics
    curve = last.curves["attention"]
    assert sum(curve.counts) == len(evaluation_pairs(result.task, TINY.eval_per_group))
    assert curve.short.count and curve.long.count  # the set holds sentences of ≤ 8 and ≥ 40 words
    assert (
        list(curve.lengths) == sorted(curve.lengths)
        and curve.lengths[0] <= SHORT
        and curve.lengths[-1] >= LONG
    )


def test_cancel_stops_between_steps():
    calls = []
    with pytest.raises(TrainingCancelled) as cancelled:
        run(("attention",), 0, steps=50, should_stop=lambda: calls.append(1) or len(calls) > 2)
    assert cancelled.value.log.steps_done == 2


def test_a_short_run_learns_single_sentences():
    """A small attention model on one-clause sentences: most held-out sentences exactly right."""
    options = SequenceTrainOptions(
        batch_size=32, lr=1e-2, eval_every=1000, eval_per_group=60, hidden=32, device="cpu"
    )
    result = run(("attention",), 0, task="sentences-zh", steps=120, options=options)
    curve = result.final_curves["attention"]
    assert curve.short.word_accuracy >= 0.9, curve
    assert result.losses["attention"][-1] < result.losses["attention"][0] / 5


@pytest.mark.parametrize(("task", "points"), [("dates", 1), ("copy", 8)])
def test_the_other_tasks_train_and_measure_too(task, points):
    """Dates (one token per character) and random strings (5–60 long) go through the same loop."""
    result = run(("no-attention", "attention"), 0, task=task, steps=2)
    curve = result.final_curves["attention"]
    assert len(curve.lengths) == points and curve.alignment_score is not None
    assert result.final_curves["no-attention"].alignment_score is None


def test_a_thread_per_model_gives_the_numbers_of_one_thread():
    """Each model on its own thread computes what it computes in lockstep on one: the same
    losses, curves and weights, bit for bit (and the same CPU seconds are counted per model)."""
    options = replace(TINY, lr_factors=(("no-attention", 2.0),))
    threaded = run(("no-attention", "attention"), 1, steps=5, options=options)
    one = run(("no-attention", "attention"), 1, steps=5, options=replace(options, parallel=False))
    assert threaded.losses == one.losses and len(threaded.losses["attention"]) == 5
    assert threaded.curves == one.curves
    for name in one.models:
        for key, tensor in one.models[name].state_dict().items():
            assert torch.equal(tensor, threaded.models[name].state_dict()[key])
    assert all(threaded.cpu_seconds[m] > 0 for m in threaded.cpu_seconds)


def test_a_failure_on_a_models_thread_reaches_the_caller():
    from explorer.seq2seq.sequence_threads import ModelThreads

    def fail():
        raise ValueError("no")

    with ModelThreads(("a", "b")) as lanes, pytest.raises(ValueError, match="no"):
        lanes.run({"a": fail, "b": lambda: 1})
    with ModelThreads(("a", "b")) as lanes:
        assert lanes.run({"a": lambda: 2, "b": lambda: 1}) == {"a": 2, "b": 1}
