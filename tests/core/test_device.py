"""GPU honesty without a GPU: device names and validation, fallbacks and their notices,
TF32 pinned off and recorded, memory released after an out-of-memory error, and
projections and encoders moved to a device once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer.core import device as device_module
from explorer.core import engine as engine_module
from explorer.core.attention import Projections
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.device import DeviceUnavailable, choose_device
from explorer.core.engine import Engine

ROOT = Path(__file__).resolve().parents[2]
RANDOM = AttentionConfig(sentence="a small test sentence", weights="random", d_model=16, heads=4)


@pytest.fixture
def fake_gpus(monkeypatch):
    """Pretend two CUDA devices exist (nothing is computed on them)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i=None: f"Fake GPU {getattr(i, 'index', i)}")
    monkeypatch.setattr(device_module, "_pinned", False)
    flags = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
    precision = torch.get_float32_matmul_precision()
    yield
    torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = flags
    torch.set_float32_matmul_precision(precision)


@pytest.mark.parametrize("name", ["auto", "cpu", "cuda", "mps", "cuda:0", "cuda:1", "cuda:12"])
def test_config_accepts_devices(name):
    assert AttentionConfig(device=name).device == name


@pytest.mark.parametrize("name", ["cuda:x", "cuda:", "cuda:-1", "gpu", "CUDA", "cuda:0 ", "cuda:1234", 0])
def test_config_refuses_other_devices(name):
    with pytest.raises(ConfigError, match="is not one of auto, cpu, cuda, mps or cuda:N"):
        AttentionConfig(device=name)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the machine without CUDA")
@pytest.mark.parametrize("name", ["cuda", "cuda:0", "cuda:3"])
def test_absent_cuda_falls_back_with_a_notice_or_refuses_when_strict(name):
    device, notice = choose_device(name)
    assert device.type == "cpu"
    assert (
        notice
        == f"{name.upper()} asked for, but no CUDA GPU found (or this torch is a CPU build): computed on the CPU"
    )
    with pytest.raises(DeviceUnavailable, match=r"\(--strict-device: no fallback\)"):
        choose_device(name, strict=True)
    assert choose_device("cpu", strict=True) == (torch.device("cpu"), None)


def test_absent_index_lists_the_devices_there_are(fake_gpus):
    device, notice = choose_device("cuda:2")
    assert device == torch.device("cpu")
    assert (
        notice
        == "CUDA:2 asked for, but this machine has only cuda:0 (Fake GPU 0), cuda:1 (Fake GPU 1): computed on the CPU"
    )
    with pytest.raises(DeviceUnavailable, match="cuda:1 \\(Fake GPU 1\\)"):
        choose_device("cuda:2", strict=True)
    assert choose_device("cuda:1") == (torch.device("cuda", 1), None)
    assert choose_device("cuda") == (torch.device("cuda", 0), None)
    assert {"cuda:0", "cuda:1"} <= set(device_module.device_reasons())  # the window lists each GPU


def test_choosing_cuda_pins_tf32_off_once(fake_gpus):
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    torch.set_float32_matmul_precision("high")
    choose_device("cpu")
    assert torch.backends.cuda.matmul.allow_tf32  # the CPU leaves the settings alone
    choose_device("cuda:1")
    assert not torch.backends.cuda.matmul.allow_tf32 and not torch.backends.cudnn.allow_tf32
    assert torch.get_float32_matmul_precision() == "highest"
    numerics = device_module.numerics(torch.device("cuda", 1))
    assert numerics["cuda_matmul_allow_tf32"] is False and numerics["cudnn_allow_tf32"] is False
    assert numerics["float32_matmul_precision"] == "highest" and numerics["device_name"] == "Fake GPU 1"


def test_trace_records_the_numerics(engine):
    numerics = engine.trace(RANDOM).numerics
    assert numerics["torch"] == torch.__version__ and numerics["device"] == "cpu"
    assert numerics["float32_matmul_precision"] == torch.get_float32_matmul_precision()
    assert numerics["cuda_matmul_allow_tf32"] == torch.backends.cuda.matmul.allow_tf32
    assert numerics["device_name"]


# -- out of memory on the device ------------------------------------------------------------
@pytest.fixture
def gpu_that_runs_out(monkeypatch):
    """An engine that 'chooses' cuda:0 and runs out of memory there; records empty_cache."""
    calls = []
    monkeypatch.setattr(
        engine_module, "choose_device", lambda name, strict=False: (torch.device("cuda", 0), None)
    )
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: calls.append("empty_cache"))
    real = Engine._trace_on

    def trace_on(self, config, device, notices, started, heads=None):
        if device.type == "cuda":
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(self, config, device, notices, started, heads)

    monkeypatch.setattr(Engine, "_trace_on", trace_on)
    return calls


def test_out_of_memory_falls_back_to_the_cpu_and_empties_the_cache(gpu_that_runs_out):
    trace = Engine().trace(RANDOM)
    assert trace.device == "cpu" and "CUDA ran out of memory: computed on the CPU" in trace.notices
    assert gpu_that_runs_out == ["empty_cache"]


def test_out_of_memory_with_strict_device_refuses(gpu_that_runs_out):
    with pytest.raises(DeviceUnavailable, match="CUDA ran out of memory \\(--strict-device: no fallback\\)"):
        Engine().trace(RANDOM, strict_device=True)
    assert gpu_that_runs_out == ["empty_cache"]


# -- moved once ------------------------------------------------------------------------------
def test_cpu_traces_move_nothing_and_reuse_projections(monkeypatch):
    moves = []
    real = Projections.to
    monkeypatch.setattr(Projections, "to", lambda self, d: moves.append(d) or real(self, d))
    engine = Engine()
    a, b = engine.trace(RANDOM), engine.trace(RANDOM.with_(sentence="another one"))
    assert moves == []
    assert np.shares_memory(a.projections["w_q"], b.projections["w_q"])  # made once, not per trace
    assert not a.projections["w_q"].flags.writeable  # a view of the engine's tensor: read-only


def test_projections_and_encoder_move_to_a_device_once(engine, monkeypatch):
    """The 'meta' device stands in for a GPU: moving to it works, computing does not."""
    meta = torch.device("meta")
    moves = []
    real = Projections.to
    monkeypatch.setattr(Projections, "to", lambda self, d: moves.append(d) or real(self, d))
    fresh = Engine()
    first = fresh._seeded_projections("random", 16, 3, meta)
    assert fresh._seeded_projections("random", 16, 3, meta) is first and moves == [meta]
    assert first.w_q.device == meta
    assert fresh._seeded_projections("random", 16, 4, meta) is not first and len(moves) == 2

    model = engine.model()
    encoder_moves = []
    real_to = type(model.encoder).to
    monkeypatch.setattr(
        type(model.encoder), "to", lambda self, d: encoder_moves.append(d) or real_to(self, d)
    )
    on_meta = fresh._encoder_on(model, meta)
    assert fresh._encoder_on(model, meta) is on_meta and encoder_moves == [meta]
    assert on_meta.layers[0].w_q.device == meta and model.encoder.layers[0].w_q.device.type == "cpu"


def test_projection_cache_keeps_to_its_budget(monkeypatch):
    monkeypatch.setattr(engine_module, "_PROJECTION_CACHE_BYTES", 3 * 4 * (4 * 16 * 16 + 4 * 16))
    engine = Engine()
    for seed in range(5):
        engine._seeded_projections("random", 16, seed, torch.device("cpu"))
    assert len(engine._projections) == 3
    assert [key[2] for key in engine._projections] == [2, 3, 4]  # the least recently used went


# -- bench/gpu_check.py without a GPU --------------------------------------------------------
@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the machine without CUDA")
def test_gpu_check_says_there_is_nothing_to_compare():
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gpu_check.py")], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 3, result.stdout + result.stderr
    assert result.stdout.strip() == "no CUDA device: nothing to compare"
