"""The decoder's few-row products equal F.linear: the same sums, taken in another order."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from explorer.models.decoder import BLOCK_ROWS, FEW_ROWS, linear


@pytest.mark.parametrize("rows", [1, 2, 3, 4, 16, FEW_ROWS, FEW_ROWS + 1])
@pytest.mark.parametrize("with_bias", [True, False])
@pytest.mark.parametrize("width", [96, 600], ids=["tall weight", "wide weight (blocks)"])
def test_few_rows_give_f_linear(rows, with_bias, width):
    gen = torch.Generator().manual_seed(rows)
    weight = torch.randn(2 * BLOCK_ROWS + 37, width, generator=gen)  # a last block shorter than the others
    bias = torch.randn(weight.shape[0], generator=gen) if with_bias else None
    x = torch.randn(rows, width, generator=gen)
    tol = 1e-5 * width / 96  # float32 rounding of a sum grows with its length (600 terms: ~1.5e-5)
    torch.testing.assert_close(linear(x, weight, bias), F.linear(x, weight, bias), atol=tol, rtol=tol)
    strided = torch.randn(width, rows, generator=gen).T  # a transposed view, as a product before may give
    torch.testing.assert_close(
        linear(strided, weight, bias), F.linear(strided, weight, bias), atol=tol, rtol=tol
    )


def test_other_shapes_are_f_linear():
    weight, x = torch.randn(8, 4), torch.randn(2, 3, 4)  # batched input: left to F.linear
    torch.testing.assert_close(linear(x, weight, None), F.linear(x, weight))
