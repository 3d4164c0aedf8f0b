"""Broken decoder folders: one good tiny Llama (or GPT-2), one thing broken per case, one line back.

Each case is checked twice, as encoders' are (test_checks.py): ``load_model`` raises ModelError
naming the file at fault with a fix, and ``trace --model-dir`` exits 2 with that line and no file.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

from explorer.cli import main
from explorer.models import decoder_loader
from explorer.models.loader import ModelError, load_model
from tests.models import tiny

WEIGHTS = "model.safetensors"
Q1 = "model.layers.1.self_attn.q_proj.weight"


def config(**changes):
    def change(folder: Path) -> None:
        path = folder / "config.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in changes.items():
            if value is tiny.DELETE:
                data.pop(key, None)
            else:
                data[key] = value
        path.write_text(json.dumps(data), encoding="utf-8")

    return change


def edit_tensors(change):
    def damage(folder: Path) -> None:
        tensors = load_file(str(folder / WEIGHTS))
        change(tensors)
        save_file(tensors, str(folder / WEIGHTS))

    return damage


def set_value(name: str, value: float):
    def change(tensors):
        tensors[name] = tensors[name].clone()
        tensors[name].view(-1)[3] = value

    return edit_tensors(change)


def fewer_rows(folder: Path) -> None:
    """Embedding, LM head and config agree on 100 rows; the tokenizer makes larger ids."""
    config(vocab_size=100)(folder)

    def cut(tensors):
        for name in ("model.embed_tokens.weight", "lm_head.weight"):
            tensors[name] = tensors[name][:100].clone()

    edit_tensors(cut)(folder)


def rope(**params):
    return config(rope_parameters=None, rope_scaling=params)


LLAMA_CASES = [
    ("unknown rope scaling", rope(rope_type="longrope", factor=2.0), "config.json",
     ["rotary scaling 'longrope' is not supported", "default, linear, llama3, yarn, dynamic"]),
    ("made-up rope scaling", rope(type="stretchy", factor=2.0), "config.json", ["'stretchy'"]),
    ("rope scaling not an object", config(rope_parameters=None, rope_scaling="linear"), "config.json",
     ["rope_scaling is 'linear'"]),
    ("rope parameters not an object", config(rope_parameters=[1, 2]), "config.json",
     ["rope_parameters is [1, 2]"]),
    ("llama3 frequencies equal", rope(rope_type="llama3", factor=8.0, low_freq_factor=4.0, high_freq_factor=4.0),
     "config.json", ["high_freq_factor (4.0) above low_freq_factor (4.0)"]),
    ("linear scaling without a factor", rope(rope_type="linear"), "config.json", ["needs factor"]),
    ("llama3 without its frequencies", rope(rope_type="llama3", factor=8.0), "config.json",
     ["needs low_freq_factor"]),
    ("rope theta negative", config(rope_parameters={"rope_type": "default", "rope_theta": -5}), "config.json",
     ["rope_theta is -5"]),
    ("partial rotation", config(partial_rotary_factor=0.5), "config.json", ["partial_rotary_factor is 0.5"]),
    ("K/V heads do not divide", config(num_key_value_heads=3), "config.json",
     ["num_key_value_heads=3 does not divide num_attention_heads=4"]),
    ("K/V heads zero", config(num_key_value_heads=0), "config.json", ["num_key_value_heads is 0"]),
    ("head_dim against the weights", config(head_dim=16), WEIGHTS,
     ["q_proj.weight has 32 rows, 4 heads of 8", "head_dim=16"]),
    ("K/V heads against the weights", config(num_key_value_heads=4), WEIGHTS,
     ["k_proj.weight has 16 rows, 2 K/V heads of 8", "num_key_value_heads=4"]),
    ("head_dim odd", config(head_dim=7), "config.json", ["head_dim=7 is odd"]),
    ("epsilon a string", config(rms_norm_eps="small"), "config.json", ["rms_norm_eps is 'small'"]),
    ("flag not a boolean", config(tie_word_embeddings="yes"), "config.json",
     ["tie_word_embeddings is 'yes', not true or false"]),
    ("vocabulary smaller than the ids", fewer_rows, "tokenizer.json", ["has only 100 rows"]),
    ("NaN in a projection", set_value(Q1, math.nan), WEIGHTS, [Q1, "NaN or infinite"]),
    ("inf in the embeddings", set_value("model.embed_tokens.weight", math.inf), WEIGHTS,
     ["embed_tokens", "NaN or infinite"]),
    ("LM head missing", edit_tensors(lambda t: t.pop("lm_head.weight")), WEIGHTS,
     ["lacks the tensor lm_head.weight", "Llama"]),
    ("a layer too many", config(num_hidden_layers=2), WEIGHTS, ["holds 3 layers", "num_hidden_layers=2"]),
    ("width missing", config(hidden_size=tiny.DELETE), "config.json", ["lacks 'hidden_size'"]),
    # ten million layers took 19 minutes and 13 GB to be refused; 10**30 was a traceback
    ("layers beyond any model", config(num_hidden_layers=10_000_000), "config.json",
     ["num_hidden_layers is 10000000", "at most 1024"]),
    ("a 31-digit layer count", config(num_hidden_layers=10**30), "config.json", ["at most 1024"]),
    ("K/V heads beyond any model", config(num_key_value_heads=10**20), "config.json", ["at most 4096"]),
    ("activation unknown", config(hidden_act="mish"), "config.json", ["'mish' is not supported"]),
]  # fmt: skip
GPT2_CASES = [
    ("unscaled scores", config(scale_attn_weights=False), "config.json", ["scale_attn_weights is false"]),
    ("heads do not divide", config(n_head=5), "config.json", ["not divisible by 5 heads"]),
    ("layers beyond any model", config(n_layer=10**30), "config.json", ["n_layer is", "at most 1024"]),
    ("fused projection reshaped", edit_tensors(lambda t: t.__setitem__("transformer.h.0.attn.c_attn.weight", torch.zeros(32, 64))),
     WEIGHTS, ["transformer.h.0.attn.c_attn.weight is [32, 64]", "[32, 96]"]),
]  # fmt: skip


@pytest.fixture
def broken(decoder_folders, tmp_path, request):
    family, (_name, damage, _file, _words) = request.param
    folder = tiny.copy_folder(decoder_folders(family), tmp_path / family)
    damage(folder)
    return folder


CASES = [("llama", c) for c in LLAMA_CASES] + [("gpt2", c) for c in GPT2_CASES]


@pytest.mark.parametrize(
    "broken,file,words",
    [((family, c), c[2], c[3]) for family, c in CASES],
    ids=[c[0] for _, c in CASES],
    indirect=["broken"],
)
def test_each_problem_is_one_line_naming_the_file(broken, file, words, tmp_path, capsys):
    with pytest.raises(ModelError) as info:
        load_model(broken)
    message = str(info.value)
    assert "\n" not in message
    assert str(broken / file) in message, message
    assert ";" in message, f"no fix offered: {message}"
    for word in words:
        assert word in message, message
    out = tmp_path / "t.json"
    with pytest.raises(SystemExit) as exit_info:
        main(["trace", "--model-dir", str(broken), "--out", str(out)])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == f"error: {message}\n"
    assert not out.exists()


def test_a_folder_too_large_for_the_memory_is_refused_before_loading(decoder_folders, monkeypatch):
    folder = decoder_folders("llama")
    monkeypatch.setattr(decoder_loader, "available_memory", lambda: 100 * 2**20)
    read = []
    monkeypatch.setattr(decoder_loader, "check_decoder_tensors", lambda *a: read.append(a))
    with pytest.raises(ModelError) as info:
        load_model(folder)
    assert "needs about 0.5 GB of memory, and 0.1 GB are free" in str(info.value)
    assert not read, "no tensor may be read before the refusal"


def test_16_bit_weights_are_kept_as_stored_when_float32_copies_would_crowd_the_memory(
    decoder_folders, monkeypatch
):
    folder = decoder_folders("llama", dtype=torch.bfloat16)
    plenty = load_model(folder)
    assert plenty.weights.keep_float32
    stored = sum(t.numel() * 2 for t in load_file(str(folder / WEIGHTS)).values())
    # Enough for the mapped file and a layer at a time, not for float32 copies of everything.
    monkeypatch.setattr(
        decoder_loader, "available_memory", lambda: decoder_loader.WORKSPACE_BYTES + 3 * stored
    )
    tight = load_model(folder)
    assert not tight.weights.keep_float32 and tight.weights.stored_dtypes == {torch.bfloat16}
    ids = torch.tensor(tight.tokenizer.encode("the animal", 32).ids)
    from explorer.core.decoder_pass import logits, run_decoder

    torch.testing.assert_close(
        logits(tight, run_decoder(tight, ids).final),
        logits(plenty, run_decoder(plenty, ids).final),
        atol=0,
        rtol=0,
    )


@pytest.mark.parametrize("family,value", [("distilbert", True), ("bert", "yes")])
def test_is_decoder_that_cannot_be_honoured_is_refused(folders, tmp_path, family, value):
    folder = tiny.copy_folder(folders(family), tmp_path / family)
    tiny.edit_config(folder, is_decoder=value)
    with pytest.raises(ModelError, match="is_decoder is"):
        load_model(folder)


def test_trace_of_a_bert_that_says_decoder_is_causal(folders, tmp_path, capsys):
    """ "is_decoder": true on a BERT: the command computes every layer causally (as
    transformers' BertModel does) and the file says the model is causal; where the family
    cannot honour it (DistilBERT), one line and exit 2, no file."""
    import numpy as np

    out = tmp_path / "bert.npz"
    assert (
        main(
            ["trace", "--model-dir", str(folders("bert", is_decoder=True)), "--layer", "1", "--out", str(out)]
        )
        == 0
    )
    with np.load(out) as data:
        weights, mask = data["weights"], data["mask"]
    assert float(np.triu(weights, 1).max()) == 0.0 and not np.triu(mask, 1).any()
    earlier = np.tril(np.ones(mask.shape, dtype=bool))
    assert float(weights[:, earlier].min()) > 0.0  # every earlier key still gets a share
    folder = tiny.copy_folder(folders("distilbert"), tmp_path / "distilbert")
    tiny.edit_config(folder, is_decoder=True)
    capsys.readouterr()  # what building the folders wrote
    refused = tmp_path / "distilbert.npz"
    with pytest.raises(SystemExit) as exit_info:
        main(["trace", "--model-dir", str(folder), "--out", str(refused)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "is_decoder is True" in err
    assert not refused.exists()


def test_a_broken_tokenizer_is_named_first_though_the_weights_are_read_beside_it(decoder_folders, tmp_path):
    folder = tiny.copy_folder(decoder_folders("llama"), tmp_path / "llama")
    set_value(Q1, math.nan)(folder)  # the weights are broken too, and read while the tokenizer loads
    (folder / "tokenizer.json").write_text("{ not json", encoding="utf-8")
    with pytest.raises(ModelError) as info:
        load_model(folder)
    assert str(folder / "tokenizer.json") in str(info.value)
    assert "NaN" not in str(info.value)
