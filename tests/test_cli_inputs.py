"""Inputs and outputs a trial got past the commands: each is refused with exit 2, one line,
no file written and no input touched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from explorer import reading
from explorer.resources import resource_path
from tests.commands import refused
from tests.models import tiny

ROOT = Path(__file__).resolve().parent.parent

WRITERS = {
    "trace": ["trace", "--sentence", "a b", "--weights", "random"],
    "translate": ["translate", "--source", "9.5.18"],
    "vision": ["vision", "--generate", "7"],
    "length-curve": ["length-curve", "--shipped"],
    "data-curve": ["data-curve"],
}


ONLY_EXTENSIONS = [
    (command, name)
    for command in WRITERS
    for name in (
        (".json", ".png", "sub/.json") if command.endswith("curve") else (".json", ".npz", "sub/.npz")
    )
]


@pytest.mark.parametrize(("command", "name"), ONLY_EXTENSIONS)
def test_an_out_that_is_only_an_extension_is_refused(run, tmp_path, command, name):
    """``--out .json`` wrote a hidden file named ``.json``."""
    (tmp_path / "sub").mkdir()
    out = tmp_path / name
    line = refused(run(*WRITERS[command], "--out", str(out)), "has no file name before its extension")
    assert line.startswith("error: --out ")
    assert not out.exists()


def test_an_html_that_is_only_an_extension_is_refused(run, tmp_path):
    out = tmp_path / ".html"
    refused(run(*WRITERS["trace"], "--html", str(out)), "--html", "has no file name before its extension")
    assert not out.exists()


def test_a_hidden_name_with_a_stem_is_still_a_name(run, tmp_path):
    """``.run.json`` has a name before its extension: written as before."""
    out = tmp_path / ".run.json"
    result = run(*WRITERS["vision"], "--out", str(out))
    assert result.returncode in (0, None), result.stderr
    assert out.exists()


def kept(path: Path, text: str = '{"keep": true}') -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def shipped_copy(tmp_path: Path, name: str) -> Path:
    return Path(shutil.copytree(resource_path("seq2seq", name), tmp_path / name))


def test_a_trace_out_over_its_model_folders_config_is_refused(run, tmp_path):
    """``--out MODEL/config.json`` overwrote the config the run had just read."""
    config = kept(tmp_path / "m" / "config.json")
    for option in ("--out", "--html"):
        target = config if option == "--out" else kept(tmp_path / "m" / "notes.html", "keep")
        before = target.read_text()
        line = refused(run(*WRITERS["trace"][:-2], "--model-dir", str(config.parent), option, str(target)))
        assert line.startswith(f"error: {option} {target} is a file in --model-dir "), line
        assert "which this run reads" in line and target.read_text() == before


def test_a_new_file_in_the_model_folder_is_still_written(run, tmp_path):
    folder = tiny.build(tmp_path / "m")
    out = folder / "trace.json"
    result = run("trace", "--sentence", "the cat", "--model-dir", str(folder), "--out", str(out))
    assert result.returncode in (0, None), result.stderr
    assert out.exists()


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["translate", "--source", "Jane visits Africa"], "compound-fr-attention"),
        (["translate", "--source", "a b c"], "copy-twice-local-p"),
        (["translate", "--source", "9.5.18"], "bahdanau-additive"),
    ],
)
def test_a_translation_out_over_its_checkpoint_is_refused(run, tmp_path, command, name):
    folder = shipped_copy(tmp_path, name)
    config = folder / "config.json"
    before = config.read_bytes()
    line = refused(run(*command, "--checkpoint", str(folder), "--out", str(config)), "which this run reads")
    assert f"--checkpoint {folder}" in line and config.read_bytes() == before


def test_a_vision_out_over_its_checkpoint_is_refused(run, tmp_path):
    stem = tmp_path / "run" / "se"
    meta = kept(stem.with_suffix(".json"))
    kept(stem.with_suffix(".safetensors"), "weights")
    for given in (str(stem), str(meta)):
        line = refused(run("vision", "--generate", "7", "--checkpoint", given, "--out", str(meta)))
        assert (
            line
            == f"error: --out {meta} is --checkpoint {meta}, which this run reads: give another file to write"
        )
        assert meta.read_text() == '{"keep": true}'


@pytest.mark.parametrize("link", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("command", ["length-curve", "data-curve"])
def test_a_curve_out_over_its_from_file_is_refused(run, tmp_path, command, link):
    """``--from a.json --out a.json`` (or a link to it) overwrote the result it drew."""
    source = kept(tmp_path / "a.json")
    out = {"same": source, "symlink": tmp_path / "l.json", "hardlink": tmp_path / "h.json"}[link]
    if link == "symlink":
        out.symlink_to(source)
    elif link == "hardlink":
        os.link(source, out)
    line = refused(run(command, "--from", str(source), "--out", str(out)), "which this run reads")
    assert line.startswith(f"error: --out {out} is --from {source}"), line
    assert source.read_text() == '{"keep": true}'


# -- not a regular file ------------------------------------------------------------------------
def test_a_fifo_or_a_device_is_refused_before_it_is_opened(tmp_path):
    """A FIFO blocked the open forever; /dev/zero was read until "too large"."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    done: list[str] = []

    def read_each() -> None:
        for path in (fifo, Path("/dev/zero")):
            for call in (reading.file, reading.read_bytes, reading.read_text):
                try:
                    call(path)
                except reading.ReadError as exc:
                    done.append(str(exc))

    worker = threading.Thread(target=read_each, daemon=True)  # a hang fails, never blocks the run
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert (
        done
        == [f"{fifo}: it is not a regular file (a pipe, a device or a socket)"] * 3
        + ["/dev/zero: it is not a regular file (a pipe, a device or a socket)"] * 3
    )


def as_a_process(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


@pytest.mark.parametrize("kind", ["fifo", "device"])
@pytest.mark.parametrize("command", ["trace", "translate", "length-curve", "data-curve"])
def test_a_command_given_a_fifo_or_a_device_says_so(tmp_path, command, kind):
    """Each command's input as a FIFO (it hung) or /dev/zero: one line, exit 2, in time."""
    folder = tmp_path / "in"
    if command == "trace":
        kept(folder / "tokenizer.json")
        target = folder / "config.json"
        args = ["trace", "--sentence", "a b", "--model-dir", str(folder)]
    elif command == "translate":
        folder = shipped_copy(tmp_path, "compound-fr-attention")
        target = folder / "config.json"
        target.unlink()
        args = ["translate", "--source", "Jane", "--task", "compound-fr", "--checkpoint", str(folder)]
    else:
        folder.mkdir()
        target = folder / "r.json"
        args = [command, "--from", str(target)]
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    result = as_a_process(*args, "--out", str(tmp_path / "o.json"))
    refused(result, f"{target}: it is not a regular file")
    assert not (tmp_path / "o.json").exists()


# -- config.json and tokenizer_config.json -----------------------------------------------------
@pytest.mark.parametrize("family", ["bert", "roberta"])
@pytest.mark.parametrize("value", [0, 10**12])
def test_a_type_vocab_size_of_zero_or_too_large_is_refused(run, tmp_path, family, value):
    """0 token types was accepted: the model looks up type 0 in a table of no rows."""
    folder = tiny.build(tmp_path / family, family)
    tiny.edit_config(folder, type_vocab_size=value)
    out = tmp_path / "t.json"
    line = refused(run("trace", "--sentence", "the cat", "--model-dir", str(folder), "--out", str(out)))
    assert "type_vocab_size" in line and str(value) in line and not out.exists()


def test_distilbert_still_has_no_token_types(run, tmp_path):
    folder = tiny.build(tmp_path / "distilbert", "distilbert")
    out = tmp_path / "t.json"
    result = run("trace", "--sentence", "the cat", "--model-dir", str(folder), "--out", str(out))
    assert result.returncode in (0, None), result.stderr


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("tokenizer_config.json", "{not json", "tokenizer_config.json is unreadable (invalid JSON: "),
        ("tokenizer_config.json", "[1, 2]", "tokenizer_config.json holds no JSON object"),
        ("special_tokens_map.json", '"[UNK]"', "special_tokens_map.json holds no JSON object"),
        ("tokenizer_config.json", b"\xff\xfe{}", "tokenizer_config.json is unreadable (not UTF-8 text)"),
    ],
)
def test_a_corrupt_tokenizer_config_is_refused_naming_it(run, tmp_path, name, text, words):
    """It was passed over silently: the tokenizer read without its settings (lower-casing, tokens)."""
    folder = tiny.build(tmp_path / "m")
    path = folder / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    out = tmp_path / "t.json"
    line = refused(run("trace", "--sentence", "the cat", "--model-dir", str(folder), "--out", str(out)))
    assert f"{path} " in line and words in line and not out.exists(), line


# -- symbolic links that loop ------------------------------------------------------------------
@pytest.mark.parametrize("where", ["file", "folder on the way"])
@pytest.mark.parametrize("command", ["length-curve", "data-curve"])
def test_a_from_that_loops_is_the_one_loop_line(run, tmp_path, command, where):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    given = loop if where == "file" else loop / "r.json"
    out = tmp_path / "o.json"
    line = refused(run(command, "--from", str(given), "--out", str(out)))
    assert line == f"error: {given}: it loops through symbolic links" and not out.exists()


def test_data_curve_checkpoints_that_loop_is_the_one_loop_line(run, tmp_path):
    """It said "no data-curve checkpoints (MODEL-SIZE.json) in it"."""
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    line = refused(run("data-curve", "--checkpoints", str(loop), "--out", str(tmp_path / "o.json")))
    assert line == f"error: {loop}: it loops through symbolic links"
