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
    SIZES,
    TEST_SIZE,
    measure_run,
    result_of_checkpoints,
    shipped_result,
)
from explorer.vision.train import VisionRun


def test_the_shipped_file_is_its_checkpoints_runs():
    shipped = shipped_result()
    gathered = result_of_checkpoints(resource_path("vision", "curve"))
    assert shipped.runs == gathered.runs
    assert shipped.sizes() == list(SIZES) and shipped.test == {"first": 10_000, "count": TEST_SIZE}


def test_the_seeds_claim_holds_in_the_shipped_result():
    result = shipped_result()
    gaps = result.gaps()
    assert gaps[100] >= 30 and gaps[1_000] >= 30 and gaps[100] > gaps[1_000] > gaps[10_000]
    best = result.of("vit", 10_000)[0]
    assert best.accuracy >= 0.9 and best.ratio >= 3


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
