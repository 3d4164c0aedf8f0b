"""``--out`` never creates missing folders: a mistyped path fails with one line and status 2,
for every command that writes (``vision --out /nonexistent/dir/x.json`` once made the folder)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from explorer.cli import main

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = {
    "trace": ["trace", "--sentence", "a b", "--weights", "random"],
    "translate": ["translate", "--source", "9.5.18"],
    "vision": ["vision", "--generate", "7"],
    "train": ["train", "--model", "bahdanau", "--steps", "1", "--seed", "0"],
    "train-vision": ["train-vision", "--model", "se", "--steps", "1"],
}
FOLDER_OUT = {"train", "train-vision"}  # --out names a folder


@pytest.mark.parametrize("command", COMMANDS)
def test_a_missing_folder_is_refused_and_not_created(command, tmp_path, capsys):
    missing = tmp_path / "nonexistent" / "dir"
    out = missing / ("run" if command in FOLDER_OUT else "x.json")
    with pytest.raises(SystemExit) as exit_:
        main([*COMMANDS[command], "--out", str(out)])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == f"error: the folder {missing} does not exist\n"
    assert not (tmp_path / "nonexistent").exists()


def test_train_may_make_its_own_folder_but_not_the_ones_above(tmp_path, capsys):
    """train's --out DIR is created (its parent exists); the checkpoint lands in it."""
    out = tmp_path / "new-run"
    code = main([*COMMANDS["train-vision"], "--out", str(out), "--eval-every", "1", "--pool-size", "64"])
    assert code in (0, None) and out.is_dir() and (out / "se.safetensors").exists()


def test_vision_into_a_missing_folder_as_a_process(tmp_path):
    missing = tmp_path / "nonexistent" / "dir"
    result = subprocess.run(
        [sys.executable, "-m", "explorer", "vision", "--generate", "7", "--out", str(missing / "x.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == f"error: the folder {missing} does not exist"
    assert not missing.parent.exists()
    # an existing folder still works
    result = subprocess.run(
        [sys.executable, "-m", "explorer", "vision", "--generate", "7", "--out", str(tmp_path / "x.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "x.json").exists()


@pytest.mark.parametrize("command", ["trace", "translate"])
@pytest.mark.parametrize("fails", ["page", "result"])
def test_a_failed_second_file_leaves_neither_new_file(command, fails, tmp_path, capsys, monkeypatch):
    """``--out A.json --html B.html``: when one cannot be written (a full disk), exit 2 and both
    paths hold what they held before (A.json was left written, fresh, when the page failed)."""
    import errno

    from explorer.core.trace import AttentionTrace
    from explorer.seq2seq.trace import TranslationTrace
    from explorer.web import html

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    if fails == "page":
        monkeypatch.setattr(html, "write_page", full_disk)
    else:
        monkeypatch.setattr(AttentionTrace if command == "trace" else TranslationTrace, "save", full_disk)
    out, page = tmp_path / "a.json", tmp_path / "b.html"
    out.write_text("the old result", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main([*COMMANDS[command], "--out", str(out), "--html", str(page)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err == f"error: cannot write {page if fails == 'page' else out}: No space left on device\n"
    assert out.read_text(encoding="utf-8") == "the old result" and not page.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]  # no staged file left


@pytest.mark.parametrize("command", ["trace", "translate"])
def test_both_files_are_written_under_their_names(command, tmp_path):
    out, page = tmp_path / "a.json", tmp_path / "b.html"
    assert main([*COMMANDS[command], "--out", str(out), "--html", str(page)]) in (0, None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.html"]
    assert out.read_text(encoding="utf-8").startswith("{") and "<html" in page.read_text(encoding="utf-8")
