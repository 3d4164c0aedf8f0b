"""The float32 copies read through the file equal the memory-mapped tensors converted, for every
stored kind, across shards; a kind the reader does not know is converted from its mapping."""

from __future__ import annotations

import pytest
import torch
from safetensors import safe_open
from safetensors.torch import save_file

from explorer.models.float32_read import float32_copies


def mapped(files):
    tensors = {}
    for file in files:
        with safe_open(str(file), framework="pt") as f:
            tensors.update({name: f.get_tensor(name) for name in f.keys()})
    return tensors


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32, torch.float64])
def test_copies_equal_the_mapped_tensors_converted(tmp_path, dtype):
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
    copies = float32_copies(files, {c: stored[n] for c, n in own.items()}, own)
    assert set(copies) == set(own)
    for canonical, name in own.items():
        assert copies[canonical].dtype == torch.float32
        assert copies[canonical].shape == stored[name].shape
        assert torch.equal(copies[canonical], stored[name].float())


def test_only_the_asked_tensors_are_read_and_unknown_kinds_fall_back(tmp_path):
    file = tmp_path / "m.safetensors"
    save_file({"x": torch.arange(6, dtype=torch.int32).reshape(2, 3), "y": torch.ones(4, dtype=torch.bfloat16),
               "z": torch.ones(3)}, str(file))  # fmt: skip
    stored = mapped([file])
    copies = float32_copies([file], {"X": stored["x"], "Y": stored["y"]}, {"X": "x", "Y": "y"})
    assert set(copies) == {"X", "Y"}
    assert torch.equal(copies["X"], torch.arange(6.0).reshape(2, 3))  # int32: not in the reader's table
    assert torch.equal(copies["Y"], torch.ones(4))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_each_copy_s_non_finite_values_are_counted_as_it_is_made(tmp_path, dtype):
    bad = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 2.0]).to(dtype)
    file = tmp_path / "m.safetensors"
    save_file({"bad": bad, "good": torch.ones(3, dtype=dtype), "int": torch.arange(3)}, str(file))
    stored = mapped([file])
    counts: dict[str, int] = {}
    copies = float32_copies([file], {"B": stored["bad"], "G": stored["good"], "I": stored["int"]},
                            {"B": "bad", "G": "good", "I": "int"}, counts)  # fmt: skip
    assert counts == {"B": 3, "G": 0, "I": 0}  # the int64 tensor through the mapping: counted too
    assert torch.equal(copies["G"], torch.ones(3))
