"""Shipped checkpoints: small, pickle-free, and they keep their accuracy; damaged files are messages."""

import json

import numpy as np
import pytest
import torch

from explorer.vision.checkpoints import (
    CheckpointError,
    load_checkpoint,
    load_shipped,
    save_checkpoint,
    shipped_stem,
)
from explorer.vision.measure import accuracy
from explorer.vision.models import VARIANTS, TinyCNN, VisionConfig
from explorer.vision.shapes import held_out

MAX_BYTES = 2 * 1024 * 1024
SHIPPED_ACCURACY = 0.95  # every shipped checkpoint's bar; the README table gives each one's own figure


@pytest.fixture(scope="module")
def sample():
    # Held-out pictures past the 500 training evaluated on: unseen by every step of the run.
    return held_out(400, start=500)


@pytest.mark.parametrize("variant", VARIANTS)
def test_shipped_checkpoint_keeps_its_accuracy(variant, sample):
    weights = shipped_stem(variant).with_suffix(".safetensors")
    assert weights.is_file() and weights.stat().st_size <= MAX_BYTES
    model, info = load_shipped(variant)
    assert model.config.variant == variant and not model.training
    assert info["trained_by"].startswith(f"python -m explorer train-vision --model {variant} ")
    assert accuracy(model, sample) >= SHIPPED_ACCURACY
    assert info["held_out_accuracy_1000"] >= SHIPPED_ACCURACY


def test_shipped_models_are_read_once():
    assert load_shipped("cbam")[0] is load_shipped("cbam")[0]
    with pytest.raises(CheckpointError, match="not one of"):
        load_shipped("vit")


def test_save_and_load_round_trip(tmp_path):
    model = TinyCNN(VisionConfig(variant="se", reduction=2, kernel=5)).eval()
    save_checkpoint(model, tmp_path / "mine", {"note": "x"})
    loaded, info = load_checkpoint(tmp_path / "mine")
    assert loaded.config == model.config and info["note"] == "x"
    for name, value in model.state_dict().items():
        assert torch.equal(value, loaded.state_dict()[name])
    x = torch.rand(2, 3, 32, 32)
    with torch.no_grad():
        np.testing.assert_array_equal(model(x).numpy(), loaded(x).numpy())


def test_damaged_checkpoints_are_messages(tmp_path):
    model = TinyCNN(VisionConfig(variant="cbam")).eval()
    save_checkpoint(model, tmp_path / "good")
    weights = (tmp_path / "good.safetensors").read_bytes()
    described = json.loads((tmp_path / "good.json").read_text())

    with pytest.raises(CheckpointError, match="no such file"):
        load_checkpoint(tmp_path / "absent")
    (tmp_path / "cut.json").write_text(json.dumps(described))
    (tmp_path / "cut.safetensors").write_bytes(weights[: len(weights) // 2])
    with pytest.raises(CheckpointError, match="not a readable safetensors"):
        load_checkpoint(tmp_path / "cut")
    (tmp_path / "text.json").write_text("{not json")
    with pytest.raises(CheckpointError, match="not a readable checkpoint description"):
        load_checkpoint(tmp_path / "text")
    (tmp_path / "bare.json").write_text("[1, 2]")
    with pytest.raises(CheckpointError, match="no model configuration"):
        load_checkpoint(tmp_path / "bare")
    (tmp_path / "odd.json").write_text(json.dumps({"config": {**described["config"], "kernel": 4}}))
    with pytest.raises(CheckpointError, match="kernel 4"):
        load_checkpoint(tmp_path / "odd")
    (tmp_path / "other.json").write_text(json.dumps({"config": {**described["config"], "variant": "se"}}))
    (tmp_path / "other.safetensors").write_bytes(weights)
    with pytest.raises(CheckpointError, match="do not fit"):
        load_checkpoint(tmp_path / "other")
