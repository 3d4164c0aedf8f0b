"""The next-token panel's Qt-free part: which position it follows, and which tokens can be written."""

from pathlib import Path

import pytest

from explorer.appstate.next_tokens import next_token_position, written_text
from explorer.models.tokenizer import TextTokenizer


def test_the_panel_follows_the_selected_row_else_the_last_token():
    assert next_token_position(None, 7) == 6
    assert next_token_position((2, 5), 7) == 2
    assert next_token_position((12, 0), 7) == 6  # a cell of a longer text before: the last row
    assert next_token_position(None, 0) == 0


@pytest.fixture(scope="module")
def llama_tokenizer():
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    from tests.models import tiny_decoders

    return TextTokenizer(tiny_decoders.byte_fallback_tokenizer(), "<unk>", Path("tokenizer.json"))


def test_a_written_token_reads_back_as_one_more_token(llama_tokenizer):
    tok = llama_tokenizer
    ids = list(tok.encode("the animal", 64).ids)
    piece = tok.encode("the animal did", 64).ids[len(ids)]  # "▁did" (or its first piece)
    text = written_text(tok, ids, piece, 64)
    assert (
        text is not None and text.startswith("the animal") and list(tok.encode(text, 64).ids) == [*ids, piece]
    )
    byte = tok._tok.token_to_id("<0xE6>")  # the first byte of a Chinese character: no text alone
    assert written_text(tok, ids, byte, 64) is None
    assert written_text(tok, ids, piece, len(ids)) is None  # past the model's length
