"""The shipped data experiment: its file is what its checkpoints say, and each checkpoint, measured
again on the held-out test pictures, gives the numbers the file records."""

import numpy as np
import pytest

from explorer.lab import TrainOptions
from explorer.resources import resource_path
from explorer.training import TrainingLog
from explorer.vision import data_curve
from explorer.vision.checkpoints import load_curve
from explorer.vision.data_curve import (
    CURVE_MODELS,
    SEEDS,
    SHIPPED_SEED,
    SIZES,
    TEST_SIZE,
    measure_run,
    result_of_checkpoints,
    shipped_result,
)
from explorer.vision.train import VisionRun


def test_the_shipped_file_is_its_checkpoints_runs_and_every_seed():
    shipped = shipped_result()
    gathered = result_of_checkpoints(resource_path("vision", "curve"))  # seed SHIPPED_SEED's models
    assert [r for r in shipped.runs if r.seed == SHIPPED_SEED] == gathered.runs
    assert shipped.sizes() == list(SIZES) and shipped.test == {"first": 10_000, "count": TEST_SIZE}
    assert shipped.seeds() == list(SEEDS)
    for model in CURVE_MODELS:
        for size in SIZES:
            assert [r.seed for r in shipped.of(model, size)] == list(SEEDS), (model, size)


def accuracy(result, model: str, size: int, seed: int) -> float:
    return next(r.accuracy for r in result.of(model, size) if r.seed == seed)


def test_the_seeds_claim_holds_in_the_shipped_result():
    result = shipped_result()
    gaps = result.gaps()  # the seeds' means
    assert gaps[100] >= 30 and gaps[1_000] >= 30 and gaps[100] > gaps[1_000] > gaps[10_000]
    for seed in SEEDS:  # on every seed the gap shrinks as the data grows
        lead = [accuracy(result, "cnn", n, seed) - accuracy(result, "vit", n, seed) for n in SIZES]
        assert lead[0] > lead[1] > lead[2] > 0, (seed, lead)
    for vit in result.of("vit", 10_000):  # the shipped seed's model and the other seeds' alike
        assert vit.accuracy >= 0.9 and vit.ratio >= 3, vit.seed


@pytest.mark.parametrize("model, size", [("cnn", 100), ("vit", 100), ("vit", 10_000)])
def test_a_shipped_model_measured_again_gives_its_recorded_numbers(model, size):
    network, info = load_curve(model, size)
    recorded = next(r for r in shipped_result().of(model, size) if r.seed == info["seed"])
    options = TrainOptions(steps=recorded.steps, seed=recorded.seed, pool_size=size)
    run = VisionRun(network, network.config, options, TrainingLog(), "cpu")
    again = measure_run(run, model, recorded.cpu_s, recorded.wall_s, data_curve.test_batch())
    assert again.accuracy == pytest.approx(recorded.accuracy, abs=1e-9)
    assert again.share == pytest.approx(recorded.share, rel=1e-6)
    if model == "vit":
        np.testing.assert_allclose(
            again.details["mean_distance"], recorded.details["mean_distance"], rtol=1e-5
        )
