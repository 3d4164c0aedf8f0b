"""What the user names, read through one path (explorer/reading.py): every problem the
operating system reports is one line that says what is wrong with that path.

The trial found tracebacks for a model folder that cannot be read or that loops through
symbolic links, for text arguments that are not UTF-8 and for numbers too large for their
option; an empty --model-dir silently used the bundled model, a file given as --model-dir
"did not exist", an unreadable file was "No such file". Each here, through the commands.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from explorer import reading
from explorer.resources import resource_path
from tests.commands import refused

ROOT = Path(__file__).resolve().parents[1]
# As root, permissions do not stop reads; without these capabilities they do.
SETPRIV = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-all"]


@pytest.fixture
def loop(tmp_path) -> Path:
    link = tmp_path / "loop"
    link.symlink_to(link)
    return link


def as_a_user(tmp_path, *args: bytes | str) -> subprocess.CompletedProcess:
    """``python -m explorer ARGS`` as a process that file permissions apply to."""
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("as root, an unreadable file needs setpriv to stay unreadable")
        prefix = [*SETPRIV, "--"]
    else:
        prefix = []
    env = {**os.environ, "PYTHONPATH": str(ROOT), "EXPLORER_DATA_DIR": str(tmp_path / "data")}
    command = [*prefix, sys.executable, "-m", "explorer", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)


# -- the one path ------------------------------------------------------------------------------
def test_each_os_error_becomes_its_own_words(tmp_path, loop):
    a_file = tmp_path / "a.txt"
    a_file.write_text("x", encoding="utf-8")
    for call, words in (
        (lambda: reading.folder(tmp_path / "absent"), "absent: it does not exist"),
        (lambda: reading.folder(loop), "loops through symbolic links"),
        (lambda: reading.folder(a_file), "is a file, not a folder"),
        (lambda: reading.file(tmp_path), "is a folder, not a file"),
        (lambda: reading.read_bytes(a_file / "x"), "before it is a file"),
        (lambda: reading.user_path("", "--model-dir"), "--model-dir is empty"),
    ):
        with pytest.raises(reading.ReadError) as caught:
            call()
        assert words in str(caught.value) and "\n" not in str(caught.value)
    assert not reading.present(tmp_path / "absent") and reading.present(a_file)
    with pytest.raises(reading.ReadError, match="symbolic links"):
        reading.present(loop / "config.json")  # Path.exists() says False: "does not exist"
    assert reading.read_text(a_file) == "x"


def test_the_callers_error_class_is_kept(tmp_path):
    from explorer.models.errors import ModelError

    with pytest.raises(ModelError, match="it does not exist"):
        reading.folder(tmp_path / "absent", ModelError)


# -- model folders -------------------------------------------------------------------------------
def test_model_folders_that_cannot_be_used_say_why(run, tmp_path, loop):
    out = str(tmp_path / "t.json")
    a_file = tmp_path / "a.txt"
    a_file.write_text("x", encoding="utf-8")
    refused(run("trace", "--model-dir", str(loop), "--out", out), "loops through symbolic links")
    refused(run("trace", "--model-dir", str(a_file), "--out", out), "a file, not a folder")
    refused(run("trace", "--model-dir", "", "--out", out), "--model-dir is empty")  # not the bundled one
    refused(run("trace", "--model-dir", str(tmp_path / "absent"), "--out", out), "does not exist")
    assert not Path(out).exists()


@pytest.mark.parametrize(
    "args,words",
    [
        (("translate", "--source", "9 mai 2018", "--checkpoint", ""), "--checkpoint is empty"),
        (("vision", "--generate", "1", "--checkpoint", ""), "--checkpoint is empty"),
        (("vision", "--image", ""), "--image is empty"),
    ],
    ids=["translation checkpoint", "vision checkpoint", "vision picture"],
)
def test_an_empty_path_is_refused_not_read_as_the_current_folder_or_the_shipped_model(
    run, tmp_path, args, words
):
    """``--checkpoint ""`` read the current folder ("no checkpoint in /home/…") or ran the
    shipped model; ``--image ""`` read the current folder."""
    out = tmp_path / "t.json"
    refused(run(*args, "--out", str(out)), words)
    assert not out.exists()


def test_an_unreadable_model_folder_or_checkpoint_says_permission_denied(tmp_path):
    from explorer.models.loader import default_model_dir

    folder = tmp_path / "locked"
    shutil.copytree(default_model_dir(), folder, ignore=shutil.ignore_patterns("*.safetensors"))
    folder.chmod(0)
    listed = tmp_path / "listed"  # read but not search permission: a traceback before
    shutil.copytree(default_model_dir(), listed, ignore=shutil.ignore_patterns("*.safetensors"))
    listed.chmod(0o644)
    checkpoint = tmp_path / "checkpoint"
    shutil.copytree(resource_path("seq2seq", "bahdanau-additive"), checkpoint)
    (checkpoint / "model.safetensors").chmod(0)
    try:
        out = str(tmp_path / "t.json")
        for args in (
            ("trace", "--model-dir", str(folder), "--out", out),
            ("trace", "--model-dir", str(listed), "--out", out),
            ("translate", "--source", "9 mai 2018", "--checkpoint", str(checkpoint), "--out", out),
        ):
            line = refused(as_a_user(tmp_path, *args), "permission denied")
            assert "No such file" not in line
    finally:
        folder.chmod(0o755)
        listed.chmod(0o755)


# -- text and numbers on the command line ------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ("trace", "--sentence", b"caf\xe9 \xff"),
        ("trace", "--query", b"\xc3"),
        ("translate", "--source", b"9 mai \xff"),
    ],
    ids=["sentence", "query", "translation source"],
)
def test_text_that_is_not_utf8_is_refused_in_one_line(tmp_path, args):
    result = subprocess.run(
        [sys.executable.encode(), b"-m", b"explorer", *(a if isinstance(a, bytes) else a.encode() for a in args),
         b"--out", str(tmp_path / "t.json").encode()],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "EXPLORER_DATA_DIR": str(tmp_path / "data")},
        timeout=600,
    )  # fmt: skip
    result = subprocess.CompletedProcess(
        args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )
    refused(result, "not valid UTF-8")


HUGE = "9" * 30


@pytest.mark.parametrize(
    "args,words",
    [
        (("trace", "--weights", "random", "--seed", HUGE), "seed must be a whole number from 0 to"),
        (("trace", "--mask", f"window:{HUGE}"), "the size must be at most"),
        (("trace", "--mask", f"valid:{HUGE}"), "the size must be at most"),
        (
            ("translate", "--source", "9 mai 2018", "--attention", "sample", "--seed", HUGE),
            "--seed must be from 0",
        ),
    ],
    ids=["seed", "window", "valid length", "translation seed"],
)
def test_numbers_too_large_for_their_option_are_refused(run, tmp_path, args, words):
    out = tmp_path / "t.json"
    refused(run(*args, "--out", str(out)), words)
    assert not out.exists()


def test_sizes_in_config_json_beyond_any_model_are_refused(run, tmp_path):
    from tests.models import tiny

    for key in ("hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size"):
        folder = tiny.build(tmp_path / key)
        tiny.edit_config(folder, **{key: 10**30})
        refused(run("trace", "--model-dir", str(folder), "--out", str(tmp_path / "t.json")), key)


# -- the window's files ---------------------------------------------------------------------------
def test_unreadable_sessions_and_pictures_say_why(tmp_path, loop):
    from explorer.appstate.session import SessionError, load_session
    from explorer.vision.images import ImageError, load_image

    with pytest.raises(SessionError, match="loops through symbolic links"):
        load_session(loop)
    with pytest.raises(ImageError, match="loops through symbolic links"):
        load_image(loop)
    with pytest.raises(SessionError, match="a folder, not a file"):
        load_session(tmp_path)
