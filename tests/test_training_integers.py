"""Whole-number options of the sequence and windowed-attention commands: a number too large
for what it sizes gets one line and exit 2, before anything is built or written."""

from __future__ import annotations

import pytest

from explorer.cli import main

GIANT = "9" * 23

TRAIN = ["train", "--model", "attention", "--task", "sentences-fr", "--steps", "2"]
GPT_TRAIN = ["train", "--model", "gpt", "--task", "induction", "--steps", "2"]
WINDOWED_TRAIN = ["train", "--model", "local-p-ours", "--task", "copy-twice", "--steps", "2"]
CASES = [
    ("hidden", [*TRAIN, "--hidden", GIANT], "--hidden must be from 1 to 4,096"),
    ("threads", [*TRAIN, "--threads", GIANT], "--threads must be from 1 to 1,024"),
    ("batch size", [*TRAIN, "--batch-size", GIANT], "--batch-size must be from 1 to 4,096"),
    ("eval per group", [*TRAIN, "--eval-per-group", GIANT], "--eval-per-group must be from 1 to 10,000"),
    ("eval every", [*TRAIN, "--eval-every", GIANT], "--eval-every must be from 1 to 1,000,000"),
    ("steps", [*TRAIN[:-1], GIANT], "--steps must be from 1 to 1,000,000"),
    ("gpt batch size", [*GPT_TRAIN, "--batch-size", GIANT], "--batch-size must be at most 4096"),
    ("gpt threads", [*GPT_TRAIN, "--threads", GIANT], "--threads must be at most 256"),
    ("gpt eval every", [*GPT_TRAIN, "--eval-every", GIANT], "--eval-every must be at most 1000000"),
    ("window", [*WINDOWED_TRAIN, "--window", GIANT], "--window must be from 1 to 1,000"),
    ("zero window", [*WINDOWED_TRAIN, "--window", "0"], "--window must be from 1 to 1,000, not 0"),
    (
        "translate window",
        [
            "translate",
            "--checkpoint",
            "resources/seq2seq/copy-twice-local-p-ours",
            "--source",
            "a b",
            "--window",
            GIANT,
        ],
        "--window must be from 1 to 1,000",
    ),
]


@pytest.mark.parametrize("args,words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_number_too_large_is_refused_with_one_line(tmp_path, capsys, monkeypatch, args, words):
    from explorer.resources import resource_path

    out = tmp_path / "out"
    args = [
        str(resource_path("seq2seq", "copy-twice-local-p-ours")) if a.startswith("resources/") else a
        for a in args
    ]
    out_file = out.with_suffix(".json") if args[0] == "translate" else out
    with pytest.raises(SystemExit) as exc:
        main([*args, "--out", str(out_file)])
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2, err
    assert len(err) == 1 and err[0].startswith("error: ") and words in err[0], err
    assert not out_file.exists()
