"""A large Unigram tokenizer that never holds the interpreter lock for long.

``tokenizers`` builds a Unigram model's lattice tables in one call that holds the GIL: 0.3–1 s
for multilingual-e5's 122,612 pieces. The model loads on a worker thread, but the window's
thread waits for the lock all that time: the first switch to the multilingual model froze
the window. Here the piece table is read by Python code (the interpreter hands the lock to
the window every few milliseconds), and each text is encoded by a Unigram of only the pieces
that occur in it, with the file's own normaliser, pre-tokenizer, post-processor and decoder.

Viterbi's best segmentation only ever uses pieces that are substrings of the words it
segments, and the unknown-character score comes from the table's lowest score (kept in every
small table): so the tokens, ids and offsets are the full tokenizer's own
(tests/models/test_unigram_table.py compares them). ``PieceTable`` answers the part of
``tokenizers.Tokenizer`` the explorer uses.

Parsing the table is still ~0.4 s of Python on the loading thread, and while any thread runs
Python each of the window's turns waits for the lock (a paint hands it back dozens of times):
the first switch to the multilingual model blocked the window 150 ms. So the first parse of a
file also writes its table into the data folder (``piece-tables/``: the pieces as one text,
their scores as raw doubles, the rest of the file as JSON), and every later load of that same
file (path, size and time) reads that copy instead: a decode, a few splits and an array read,
native calls of a few ms each. Any copy that does not match is ignored and rewritten.
"""

from __future__ import annotations

import array
import codecs
import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LARGE = 20_000  # pieces from which the table is read this way (smaller ones build in ms)
_ENTRY = re.compile(r'\s*\[\s*"((?:[^"\\]|\\.)*)"\s*,\s*(-?[0-9][0-9.eE+-]*)\s*\]\s*([,\]])')
_VOCAB = re.compile(r'"vocab"\s*:\s*\[')
_EMPTY = re.compile(r"\s*\]")
CHUNK = 1 << 18  # bytes decoded at a time: a 4 MB file decoded at once held the lock 60 ms
BATCH = 1 << 16  # characters of the table parsed by one json.loads (~2,000 pieces, ~1 ms)
BLOCK = 1024  # pieces indexed by one call (all 122,612 at once held the lock ~40 ms; 4,096 ~5 ms loaded)
_BETWEEN = re.compile(r"\]\s*,(?=\s*\[)")  # the end of an entry followed by another (or a piece's text)
CACHE_DIR = "piece-tables"  # under the data folder
CACHE_VERSION = 1
SEPARATORS = ("\n", "\x00", "\x1f")  # the first that no piece contains joins them in the copy


@dataclass(frozen=True)
class Encoded:
    """What ``Tokenizer.encode`` gives, as plain lists."""

    ids: list[int]
    tokens: list[str]
    offsets: list[tuple[int, int]]
    special_tokens_mask: list[int]


def read_large_unigram(path: str | Path, large: int = LARGE) -> PieceTable | None:
    """The tokenizer.json at ``path`` as a PieceTable when it is a Unigram of ``large`` pieces
    or more; None for anything else (``tokenizers`` reads it quickly, or it is not a Unigram).
    The data folder's copy of the table when it was made from this very file."""
    path = Path(path)
    kept = _kept(path)
    if kept is not None:
        pieces, scores, shell = kept
        return PieceTable(pieces, scores, shell) if len(pieces) >= large else None
    parsed = _parse(path, large)
    if parsed is None:
        return None
    pieces, scores, shell = parsed
    _keep(path, pieces, scores, shell)
    return PieceTable(pieces, scores, shell)


def _parse(path: Path, large: int) -> tuple[list[str], list[float], dict[str, Any]] | None:
    """The pieces, scores and the rest of the file (the shell) of a Unigram of ``large``
    pieces or more; None for anything else."""
    text = _read(path)
    found = _VOCAB.search(text)
    if found is None:
        return None
    pieces, scores, end = _entries(text, found.end())
    if pieces is None or len(pieces) < large:
        return None
    try:
        shell = json.loads(text[: found.start()] + '"vocab": []' + text[end:])  # all but the table
    except ValueError:
        return None
    if not isinstance(shell, dict) or (shell.get("model") or {}).get("type") != "Unigram":
        return None
    if any(not 0 <= a.get("id", -1) < len(pieces) for a in shell.get("added_tokens") or []):
        return None  # added tokens beyond the table: only tokenizers knows how it numbers them
    return pieces, scores, shell


# -- the data folder's copy ---------------------------------------------------------------------------
def _stamp(path: Path) -> dict[str, Any] | None:
    """What the copy must have been made from: this file's path, size and time."""
    try:
        resolved, stat = path.resolve(), path.stat()
    except (OSError, RuntimeError):  # RuntimeError: resolve() of a link loop (Python < 3.13)
        return None
    return {
        "version": CACHE_VERSION,
        "path": str(resolved),
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
    }


def _cache_folder(stamp: dict[str, Any]) -> Path:
    from explorer.logsetup import data_dir

    resolved = str(stamp["path"])
    digest = hashlib.sha1(resolved.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    label = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(resolved).parent.name)[:40].strip("-.") or "tokenizer"
    return data_dir() / CACHE_DIR / f"{label}-{digest}"


def _kept(path: Path) -> tuple[list[str], list[float], dict[str, Any]] | None:
    """The copy's pieces, scores and shell when it was made from this very file; None when
    there is none, or it is stale, partial or unreadable."""
    stamp = _stamp(path)
    if stamp is None:
        return None
    folder = _cache_folder(stamp)
    try:
        about = json.loads((folder / "table.json").read_text(encoding="utf-8"))
        if not isinstance(about, dict) or about.get("stamp") != stamp:
            return None
        text = (folder / "pieces.txt").read_bytes().decode("utf-8")
        raw = (folder / "scores.f64").read_bytes()
    except (OSError, ValueError):
        return None
    count, separator, shell = about.get("count"), about.get("separator"), about.get("shell")
    if not isinstance(count, int) or separator not in SEPARATORS or not isinstance(shell, dict):
        return None
    if len(raw) != 8 * count:
        return None
    scores = array.array("d")
    scores.frombytes(raw)
    if sys.byteorder != "little":
        scores.byteswap()
    pieces = _split(text, separator) if count else []
    if len(pieces) != count:
        return None
    return pieces, scores.tolist(), shell


def _split(text: str, separator: str) -> list[str]:
    """``text.split(separator)``, a block of pieces per call (the lock changes hands between)."""
    pieces: list[str] = []
    rest: str | None = text
    while rest is not None:
        part = rest.split(separator, BLOCK)
        rest = part.pop() if len(part) > BLOCK else None
        pieces += part
    return pieces


def _keep(path: Path, pieces: list[str], scores: list[float], shell: dict[str, Any]) -> None:
    """Write the copy (table.json last: it names what the other two hold); a data folder that
    cannot be written leaves the next load to parse again."""
    from explorer.atomic import atomic_write

    stamp = _stamp(path)
    separator = next((s for s in SEPARATORS if not any(s in p for p in pieces)), None)
    if stamp is None or separator is None:
        return
    folder = _cache_folder(stamp)
    doubles = array.array("d", scores)
    if sys.byteorder != "little":
        doubles.byteswap()
    about = {"stamp": stamp, "count": len(pieces), "separator": separator, "shell": shell}
    try:
        atomic_write(folder / "pieces.txt", lambda f: f.write(separator.join(pieces).encode("utf-8")), "wb")
        atomic_write(folder / "scores.f64", lambda f: f.write(doubles.tobytes()), "wb")
        atomic_write(folder / "table.json", lambda f: f.write(json.dumps(about, ensure_ascii=False)))
    except (OSError, ValueError):
        pass


def _read(path: Path) -> str:
    """The file as text, decoded a chunk at a time (the lock changes hands in between)."""
    from explorer import reading
    from explorer.models.errors import ModelError

    raw = reading.read_bytes(path, ModelError)  # a folder, a pipe, a permission, a loop: said so
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts = []
    view = memoryview(raw)
    for start in range(0, len(raw), CHUNK):
        parts.append(decoder.decode(view[start : start + CHUNK]))
    parts.append(decoder.decode(b"", final=True))
    return "".join(parts)


def _entries(text: str, pos: int) -> tuple[list[str] | None, list[float], int]:
    """The ["piece", score] entries of a JSON array from ``pos`` (just after its "["); (None, …)
    when the array is not such a list. A batch of entries at a time goes to json.loads (fast, and
    the lock changes hands between batches); the last ones, and a batch whose cut fell inside a
    piece's text, are read one entry at a time."""
    pieces: list[str] = []
    scores: list[float] = []
    empty = _EMPTY.match(text, pos)
    if empty is not None:
        return pieces, scores, empty.end()
    while True:
        cut = _BETWEEN.search(text, pos + BATCH)
        if cut is not None and (batch := _batch(text[pos : cut.start() + 1])) is not None:
            pieces += batch[0]
            scores += batch[1]
            pos = cut.end()
            continue
        stop = cut.end() if cut is not None else len(text)
        while pos < stop:
            entry = _ENTRY.match(text, pos)
            if entry is None:
                return None, scores, pos
            raw = entry.group(1)
            pieces.append(json.loads(f'"{raw}"') if "\\" in raw else raw)
            scores.append(float(entry.group(2)))
            pos = entry.end()
            if entry.group(3) == "]":
                return pieces, scores, pos


def _batch(entries: str) -> tuple[list[str], list[float]] | None:
    """The pieces and scores of ``entries`` (["piece", score] entries joined by commas); None when
    it is not exactly that (the cut fell inside a piece's text)."""
    try:
        rows = json.loads(f"[{entries}]")
        pieces, scores = zip(*rows)
    except (ValueError, TypeError):  # not JSON, no entries, or an entry that is not a sequence
        return None
    exact = set(map(type, rows)) == {list} and set(map(len, rows)) == {2}  # (checked in C: fast)
    if not exact or set(map(type, pieces)) != {str} or not set(map(type, scores)) <= {int, float}:
        return None
    return list(pieces), list(map(float, scores))


def _blocks(n: int) -> range:
    return range(0, n, BLOCK)


class PieceTable:
    """A Unigram tokenizer.json, encoding each text with a table of the pieces it contains."""

    def __init__(self, pieces: list[str], scores: list[float], shell: dict[str, Any]):
        from tokenizers import Tokenizer

        model = shell["model"]
        self.pieces, self.scores = pieces, scores
        self.index: dict[str, int] = {}
        for start in _blocks(len(pieces)):  # a block at a time: the lock changes hands between
            self.index.update(zip(pieces[start : start + BLOCK], range(start, start + BLOCK)))
        self.unk_id: int | None = model.get("unk_id")
        self.byte_fallback = bool(model.get("byte_fallback", False))
        self.added = list(shell.get("added_tokens") or [])
        # the leading pieces (the special tokens) keep their ids in every small table, so the
        # post-processor's ids ([<s> … </s>]) stay right
        leading = [a["id"] for a in self.added if a["id"] < 64] + (
            [self.unk_id] if self.unk_id is not None else []
        )
        self.lead = 1 + max(leading, default=-1)
        lows = (
            min(range(i, min(i + BLOCK, len(scores))), key=scores.__getitem__) for i in _blocks(len(scores))
        )
        self.lowest = min(lows, key=scores.__getitem__)  # sets the unknown's score (the first lowest)
        self.longest = max(max(map(len, pieces[start : start + BLOCK])) for start in _blocks(len(pieces)))
        small = dict(shell, model=dict(model, vocab=[[pieces[i], scores[i]] for i in range(self.lead)]))
        small["added_tokens"] = [a for a in self.added if a["id"] < self.lead]
        small["padding"] = small["truncation"] = None
        self.shell = Tokenizer.from_str(json.dumps(small))
        self.unk_token = pieces[self.unk_id] if self.unk_id is not None else None

    # -- what tokenizers.Tokenizer answers ----------------------------------------------------------
    def no_padding(self) -> None:
        """(Never pads.)"""

    def no_truncation(self) -> None:
        """(Never cuts.)"""

    def token_to_id(self, token: str) -> int | None:
        return self.index.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        return self.pieces[token_id] if 0 <= token_id < len(self.pieces) else None

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        return len(self.pieces)

    def get_vocab(self, with_added_tokens: bool = True) -> dict[str, int]:
        return self.index  # (read, never changed)

    def get_added_tokens_decoder(self) -> dict[int, Any]:
        """{id: AddedToken} of the added tokens (<s>, </s>, <mask>: which are special)."""
        from tokenizers import AddedToken

        return {a["id"]: AddedToken(a["content"], special=a.get("special", True)) for a in self.added}

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        special = {a["id"] for a in self.added if a.get("special")}
        kept = [
            self.pieces[i]
            for i in ids
            if 0 <= i < len(self.pieces) and not (skip_special_tokens and i in special)
        ]
        decoder = self.shell.decoder
        return decoder.decode(kept) if decoder is not None else "".join(kept)

    def encode(self, text: str) -> Encoded:
        from tokenizers import AddedToken, Tokenizer, models

        wanted = self._pieces_in(text)
        order = sorted(wanted)
        table = [(self.pieces[i], self.scores[i]) for i in order]
        small_unk = order.index(self.unk_id) if self.unk_id is not None else None
        tok = Tokenizer(models.Unigram(table, small_unk, self.byte_fallback))
        tok.normalizer = self.shell.normalizer
        tok.pre_tokenizer = self.shell.pre_tokenizer
        tok.post_processor = self.shell.post_processor
        tok.decoder = self.shell.decoder
        tok.add_special_tokens(
            [
                AddedToken(
                    a["content"],
                    single_word=a.get("single_word", False),
                    lstrip=a.get("lstrip", False),
                    rstrip=a.get("rstrip", False),
                    normalized=a.get("normalized", False),
                    special=a.get("special", True),
                )
                for a in self.added
                if a["id"] in wanted
            ]
        )
        enc = tok.encode(text)
        return Encoded(
            [order[i] for i in enc.ids], list(enc.tokens), list(enc.offsets), list(enc.special_tokens_mask)
        )

    def _pieces_in(self, text: str) -> set[int]:
        """Every piece that is a substring of a word the tokenizer will segment: the text's
        pieces between its added tokens (with and without the spaces they strip), and the
        whole text's, normalised and pre-tokenized as the tokenizer does."""
        wanted = set(range(self.lead)) | {self.lowest}
        present = [a for a in self.added if a["content"] and a["content"] in text]
        wanted |= {a["id"] for a in present}
        pattern = "|".join(re.escape(a["content"]) for a in present)
        segments = [text, *(re.split(pattern, text) if pattern else [])]
        normalizer, pre = self.shell.normalizer, self.shell.pre_tokenizer
        for segment in {v for s in segments for v in (s, s.strip(), s.lstrip(), s.rstrip())}:
            normal = normalizer.normalize_str(segment) if normalizer is not None else segment
            words = [w for w, _ in pre.pre_tokenize_str(normal)] if pre is not None else [normal]
            for word in words:
                for i in range(len(word)):
                    for j in range(i + 1, min(len(word), i + self.longest) + 1):
                        found = self.index.get(word[i:j])
                        if found is not None:
                            wanted.add(found)
        return wanted
