"""The converter and the catalogue on a tiny E5S1 file written here, and on broken files.

The tiny file has the real format (header, pieces, normalisation map, q4_0 and float32
tensors) at toy sizes, so a conversion takes a fraction of a second; the full-size model is
checked in test_multilingual_model.py.
"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer.models import catalogue, convert_e5, ready
from explorer.models.e5s1 import E5FormatError, dequantise_q4_0, read_e5s1

H, LAYERS, HEADS, FFN, POSITIONS, TYPES = 64, 2, 2, 128, 16, 2
PIECES = ["<s>", "<pad>", "</s>", "<unk>", "▁", "a", "b", "▁ab", "ж", "中", "文", "<mask>"]
SCORES = [0.0, 0.0, 0.0, 0.0, -2.0, -3.0, -3.5, -1.0, -4.0, -5.0, -6.0, 0.0]
ROWS = len(PIECES) + 2  # like the real file: more table rows than pieces


def _q4(rng, rows: int, cols: int) -> tuple[bytes, np.ndarray]:
    """Random q4_0 blocks and the values they stand for (computed independently)."""
    scales = rng.uniform(0.01, 0.1, size=(rows, cols // 32)).astype(np.float16)
    q = rng.integers(0, 16, size=(rows, cols // 32, 32))
    raw = bytearray()
    for r in range(rows):
        for b in range(cols // 32):
            raw += scales[r, b].tobytes()
            raw += bytes(int(q[r, b, j]) | (int(q[r, b, j + 16]) << 4) for j in range(16))
    values = (q - 8).astype(np.float32) * scales.astype(np.float32)[..., None]
    return bytes(raw), values.reshape(rows, cols)


def write_tiny_e5s1(path: Path, normalisation: dict[int, tuple[int, ...]], seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    tensors, expected = [], {}

    def f32(name, array):
        array = np.asarray(array, dtype=np.float32)
        tensors.append((name, 0, array.size, array.tobytes()))
        expected[name] = array

    def q4(name, rows, cols):
        raw, values = _q4(rng, rows, cols)
        tensors.append((name, 1, rows * cols, raw))
        expected[name] = values

    q4("emb.word", ROWS, H)
    f32("emb.pos", rng.normal(size=(POSITIONS, H)) * 0.1)
    f32("emb.type", rng.normal(size=(TYPES, H)) * 0.1)
    f32("emb.ln.w", 1 + rng.normal(size=H) * 0.1)
    f32("emb.ln.b", rng.normal(size=H) * 0.1)
    for i in range(LAYERS):
        for part, (rows, cols) in {
            "q": (H, H),
            "k": (H, H),
            "v": (H, H),
            "ao": (H, H),
            "fi": (FFN, H),
            "fo": (H, FFN),
        }.items():
            q4(f"l{i}.{part}.w", rows, cols)
            f32(f"l{i}.{part}.b", rng.normal(size=rows) * 0.1)
        for ln in ("aln", "oln"):
            f32(f"l{i}.{ln}.w", 1 + rng.normal(size=H) * 0.1)
            f32(f"l{i}.{ln}.b", rng.normal(size=H) * 0.1)

    blob = b"".join(p.encode() for p in PIECES)
    offsets = np.cumsum([0] + [len(p.encode()) for p in PIECES]).astype("<u4")
    norm = b"".join(
        struct.pack("<IB", cp, len(out)) + struct.pack(f"<{len(out)}I", *out)
        for cp, out in sorted(normalisation.items())
    )
    head = b"E5S1" + struct.pack("<I7ifi", 1, H, LAYERS, HEADS, FFN, ROWS, POSITIONS, TYPES, 1e-12, 32)
    head += struct.pack("<5iQ", len(PIECES), 0, 2, 1, 3, len(blob))
    head += offsets.tobytes() + np.asarray(SCORES, "<f4").tobytes() + blob
    head += struct.pack("<iI", len(normalisation), len(norm)) + norm
    directory_size = 4 + sum(2 + len(n) + 1 + 4 + 8 + 8 for n, *_ in tensors)
    offset = len(head) + directory_size
    directory, data = struct.pack("<i", len(tensors)), b""
    for name, dtype, count, raw in tensors:
        directory += (
            struct.pack("<H", len(name))
            + name.encode()
            + struct.pack("<BIQQ", dtype, count, offset, len(raw))
        )
        offset += len(raw)
        data += raw
    path.write_bytes(head + directory + data)
    return expected


@pytest.fixture(scope="module")
def real_normalisation():
    try:
        return read_e5s1(convert_e5.find_source()).normalisation
    except convert_e5.ConversionError as exc:
        pytest.fail(f"the source package is missing ({exc}); ./dev installs it")


@pytest.fixture()
def tiny(tmp_path, real_normalisation):
    path = tmp_path / "tiny.bin"
    return path, write_tiny_e5s1(path, real_normalisation)


def test_reader_and_dequantiser(tiny):
    path, expected = tiny
    source = read_e5s1(path)
    assert (source.hidden, source.layers, source.heads, source.ffn) == (H, LAYERS, HEADS, FFN)
    assert source.pieces == PIECES and source.scores.tolist() == SCORES
    assert (source.bos, source.eos, source.pad, source.unk) == (0, 2, 1, 3)
    np.testing.assert_array_equal(source.matrix("emb.word", (ROWS, H)), expected["emb.word"])
    np.testing.assert_array_equal(source.matrix("l1.fo.w", (H, FFN)), expected["l1.fo.w"])
    np.testing.assert_array_equal(source.matrix("l0.q.b", (H,)), expected["l0.q.b"])
    rows = np.array([7, 2, 9])
    np.testing.assert_array_equal(
        source.tensors["emb.word"].rows((ROWS, H), rows), expected["emb.word"][rows]
    )


def test_conversion_writes_a_standard_folder(tiny, tmp_path):
    transformers = pytest.importorskip("transformers")
    path, expected = tiny
    done = convert_e5.convert(path, tmp_path / "out")
    folder = done.folder
    kept = ["<s>", "<pad>", "</s>", "<unk>", "▁", "a", "b", "▁ab", "中", "文", "<mask>"]  # not ж
    assert done.pieces == len(kept) and done.source_pieces == len(PIECES)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [
            "config.json",
            "model.safetensors",
            "tokenizer.json",
            "tokenizer_config.json",
            "conversion.json",
            catalogue.CATALOGUE["multilingual"].notice,
        ]
    )
    model, info = transformers.XLMRobertaModel.from_pretrained(
        str(folder), add_pooling_layer=False, output_loading_info=True, dtype=torch.float32
    )
    assert not info["missing_keys"] and not info["unexpected_keys"]
    sd = model.state_dict()
    old = [PIECES.index(p) for p in kept]
    np.testing.assert_array_equal(sd["embeddings.word_embeddings.weight"].numpy(), expected["emb.word"][old])
    np.testing.assert_array_equal(
        sd["embeddings.position_embeddings.weight"][2:].numpy(), expected["emb.pos"]
    )
    np.testing.assert_array_equal(
        sd["encoder.layer.1.intermediate.dense.weight"].numpy(), expected["l1.fi.w"]
    )
    np.testing.assert_array_equal(
        sd["encoder.layer.0.attention.output.dense.bias"].numpy(), expected["l0.ao.b"]
    )

    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    enc = tok.encode("ab 中文 ж")
    # Unigram shows an unknown token as the text it covers; its id is <unk>'s.
    assert enc.tokens == ["<s>", "▁ab", "▁", "中", "文", "▁", "ж", "</s>"]
    assert enc.ids == [0, 7, 4, 8, 9, 4, 3, 2]
    info = json.loads((folder / "conversion.json").read_text())
    assert info["vocabulary"]["pieces"] == len(kept) and "4-bit q4_0 weights, dequantised" in info["summary"]


def test_up_to_date_and_reconversion(tiny, tmp_path, real_normalisation, monkeypatch):
    path, _ = tiny
    out = tmp_path / "out"
    sha = convert_e5.file_sha256(path)
    assert not convert_e5.is_up_to_date(out, sha)
    convert_e5.convert(path, out, sha)
    assert convert_e5.is_up_to_date(out, sha)
    stamp = (out / "model.safetensors").stat().st_mtime_ns
    assert convert_e5.ensure_converted(path, out) == out
    assert (out / "model.safetensors").stat().st_mtime_ns == stamp  # nothing rewritten
    monkeypatch.setattr(convert_e5, "RECIPE", "another character set")
    assert not convert_e5.is_up_to_date(out, sha)  # a new recipe converts again
    monkeypatch.undo()
    write_tiny_e5s1(path, real_normalisation, seed=1)  # a different source
    assert not convert_e5.is_up_to_date(out, convert_e5.file_sha256(path))
    convert_e5.ensure_converted(path, out)
    assert convert_e5.is_up_to_date(out, convert_e5.file_sha256(path))


def test_the_frozen_bundle_converts_its_source_on_first_use(tiny, tmp_path, monkeypatch):
    path, _ = tiny
    bundle = tmp_path / "bundle"
    (bundle / "models" / "multilingual-e5-small").mkdir(parents=True)
    (bundle / "models" / "multilingual-e5-small" / catalogue.BUNDLED_SOURCE_NAME).write_bytes(
        path.read_bytes()
    )
    notice = catalogue.CATALOGUE["multilingual"].notice
    (bundle / "resources" / "licenses").mkdir(parents=True)  # the spec ships resources/ whole
    (bundle / "resources" / "licenses" / notice).write_bytes(
        (Path(__file__).parents[2] / "resources" / "licenses" / notice).read_bytes()
    )
    target = tmp_path / "user-data" / "multilingual-e5-small"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    monkeypatch.setenv(catalogue.MULTILINGUAL_DIR_ENV, str(target))
    assert catalogue.status("multilingual") == "convertible"
    assert ready.ready_dir("multilingual") == target
    assert catalogue.status("multilingual") == "installed"
    assert json.loads((target / "config.json").read_text())["model_type"] == "xlm-roberta"


def test_catalogue_entries_and_locations(monkeypatch, tmp_path):
    assert catalogue.MODEL_KEYS == ("minilm", "multilingual")
    multi = catalogue.CATALOGUE["multilingual"]
    assert "4-bit weights dequantised" in multi.description and "Chinese/English/French" in multi.description
    assert (
        multi.licence == "MIT"
        and (Path(__file__).parents[2] / "resources" / "licenses" / multi.notice).is_file()
    )
    assert catalogue.share_dir("multilingual", "/p") == Path(
        "/p/share/attention-explorer/models/multilingual-e5-small"
    )
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    assert (
        catalogue.data_dir("multilingual")
        == tmp_path / "attention-explorer" / "models" / "multilingual-e5-small"
    )
    monkeypatch.setenv(catalogue.MULTILINGUAL_DIR_ENV, str(tmp_path / "x"))
    assert catalogue.model_dir("multilingual") == tmp_path / "x"  # as given: the loader names what is wrong
    assert catalogue.status("multilingual") == "missing"
    with pytest.raises(KeyError):
        catalogue.model_dir("bogus")


def test_installed_reports_both_models():
    found = catalogue.installed()
    assert set(found) == {"minilm", "multilingual"}
    assert found["minilm"] is not None and found["multilingual"] is not None
    assert all(catalogue.status(key) == "installed" for key in found)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda raw: b"XXXX" + raw[4:], "not an E5S1 model file"),
        (lambda raw: raw[:1000], "truncated"),
        (lambda raw: raw[:-100], "beyond the file"),
        (lambda raw: b"", "not an E5S1 model file"),
    ],
)
def test_damaged_sources_give_one_line(tiny, tmp_path, damage, message, capsys):
    path, _ = tiny
    bad = tmp_path / "bad.bin"
    bad.write_bytes(damage(path.read_bytes()))
    with pytest.raises(E5FormatError, match=message):
        read_e5s1(bad)
    assert convert_e5.main(["--source", str(bad), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot read") and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_missing_source_file(tmp_path, capsys):
    assert convert_e5.main(["--source", str(tmp_path / "none.bin"), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'none.bin'} does not exist\n"


def test_dequantiser_rejects_partial_blocks():
    with pytest.raises(E5FormatError, match="whole 32-value blocks"):
        dequantise_q4_0(b"\0" * 18, (10,))


def test_a_conversion_that_cannot_write_is_one_line(tiny, tmp_path):
    path, _ = tiny
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(convert_e5.ConversionError, match="cannot convert tiny.bin into .*a-file/x"):
        convert_e5.ensure_converted(path, blocker / "x")
