"""The user's files that readers outside reading.py used to open themselves: each now goes
through reading.py, so a FIFO, a folder, a file that cannot be read and a link loop are each
the one "PATH: REASON" line of reading's words, never a traceback, a misleading line, None
for a file that is there, or an open that waits forever on a pipe.
"""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest

from explorer import reading

REASONS = {
    "fifo": "it is not a regular file (a pipe, a device or a socket)",
    "folder": "it is a folder, not a file",
    "denied": "it cannot be read (permission denied)",
    "loop": "it loops through symbolic links",
}


def broken(kind: str, path: Path, monkeypatch) -> Path:
    """A path of this kind of brokenness. "denied": a file that reading.py's open refuses as
    the operating system does for a file without the read bit (as root it would not)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "loop":
        path.symlink_to(path)
    else:
        path.write_text("{}")
        real_open = open

        def refusing(name, *args, **kwargs):
            if Path(name) == path:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(name))
            return real_open(name, *args, **kwargs)

        monkeypatch.setattr(reading, "open", refusing, raising=False)
    return path


def char_vocab(path: Path):
    from explorer.lm.vocab import CharVocab

    return CharVocab.from_tokenizer_file(path)


def lab_history(path: Path):
    from explorer.lab.history import read_history

    return read_history(path)


def session(path: Path):
    from explorer.appstate.session import load_session

    return load_session(path)


def tokenizer_json(path: Path):
    from explorer.models.tokenizer import _json

    return _json(path)


def unigram_table(path: Path):
    from explorer.models.unigram_table import read_large_unigram

    return read_large_unigram(path)


READERS = {
    "unigram table": (unigram_table, "tokenizer.json", "explorer.models.errors:ModelError"),
    "tokenizer.json re-read": (tokenizer_json, "tokenizer.json", "explorer.models.errors:ModelError"),
    "session": (session, "lesson.aexp.json", "explorer.appstate.session:SessionError"),
    "lab history": (lab_history, "w.history.json", "explorer.reading:ReadError"),
    "lm vocab": (char_vocab, "tokenizer.json", "explorer.lm.errors:LMError"),
}


def error_class(spec: str) -> type:
    import importlib

    module, name = spec.split(":")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("kind", list(REASONS))
@pytest.mark.parametrize("reader", list(READERS))
def test_a_broken_path_is_reading_s_one_line(reader, kind, tmp_path, monkeypatch):
    call, name, error = READERS[reader]
    path = broken(kind, tmp_path / name, monkeypatch)
    outcome: list[object] = []

    def read() -> None:
        try:
            outcome.append(call(path))
        except Exception as exc:  # the test says which kind it must be
            outcome.append(exc)

    worker = threading.Thread(target=read, daemon=True)  # a hang fails, never blocks the run
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "reading a FIFO blocked"
    (result,) = outcome
    assert isinstance(result, error_class(error)), repr(result)
    assert str(result) == f"{path}: {REASONS[kind]}"


@pytest.mark.parametrize("kind", list(REASONS))
def test_a_broken_shipped_history_is_none_without_waiting(kind, tmp_path, monkeypatch):
    """The lab's shipped history beside its weights: one that cannot be read is none shipped,
    and a FIFO under its name no longer blocks the window."""
    from explorer.lab.history import history_path, shipped_history

    weights = tmp_path / "w.safetensors"
    broken(kind, history_path(weights), monkeypatch)
    outcome: list[object] = []
    worker = threading.Thread(target=lambda: outcome.append(shipped_history(weights)), daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert outcome == [None]
