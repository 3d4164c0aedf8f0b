"""Every number written or shown is finite, or the run says why.

What the trial found: weights that are finite but overflow during the forward pass gave exit
0 and all-NaN stages written as bare ``NaN`` in the JSON; lab checkpoints with a NaN or
infinite weight ran with exit 0 and NaN attention; ``--dtype float16`` wrote inf for values
beyond its range. Each case here, through the command a user runs, the window, and the one
guard (explorer/finite.py) where every trace is made.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file

from explorer.core.config import AttentionConfig
from explorer.core.trace_files import Entry, write_json
from explorer.finite import FLOAT16_MAX, NotFinite, count_non_finite, require_finite, strict_json
from explorer.resources import resource_path
from tests.commands import refused
from tests.models import tiny


def scaled_folder(tmp_path: Path, name: str, factor: float, *tensors: str) -> Path:
    """A tiny model folder whose ``tensors`` are multiplied by ``factor`` (finite weights)."""
    folder = tiny.build(tmp_path / name)
    weights = load_file(str(folder / "model.safetensors"))
    for key in weights:
        if any(key.endswith(t) for t in tensors):
            weights[key] = weights[key] * factor
    assert all(torch.isfinite(w).all() for w in weights.values() if w.is_floating_point())
    save_file(weights, str(folder / "model.safetensors"))
    return folder


def strictly(path: Path) -> dict:
    """The file read as strict JSON: a bare NaN or Infinity fails."""

    def refuse(constant: str):
        raise AssertionError(f"{path.name} holds a bare {constant}")

    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


# -- the trace command ---------------------------------------------------------------------------
def test_an_overflow_during_the_forward_pass_exits_2_naming_where_it_began(run, tmp_path):
    folder = scaled_folder(tmp_path, "overflow", 1e30, "query.weight", "key.weight")
    out = tmp_path / "t.json"
    line = refused(run("trace", "--model-dir", str(folder), "--sentence", "the animal", "--out", str(out)))
    assert "overflowed" in line and "NaN or infinite" in line and "weights are finite" in line
    assert not out.exists() and not list(tmp_path.glob("t.json*"))


def test_float16_beyond_its_range_exits_2_and_float32_writes_it(run, tmp_path):
    folder = scaled_folder(tmp_path, "large", 1e7, "value.weight")
    out = tmp_path / "t.json"
    args = ("trace", "--model-dir", str(folder), "--sentence", "the animal", "--out", str(out))
    line = refused(run(*args, "--dtype", "float16"))
    assert "float16" in line and "65504" in line and not out.exists()
    assert run(*args).returncode == 0  # float32 holds the same numbers
    data = strictly(out)
    assert max(abs(np.asarray(data[name])).max() for name in ("V", "head_outputs", "output")) > FLOAT16_MAX


def test_every_trace_file_is_strict_json(run, tmp_path):
    out = tmp_path / "t.json"
    assert run("trace", "--mask", "valid:0", "--out", str(out)).returncode == 0  # every weight 0
    assert strictly(out)["weights"]


def test_the_json_writer_refuses_a_nan_rather_than_writing_it(tmp_path):
    bad = np.array([[1.0, np.nan]], dtype=np.float32)
    with open(tmp_path / "x.json", "wb") as f, pytest.raises(NotFinite, match="weights"):
        write_json(f, {"a": 1}, [Entry("weights", [bad], False)], "float32")
    with pytest.raises(NotFinite):
        strict_json({"loss": float("inf")}, "config.json")


# -- the guard itself ----------------------------------------------------------------------------
def test_the_guard_counts_and_names_the_first_bad_stage():
    assert count_non_finite(np.ones((3, 3), np.float32)) == 0
    big = np.full(4, 3e38, np.float32)  # finite values whose sum overflows: counted exactly
    assert count_non_finite(big) == 0
    assert count_non_finite(np.array([np.nan, np.inf, -np.inf, 1.0])) == 3
    assert count_non_finite(np.array([True, False])) == 0
    with pytest.raises(NotFinite, match=r"Q holds 2 NaN"):
        require_finite([("X", np.ones(2)), ("Q", np.array([np.nan, np.inf])), ("K", np.array([np.nan]))])


def test_no_trace_with_a_nan_is_made(engine):
    from dataclasses import replace

    trace = engine.trace(AttentionConfig(sentence="the animal"))
    weights = trace.weights.copy()
    weights[0, 0, 0] = np.nan
    with pytest.raises(NotFinite, match="weights holds 1 NaN"):
        replace(trace, weights=weights)


# -- the labs ----------------------------------------------------------------------------------------
def test_a_translation_checkpoint_with_a_nan_weight_is_refused_on_loading(run, tmp_path):
    folder = tmp_path / "ck"
    shutil.copytree(resource_path("seq2seq", "bahdanau-additive"), folder)
    weights = load_file(str(folder / "model.safetensors"))
    name = sorted(k for k, v in weights.items() if v.is_floating_point())[0]
    weights[name].view(-1)[3] = float("nan")
    save_file(weights, str(folder / "model.safetensors"))
    out = tmp_path / "t.json"
    line = refused(run("translate", "--source", "9 mai 2018", "--checkpoint", str(folder), "--out", str(out)))
    assert name in line and "NaN" in line and not out.exists()


def test_a_vision_checkpoint_with_an_infinite_weight_is_refused_on_loading(run, tmp_path):
    stem = tmp_path / "cbam"
    shutil.copy(resource_path("vision", "cbam.json"), stem.with_suffix(".json"))
    weights = load_file(str(resource_path("vision", "cbam.safetensors")))
    name = sorted(k for k, v in weights.items() if v.is_floating_point())[0]
    weights[name].view(-1)[0] = float("inf")
    save_file(weights, str(stem.with_suffix(".safetensors")))
    out = tmp_path / "v.json"
    line = refused(run("vision", "--generate", "3", "--checkpoint", str(stem), "--out", str(out)))
    assert name in line and "infinite" in line and not out.exists()


def test_the_lab_traces_refuse_a_nan_and_write_strict_json(tmp_path):
    from dataclasses import replace

    from explorer.seq2seq.translate import translate
    from explorer.vision.checkpoints import load_shipped
    from explorer.vision.shapes import generate
    from explorer.vision.trace import run_model

    trace = translate("9 mai 2018", "bahdanau", None, "soft", 0, None)
    trace.to_json(tmp_path / "t.json")
    strictly(tmp_path / "t.json")
    scores = trace.scores.copy()
    scores[0, 0] = np.inf
    with pytest.raises(NotFinite, match="scores"):
        replace(trace, scores=scores)
    vision = run_model(load_shipped("cbam")[0], generate(3).image)
    vision.to_json(tmp_path / "v.json")
    strictly(tmp_path / "v.json")
    with pytest.raises(NotFinite, match="logits"):
        replace(vision, logits=np.full_like(vision.logits, np.nan))


def test_every_shipped_json_file_is_strict_json():
    """The shipped checkpoints' records held bare NaN (a format without padded digits)."""
    files = sorted(resource_path("seq2seq").rglob("*.json")) + sorted(resource_path("vision").rglob("*.json"))
    assert files
    for path in files:
        strictly(path)


# -- the window ----------------------------------------------------------------------------------
def test_the_window_says_so_in_its_banner_and_keeps_the_last_good_picture(qtbot, make_window, tmp_path):
    from .gui.helpers import WAIT_MS, wait_trace

    folder = scaled_folder(tmp_path, "overflow", 1e30, "query.weight", "key.weight")
    w = make_window(AttentionConfig(sentence="the animal", weights="random"))
    good = wait_trace(qtbot, w, weights="random")
    w.state.update_config(model_dir=str(folder), weights="pretrained")
    qtbot.waitUntil(lambda: w.banner.isVisible() and "overflowed" in w.banner.text(), timeout=WAIT_MS)
    assert w.trace is good and "last good result" in w.banner.text()
