"""The VisionTrace: every stage under its fixed name, equal to the model's own numbers; files."""

import json

import numpy as np
import pytest
import torch

from explorer.vision.checkpoints import load_shipped
from explorer.vision.models import VARIANTS
from explorer.vision.shapes import CLASS_NAMES, generate
from explorer.vision.trace import FIXED_STAGES, run_model

EXPECTED = {
    "plain": {"features", "output"},
    "se": {"features", "squeeze", "excitation_hidden", "excitation", "channel_weights", "output"},
    "cbam": {
        "features",
        "squeeze",
        "squeeze_max",
        "channel_weights",
        "channel_refined",
        "pooled_avg",
        "pooled_max",
        "spatial_logits",
        "spatial_map",
        "output",
    },
    "residual": {"features", "trunk", "mask_branch", "spatial_map", "output"},
}


@pytest.fixture(scope="module")
def picture():
    return generate(2024)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_stage_is_kept_with_its_shape(variant, picture):
    model, _ = load_shipped(variant)
    trace = run_model(model, picture.image, object_mask=picture.mask, label=picture.label)
    assert [b.name for b in trace.blocks] == ["block1", "block2", "block3"]
    for b, (channels, size) in zip(trace.blocks, [(16, 16), (32, 8), (32, 8)]):
        kind = "residual" if variant == "residual" and b.name == "block1" else variant
        kind = "plain" if variant == "residual" and b.name != "block1" else kind
        assert b.attention == kind and set(b.stages) == EXPECTED[kind], b.name
        assert b.stages["features"].shape == b.stages["output"].shape == (channels, size, size)
        for name in ("squeeze", "excitation", "channel_weights", "squeeze_max"):
            if name in b.stages:
                assert b.stages[name].shape == (channels,)
        for name in ("spatial_map", "pooled_avg", "pooled_max", "spatial_logits"):
            if name in b.stages:
                assert b.stages[name].shape == (size, size)
    assert trace.probabilities.shape == (len(CLASS_NAMES),)
    np.testing.assert_allclose(trace.probabilities.sum(), 1.0, atol=1e-12)
    softmax = np.exp(trace.logits - trace.logits.max())
    np.testing.assert_allclose(trace.probabilities, softmax / softmax.sum(), rtol=1e-6)
    assert trace.prediction == int(np.argmax(trace.logits)) and trace.prediction_name in CLASS_NAMES
    # The trace holds what the model computes on a batch of pictures, not something else.
    with torch.no_grad():
        keep = {}
        batch = torch.from_numpy(np.stack([generate(1).image, picture.image]).transpose(0, 3, 1, 2).copy())
        logits = model(batch, keep)
    np.testing.assert_allclose(trace.logits, logits[1].numpy(), rtol=1e-5, atol=1e-5)
    for b in trace.blocks:
        for name, value in b.stages.items():
            np.testing.assert_allclose(value, keep[b.name][name][1].numpy(), rtol=1e-5, atol=1e-5)


def test_channel_weights_rescale_the_features(picture):
    trace = run_model(load_shipped("se")[0], picture.image)
    for b in trace.blocks:
        np.testing.assert_allclose(
            b.stages["output"], b.stages["features"] * b.stages["channel_weights"][:, None, None], rtol=1e-6
        )
        np.testing.assert_allclose(b.stages["squeeze"], b.stages["features"].mean(axis=(1, 2)), rtol=1e-5)


def test_json_and_npz_hold_the_same_numbers(tmp_path, picture):
    trace = run_model(load_shipped("cbam")[0], picture.image, object_mask=picture.mask, label=picture.label)
    trace.save(tmp_path / "t.json")
    trace.save(tmp_path / "t.npz")
    data = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert set(FIXED_STAGES) | {"prediction", "probabilities", "class_names", "image", "object_mask"} <= set(
        data
    )
    assert data["excitation"] == {}  # CBAM has channel weights but no SE excitation
    np.testing.assert_allclose(np.array(data["spatial_map"]["block3"]), trace.stage("spatial_map", "block3"))
    assert data["class_names"] == list(CLASS_NAMES) and data["label_name"] == CLASS_NAMES[picture.label]
    with np.load(tmp_path / "t.npz", allow_pickle=False) as z:
        meta = json.loads(str(z["meta_json"]))
        assert meta["variant"] == "cbam" and meta["blocks"][2]["name"] == "block3"
        np.testing.assert_array_equal(z["spatial_map.block3"], trace.stage("spatial_map", "block3"))
        np.testing.assert_array_equal(z["object_mask"], picture.mask)
        assert int(z["prediction"]) == trace.prediction
        assert z["param.block3.spatial_weight"].shape == (1, 2, 7, 7)
    with pytest.raises(ValueError, match="json or .npz"):
        trace.save(tmp_path / "t.txt")


def test_a_picture_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="32×32×3"):
        run_model(load_shipped("plain")[0], np.zeros((16, 16, 3)))
