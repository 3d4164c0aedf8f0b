"""Turning heads off zeroes exactly their outputs before W_O and changes nothing upstream."""

import numpy as np
import pytest
import torch

from explorer.lm import tasks
from explorer.lm.ablation import ablate, ablation_table
from explorer.lm.errors import LMError
from explorer.lm.model import GPT, GPTConfig
from tests.lm.helpers import random_gpt


@pytest.fixture(scope="module")
def model() -> GPT:
    return random_gpt(5)


IDS = torch.randint(0, 64, (2, 40), generator=torch.Generator().manual_seed(0))


def record(model, off=()):
    with torch.no_grad():
        return model(IDS, off=off, record=True)


def test_a_silenced_second_layer_head_outputs_zero_and_nothing_before_it_moves(model):
    intact, ablated = record(model), record(model, off=[(1, 2)])
    a0, b0 = intact.layers[0].stages, ablated.layers[0].stages
    for name in ("q", "k", "v", "weights", "head_outputs", "output"):
        assert torch.equal(getattr(a0, name), getattr(b0, name)), name  # layer 0 untouched
    a1, b1 = intact.layers[1].stages, ablated.layers[1].stages
    assert torch.equal(a1.weights, b1.weights)  # where it looks is unchanged: its values are zero
    assert not b1.head_outputs[:, 2].any()
    keep = [0, 1, 3]
    torch.testing.assert_close(b1.head_outputs[:, keep], a1.head_outputs[:, keep], atol=0, rtol=0)
    # The layer's output is W_O applied to the other heads' outputs alone.
    attn = model.transformer.h[1].attn
    w_o, d = attn.c_proj.weight, model.config.d_head
    expected = attn.c_proj.bias + sum(a1.head_outputs[:, h] @ w_o[h * d : (h + 1) * d] for h in keep)
    torch.testing.assert_close(b1.output, expected, atol=1e-5, rtol=1e-5)
    assert not torch.equal(intact.logits, ablated.logits)


def test_a_silenced_first_layer_head_changes_what_the_second_layer_reads(model):
    intact, ablated = record(model), record(model, off=[(0, 1)])
    assert torch.equal(intact.layers[0].stages.weights, ablated.layers[0].stages.weights)
    assert not ablated.layers[0].stages.head_outputs[:, 1].any()
    assert not torch.equal(intact.layers[1].x, ablated.layers[1].x)


def test_silencing_nothing_is_the_intact_model_and_every_head_off_leaves_embeddings_only(model):
    assert torch.equal(record(model).logits, record(model, off=[]).logits)
    everything = record(model, off=model.heads)
    for layer in everything.layers:
        assert not layer.stages.head_outputs.any()
    t = model.transformer
    x = t.wte(IDS) + t.wpe(torch.arange(40))
    for block in t.h:  # each block adds its W_O bias and nothing else (attention-only)
        x = x + block.attn.c_proj.bias
    with torch.no_grad():
        torch.testing.assert_close(
            everything.logits, t.ln_f(x) @ model.lm_head.weight.t(), atol=1e-5, rtol=1e-5
        )


def test_the_table_reports_each_head_and_its_change(model):
    period = 12
    probe = tasks.repeated_probe(np.random.default_rng(0), 4, period, 64)
    rows = ablation_table(model, probe, period)
    assert [r.heads for r in rows[: len(model.heads)]] == [(h,) for h in model.heads]
    row = ablate(model, probe, period, [(1, 0)])
    assert row == rows[4]
    assert row.label == "1.0"
    assert ablate(model, probe, period, []).change == 0.0


def test_a_head_that_does_not_exist_is_refused():
    with pytest.raises(LMError, match="head 2.0 does not exist: the model has 2 layers of 4 heads"):
        GPT(GPTConfig())(IDS, off=[(2, 0)])
