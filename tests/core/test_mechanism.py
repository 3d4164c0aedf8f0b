"""Scoring, scaling, masking and normalising, each against a small numpy reference."""

import numpy as np
import pytest

from explorer.core.config import MIN_TEMPERATURE, AttentionConfig, ConfigError, MaskSpec

SENTENCE = "the cat sat on the mat because it was warm"


def rand_cfg(**kw):
    return AttentionConfig(sentence=SENTENCE, weights="random", d_model=32, heads=4, **kw)


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_cosine_scores_equal_numpy(engine):
    t = engine.trace(rand_cfg(scoring="cosine", scale="none"))
    q = t.Q / np.linalg.norm(t.Q, axis=-1, keepdims=True)
    k = t.K / np.linalg.norm(t.K, axis=-1, keepdims=True)
    np.testing.assert_allclose(t.scores, q @ k.transpose(0, 2, 1), atol=1e-6)
    assert np.all(np.abs(t.scores) <= 1 + 1e-6)


def test_dot_scores_and_scales_equal_numpy(engine):
    t = engine.trace(rand_cfg(scale="sqrt"))
    np.testing.assert_allclose(t.scores, t.Q @ t.K.transpose(0, 2, 1), atol=1e-5)
    np.testing.assert_allclose(t.scaled, t.scores / np.sqrt(8), atol=1e-6)
    t = engine.trace(rand_cfg(scale="temperature", temperature=0.25))
    np.testing.assert_allclose(t.scaled, t.scores / 0.25, atol=1e-5)
    np.testing.assert_allclose(t.weights, softmax(t.scaled), atol=1e-6)


def test_general_and_additive_scores_equal_numpy(engine):
    t = engine.trace(rand_cfg(scoring="general"))
    W = t.scoring_params["general_W"]
    np.testing.assert_allclose(t.scores, t.Q @ W @ t.K.transpose(0, 2, 1), atol=1e-5)
    assert t.untrained == ["general_W"] and any("untrained" in n for n in t.notices)

    t = engine.trace(rand_cfg(scoring="additive"))
    W1, W2, v = (t.scoring_params[k] for k in ("additive_W1", "additive_W2", "additive_v"))
    for h in range(t.heads):
        hidden = np.tanh((t.Q[h] @ W1[h])[:, None, :] + (t.K[h] @ W2[h])[None, :, :])
        np.testing.assert_allclose(t.scores[h], hidden @ v[h], atol=1e-5)


def test_seeded_scoring_parameters_are_reproducible(engine):
    a = engine.trace(rand_cfg(scoring="additive", seed=3))
    b = engine.trace(rand_cfg(scoring="additive", seed=3))
    c = engine.trace(rand_cfg(scoring="additive", seed=4))
    np.testing.assert_array_equal(a.scores, b.scores)
    assert not np.allclose(a.scores, c.scores)


@pytest.mark.parametrize("attention", ["soft", "hard", "sample"])
def test_rows_sum_to_one_and_hard_rows_are_one_hot(engine, attention):
    t = engine.trace(rand_cfg(attention=attention, mask="causal"))
    np.testing.assert_allclose(t.weights.sum(-1), 1.0, atol=1e-6)
    assert np.all(t.weights[:, ~t.mask] == 0)
    if attention != "soft":
        assert set(np.unique(t.weights)) <= {0.0, 1.0}
        np.testing.assert_allclose(t.entropy, 0.0, atol=1e-6)


def test_hard_picks_argmax_with_ties_to_lowest_index(engine):
    t = engine.trace(
        AttentionConfig(
            sentence="same same same other", weights="identity", d_model=16, heads=1, attention="hard"
        )
    )
    # identical words have identical rows, so the first of equal maxima wins.
    masked = np.where(t.mask, t.scaled, -np.inf)
    np.testing.assert_array_equal(t.weights.argmax(-1), masked.argmax(-1))
    assert t.weights[0, 1].argmax() == 0


def test_sample_is_reproducible_for_a_seed(engine):
    a = engine.trace(rand_cfg(attention="sample", seed=7))
    b = engine.trace(rand_cfg(attention="sample", seed=7))
    np.testing.assert_array_equal(a.weights, b.weights)


def test_sample_frequencies_match_softmax():
    import torch

    from explorer.core.attention import Settings, normalise

    scaled = torch.log(torch.tensor([[[0.1, 0.2, 0.7]]]))
    mask = torch.ones(1, 3, dtype=torch.bool)
    counts = sum(normalise(scaled, mask, Settings(1, attention="sample", seed=s))[0, 0] for s in range(3000))
    np.testing.assert_allclose(counts.numpy() / 3000, [0.1, 0.2, 0.7], atol=0.03)


@pytest.mark.parametrize(
    "mask,visible",
    [
        ("causal", lambda i, j: j <= i),
        ("window:2", lambda i, j: abs(i - j) <= 2),
        ("window:0", lambda i, j: i == j),
        ("valid:4", lambda i, j: j < 4),
    ],
)
def test_masks(engine, mask, visible):
    t = engine.trace(rand_cfg(mask=mask))
    expected = np.array([[visible(i, j) for j in range(t.n_key)] for i in range(t.n_query)])
    np.testing.assert_array_equal(t.mask, expected)
    assert np.all(t.weights[:, ~t.mask] == 0)
    # Scores are kept for every pair, so the view can show what the mask hides.
    assert np.all(np.isfinite(t.scaled))


def test_fully_masked_rows_are_zero_and_finite(engine):
    t = engine.trace(rand_cfg(mask="valid:0"))
    assert not t.mask.any()
    assert np.all(t.weights == 0) and np.all(t.head_outputs == 0) and np.all(t.entropy == 0)
    assert any("valid:0" in n for n in t.notices)
    # A causal cross-attention with more queries than keys keeps every row visible;
    # a valid length beyond the sentence shows everything and says so.
    t = engine.trace(rand_cfg(mask="valid:99"))
    assert t.mask.all() and any("beyond" in n for n in t.notices)


def test_entropy_in_nats(engine):
    t = engine.trace(rand_cfg())
    w = t.weights
    np.testing.assert_allclose(t.entropy, -(w * np.log(w)).sum(-1), atol=1e-5)
    uniform = engine.trace(AttentionConfig(sentence="a a a a", weights="identity", d_model=8, heads=2))
    np.testing.assert_allclose(uniform.entropy, np.log(4), atol=1e-5)


def test_identity_weights_make_q_k_v_equal_x(engine):
    t = engine.trace(AttentionConfig(sentence=SENTENCE, weights="identity", d_model=16, heads=2))
    x_heads = t.X_key.reshape(t.n_key, 2, 8).transpose(1, 0, 2)
    for m in (t.Q, t.K, t.V):
        np.testing.assert_array_equal(m, x_heads)
    np.testing.assert_allclose(t.output, t.concat, atol=1e-6)


def test_random_weights_are_seeded(engine):
    a = engine.trace(rand_cfg(seed=1))
    b = engine.trace(rand_cfg(seed=1))
    np.testing.assert_array_equal(a.output, b.output)
    assert not np.allclose(a.output, engine.trace(rand_cfg(seed=2)).output)
    assert a.tokens_key == SENTENCE.split()


def test_the_smallest_temperature_stays_finite_and_one_hot(engine):
    t = engine.trace(rand_cfg(scale="temperature", temperature=MIN_TEMPERATURE))
    for name in ("scaled", "weights", "output", "entropy"):
        assert np.all(np.isfinite(getattr(t, name))), name
    # softmax(s / τ) near τ → 0: (nearly) all the weight on each row's largest score, shared by a
    # repeated word's equal keys (a τ so small that the scaled scores were clamped to one value
    # gave uniform rows)
    expected = softmax(t.scores.astype(np.float64) / MIN_TEMPERATURE)
    assert expected.max() == 1.0 and (expected < 1.0).any()  # one-hot rows and shared ones
    np.testing.assert_allclose(t.weights, expected, atol=1e-5)


@pytest.mark.parametrize(
    "kw,message",
    [
        (dict(sentence="   "), "empty"),
        (dict(scale="temperature", temperature=0.0), "temperature"),
        (dict(temperature=-1.0), "temperature"),
        (dict(temperature=float("nan")), "temperature"),
        (dict(temperature=float("inf")), "temperature"),
        (dict(temperature=MIN_TEMPERATURE / 2), "at least 0.000001"),
        (dict(temperature=1e-45), "at least 0.000001"),
        (dict(mask="window:-1"), "0 or more"),
        (dict(mask="diagonal"), "not one of"),
        (dict(scoring="euclid"), "scoring"),
        (dict(heads=0), "heads"),
        (dict(d_model=0), "d_model"),
    ],
)
def test_invalid_configs_are_refused(kw, message):
    with pytest.raises(ConfigError, match=message):
        AttentionConfig(**kw)


def test_heads_that_do_not_divide_the_width(engine):
    with pytest.raises(ConfigError, match="do not divide the width 32; choose one of 1, 2, 4, 8, 16, 32"):
        engine.trace(rand_cfg().with_(heads=5))


def test_mask_spec_round_trip():
    for text in ("none", "causal", "window:3", "valid:0"):
        assert str(MaskSpec.parse(text)) == text


def test_cuda_or_mps_absent_falls_back_with_notice(engine):
    import torch

    for device in ("cuda", "mps"):
        available = torch.cuda.is_available() if device == "cuda" else torch.backends.mps.is_available()
        t = engine.trace(rand_cfg(device=device))
        if available:
            assert t.device.startswith(device)
        else:
            assert t.device == "cpu" and any(device.upper() in n for n in t.notices)


def test_control_characters_and_emoji(engine):
    t = engine.trace(AttentionConfig(sentence="hi\x00 there 😀 שלום", weights="random"))
    assert "\x00" not in "".join(t.tokens_key)
    assert any("control character" in n for n in t.notices)
    t = engine.trace(AttentionConfig(sentence="hi\x00 there 😀 שלום"))
    assert np.all(np.isfinite(t.output))
    with pytest.raises(ConfigError):
        engine.trace(AttentionConfig(sentence="\x00\x01"))


@pytest.mark.parametrize("text", ["valid:٣", "window:３", "valid:1٣"])
def test_mask_sizes_are_ascii_digits(text):
    """int() reads any Unicode digit: valid:٣ (Arabic-Indic 3) was taken as valid:3 (engineer 8 C2)."""
    with pytest.raises(ConfigError, match="mask"):
        MaskSpec.parse(text)
