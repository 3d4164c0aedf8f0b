"""Characters as tokens, and the ``tokenizer.json`` a GPT-2 folder carries.

Both tasks read one character per token: the induction task's 64 symbols are letters,
digits and two signs (a probe can be typed), the text task's are the characters of its
corpus. The vocabulary ends with GPT-2's ``<|endoftext|>``, which is also its unknown token,
as in GPT-2's own tokenizer; the lab never trains on it and refuses characters it does not
know instead of reading them as that token.

``tokenizer_json`` is built with the ``tokenizers`` library (a WordLevel model over single
characters), so anything that reads a Hugging Face tokenizer reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from explorer import json_text, reading
from explorer.characters import readable
from explorer.lm.errors import LMError

if TYPE_CHECKING:  # the library is read only when a folder is written
    from tokenizers import Tokenizer

END = "<|endoftext|>"
INDUCTION_SYMBOLS = tuple("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#$")
MAX_TEXT_CHARS = 100_000  # a typed probe; far beyond any model's context


class CharVocab:
    """symbols[i] is token i; token len(symbols) is ``<|endoftext|>``."""

    def __init__(self, symbols: Iterable[str]):
        self.symbols = tuple(symbols)
        if len(set(self.symbols)) != len(self.symbols) or any(len(s) != 1 for s in self.symbols):
            raise ValueError("a character vocabulary holds distinct single characters")
        self.index = {s: i for i, s in enumerate(self.symbols)}

    @classmethod
    def of_text(cls, text: str) -> CharVocab:
        """Every character of ``text``, in code-point order (the same text, the same ids)."""
        return cls(sorted(set(text)))

    def __len__(self) -> int:
        """The model's vocabulary size: the symbols and ``<|endoftext|>``."""
        return len(self.symbols) + 1

    @property
    def end_id(self) -> int:
        return len(self.symbols)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharVocab) and other.symbols == self.symbols

    def __hash__(self) -> int:
        return hash(self.symbols)

    def encode(self, text: str) -> list[int]:
        if not isinstance(text, str) or not text:
            raise LMError.of("lm.text_empty")
        if len(text) > MAX_TEXT_CHARS:
            raise LMError.of("lm.text_too_long", count=len(text), limit=MAX_TEXT_CHARS)
        unknown = list(dict.fromkeys(c for c in text if c not in self.index))  # in order of appearance
        if unknown:
            # a space is named, not left invisible between the quotes (trial 9: "' 😀'")
            shown = "".join("␣" if c == " " else c for c in unknown[:12]) + ("…" if len(unknown) > 12 else "")
            raise LMError.of(
                "lm.unknown_characters",
                characters=repr(shown),
                count=len(unknown),
                position=text.index(unknown[0]) + 1,  # counted from 1, as a reader counts
                alphabet=self.alphabet(),
            )
        return [self.index[c] for c in text]

    def alphabet(self, most: int = 24) -> str:
        """The characters this vocabulary knows, for a reader: runs of consecutive code points
        (in the vocabulary's order) as ranges, a space as ␣, an unprintable character as its
        code point, at most ``most`` pieces: the induction task's is "a–z A–Z 0–9 # $"."""
        runs: list[list[str]] = []
        for c in self.symbols:
            if runs and ord(c) == ord(runs[-1][-1]) + 1 and shown_character(c) == c:
                runs[-1].append(c)
            else:
                runs.append([c])
        pieces: list[str] = []
        for run in runs:
            if len(run) >= 3:
                pieces.append(f"{run[0]}–{run[-1]}")
            else:
                pieces.extend(shown_character(c) for c in run)
        return " ".join(pieces[:most]) + (" …" if len(pieces) > most else "")

    def decode(self, ids: Sequence[int]) -> str:
        return "".join(self.token(i) for i in ids)

    def token(self, i: int) -> str:
        return self.symbols[i] if 0 <= i < len(self.symbols) else END

    def tokenizer(self) -> Tokenizer:
        from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

        vocab = {s: i for i, s in enumerate(self.symbols)} | {END: self.end_id}
        tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token=END))
        tok.pre_tokenizer = pre_tokenizers.Split(Regex(r"[\s\S]"), behavior="isolated")  # one per character
        tok.decoder = decoders.Fuse()  # characters join without spaces
        tok.add_special_tokens([END])
        return tok

    def tokenizer_json(self) -> str:
        return self.tokenizer().to_str(pretty=True)

    @classmethod
    def from_tokenizer_file(cls, path: str | Path) -> CharVocab | None:
        """The vocabulary of a character-level tokenizer.json this module wrote; None for any
        other tokenizer (a GPT-2 BPE), which the caller reads with ``tokenizers`` itself, and for
        none at all. One that cannot be read (a folder, a pipe, a permission, a link loop) is an
        LMError that says so, never passed over or waited on."""
        if not reading.present(path, LMError):
            return None
        raw = reading.read_bytes(path, LMError)
        try:
            data = json_text.loads(raw.decode("utf-8"))  # nesting, huge ints: not ours
            vocab = data["model"]["vocab"]
            if data["model"]["type"] != "WordLevel" or not isinstance(vocab, dict):
                return None
            by_id = sorted((i, s) for s, i in vocab.items())
        except (UnicodeDecodeError, ValueError, KeyError, TypeError):
            return None
        if [i for i, _ in by_id] != list(range(len(by_id))) or by_id[-1][1] != END:
            return None
        symbols = [s for _, s in by_id[:-1]]
        if any(len(s) != 1 for s in symbols) or len(set(symbols)) != len(symbols):
            return None
        return cls(symbols)


def shown_character(c: str) -> str:
    """A character as a line of text can show it: a space as ␣, one no font draws as its code
    point (explorer.characters)."""
    return "␣" if c == " " else readable(c)


INDUCTION_VOCAB = CharVocab(INDUCTION_SYMBOLS)
