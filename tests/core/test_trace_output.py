"""Trace files that scale: chosen stages and heads, float16, streamed JSON, projections,
and no partial file when memory or the disk runs out."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from explorer import atomic
from explorer.cli import main as cli_main
from explorer.core import trace_files
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.trace import PER_HEAD_STAGES, STAGE_ARRAYS, TraceSelection

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = "the animal did not cross the street because it was too tired"
RANDOM = AttentionConfig(sentence=SENTENCE, weights="random", d_model=16, heads=4, mask="causal", seed=2)


def load(path: Path) -> dict:
    """A trace file as a dict of arrays plus its metadata, whatever the format."""
    if path.suffix == ".json":
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    with np.load(path, allow_pickle=False) as npz:
        data = {name: npz[name] for name in npz.files}
    data.update(json.loads(str(data.pop("meta_json"))))
    return data


@pytest.fixture(scope="module")
def small(engine):
    return engine.trace(RANDOM)


# -- selection, as a function ------------------------------------------------------------
@pytest.mark.parametrize(
    "stages,heads,dtype,message",
    [
        ("weights,attention", None, "float32", "unknown stage 'attention'"),
        ("", None, "float32", "no stage named"),
        (None, "1,x", "float32", "separated by commas"),
        (None, "-1", "float32", "separated by commas"),
        (None, None, "int8", "dtype 'int8'"),
    ],
)
def test_selection_refuses_bad_values(stages, heads, dtype, message):
    with pytest.raises(ConfigError, match=message):
        TraceSelection.parse(stages, heads, dtype)


def test_selection_keeps_lesson_order_and_checks_heads():
    sel = TraceSelection.parse(" output, weights,weights ", "3, 0")
    assert sel.stages == ("weights", "output") and sel.heads == (0, 3)
    assert sel.heads_of(4) == [0, 3]
    with pytest.raises(ConfigError, match="head 3 does not exist: this trace has 2 heads, 0 to 1"):
        sel.heads_of(2)
    assert TraceSelection().heads_of(3) == [0, 1, 2]


# -- written subsets read back equal to the full trace ----------------------------------
@pytest.mark.parametrize("suffix", [".npz", ".json"])
def test_every_stage_reads_back_exactly(small, tmp_path, suffix):
    path = tmp_path / f"full{suffix}"
    small.save(path)
    data = load(path)
    for name in STAGE_ARRAYS:
        expected = getattr(small, name)
        got = np.asarray(data[name], dtype=expected.dtype)
        # float32 → shortest text → float32 is exact, so equality is exact too.
        np.testing.assert_array_equal(got, expected, err_msg=name)
    if suffix == ".npz":
        assert data["mask"].dtype == bool
    else:
        assert all(isinstance(v, bool) for row in data["mask"] for v in row)
    assert data["heads_written"] == [0, 1, 2, 3] and data["stages_written"] == list(STAGE_ARRAYS)
    assert data["dtype"] == "float32" and data["format_version"] == 3


@pytest.mark.parametrize("suffix", [".npz", ".json"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_chosen_stages_and_heads_equal_the_full_trace(small, tmp_path, suffix, dtype):
    sel = TraceSelection.parse("weights,mask,output,entropy,scores", "1,3", dtype)
    path = tmp_path / f"part{suffix}"
    small.save(path, sel)
    data = load(path)
    written = set(STAGE_ARRAYS) & set(data)
    assert written == {"weights", "mask", "output", "entropy", "scores"}
    assert data["heads_written"] == [1, 3] and data["dtype"] == dtype
    for name in written:
        full = getattr(small, name)
        expected = full[[1, 3]] if name in PER_HEAD_STAGES else full
        if expected.dtype.kind == "f":
            expected = expected.astype(dtype)
        got = np.asarray(data[name])
        if suffix == ".npz":
            assert got.dtype == expected.dtype, name  # float16 written as float16; mask as bool
        np.testing.assert_array_equal(got.astype(expected.dtype), expected, err_msg=name)


def test_scoring_parameters_follow_the_chosen_heads(engine, tmp_path):
    trace = engine.trace(RANDOM.with_(scoring="general"))
    trace.save(tmp_path / "t.npz", TraceSelection(("weights",), (2,)))
    trace.save(tmp_path / "t.json", TraceSelection(("weights",), (2,)))
    npz, js = load(tmp_path / "t.npz"), load(tmp_path / "t.json")
    expected = trace.scoring_params["general_W"][[2]]
    np.testing.assert_array_equal(npz["param_general_W"], expected)
    np.testing.assert_array_equal(np.array(js["scoring_params"]["general_W"], np.float32), expected)


# -- JSON: streamed, exact, standard where it can be ----------------------------------------
def test_json_blocks_give_the_same_file(small, tmp_path, monkeypatch):
    small.save(tmp_path / "one.json")
    monkeypatch.setattr(trace_files, "BLOCK_BYTES", 64)  # every 2-D array in many blocks
    small.save(tmp_path / "many.json")
    assert json.loads((tmp_path / "many.json").read_text()) == json.loads((tmp_path / "one.json").read_text())


def test_npz_blocks_read_back_exactly(small, tmp_path, monkeypatch):
    monkeypatch.setattr(trace_files, "BLOCK_BYTES", 64)
    small.save(tmp_path / "t.npz", TraceSelection(heads=(0, 2)))
    data = load(tmp_path / "t.npz")
    for name in STAGE_ARRAYS:
        full = getattr(small, name)
        np.testing.assert_array_equal(data[name], full[[0, 2]] if name in PER_HEAD_STAGES else full)


def significant_digits(text: str) -> str:
    mantissa = text.lstrip("-").split("e")[0].replace(".", "")
    return mantissa.strip("0") or "0"


def test_json_numbers_are_the_shortest_float32_text(tmp_path, small):
    small.save(tmp_path / "t.json", TraceSelection(("scores", "weights")))
    text = (tmp_path / "t.json").read_text()
    numbers = [n for n in text[text.index('"scores":') :].replace("[", ",").replace("]", ",").split(",")]
    numbers = [n for n in numbers if n and n[0] in "-0123456789"]
    assert len(numbers) == small.scores.size + small.weights.size
    for number in numbers:
        value = np.float32(float(number))
        # The same significant digits as numpy's shortest round-trip text for that float32.
        assert significant_digits(number) == significant_digits(str(value)), (number, str(value))


def test_json_never_holds_nan_or_infinity(engine, tmp_path):
    """A NaN that got into a trace after it was made is refused, never written bare (strict
    JSON readers refuse NaN) and no file is left (tests/test_finite_numbers.py: none is made)."""
    from explorer.finite import NotFinite

    trace = engine.trace(RANDOM)
    trace.weights = trace.weights.copy()
    trace.weights[0, 0, :3] = [np.nan, np.inf, -np.inf]
    with pytest.raises(NotFinite, match="weights"):
        trace.save(tmp_path / "t.json", TraceSelection(("weights",)))
    assert not list(tmp_path.iterdir())


def test_json_is_written_without_giant_lists(engine, tmp_path):
    """json.dump(tolist()) of these 3 × 8 × 384² floats needs about 150 MB of Python objects."""
    trace = engine.trace(AttentionConfig(sentence=" ".join(f"w{i}" for i in range(384)), weights="random"))
    tracemalloc.start()
    try:
        trace.save(tmp_path / "t.json", TraceSelection(("scores", "scaled", "weights")))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MB"
    assert np.shape(load(tmp_path / "t.json")["weights"]) == (8, 384, 384)


# -- projections: Q, K, V and the output again, from the file alone -------------------------
@pytest.mark.parametrize("weights", ["pretrained", "random"])
@pytest.mark.parametrize("suffix", [".npz", ".json"])
def test_projections_rederive_q_k_v_and_output(engine, tmp_path, weights, suffix):
    config = AttentionConfig(sentence=SENTENCE, query="a tired animal", weights=weights, layer=2)
    trace = engine.trace(config)
    path = tmp_path / f"t{suffix}"
    trace.save(path, TraceSelection(projections=True))
    d = {
        k: np.asarray(v, dtype=np.float32) if k in STAGE_ARRAYS or k[:2] in ("W_", "b_") else v
        for k, v in load(path).items()
    }
    assert "W_Q[i] = W_q[rows of head" in d["projections"]["layout"]
    assert d["projections"]["absent_biases"] == []
    for name, x in (("Q", d["X_query"]), ("K", d["X_key"]), ("V", d["X_key"])):
        rederived = np.einsum("nd,hkd->hnk", x, d[f"W_{name}"]) + d[f"b_{name}"][:, None, :]
        np.testing.assert_allclose(rederived, d[name], atol=1e-5, err_msg=name)
    output = np.einsum("hnk,hdk->nd", d["head_outputs"], d["W_O"]) + d["b_O"]
    np.testing.assert_allclose(output, d["output"], atol=1e-5)
    numerics = d["numerics"]
    assert numerics["float32_matmul_precision"] == "highest" and numerics["torch"] and numerics["numpy"]
    assert {"cuda_matmul_allow_tf32", "cudnn_allow_tf32", "device_name"} <= set(numerics)


def test_projections_of_chosen_heads(engine, tmp_path):
    trace = engine.trace(AttentionConfig(sentence=SENTENCE))
    trace.save(tmp_path / "t.npz", TraceSelection(("X_query", "Q"), (0, 5), projections=True))
    d = load(tmp_path / "t.npz")
    assert d["W_Q"].shape == (2, 32, 384) and d["W_O"].shape == (2, 384, 32) and d["b_O"].shape == (384,)
    np.testing.assert_allclose(d["X_query"] @ d["W_Q"][1].T + d["b_Q"][1], trace.Q[5], atol=1e-5)


# -- failures leave nothing behind ----------------------------------------------------------
class FullDisk:
    """A file whose writes fail with ENOSPC once ``room`` bytes are in."""

    def __init__(self, f, room: int):
        self.f, self.room = f, room

    def write(self, data) -> int:
        self.room -= len(data)
        if self.room < 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.f.write(data)

    def __getattr__(self, name):
        return getattr(self.f, name)


@pytest.mark.parametrize("suffix", [".npz", ".json"])
def test_full_disk_gives_one_line_and_no_file(tmp_path, monkeypatch, capsys, suffix):
    real = atomic.os.fdopen

    class Wrapped:
        def __init__(self, *args, **kw):
            self.f = real(*args, **kw)

        def __enter__(self):
            return FullDisk(self.f.__enter__(), room=2000)

        def __exit__(self, *exc):
            return self.f.__exit__(*exc)

    monkeypatch.setattr(atomic.os, "fdopen", Wrapped)
    out = tmp_path / f"t{suffix}"
    with pytest.raises(SystemExit) as exit_:
        cli_main(["trace", "--weights", "random", "--sentence", SENTENCE, "--out", str(out)])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip() == f"error: cannot write {out}: No space left on device"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where", ["write", "compute", "torch allocator"])
def test_out_of_memory_gives_one_line_and_no_file(tmp_path, monkeypatch, capsys, where):
    from explorer.core.engine import Engine

    def no_memory(*args, **kw):
        if where == "torch allocator":
            raise RuntimeError(
                "[enforce fail at alloc_cpu.cpp:117] DefaultCPUAllocator: can't allocate memory"
            )
        raise MemoryError()

    if where == "write":
        monkeypatch.setattr(trace_files, "_numbers", no_memory)
    else:
        monkeypatch.setattr(Engine, "trace", no_memory)
    with pytest.raises(SystemExit) as exit_:
        cli_main(["trace", "--weights", "random", "--out", str(tmp_path / "t.json")])
    assert exit_.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: not enough memory"), lines
    assert list(tmp_path.iterdir()) == []


def test_trace_files_get_ordinary_permissions(small, tmp_path):
    small.save(tmp_path / "t.npz")
    assert (tmp_path / "t.npz").stat().st_mode & 0o044  # readable by others (umask permitting)


# -- the command ----------------------------------------------------------------------------
def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "explorer", "trace", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_command_writes_the_selection(tmp_path):
    out = tmp_path / "t.npz"
    result = run_cli(
        *("--weights", "random", "--d-model", "16", "--heads", "4", "--sentence", SENTENCE),
        *("--stages", "weights,mask,X_query,Q", "--only-heads", "0,3", "--dtype", "float16"),
        *("--with-projections", "--out", str(out)),
    )
    assert result.returncode == 0, result.stderr
    assert "wrote X_query, Q, mask, weights; heads 0,3; projections; float16" in result.stdout
    data = load(out)
    full = AttentionConfig(sentence=SENTENCE, weights="random", d_model=16, heads=4)
    from explorer.core.engine import Engine

    trace = Engine().trace(full)
    assert data["weights"].dtype == np.float16 and data["mask"].dtype == bool
    np.testing.assert_array_equal(data["weights"], trace.weights[[0, 3]].astype(np.float16))
    np.testing.assert_array_equal(data["W_Q"], trace.projection_slices([0, 3])["W_Q"].astype(np.float16))
    assert data["heads_written"] == [0, 3] and "scores" not in data


@pytest.mark.parametrize(
    "args,message",
    [
        (["--stages", "weights,nope"], "unknown stage 'nope'"),
        (["--dtype", "int8"], "invalid choice: 'int8'"),
    ],
)
def test_command_refuses_bad_values_with_one_line(tmp_path, args, message):
    result = run_cli(*args, "--out", str(tmp_path / "t.json"))
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args,message",
    [
        (["--only-heads", "12"], "head 12 does not exist: this trace has 12 heads, 0 to 11"),
        (["--only-heads", "0,8", "--weights", "random"], "head 8 does not exist: this trace has 8 heads"),
        (["--only-heads", "0;3"], "separated by commas"),
        (["--dtype", "float64"], "invalid choice: 'float64'"),
        (["--device", "cuda:x"], "device 'cuda:x' is not one of"),
        (["--device", "gpu"], "device 'gpu' is not one of"),
        (["--device", "cuda:999", "--strict-device"], "--strict-device"),
    ],
)
def test_bad_values_exit_2_in_process(tmp_path, capsys, args, message):
    with pytest.raises(SystemExit) as exit_:
        cli_main(["trace", *args, "--out", str(tmp_path / "t.json")])
    assert exit_.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert list(tmp_path.iterdir()) == []


def test_help_explains_only_heads_and_heads(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli_main(["trace", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--only-heads LIST" in text and "--heads sets the head count" in text
    assert "cuda:N" in text and "--strict-device" in text and "--with-projections" in text
