"""The float32 copies read a block of the file at a time equal the memory-mapped tensors
converted, for every stored kind, across shards and across blocks; a kind the reader does not
know is converted from its mapping; the finite check counts from the stored bits."""

from __future__ import annotations

import pytest
import torch
from safetensors import safe_open
from safetensors.torch import save_file

from explorer.models import float32_read
from explorer.models.float32_read import StoredReader


def mapped(files):
    tensors = {}
    for file in files:
        with safe_open(str(file), framework="pt") as f:
            tensors.update({name: f.get_tensor(name) for name in f.keys()})
    return tensors


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32, torch.float64])
def test_copies_equal_the_mapped_tensors_converted(tmp_path, dtype, monkeypatch):
    monkeypatch.setattr(float32_read, "BLOCK_BYTES", 64)  # several blocks per tensor, one cut short
    gen = torch.Generator().manual_seed(0)
    first = {"a.weight": torch.randn(7, 5, generator=gen).to(dtype), "empty": torch.zeros(0, 3, dtype=dtype)}
    second = {
        "b.bias": torch.randn(11, generator=gen).to(dtype),
        "c": torch.randn(2, 3, 4, generator=gen).to(dtype),
    }
    files = [tmp_path / "one.safetensors", tmp_path / "two.safetensors"]
    save_file(first, str(files[0]))
    save_file(second, str(files[1]))
    stored = mapped(files)
    own = {"A": "a.weight", "B": "b.bias", "C": "c", "E": "empty"}
    reader = StoredReader(files, own)
    for canonical, name in own.items():
        copy = reader.float32(canonical, stored[name])
        assert copy.dtype == torch.float32
        assert copy.shape == stored[name].shape
        assert torch.equal(copy, stored[name].float())
        assert reader.non_finite(canonical) == 0


def test_only_the_asked_tensors_are_known_and_unknown_kinds_fall_back(tmp_path):
    file = tmp_path / "m.safetensors"
    save_file({"x": torch.arange(6, dtype=torch.int32).reshape(2, 3), "y": torch.ones(4, dtype=torch.bfloat16),
               "z": torch.ones(3)}, str(file))  # fmt: skip
    stored = mapped([file])
    reader = StoredReader([file], {"X": "x", "Y": "y"})
    assert reader.knows("Y") and not reader.knows("X") and not reader.knows("z")
    assert torch.equal(
        reader.float32("X", stored["x"]), torch.arange(6.0).reshape(2, 3)
    )  # int32: the mapping
    assert reader.non_finite("X") is None  # left to the mapping's check
    assert torch.equal(reader.float32("Y", stored["y"]), torch.ones(4))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32, torch.float64])
def test_non_finite_values_are_counted_from_the_stored_bits(tmp_path, dtype, monkeypatch):
    monkeypatch.setattr(float32_read, "BLOCK_BYTES", 16)
    big = torch.finfo(dtype).max
    bad = torch.tensor(
        [1.0, float("nan"), float("inf"), -float("inf"), 2.0, big, -big, -float("nan")], dtype=dtype
    )
    file = tmp_path / "m.safetensors"
    save_file({"bad": bad, "good": torch.ones(3, dtype=dtype)}, str(file))
    reader = StoredReader([file], {"B": "bad", "G": "good"})
    assert reader.non_finite("B") == 4  # the largest finite values are finite
    assert reader.non_finite("G") == 0
