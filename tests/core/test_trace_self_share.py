"""Every self-attention trace says, per head, how much weight a token keeps on itself."""

import json

import numpy as np
import pytest

from explorer.core.board import Board, board_trace
from explorer.core.config import AttentionConfig

SELF = AttentionConfig(sentence="the cat sat on the mat", weights="random", heads=4, d_model=32)


def _diagonal_by_loop(weights):
    return [np.mean([weights[h, i, i] for i in range(weights.shape[1])]) for h in range(weights.shape[0])]


@pytest.mark.parametrize("mask", ["none", "causal", "window:1"])
def test_self_share_is_the_mean_of_each_heads_diagonal(engine, mask):
    trace = engine.trace(SELF.with_(mask=mask))
    assert trace.self_share.shape == (4,)
    np.testing.assert_allclose(trace.self_share, _diagonal_by_loop(trace.weights), atol=1e-12)
    if mask == "causal":  # the first token can only see itself
        assert (trace.self_share >= 1 / trace.n_key).all()


def test_identity_weights_look_at_themselves_more_than_uniform(engine):
    trace = engine.trace(SELF.with_(weights="identity"))  # q·k largest where q = k
    assert (trace.self_share > 1 / trace.n_key).all()


def test_a_query_text_has_no_self_share(engine):
    trace = engine.trace(SELF.with_(query="a dog ran"))
    assert trace.self_share is None
    assert trace.meta()["self_share"] is None


def test_the_file_holds_it_for_the_heads_written(engine, tmp_path):
    from explorer.core.trace import TraceSelection

    trace = engine.trace(SELF)
    path = tmp_path / "t.json"
    trace.save(path, TraceSelection(stages=("weights",), heads=(1, 3)))
    data = json.loads(path.read_text())
    np.testing.assert_allclose(data["self_share"], trace.self_share[[1, 3]], rtol=1e-7)
    np.testing.assert_allclose(data["self_share"], _diagonal_by_loop(np.array(data["weights"])), atol=1e-6)


def test_the_board_trace_has_it_too():
    board = Board(("a", "b", "c"), x=((1.0, 0.0), (0.0, 2.0), (1.0, 1.0)))
    trace = board_trace(board, AttentionConfig())
    np.testing.assert_allclose(trace.self_share, _diagonal_by_loop(trace.weights), atol=1e-12)
