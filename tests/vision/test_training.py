"""Training a vision model: the same seed gives the same run; a short run learns; cancel; snapshots."""

from dataclasses import replace

import numpy as np
import pytest
import torch

from explorer.lab import TrainOptions
from explorer.training import TrainingCancelled
from explorer.vision.measure import accuracy
from explorer.vision.shapes import generate, held_out
from explorer.vision.trace import run_model
from explorer.vision.train import DEFAULTS, model_at, train_variant

SMALL = replace(DEFAULTS, pool_size=256, eval_size=100, eval_every=10, snapshot_every=5)


def test_same_seed_same_run_different_seed_different_run():
    a = train_variant("cbam", 20, 3, options=SMALL)
    b = train_variant("cbam", 20, 3, options=SMALL)
    c = train_variant("cbam", 20, 4, options=SMALL)
    assert a.log.losses == b.log.losses
    assert a.log.metrics == b.log.metrics
    for name, value in a.model.state_dict().items():
        assert torch.equal(value, b.model.state_dict()[name]), name
    assert a.log.losses != c.log.losses


@pytest.mark.parametrize("variant", ["se", "residual"])
def test_other_variants_are_deterministic_too(variant):
    a = train_variant(variant, 8, 1, options=SMALL)
    b = train_variant(variant, 8, 1, options=SMALL)
    assert a.log.losses == b.log.losses


def test_a_short_run_reaches_90_percent_held_out():
    """CI-sized: 150 steps of 32 pictures from a pool of 2,048 (a few seconds on two idle cores)."""
    run = train_variant(
        "cbam", 150, 0, options=replace(DEFAULTS, pool_size=2048, eval_size=300, eval_every=50)
    )
    assert run.log.eval_steps == [50, 100, 150]
    assert run.log.losses[-1] < run.log.losses[0] / 4
    # Measured on pictures the run never evaluated on either.
    assert accuracy(run.model, held_out(500, start=300)) >= 0.90


def test_progress_cancel_and_snapshots():
    seen = []
    with pytest.raises(TrainingCancelled) as caught:
        train_variant("se", 50, 0, on_progress=seen.append, should_stop=lambda: len(seen) >= 7, options=SMALL)
    assert caught.value.log.steps_done == 7 and [p.step for p in seen] == list(range(1, 8))

    seen.clear()
    run = train_variant("cbam", 12, 0, on_progress=seen.append, options=SMALL)
    assert [p.step for p in seen if p.metrics] == [10, 12]
    assert [s.step for s in run.log.snapshots] == [0, 5, 10, 12]
    assert 0.0 <= run.accuracy <= 1.0 and "held_out_loss" in run.log.last_metrics
    # A snapshot turns back into the model as it was: the last one is the trained model.
    picture = generate(11)
    now = run_model(run.model, picture.image)
    replay = run_model(model_at(run.config, run.log.snapshots[-1]), picture.image)
    np.testing.assert_array_equal(replay.logits, now.logits)
    np.testing.assert_array_equal(replay.stage("spatial_map", "block3"), now.stage("spatial_map", "block3"))
    untrained = run_model(model_at(run.config, run.log.snapshots[0]), picture.image)
    assert not np.array_equal(untrained.logits, now.logits)


def test_absent_cuda_falls_back_to_the_cpu_with_a_notice():
    if torch.cuda.is_available():
        pytest.skip("a GPU is present: nothing falls back")
    run = train_variant("plain", 2, 0, options=replace(DEFAULTS, pool_size=64, eval_size=20, device="cuda"))
    assert run.device == "cpu" and any("CUDA" in n for n in run.notices)


def test_threads_are_restored_after_training():
    before = torch.get_num_threads()
    train_variant("plain", 1, 0, options=replace(DEFAULTS, pool_size=16, eval_size=10, threads=1))
    assert torch.get_num_threads() == before


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"steps": 0}, "steps"),
        ({"batch_size": 0}, "batch size"),
        ({"learning_rate": float("nan")}, "learning rate"),
        ({"seed": -1}, "seed"),
        ({"pool_size": 0}, "pool size"),
    ],
)
def test_impossible_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TrainOptions(**kwargs)
