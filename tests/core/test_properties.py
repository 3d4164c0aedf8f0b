"""Property tests: any valid configuration and text gives finite numbers in every stage."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.core.config import AttentionConfig
from explorer.core.trace import STAGE_ARRAYS

texts = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(
    lambda s: any(not ch.isspace() and ord(ch) >= 32 for ch in s) and any(ch.isalnum() for ch in s)
)
masks = st.one_of(
    st.sampled_from(["none", "causal"]),
    st.builds(lambda k: f"window:{k}", st.integers(0, 6)),
    st.builds(lambda n: f"valid:{n}", st.integers(0, 12)),
)

configs = st.builds(
    AttentionConfig,
    sentence=texts,
    query=st.one_of(st.just(""), texts),
    scoring=st.sampled_from(["dot", "cosine", "additive", "general"]),
    scale=st.sampled_from(["none", "sqrt", "temperature"]),
    temperature=st.floats(1e-6, 1e3),
    heads=st.sampled_from([None, 1, 2, 4, 8]),
    attention=st.sampled_from(["soft", "hard", "sample"]),
    mask=masks,
    weights=st.sampled_from(["pretrained", "random", "identity"]),
    layer=st.integers(0, 5),
    d_model=st.sampled_from([8, 16, 24]),
    seed=st.integers(0, 2**31 - 1),
)


def check_trace(t):
    for name in STAGE_ARRAYS:
        arr = getattr(t, name)
        if arr.dtype != bool:
            assert np.all(np.isfinite(arr)), f"{name} has NaN or inf"
    assert np.all(t.weights[:, ~t.mask] == 0)
    row_sums = t.weights.sum(-1)
    visible = t.mask.any(-1)
    np.testing.assert_allclose(row_sums[:, visible], 1.0, atol=1e-5)
    np.testing.assert_array_equal(row_sums[:, ~visible], 0.0)
    assert t.weights.shape == (t.heads, t.n_query, t.n_key)
    assert t.output.shape[0] == t.n_query


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs)
def test_every_stage_is_finite(engine, config):
    check_trace(engine.trace(config))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([1, 2, 4, 8]), st.sampled_from(["soft", "hard", "sample"]))
def test_zero_vectors_under_cosine(engine, heads, attention):
    # identity weights on a zero embedding: every q and k is the zero vector.
    import torch

    from explorer.core.attention import Projections, Settings, attend

    x = torch.zeros(3, 8)
    eye = torch.eye(8)
    stages = attend(
        x, x, Projections(eye, eye, eye, eye), Settings(heads, scoring="cosine", attention=attention)
    )
    for name in ("scores", "weights", "output", "entropy"):
        assert torch.isfinite(getattr(stages, name)).all()
    torch.testing.assert_close(stages.weights.sum(-1), torch.ones(heads, 3))
