"""SE, CBAM and residual attention equal the papers' equations, re-implemented here in numpy.

Each reference below is written from the equations alone (float64, explicit loops over the
kernel offsets, no torch), then given the block's own weights; every kept stage must match.
"""

import numpy as np
import pytest
import torch

from explorer.vision.blocks import CBAMBlock, ResidualAttentionBlock, SEBlock
from explorer.vision.models import TinyCNN, VisionConfig


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def relu(x):
    return np.maximum(x, 0.0)


def cross_correlate(x, w, b=None):
    """out[n, o, i, j] = Σ_c Σ_u Σ_v w[o, c, u, v] · x[n, c, i + u − k//2, j + v − k//2] (+ b[o]), zeros outside."""
    n, c, h, wd = x.shape
    k = w.shape[-1]
    pad = k // 2
    xp = np.zeros((n, c, h + 2 * pad, wd + 2 * pad))
    xp[:, :, pad : pad + h, pad : pad + wd] = x
    out = np.zeros((n, w.shape[0], h, wd))
    for u in range(k):
        for v in range(k):
            patch = xp[:, :, u : u + h, v : v + wd]  # [n, c, h, w]
            out += np.einsum("oc,nchw->nohw", w[:, :, u, v], patch)
    return out if b is None else out + b[None, :, None, None]


def se_reference(x, w1, w2):
    n, c, h, w = x.shape
    z = x.sum(axis=(2, 3)) / (h * w)  # squeeze: z_c = 1/(H·W) Σ_i Σ_j u_c(i, j)
    hidden = relu(z @ w1.T)  # δ(W₁ z)
    s = sigmoid(hidden @ w2.T)  # s = σ(W₂ δ(W₁ z))
    return {"squeeze": z, "excitation_hidden": hidden, "excitation": s, "output": x * s[:, :, None, None]}


def cbam_reference(x, w0, w1, conv_w, conv_b):
    avg = x.mean(axis=(2, 3))
    mx = x.max(axis=(2, 3))

    def mlp(v):
        return relu(v @ w0.T) @ w1.T  # W₁(W₀ v) with a ReLU between

    mc = sigmoid(mlp(avg) + mlp(mx))  # M_c(F) = σ(MLP(AvgPool(F)) + MLP(MaxPool(F)))
    f1 = x * mc[:, :, None, None]  # F′ = M_c ⊗ F
    pooled = np.stack([f1.mean(axis=1), f1.max(axis=1)], axis=1)  # [AvgPool(F′); MaxPool(F′)] over channels
    logits = cross_correlate(pooled, conv_w, conv_b)[:, 0]  # f^{k×k}
    ms = sigmoid(logits)  # M_s(F′) = σ(f^{k×k}(...))
    return {
        "squeeze": avg,
        "squeeze_max": mx,
        "channel_weights": mc,
        "channel_refined": f1,
        "pooled_avg": pooled[:, 0],
        "pooled_max": pooled[:, 1],
        "spatial_logits": logits,
        "spatial_map": ms,
        "output": f1 * ms[:, None],  # F″ = M_s ⊗ F′
    }


def residual_reference(x, trunk_w, trunk_b, down_w, down_b, out_w, out_b):
    n, c, h, w = x.shape
    t = relu(cross_correlate(x, trunk_w, trunk_b))  # T(x)
    half = x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))  # max-pool 2×2
    down = relu(cross_correlate(half, down_w, down_b))
    up = down.repeat(2, axis=2).repeat(2, axis=3)  # nearest: each cell back over its 2×2 pixels
    m = sigmoid(cross_correlate(up, out_w, out_b))  # M(x) in (0, 1)
    return {"trunk": t, "mask_branch": m, "spatial_map": m.mean(axis=1), "output": (1 + m) * t}


def np64(t):
    return t.detach().double().numpy()


def run_block(block, x):
    keep = {}
    with torch.no_grad():
        out = block(torch.from_numpy(x).float(), keep)
    assert torch.equal(out, keep["output"])
    return {k: v.double().numpy() for k, v in keep.items()}


def random_maps(seed, n, c, h, w):
    rng = np.random.default_rng(seed)
    return np.maximum(rng.normal(0.3, 1.0, size=(n, c, h, w)), 0.0)  # post-ReLU-like features


def randomise(module, seed):
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * 0.5)


@pytest.mark.parametrize("c,r,h,w", [(16, 4, 8, 8), (32, 8, 5, 7), (6, 1, 3, 3), (8, 8, 1, 1)])
def test_se_block_equals_the_equations(c, r, h, w):
    block = SEBlock(c, r)
    randomise(block, c + r)
    x = random_maps(1, 3, c, h, w)
    got = run_block(block, x)
    want = se_reference(x, np64(block.w1.weight), np64(block.w2.weight))
    for name, value in want.items():
        np.testing.assert_allclose(got[name], value, atol=1e-5, rtol=1e-5, err_msg=name)
    np.testing.assert_array_equal(got["channel_weights"], got["excitation"])
    assert block.w1.weight.shape == (max(1, c // r), c)


@pytest.mark.parametrize(
    "c,r,k,h,w", [(16, 4, 7, 16, 16), (32, 2, 3, 8, 8), (8, 8, 1, 5, 9), (12, 3, 5, 3, 4)]
)
def test_cbam_block_equals_the_equations(c, r, k, h, w):
    block = CBAMBlock(c, r, k)
    randomise(block, c * k)
    x = random_maps(2, 2, c, h, w)
    got = run_block(block, x)
    want = cbam_reference(
        x, np64(block.w0.weight), np64(block.w1.weight), np64(block.spatial.weight), np64(block.spatial.bias)
    )
    for name, value in want.items():
        np.testing.assert_allclose(got[name], value, atol=2e-5, rtol=1e-5, err_msg=name)


@pytest.mark.parametrize("c,h,w", [(16, 16, 16), (4, 6, 10)])
def test_residual_attention_block_equals_the_equations(c, h, w):
    block = ResidualAttentionBlock(c)
    randomise(block, c)
    x = random_maps(3, 2, c, h, w)
    got = run_block(block, x)
    want = residual_reference(
        x,
        np64(block.trunk.weight),
        np64(block.trunk.bias),
        np64(block.mask_down.weight),
        np64(block.mask_down.bias),
        np64(block.mask_out.weight),
        np64(block.mask_out.bias),
    )
    for name, value in want.items():
        np.testing.assert_allclose(got[name], value, atol=2e-5, rtol=1e-5, err_msg=name)
    # (1 + M) · T never drops below the trunk: attention can only add.
    assert np.all(got["output"] >= got["trunk"] - 1e-7)


def test_the_head_pools_by_the_last_spatial_map():
    """CBAM: pooled = Σ F″ / Σ M_s; the other variants: the plain average over positions."""
    x = torch.rand(3, 3, 32, 32)
    for variant in ("plain", "se", "cbam", "residual"):
        model = TinyCNN(VisionConfig(variant=variant)).eval()
        keep = {}
        with torch.no_grad():
            logits = model(x, keep)
        last = {k: v.double().numpy() for k, v in keep["block3"].items()}
        if variant == "cbam":
            want = last["output"].sum(axis=(2, 3)) / last["spatial_map"].sum(axis=(1, 2))[:, None]
        else:
            want = last["output"].mean(axis=(2, 3))
        np.testing.assert_allclose(keep["head"]["pooled"].double().numpy(), want, rtol=1e-5, atol=1e-6)
        expected = want @ np64(model.classifier.weight).T + np64(model.classifier.bias)
        np.testing.assert_allclose(logits.double().numpy(), expected, rtol=1e-4, atol=1e-5)
