"""Tokenizers: vocab.txt-only BERT folders against transformers' BertTokenizer (both of them),
RoBERTa/XLM-R special tokens, their own unknown token, and truncation that keeps the end token."""

from __future__ import annotations

import json
import shutil

import pytest

from explorer.models.loader import ModelError, default_model_dir, load_model
from explorer.models.tokenizer import load_tokenizer
from tests.models import tiny

TEXTS = [
    "The animal didn't cross the street because it was too tired.",
    "这只动物没有过马路，因为它太累了。",
    "我爱北京天安门",
    "Café naïve résumé Ångström façade Zürich",
    "ÉCOLE élève Ñandú",
    "Jane visite l'Afrique en septembre [MASK] et [SEP] puis",
    "emoji 😀 and tabs\there",
    "a" * 150 + " supercalifragilisticexpialidocious",
    "",
]


@pytest.fixture(scope="module")
def minilm_vocab():
    return default_model_dir() / "vocab.txt"


def vocab_only_folder(tmp_path, vocab, lower: bool | None):
    folder = tmp_path / f"vocab-{lower}"
    folder.mkdir()
    shutil.copy(vocab, folder / "vocab.txt")
    if lower is not None:
        (folder / "tokenizer_config.json").write_text(json.dumps({"do_lower_case": lower}), encoding="utf-8")
    return folder


@pytest.mark.parametrize("lower", [True, False, None], ids=["lower-cased", "cased", "no tokenizer_config"])
def test_vocab_txt_equals_berttokenizer(transformers, tmp_path, minilm_vocab, lower):
    from transformers.models.bert.tokenization_bert_legacy import BertTokenizerLegacy

    folder = vocab_only_folder(tmp_path, minilm_vocab, lower)
    ours = load_tokenizer(folder, wordpiece_family=True)
    assert ours.source.name == "vocab.txt"
    expect_lower = True if lower is None else lower  # BertTokenizer's own default
    fast = transformers.BertTokenizer(str(minilm_vocab), do_lower_case=expect_lower)
    legacy = BertTokenizerLegacy(str(minilm_vocab), do_lower_case=expect_lower)
    for text in TEXTS:
        ids = ours.encode(text, 10_000).ids
        assert ids == fast(text)["input_ids"], text
        assert ids == legacy(text)["input_ids"], text
    cased_e = ours.encode("École", 100).tokens
    assert ("école" in " ".join(cased_e) or "ecole" in " ".join(cased_e)) == expect_lower


def test_vocab_txt_equals_the_shipped_tokenizer_json(minilm_vocab, tmp_path):
    built = load_tokenizer(vocab_only_folder(tmp_path, minilm_vocab, True), wordpiece_family=True)
    shipped = load_tokenizer(default_model_dir(), wordpiece_family=True)
    assert shipped.source.name == "tokenizer.json"
    for text in TEXTS:
        assert built.encode(text, 512) == shipped.encode(text, 512), text


def test_a_vocab_txt_model_folder_loads(folders, tmp_path, minilm_vocab):
    """config + weights + vocab.txt, no tokenizer.json: the loader builds the tokenizer."""
    folder = tiny.copy_folder(folders("bert"), tmp_path / "bert")
    vocab = [
        tok for tok, _ in sorted(load_model(folder).tokenizer._tok.get_vocab().items(), key=lambda kv: kv[1])
    ]
    (folder / "tokenizer.json").unlink()
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    model = load_model(folder)
    assert model.tokenizer.source.name == "vocab.txt"
    assert model.tokenizer.encode(tiny.SENTENCE, 512) == load_model(folders("bert")).tokenizer.encode(
        tiny.SENTENCE, 512
    )


@pytest.mark.parametrize("family", ["bert", "roberta", "xlm-roberta"])
def test_tokenizer_json_equals_transformers(transformers, folders, family):
    folder = folders(family)
    ours = load_model(folder).tokenizer
    theirs = transformers.AutoTokenizer.from_pretrained(str(folder))
    for text in [*TEXTS, tiny.SENTENCE]:
        assert ours.encode(text, 10_000).ids == theirs(text)["input_ids"], text


@pytest.mark.parametrize(
    "family,first,last,unk",
    [
        ("bert", "[CLS]", "[SEP]", "[UNK]"),
        ("roberta", "<s>", "</s>", None),
        ("xlm-roberta", "<s>", "</s>", "<unk>"),
    ],
)
def test_special_tokens_unknowns_and_truncation(folders, family, first, last, unk):
    tok = load_model(folders(family)).tokenizer
    assert tok.unk_token == unk or (family == "roberta" and tok.unk_token == "<unk>")
    enc = tok.encode("the animal 龘 street", 512)
    assert enc.tokens[0] == first and enc.tokens[-1] == last
    if family == "roberta":
        assert enc.unk_count == 0  # byte-level BPE spells every character with bytes
    else:
        assert enc.unk_count == 1
        assert f"{unk[:-1]}:龘{unk[-1]}" in enc.tokens
    long = tok.encode(" ".join(tiny.CORPUS), 12)
    assert len(long.ids) == 12 and long.original_length > 12
    assert long.tokens[0] == first and long.tokens[-1] == last
    assert long.ids[-1] == enc.ids[-1]


def test_unknown_count_survives_truncation(folders):
    tok = load_model(folders("xlm-roberta")).tokenizer
    enc = tok.encode("龘 龘 龘 the animal did not cross the street", 4)
    assert enc.tokens[-1] == "</s>" and len(enc.ids) == 4
    assert enc.unk_count == sum(t.startswith("<unk") for t in enc.tokens) >= 1


def test_missing_and_unbuildable_tokenizers(tmp_path, minilm_vocab):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ModelError, match="has no tokenizer \\(tokenizer.json or vocab.txt\\)"):
        load_tokenizer(empty, wordpiece_family=True)
    # RoBERTa's vocabulary is not WordPiece: vocab.txt would be read wrongly, so it is refused.
    shutil.copy(minilm_vocab, empty / "vocab.txt")
    with pytest.raises(ModelError, match="has no tokenizer \\(tokenizer.json\\)"):
        load_tokenizer(empty, wordpiece_family=False)
    no_cls = tmp_path / "no-cls"
    no_cls.mkdir()
    (no_cls / "vocab.txt").write_text("[UNK]\n[SEP]\nthe\n", encoding="utf-8")
    with pytest.raises(ModelError, match=r"vocab.txt lacks the \[CLS\] token"):
        load_tokenizer(no_cls, wordpiece_family=True)
