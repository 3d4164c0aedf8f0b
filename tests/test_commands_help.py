"""The help a person reads first: ``python -m explorer --help`` lists every command, and
``train --help`` / ``translate --help`` every model and task the labs register (generated from
the registries, so a new model cannot go missing from them)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from explorer import commands
from explorer.lm.train import TASKS as LM_TASKS
from explorer.seq2seq.local_attention import WINDOW_MODELS
from explorer.seq2seq.sequence_models import SEQUENCE_MODELS
from explorer.seq2seq.spec import MODELS as DATE_MODELS
from explorer.seq2seq.tasks import TASKS
from explorer.vision.models import MODELS as VISION_MODELS


def test_the_entry_points_help_lists_every_command():
    result = subprocess.run(
        [sys.executable, "-m", "explorer", "--help"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    listed = result.stdout.split("commands (", 1)[1]
    for name in commands.COMMANDS:
        assert f"\n  {name} " in listed, name


@pytest.mark.parametrize("name", list(commands.COMMANDS))
def test_every_listed_command_runs_and_has_its_own_help(name, run):
    helped = run(name, "--help")
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("usage: ") and name in helped.stdout.splitlines()[0]


def test_train_help_lists_every_model_and_task(run):
    helped = run("train", "--help")
    assert helped.returncode == 0
    text = helped.stdout
    for name in (*DATE_MODELS, *SEQUENCE_MODELS, *WINDOW_MODELS, "gpt", *TASKS, *LM_TASKS, *VISION_MODELS):
        assert name in text, name
    assert "{bahdanau,luong,transformer}" not in text and "{dates}" not in text
    vision_line = next(line for line in text.splitlines() if "vit" in line)
    assert "train-vision" in vision_line  # the ViT trains under train-vision, not train
    assert "3 the run diverged" in text


def test_translate_help_lists_every_translating_model_and_task(run):
    text = run("translate", "--help").stdout
    for name in (*DATE_MODELS, *SEQUENCE_MODELS, *WINDOW_MODELS, *TASKS):
        assert name in text, name
    assert "python -m explorer vision" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "--model", "bahdanau", "--help"],
        ["train", "--model", "attention", "--task", "copy", "--help"],
        ["train", "--model", "local-p", "--task", "copy-twice", "--help"],
        ["train", "--model", "gpt", "--help"],
        ["train-vision", "--help"],
    ],
    ids=["dates", "sequence", "windowed", "gpt", "vision"],
)
def test_every_train_command_documents_its_exit_statuses(argv, run):
    helped = run(*argv)
    assert helped.returncode == 0
    words = " ".join(helped.stdout.split())
    assert "2 bad input" in words and "3 the run diverged" in words and "130 cancelled" in words


def test_a_family_help_points_at_every_model():
    assert commands.wants_models_help(["train", "-h"])
    assert not commands.wants_models_help(["train", "--model", "gpt", "-h"])
    assert not commands.wants_models_help(["train", "--model=gpt", "-h"])
    assert not commands.wants_models_help(["train", "--steps", "3"])


def test_no_command_lists_the_commands(run):
    refused = run()
    assert refused.returncode == 2
    for name in commands.COMMANDS:
        assert name in refused.stderr
