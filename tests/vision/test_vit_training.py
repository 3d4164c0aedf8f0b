"""Training the vision transformer: the same seed gives the same run, snapshots replay it, and
the measures read off it are the definitions."""

import numpy as np
import pytest
import torch

from explorer.training import TrainingCancelled
from explorer.vision.checkpoints import load_checkpoint, save_checkpoint
from explorer.vision.data_curve import live_recipe, recipe_for, train_one
from explorer.vision.shapes import generate, held_out
from explorer.vision.train import learning_rate_at, model_at, train_variant
from explorer.vision.vit import ViTConfig, build_vit
from explorer.vision.vit_measures import (
    mean_distance,
    measure_vit,
    position_similarity,
    position_summary,
    uniform_distance,
)
from explorer.vision.vit_trace import run_vit_model


def _short(seed: int, steps: int = 6, **changes):
    return recipe_for("vit", 64, seed, steps, eval_size=40, eval_every=3, **changes)


def test_same_seed_same_run_different_seed_different_run():
    test = held_out(40, start=2000)
    a, record_a = train_one("vit", 64, 3, recipe=_short(3), test=test)
    b, record_b = train_one("vit", 64, 3, recipe=_short(3), test=test)
    c, _ = train_one("vit", 64, 4, recipe=_short(4), test=test)
    assert a.log.losses == b.log.losses and a.log.metrics == b.log.metrics
    for name, value in a.model.state_dict().items():
        assert torch.equal(value, b.model.state_dict()[name]), name
    assert (record_a.accuracy, record_a.share, record_a.details) == (
        record_b.accuracy,
        record_b.share,
        record_b.details,
    )
    assert a.log.losses != c.log.losses


def test_warm_up_then_cosine_decay():
    recipe = recipe_for("vit", 100, 0, 1000)
    rate = recipe.options.learning_rate
    rates = [learning_rate_at(i, recipe.options, recipe.schedule) for i in range(1000)]
    warm = recipe.schedule.warmup_steps
    assert warm == 100 and rates[warm - 1] == pytest.approx(rate)
    assert all(x < y for x, y in zip(rates[:warm], rates[1:warm]))  # rising
    assert all(x >= y for x, y in zip(rates[warm:], rates[warm + 1 :]))  # then falling
    assert rates[-1] < 1e-3 * rate
    cnn = recipe_for("cnn", 100, 0, 50)
    assert cnn.schedule.warmup_steps == 0
    assert learning_rate_at(0, cnn.options, cnn.schedule) == cnn.options.learning_rate


def test_snapshots_replay_and_cancel():
    seen = []
    short = _short(1, snapshot_every=3)
    run = train_variant("vit", 6, 1, on_progress=seen.append, options=short.options, schedule=short.schedule)
    assert [s.step for s in run.log.snapshots] == [0, 3, 6]
    picture = generate(5)
    now = run_vit_model(run.model, picture.image)
    replay = run_vit_model(model_at(run.config, run.log.snapshots[-1]), picture.image)
    np.testing.assert_array_equal(replay.arrays["logits"], now.arrays["logits"])
    np.testing.assert_array_equal(replay.stage("weights", "layer2"), now.stage("weights", "layer2"))
    with pytest.raises(TrainingCancelled):
        train_variant(
            "vit",
            20,
            1,
            on_progress=seen.append,
            should_stop=lambda: len(seen) >= 9,
            options=_short(1).options,
        )


def test_the_checkpoint_round_trips(tmp_path):
    model = build_vit(ViTConfig(width=16, heads=2), seed=2).eval()
    weights, _ = save_checkpoint(model, tmp_path / "v", {"note": "x"})
    loaded, info = load_checkpoint(tmp_path / "v")
    assert loaded.config == model.config and info["config"]["architecture"] == "vit"
    x = torch.rand(2, 3, 32, 32)
    with torch.no_grad():
        torch.testing.assert_close(loaded(x), model(x), atol=0, rtol=0)
    assert weights.stat().st_size < 5 * 2**20


def test_measures_on_a_batch_are_the_per_picture_definitions():
    model = build_vit(ViTConfig(), seed=4).eval()
    batch = held_out(6, start=300)
    measured = measure_vit(model, batch)
    traces = [
        run_vit_model(model, img.transpose(1, 2, 0), object_mask=m)
        for img, m in zip(batch.images, batch.masks)
    ]
    np.testing.assert_allclose(
        measured.self_share, np.mean([t.arrays["self_share"] for t in traces], axis=0), atol=1e-6
    )
    np.testing.assert_allclose(
        measured.mean_distance, np.mean([t.arrays["mean_distance"] for t in traces], axis=0), atol=1e-4
    )
    np.testing.assert_allclose(
        measured.rollout.share, np.mean([t.object_share["rollout"] for t in traces]), atol=1e-6
    )
    assert measured.accuracy == np.mean([t.prediction == label for t, label in zip(traces, batch.labels)])


def test_mean_distance_of_a_head_that_looks_at_one_patch():
    """Every patch looking at patch 0 (centre 2, 2): the mean distance is the mean of the centres' distances."""
    config = ViTConfig()
    weights = np.zeros((1, 1, config.tokens, config.tokens))
    weights[..., 1] = 1.0
    centres = (np.stack(np.divmod(np.arange(64), 8), axis=1) + 0.5) * 4
    expected = np.linalg.norm(centres - centres[0], axis=1).mean()
    assert mean_distance(weights, config)[0, 0] == pytest.approx(expected)
    uniform = np.full_like(weights, 1 / config.tokens)
    assert mean_distance(uniform, config)[0, 0] == pytest.approx(uniform_distance(config))
    assert 16 < uniform_distance(config) < 17


def test_position_similarity_is_the_cosine_of_the_embeddings():
    model = build_vit(ViTConfig(), seed=0)
    similarity = position_similarity(model)
    p = model.position.detach().double()[0, 1:].numpy()
    i, j = 5, 40
    assert similarity[i, j] == pytest.approx(p[i] @ p[j] / np.linalg.norm(p[i]) / np.linalg.norm(p[j]))
    np.testing.assert_allclose(np.diagonal(similarity), 1.0)
    untrained = position_summary(similarity, 8)
    assert abs(untrained.gap) < 0.05  # random embeddings: neighbours no more alike than the rest


def test_the_live_recipe_is_the_curve_recipe_cut_short():
    for model in ("cnn", "vit"):
        live, full = live_recipe(model), recipe_for(model, 1000, 0)
        assert live.options.pool_size == 1000 and live.options.steps < full.options.steps
        assert live.options.snapshot_every > 0
        assert (live.options.learning_rate, live.options.batch_size, live.schedule.weight_decay) == (
            full.options.learning_rate,
            full.options.batch_size,
            full.schedule.weight_decay,
        )


def test_a_training_step_is_the_step_with_every_stage_kept_bit_for_bit():
    """Training leaves the attention's entropy out and clamps only where a score lies outside;
    the loss and every gradient are still those of the forward pass that keeps every stage."""
    images = torch.rand(9, 3, 32, 32, generator=torch.Generator().manual_seed(8))
    labels = torch.arange(9) % 4
    grads = []
    for keep in (None, {}):
        model = build_vit(ViTConfig(), seed=6).train()
        loss = torch.nn.functional.cross_entropy(model(images, keep), labels)
        loss.backward()
        grads.append((loss.detach(), [p.grad for p in model.parameters()]))
        if keep is not None:
            assert all(keep[name]["stages"].entropy is not None for name in model.config.layer_names())
    (lean_loss, lean), (full_loss, full) = grads
    assert torch.equal(lean_loss, full_loss)
    assert all(a is not None and b is not None and torch.equal(a, b) for a, b in zip(lean, full))


@pytest.mark.parametrize("model", ["vit", "cnn"])
def test_the_optimisers_update_all_at_once_is_the_loops(monkeypatch, model):
    """Training updates every parameter in a few foreach calls: the same run as torch's loop."""
    test = held_out(40, start=2000)
    recipe = recipe_for(model, 64, 2, 6, eval_size=40, eval_every=3)
    at_once, _ = train_one(model, 64, 2, recipe=recipe, test=test)
    for name in ("Adam", "AdamW"):
        original = getattr(torch.optim, name)
        monkeypatch.setattr(torch.optim, name, lambda *a, _o=original, **k: _o(*a, **{**k, "foreach": False}))
    looped, _ = train_one(model, 64, 2, recipe=recipe, test=test)
    assert at_once.log.losses == looped.log.losses and at_once.log.metrics == looped.log.metrics
    for name, value in at_once.model.state_dict().items():
        assert torch.equal(value, looped.model.state_dict()[name]), name
