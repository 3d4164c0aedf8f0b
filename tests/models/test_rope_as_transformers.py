"""RoPE settings read as transformers reads them: the same config.json → the same ω_i.

Each variant of a Llama, Qwen2 and Mistral config.json (rope_parameters alone, the legacy
rope_scaling + rope_theta, both, "type" for "rope_type", each scaling kind, missing or null
values) is read by transformers' AutoConfig and by the explorer; the inverse frequencies and
yarn's cos/sin factor agree to 1e-6, and where transformers cannot build its rotary embedding
the explorer refuses the file by name.
"""

from __future__ import annotations

import json
import logging

import pytest
import torch

from explorer.models.decoder_config import read_decoder_config
from explorer.models.errors import ModelError
from explorer.models.rope import inverse_frequencies

BASE = {
    "hidden_size": 64,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "num_hidden_layers": 2,
    "intermediate_size": 64,
    "vocab_size": 100,
    "max_position_embeddings": 4096,
}
LLAMA3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0}
YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024}
LINEAR = {"rope_type": "linear", "factor": 2.0}
VARIANTS = {
    "nothing": {},
    "rope_theta alone": {"rope_theta": 5e5},
    "rope_parameters alone": {"rope_parameters": {"rope_type": "default", "rope_theta": 5e5}},
    "rope_parameters without theta": {"rope_parameters": {"rope_type": "default"}, "rope_theta": 5e5},
    "legacy rope_scaling and rope_theta": {"rope_scaling": LINEAR, "rope_theta": 5e5},
    "legacy without rope_theta": {"rope_scaling": LINEAR},
    "type, not rope_type": {"rope_scaling": {"type": "linear", "factor": 2.0}, "rope_theta": 5e5},
    "type dynamic": {"rope_scaling": {"type": "dynamic", "factor": 2.0}},
    "linear": {"rope_parameters": {"rope_type": "linear", "factor": 4.0, "rope_theta": 1e6}},
    "dynamic": {"rope_parameters": {"rope_type": "dynamic", "factor": 4.0}},
    "llama3": {"rope_parameters": {**LLAMA3, "original_max_position_embeddings": 512, "rope_theta": 5e5}},
    "llama3 legacy": {"rope_scaling": {**LLAMA3, "original_max_position_embeddings": 512}, "rope_theta": 5e5},
    "llama3 original at the top": {"rope_scaling": LLAMA3, "original_max_position_embeddings": 256},
    "llama3 without an original": {"rope_parameters": LLAMA3},
    "yarn": {"rope_parameters": {**YARN, "rope_theta": 1e6}},
    "yarn in full": {
        "rope_parameters": {
            **YARN,
            "beta_fast": 16,
            "beta_slow": 2,
            "mscale": 1.0,
            "mscale_all_dim": 0.5,
            "truncate": False,
        }
    },
    "yarn attention factor": {"rope_parameters": {**YARN, "attention_factor": 1.5}},
    "yarn factor null": {"rope_parameters": {**YARN, "factor": None}},
    "yarn without an original": {"rope_parameters": {"rope_type": "yarn", "factor": 4.0}},
    "yarn original at the top": {
        "rope_scaling": {"rope_type": "yarn", "factor": 4.0},
        "original_max_position_embeddings": 512,
    },
    "yarn betas zero": {"rope_parameters": {**YARN, "beta_fast": 0, "beta_slow": 0}},
    "yarn empty rope_scaling": {"rope_parameters": YARN, "rope_scaling": {}},
    # both: a non-empty rope_scaling wins (transformers' convert_rope_params_to_dict)
    "rope_scaling over rope_parameters": {
        "rope_parameters": {"rope_type": "default", "rope_theta": 5e5},
        "rope_scaling": {**LINEAR, "rope_theta": 2e4},
    },
    "rope_scaling over rope_parameters, theta at the top": {
        "rope_parameters": {"rope_type": "linear", "factor": 3.0},
        "rope_scaling": LINEAR,
        "rope_theta": 7e4,
    },
    "rope_scaling over empty rope_parameters": {"rope_parameters": {}, "rope_scaling": LINEAR},
    # a top-level original_max_position_embeddings wins over the rope settings' own
    "llama3 original in both places": {
        "rope_scaling": {**LLAMA3, "original_max_position_embeddings": 512},
        "original_max_position_embeddings": 256,
    },
    "yarn original in both places": {"rope_parameters": YARN, "original_max_position_embeddings": 512},
    "linear with an original": {"rope_parameters": {**LINEAR, "original_max_position_embeddings": "x"}},
    # refused by transformers too
    "rope_theta null": {"rope_theta": None},
    "rope_theta null in rope_parameters": {
        "rope_parameters": {"rope_type": "default", "rope_theta": None},
        "rope_theta": 5e5,
    },
    "yarn without a factor": {
        "rope_parameters": {"rope_type": "yarn", "original_max_position_embeddings": 1024}
    },
    "llama3 original null": {"rope_parameters": {**LLAMA3, "original_max_position_embeddings": None}},
    "yarn original null at the top": {"rope_parameters": YARN, "original_max_position_embeddings": None},
    "linear without a factor": {"rope_parameters": {"rope_type": "linear"}},
    "llama3 without its frequencies": {"rope_parameters": {"rope_type": "llama3", "factor": 8.0}},
    "unknown kind": {"rope_parameters": {"rope_type": "longrope", "factor": 2.0}},
}


def transformers_rope(folder):
    """transformers' ω_i, cos/sin factor and kind for the config.json in ``folder``, or None when
    it cannot build the rotary embedding from it."""
    from transformers import AutoConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    try:
        config = AutoConfig.from_pretrained(folder)
        kind = config.rope_parameters["rope_type"]
        if kind == "default":
            head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
            exponents = torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim
            return 1.0 / (config.rope_parameters["rope_theta"] ** exponents), 1.0, kind
        omega, factor = ROPE_INIT_FUNCTIONS[kind](config, "cpu")
    except Exception:  # KeyError, TypeError, huggingface_hub's validation error: none of them runs
        return None
    return omega, float(factor), kind


@pytest.mark.parametrize("family", ["llama", "qwen2", "mistral"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_rope_read_as_transformers_reads_it(family, variant, tmp_path, transformers):
    raw = {**BASE, "model_type": family, **VARIANTS[variant]}
    (tmp_path / "config.json").write_text(json.dumps(raw))
    logging.disable(logging.WARNING)  # transformers' warnings about the odd variants
    try:
        expected = transformers_rope(tmp_path)
    finally:
        logging.disable(logging.NOTSET)
    if expected is None:
        with pytest.raises(ModelError):
            read_decoder_config(tmp_path / "config.json", json.loads(json.dumps(raw)), family)
        return
    config = read_decoder_config(tmp_path / "config.json", json.loads(json.dumps(raw)), family)
    omega, factor, kind = expected
    assert config.rope.kind == kind
    ours = inverse_frequencies(config.rope, config.head_dim)
    assert ours.shape == omega.shape
    assert ((ours - omega).abs().max() / omega.abs().max()).item() <= 1e-6
    assert config.rope.cos_sin_factor() == pytest.approx(factor, abs=1e-6)
