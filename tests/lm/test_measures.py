"""The lab's measures equal a recomputation from their definitions, on made-up weights with
known answers and on a real model's attention."""

import math

import numpy as np
import pytest
import torch

from explorer.lm import tasks
from explorer.lm.measures import half_losses, head_scores, phase_change, probe_measures, ranking
from explorer.lm.model import GPT, GPTConfig


def loop_scores(weights: np.ndarray, period: int) -> dict[str, np.ndarray]:
    """[batch, heads, n, n] → per head, the definitions written as loops over the rows."""
    batch, heads, n, _ = weights.shape
    out = {"previous_token": np.zeros(heads), "induction": np.zeros(heads), "first_token": np.zeros(heads)}
    for h in range(heads):
        prev, ind, first = [], [], []
        for b in range(batch):
            prev.append(np.mean([weights[b, h, i, i - 1] for i in range(1, n)]))
            ind.append(np.mean([weights[b, h, i, i - period + 1] for i in range(period, n)]))
            first.append(np.mean([weights[b, h, i, 0] for i in range(1, n)]))
        out["previous_token"][h], out["induction"][h], out["first_token"][h] = map(
            np.mean, (prev, ind, first)
        )
    return out


def causal_random(rng, batch, heads, n):
    w = rng.random((batch, heads, n, n)) * np.tril(np.ones((n, n)))
    return w / w.sum(-1, keepdims=True)


def test_head_scores_equal_the_loops_on_random_causal_weights():
    rng = np.random.default_rng(0)
    period = 7
    layers = [causal_random(rng, 3, 4, 2 * period) for _ in range(2)]
    scores = head_scores(layers, period)
    for layer, w in enumerate(layers):
        expected = loop_scores(w, period)
        for name, values in expected.items():
            np.testing.assert_allclose(getattr(scores, name)[layer], values, atol=1e-12)


def test_a_perfect_previous_token_and_a_perfect_induction_head_score_one():
    n, period = 12, 6
    previous = np.zeros((n, n))
    previous[0, 0] = 1
    previous[np.arange(1, n), np.arange(n - 1)] = 1
    induction = np.eye(n)
    for i in range(period, n):
        induction[i] = 0
        induction[i, i - period + 1] = 1
    scores = head_scores([np.stack([previous, induction])], period)
    np.testing.assert_allclose(scores.previous_token[0], [1.0, 0.0])
    np.testing.assert_allclose(scores.induction[0], [0.0, 1.0])
    assert scores.induction_heads == [(0, 1)] and scores.previous_token_heads == [(0, 0)]


def test_ranking_orders_heads_by_score_and_keeps_ties_in_order():
    scores = np.array([[0.1, 0.7], [0.7, 0.05]])
    assert ranking(scores) == [(0, 1, 0.7), (1, 0, 0.7), (0, 0, 0.1), (1, 1, 0.05)]


def test_half_losses_equal_the_cross_entropy_of_each_half():
    period = 5
    ids = tasks.repeated_probe(np.random.default_rng(1), 2, period, 9)
    logits = torch.randn(2, 2 * period, 9, generator=torch.Generator().manual_seed(2))
    first, repeated = half_losses(logits, ids, period)
    logp = torch.log_softmax(logits.double(), -1)
    nll = lambda t: -logp[:, t - 1, :].gather(-1, ids[:, t, None]).mean()  # noqa: E731  token t from t − 1
    assert first == pytest.approx(float(torch.stack([nll(t) for t in range(1, period)]).mean()))
    assert repeated == pytest.approx(
        float(torch.stack([nll(t) for t in range(period + 1, 2 * period)]).mean())
    )


def test_probe_measures_read_the_models_own_attention():
    torch.manual_seed(0)
    model = GPT(GPTConfig()).eval()
    period = 24
    probe = tasks.repeated_probe(np.random.default_rng(3), 4, period, 64)
    m = probe_measures(model, probe, period)
    with torch.no_grad():
        layers = model(probe, record=True).layers
    for layer, record in enumerate(layers):
        expected = loop_scores(record.stages.weights.double().numpy(), period)
        for name, values in expected.items():
            np.testing.assert_allclose(getattr(m.scores, name)[layer], values, atol=1e-6)
    # An untrained model knows nothing: both halves cost about ln 64 (its logits are not flat).
    assert abs(m.first_half_loss - math.log(64)) < 1.5 and abs(m.repeated_half_loss - math.log(64)) < 1.5


def test_the_phase_change_is_where_the_repeated_half_pulls_away_fastest():
    steps = [25, 50, 75, 100, 125, 150]
    first = [9.0, 4.2, 4.2, 4.3, 4.4, 4.4]
    assert phase_change(steps, first, [9.0, 4.2, 4.1, 2.6, 1.2, 1.0]) == 100
    # Both halves falling together (learning the symbols' frequencies) is no phase change.
    assert phase_change(steps, first, first) is None
    assert phase_change(steps, first, [9.0, 4.0, 3.9, 3.8, 3.7, 3.6]) is None  # a gap under 1 nat
    assert phase_change([25], [4.2], [1.0]) is None
    assert phase_change(steps, first, [9.0, float("nan"), 4.1, 2.6, 1.2, 1.0]) is None


def test_scores_refuse_weights_of_the_wrong_shape():
    with pytest.raises(ValueError, match="must be"):
        head_scores([np.zeros((4, 5))], 2)
