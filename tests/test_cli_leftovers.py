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
    """The one error line of a command that must exit 2; nothing may be written."""
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
