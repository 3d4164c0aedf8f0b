"""Where nothing shows the entropy (a training step), attention leaves it out and makes fewer
passes over the scores: the weights, every other stage and the gradients stay the same numbers,
bit for bit, and the clamp that keeps the scores finite still clamps when a score lies outside."""

from __future__ import annotations

import pytest
import torch

from explorer.core.attention import (
    _FINITE,
    Projections,
    Settings,
    attend,
    keep_finite,
    normalise,
    normalise_with_entropy,
)

GEN = torch.Generator().manual_seed(3)
SHAPE = (2, 3, 6, 5)  # batch, heads, queries, keys


def _masks() -> dict[str, torch.Tensor]:
    everything = torch.ones(6, 5, dtype=torch.bool)
    empty_rows = everything.tril(-1)  # row 0 sees nothing
    return {"none": everything, "causal": everything.tril(), "rows with no key": empty_rows}


def _scores() -> dict[str, torch.Tensor]:
    base = torch.randn(SHAPE, generator=GEN)
    return {"random": base * 3, "wide": base * 80, "ties": torch.zeros(SHAPE)}


@pytest.mark.parametrize("kind", ["soft", "hard", "sample"])
def test_the_weights_alone_are_the_weights_beside_the_entropy(kind):
    settings = Settings(3, attention=kind, seed=2)
    for mask_name, mask in _masks().items():
        for name, scaled in _scores().items():
            where = f"{name}, mask {mask_name}"
            with torch.no_grad():
                assert torch.equal(
                    normalise(scaled, mask, settings), normalise_with_entropy(scaled, mask, settings)[0]
                ), where
            if kind != "soft":
                continue
            alone, beside = scaled.clone().requires_grad_(), scaled.clone().requires_grad_()
            pull = torch.randn(SHAPE, generator=GEN)
            weights = normalise(alone, mask, settings)
            reference = normalise_with_entropy(beside, mask, settings)[0]
            assert torch.equal(weights, reference), where
            (weights * pull).sum().backward()
            (reference * pull).sum().backward()
            assert alone.grad is not None and beside.grad is not None
            assert torch.equal(alone.grad, beside.grad), where


def _projections(width: int) -> Projections:
    def w(*shape: int) -> torch.Tensor:
        return (torch.randn(*shape, generator=GEN) / width**0.5).requires_grad_()

    square, vector = (width, width), (width,)
    return Projections(*(w(*square) for _ in range(4)), *(w(*vector) for _ in range(4)))


@pytest.mark.parametrize("grad", [False, True])
def test_attend_without_the_entropy_gives_every_other_stage_and_gradient(grad):
    proj = _projections(8)
    x = torch.randn(4, 7, 8, generator=GEN)
    runs = {}
    for entropy in (True, False):
        inputs = x.clone().requires_grad_(grad)
        with torch.set_grad_enabled(grad):
            stages = attend(inputs, inputs, proj, Settings(heads=2), entropy=entropy)
        if grad:
            stages.output.square().sum().backward()
        runs[entropy] = stages, inputs.grad
    (full, full_grad), (lean, lean_grad) = runs[True], runs[False]
    assert lean.entropy is None and full.entropy is not None and full.entropy.shape == (4, 2, 7)
    for name in ("q", "k", "v", "scores", "scaled", "mask", "weights", "head_outputs", "concat", "output"):
        assert torch.equal(getattr(lean, name), getattr(full, name)), name
    if grad:
        assert full_grad is not None and lean_grad is not None and torch.equal(lean_grad, full_grad)


def test_the_clamp_still_clamps_with_gradients_where_a_score_lies_outside():
    inside = torch.randn(3, 4, generator=GEN).requires_grad_()
    assert keep_finite(inside) is inside  # nothing to clamp: the same tensor, gradient 1
    outside = torch.tensor([1.0, 1e31, -float("inf"), float("nan"), -2.0, 3e38])
    for values in (outside, inside.detach()):
        mine, reference = values.clone().requires_grad_(), values.clone().requires_grad_()
        clamped = keep_finite(mine * 1)
        expected = (reference * 1).clamp(-_FINITE, _FINITE)
        torch.testing.assert_close(clamped, expected, equal_nan=True, rtol=0, atol=0)
        clamped.sum().backward()
        expected.sum().backward()
        assert mine.grad is not None and reference.grad is not None
        assert torch.equal(mine.grad, reference.grad)  # 0 where the clamp cut, 1 elsewhere
    with torch.no_grad():
        plain = outside.clone()
        assert keep_finite(plain) is plain and plain.abs().nan_to_num().max() <= _FINITE  # in place
