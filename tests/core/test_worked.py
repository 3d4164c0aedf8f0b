import numpy as np
import pytest

from explorer.core.config import AttentionConfig
from explorer.core.worked import format_cell, work_cell


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
