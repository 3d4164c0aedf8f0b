"""Worked arithmetic: one channel's squeeze and excite, one position's spatial score, equal to the trace."""

import numpy as np
import pytest

from explorer.vision.checkpoints import load_shipped
from explorer.vision.shapes import generate
from explorer.vision.trace import run_model
from explorer.vision.worked import format_channel, format_position, sigmoid, work_channel, work_position


@pytest.fixture(scope="module")
def traces():
    picture = generate(77)
    return {v: run_model(load_shipped(v)[0], picture.image) for v in ("plain", "se", "cbam", "residual")}


@pytest.mark.parametrize("variant", ["se", "cbam"])
def test_every_channel_weight_is_worked_out_exactly(traces, variant):
    trace = traces[variant]
    for block in trace.blocks_with("channel_weights"):
        channels = trace.stage("features", block).shape[0]
        for c in range(channels):
            w = work_channel(trace, block, c)
            assert w.weight == pytest.approx(w.trace_weight, abs=1e-6)
            assert w.paths[0].value == pytest.approx(float(trace.stage("squeeze", block)[c]), abs=1e-6)
            assert w.paths[0].value == pytest.approx(w.feature_sum / w.positions)
            assert w.logit == pytest.approx(sum(p.terms.sum() for p in w.paths))
        if variant == "se":
            np.testing.assert_allclose(w.paths[0].hidden, trace.stage("excitation_hidden", block), atol=1e-6)
            assert len(w.paths) == 1
        else:
            assert [p.pool for p in w.paths] == ["avg", "max"]
            assert w.paths[1].value == pytest.approx(float(trace.stage("squeeze_max", block)[c]), abs=1e-6)


def test_every_position_score_is_worked_out_exactly(traces):
    trace = traces["cbam"]
    for block in ("block1", "block2", "block3"):
        size = trace.stage("spatial_map", block).shape[0]
        for i in range(size):
            for j in range(size):
                w = work_position(trace, block, i, j)
                assert w.logit == pytest.approx(w.trace_logit, abs=1e-4)
                assert w.score == pytest.approx(w.trace_score, abs=1e-6)
                assert w.centre_avg == pytest.approx(float(trace.stage("pooled_avg", block)[i, j]), abs=1e-6)
                assert w.centre_max == pytest.approx(float(trace.stage("pooled_max", block)[i, j]), abs=1e-6)
    corner = work_position(trace, "block3", 0, 0)
    assert corner.window_avg.shape == (7, 7) and np.all(corner.window_avg[:3, :] == 0)  # the zero padding


def test_worked_text_shows_the_numbers(traces):
    w = work_channel(traces["se"], "block2", 5)
    text = "\n".join(format_channel(w))
    assert f"{w.paths[0].value:.4f}" in text and f"{w.weight:.4f}" in text and "σ" in text
    p = work_position(traces["cbam"], "block3", 4, 3)
    text = "\n".join(format_position(p))
    assert f"{p.logit:.4f}" in text and f"{p.score:.4f}" in text


def test_blocks_without_the_stage_say_so(traces):
    with pytest.raises(ValueError, match="no channel weights"):
        work_channel(traces["plain"], "block1", 0)
    with pytest.raises(ValueError, match="no spatial logits"):
        work_position(traces["se"], "block1", 0, 0)
    with pytest.raises(ValueError, match="no spatial logits"):
        work_position(traces["residual"], "block1", 0, 0)
    with pytest.raises(IndexError):
        work_channel(traces["se"], "block1", 16)
    with pytest.raises(IndexError):
        work_position(traces["cbam"], "block3", 8, 0)


def test_sigmoid_never_overflows():
    assert sigmoid(-1000.0) == 0.0 and sigmoid(1000.0) == 1.0 and sigmoid(0.0) == 0.5
