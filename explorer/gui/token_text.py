"""Tokens as the window writes them.

SentencePiece models (the multilingual one) mark the start of a word with "▁" inside the
token: shown raw it reads as an underscore ("_Think"), and alone, on a rotated axis, as a
stroke through the labels. The window drops the mark from a word's first piece ("Think") and
writes a piece that is only the mark, the space before a character spelled on its own, as
"␣", the way the translation lab writes spaces. The traces and files keep the tokens as the
tokenizer made them.
"""

from __future__ import annotations

from collections.abc import Sequence

WORD_START = "▁"  # SentencePiece's mark: U+2581
SPACE = "␣"  # a space made visible


def token_text(token: str) -> str:
    """One token as a label or a sentence shows it."""
    if token == WORD_START:
        return SPACE
    return token[1:] if token.startswith(WORD_START) else token


def token_texts(tokens: Sequence[str] | None) -> list[str] | None:
    """Labels of an axis (None stays None: numbered rows)."""
    return None if tokens is None else [token_text(t) for t in tokens]
