"""``train --model local-*`` and ``translate`` with a windowed model: the checkpoint records where
p_t sat, the trace gives every step's p_t and window (another D on request), and bad input is
one line on stderr with status 2, no file written."""

import json

import numpy as np
import pytest

from explorer.cli import main as cli_main
from explorer.seq2seq.local_trace import translate_window

TINY = ("--task", "copy-twice", "--steps", "2", "--hidden", "4", "--eval-every", "100", "--final-eval", "1")


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    folder = tmp_path_factory.mktemp("local") / "ck"
    assert cli_main(["train", "--model", "local-p-ours", *TINY, "--window", "2", "--out", str(folder)]) == 0
    return folder


def test_train_records_the_window(checkpoint):
    record = json.loads((checkpoint / "config.json").read_text(encoding="utf-8"))
    assert record["spec"]["model"] == "local-p-ours" and record["spec"]["window"] == 2
    window = record["training"]["window"]
    assert window["half_width"] == 2 and 0 <= window["centre_share"] <= 1
    assert set(window["by_length"]) >= {"5", "30"}


def test_translate_gives_p_t_and_the_window_per_step(checkpoint, tmp_path, capsys):
    out = tmp_path / "t.json"
    argv = [
        "translate",
        "--checkpoint",
        str(checkpoint),
        "--source",
        "a b c d",
        "--window",
        "3",
        "--out",
        str(out),
    ]
    assert cli_main(argv) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    trace = translate_window("a b c d", checkpoint=checkpoint, half_width=3)
    assert data["half_width"] == 3 and data["trained_half_width"] == 2 and data["sigma"] == 1.5
    assert len(data["steps"]) == len(trace.output_tokens)
    for row, p, bounds in zip(data["steps"], trace.centres, trace.window_bounds):
        assert row["p_t"] == pytest.approx(float(p), abs=1e-4) and row["window"] == bounds
    np.testing.assert_allclose(np.array(data["alignment"]), trace.alignment, atol=1e-6)
    assert "D = 3" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["--model", "local-m", "--source", "a b", "--window", "0"],
            "--window must be from 1 to 1,000, not 0",
        ),
        (["--model", "global", "--source", "a b", "--window", "2"], "has no window"),
        (["--model", "local-m", "--source", "", "--window", "2"], ""),
    ],
)
def test_bad_input_is_one_line_and_no_file(tmp_path, capsys, argv, said):
    out = tmp_path / "bad.json"
    with pytest.raises(SystemExit) as exit_:
        cli_main(["translate", *argv, "--out", str(out)])
    assert exit_.value.code == 2 and not out.exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and said in err[0]
