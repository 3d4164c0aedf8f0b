"""``train --task``, ``translate --task`` and ``length-curve``: files with the documented fields,
the true alignment in the JSON, the fixed C as one column; bad input exits 2 with one line."""

import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from explorer.cli import main as cli_main
from explorer.seq2seq.length_result import load_length_result
from explorer.seq2seq.sequence_checkpoints import load_sequence_checkpoint


def run(*args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args], capture_output=True, text=True, timeout=timeout
    )


TINY = ("--hidden", "8", "--batch-size", "8", "--eval-every", "2", "--eval-per-group", "2")


def command(*args, capsys) -> str:
    """The command in this process (quicker than a new interpreter); its stdout."""
    assert cli_main(list(args)) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Two tiny checkpoints and a length-curve result, written by the command itself."""
    folder = tmp_path_factory.mktemp("trained")
    out = folder / "curve.json"
    result = run("length-curve", "--task", "compound-zh", "--steps", "3", *TINY, "--out", str(out),
                 "--checkpoints", str(folder))  # fmt: skip
    assert result.returncode == 0, result.stderr
    return folder, out, result.stdout


def test_length_curve_writes_numbers_and_checkpoints(trained):
    folder, out, stdout = trained
    result = load_length_result(out)
    assert result.task == "compound-zh" and result.models == ["no-attention", "attention"]
    assert [step for step, _ in result.evaluations] == [2, 3]
    assert result.checkpoints == {m: f"compound-zh-{m}" for m in result.models}
    assert result.command.startswith("python -m explorer length-curve --task compound-zh --steps 3")
    assert result.parameters["no-attention"] >= result.parameters["attention"]
    assert result.options["lr_factors"] == [["no-attention", 2.0]]  # the length experiment's default
    assert "no-attention: " in stdout and "parameters" in stdout and "CPU s" in stdout
    for name in result.models:
        model, record = load_sequence_checkpoint(folder / f"compound-zh-{name}")
        assert model.spec.model == name and record["length_curve"] == result.final[name].to_dict()
    data = json.loads(out.read_text(encoding="utf-8"))
    curve = data["evaluations"][-1]["curves"]["attention"]
    assert {"lengths", "exact_match", "word_accuracy", "counts", "short", "long"} <= set(curve)
    assert all(0 <= x <= 1 for x in curve["word_accuracy"] + curve["exact_match"])


def test_length_curve_png_carries_its_numbers(trained, tmp_path, capsys):
    _, out, _ = trained
    png = tmp_path / "curve.png"
    command("length-curve", "--from", str(out), "--out", str(png), capsys=capsys)
    with Image.open(png) as image:
        assert image.size == (1280, 640)
        numbers = json.loads(image.text["length-curve"])
        pixels = np.asarray(image.convert("RGB"))
    assert numbers == json.loads(out.read_text(encoding="utf-8"))
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 10  # a drawing, not a blank page


def test_train_and_translate_a_sentence_model(tmp_path, capsys):
    folder = tmp_path / "model"
    said = command("train", "--model", "no-attention", "--task", "sentences-fr", "--steps", "2", *TINY,
                   "--final-eval", "5", "--out", str(folder), capsys=capsys)  # fmt: skip
    assert "sentences-fr-no-attention" in said and "no attention" in said
    out = tmp_path / "t.json"
    command("translate", "--checkpoint", str(folder), "--source", "Jane visits Africa in September",
            "--out", str(out), capsys=capsys)  # fmt: skip
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (
        data["model"] == "no-attention" and data["has_attention"] is False and data["context_kind"] == "fixed"
    )
    assert data["alignment_columns"] == ["C"] and data["alignment_score"] is None
    rows = len(data["output_tokens"])
    assert np.shape(data["alignment"]) == (rows, 1) and np.all(np.array(data["alignment"]) == 1)
    context = np.array(data["context"])
    assert all(np.array_equal(row, context[0]) for row in context)  # the same C for every word
    assert data["expected"] == "Jane visite l'Afrique en septembre"
    assert data["true_links"] == [[0], [1], [2], [2], [3], [4]]
    assert np.array(data["true_alignment"]).shape == (6, 5)


def test_translate_with_the_shipped_attention_model(tmp_path):
    out = tmp_path / "t.json"
    result = run("translate", "--task", "sentences-zh", "--source", "Jane visits Africa in September",
                 "--out", str(out))  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["output"] == data["expected"] == "简九月访问非洲" and data["exact"] is True
    assert data["model"] == "attention" and data["checkpoint"] == "shipped sentences-zh-attention"
    assert np.shape(data["alignment"]) == (4, 5) and data["alignment_columns"] == data["source_tokens"]
    assert data["true_links"] == [[0], [4], [1], [2]]
    assert int(np.argmax(data["alignment"][1])) == 4  # 九月 looks at "September", across two words
    assert data["alignment_score"] == np.mean(data["alignment_hits"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("train", "--model", "bahdanau", "--task", "sentences-fr", "--steps", "2", "--out", "x"),
         "--model bahdanau translates dates only; for --task sentences-fr choose one of no-attention, attention"),
        (("train", "--model", "lstm", "--task", "copy", "--steps", "2", "--out", "x"), "--model 'lstm' is not one of"),
        (("train", "--model", "attention", "--task", "poems", "--steps", "2", "--out", "x"), "invalid choice: 'poems'"),
        (("train", "--model", "attention", "--task", "copy", "--steps", "0", "--out", "x"), "--steps must be from 1 to 1,000,000, not 0"),
        (("train", "--model", "attention", "--task", "copy", "--steps", "2", "--lr", "nan", "--out", "x"),
         "--lr must be above 0 and at most 1, not nan"),
        (("translate", "--task", "sentences-fr", "--source", "  ", "--out", "t.json"), "the source text is empty"),
        (("translate", "--task", "sentences-fr", "--source", "Jane " * 41, "--out", "t.json"),
         "the source has 41 words; this model reads at most 40"),
        (("translate", "--task", "sentences-fr", "--source", "Jane", "--out", "t.txt"), "must end in .json or .npz"),
        (("translate", "--task", "sentences-fr", "--source", "Jane", "--checkpoint", "/nonexistent", "--out", "t.json"),
         "/nonexistent: it does not exist"),
        (("length-curve", "--models", "attention,attention", "--out", "c.json"), "name each model once"),
        (("length-curve", "--models", "attention,", "--out", "c.json"), "name each model once"),
        (("length-curve", "--models", "luong", "--out", "c.json"), "--model luong translates dates only"),
        (("length-curve", "--out", "c.svg"), "must end in .json or .png"),
        (("length-curve", "--lr-factors", "no-attention=0", "--out", "c.json"), "each factor above 0"),
        (("length-curve", "--lr-factors", "luong=2", "--out", "c.json"), "MODEL=FACTOR for models of --models"),
        (("length-curve", "--lr-factors", "attention=nan", "--out", "c.json"), "each factor above 0"),
        (("length-curve", "--lr-factors", "attention=1,attention=2", "--out", "c.json"), "name each model once"),
        (("length-curve", "--out", "/nonexistent/c.json"), "the folder /nonexistent does not exist"),
        (("length-curve", "--steps", "-3", "--out", "c.json"), "--steps must be from 1 to 1,000,000, not -3"),
        (("length-curve", "--from", "absent.json", "--out", "c.json"), "absent.json: it does not exist"),
        (("length-curve", "--shipped", "--task", "copy", "--out", "c.json"), "no length-curve result is shipped for the task copy (shipped: compound-fr)"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        cli_main(list(args))
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_corrupt_length_file_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for text in ("{", json.dumps({"kind": "attention-explorer length curve", "evaluations": []}), "[1]"):
        (tmp_path / "bad.json").write_text(text, encoding="utf-8")
        with pytest.raises(SystemExit):
            cli_main(["length-curve", "--from", "bad.json", "--out", "c.png"])
        assert "bad.json is not a length-curve result" in capsys.readouterr().err
    assert not (tmp_path / "c.png").exists()
