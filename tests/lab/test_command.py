"""What every ``train`` command checks alike (explorer.lab.command): the seed's range, the
learning rate's words, and a run that diverged: one line, exit 3, nothing written."""

from __future__ import annotations

import pytest

from explorer.core.config import MAX_SEED
from explorer.lab import TrainOptions
from explorer.lab.command import EXIT_DIVERGED, check_learning_rate

TRAINS = {
    "dates": ["train", "--model", "bahdanau", "--steps", "2"],
    "sequence": ["train", "--model", "attention", "--task", "copy", "--steps", "2"],
    "windowed": ["train", "--model", "local-p", "--task", "copy-twice", "--steps", "2"],
    "gpt": ["train", "--model", "gpt", "--task", "induction", "--steps", "2"],
    "vision": ["train-vision", "--model", "plain", "--steps", "2"],
    "vit": ["train-vision", "--model", "vit", "--steps", "2"],
}


def refused(run, argv, tmp_path) -> str:
    result = run(*argv, "--out", str(tmp_path / "out"))
    assert result.returncode == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert not (tmp_path / "out").exists()
    return lines[0]


@pytest.mark.parametrize("family", list(TRAINS))
@pytest.mark.parametrize("seed", ["99999999999", str(MAX_SEED + 1), "-1"])
def test_every_train_command_takes_the_same_seeds(family, seed, run, tmp_path):
    line = refused(run, [*TRAINS[family], "--seed", seed], tmp_path)
    assert line == f"error: --seed must be from 0 to {MAX_SEED}, not {seed}"


@pytest.mark.parametrize("family", list(TRAINS))
@pytest.mark.parametrize("lr", ["0", "1.5", "nan", "-0.1"])
def test_every_train_command_says_the_learning_rates_real_bound(family, lr, run, tmp_path):
    line = refused(run, [*TRAINS[family], "--lr", lr], tmp_path)
    assert line == f"error: --lr must be above 0 and at most 1, not {float(lr)}"


def test_a_learning_rate_of_one_is_taken_as_the_words_say():
    check_learning_rate(1.0)  # returns: no exit
    assert TrainOptions(learning_rate=1.0).learning_rate == 1.0


def test_a_diverging_run_says_so_in_one_line_exits_3_and_writes_nothing(run, tmp_path):
    out = tmp_path / "gpt"
    argv = ["train", "--model", "gpt", "--task", "induction", "--steps", "30", "--batch-size", "4"]
    result = run(*argv, "--lr", "0.9", "--eval-every", "30", "--device", "cpu", "--out", str(out))
    assert result.returncode == EXIT_DIVERGED == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the loss rose from "), lines
    assert "the run diverged; nothing written (try a lower --lr)" in lines[0]
    assert not out.exists()
