"""The entropy that comes out of the softmax pass, H = ln Z − Σ p·s, equals the definition
−Σ p ln p (torch.special.entr) on every kind of row, and the weights equal torch's softmax."""

from __future__ import annotations

import pytest
import torch

from explorer.core import attention
from explorer.core.attention import (
    Settings,
    normalise,
    normalise_with_entropy,
    row_entropy,
    softmax_with_entropy,
)
from explorer.core.config import AttentionConfig

GEN = torch.Generator().manual_seed(0)


def reference(scaled: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Softmax over the visible keys, zero rows where none is visible, then −Σ p ln p."""
    weights = torch.softmax(scaled.double().masked_fill(~mask, float("-inf")), dim=-1)
    weights = torch.nan_to_num(weights, nan=0.0)  # softmax over nothing: 0/0
    return weights, torch.special.entr(weights).sum(-1)


def masks(n_q: int, n_k: int) -> dict[str, torch.Tensor]:
    everything = torch.ones(n_q, n_k, dtype=torch.bool)
    some_rows_empty = everything.tril(-1)  # row 0 sees nothing
    some_rows_empty[n_q // 2] = False
    return {
        "none": everything,
        "causal": everything.tril(),
        "window": (torch.arange(n_q)[:, None] - torch.arange(n_k)[None, :]).abs() <= 1,
        "some rows empty": some_rows_empty,
        "every row empty": torch.zeros(n_q, n_k, dtype=torch.bool),
        "random": torch.rand(n_q, n_k, generator=GEN) < 0.5,
    }


def inputs(heads: int, n_q: int, n_k: int) -> dict[str, torch.Tensor]:
    base = torch.randn(heads, n_q, n_k, generator=GEN)
    one_hot = torch.full((heads, n_q, n_k), -1e30)
    one_hot[..., 0] = 1e30  # hard rows: the clamp's extremes, as a tiny τ makes them
    return {
        "random": base * 3,
        "tiny tau": (base / 1e-6).clamp(-1e30, 1e30),  # scores / τ, clamped like attend_heads
        "one-hot": one_hot,
        "ties": torch.zeros(heads, n_q, n_k),  # uniform rows: H = ln(visible keys)
        "wide": base * 80,  # exp underflows to 0 for most keys
    }


@pytest.mark.parametrize("block_cells", [None, 7, 64])
@pytest.mark.parametrize("shape", [(1, 1, 1), (2, 5, 7), (4, 33, 17)])
def test_fused_entropy_equals_the_definition(monkeypatch, shape, block_cells):
    if block_cells:  # rows in many blocks, run on the block threads
        monkeypatch.setattr(attention, "BLOCK_CELLS", block_cells)
    for input_name, scaled in inputs(*shape).items():
        for mask_name, mask in masks(*shape[1:]).items():
            weights, entropy = softmax_with_entropy(scaled, mask)
            ref_weights, ref_entropy = reference(scaled, mask)
            where = f"{input_name}, mask {mask_name}"
            assert torch.isfinite(weights).all() and torch.isfinite(entropy).all(), where
            torch.testing.assert_close(weights.double(), ref_weights, atol=1e-6, rtol=0, msg=where)
            torch.testing.assert_close(entropy, row_entropy(weights), atol=1e-5, rtol=0, msg=where)
            torch.testing.assert_close(entropy.double(), ref_entropy, atol=1e-5, rtol=0, msg=where)
            with_grad = softmax_with_entropy(scaled.clone().requires_grad_(), mask)  # training's path
            torch.testing.assert_close(with_grad[0].double(), ref_weights, atol=1e-6, rtol=0, msg=where)
            torch.testing.assert_close(with_grad[1].double(), ref_entropy, atol=1e-5, rtol=0, msg=where)


def test_uniform_rows_have_entropy_ln_n():
    scaled = torch.zeros(2, 3, 6)
    mask = torch.ones(3, 6, dtype=torch.bool).tril(2)  # rows see 3, 4 and 5 keys
    _, entropy = softmax_with_entropy(scaled, mask)
    torch.testing.assert_close(entropy, torch.log(torch.tensor([3.0, 4.0, 5.0])).expand(2, 3))


@pytest.mark.parametrize("attention_kind", ["hard", "sample"])
def test_one_hot_attention_has_zero_entropy_and_zero_masked_rows(attention_kind):
    scaled = torch.randn(3, 6, 5, generator=GEN)
    mask = masks(6, 5)["some rows empty"]
    weights, entropy = normalise_with_entropy(scaled, mask, Settings(3, attention=attention_kind, seed=4))
    assert set(weights.unique().tolist()) <= {0.0, 1.0}
    torch.testing.assert_close(weights.sum(-1), mask.any(-1).float().expand(3, 6))
    torch.testing.assert_close(entropy, row_entropy(weights))
    assert torch.equal(normalise(scaled, mask, Settings(3, attention=attention_kind, seed=4)), weights)


def test_hard_matches_argmax_of_the_visible_keys():
    scaled = torch.randn(2, 4, 6, generator=GEN)
    mask = masks(4, 6)["causal"]
    weights = normalise(scaled, mask, Settings(2, attention="hard"))
    expected = torch.nn.functional.one_hot(scaled.masked_fill(~mask, float("-inf")).argmax(-1), 6)
    assert torch.equal(weights, expected.float())


def test_gradients_flow_where_training_needs_them():
    scaled = torch.randn(2, 4, 5, generator=GEN, requires_grad=True)
    mask = masks(4, 5)["some rows empty"]
    weights, entropy = softmax_with_entropy(scaled, mask)
    (weights[..., 0].sum() + entropy.sum()).backward()
    assert scaled.grad is not None and torch.isfinite(scaled.grad).all()
    with torch.no_grad():
        fused = softmax_with_entropy(scaled, mask)
    torch.testing.assert_close(fused[0], weights.detach(), atol=1e-6, rtol=0)
    torch.testing.assert_close(fused[1], entropy.detach(), atol=1e-5, rtol=0)


@pytest.mark.parametrize("attention_kind", ["soft", "hard", "sample"])
@pytest.mark.parametrize("mask", ["none", "causal", "valid:0", "window:1"])
def test_engine_entropy_is_the_entropy_of_its_weights(engine, attention_kind, mask):
    config = AttentionConfig(
        sentence="one two three four five six", weights="random", attention=attention_kind, mask=mask
    )
    trace = engine.trace(config.with_(scale="temperature", temperature=1e-6))  # tiny τ too
    for t in (engine.trace(config), trace):
        expected = torch.special.entr(torch.from_numpy(t.weights)).sum(-1).numpy()
        assert abs(t.entropy - expected).max() <= 1e-5


@pytest.mark.parametrize("mode", ["inference_mode", "no_grad"])
def test_block_threads_keep_the_callers_autograd_mode(monkeypatch, mode):
    """Blocks run on other threads; inference tensors must still be written there."""
    monkeypatch.setattr(attention, "BLOCK_CELLS", 64)
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # the blocks go to two threads, even on a one-core machine
    try:
        with getattr(torch, mode)():
            scaled = torch.randn(3, 40, 30, generator=GEN)
            mask = masks(40, 30)["causal"]
            weights, entropy = softmax_with_entropy(scaled, mask)
    finally:
        torch.set_num_threads(before)
    ref_weights, ref_entropy = reference(scaled, mask)
    torch.testing.assert_close(weights.double(), ref_weights, atol=1e-6, rtol=0)
    torch.testing.assert_close(entropy.double(), ref_entropy, atol=1e-5, rtol=0)
