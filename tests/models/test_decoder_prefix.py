"""A pass that reuses an earlier text's first positions (their keys, values and hidden states)
equals the whole forward: a causal layer's earlier rows do not depend on what follows. The
engine takes the longest cached prefix, so a keystroke computes only the changed tokens."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer.core.config import AttentionConfig
from explorer.core.decoder_pass import Ablation, run_decoder
from explorer.core.engine import Engine
from explorer.models.loader import load_model
from tests.models import tiny_decoders as td

FAMILIES = [
    ("gpt2", {}),
    ("llama", {}),
    ("mistral", {"sliding_window": 3}),
    ("qwen2", {"use_sliding_window": True, "sliding_window": 4, "max_window_layers": 1}),
]


def assert_same(a, b):
    """Equal up to float32 rounding (fewer rows take another order of sums in a matrix product)."""
    for x, y in zip(a.hidden, b.hidden, strict=True):
        torch.testing.assert_close(x, y, atol=1e-4, rtol=1e-5)
    torch.testing.assert_close(a.final, b.final, atol=1e-4, rtol=1e-5)
    np.testing.assert_allclose(a.sink, b.sink, atol=1e-5, rtol=0)  # the bar for attention weights
    assert a.first_key is not None and b.first_key is not None
    np.testing.assert_allclose(a.first_key, b.first_key, atol=1e-5, rtol=0)
    for (k1, v1), (k2, v2) in zip(a.keys_values, b.keys_values, strict=True):
        torch.testing.assert_close(k1, k2, atol=1e-5, rtol=0)
        torch.testing.assert_close(v1, v2, atol=1e-5, rtol=0)


@pytest.mark.parametrize("family, options", FAMILIES, ids=[f for f, _ in FAMILIES])
def test_a_reused_prefix_gives_the_whole_forward(decoder_folders, family, options):
    model = load_model(decoder_folders(family, **options))
    ids = torch.tensor(model.tokenizer.encode(td.ENGLISH, 64).ids)
    assert len(ids) > 8
    whole = run_decoder(model, ids)
    other = ids.clone()
    other[6:] = (other[6:] + 1) % model.config.vocab_size  # the same first 6 tokens, another tail
    earlier = run_decoder(model, other)
    for p in (1, 5, 6):
        assert_same(run_decoder(model, ids, prefix=(earlier, p)), whole)
    shorter = run_decoder(model, ids[:6])  # the text before a character was typed
    assert_same(run_decoder(model, ids, prefix=(shorter, 6)), whole)


def test_the_prefix_is_not_taken_where_it_would_change_the_numbers(decoder_folders):
    model = load_model(decoder_folders("llama"))
    ids = torch.tensor(model.tokenizer.encode(td.ENGLISH, 64).ids)
    wrong = run_decoder(model, (ids + 1) % model.config.vocab_size)  # claimed, but not these ids
    off = Ablation(frozenset({(0, 0)}), "mean")  # a head's mean output is over the whole text
    assert not torch.allclose(run_decoder(model, ids, prefix=(wrong, 4)).final, run_decoder(model, ids).final)
    torch.testing.assert_close(
        run_decoder(model, ids, ablation=off, prefix=(wrong, 4)).final,
        run_decoder(model, ids, ablation=off).final,
    )
    kept = run_decoder(model, ids, keep_weights=[0], prefix=(wrong, 4))  # whole weights asked: all rows
    assert kept.weights[0].shape[-2:] == (len(ids), len(ids))


@pytest.mark.parametrize("family", ["gpt2", "qwen2"])
def test_typing_one_character_more_gives_a_fresh_engines_next_tokens(decoder_folders, family):
    folder = decoder_folders(family)
    typing, fresh = Engine(), Engine()
    text = td.ENGLISH
    for n in range(20, 27):
        config = AttentionConfig(sentence=text[:n], model_dir=str(folder), device="cpu", max_tokens=16)
        got = typing.next_tokens(config, 5, positions=[-1])
        fresh._passes.clear()
        want = fresh.next_tokens(config, 5, positions=[-1])
        assert [e["id"] for e in got[0]] == [e["id"] for e in want[0]]
        np.testing.assert_allclose(
            [e["probability"] for e in got[0]], [e["probability"] for e in want[0]], atol=1e-6, rtol=0
        )
    reused = [k for k in typing._passes]  # every keystroke's pass is cached beside the earlier ones
    assert len(reused) == 7
