"""The engineer trial's leftovers (issue 23): what the commands did with inputs no test tried.

Each refusal is one ``error:`` line, exit 2, and no file left behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import explorer
from explorer.cli import main
from explorer.commands import models_help
from explorer.seq2seq.sequence_cli import shipped_tasks

ROOT = Path(__file__).resolve().parents[1]


def refused(args: list[str], tmp_path, capsys) -> str:
    """The one error line of a command that must exit 2; nothing may be written in ``tmp_path``."""
    with pytest.raises(SystemExit) as exited:
        main(args)
    err = capsys.readouterr().err
    assert exited.value.code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == [], "a refused command left a file"
    return err


@pytest.mark.parametrize(
    ("model", "task"),
    [("attention", "copy"), ("no-attention", "compound-zh"), ("attention", "dates"), ("local-p", "copy")],
)
def test_translate_a_task_without_a_shipped_model_says_how_to_train_one(model, task, tmp_path, capsys):
    out = str(tmp_path / "t.json")
    err = refused(
        ["translate", "--model", model, "--task", task, "--source", "a b c", "--out", out], tmp_path, capsys
    )
    assert f"no {model} model is shipped for --task {task}" in err
    assert f"train --model {model} --task {task}" in err and "--checkpoint DIR" in err
    assert "resources" not in err  # the internal folder it once named


def test_translate_help_names_the_shipped_tasks():
    assert "copy" not in shipped_tasks("attention") and "sentences-fr" in shipped_tasks("attention")
    help_text = models_help("translate")
    sequence = next(line for line in help_text.splitlines() if line.lstrip().startswith("no-attention"))
    assert ", ".join(sorted(shipped_tasks("attention"))) in sequence and "--checkpoint DIR" in sequence


LM_TEXT = ROOT / "resources" / "lm" / "text"  # the lab's GPT: one token per character


def test_generate_after_a_text_that_fills_the_context_is_refused(tmp_path, capsys):
    limit = json.loads((LM_TEXT / "config.json").read_text())["n_positions"]
    full = "the cat sat on the mat " * (limit // 10)  # cut to the context: no room after it
    args = ["trace", "--model-dir", str(LM_TEXT), "--sentence", full, "--generate", "5"]
    err = refused([*args, "--out", str(tmp_path / "t.json")], tmp_path, capsys)
    assert f"context of {limit} tokens" in err and f"at most {limit - 1}" in err
    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.trace(full, model_dir=LM_TEXT, generate=5, all_layers=False)
    assert caught.value.key == "decoding.context_full"


def test_generate_that_reaches_the_context_says_how_many_it_wrote(tmp_path, capsys):
    limit = json.loads((LM_TEXT / "config.json").read_text())["n_positions"]
    nearly = ("the cat sat on the mat " * limit)[: limit - 2]
    out = tmp_path / "t.json"
    assert (
        main(
            ["trace", "--model-dir", str(LM_TEXT), "--sentence", nearly, "--generate", "5", "--out", str(out)]
        )
        == 0
    )
    assert "wrote 2 of 5 tokens, then the context was full" in capsys.readouterr().out
    assert len(json.loads(out.read_text())["generation"]["ids"]) == 2


def test_a_huge_unknown_word_keeps_a_short_label_and_note(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["trace", "--sentence", "hello " + "x" * 120_000, "--out", str(out)]) == 0
    note = next(line for line in capsys.readouterr().out.splitlines() if "[UNK" in line)
    assert len(note) < 200 and "[UNK:xxxxxxxxxxxxxxx…]" in note, note[:300]
    labels = json.loads(out.read_text())["tokens_key"]
    assert max(map(len, labels)) <= len("[UNK:]") + 16 and "[UNK:xxxxxxxxxxxxxxx…]" in labels


def _loop(path: Path) -> Path:
    """A symbolic link that points at itself."""
    path.symlink_to(path)
    return path


def _model_with(tmp_path: Path, looping: str) -> Path:
    """The bundled model's folder, as links, with ``looping`` a link that loops."""
    from explorer.models.loader import default_model_dir

    source = default_model_dir()
    if source is None:
        pytest.skip("no bundled model")
    folder = tmp_path / "model"
    folder.mkdir()
    for item in source.iterdir():
        if item.name != looping:
            (folder / item.name).symlink_to(item)
    _loop(folder / looping)
    return folder


@pytest.mark.parametrize("looping", ["tokenizer.json", "config.json", "model.safetensors"])
def test_a_model_file_that_loops_is_said_so(looping, tmp_path, capsys):
    folder = _model_with(tmp_path, looping)
    out = tmp_path / "out"
    out.mkdir()
    err = refused(
        ["trace", "--sentence", "a b", "--model-dir", str(folder), "--out", str(out / "t.json")], out, capsys
    )
    assert f"{folder / looping}: it loops through symbolic links" in err  # not used vocab.txt, not "missing"


def test_a_sequence_checkpoint_that_loops_is_one_line(tmp_path, capsys):
    loop = _loop(tmp_path / "loop")
    out = tmp_path / "out"
    out.mkdir()
    args = ["translate", "--task", "sentences-fr", "--source", "a b", "--checkpoint", str(loop)]
    err = refused([*args, "--out", str(out / "t.json")], out, capsys)
    assert "it loops through symbolic links" in err


@pytest.mark.parametrize(
    ("command", "make", "words"),
    [
        (["train", "--model", "bahdanau"], lambda p: p.write_text(""), "is a file, not a folder"),
        (
            ["train", "--model", "attention", "--task", "copy"],
            lambda p: p.write_text(""),
            "is a file, not a folder",
        ),
        (["train", "--model", "bahdanau"], _loop, "it loops through symbolic links"),
        (["train", "--model", "gpt", "--task", "text"], _loop, "it loops through symbolic links"),
        (["train-vision", "--model", "cbam"], _loop, "it loops through symbolic links"),
        (
            ["train", "--model", "bahdanau"],
            lambda p: p.symlink_to(p.parent / "nowhere"),
            "which does not exist",
        ),
    ],
)
def test_a_training_out_that_is_no_folder_is_said_so(command, make, words, tmp_path, capsys):
    target = tmp_path / "out"
    make(target)
    before = sorted(tmp_path.iterdir())
    with pytest.raises(SystemExit) as exited:
        main([*command, "--steps", "1", "--out", str(target)])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 1 and words in err, err  # was "File exists"
    assert sorted(tmp_path.iterdir()) == before


def test_a_reader_that_stops_reading_ends_the_command_quietly():
    import subprocess
    import sys

    # `true` reads nothing and exits at once: the command's first print meets a closed pipe
    done = subprocess.run(
        f"{sys.executable} -m explorer translate --help | true",
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr


@pytest.mark.parametrize("marks", ["\u202e", "\ufeff", "\u200b \u200e"])
@pytest.mark.parametrize("weights", ["pretrained", "random"])
def test_a_sentence_of_format_marks_alone_is_refused(marks, weights, tmp_path, capsys):
    args = ["trace", "--sentence", marks, "--weights", weights, "--out", str(tmp_path / "t.json")]
    err = refused(args, tmp_path, capsys)  # it was traced as [CLS] [SEP], exit 0
    assert "the sentence holds no visible characters" in err


def test_the_unknown_token_count_of_a_cut_paste_says_it_counts_what_was_read(tmp_path, capsys):
    paste = "the 们 cat " * 30_000  # 120 KB: cut to the model's 512 tokens
    assert main(["trace", "--sentence", paste, "--out", str(tmp_path / "t.npz"), "--stages", "weights"]) == 0
    lines = capsys.readouterr().out.splitlines()
    cut = next(line for line in lines if "was cut from" in line)
    unknown = next(line for line in lines if "[UNK" in line)
    assert "to 512 tokens" in cut and " of the 512 tokens read were unknown to all-MiniLM-L6-v2" in unknown
