"""The bad-input catalogue, each case against the ``trace`` command and the window.

The command: exit 2 with one clear line on stderr, or exit 0 with a ``note:`` where the
input is acceptable. The window: a clear message in its banner (errors) or notice
(accepted with a remark), the last good trace kept on screen, the user's text kept in
its field, and no crash or hang.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
import torch  # before Qt, as in main.py

from explorer.appstate.session import (
    SESSION_VERSION,
    Session,
    SessionError,
    load_session,
    save_session,
)
from explorer.core.config import AttentionConfig, ConfigError

ROOT = Path(__file__).resolve().parents[1]
WAIT_MS = 30_000
LONG_PASTE = " ".join(["word"] * 10_000)
EMOJI = "attention 😀 is 🚀 all you need"
RTL = "שלום עולם and مرحبا بالعالم"
CONTROL = "tab\there bell\x07 escape\x1b end"
LONG_WORD = "a" * 5_000


# -- the trace command ------------------------------------------------------------------
@pytest.fixture
def run_trace(tmp_path, capsys):
    """run_trace(*args): the trace command in this process (its exit status, stdout, stderr)."""
    from explorer.cli import main

    def run(*args: str, out: str = "t.json") -> subprocess.CompletedProcess:
        try:
            code = main(["trace", *args, "--out", str(tmp_path / out)])
        except SystemExit as exc:
            code = exc.code
        captured = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, captured.out, captured.err)

    return run


def test_trace_command_as_a_process(tmp_path):
    """The real process: status 2 and one line for a refusal, status 0 and a note for emoji."""

    def process(*args):
        return subprocess.run(
            [sys.executable, "-m", "explorer", "trace", *args, "--out", str(tmp_path / "t.json")],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )

    refused(process("--sentence", " "), "empty")
    accepted(process("--sentence", EMOJI), tmp_path, "[UNK]")


def refused(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def accepted(result: subprocess.CompletedProcess, tmp_path, *notes: str) -> dict:
    assert result.returncode == 0, result.stderr
    for note in notes:
        assert any(line.startswith("note:") and note in line for line in result.stdout.splitlines()), (
            result.stdout
        )
    if (tmp_path / "t.npz").exists():  # large traces: NPZ (JSON of 3 × 12 × 512² floats is slow)
        with np.load(tmp_path / "t.npz", allow_pickle=False) as npz:
            data = {k: npz[k] for k in npz.files}
        data.update(json.loads(str(data.pop("meta_json"))))
        return data
    return json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))


def model_folders(tmp_path) -> dict[str, Path]:
    """Broken model folders: missing, empty, truncated, corrupt, and ones that load but would lie."""
    from explorer.models.loader import default_model_dir

    good = Path(default_model_dir())
    config = json.loads((good / "config.json").read_text(encoding="utf-8"))
    folders = {"missing": tmp_path / "no-such-folder", "empty": tmp_path / "empty"}
    folders["empty"].mkdir()

    def folder(name: str, config_changes=None, tokenizer=True, weights="link") -> Path:
        path = tmp_path / name
        path.mkdir()
        (path / "config.json").write_text(json.dumps({**config, **(config_changes or {})}), encoding="utf-8")
        if tokenizer:
            shutil.copy(good / "tokenizer.json", path / "tokenizer.json")
        if weights == "link":  # the bundled weights, unchanged and uncopied
            (path / "model.safetensors").symlink_to(good / "model.safetensors")
        folders[name] = path
        return path

    with open(good / "model.safetensors", "rb") as f:
        folder("truncated", weights=None).joinpath("model.safetensors").write_bytes(f.read(4096))
    folder("corrupt", weights=None).joinpath("model.safetensors").write_bytes(
        b"\xff" * 8 + np.random.default_rng(0).bytes(4096)
    )
    folder("wrong width", {"hidden_size": 768})
    folder("unknown model_type", {"model_type": "t5"})
    folder("no tokenizer", tokenizer=False)
    # Never read before the user agrees, so a tiny one is enough.
    torch.save({"w": torch.zeros(2)}, folder("pickle only", weights=None) / "pytorch_model.bin")
    from safetensors.torch import load_file, save_file

    tensors = load_file(str(good / "model.safetensors"))
    tensors["encoder.layer.3.attention.self.key.weight"][7, 7] = float("nan")
    save_file(tensors, str(folder("NaN weights", weights=None) / "model.safetensors"))
    folder("30-digit layer count", {"num_hidden_layers": 10**30})
    loop = folders["symlink loop"] = tmp_path / "loop"
    loop.symlink_to(loop)
    folders["a file"] = tmp_path / "a-file.txt"
    folders["a file"].write_text("not a folder", encoding="utf-8")
    return folders


# What each broken folder's one line must say (beyond naming the folder or file).
MODEL_FOLDER_WORDS = {
    "missing": ["does not exist"],
    "empty": ["lacks config.json"],
    "truncated": ["model.safetensors", "corrupt"],
    "corrupt": ["model.safetensors", "corrupt"],
    "wrong width": ["model.safetensors", "hidden_size"],
    "unknown model_type": ["config.json", "t5", "supported"],
    "no tokenizer": ["no tokenizer"],
    "pickle only": ["pytorch_model.bin", "converted"],
    "NaN weights": ["encoder.layer.3.attention.self.key.weight", "NaN"],
    "30-digit layer count": ["num_hidden_layers", "more than any model has"],
    "symlink loop": ["loops through symbolic links"],
    "a file": ["a file, not a folder"],
}


CLI_REFUSED = [
    ("empty", ["--sentence", ""], ["empty"]),
    ("whitespace", ["--sentence", "   \t "], ["empty"]),
    ("heads not dividing", ["--heads", "5"], ["5 heads", "384"]),
    ("tau 0", ["--scale", "temperature", "--temperature", "0"], ["temperature"]),
    ("tau negative", ["--scale", "temperature", "--temperature=-1"], ["temperature"]),
    ("tau nan", ["--scale", "temperature", "--temperature", "nan"], ["temperature"]),
    ("tau inf", ["--scale", "temperature", "--temperature", "inf"], ["temperature"]),
    ("negative window", ["--mask", "window:-1"], ["window"]),
    ("30-digit window", ["--mask", "window:" + "9" * 30], ["at most"]),
    ("30-digit valid length", ["--mask", "valid:" + "9" * 30], ["at most"]),
    ("30-digit seed", ["--weights", "random", "--seed", "9" * 30], ["seed", "from 0 to"]),
    ("empty --model-dir", ["--model-dir", ""], ["--model-dir is empty"]),
    ("text not UTF-8", ["--sentence", "caf\udce9"], ["not valid UTF-8"]),
]


@pytest.mark.parametrize("name,args,words", CLI_REFUSED, ids=[c[0] for c in CLI_REFUSED])
def test_trace_refuses_with_one_line(run_trace, name, args, words):
    refused(run_trace(*args), *words)


CLI_ACCEPTED = [
    ("10,000-token paste", ["--sentence", LONG_PASTE], ["cut from"], lambda d: len(d["tokens_key"]) == 512),
    ("emoji", ["--sentence", EMOJI], ["[UNK]"], lambda d: any("😀" in t for t in d["tokens_key"])),
    ("right-to-left", ["--sentence", RTL], [], lambda d: len(d["tokens_key"]) > 3),
    (
        "control characters",
        ["--sentence", CONTROL],
        ["control character"],
        lambda d: not any("\x07" in t or "\x1b" in t for t in d["tokens_key"]),
    ),
    ("5,000-character word", ["--sentence", LONG_WORD], [], lambda d: len(d["tokens_key"]) >= 3),
    (
        "window 0",
        ["--mask", "window:0"],
        [],
        lambda d: np.array_equal(np.array(d["mask"]), np.eye(len(d["tokens_key"]), dtype=bool)),
    ),
    ("valid 0", ["--mask", "valid:0"], ["hides every key"], lambda d: not np.any(d["weights"])),
    ("valid beyond", ["--mask", "valid:99"], ["beyond"], lambda d: np.all(d["mask"])),
    ("cuda absent", ["--device", "cuda"], ["CUDA asked for"], lambda d: d["device"] == "cpu"),
    ("mps absent", ["--device", "mps"], ["MPS asked for"], lambda d: d["device"] == "cpu"),
]


@pytest.mark.parametrize("name,args,notes,check", CLI_ACCEPTED, ids=[c[0] for c in CLI_ACCEPTED])
def test_trace_accepts_with_a_notice(run_trace, tmp_path, name, args, notes, check):
    if name.startswith("cuda") and torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    if name.startswith("mps") and getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        pytest.skip("this machine has MPS")
    data = accepted(run_trace(*args, out="t.npz" if LONG_PASTE in args else "t.json"), tmp_path, *notes)
    assert check(data)


def test_trace_refuses_bad_model_folders(run_trace, tmp_path):
    for name, folder in model_folders(tmp_path).items():
        refused(run_trace("--model-dir", str(folder)), str(folder), *MODEL_FOLDER_WORDS[name])


def test_nul_cannot_reach_the_command_but_the_engine_drops_it():
    """A NUL cannot be passed in argv at all (the OS refuses), so the engine path is tested."""
    with pytest.raises(ValueError):
        subprocess.run([sys.executable, "-c", "pass", "a\x00b"], timeout=30)
    from explorer.core.engine import Engine

    trace = Engine().trace(AttentionConfig(sentence="a\x00b c", weights="random"))
    assert any("control character" in n for n in trace.notices)
    assert all("\x00" not in t for t in trace.tokens_key)


# -- session files (Qt-free) ---------------------------------------------------------------
def bad_sessions(tmp_path) -> dict[str, Path]:
    files = {}
    good = tmp_path / "good.json"
    save_session(good, Session(AttentionConfig(sentence="saved")))
    text = good.read_text(encoding="utf-8")
    files["corrupt"] = tmp_path / "corrupt.json"
    files["corrupt"].write_text(text[: len(text) // 2], encoding="utf-8")
    files["empty"] = tmp_path / "empty.json"
    files["empty"].write_bytes(b"")
    files["huge"] = tmp_path / "huge.json"
    files["huge"].write_text('{"pad": "' + "x" * (3 * 1024 * 1024) + '"}', encoding="utf-8")
    files["other version"] = tmp_path / "v99.json"
    files["other version"].write_text(
        text.replace(f'"version": {SESSION_VERSION}', '"version": 99'), encoding="utf-8"
    )
    files["not JSON"] = tmp_path / "binary.json"
    files["not JSON"].write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    return files


def test_bad_session_files_raise_a_clear_session_error(tmp_path):
    for name, path in bad_sessions(tmp_path).items():
        with pytest.raises(SessionError) as info:
            load_session(path)
        assert str(info.value) and "Traceback" not in str(info.value), name
    with pytest.raises(SessionError):
        load_session(tmp_path / "missing.json")


# -- the window -----------------------------------------------------------------------------
@pytest.fixture
def window(make_window):
    return make_window(AttentionConfig(sentence="The animal was tired"), size=(1200, 800))


def type_text(qtbot, window, text: str) -> None:
    window.controls.sentence.setText(text)  # a paste: one edit


def wait_trace(qtbot, window, sentence: str):
    qtbot.waitUntil(
        lambda: (
            window.trace is not None
            and window.trace.config.sentence == sentence
            and not window.worker.busy("trace")
        ),
        timeout=WAIT_MS,
    )
    return window.trace


def wait_error(qtbot, window, *words: str) -> None:
    qtbot.waitUntil(
        lambda: window.banner.isVisible() and all(w in window.banner.text() for w in words), timeout=WAIT_MS
    )


def assert_last_good_kept(window, good) -> None:
    assert window.trace is good
    np.testing.assert_array_equal(window.pipeline.panel("weights").data, good.weights[window.pipeline.head])


@pytest.mark.parametrize("text", ["", "   \t  "], ids=["empty", "whitespace"])
def test_window_empty_text(qtbot, window, text):
    good = window.trace
    type_text(qtbot, window, text)
    wait_error(qtbot, window, "empty")
    assert window.controls.sentence.text() == text
    assert_last_good_kept(window, good)


ACCEPTED_TEXTS = [
    ("10,000-token paste", LONG_PASTE, "cut from"),
    ("emoji", EMOJI, "[UNK]"),
    ("right-to-left", RTL, None),
    ("control characters and NUL", "nul\x00 and bell\x07 here", "control character"),
    ("5,000-character word", LONG_WORD, None),
]


@pytest.mark.parametrize("name,text,notice", ACCEPTED_TEXTS, ids=[c[0] for c in ACCEPTED_TEXTS])
def test_window_accepts_odd_text(qtbot, window, name, text, notice):
    type_text(qtbot, window, text)
    trace = wait_trace(qtbot, window, text)
    pipeline = window.pipeline  # large traces are drawn a few panels per event-loop turn
    qtbot.waitUntil(
        lambda: pipeline.canvas.panels and pipeline.panel("weights").shape == (trace.n_query, trace.n_key),
        timeout=WAIT_MS,
    )
    assert window.controls.sentence.text() == text
    assert not window.banner.isVisible()
    if notice:
        assert window.notice.isVisible() and notice in window.notice.text()
    assert not window.pipeline.panel("weights").reduced or trace.n_key > 256


def test_window_heads_that_do_not_divide(qtbot, window):
    good = window.trace
    offered = [window.controls.heads.itemData(i) for i in range(window.controls.heads.count())]
    assert 5 not in offered  # the control offers only divisors; the state path is tested
    window.state.update_config(heads=5)
    wait_error(qtbot, window, "5 heads", "384")
    assert_last_good_kept(window, good)


@pytest.mark.parametrize("tau", [0.0, -1.0, math.nan, math.inf], ids=["0", "negative", "nan", "inf"])
def test_window_bad_temperature(qtbot, window, tau):
    """The τ slider spans 0.01 to 10, so these can only come through the state (or a session):
    the config refuses them and nothing changes."""
    from explorer.gui.docks.controls import slider_to_tau

    c = window.controls
    assert slider_to_tau(c.tau.minimum()) > 0 and math.isfinite(slider_to_tau(c.tau.maximum()))
    good, config = window.trace, window.state.config
    with pytest.raises(ConfigError, match="temperature"):
        window.state.update_config(scale="temperature", temperature=tau)
    assert window.state.config == config
    assert_last_good_kept(window, good)


def test_window_mask_sizes(qtbot, window):
    c = window.controls
    c.mask.setCurrentIndex(c.mask.findData("window"))
    c.mask_size.setValue(0)
    qtbot.waitUntil(lambda: window.trace.config.mask == "window:0", timeout=WAIT_MS)
    np.testing.assert_array_equal(window.trace.mask, np.eye(window.trace.n_key, dtype=bool))
    c.mask.setCurrentIndex(c.mask.findData("valid"))
    qtbot.waitUntil(lambda: window.trace.config.mask == "valid:0", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "hides every key" in window.notice.text(), timeout=WAIT_MS)
    assert not window.trace.weights.any()
    c.mask_size.setValue(99)
    qtbot.waitUntil(lambda: window.trace.config.mask == "valid:99", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "beyond" in window.notice.text(), timeout=WAIT_MS)
    assert window.trace.mask.all()


def test_window_bad_model_folders(qtbot, window, tmp_path):
    good = window.trace
    for name, folder in model_folders(tmp_path).items():
        window.state.update_config(model_dir=str(folder))
        wait_error(qtbot, window, "model could not be used", *MODEL_FOLDER_WORDS[name])
        assert_last_good_kept(window, good)
        window.banner.setVisible(False)
    window.state.update_config(model_dir=None)
    qtbot.waitUntil(
        lambda: window.trace is not good and window.trace.config.model_dir is None, timeout=WAIT_MS
    )


def test_window_bad_session_files(qtbot, window, tmp_path):
    good, config = window.trace, window.state.config
    for name, path in bad_sessions(tmp_path).items():
        window.banner.setVisible(False)
        assert window.files.open(path) is False, name
        assert window.banner.isVisible() and "session" in window.banner.text().lower(), name
        assert window.state.config == config
        assert_last_good_kept(window, good)


@pytest.mark.parametrize("device", ["cuda", "mps"])
def test_window_absent_device_computes_on_the_cpu(qtbot, window, device):
    from explorer.core.device import device_reasons

    if device_reasons()[device] is None:
        pytest.skip(f"this machine has {device}")
    model = window.controls.device.model()
    row = window.controls.device.findData(device, 0x0100)  # Qt.UserRole
    assert row >= 0 and not model.item(row).isEnabled()  # the control offers it disabled
    window.state.update_config(device=device)
    qtbot.waitUntil(lambda: window.trace.config.device == device, timeout=WAIT_MS)
    assert window.trace.device == "cpu"
    qtbot.waitUntil(lambda: f"{device.upper()} asked for" in window.notice.text(), timeout=WAIT_MS)
    assert window.notice.isVisible()


# -- a huge paste, then a newer edit: the older computation really stops ----------------
def test_a_newer_request_stops_an_older_long_computation():
    import threading

    from explorer.appstate.display import DisplayCancelled, prepare_trace
    from explorer.appstate.worker import LatestWins
    from explorer.core.engine import Cancelled, Engine

    started, release, results = threading.Event(), threading.Event(), []

    def long_job(should_stop):
        started.set()
        release.wait(10)
        return should_stop()

    done = threading.Event()
    executor = LatestWins(lambda r: (results.append(r), done.set() if r.value == "new" else None))
    executor.submit("trace", long_job, cancellable=True)
    assert started.wait(10)
    executor.submit("trace", lambda: "new")  # a newer edit arrives while the old one runs
    release.set()
    assert done.wait(10)
    executor.shutdown()
    assert results[0].value is True  # the old job was told to stop
    assert not executor.is_current(results[0]) and executor.is_current(results[-1])
    # the window's job honours it: the engine stops before attention, the display between heads
    with pytest.raises((Cancelled, DisplayCancelled)):
        prepare_trace(Engine(), AttentionConfig(sentence=" ".join(["word"] * 600)), lambda: True)


@pytest.mark.parametrize("size", ["99999999x99999999", "8193x600", "199x800", "12x", "big"])
def test_a_window_size_beyond_any_screen_is_refused_in_one_line(size, capsys):
    """engineer 8 B5: --screenshot --size 99999999x99999999 printed 3,281 Qt warnings, exit 1."""
    from explorer.app import build_parser

    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["--size", size])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "from 200x200 to 8192x8192" in err[-1]


def test_an_8k_screen_is_a_size():
    from explorer.app import build_parser

    assert build_parser().parse_args(["--size", "7680x4320"]).size == (7680, 4320)
