"""The vision transformer against independent references: torch's MultiheadAttention given the
same weights, the patches cut by hand, a whole forward pass re-written with torch's own layers,
and attention rollout re-computed from the per-layer weights with explicit loops."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.vision.shapes import generate
from explorer.vision.vit import CPU_CHUNK, ViTConfig, attention_weights, build_vit, to_patches
from explorer.vision.vit_measures import rollout
from explorer.vision.vit_trace import run_vit_model


def _trained_looking(config: ViTConfig, seed: int = 0):
    """A model whose weights are far from their initial values (every bias and norm non-trivial)."""
    model = build_vit(config, seed)
    gen = torch.Generator().manual_seed(seed + 100)
    with torch.no_grad():
        for p in model.parameters():
            noise = torch.randn(p.shape, generator=gen) * 0.3
            p.copy_(noise + 1.0 if p.ndim == 1 else noise)  # 1-D: the norms' scales and the biases
    return model.eval()


@pytest.mark.parametrize("heads", [1, 4])
def test_self_attention_equals_torch_multihead_attention(heads):
    config = ViTConfig(width=16, heads=heads, layers=1)
    attention = _trained_looking(config).layers[0].attention
    reference = torch.nn.MultiheadAttention(16, heads, batch_first=True)
    with torch.no_grad():
        reference.in_proj_weight.copy_(
            torch.cat([attention.w_q.weight, attention.w_k.weight, attention.w_v.weight])
        )
        reference.in_proj_bias.copy_(torch.cat([attention.w_q.bias, attention.w_k.bias, attention.w_v.bias]))
        reference.out_proj.weight.copy_(attention.w_o.weight)
        reference.out_proj.bias.copy_(attention.w_o.bias)
    x = torch.randn(3, config.tokens, 16, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        stages = attention(x)
        output, weights = reference(x, x, x, need_weights=True, average_attn_weights=False)
    torch.testing.assert_close(stages.weights, weights, atol=1e-6, rtol=0)
    torch.testing.assert_close(stages.output, output, atol=1e-5, rtol=0)
    # The training path (autograd on) gives the same numbers.
    with_grad = attention(x.clone().requires_grad_())
    torch.testing.assert_close(with_grad.output.detach(), output, atol=1e-5, rtol=0)


def test_patches_are_cut_in_reading_order():
    images = torch.randn(2, 3, 8, 8, generator=torch.Generator().manual_seed(2))
    patches = to_patches(images, 4)
    assert patches.shape == (2, 4, 48)
    for n in range(2):
        for r in range(2):
            for c in range(2):
                square = images[n, :, 4 * r : 4 * r + 4, 4 * c : 4 * c + 4]  # [3, 4, 4]
                assert torch.equal(patches[n, 2 * r + c], square.reshape(-1))


def test_the_forward_pass_equals_one_written_with_torch_layers():
    config = ViTConfig(width=16, heads=4, layers=2, mlp=24)
    model = _trained_looking(config, seed=3)
    images = torch.rand(2, 3, 32, 32, generator=torch.Generator().manual_seed(4))
    x = torch.cat(
        [model.cls.expand(2, -1, -1), to_patches(images, 4) @ model.embed.weight.T + model.embed.bias], 1
    )
    x = x + model.position
    for layer in model.layers:
        mha = torch.nn.MultiheadAttention(16, 4, batch_first=True)
        a = layer.attention
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.cat([a.w_q.weight, a.w_k.weight, a.w_v.weight]))
            mha.in_proj_bias.copy_(torch.cat([a.w_q.bias, a.w_k.bias, a.w_v.bias]))
            mha.out_proj.weight.copy_(a.w_o.weight)
            mha.out_proj.bias.copy_(a.w_o.bias)
            normed = F.layer_norm(x, (16,), layer.norm1.weight, layer.norm1.bias)
            x = x + mha(normed, normed, normed, need_weights=False)[0]
            hidden = F.gelu(
                F.linear(F.layer_norm(x, (16,), layer.norm2.weight, layer.norm2.bias), *_lin(layer.mlp[0]))
            )
            x = x + F.linear(hidden, *_lin(layer.mlp[2]))
    with torch.no_grad():
        expected = F.linear(
            F.layer_norm(x[:, 0], (16,), model.norm.weight, model.norm.bias), *_lin(model.classifier)
        )
        torch.testing.assert_close(model(images), expected, atol=1e-5, rtol=0)


def test_many_pictures_without_gradients_go_through_in_chunks_each_its_own_numbers():
    model = _trained_looking(ViTConfig(), seed=5).eval()
    images = torch.rand(CPU_CHUNK * 2 + 7, 3, 32, 32, generator=torch.Generator().manual_seed(6))
    calls = []
    model.layers[0].register_forward_hook(lambda _m, inputs, _out: calls.append(len(inputs[0])))
    with torch.no_grad():
        chunked = model(images)
        kept: dict = {}
        whole = model(images, kept)  # stages kept: the batch goes through at once
    assert calls == [CPU_CHUNK, CPU_CHUNK, 7, len(images)]
    torch.testing.assert_close(chunked, whole, atol=1e-5, rtol=0)
    one = model(images[-1:])  # gradients on, one picture: the same as in its chunk
    torch.testing.assert_close(one.detach(), chunked[-1:], atol=1e-5, rtol=0)


def _lin(layer):
    return layer.weight, layer.bias


def _rollout_by_loops(weights):
    """Abnar & Zuidema 2020, written out: per layer, average the heads, add the identity for the
    residual, renormalise each row; then R = Â_1, R ← Â_l · R for l = 2 … L."""
    layers, heads, n, _ = weights.shape
    result = None
    for layer in range(layers):
        mixed = np.zeros((n, n))
        for i in range(n):
            for j in range(n):
                mixed[i, j] = 0.5 * sum(weights[layer, h, i, j] for h in range(heads)) / heads + 0.5 * (
                    i == j
                )
            mixed[i] /= mixed[i].sum()
        if result is None:
            result = mixed
        else:
            result = np.array(
                [[sum(mixed[i, k] * result[k, j] for k in range(n)) for j in range(n)] for i in range(n)]
            )
    return result


def test_rollout_equals_a_recomputation_from_the_layers_weights():
    config = ViTConfig(patch=8, width=16, heads=2, layers=3)  # 16 patches + CLS: loops stay quick
    model = _trained_looking(config, seed=5)
    picture = generate(3)
    trace = run_vit_model(model, picture.image, object_mask=picture.mask)
    weights = np.stack([trace.stage("weights", name) for name in config.layer_names()])
    expected = _rollout_by_loops(weights.astype(np.float64))
    np.testing.assert_allclose(trace.arrays["rollout"], expected, atol=1e-12)
    np.testing.assert_allclose(trace.arrays["rollout_cls"], expected[0, 1:].reshape(4, 4), atol=1e-12)
    np.testing.assert_allclose(expected.sum(axis=1), 1.0)  # rows still sum to 1
    # One layer: rollout is that layer's mixed matrix; the batch form equals the one-picture form.
    np.testing.assert_allclose(rollout(weights[:1]), _rollout_by_loops(weights[:1]), atol=1e-12)
    keep = {}
    with torch.no_grad():
        model(torch.from_numpy(picture.image.transpose(2, 0, 1).copy())[None].repeat(2, 1, 1, 1), keep)
    batch = attention_weights(keep, config).numpy()
    np.testing.assert_allclose(rollout(batch)[1], expected, atol=1e-6)


def test_the_trace_keeps_every_stage_of_every_head():
    config = ViTConfig()
    model = _trained_looking(config, seed=6)
    picture = generate(8)
    trace = run_vit_model(model, picture.image, object_mask=picture.mask, label=picture.label)
    n, h, d_k = config.tokens, config.heads, config.width // config.heads
    for name in config.layer_names():
        s = trace.layers[name]
        assert s["Q"].shape == s["K"].shape == s["V"].shape == (h, n, d_k)
        assert s["scores"].shape == s["weights"].shape == (h, n, n)
        np.testing.assert_allclose(s["scaled"], s["scores"] / np.sqrt(d_k), rtol=1e-6)
        np.testing.assert_allclose(s["weights"].sum(axis=-1), 1.0, atol=1e-5)
        np.testing.assert_allclose(s["scores"], s["Q"] @ s["K"].transpose(0, 2, 1), atol=1e-4)
        np.testing.assert_allclose(s["head_outputs"], s["weights"] @ s["V"], atol=1e-5)
    # Each layer reads what the one before it wrote; the first reads the embedded patches.
    np.testing.assert_array_equal(trace.stage("input", "layer1"), trace.arrays["tokens"])
    np.testing.assert_array_equal(trace.stage("input", "layer2"), trace.stage("output", "layer1"))
    grid, cls_weight = trace.patch_attention("layer2", 3, patch=10)
    assert grid.shape == (8, 8) and grid.sum() + cls_weight == pytest.approx(1.0, abs=1e-5)
    assert grid[1, 2] == trace.stage("weights", "layer2")[3, 11, 11]  # patch 10 is row 1, column 2
    assert set(trace.object_share) == {"rollout", "layer1", "layer2"}
    for share in trace.object_share.values():
        assert 0.0 <= share <= 1.0
    np.testing.assert_allclose(
        trace.arrays["self_share"][1],
        np.diagonal(trace.stage("weights", "layer2"), axis1=1, axis2=2).mean(axis=1),
    )
