import numpy as np
import pytest

from explorer.core.config import AttentionConfig
from explorer.core.worked import format_cell, softmax_parts, work_cell


@pytest.mark.parametrize("scoring", ["dot", "cosine", "general", "additive"])
@pytest.mark.parametrize("mask", ["none", "causal"])
def test_worked_numbers_equal_the_trace(engine, scoring, mask):
    trace = engine.trace(AttentionConfig(sentence="the animal was too tired", scoring=scoring, mask=mask))
    for head, i, j in [(0, 0, 0), (3, 4, 2), (11, 2, 5)]:
        cell = work_cell(trace, head, i, j)
        assert cell.score.score == pytest.approx(trace.scores[head, i, j], abs=1e-4)
        assert cell.scaled == pytest.approx(trace.scaled[head, i, j], abs=1e-4)
        assert cell.softmax_weight == pytest.approx(trace.weights[head, i, j], abs=1e-5)
        np.testing.assert_allclose(cell.output, trace.head_outputs[head, i], atol=1e-5)
        assert cell.visible == trace.mask[i, j]
        assert any("softmax" in line for line in format_cell(cell))


def test_hard_weight_is_reported(engine):
    trace = engine.trace(AttentionConfig(sentence="hard choice here", attention="hard"))
    cell = work_cell(trace, 0, 1, int(trace.weights[0, 1].argmax()))
    assert cell.weight == 1.0
    assert any(line.startswith("hard: weight = 1") for line in format_cell(cell))


def test_softmax_parts_are_torch_softmax_worked_out():
    """exp(s − max) and the row sums the board prints: exp / sum is torch's softmax, masked
    keys get exactly 0, a row with every key masked sums to 0 (no NaN)."""
    import torch

    rng = np.random.default_rng(0)
    scaled = rng.normal(size=(3, 5, 6)) * 4
    visible = rng.random((5, 6)) > 0.3
    visible[0] = True
    visible[4] = False
    maxima, exps, sums = softmax_parts(scaled, visible)
    assert np.all(exps[:, ~visible] == 0) and np.all(exps <= 1) and np.all(sums[:, 4] == 0)
    expected = torch.softmax(torch.tensor(scaled).masked_fill(~torch.tensor(visible), -torch.inf), dim=-1)
    rows = visible.any(axis=1)
    np.testing.assert_allclose(
        (exps / np.where(sums == 0, 1, sums)[..., None])[:, rows], expected[:, rows], rtol=1e-12
    )
    assert np.all(np.isfinite(maxima)) and np.all(maxima[:, 0] == scaled[:, 0].max(axis=-1))
