"""Every decoder family against transformers' own causal LM (eager attention), on every layer.

Each tiny folder is built by transformers and read by the explorer's loader; the explorer's
forward (every layer's attention through the staged attention) must give transformers'
attention weights within 1e-5 on every layer and head, and its next-token logits within 1e-4,
on English, Chinese (split into byte tokens) and a 300-token text.
"""

from __future__ import annotations

import json

import pytest
import torch
from safetensors import safe_open

from explorer.core.decoder_pass import Ablation, logits, next_tokens, run_decoder
from explorer.models.decoder import PretrainedDecoder
from explorer.models.loader import load_model
from tests.models import tiny_decoders as td

ATTENTION_TOLERANCE, LOGIT_TOLERANCE = 1e-5, 1e-4
FAMILIES = ["gpt2", "llama", "llama3", "mistral", "qwen2"]


def differences(model, folder, text: str, limit: int = 300, ref=None) -> tuple[float, float, int]:
    """(attention, logits): the largest |ours − transformers| over every layer, head and position."""
    ids = model.tokenizer.encode(text, limit).ids
    theirs_attention, theirs_logits = td.reference_outputs(ref or td.reference(folder), ids)
    ours = run_decoder(model, torch.tensor(ids), keep_weights=range(model.config.num_hidden_layers))
    assert len(theirs_attention) == model.config.num_hidden_layers
    attention = max(float((ours.weights[i] - a).abs().max()) for i, a in enumerate(theirs_attention))
    return attention, float((logits(model, ours.final) - theirs_logits).abs().max()), len(ids)


@pytest.mark.parametrize("text", list(td.TEXTS))
@pytest.mark.parametrize("family", FAMILIES)
def test_every_layer_and_the_logits_equal_transformers(decoder_folders, family, text):
    folder = decoder_folders(family)
    model = load_model(folder)
    assert isinstance(model, PretrainedDecoder) and model.is_decoder
    attention, logit, n = differences(model, folder, td.TEXTS[text])
    assert attention < ATTENTION_TOLERANCE and logit < LOGIT_TOLERANCE
    if text == "long":
        assert n == 300


def test_the_tiny_folders_are_what_they_claim(decoder_folders):
    """GQA really shares K/V heads, GPT-2 really stores a fused Conv1D, the head is tied or not."""
    llama = load_model(decoder_folders("llama"))
    assert (llama.config.num_attention_heads, llama.config.num_key_value_heads) == (4, 2)
    with safe_open(str(decoder_folders("llama") / "model.safetensors"), framework="pt") as f:
        names = set(f.keys())
    assert "model.layers.0.self_attn.k_proj.weight" in names and "lm_head.weight" in names
    gpt2 = decoder_folders("gpt2")
    with safe_open(str(gpt2 / "model.safetensors"), framework="pt") as f:
        assert f.get_slice("transformer.h.0.attn.c_attn.weight").get_shape() == [td.WIDTH, 3 * td.WIDTH]
    assert load_model(gpt2).config.tie_word_embeddings


@pytest.mark.parametrize(
    "family,changes",
    [
        ("llama", {"head_dim": 16}),  # head_dim apart from hidden / heads: q_proj is 64 × 32
        ("llama", {"num_key_value_heads": 1}),  # multi-query attention
        ("llama", {"num_key_value_heads": 4}),  # no sharing
        ("llama", {"tie_word_embeddings": True}),
        ("llama", {"attention_bias": True, "mlp_bias": True}),
        ("llama", {"rope_theta": 500.0}),
        ("llama", {"rope_scaling": {"rope_type": "linear", "factor": 4.0}}),
        ("llama", {"rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}),
        (
            "llama",
            {
                "rope_scaling": {
                    "rope_type": "llama3",
                    "factor": 8.0,
                    "low_freq_factor": 1.0,
                    "high_freq_factor": 4.0,
                    "original_max_position_embeddings": 64,
                }
            },
        ),  # fmt: skip
        (
            "llama",
            {"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 100}},
        ),
        ("llama", {"hidden_act": "gelu_pytorch_tanh"}),
        ("mistral", {"sliding_window": 3}),
        ("mistral", {"sliding_window": None}),
        ("qwen2", {"use_sliding_window": True, "sliding_window": 4, "max_window_layers": 1}),
        ("qwen2", {"tie_word_embeddings": True}),
        ("gpt2", {"scale_attn_by_inverse_layer_idx": True}),
        ("gpt2", {"reorder_and_upcast_attn": True}),
        ("gpt2", {"activation_function": "relu"}),
    ],
    ids=lambda v: v if isinstance(v, str) else ",".join(f"{k}={v}" for k, v in v.items())[:60],
)
def test_variants_equal_transformers(decoder_folders, family, changes):
    folder = decoder_folders(family, **changes)
    model = load_model(folder)
    ref = td.reference(folder)
    for text in (td.ENGLISH, td.CHINESE):
        attention, logit, _ = differences(model, folder, text, ref=ref)
        assert attention < ATTENTION_TOLERANCE and logit < LOGIT_TOLERANCE, changes


def test_the_sliding_window_is_a_real_mask(decoder_folders):
    model = load_model(decoder_folders("mistral", sliding_window=3))
    assert model.config.sliding_windows == (3, 3, 3)
    ids = torch.tensor(model.tokenizer.encode(td.ENGLISH, 64).ids)
    weights = run_decoder(model, ids, keep_weights=[0]).weights[0]
    i, j = torch.meshgrid(torch.arange(len(ids)), torch.arange(len(ids)), indexing="ij")
    outside = (j > i) | (i - j >= 3)
    assert float(weights[:, outside].abs().max()) == 0.0
    assert float(weights[:, ~outside].min()) > 0.0
    qwen = load_model(
        decoder_folders("qwen2", use_sliding_window=True, sliding_window=4, max_window_layers=1)
    )
    assert qwen.config.sliding_windows == (None, 4, 4)  # layers from max_window_layers on slide


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("keep_float32", [True, False], ids=["float32 copies", "per layer"])
def test_half_precision_weights_compute_in_float32(decoder_folders, dtype, keep_float32):
    folder = decoder_folders("qwen2", dtype=dtype)
    model = load_model(folder)
    label = str(dtype).removeprefix("torch.")
    assert f"{label} weights, computed in float32" in model.description
    if not keep_float32:  # the other memory plan: the same numbers
        from explorer.models.decoder import DecoderWeights, find_tensors
        from explorer.models.loader import read_weights

        stored = read_weights(folder)[1]
        model.weights = DecoderWeights(model.config, find_tensors(model.config, stored).tensors, False)
        assert model.weights.stored_dtypes == {dtype}
    assert model.weights.layer(0).w_q.dtype == torch.float32
    attention, logit, _ = differences(model, folder, td.ENGLISH)
    assert attention < ATTENTION_TOLERANCE and logit < LOGIT_TOLERANCE


def test_next_tokens_are_the_softmax_of_the_logits(decoder_folders):
    model = load_model(decoder_folders("llama"))
    ids = torch.tensor(model.tokenizer.encode(td.ENGLISH, 64).ids)
    final = run_decoder(model, ids).final
    full = torch.softmax(logits(model, final), dim=-1)
    top = next_tokens(model, final, k=5)
    expected, expected_ids = full.topk(5, dim=-1)
    torch.testing.assert_close(torch.from_numpy(top.probabilities), expected, atol=1e-6, rtol=0)
    assert (top.ids == expected_ids.numpy()).all()


def test_next_tokens_read_the_table_in_blocks(decoder_folders, monkeypatch):
    """A vocabulary read block by block (as a 151,936-token one is) gives the same top-k."""
    model = load_model(decoder_folders("gpt2"))
    ids = torch.tensor(model.tokenizer.encode(td.ENGLISH, 64).ids)
    final = run_decoder(model, ids).final
    whole = next_tokens(model, final, k=7)
    table = model.weights.top("lm_head")
    monkeypatch.setattr(
        model.weights,
        "lm_head_chunks",
        lambda rows=16384: ((s, table[s : s + 50]) for s in range(0, len(table), 50)),
    )
    blocks = next_tokens(model, final, k=7)
    assert (blocks.ids == whole.ids).all()
    torch.testing.assert_close(torch.from_numpy(blocks.probabilities), torch.from_numpy(whole.probabilities))


@pytest.mark.parametrize("mode", ["zero", "mean"])
def test_ablation_replaces_the_head_output_before_w_o(decoder_folders, mode):
    """Turning a head off equals transformers' forward with that head's slice of o_proj's
    input replaced, as a forward pre-hook does it (an independent route to the same numbers)."""
    folder = decoder_folders("llama")
    model, ref = load_model(folder), td.reference(folder)
    ids = model.tokenizer.encode(td.ENGLISH, 64).ids
    layer, head, d = 1, 2, model.config.head_dim

    def hook(module, args):
        (x,) = args
        x = x.clone()
        part = x[..., head * d : (head + 1) * d]
        x[..., head * d : (head + 1) * d] = 0.0 if mode == "zero" else part.mean(dim=1, keepdim=True)
        return (x,)

    handle = ref.model.layers[layer].self_attn.o_proj.register_forward_pre_hook(hook)
    try:
        with torch.no_grad():
            expected = ref(torch.tensor([ids])).logits[0]
    finally:
        handle.remove()
    ours = run_decoder(model, torch.tensor(ids), ablation=Ablation(frozenset({(layer, head)}), mode))
    assert float((logits(model, ours.final) - expected).abs().max()) < LOGIT_TOLERANCE
    plain = run_decoder(model, torch.tensor(ids))
    assert float((logits(model, ours.final) - logits(model, plain.final)).abs().max()) > 1e-3


def test_a_bert_config_that_says_decoder_is_computed_causally(folders):
    """ "is_decoder": true: transformers' BertModel attends causally, and so does the explorer."""
    from tests.models import tiny

    folder = folders("bert", is_decoder=True)
    model = load_model(folder)
    assert model.config.causal
    ids = model.tokenizer.encode(tiny.SENTENCE, 512).ids
    attention, hidden = tiny.largest_differences(model, tiny.reference(folder), ids)
    assert attention < 1e-5 and hidden < 1e-5
    probs = model.encoder.attention_probs(
        model.encoder.hidden_states(torch.tensor(ids))[0], model.encoder.layers[0]
    )
    assert float(probs.triu(1).abs().max()) == 0.0


def test_gpt2_folders_with_bare_names_load(decoder_folders, tmp_path):
    """GPT2Model.save_pretrained (no "transformer." prefix, no lm_head) and OpenAI's own layout."""
    from safetensors.torch import load_file, save_file

    from tests.models import tiny

    source = decoder_folders("gpt2")
    folder = tiny.copy_folder(source, tmp_path / "bare")
    tensors = load_file(str(folder / "model.safetensors"))
    bare = {k.removeprefix("transformer."): v for k, v in tensors.items() if k != "lm_head.weight"}
    bare["h.0.attn.bias"] = torch.ones(1, 1, td.POSITIONS, td.POSITIONS)  # an old causal-mask buffer
    save_file(bare, str(folder / "model.safetensors"))
    model = load_model(folder)
    attention, logit, _ = differences(model, source, td.ENGLISH)
    assert attention < ATTENTION_TOLERANCE and logit < LOGIT_TOLERANCE


def test_description_names_the_family_and_says_causal(decoder_folders):
    model = load_model(decoder_folders("llama"))
    assert model.name == decoder_folders("llama").name  # the folder's name
    assert (
        model.description == f"{model.name} (Llama, causal, 3 layers × 4 heads sharing 2 K/V heads, 32 wide)"
    )
    assert "(GPT-2, causal, 3 layers × 4 heads, 32 wide)" in load_model(decoder_folders("gpt2")).description


def test_missing_rope_theta_defaults_as_transformers_does(decoder_folders, tmp_path):
    from tests.models import tiny

    folder = tiny.copy_folder(decoder_folders("llama"), tmp_path / "no-theta")
    config = json.loads((folder / "config.json").read_text())
    for key in ("rope_theta", "rope_parameters", "rope_scaling"):
        config.pop(key, None)
    (folder / "config.json").write_text(json.dumps(config))
    model = load_model(folder)
    assert model.config.rope.theta == 10_000.0
    assert any("rope_theta missing" in note for note in model.notes)
    attention, logit, _ = differences(model, folder, td.ENGLISH)
    assert attention < ATTENTION_TOLERANCE and logit < LOGIT_TOLERANCE
