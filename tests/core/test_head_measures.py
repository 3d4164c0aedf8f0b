"""The head measures against plain loops over the definitions, and on patterns whose answer is known."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.core.head_measures import (
    first_token_share,
    induction_score,
    mean_attention_distance,
    previous_token_score,
    repeat_period,
    self_share,
    text_induction_score,
)


def _random_weights(heads: int, n_query: int, n_key: int, seed: int = 0, causal: bool = False) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(heads, n_query, n_key)) * 3
    if causal:
        scores = np.where(np.tril(np.ones((n_query, n_key), bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def _loop_mean(weights, pick):
    """Mean over the rows of weights[h, i, pick(i)], rows where pick(i) is a key."""
    heads, n_query, n_key = weights.shape
    out = []
    for h in range(heads):
        values = [
            weights[h, i, pick(i)] for i in range(n_query) if pick(i) is not None and 0 <= pick(i) < n_key
        ]
        out.append(np.mean(values))
    return np.array(out)


@pytest.mark.parametrize("causal", [False, True])
def test_each_measure_equals_its_definition_written_as_a_loop(causal):
    weights = _random_weights(4, 30, 30, seed=3, causal=causal)
    np.testing.assert_allclose(self_share(weights), _loop_mean(weights, lambda i: i), atol=1e-12)
    np.testing.assert_allclose(
        previous_token_score(weights), _loop_mean(weights, lambda i: i - 1 if i >= 1 else None), atol=1e-12
    )
    np.testing.assert_allclose(
        first_token_share(weights), _loop_mean(weights, lambda i: 0 if i >= 1 else None), atol=1e-12
    )
    for period in (2, 7, 15):
        expected = _loop_mean(weights, lambda i, k=period: i - k + 1 if i >= k else None)
        np.testing.assert_allclose(induction_score(weights, period), expected, atol=1e-12)


def test_patterns_with_known_answers():
    n, period = 12, 5
    eye = np.eye(n)
    previous = np.zeros((n, n))
    previous[0, 0] = 1
    previous[np.arange(1, n), np.arange(n - 1)] = 1
    induction = np.zeros((n, n))
    for i in range(n):
        induction[i, i - period + 1 if i >= period else 0] = 1
    weights = np.stack([eye, previous, induction])
    np.testing.assert_allclose(self_share(weights)[0], 1.0)
    # row 1 of the induction head looks at key 0, which is also its previous token
    np.testing.assert_allclose(previous_token_score(weights), [0.0, 1.0, 1 / (n - 1)])
    np.testing.assert_allclose(induction_score(weights, period), [0.0, 0.0, 1.0])
    # the head that looks only at key 0 until the repeat starts
    assert first_token_share(weights)[2] == pytest.approx((period - 1) / (n - 1))


def test_mean_attention_distance_on_a_grid_equals_the_loop():
    side = 4
    positions = np.array([(r, c) for r in range(side) for c in range(side)], dtype=float) * 8 + 4
    weights = _random_weights(3, side * side, side * side, seed=1)
    expected = np.zeros(3)
    for h in range(3):
        for i in range(side * side):
            expected[h] += sum(
                weights[h, i, j] * np.hypot(*(positions[i] - positions[j])) for j in range(side * side)
            )
        expected[h] /= side * side
    np.testing.assert_allclose(mean_attention_distance(weights, positions), expected, rtol=1e-12)
    # a head that keeps every patch on itself looks no distance at all
    assert mean_attention_distance(np.eye(side * side)[None], positions)[0] == 0.0


def test_token_indices_and_bad_shapes():
    weights = np.zeros((1, 3, 3))
    weights[0, :, 0] = 1  # everyone looks at token 0: distances 0, 1, 2
    assert mean_attention_distance(weights, np.arange(3))[0] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        self_share(np.ones((3, 3)))
    with pytest.raises(ValueError):
        induction_score(weights, 1)
    with pytest.raises(ValueError):
        mean_attention_distance(weights, np.arange(4))


def test_leading_axes_are_measured_one_by_one():
    """[pictures, layers, heads, n, n] gives [pictures, layers, heads]: each slice as if alone."""
    stack = np.stack(
        [np.stack([_random_weights(3, 9, 9, seed=10 * p + layer) for layer in range(2)]) for p in range(4)]
    )
    positions = np.arange(9) * 2.0
    measures = [
        self_share,
        previous_token_score,
        first_token_share,
        lambda w: induction_score(w, 3),
        lambda w: mean_attention_distance(w, positions),
    ]
    for measure in measures:
        whole = measure(stack)
        assert whole.shape == (4, 2, 3)
        for p in range(4):
            for layer in range(2):
                np.testing.assert_array_equal(whole[p, layer], measure(stack[p, layer]))


def test_a_repeated_text_is_found_with_what_stands_before_it():
    assert repeat_period([1, 2, 3, 4, 1, 2, 3, 4]) == (0, 4)
    assert repeat_period(["<s>", "A", "B", "C", "A", "B"]) == (1, 3)  # a start token before
    # GPT-2 spells the first word without its space: "the" then "Ġcat … Ġthe Ġcat"
    assert repeat_period(["the", "Ġcat", "Ġsat", ".", "Ġthe", "Ġcat", "Ġsat", "."]) == (1, 4)
    assert repeat_period([1, 2, 1, 2, 1, 2]) == (0, 2)  # the smallest period
    for text in ([1, 2, 3, 4], [5, 5, 5], "the cat and the dog".split(), [], [1]):
        assert repeat_period(text) is None
    assert repeat_period([1, 2, 3, 1, 2, 4]) is None  # not every token repeats


def test_the_induction_score_of_a_text_reads_its_repeated_part():
    tokens = ["<s>", "A", "B", "C", "D", "A", "B", "C"]  # start 1, period 4
    weights = _random_weights(3, 8, 8, seed=5, causal=True)
    scores, period = text_induction_score(weights, tokens)
    assert period == 4
    # rows 5, 6, 7 (A B C again) on the token after their previous occurrence: 2, 3, 4
    expected = np.mean([weights[:, i, i - 3] for i in (5, 6, 7)], axis=0)
    np.testing.assert_allclose(scores, expected, atol=1e-12)
    assert text_induction_score(weights, list("abcdefgh")) is None
