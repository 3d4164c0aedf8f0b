"""An option that only means something with another is refused without it, never silently
ignored: ``data-curve --sizes`` without ``--train`` wrote the shipped runs and exited 0."""

from __future__ import annotations

import pytest

from explorer.cli import main


@pytest.mark.parametrize("option,value", [("--sizes", "100"), ("--seeds", "1"), ("--test-size", "50")])
def test_data_curve_training_options_need_train(tmp_path, capsys, option, value):
    out = tmp_path / "curve.json"
    with pytest.raises(SystemExit) as exc:
        main(["data-curve", option, value, "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and len(err) == 1 and "go with --train" in err[0], err
    assert not out.exists()


def test_data_curve_without_options_still_draws_the_shipped_runs(tmp_path, capsys):
    out = tmp_path / "curve.json"
    assert main(["data-curve", "--out", str(out)]) == 0
    assert out.exists()


TRACE_ALONE = [
    (["--temperature", "0.5"], "--temperature 0.5 goes with --scale temperature"),
    (
        ["--generate", "2", "--decoding-temperature", "0.5"],
        "--decoding-temperature 0.5 goes with --decoding sample",
    ),
    (["--decoding-temperature", "0.5"], "--decoding-temperature 0.5 goes with --decoding sample"),
    (["--weights", "random", "--model-dir", "nowhere"], "--model-dir goes with --weights pretrained"),
    (["--weights", "random", "--layer", "5"], "--layer 5 goes with --weights pretrained"),
    (
        ["--weights", "identity", "--model", "multilingual"],
        "--model multilingual goes with --weights pretrained",
    ),
    (["--weights", "pretrained", "--d-model", "7"], "--d-model 7 goes with --weights random or identity"),
    (["--ablation", "mean"], "--ablation mean goes with --ablate"),
    (["--language", "zh_CN"], "--language zh_CN goes with --html"),
    (["--convert-weights"], "--convert-weights goes with --model-dir"),
]


@pytest.mark.parametrize("options,said", TRACE_ALONE, ids=[" ".join(o) for o, _ in TRACE_ALONE])
def test_trace_options_without_theirs_are_refused(tmp_path, capsys, options, said):
    """Each was exit 0 with the option silently ignored (engineer 8 C1): τ 0.5 gave ÷√d_k."""
    out = tmp_path / "t.json"
    with pytest.raises(SystemExit) as exc:
        main(["trace", "--sentence", "the cat", *options, "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and err == [f"error: {err[0][7:]}"] and said in err[0], err
    assert not out.exists()


@pytest.mark.parametrize(
    "options",
    [
        ["--temperature", "1"],  # each option's default, given explicitly, changes nothing
        ["--scale", "temperature", "--temperature", "0.5"],
        ["--weights", "random", "--d-model", "8", "--layer", "0", "--model", "minilm"],
        ["--weights", "pretrained", "--d-model", "64"],
        ["--ablation", "zero", "--language", "en", "--decoding-temperature", "1"],
    ],
)
def test_trace_options_with_theirs_or_at_their_default_are_taken(tmp_path, options):
    out = tmp_path / "t.json"
    assert main(["trace", "--sentence", "the cat", *options, "--out", str(out)]) == 0
    assert out.exists()


def test_translate_language_without_html_is_refused(tmp_path, capsys):
    out = tmp_path / "t.json"
    with pytest.raises(SystemExit) as exc:
        main(["translate", "--source", "9 mai 2018", "--language", "zh_CN", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and len(err) == 1 and "--language zh_CN goes with --html" in err[0], err
    assert not out.exists()
