"""The Unigram read piece by piece (explorer/models/unigram_table.py) tokenizes exactly as
``tokenizers`` does: the same ids, tokens, offsets and special-token marks, on texts in many
scripts, with added tokens inside words, unknown characters and random strings; and reading
it hands the interpreter lock back every few milliseconds, where ``Tokenizer.from_file``
held it for the whole load (0.3–1 s for multilingual-e5: the window froze)."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
from tokenizers import Tokenizer

from explorer.logsetup import DATA_DIR_ENV
from explorer.models import catalogue, ready, unigram_table
from explorer.models.tokenizer import load_tokenizer
from explorer.models.unigram_table import LARGE, PieceTable, read_large_unigram
from tests.models import tiny

TEXTS = [
    "The animal didn't cross the street because it was too tired",
    "这只动物没有过马路，因为它太累了。",
    "Jane visite l'Afrique en septembre",
    "attention 😀 is 🚀 all you need",
    "שלום עולם and مرحبا بالعالم",
    "  leading and   multiple   spaces ",
    "tab\there bell\x07 escape\x1b end",
    "Ünïcödé ﬁ ligatures ½ ² ＡＢＣ full-width",
    "<s> hello </s> <mask> <unk> <pad>",
    "a<mask>b",
    " <mask> x<s>y</s>z",
    "<mask><mask>",
    "x" * 300,
    "日本語のテキストと한국어",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math",
    "",
    "caf\u0065\u0301 naïve coöperate",
    "\u200b zero width \u200d joiner",
    "Привет мир, Ελληνικά, हिन्दी, ไทย",
]


def same(table: PieceTable, full: Tokenizer, text: str) -> None:
    mine, theirs = table.encode(text), full.encode(text)
    assert mine.ids == theirs.ids, text
    assert mine.tokens == theirs.tokens, text
    assert mine.offsets == [tuple(o) for o in theirs.offsets], text
    assert mine.special_tokens_mask == theirs.special_tokens_mask, text


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A tiny XLM-R-kind tokenizer.json, read as a table whatever its size."""
    folder = tmp_path_factory.mktemp("unigram")
    tiny._unigram_tokenizer(folder)
    path = folder / "tokenizer.json"
    return read_large_unigram(path, large=0), Tokenizer.from_file(str(path)), folder


def test_the_table_tokenizes_as_tokenizers_does(small):
    table, full, _ = small
    for text in TEXTS + tiny.CORPUS:
        same(table, full, text)


def test_random_strings_of_its_own_pieces_and_strangers(small):
    table, full, _ = small
    rng = random.Random(0)
    alphabet = sorted({c for p in table.pieces for c in p} | set(" 😀字éß<>/"))
    words = [p.replace("▁", " ") for p in table.pieces] + ["<mask>", "<s>", "</s>"]
    for _ in range(300):
        parts = [
            rng.choice(words) if rng.random() < 0.6 else rng.choice(alphabet)
            for _ in range(rng.randint(0, 12))
        ]
        same(table, full, "".join(parts))


def test_the_rest_of_the_tokenizer_answers_alike(small):
    table, full, folder = small
    assert table.get_vocab_size() == full.get_vocab_size(with_added_tokens=True)
    assert table.get_vocab() == full.get_vocab(with_added_tokens=True)
    ids = full.encode("the animal 这只动物").ids
    assert table.decode(ids, skip_special_tokens=False) == full.decode(ids, skip_special_tokens=False)
    assert table.decode(ids) == full.decode(ids)
    assert [table.id_to_token(i) for i in ids] == [full.id_to_token(i) for i in ids]
    assert table.token_to_id("<mask>") == full.token_to_id("<mask>") and table.unk_token == "<unk>"
    loaded = load_tokenizer(folder, wordpiece_family=False)  # small: tokenizers' own, as before
    assert isinstance(loaded._tok, Tokenizer)


AWKWARD = ["], [", '"], ["', "\\", "],", "]", "[", '"', "é", "\u2028", "a\\], [b", " , ", "𝔘"]


@pytest.mark.parametrize("batch", [1, 7, 40, 1 << 16])
def test_the_table_read_in_batches_is_the_files_table(small, tmp_path, monkeypatch, batch):
    """Pieces whose text looks like the table's own punctuation, escaped or not: every cut a
    batch makes (one inside a piece's text among them) gives the file's pieces and scores, and
    the index, lowest score and longest piece read a block at a time are the whole table's."""
    _, _, folder = small
    data = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    vocab = data["model"]["vocab"] + [[p, -20.0 - i / 3] for i, p in enumerate(AWKWARD)] + [["last", -99]]
    data["model"]["vocab"] = vocab
    path = tmp_path / "tokenizer.json"
    for ascii_only in (True, False):  # escapes (\u00e9) and raw characters
        path.write_text(json.dumps(data, ensure_ascii=ascii_only, indent=None if ascii_only else 1))
        monkeypatch.setattr(unigram_table, "BATCH", batch)
        monkeypatch.setattr(unigram_table, "BLOCK", 3)
        table = read_large_unigram(path, large=0)
        assert table.pieces == [p for p, _ in vocab] and table.scores == [float(s) for _, s in vocab]
        assert table.index == {p: i for i, p in enumerate(table.pieces)}
        assert table.lowest == table.scores.index(min(table.scores)) and table.longest == max(
            map(len, AWKWARD)
        )


def awkward_file(small, folder, extra=()):
    """The small tokenizer.json with AWKWARD pieces (and ``extra``) after its own, in ``folder``."""
    data = json.loads((small[2] / "tokenizer.json").read_text(encoding="utf-8"))
    vocab = data["model"]["vocab"] + [[p, -20.0 - i / 3] for i, p in enumerate([*AWKWARD, *extra])]
    data["model"]["vocab"] = vocab
    path = folder / "tokenizer.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path, [p for p, _ in vocab], [float(s) for _, s in vocab]


def read_without_parsing(path, monkeypatch, large=0):
    """The table read with the parser out of reach: only the data folder's copy can answer."""
    with monkeypatch.context() as m:
        m.setattr(unigram_table, "_parse", lambda *a: pytest.fail("parsed the file again"))
        return read_large_unigram(path, large=large)


@pytest.mark.parametrize("extra", [(), ("line\nbreak",), ("line\nbreak", "nul\x00")])
def test_a_second_read_is_the_data_folders_copy_of_the_same_table(small, tmp_path, monkeypatch, extra):
    """The first read keeps the table in the data folder; the next one reads that copy (no
    parse) and is the same table, tokenizing as tokenizers does, whatever characters the pieces
    hold (a piece with a line break: another separator joins them)."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    path, pieces, scores = awkward_file(small, tmp_path, extra)
    first = read_large_unigram(path, large=0)
    assert list((tmp_path / "data" / unigram_table.CACHE_DIR).iterdir())  # kept
    second = read_without_parsing(path, monkeypatch)
    full = Tokenizer.from_file(str(path))
    for table in (first, second):
        assert table.pieces == pieces and table.scores == scores
        assert table.index == {p: i for i, p in enumerate(pieces)}
        assert (table.lowest, table.longest, table.lead) == (first.lowest, first.longest, first.lead)
        for text in [*TEXTS, *AWKWARD, *extra]:
            same(table, full, text)
    assert second.shell.to_str() == first.shell.to_str()
    assert read_without_parsing(path, monkeypatch, large=len(pieces) + 1) is None  # too small: tokenizers'


def test_a_changed_or_damaged_copy_is_never_read(small, tmp_path, monkeypatch):
    """A file changed since its copy was made is parsed again (its new pieces are there), and so
    is one whose copy was cut short or garbled; a data folder that cannot be written only
    means the next load parses again."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    path, pieces, _ = awkward_file(small, tmp_path)
    read_large_unigram(path, large=0)
    path, pieces, _ = awkward_file(small, tmp_path, ("new",))  # rewritten: another size
    assert read_large_unigram(path, large=0).pieces == pieces
    assert read_without_parsing(path, monkeypatch).pieces == pieces  # the new copy
    (folder,) = (tmp_path / "data" / unigram_table.CACHE_DIR).iterdir()
    for name, damage in (("scores.f64", b"\0" * 8), ("pieces.txt", b"a\nb"), ("table.json", b"{")):
        kept = (folder / name).read_bytes()
        (folder / name).write_bytes(damage)
        parsed = []
        with monkeypatch.context() as m:
            real = unigram_table._parse
            m.setattr(
                unigram_table, "_parse", lambda *a, parsed=parsed, real=real: parsed.append(1) or real(*a)
            )
            assert read_large_unigram(path, large=0).pieces == pieces
        assert parsed == [1], name
        assert (folder / name).read_bytes() == kept  # written again
    (tmp_path / "blocked").write_text("a file where the data folder should be")
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "blocked"))
    assert read_large_unigram(path, large=0).pieces == pieces


def test_other_models_are_left_to_tokenizers(tmp_path):
    tiny._bert_tokenizer(tmp_path)  # WordPiece
    assert read_large_unigram(tmp_path / "tokenizer.json", large=0) is None


def turns_of_another_thread(work) -> int:
    """How many times another thread got to run while ``work`` ran on this one: the
    interpreter hands the lock over every few milliseconds unless a call holds it."""
    turns, done = [0], threading.Event()

    def other():
        while not done.is_set():
            turns[0] += 1
            time.sleep(0.001)

    thread = threading.Thread(target=other)
    thread.start()
    while turns[0] == 0:  # it runs
        time.sleep(0.001)
    before = turns[0]
    try:
        work()
    finally:
        during = turns[0] - before
        done.set()
        thread.join()
    return during


@pytest.mark.skipif(
    ready.ready_dir(catalogue.MULTILINGUAL) is None, reason="the multilingual model is not converted"
)
def test_the_multilingual_tokenizer_as_tokenizers_reads_it_and_without_holding_the_lock(
    tmp_path, monkeypatch
):
    """No time is measured: tokenizers' load lets no other thread run (the window could not
    paint), the table's lets it run along the way; the data folder's copy read next time
    tokenizes alike."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))  # no copy yet: the file is parsed
    path = ready.ready_dir(catalogue.MULTILINGUAL) / "tokenizer.json"
    loaded: list = []
    assert turns_of_another_thread(lambda: loaded.append(Tokenizer.from_file(str(path)))) <= 2
    assert turns_of_another_thread(lambda: loaded.append(read_large_unigram(path))) >= 10
    assert turns_of_another_thread(lambda: loaded.append(read_without_parsing(path, monkeypatch, LARGE))) >= 1
    full, table, kept = loaded
    assert isinstance(table, PieceTable) and kept.pieces == table.pieces and kept.scores == table.scores
    for text in TEXTS:
        same(table, full, text)
        same(kept, full, text)
