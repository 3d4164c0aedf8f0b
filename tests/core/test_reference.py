"""The staged pipeline against torch's own attention and the d2l book's MultiHeadAttention."""

import math

import pytest
import torch
import torch.nn.functional as F

from explorer.core.attention import Settings, attend, merge_heads, split_heads
from explorer.core.config import MaskSpec
from tests.core.conftest import random_projections

TOL = 1e-5


@pytest.mark.parametrize(
    "heads,n_q,n_k,width", [(1, 3, 3, 8), (4, 7, 7, 32), (8, 16, 16, 512), (3, 5, 9, 48)]
)
def test_soft_dot_sqrt_equals_sdpa(heads, n_q, n_k, width):
    torch.manual_seed(heads * 100 + n_q)
    xq, xk = torch.randn(n_q, width), torch.randn(n_k, width)
    proj = random_projections(width, seed=heads)
    stages = attend(xq, xk, proj, Settings(heads))

    q = split_heads(F.linear(xq, proj.w_q, proj.b_q), heads)
    k = split_heads(F.linear(xk, proj.w_k, proj.b_k), heads)
    v = split_heads(F.linear(xk, proj.w_v, proj.b_v), heads)
    expected_out = F.scaled_dot_product_attention(q, k, v)
    expected_w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(width // heads), -1)
    torch.testing.assert_close(stages.head_outputs, expected_out, atol=TOL, rtol=0)
    torch.testing.assert_close(stages.weights, expected_w, atol=TOL, rtol=0)


@pytest.mark.parametrize("mask", ["causal", "window:1", "valid:3"])
def test_masks_equal_sdpa_with_boolean_mask(mask):
    torch.manual_seed(1)
    heads, n, width = 4, 6, 32
    x = torch.randn(n, width)
    proj = random_projections(width, seed=2)
    stages = attend(x, x, proj, Settings(heads, mask=MaskSpec.parse(mask)))
    expected = F.scaled_dot_product_attention(stages.q, stages.k, stages.v, attn_mask=stages.mask)
    torch.testing.assert_close(stages.head_outputs, expected, atol=TOL, rtol=0)
    assert torch.all(stages.weights[:, ~stages.mask] == 0), "masked keys must get exactly zero weight"


@pytest.mark.parametrize("heads,width,n_q,n_k", [(12, 384, 10, 10), (5, 100, 4, 6), (2, 16, 3, 8)])
def test_equals_multihead_attention(heads, width, n_q, n_k):
    torch.manual_seed(width)
    mha = torch.nn.MultiheadAttention(width, heads, batch_first=True, bias=True).eval()
    with torch.no_grad():
        mha.in_proj_bias.normal_(0, 0.1)
        mha.out_proj.bias.normal_(0, 0.1)
    w_q, w_k, w_v = mha.in_proj_weight.detach().chunk(3)
    b_q, b_k, b_v = mha.in_proj_bias.detach().chunk(3)
    from explorer.core.attention import Projections

    proj = Projections(w_q, w_k, w_v, mha.out_proj.weight.detach(), b_q, b_k, b_v, mha.out_proj.bias.detach())
    xq, xk = torch.randn(n_q, width), torch.randn(n_k, width)

    stages = attend(xq, xk, proj, Settings(heads))
    with torch.no_grad():
        out, weights = mha(xq[None], xk[None], xk[None], need_weights=True, average_attn_weights=False)
    torch.testing.assert_close(stages.output, out[0], atol=TOL, rtol=0)
    torch.testing.assert_close(stages.weights, weights[0], atol=TOL, rtol=0)


class D2LMultiHeadAttention(torch.nn.Module):
    """The book's MultiHeadAttention (bias-free projections, masked softmax with -1e6), batched."""

    def __init__(self, num_hiddens, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.W_q, self.W_k, self.W_v, self.W_o = (
            torch.nn.Linear(num_hiddens, num_hiddens, bias=False) for _ in range(4)
        )

    def transpose_qkv(self, x):
        x = x.reshape(x.shape[0], x.shape[1], self.num_heads, -1).permute(0, 2, 1, 3)
        return x.reshape(-1, x.shape[2], x.shape[3])

    def forward(self, queries, keys, values, valid_lens):
        q, k, v = (
            self.transpose_qkv(self.W_q(queries)),
            self.transpose_qkv(self.W_k(keys)),
            self.transpose_qkv(self.W_v(values)),
        )
        valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
        keep = torch.arange(scores.shape[-1])[None, None, :] < valid_lens[:, None, None]
        weights = torch.softmax(scores.masked_fill(~keep, -1e6), dim=-1)
        out = weights @ v
        out = out.reshape(-1, self.num_heads, out.shape[1], out.shape[2]).permute(0, 2, 1, 3)
        return self.W_o(out.reshape(out.shape[0], out.shape[1], -1)), weights


def test_d2l_multihead_example():
    """num_hiddens 100, 5 heads, batch 2, 4 queries, 6 key-value pairs, valid_lens [3, 2]."""
    torch.manual_seed(0)
    num_hiddens, num_heads, batch, n_q, n_kv = 100, 5, 2, 4, 6
    d2l = D2LMultiHeadAttention(num_hiddens, num_heads).eval()
    X, Y = torch.randn(batch, n_q, num_hiddens), torch.randn(batch, n_kv, num_hiddens)
    valid_lens = torch.tensor([3, 2])
    with torch.no_grad():
        expected, expected_w = d2l(X, Y, Y, valid_lens)

    from explorer.core.attention import Projections

    proj = Projections(
        d2l.W_q.weight.detach(), d2l.W_k.weight.detach(), d2l.W_v.weight.detach(), d2l.W_o.weight.detach()
    )
    outputs = []
    for b in range(batch):
        stages = attend(X[b], Y[b], proj, Settings(num_heads, mask=MaskSpec("valid", int(valid_lens[b]))))
        outputs.append(stages.output)
        n_valid = int(valid_lens[b])
        assert torch.all(stages.weights[..., n_valid:] == 0)
        torch.testing.assert_close(
            stages.weights, expected_w[b * num_heads : (b + 1) * num_heads], atol=TOL, rtol=0
        )
    output = torch.stack(outputs)
    assert output.shape == (2, 4, 100)
    torch.testing.assert_close(output, expected, atol=TOL, rtol=0)


def test_split_and_merge_heads_are_inverse():
    x = torch.arange(24.0).view(3, 8)
    heads = split_heads(x, 4)
    assert heads.shape == (4, 3, 2)
    assert heads[1, 0].tolist() == [2.0, 3.0], "head 1 owns columns 2..3"
    torch.testing.assert_close(merge_heads(heads), x)
