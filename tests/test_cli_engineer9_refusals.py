"""Refusals an engineer trial found as tracebacks (exit 1): each must be exit 2, one line, no file."""

from __future__ import annotations

import builtins
import errno
import json
import shutil
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

from explorer.resources import resource_path
from tests.commands import refused
from tests.models import tiny


def huge_checkpoint(tmp_path: Path, name: str, factor: float = 1e30) -> Path:
    """A shipped sequence checkpoint with every matrix ×``factor``: finite weights whose forward pass overflows."""
    folder = tmp_path / name
    shutil.copytree(resource_path("seq2seq", name), folder)
    weights = load_file(str(folder / "model.safetensors"))
    for key, tensor in weights.items():
        if tensor.dtype == torch.float32 and tensor.dim() >= 2:
            weights[key] = tensor * factor
    assert all(torch.isfinite(w).all() for w in weights.values() if w.is_floating_point())
    save_file(weights, str(folder / "model.safetensors"))
    return folder


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("copy-twice-local-p", "a b c"),
        ("copy-twice-global", "a b c"),
        ("compound-fr-attention", "Jane visits Africa"),
    ],
)
def test_a_sequence_checkpoint_whose_numbers_overflow_exits_2_in_one_line(run, tmp_path, name, source):
    folder = huge_checkpoint(tmp_path, name)
    out = tmp_path / "o.json"
    line = refused(run("translate", "--source", source, "--checkpoint", str(folder), "--out", str(out)))
    assert "overflowed" in line and not out.exists() and not list(tmp_path.glob("o.json*"))


def deny_reading(monkeypatch, denied: Path) -> None:
    """Opening ``denied`` fails as for a file of mode 000 (root, who runs the tests, reads every file)."""
    real = builtins.open

    def guarded(file, *args, **kwargs):
        if isinstance(file, (str, Path)) and Path(file) == denied:
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)


@pytest.mark.parametrize("name", ["model.safetensors", "tokenizer.json"])
def test_an_unreadable_model_file_says_permission_denied(run, tmp_path, monkeypatch, name):
    folder = tiny.build(tmp_path / "m")
    deny_reading(monkeypatch, folder / name)
    out = tmp_path / "t.json"
    line = refused(run("trace", "--model-dir", str(folder), "--sentence", "the animal", "--out", str(out)))
    assert name in line and "cannot be read (permission denied)" in line, line
    assert "Errno" not in line and "No such file" not in line and not out.exists()


DEEP = "[" * 100_000 + "]" * 100_000  # json's parser raises RecursionError
LONG_INT = '{"kind": ' + "9" * 5000 + "}"  # json's int() raises ValueError (more than 4,300 digits)


@pytest.mark.parametrize("text", [DEEP, LONG_INT], ids=["deep", "long-int"])
def test_json_that_python_cannot_parse_is_refused_as_invalid_json(run, tmp_path, text):
    model = tiny.build(tmp_path / "m")
    (model / "config.json").write_text(text, encoding="utf-8")
    translator = tmp_path / "ck"
    shutil.copytree(resource_path("seq2seq", "bahdanau-additive"), translator)
    (translator / "config.json").write_text(text, encoding="utf-8")
    vision = tmp_path / "cbam"
    shutil.copy(resource_path("vision", "cbam.safetensors"), vision.with_suffix(".safetensors"))
    vision.with_suffix(".json").write_text(text, encoding="utf-8")
    out = tmp_path / "o.json"
    commands = [
        ("trace", "--model-dir", str(model), "--sentence", "the animal", "--out", str(out)),
        ("translate", "--source", "9 May 2018", "--checkpoint", str(translator), "--out", str(out)),
        ("vision", "--generate", "3", "--checkpoint", str(vision), "--out", str(out)),
    ]
    for command in commands:
        line = refused(run(*command))
        assert "nested too deeply" in line or "4,300 digits" in line, line
        assert not out.exists()


def test_the_api_refuses_such_a_config_as_an_explorer_error(tmp_path):
    import explorer

    model = tiny.build(tmp_path / "m")
    (model / "config.json").write_text(DEEP, encoding="utf-8")
    with pytest.raises(explorer.ExplorerError, match="nested too deeply"):
        explorer.trace("the animal", model_dir=str(model))


def length_result_with(tmp_path: Path, change) -> Path:
    """The shipped length-curve result with ``change(data)`` applied, written as Python's json writes it."""
    data = json.loads(resource_path("seq2seq", "length-curve-compound-fr.json").read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # a NaN as a bare NaN
    return path


@pytest.mark.parametrize("suffix", [".json", ".png"])
def test_length_curve_refuses_a_result_with_nan_in_its_metadata(run, tmp_path, suffix):
    def nan_metadata(data):
        data["options"]["lr"] = float("nan")
        data["cpu_seconds"]["attention"] = float("nan")

    source = length_result_with(tmp_path, nan_metadata)
    out = tmp_path / f"o{suffix}"
    refused(run("length-curve", "--from", str(source), "--out", str(out)), "NaN")
    assert not out.exists()


def test_length_curve_says_what_is_wrong_with_a_curve_without_pythons_repr(run, tmp_path):
    def share_above_one(data):
        data["evaluations"][-1]["curves"]["attention"]["word_accuracy"][0] = 1.5

    source = length_result_with(tmp_path, share_above_one)
    out = tmp_path / "o.json"
    line = refused(run("length-curve", "--from", str(source), "--out", str(out)), "a share outside 0 … 1")
    assert "ValueError" not in line and "('" not in line and not out.exists()


def test_a_length_result_holding_a_nan_is_never_written(tmp_path):
    from explorer.finite import NotFinite
    from explorer.seq2seq.length_result import load_length_result

    result = load_length_result(resource_path("seq2seq", "length-curve-compound-fr.json"))
    result.cpu_seconds["attention"] = float("nan")
    with pytest.raises(NotFinite):
        result.save(tmp_path / "r.json")
    assert not list(tmp_path.iterdir())


def loop_of_links(path: Path) -> None:
    """``path`` → ``x1`` → ``path``: a loop, not a missing file."""
    path.unlink()
    (path.parent / "x1").symlink_to(path.name)
    path.symlink_to("x1")


def folder_of_the_name(path: Path) -> None:
    path.unlink()
    path.mkdir()


@pytest.mark.parametrize("name", ["config.json", "model.safetensors"])
@pytest.mark.parametrize(
    ("damage", "reason"),
    [(loop_of_links, "loops through symbolic links"), (folder_of_the_name, "it is a folder, not a file")],
)
def test_a_model_file_that_is_a_loop_or_a_folder_is_named_as_such(run, tmp_path, name, damage, reason):
    folder = tiny.build(tmp_path / "m")
    damage(folder / name)
    out = tmp_path / "t.json"
    line = refused(run("trace", "--model-dir", str(folder), "--sentence", "the animal", "--out", str(out)))
    assert str(folder / name) in line and reason in line, line
    assert "missing" not in line and "lacks" not in line and "has no weights" not in line and not out.exists()
