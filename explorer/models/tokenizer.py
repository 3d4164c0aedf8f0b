"""Text → token ids with the ``tokenizers`` library, from tokenizer.json or a bare vocab.txt.

Whatever the family, the tokenizer's own unknown token is counted (``[UNK]`` for BERT,
``<unk>`` for XLM-R), and truncation keeps the closing token the tokenizer itself adds
(``[SEP]`` or ``</s>``), so a cut sequence is still well formed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer import json_text, reading
from explorer.models.errors import ModelError
from explorer.models.token_labels import Labeller, scheme_of
from explorer.models.unigram_table import PieceTable, read_large_unigram
from explorer.reading import file, present

if TYPE_CHECKING:
    from tokenizers import Tokenizer

TOKENIZER_FILES = ("tokenizer.json", "vocab.txt")


@dataclass(frozen=True)
class Tokenized:
    ids: list[int]
    tokens: list[str]  # labels (token_labels.py); an unknown token keeps the characters it replaced
    unk_count: int
    original_length: int  # tokens before truncation
    pieces: list[str] = field(default_factory=list)  # the vocabulary's own spelling ("Ġthe", "<0xE6>")


class TextTokenizer:
    """A fast tokenizer with its built-in padding and truncation switched off."""

    def __init__(
        self,
        tokenizer: Tokenizer | PieceTable,
        unk_token: str | None,
        source: Path,
        labeller: Labeller | None = None,
    ):
        self._tok = tokenizer
        # Some shipped tokenizer.json files pad every input to 128 and cut at 128.
        self._tok.no_padding()
        self._tok.no_truncation()
        self.source = source
        self.unk_token = unk_token
        self.unk_id = tokenizer.token_to_id(unk_token) if unk_token else None
        self.labeller = labeller or Labeller()
        # A decoder's first and last token, as its tokenizer_config.json says (None: as tokenizer.json does).
        self.bos: tuple[str, int] | None = None
        self.add_bos: bool | None = None
        self.eos: tuple[str, int] | None = None
        self.add_eos: bool | None = None

    @property
    def vocab_size(self) -> int:
        return self._tok.get_vocab_size(with_added_tokens=True)

    @property
    def largest_id(self) -> int:
        """The largest id the tokenizer can produce: its added tokens' and the model's (whose
        ids run 0 … size − 1; probed upwards, without building the whole vocabulary dict)."""
        added = self._tok.get_added_tokens_decoder()
        largest = max([self._tok.get_vocab_size(with_added_tokens=False) - 1, *added])
        while self._tok.id_to_token(largest + 1) is not None:
            largest += 1
        return largest

    def decode(self, ids: list[int]) -> str:
        return self._tok.decode(ids, skip_special_tokens=False)

    def text_of(self, ids: list[int]) -> str:
        """The text the ids spell, without the special tokens the tokenizer adds (BOS)."""
        return self._tok.decode(ids, skip_special_tokens=True)

    def piece(self, token_id: int) -> str | None:
        return self._tok.id_to_token(token_id)

    def label(self, token_id: int) -> str:
        """One token's label on its own (a generated token, a next-token candidate)."""
        piece = self._tok.id_to_token(token_id)
        if piece is None:
            return f"<id {token_id}>"
        special = token_id in self.labeller.special_ids
        return self.labeller.labels([piece], [token_id], [special])[0]

    def label_after(self, ids: list[int], token_id: int) -> str:
        """A next token's label after the text ``ids``, as the text will label it once written:
        the byte that finishes a character reads "我 3/3", one that begins a character "<0xE6> 1/3"."""
        context = list(ids[-3:])  # a character's other bytes: at most three tokens back
        return self.labels([*context, token_id])[-1]

    def labels(self, ids: list[int]) -> list[str]:
        """Labels of consecutive ids, decoded together (a character split over tokens reads whole)."""
        pieces = [self._tok.id_to_token(i) or f"<id {i}>" for i in ids]
        return self.labeller.labels(pieces, list(ids), [i in self.labeller.special_ids for i in ids])

    def encode(self, text: str, max_tokens: int) -> Tokenized:
        enc = self._tok.encode(text)
        ids, pieces, special = list(enc.ids), list(enc.tokens), list(enc.special_tokens_mask)
        offsets = list(enc.offsets)
        ids, pieces, special, offsets = self._ends(ids, pieces, special, offsets)
        tokens = self.labeller.labels(pieces, ids, special)
        for i, (start, end) in enumerate(offsets):
            if self.unk_token is not None and ids[i] == self.unk_id and not special[i] and end > start:
                tokens[i] = _unk_display(self.unk_token, text[start:end])
        original = len(ids)
        if original > max_tokens:
            # Keep the closing token the tokenizer added, so the model sees a well-formed sequence.
            keep_last = bool(special[-1]) and max_tokens >= 2 and not (self.bos and ids[-1] == self.bos[1])
            kept = [*range(max_tokens - 1), len(ids) - 1] if keep_last else list(range(max_tokens))
            ids, tokens, pieces = [ids[i] for i in kept], [tokens[i] for i in kept], [pieces[i] for i in kept]
        unk = sum(i == self.unk_id for i in ids) if self.unk_id is not None else 0
        return Tokenized(ids, tokens, unk, original, pieces)

    def _ends(
        self, ids: list[int], pieces: list[str], special: list[int], offsets: list[tuple[int, int]]
    ) -> tuple[list[int], list[str], list[int], list[tuple[int, int]]]:
        """BOS and EOS as tokenizer_config.json's add_bos_token / add_eos_token say."""
        for token, add, first in ((self.bos, self.add_bos, True), (self.eos, self.add_eos, False)):
            if token is None or add is None:
                continue
            at = 0 if first else -1
            present = bool(ids) and ids[at] == token[1] and bool(special[at])
            if add and not present:
                where = 0 if first else len(ids)
                ids.insert(where, token[1])
                pieces.insert(where, token[0])
                special.insert(where, 1)
                offsets.insert(where, (0, 0))
            elif not add and present:
                for column in (ids, pieces, special, offsets):
                    del column[at]
        return ids, pieces, special, offsets


UNK_SHOWN = 16  # characters of what an unknown token replaced that its label keeps


def _unk_display(unk: str, chars: str) -> str:
    """[UNK] → [UNK:们], <unk> → <unk:们>: the reader still sees what was lost. A long run (a
    120 KB word is one [UNK]) keeps its start and an ellipsis: its label was the whole paste."""
    if len(chars) > UNK_SHOWN:
        chars = chars[: UNK_SHOWN - 1] + "…"
    if len(unk) >= 2 and unk[0] in "[<" and unk[-1] in "]>":
        return f"{unk[:-1]}:{chars}{unk[-1]}"
    return f"{unk}:{chars}"


def load_tokenizer(folder: Path, wordpiece_family: bool) -> TextTokenizer:
    """tokenizer.json when present, else (BERT and DistilBERT) one built from vocab.txt."""
    settings = _tokenizer_settings(folder)
    path = folder / "tokenizer.json"
    if present(path, ModelError):  # one that loops or cannot be read is said, never passed over
        file(path, ModelError)
        from tokenizers import Tokenizer

        reading.file(path, ModelError)  # a permission denied in words, not "[Errno 13] …"
        try:
            # a large Unigram (multilingual-e5) without holding the interpreter lock for a second
            table = read_large_unigram(path)
            loaded = Tokenizer.from_file(str(path)) if table is None else None
        except ModelError:  # reading's own line about the file
            raise
        except Exception as exc:  # tokenizers raises its own exception type
            raise ModelError.of("tokenizer.unreadable", path=path, detail=_first_line(exc)) from None
        # The config's unknown token when the vocabulary has it, else the one the model names.
        named = _token(settings.get("unk_token"))
        if table is not None:
            known = named if named and table.token_to_id(named) is not None else table.unk_token
            # a piece table is a Unigram: SentencePiece's spelling
            return TextTokenizer(table, known, path, _labeller(table, "sentencepiece"))
        assert loaded is not None
        unk = named if named and loaded.token_to_id(named) is not None else _model_unk(loaded, path)
        return TextTokenizer(loaded, unk, path, _labeller(loaded))
    vocab = folder / "vocab.txt"
    if vocab.is_file() and wordpiece_family:
        tok, unk = build_wordpiece(vocab, settings)
        return TextTokenizer(tok, unk, vocab, _labeller(tok, "wordpiece"))
    raise ModelError.of("tokenizer.missing" if wordpiece_family else "tokenizer.missing_json", folder=folder)


def build_wordpiece(vocab_path: Path, settings: dict[str, Any]) -> tuple[Tokenizer, str]:
    """BERT's tokenizer from vocab.txt: the normaliser, splitter and [CLS] … [SEP] of the original.

    ``settings`` are tokenizer_config.json's: do_lower_case (BertTokenizer's default True),
    strip_accents (None: follow lower-casing), tokenize_chinese_chars, special tokens.
    """
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    reading.file(vocab_path, ModelError)
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
    """tokenizer_config.json over special_tokens_map.json; an absent one counts as empty, one
    that is not JSON, not an object or cannot be read is refused naming it (it was passed over
    silently, and the tokenizer read without its settings)."""
    settings: dict[str, Any] = {}
    for name in ("special_tokens_map.json", "tokenizer_config.json"):
        path = folder / name
        if not present(path, ModelError):  # a loop, a folder on the way that cannot be read: said so
            continue
        raw = reading.read_bytes(path, ModelError)  # a folder, a pipe, a permission: said so
        try:
            data = json_text.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise ModelError.of("tokenizer.unreadable", path=path, detail="not UTF-8 text") from None
        except ValueError as exc:  # JSONDecodeError, and json_text's own
            raise ModelError.of("tokenizer.unreadable", path=path, detail=f"invalid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise ModelError.of("tokenizer.not_object", path=path)
        settings.update(data)
    return settings


def _token(value: object) -> str | None:
    """A special token as tokenizer_config.json writes it: "[UNK]" or {"content": "[UNK]", …}."""
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) and value else None


def set_ends(tok: TextTokenizer, folder: Path, bos_id: int | None, eos_ids: tuple[int, ...]) -> None:
    """A decoder's BOS and EOS: tokenizer_config.json's add_bos_token / add_eos_token, the token
    named there or the id config.json gives; unset flags leave tokenizer.json's own template."""
    settings = _tokenizer_settings(folder)
    for role, token_id in (("bos", bos_id), ("eos", eos_ids[0] if eos_ids else None)):
        named = _token(settings.get(f"{role}_token"))
        named_id = tok._tok.token_to_id(named) if named is not None else None
        spelled = tok._tok.id_to_token(token_id) if token_id is not None else None
        found: tuple[str, int] | None = None
        if named is not None and named_id is not None:
            found = (named, named_id)
        elif token_id is not None and spelled is not None:
            found = (spelled, token_id)
        flag = settings.get(f"add_{role}_token")
        setattr(tok, role, found)
        setattr(tok, f"add_{role}", flag if isinstance(flag, bool) and found is not None else None)


def _labeller(tok: Tokenizer | PieceTable, scheme: str | None = None) -> Labeller:
    """``scheme`` None: read from the Tokenizer's model (a piece table names its own)."""
    added = tok.get_added_tokens_decoder()
    if scheme is None:
        assert not isinstance(tok, PieceTable)
        scheme = scheme_of(tok)
    return Labeller(
        scheme,
        literal_ids=frozenset(i for i, t in added.items() if not t.special),
        special_ids=frozenset(i for i, t in added.items() if t.special),
    )


def _json(path: Path) -> dict[str, Any] | None:
    """tokenizer.json parsed again; None when it is not a JSON object. One that can no longer
    be read (a folder, a pipe, a permission, a link loop) is reading's ModelError."""
    raw = reading.read_bytes(path, ModelError)
    try:
        data = json_text.loads(raw.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError and JSONDecodeError too
        return None
    return data if isinstance(data, dict) else None


def _model_unk(tok: Tokenizer, path: Path) -> str | None:
    """The unknown token of tokenizer.json's model: WordPiece and BPE name it (read from the
    loaded model), Unigram numbers it (read from the file: only then is it parsed again)."""
    named = getattr(tok.model, "unk_token", None)
    if isinstance(named, str) or type(tok.model).__name__ != "Unigram":
        return named if isinstance(named, str) and named else None
    model = (_json(path) or {}).get("model", {})
    if not isinstance(model, dict):
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
