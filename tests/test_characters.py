"""One rule for a character a font cannot draw, shared by the labs' axes and messages."""

from explorer.characters import readable
from explorer.lm.vocab import shown_character
from explorer.seq2seq.vocab import readable_token


def test_what_no_font_draws_reads_as_its_code_point():
    assert [readable(c) for c in "a年9$"] == list("a年9$")
    assert readable("🎉") == "U+1F389"  # beyond the Basic Multilingual Plane
    assert readable("\u200b") == "U+200B" and readable("\x07") == "U+0007"  # format, control
    assert readable("\u00a0") == "U+00A0" and readable(" ") == " "  # another space: invisible
    assert shown_character(" ") == "␣" and shown_character("🎉") == "U+1F389"
    assert readable_token("🎉") == "U+1F389" and readable_token("<unk>") == "<unk>"
