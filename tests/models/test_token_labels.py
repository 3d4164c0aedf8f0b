"""Token labels, the same for every family: real tokenizer.json files built here with `tokenizers`.

Byte tokens that do not make a whole character are labelled with the character and which of
its bytes they hold ("我 1/3"), never as mojibake; a word-start mark (Ġ, ▁) is one quiet ␣;
special tokens and WordPiece pieces are shown as they are spelled.
"""

from __future__ import annotations

import json

import pytest

from explorer.models.token_labels import SPACE_MARK, label_bytes
from explorer.models.tokenizer import load_tokenizer, set_ends
from tests.models import tiny_decoders as td

pytest.importorskip("transformers", reason="transformers is in the test extra")

# GPT-2's printable stand-ins for bytes: none of them may reach a label unless the text has it.
STAND_INS = set("ĠĊĉ") | {chr(c) for c in range(0x100, 0x144)} | set("âĢæĪĳçĪ±")


def folder_with(tmp_path, tok, **settings):
    td.save_tokenizer(tok, tmp_path, **settings)
    return load_tokenizer(tmp_path, wordpiece_family=False)


def test_split_characters_are_labelled_with_their_bytes():
    # 我 is E6 88 91: two tokens holding bytes 1–2 and 3, then a space and "a".
    assert label_bytes(["我".encode()[:2], "我".encode()[2:] + b" a"]) == ["我 1–2/3", "我 3/3 ␣a"]
    assert label_bytes([b"\xe6", b"\x88", b"\x91"]) == ["我 1/3", "我 2/3", "我 3/3"]
    assert label_bytes([b"line\n", b"\ttab"]) == ["line↵", "⇥tab"]
    assert label_bytes([b"\xff"]) == ["<0xFF>"]  # a byte that is no character's
    assert label_bytes(["😀".encode()]) == ["😀"]


def test_control_characters_are_labelled_by_their_code():
    # GPT-2 has a token for each control byte; their control pictures (␜) are boxes in most fonts
    assert label_bytes([b"\x1c", b"a\x1b", b"\x00", b"\x7f"]) == ["\\x1C", "a\\x1B", "\\x00", "\\x7F"]
    assert label_bytes(["\u0085".encode()]) == ["\\x85"]  # a C1 control the same way


def test_byte_level_bpe(tmp_path):
    tok = folder_with(tmp_path, td.byte_level_tokenizer(["<|endoftext|>"]))
    text = "the animal 我爱北京\nok"
    encoded = tok.encode(text, 100)
    assert "Ġanimal" in encoded.pieces and f"{SPACE_MARK}animal" in encoded.tokens
    assert not STAND_INS & set("".join(encoded.tokens)), encoded.tokens
    # Whole characters joined back give the text (word starts as ␣, new lines as ↵).
    whole = [t for t in encoded.tokens if "/" not in t]
    fragments = [t for t in encoded.tokens if "/" in t]
    assert all(t.split(" ")[-1].count("/") == 1 for t in fragments)
    assert {t.split(" ")[0] for t in fragments} <= set("我爱北京")
    assert "".join(whole).startswith("the␣animal␣")
    # A token on its own (a next-token candidate): a lone byte is a byte, not mojibake.
    lone = tok.label(encoded.ids[encoded.tokens.index(fragments[0])])
    assert lone.startswith("<0x") or lone in "我爱北京"


def test_byte_fallback_pieces(tmp_path):
    tok = folder_with(
        tmp_path, td.byte_fallback_tokenizer(), bos_token="<s>", eos_token="</s>", unk_token="<unk>"
    )
    encoded = tok.encode("the animal 我", 100)
    assert encoded.pieces[:3] == ["<s>", "▁the", "▁animal"]
    assert encoded.tokens[:3] == ["<s>", "␣the", "␣animal"]
    assert encoded.pieces[-3:] == ["<0xE6>", "<0x88>", "<0x91>"]
    assert encoded.tokens[-3:] == ["我 1/3", "我 2/3", "我 3/3"]


def test_unigram_marks_of_the_multilingual_kind(tmp_path):
    from tests.models import tiny

    tiny._unigram_tokenizer(tmp_path)
    tok = load_tokenizer(tmp_path, wordpiece_family=False)
    encoded = tok.encode("Think about 我爱", 100)
    assert "▁" not in "".join(encoded.tokens), encoded.tokens
    assert all(t.startswith(SPACE_MARK) for p, t in zip(encoded.pieces, encoded.tokens) if p.startswith("▁"))
    assert encoded.tokens[0] == "<s>" and encoded.tokens[-1] == "</s>"


def test_wordpiece_pieces_stay_as_spelled(tmp_path):
    from tests.models import tiny

    tiny._bert_tokenizer(tmp_path)
    tok = load_tokenizer(tmp_path, wordpiece_family=True)
    encoded = tok.encode("the animal 动物", 100)
    assert encoded.tokens == encoded.pieces and encoded.tokens[0] == "[CLS]"


@pytest.mark.parametrize(
    "template,add_bos,first",
    [(True, None, "<s>"), (True, False, "▁the"), (False, True, "<s>"), (False, None, "▁the")],
    ids=["template", "config says no", "config says yes", "neither"],
)
def test_bos_as_the_config_says(tmp_path, template, add_bos, first):
    settings = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
    td.save_tokenizer(td.byte_fallback_tokenizer(add_bos_template=template), tmp_path, **settings)
    config = json.loads((tmp_path / "tokenizer_config.json").read_text())
    config.pop("add_bos_token", None)
    if add_bos is not None:
        config["add_bos_token"] = add_bos
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config))
    tok = load_tokenizer(tmp_path, wordpiece_family=False)
    set_ends(tok, tmp_path, bos_id=1, eos_ids=(2,))
    encoded = tok.encode("the animal", 100)
    assert encoded.pieces[0] == first
    assert encoded.pieces.count("<s>") == (first == "<s>")


def test_a_character_begun_at_the_end_says_which_of_its_bytes_it_holds():
    assert label_bytes([b"a", b"\xe6"]) == ["a", "<0xE6> 1/3"]
    assert label_bytes([b"\xe6", b"\x88"]) == ["<0xE6> 1/3", "<0x88> 2/3"]
    assert label_bytes([b"\xe6\x88"]) == ["<0xE6><0x88> 1–2/3"]
    assert label_bytes([b"\xe6A"]) == ["<0xE6> A"]  # not a character's start after all
    assert label_bytes([b"\x88"]) == ["<0x88>"]  # a byte in no character


def test_a_next_token_is_labelled_as_the_text_will_label_it(tmp_path):
    tok = folder_with(tmp_path, td.byte_fallback_tokenizer())
    e6, x88, x91 = (tok._tok.token_to_id(f"<0x{b}>") for b in ("E6", "88", "91"))
    ids = list(tok.encode("the animal", 64).ids)
    assert tok.label_after(ids, e6) == "<0xE6> 1/3"
    assert tok.label_after([*ids, e6], x88) == "<0x88> 2/3"
    assert tok.label_after([*ids, e6, x88], x91) == "我 3/3"
    assert tok.labels([*ids, e6, x88, x91])[-1] == "我 3/3"
