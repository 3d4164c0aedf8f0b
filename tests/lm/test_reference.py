"""The lab's GPT is GPT-2: transformers' GPT2LMHeadModel opens its folders and computes the same
logits (≤ 1e-4) and attention weights (≤ 1e-5, eager attention), and every attention is
explorer.core's ``attend`` (its stages equal torch's scaled_dot_product_attention)."""

import pytest
import torch
import torch.nn.functional as F

from explorer.lm.folders import load_folder, save_folder
from explorer.lm.model import GPT, GPTConfig
from explorer.lm.vocab import INDUCTION_VOCAB, CharVocab
from tests.lm.helpers import random_gpt

transformers = pytest.importorskip("transformers")


def hf_open(folder):
    return transformers.GPT2LMHeadModel.from_pretrained(str(folder), attn_implementation="eager").eval()


CASES = {
    "attention-only, untied (the lab's induction model)": {},
    "with MLPs, tied head (GPT-2's own layout)": {"mlp": True, "tie_word_embeddings": True},
    "3 layers, 2 heads, MLP 96 wide": {"n_layer": 3, "n_head": 2, "n_inner": 96, "mlp": True, "n_embd": 32},
}


@pytest.mark.parametrize("changes", CASES.values(), ids=CASES.keys())
def test_transformers_reads_the_folder_and_computes_the_same(tmp_path, changes):
    model = random_gpt(0, **changes)
    vocab = INDUCTION_VOCAB
    save_folder(tmp_path, model, vocab, {"task": "test"})
    reference = hf_open(tmp_path)
    ids = torch.randint(
        0, len(vocab.symbols), (3, model.config.n_positions), generator=torch.Generator().manual_seed(1)
    )
    with torch.no_grad():
        expected = reference(ids, output_attentions=True)
        ours = model(ids, record=True)
    assert (ours.logits - expected.logits).abs().max() <= 1e-4
    assert len(expected.attentions) == len(ours.layers) == model.config.n_layer
    for theirs, layer in zip(expected.attentions, ours.layers):
        assert (layer.stages.weights - theirs).abs().max() <= 1e-5
    # The folder reads back into the lab as the same model.
    back = load_folder(tmp_path)
    assert back.model.config == model.config and back.vocab == vocab
    with torch.no_grad():
        assert torch.equal(back.model(ids).logits, model(ids).logits)


def test_attention_only_means_zero_frozen_mlps_in_a_standard_file(tmp_path):
    model = GPT(GPTConfig(mlp=False))
    mlp = [p for name, p in model.named_parameters() if ".mlp." in name]
    assert mlp and all(not p.requires_grad and not p.any() for p in mlp)
    save_folder(tmp_path, model, INDUCTION_VOCAB)
    reference = hf_open(tmp_path)
    with torch.no_grad():  # transformers runs the MLPs; zero weights add exactly nothing
        ids = torch.arange(20)[None] % 64
        torch.testing.assert_close(model(ids).logits, reference(ids).logits, atol=1e-4, rtol=0)


def test_every_layer_attends_through_the_core_with_a_causal_mask():
    model = random_gpt(2)
    ids = torch.randint(0, 64, (2, 30), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        layers = model(ids, record=True).layers
    for record in layers:
        s = record.stages
        assert torch.equal(s.mask, torch.ones(30, 30, dtype=torch.bool).tril())
        assert s.weights.shape == (2, 4, 30, 30)
        assert not s.weights.triu(1).any()  # no position sees the future
        sdpa = F.scaled_dot_product_attention(s.q, s.k, s.v, is_causal=True)
        torch.testing.assert_close(s.head_outputs, sdpa, atol=1e-5, rtol=1e-5)


def test_the_character_tokenizer_is_a_tokenizers_file_transformers_reads(tmp_path):
    vocab = CharVocab.of_text("the cat sat\n小猫")
    model = GPT(GPTConfig(vocab_size=len(vocab)))
    save_folder(tmp_path, model, vocab)
    fast = transformers.PreTrainedTokenizerFast(tokenizer_file=str(tmp_path / "tokenizer.json"))
    text = "the cat\n小猫 sat"
    assert fast(text)["input_ids"] == vocab.encode(text)
    assert fast.decode(vocab.encode(text)) == text
    assert load_folder(tmp_path).vocab == vocab
