"""``python -m explorer translate`` and ``train``: files with the documented fields; bad input exits 2."""

import json
import signal
import subprocess
import sys

import numpy as np
import pytest

from explorer.cli import main as cli_main
from explorer.seq2seq.translate import translate

JSON_KEYS = {
    "model", "source_tokens", "output_tokens", "output", "alignment", "alignment_note", "scores",
    "weights", "queries", "keys", "values", "context", "alignment_score", "notices", "scoring_params",
}  # fmt: skip


def run(*args, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args], capture_output=True, text=True, timeout=timeout
    )


def test_translate_json_and_npz(tmp_path):
    out_json, out_npz = tmp_path / "t.json", tmp_path / "t.npz"
    result = run(
        "translate",
        "--source",
        "二〇一八年五月九日",
        "--model",
        "luong",
        "--scoring",
        "dot",
        "--out",
        str(out_json),
    )
    assert result.returncode == 0, result.stderr
    assert "→ 2018-05-09" in result.stdout
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert JSON_KEYS <= set(data)
    assert data["output"] == "2018-05-09" and data["model"] == "luong" and data["scoring"] == "dot"
    n, T = len("二〇一八年五月九日"), 10
    assert data["source_tokens"] == list("二〇一八年五月九日")
    for key in ("alignment", "scores", "weights"):
        assert np.shape(data[key]) == (T, n)
    assert np.shape(data["queries"]) == (T, 128) and np.shape(data["context"]) == (T, 128)
    assert np.shape(data["keys"]) == np.shape(data["values"]) == (n, 128)
    # Every digit the source spells is found on its own field; the two padded zeros (05, 09) are
    # read from beside the field, as docs/benchmarks.md explains.
    assert data["padded_digits"] == [5, 8]
    assert data["alignment_hits"] == [True, True, True, True, False, True, False, True]
    assert data["alignment_score"] == 0.75
    # The second figure, over the digits a source character spells, recomputed from the JSON.
    digit_steps = [0, 1, 2, 3, 5, 6, 8, 9]
    spelled = [
        hit for step, hit in zip(digit_steps, data["alignment_hits"]) if step not in data["padded_digits"]
    ]
    assert data["spelled_alignment_score"] == sum(spelled) / len(spelled) == 1.0
    assert "(1.00 on the digits the source spells)" in result.stdout
    assert data["source_fields"] == ["year"] * 4 + [None, "month", None, "day", None]
    in_process = translate("二〇一八年五月九日", "luong", "dot")
    np.testing.assert_allclose(data["weights"], in_process.weights, atol=1e-7)

    result = run(
        "translate", "--source", "Wednesday 9 May 2018", "--model", "transformer", "--out", str(out_npz)
    )
    assert result.returncode == 0, result.stderr
    with np.load(out_npz, allow_pickle=False) as npz:
        meta = json.loads(str(npz["meta_json"]))
        assert meta["output"] == "2018-05-09" and "averaged over its 4 heads" in meta["alignment_note"]
        assert npz["alignment"].shape == (10, 20)
        assert npz["weights"].shape == (4, 10, 20)
        assert npz["decoder_self.1.mask"].shape == (10, 10) and not npz["decoder_self.1.mask"][0, 1]
        for kind in ("encoder_self", "decoder_self", "cross"):
            for name in ("Q", "K", "V", "scores", "scaled", "weights", "head_outputs", "concat", "output"):
                assert f"{kind}.1.{name}" in npz.files


def test_train_writes_a_checkpoint_translate_can_use(tmp_path):
    folder = tmp_path / "mine"
    result = run(
        "train", "--model", "luong", "--scoring", "scaled-dot", "--steps", "3", "--seed", "1",
        "--out", str(folder), "--eval-every", "2", "--final-eval", "3", "--batch-size", "16",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "step      2/3  loss" in result.stdout and "held-out exact match" in result.stdout
    assert "alignment-score-on-spelled-digits" in result.stdout
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    assert config["spec"]["model"] == "luong" and config["training"]["seed"] == 1
    assert 0 <= config["training"]["spelled_alignment_score"] <= 1
    assert set(config["training"]["by_format"]["dotted_short"]) >= {
        "alignment_score",
        "spelled_alignment_score",
    }
    out = tmp_path / "t.json"
    result = run("translate", "--source", "9.5.18", "--checkpoint", str(folder), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["scoring"] == "scaled-dot"


BAD = [
    (["translate", "--source", "", "--out", "x.json"], "empty"),
    (["translate", "--source", "   ", "--out", "x.json"], "empty"),
    (["translate", "--source", "9" * 41, "--out", "x.json"], "at most 40"),
    (["translate", "--source", "9 May 2018", "--out", "x.txt"], ".json or .npz"),
    (["translate", "--source", "9 May 2018", "--model", "gpt", "--out", "x.json"], "invalid choice"),
    (["translate", "--source", "9 May 2018", "--model", "transformer", "--scoring", "general", "--out", "x.json"], "scaled-dot only"),
    (["translate", "--source", "9 May 2018", "--model", "transformer", "--attention", "sample", "--out", "x.json"], "GRU models"),
    (["translate", "--source", "9 May 2018", "--checkpoint", "/no/such/folder", "--out", "x.json"], "does not exist"),
    (["translate", "--source", "9 May 2018", "--seed", "-1", "--out", "x.json"], "--seed"),
    (["train", "--model", "bahdanau", "--steps", "0", "--out", "d"], "--steps must be from 1 to"),
    (["train", "--model", "bahdanau", "--steps", "9" * 30, "--out", "d"], "--steps must be from 1 to"),
    (["train", "--model", "bahdanau", "--steps", "1", "--seed", "9" * 30, "--out", "d"], "--seed must be from 0 to"),
    (["train", "--model", "transformer", "--scoring", "additive", "--steps", "5", "--out", "d"], "scaled-dot only"),
    (["train", "--model", "luong", "--steps", "5", "--lr", "5", "--out", "d"], "--lr"),
]  # fmt: skip


@pytest.mark.parametrize("argv,message", BAD)
def test_bad_input_exits_2_with_one_line(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        cli_main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err and message in err, err
    assert not list(tmp_path.iterdir())  # nothing written


def test_bad_input_through_the_real_entry_point(tmp_path):
    result = run("translate", "--source", "", "--out", str(tmp_path / "x.json"))
    assert result.returncode == 2 and result.stderr.startswith("error: ") and "Traceback" not in result.stderr


def test_unseen_characters_are_unknown_tokens_not_errors(tmp_path):
    out = tmp_path / "t.json"
    assert cli_main(["translate", "--source", "9 mai 2018 😀ж", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["source_tokens"][-2:] == ["<unk>", "<unk>"]
    assert any("<unk>" in n and "😀" in n for n in data["notices"])
    assert data["alignment_score"] is None  # not a generated date any more
    assert data["spelled_alignment_score"] is None


def test_ctrl_c_stops_training_and_writes_nothing(tmp_path):
    folder = tmp_path / "never"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "explorer",
            "train",
            "--model",
            "bahdanau",
            "--steps",
            "100000",
            "--out",
            str(folder),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().startswith("training bahdanau-additive: 100000 steps")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert "cancelled after" in err and "nothing written" in err and "Traceback" not in err
    assert not folder.exists()
