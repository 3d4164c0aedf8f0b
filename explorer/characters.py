"""A character as a label can show it: one a font has no glyph for as its code point.

Qt-free and dependency-free, for every lab's axes and messages: one outside the Basic
Multilingual Plane (an emoji, 🎉, is an empty box in the figures' font) or one with no glyph
of its own (a control, format, private-use or unassigned character, a space other than " ")
reads "U+1F389"; any other as itself.
"""

from __future__ import annotations

import unicodedata


def readable(c: str) -> str:
    """``c`` (one character) as itself, or as its code point where no font draws it."""
    category = unicodedata.category(c)
    if ord(c) > 0xFFFF or category.startswith("C") or (category.startswith("Z") and c != " "):
        return f"U+{ord(c):04X}"
    return c
