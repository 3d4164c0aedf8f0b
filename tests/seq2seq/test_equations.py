"""The GRU models' attention, recomputed from the JSON alone with the papers' equations in numpy.

Bahdanau et al. 2014:  e_ij = v_aᵀ tanh(W_a s_{i−1} + U_a h_j)
Luong et al. 2015:     score(h_t, h̄_s) = h_tᵀ W_a h̄_s (general), h_tᵀ h̄_s (dot)
Vaswani et al. 2017:   q·k / √d (scaled dot)
α = softmax(e) over the source; c_i = Σ_j α_ij h_j.
"""

import json

import numpy as np
import pytest

from explorer.core.worked import work_cell
from explorer.seq2seq.translate import load_model, translate

from .conftest import GRU_PAIRS

TEXTS = ["Wednesday 9 May 2018", "二〇四九年十二月三十一日", "05/09/2018", "1er mars 1960", "9 mai 2018 😀"]


def scores_from_json(data: dict) -> np.ndarray:
    q = np.array(data["queries"], dtype=np.float64)  # [T, d] decoder states
    h = np.array(data["keys"], dtype=np.float64)  # [n, d] encoder annotations
    p = {k: np.array(v, dtype=np.float64) for k, v in data["scoring_params"].items()}
    scoring = data["scoring"]
    if scoring == "additive":
        W_a, U_a, v_a = p["additive_W1"][0].T, p["additive_W2"][0].T, p["additive_v"][0]  # row ↔ column
        return np.array([[v_a @ np.tanh(W_a @ s + U_a @ hj) for hj in h] for s in q])
    if scoring == "general":
        W = p["general_W"][0]
        return np.array([[s @ W @ hj for hj in h] for s in q])
    dots = np.array([[s @ hj for hj in h] for s in q])
    return dots / np.sqrt(q.shape[1]) if scoring == "scaled-dot" else dots


def softmax(e: np.ndarray) -> np.ndarray:
    z = np.exp(e - e.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("model,scoring", GRU_PAIRS)
def test_weights_are_the_papers_equations(model, scoring):
    for text in TEXTS:
        data = json.loads(json.dumps(translate(text, model, scoring).to_dict()))
        e = scores_from_json(data)
        np.testing.assert_allclose(e, data["scaled"], rtol=1e-4, atol=1e-4)
        alpha = softmax(e)
        np.testing.assert_allclose(alpha, data["weights"], atol=1e-5)
        np.testing.assert_allclose(data["alignment"], data["weights"])
        np.testing.assert_allclose(alpha @ np.array(data["values"]), data["context"], atol=1e-5)
        assert np.allclose(np.sum(data["weights"], axis=1), 1, atol=1e-5)


@pytest.mark.parametrize("model,scoring", [("bahdanau", "general"), ("luong", "additive")])
def test_hard_and_sampled_attention_pick_one_key(model, scoring):
    for text in TEXTS:
        soft = json.loads(json.dumps(translate(text, model, scoring).to_dict()))
        hard = translate(text, model, scoring, "hard")
        assert set(np.unique(hard.weights)) <= {0.0, 1.0}
        assert (hard.weights.sum(axis=1) == 1).all()
        # Each hard row is one-hot at the argmax of that step's own scores.
        np.testing.assert_array_equal(hard.weights.argmax(axis=1), hard.scaled.argmax(axis=1))
        np.testing.assert_allclose(hard.context, hard.values[hard.weights.argmax(axis=1)], atol=1e-6)
        sample = translate(text, model, scoring, "sample", seed=5)
        assert (sample.weights.sum(axis=1) == 1).all() and set(np.unique(sample.weights)) <= {0.0, 1.0}
        again = translate(text, model, scoring, "sample", seed=5)
        np.testing.assert_array_equal(sample.weights, again.weights)
        assert soft["output"] == translate(text, model, scoring).output
    draws = {
        translate("9.5.18", model, scoring, "sample", seed=s).weights.argmax(1).tobytes() for s in range(8)
    }
    assert len(draws) > 1  # different seeds, different draws


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """Cho et al. 2014, in torch's gate order (reset, update, new)."""
    gi, gh = w_ih @ x + b_ih, w_hh @ h + b_hh
    (i_r, i_z, i_n), (h_r, h_z, h_n) = np.split(gi, 3), np.split(gh, 3)
    r, z = sigmoid(i_r + h_r), sigmoid(i_z + h_z)
    n = np.tanh(i_n + r * h_n)
    return (1 - z) * n + z * h


@pytest.mark.parametrize("model,scoring", [("bahdanau", "additive"), ("luong", "general")])
def test_queries_are_the_decoder_states_the_papers_name(model, scoring):
    """Rebuild the decoder in numpy from the checkpoint: Bahdanau's query at step i is s_{i-1},
    Luong's is h_t, and every output character is the argmax of the recomputed logits."""
    module, spec, _ = load_model(model, scoring)
    w = {k: v.double().numpy() for k, v in module.state_dict().items()}
    trace = translate("2018年5月9日星期三", model, scoring)
    keys = trace.keys.astype(np.float64)
    H = spec.hidden
    state = np.tanh(w["bridge.weight"] @ np.concatenate([keys[-1, :H], keys[0, H:]]) + w["bridge.bias"])
    cell = [w[f"decoder.cell.{n}"] for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    prev, feed = 0, np.zeros_like(state)  # <bos>; Luong's h̃_0
    for i, char in enumerate(trace.output_tokens):
        e = w["decoder.embed.weight"][prev]
        if model == "bahdanau":
            np.testing.assert_allclose(trace.queries[i], state, atol=1e-5)  # s_{i-1}
            c = trace.weights[i] @ keys
            state = gru_cell(np.concatenate([e, c]), state, *cell)
            logits = w["decoder.out.weight"] @ np.concatenate([state, c, e]) + w["decoder.out.bias"]
        else:
            state = gru_cell(np.concatenate([e, feed]), state, *cell)
            np.testing.assert_allclose(trace.queries[i], state, atol=1e-5)  # h_t
            c = trace.weights[i] @ keys
            feed = np.tanh(
                w["decoder.combine.weight"] @ np.concatenate([c, state]) + w["decoder.combine.bias"]
            )
            logits = w["decoder.out.weight"] @ feed + w["decoder.out.bias"]
        prev = int(np.argmax(logits[1:])) + 1  # <bos> (0) is never an answer
        assert "0123456789-"[prev - 1] == char
    assert trace.output == "2018-05-09"


@pytest.mark.parametrize("model,scoring", GRU_PAIRS[::3])
def test_worked_arithmetic_applies_unchanged(model, scoring):
    trace = translate("9 mai 2018", model, scoring)
    core = trace.attention_trace()
    assert core.heads == 1 and core.weights.shape == (1, 10, 10)
    for i, j in [(0, 6), (5, 2), (9, 0)]:
        cell = work_cell(core, 0, i, j)
        assert cell.score.score == pytest.approx(float(trace.scores[i, j]), rel=1e-4, abs=1e-4)
        assert cell.softmax_weight == pytest.approx(float(trace.weights[i, j]), abs=1e-5)
        np.testing.assert_allclose(cell.output, trace.context[i], atol=1e-5)
    step = trace.step(4)
    assert step.output_token == trace.output[4]
    np.testing.assert_array_equal(step.weights, trace.weights[4])
