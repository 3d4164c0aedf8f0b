"""``python -m explorer train --model gpt``: a GPT-2 folder with its record; bad input exits 2."""

import json
import re
import subprocess
import sys
from dataclasses import replace

import pytest
import torch

from explorer.cli import main as cli_main
from explorer.lm.folders import load_folder
from explorer.lm.train import DEFAULTS, LMSpec, train_lm


def run(*args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args], capture_output=True, text=True, timeout=timeout
    )


def test_train_writes_a_gpt2_folder_that_is_the_model_it_trained(tmp_path):
    out = tmp_path / "gpt"
    args = [
        "--model",
        "gpt",
        "--task",
        "induction",
        "--steps",
        "12",
        "--seed",
        "2",
        "--eval-every",
        "6",
        "--device",
        "cpu",
    ]
    result = run("train", *args, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "step      6/12" in result.stdout and "repeated half" in result.stdout
    assert f"{out}: gpt on induction, 12 steps" in result.stdout
    offs = [line for line in result.stdout.splitlines() if line.lstrip().startswith("off ")]
    assert offs and all(
        re.search(r"repeated-half loss (rose|fell) by \d+\.\d{3}$|unchanged$", o) for o in offs
    )
    record = json.loads((out / "config.json").read_text())["attention_explorer"]
    assert record["command"] == "python -m explorer train " + " ".join([*args, "--out", str(out)])
    assert record["seed"] == 2 and record["steps"] == 12 and record["task"] == "induction"
    assert (
        record["mlp"] is False and record["options"]["learning_rate"] == DEFAULTS["induction"].learning_rate
    )
    report = record["report"]
    assert len(report["scores"]["induction"]) == 2 and len(report["induction_ranking"]) == 8
    # Reproducible: the same training in-process gives the same weights.
    again = train_lm(
        LMSpec("induction"), replace(DEFAULTS["induction"], steps=12, seed=2, eval_every=6, device="cpu")
    )
    loaded = load_folder(out)
    for name, tensor in again.model.state_dict().items():
        assert torch.equal(loaded.model.state_dict()[name], tensor), name


def test_the_translation_labs_train_is_still_there(tmp_path):
    with pytest.raises(SystemExit) as exit_:
        cli_main(["train", "--model", "bahdanau", "--steps", "0", "--out", str(tmp_path / "x")])
    assert exit_.value.code == 2  # its own checks answered, not the language-model lab's


BAD = [
    (["--task", "poetry"], "argument --task: invalid choice: 'poetry'"),
    (["--task", "induction", "--steps", "0"], "--steps must be 1 or more, not 0"),
    (["--task", "induction", "--seed", "-1"], "--seed must be from 0 to 2147483647, not -1"),
    (["--task", "text", "--lr", "5"], "--lr must be above 0 and at most 1, not 5.0"),
    (["--task", "text", "--batch-size", "0"], "--batch-size must be 1 or more, not 0"),
    (["--task", "text", "--mlp", "maybe"], "argument --mlp: invalid choice: 'maybe'"),
    (["--task", "induction", "--steps", "ten"], "argument --steps: invalid int value: 'ten'"),
]


@pytest.mark.parametrize("extra, message", BAD, ids=[m for _, m in BAD])
def test_bad_options_exit_2_with_one_line_and_write_nothing(extra, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["train", "--model", "gpt", "--steps", "5", *extra, "--out", "gpt"]
    with pytest.raises(SystemExit) as exit_:
        cli_main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err and message in err, err
    assert not list(tmp_path.iterdir())


def test_out_must_be_a_folder_whose_parent_exists(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    for out, message in ((tmp_path / "file", "it is a file"), (tmp_path / "no" / "where", "does not exist")):
        with pytest.raises(SystemExit):
            cli_main(["train", "--model=gpt", "--task", "induction", "--steps", "1", "--out", str(out)])
        assert message in capsys.readouterr().err


def test_bad_input_through_the_real_entry_point(tmp_path):
    result = run(
        "train", "--model", "gpt", "--task", "induction", "--steps", "-3", "--out", str(tmp_path / "m")
    )
    assert result.returncode == 2 and result.stderr.startswith("error: ") and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
