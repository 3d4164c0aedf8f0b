"""GPT-2 folders: written atomically, read back whole, and every damaged one refused in one line."""

import json

import pytest
import torch
from safetensors.torch import load_file, save_file

from explorer.lm.errors import LMError
from explorer.lm.folders import CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE, load_folder, save_folder
from explorer.lm.model import GPT, GPTConfig
from explorer.lm.vocab import INDUCTION_VOCAB
from tests.lm.helpers import random_gpt


@pytest.fixture
def folder(tmp_path):
    save_folder(tmp_path / "m", random_gpt(0), INDUCTION_VOCAB, {"task": "induction", "seed": 0})
    return tmp_path / "m"


def test_a_folder_holds_three_files_and_its_record(folder):
    assert sorted(p.name for p in folder.iterdir()) == [CONFIG_FILE, WEIGHTS_FILE, TOKENIZER_FILE]
    config = json.loads((folder / CONFIG_FILE).read_text())
    assert config["model_type"] == "gpt2" and config["n_layer"] == 2 and config["n_head"] == 4
    assert config["attention_explorer"] == {"mlp": False, "task": "induction", "seed": 0}
    names = set(load_file(str(folder / WEIGHTS_FILE)))
    assert "transformer.h.1.attn.c_attn.weight" in names and "lm_head.weight" in names
    loaded = load_folder(folder)
    assert loaded.record["task"] == "induction" and not loaded.model.training


def test_older_gpt2_files_without_the_prefix_and_with_mask_buffers_open(tmp_path):
    model = random_gpt(1, tie_word_embeddings=True)
    save_folder(tmp_path, model, INDUCTION_VOCAB)
    state = load_file(str(tmp_path / WEIGHTS_FILE))
    old = {name.removeprefix("transformer."): t for name, t in state.items()}
    old["h.0.attn.bias"] = torch.ones(1, 1, 48, 48).tril()
    old["lm_head.weight"] = state["transformer.wte.weight"].clone()
    save_file(old, str(tmp_path / WEIGHTS_FILE))
    ids = torch.arange(30)[None] % 64
    with torch.no_grad():
        assert torch.equal(load_folder(tmp_path).model(ids).logits, model(ids).logits)


def rewrite_config(folder, **changes):
    config = json.loads((folder / CONFIG_FILE).read_text())
    config.update(changes)
    (folder / CONFIG_FILE).write_text(json.dumps(config))


BAD = {
    "not a folder": (lambda f: f / CONFIG_FILE, "is not a folder"),
    "no config": (lambda f: (f / CONFIG_FILE).unlink() or f, "no GPT-2 model in"),
    "config not JSON": (
        lambda f: (f / CONFIG_FILE).write_text("{") and f,
        "config.json cannot be read as JSON",
    ),
    "a BERT": (
        lambda f: rewrite_config(f, model_type="bert") or f,
        "does not describe a GPT-2 (model_type 'bert')",
    ),
    "other activation": (
        lambda f: rewrite_config(f, activation_function="relu") or f,
        "activation_function = 'relu' is a GPT-2 variant the lab cannot run",
    ),
    "impossible sizes": (
        lambda f: rewrite_config(f, n_head=5) or f,
        "cannot be built: 5 heads do not divide",
    ),
    "negative size": (lambda f: rewrite_config(f, n_layer=-1) or f, "n_layer must be a whole number from 1"),
    "no weights": (lambda f: (f / WEIGHTS_FILE).unlink() or f, "model.safetensors is missing"),
    "weights not tensors": (
        lambda f: (f / WEIGHTS_FILE).write_bytes(b"not a safetensors file") and f,
        "model.safetensors cannot be read",
    ),
    "weights that do not fit": (
        lambda f: save_file({"transformer.wte.weight": torch.zeros(3, 3)}, str(f / WEIGHTS_FILE)) or f,
        "does not fit its config.json",
    ),
    "NaN in the weights": (
        lambda f: nan_weights(f) or f,
        "the tensor transformer.h.0.ln_1.weight holds values",
    ),
    "untied head that should be tied": (lambda f: untie(f) or f, "lm_head.weight is not wte.weight"),
}


def nan_weights(folder):
    state = load_file(str(folder / WEIGHTS_FILE))
    state["transformer.h.0.ln_1.weight"][3] = float("nan")
    save_file(state, str(folder / WEIGHTS_FILE))


def untie(folder):
    rewrite_config(folder, tie_word_embeddings=True)


@pytest.mark.parametrize("damage", BAD.values(), ids=BAD.keys())
def test_damaged_folders_are_refused_with_one_line(folder, damage):
    make, message = damage
    with pytest.raises(LMError) as caught:
        load_folder(make(folder))
    text = str(caught.value)
    assert message in text and "\n" not in text and caught.value.message.key.startswith("lm.")


def test_a_record_that_says_attention_only_over_trained_mlps_is_not_believed(tmp_path):
    model = random_gpt(2, mlp=True)
    save_folder(tmp_path, model, INDUCTION_VOCAB)
    rewrite_config(tmp_path, attention_explorer={"mlp": False})
    ids = torch.arange(20)[None]
    loaded = load_folder(tmp_path)
    assert loaded.model.config.mlp
    with torch.no_grad():
        assert torch.equal(loaded.model(ids).logits, model(ids).logits)


def test_a_tokenizer_that_is_not_the_labs_leaves_the_vocabulary_unknown(folder):
    (folder / TOKENIZER_FILE).write_text('{"model": {"type": "BPE", "vocab": {}}}')
    assert load_folder(folder).vocab is None


def test_sizes_are_checked_before_any_tensor_is_made():
    with pytest.raises(LMError, match="n_embd must be a whole number from 1 to 1024, not 0"):
        GPTConfig(n_embd=0)
    with pytest.raises(LMError, match="the text has 49 tokens; this model reads at most 48"):
        GPT(GPTConfig())(torch.zeros(49, dtype=torch.long))
