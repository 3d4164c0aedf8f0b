"""How a token is labelled on screen, the same way for every family.

A vocabulary spells its pieces in its own code: byte-level BPE (GPT-2, RoBERTa, Llama 3,
Qwen2) writes each byte as a printable stand-in ("Ġ" for a space, "æĪ" for two of the
three bytes of 我); SentencePiece (Llama 2, Mistral, XLM-R) writes a space as "▁" and, with
byte fallback, a byte it has no piece for as "<0xE6>". Shown raw, these are mojibake and
strike-through bars. Here each token's bytes are recovered and decoded together with its
neighbours, and the token is labelled with what it holds:

- whole characters as themselves, a space (a word start) as one quiet mark ``␣``, a new line
  as ``↵``, a tab as ``⇥``, other control characters as their code, ``\x1c`` (their control
  pictures, ␜, are boxes in most fonts and unreadable where they are not);
- part of a character as the character and which of its bytes it holds, "我 1/3" (the first
  of three bytes), "我 2–3/3"; the start of a character the text has not finished yet (a next
  token that begins one) as its bytes and which of the character's they are, "<0xE6> 1/3";
  a byte that belongs to no character as "<0xFF>";
- special tokens (<s>, <|endoftext|>) as they are spelled; WordPiece pieces ("##ing") too.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tokenizers import Tokenizer

SPACE_MARK = "␣"
NEWLINE_MARK = "↵"
TAB_MARK = "⇥"
SCHEMES = ("byte_level", "sentencepiece", "wordpiece", "plain")
_BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


def _byte_stand_ins() -> dict[str, int]:
    """GPT-2's printable stand-in for each byte (its bytes_to_unicode), inverted."""
    printable = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    chars, extra = list(printable), 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars)}


_STAND_INS = _byte_stand_ins()


def scheme_of(tokenizer: Tokenizer) -> str:
    """Which spelling a ``tokenizers.Tokenizer`` uses, read from its model, normaliser,
    pre-tokenizer and decoder (their own JSON, not the vocabulary)."""
    model = tokenizer.model
    kinds = {type(model).__name__}
    for part in ("normalizer", "pre_tokenizer", "decoder", "post_processor"):
        component = getattr(tokenizer, part, None)
        if component is not None:
            kinds |= _types(_state(component))
    if "ByteLevel" in kinds:
        return "byte_level"
    if "WordPiece" in kinds:
        return "wordpiece"
    if (
        getattr(model, "byte_fallback", False)
        or kinds & {"Metaspace", "Unigram"}
        or "▁" in str(_state(tokenizer.normalizer) if tokenizer.normalizer is not None else "")
    ):
        return "sentencepiece"
    return "plain"


def _state(component: Any) -> dict[str, Any]:
    """A tokenizer component's own JSON (its pickled state), without the vocabulary."""
    try:
        data = json.loads(component.__getstate__())
    except (AttributeError, TypeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _types(component: object) -> set[str]:
    """The ``type`` of a component and of every component a Sequence holds."""
    if isinstance(component, dict):
        kind = component.get("type")
        found = {kind} if isinstance(kind, str) else set()
        for key in ("pretokenizers", "decoders", "normalizers", "processors"):
            for inner in component.get(key) or []:
                found |= _types(inner)
        return found
    return set()


@dataclass(frozen=True)
class Labeller:
    scheme: str = "plain"
    literal_ids: frozenset[int] = frozenset()  # added tokens: spelled as plain text, not in the code
    special_ids: frozenset[int] = frozenset()  # special tokens: labelled as spelled

    def labels(self, pieces: list[str], ids: list[int], special: list[int] | list[bool]) -> list[str]:
        """One label per token; special tokens keep their spelling."""
        if self.scheme == "wordpiece":
            return list(pieces)
        labels = list(pieces)
        run: list[int] = []
        for i in range(len(pieces) + 1):
            if i < len(pieces) and not special[i]:
                run.append(i)
                continue
            if run:
                chunks = [self.token_bytes(pieces[j], ids[j]) for j in run]
                for j, label in zip(run, label_bytes(chunks)):
                    labels[j] = label
                run = []
        return labels

    def token_bytes(self, piece: str, token_id: int) -> bytes:
        if token_id in self.literal_ids:
            return piece.encode("utf-8")
        if self.scheme == "byte_level":
            if all(c in _STAND_INS for c in piece):
                return bytes(_STAND_INS[c] for c in piece)
            return piece.encode("utf-8")
        match = _BYTE_PIECE.fullmatch(piece)
        if match:
            return bytes([int(match.group(1), 16)])
        return piece.replace("▁", " ").encode("utf-8")


def label_bytes(chunks: list[bytes]) -> list[str]:
    """Labels for consecutive tokens holding these bytes, decoded across token boundaries."""
    stream = b"".join(chunks)
    chars = _characters(stream)  # (start, end, text or None, the character's length in bytes)
    labels, start, c = [], 0, 0
    for chunk in chunks:
        end = start + len(chunk)
        while c < len(chars) and chars[c][1] <= start:
            c += 1
        segments, text_run, k = [], "", c
        while k < len(chars) and chars[k][0] < end:
            cs, ce, text, size = chars[k]
            if text is not None and cs >= start and ce <= end:
                text_run += show(text)
            else:
                if text_run:
                    segments.append(text_run)
                    text_run = ""
                first, last = max(start, cs) - cs + 1, min(end, ce) - cs
                held = f"{first}" if first == last else f"{first}–{last}"
                if text is not None:
                    segments.append(f"{text} {held}/{size}")
                elif size > 1:  # a character begun at the end of the text: its bytes so far
                    codes = "".join(f"<0x{b:02X}>" for b in stream[max(start, cs) : min(end, ce)])
                    segments.append(f"{codes} {held}/{size}")
                else:
                    segments.append(f"<0x{stream[cs]:02X}>")
            k += 1
        if text_run:
            segments.append(text_run)
        labels.append(" ".join(segments) or "∅")
        start = end
    return labels


def show(char: str) -> str:
    """A character as a label shows it: spaces and control characters made visible."""
    if char == "\n":
        return NEWLINE_MARK
    if char == "\t":
        return TAB_MARK
    category = unicodedata.category(char)
    if category == "Zs":
        return SPACE_MARK
    if category == "Cc":
        return f"\\x{ord(char):02X}"
    if category in ("Zl", "Zp"):
        return NEWLINE_MARK
    return char


def _characters(stream: bytes) -> list[tuple[int, int, str | None, int]]:
    """UTF-8 characters with their byte spans and lengths; an invalid byte is a span of one with
    no text, the bytes so far of a character the stream ends inside are one span with no text."""
    out: list[tuple[int, int, str | None, int]] = []
    i = 0
    while i < len(stream):
        size = _utf8_length(stream[i])
        text = None
        if size and i + size <= len(stream):
            try:
                text = stream[i : i + size].decode("utf-8")
            except UnicodeDecodeError:
                text = None
        elif size and all(0x80 <= b <= 0xBF for b in stream[i + 1 :]):
            out.append((i, len(stream), None, size))  # unfinished: what follows may finish it
            break
        if text is None:
            size = 1
        out.append((i, i + size, text, size))
        i += size
    return out


def _utf8_length(lead: int) -> int:
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0
