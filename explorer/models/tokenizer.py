"""Text → token ids with the ``tokenizers`` library, from tokenizer.json or a bare vocab.txt.

Whatever the family, the tokenizer's own unknown token is counted (``[UNK]`` for BERT,
``<unk>`` for XLM-R), and truncation keeps the closing token the tokenizer itself adds
(``[SEP]`` or ``</s>``), so a cut sequence is still well formed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.models.errors import ModelError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

TOKENIZER_FILES = ("tokenizer.json", "vocab.txt")


@dataclass(frozen=True)
class Tokenized:
    ids: list[int]
    tokens: list[str]  # display forms: an unknown token keeps the characters it replaced
    unk_count: int
    original_length: int  # tokens before truncation


class TextTokenizer:
    """A fast tokenizer with its built-in padding and truncation switched off."""

    def __init__(self, tokenizer: Tokenizer, unk_token: str | None, source: Path):
        self._tok = tokenizer
        # Some shipped tokenizer.json files pad every input to 128 and cut at 128.
        self._tok.no_padding()
        self._tok.no_truncation()
        self.source = source
        self.unk_token = unk_token
        self.unk_id = tokenizer.token_to_id(unk_token) if unk_token else None

    @property
    def vocab_size(self) -> int:
        return self._tok.get_vocab_size(with_added_tokens=True)

    def encode(self, text: str, max_tokens: int) -> Tokenized:
        enc = self._tok.encode(text)
        ids, tokens, special = list(enc.ids), list(enc.tokens), list(enc.special_tokens_mask)
        for i, (start, end) in enumerate(enc.offsets):
            if self.unk_token is not None and ids[i] == self.unk_id and not special[i] and end > start:
                tokens[i] = _unk_display(self.unk_token, text[start:end])
        original = len(ids)
        if original > max_tokens:
            # Keep the closing token the tokenizer added, so the model sees a well-formed sequence.
            if special[-1] and max_tokens >= 2:
                ids, tokens = ids[: max_tokens - 1] + ids[-1:], tokens[: max_tokens - 1] + tokens[-1:]
            else:
                ids, tokens = ids[:max_tokens], tokens[:max_tokens]
        unk = sum(i == self.unk_id for i in ids) if self.unk_id is not None else 0
        return Tokenized(ids, tokens, unk, original)


def _unk_display(unk: str, chars: str) -> str:
    """[UNK] → [UNK:们], <unk> → <unk:们>: the reader still sees what was lost."""
    if len(unk) >= 2 and unk[0] in "[<" and unk[-1] in "]>":
        return f"{unk[:-1]}:{chars}{unk[-1]}"
    return f"{unk}:{chars}"


def load_tokenizer(folder: Path, wordpiece_family: bool) -> TextTokenizer:
    """tokenizer.json when present, else (BERT and DistilBERT) one built from vocab.txt."""
    settings = _tokenizer_settings(folder)
    path = folder / "tokenizer.json"
    if path.is_file():
        from tokenizers import Tokenizer

        try:
            tok = Tokenizer.from_file(str(path))
        except Exception as exc:  # tokenizers raises its own exception type
            raise ModelError.of("tokenizer.unreadable", path=path, detail=_first_line(exc)) from None
        # The config's unknown token when the vocabulary has it, else the one the model names.
        named = _token(settings.get("unk_token"))
        unk = named if named and tok.token_to_id(named) is not None else _model_unk(path)
        return TextTokenizer(tok, unk, path)
    vocab = folder / "vocab.txt"
    if vocab.is_file() and wordpiece_family:
        return TextTokenizer(*build_wordpiece(vocab, settings), vocab)
    raise ModelError.of("tokenizer.missing" if wordpiece_family else "tokenizer.missing_json", folder=folder)


def build_wordpiece(vocab_path: Path, settings: dict[str, Any]) -> tuple[Tokenizer, str]:
    """BERT's tokenizer from vocab.txt: the normaliser, splitter and [CLS] … [SEP] of the original.

    ``settings`` are tokenizer_config.json's: do_lower_case (BertTokenizer's default True),
    strip_accents (None: follow lower-casing), tokenize_chinese_chars, special tokens.
    """
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    try:
        vocab = models.WordPiece.read_file(str(vocab_path))
    except Exception as exc:
        raise ModelError.of("tokenizer.unreadable", path=vocab_path, detail=_first_line(exc)) from None
    names = {
        role: _token(settings.get(f"{role}_token")) or default
        for role, default in (
            ("unk", "[UNK]"),
            ("cls", "[CLS]"),
            ("sep", "[SEP]"),
            ("pad", "[PAD]"),
            ("mask", "[MASK]"),
        )
    }
    for role in ("unk", "cls", "sep"):
        if names[role] not in vocab:
            raise ModelError.of("tokenizer.lacks_token", path=vocab_path, token=names[role])
    lower = settings.get("do_lower_case", True)
    tok = Tokenizer(models.WordPiece(vocab, unk_token=names["unk"], max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True,
        handle_chinese_chars=bool(settings.get("tokenize_chinese_chars", True)),
        strip_accents=settings.get("strip_accents"),
        lowercase=bool(lower),
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.BertProcessing(
        (names["sep"], vocab[names["sep"]]), (names["cls"], vocab[names["cls"]])
    )
    tok.decoder = decoders.WordPiece()
    # Typed as text, "[MASK]" stays one token, as in transformers' BertTokenizer.
    tok.add_special_tokens([t for t in dict.fromkeys(names.values()) if t in vocab])
    return tok, names["unk"]


def _tokenizer_settings(folder: Path) -> dict[str, Any]:
    """tokenizer_config.json over special_tokens_map.json; unreadable files count as absent."""
    settings: dict[str, Any] = {}
    for name in ("special_tokens_map.json", "tokenizer_config.json"):
        try:
            data = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            settings.update(data)
    return settings


def _token(value: object) -> str | None:
    """A special token as tokenizer_config.json writes it: "[UNK]" or {"content": "[UNK]", …}."""
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) and value else None


def _model_unk(path: Path) -> str | None:
    """The unknown token named inside tokenizer.json's model (WordPiece/BPE name it, Unigram numbers it)."""
    try:
        model = json.loads(path.read_text(encoding="utf-8")).get("model", {})
    except (OSError, ValueError):
        return None
    if isinstance(model.get("unk_token"), str):
        return model["unk_token"]
    unk_id, vocab = model.get("unk_id"), model.get("vocab")
    if isinstance(unk_id, int) and isinstance(vocab, list) and 0 <= unk_id < len(vocab):
        return vocab[unk_id][0]
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
