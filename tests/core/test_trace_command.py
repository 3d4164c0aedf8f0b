"""``python -m explorer trace``: every option combination writes a file; bad input exits 2."""

import itertools
import json
import subprocess
import sys

import numpy as np
import pytest

from explorer.cli import main as cli_main
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine

REQUIRED_KEYS = {
    "config",
    "device",
    "tokens_query",
    "tokens_key",
    "X_query",
    "X_key",
    "Q",
    "K",
    "V",
    "scores",
    "scaled",
    "mask",
    "weights",
    "head_outputs",
    "concat",
    "output",
    "entropy",
}


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "explorer", "trace", *args], capture_output=True, text=True, timeout=120
    )


def test_json_has_every_stage_with_documented_shapes(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("--sentence", "Thinking Machines", "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert REQUIRED_KEYS <= set(data)
    n, h = len(data["tokens_key"]), 12
    assert data["tokens_query"] == data["tokens_key"] == ["[CLS]", "thinking", "machines", "[SEP]"]
    assert np.shape(data["Q"]) == (h, n, 32)
    for key in ("scores", "scaled", "weights"):
        assert np.shape(data[key]) == (h, n, n)
    assert np.shape(data["mask"]) == (n, n)
    assert np.shape(data["head_outputs"]) == (h, n, 32)
    assert np.shape(data["entropy"]) == (h, n)
    # The file holds the same numbers the engine computes.
    trace = Engine().trace(AttentionConfig(sentence="Thinking Machines"))
    np.testing.assert_allclose(np.array(data["weights"]), trace.weights, atol=1e-7)


def test_npz_loads_without_pickle(tmp_path):
    out = tmp_path / "t.npz"
    assert cli_main(["trace", "--weights", "random", "--query", "who", "--out", str(out)]) == 0
    with np.load(out, allow_pickle=False) as data:
        meta = json.loads(str(data["meta_json"]))
        assert meta["tokens_query"] == ["who"]
        assert data["weights"].shape == (8, 1, 2)
        assert data["mask"].dtype == bool


OPTION_GRID = list(
    itertools.product(
        ["dot", "cosine", "additive", "general"],
        ["none", "sqrt", "temperature"],
        ["soft", "hard", "sample"],
        ["none", "causal", "window:1", "valid:2"],
        ["pretrained", "random", "identity"],
    )
)


@pytest.mark.parametrize("scoring,scale,attention,mask,weights", OPTION_GRID)
def test_every_option_combination(tmp_path, scoring, scale, attention, mask, weights):
    out = tmp_path / "t.json"
    argv = [
        "trace",
        "--sentence",
        "the cat sat on the mat",
        "--query",
        "" if mask != "causal" else "a cat",
        "--scoring",
        scoring,
        "--scale",
        scale,
        *(["--temperature", "0.5"] if scale == "temperature" else []),  # each only where it applies
        "--attention",
        attention,
        "--mask",
        mask,
        "--weights",
        weights,
        *(["--layer", "2"] if weights == "pretrained" else ["--d-model", "16"]),
        "--heads",
        "4",
        "--seed",
        "3",
        "--device",
        "cpu",
        "--out",
        str(out),
    ]
    assert cli_main(argv) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    w = np.array(data["weights"])
    assert np.all(np.isfinite(w)) and np.all(w[:, ~np.array(data["mask"])] == 0)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--sentence", ""], "empty"),
        (["--sentence", "   "], "empty"),
        (["--heads", "5"], "do not divide"),
        (["--scale", "temperature", "--temperature", "0"], "temperature"),
        (["--temperature", "nan"], "temperature"),
        (["--temperature", "-2"], "temperature"),
        (["--mask", "window:x"], "mask"),
        (["--mask", "valid:-1"], "0 or more"),
        (["--scoring", "euclid"], "invalid choice"),
        (["--layer", "9"], "layers 0 to 5"),
        (["--model-dir", "/nonexistent/folder"], "does not exist"),
        (["--heads", "three"], "invalid int"),
        ([], "give --out FILE.json|FILE.npz, --html FILE.html, or both"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, args, message):
    if args:  # the empty case checks that a file to write is required
        args = [*args, "--out", str(tmp_path / "t.json")]
    result = run_cli(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_bad_output_name_and_unwritable_folder(tmp_path):
    assert run_cli("--out", str(tmp_path / "t.txt")).returncode == 2
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run_cli("--out", str(blocker / "t.json"))  # said "File exists" before
    assert result.returncode == 2 and result.stderr == f"error: {blocker} is a file, not a folder\n"
