"""The engineer trial's leftovers (issue 23): what the commands did with inputs no test tried.

Each refusal is one ``error:`` line, exit 2, and no file left behind."""

from __future__ import annotations

import pytest

from explorer.cli import main
from explorer.commands import models_help
from explorer.seq2seq.sequence_cli import shipped_tasks


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
