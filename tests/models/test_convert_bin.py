"""pytorch_model.bin: asked about first, converted once through weights_only, never anything else run."""

from __future__ import annotations

import os
import pickle

import pytest
import torch
from safetensors.torch import load_file

from explorer.cli import main
from explorer.models.convert_bin import BIN_NAME, convert, read_bin
from explorer.models.errors import ModelError, NeedsConversion
from explorer.models.loader import load_model
from tests.commands import refused
from tests.models import tiny


@pytest.fixture(scope="module")
def bin_source(folders):
    folder = folders("bert", safetensors=False)
    assert (folder / BIN_NAME).is_file() and not (folder / "model.safetensors").exists()
    return folder


@pytest.fixture
def bin_folder(bin_source, tmp_path):
    return tiny.copy_folder(bin_source, tmp_path / "bin-model")


def files_under(folder) -> list:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_the_loader_asks_before_converting(bin_folder, data_dir):
    with pytest.raises(NeedsConversion) as info:
        load_model(bin_folder)
    exc = info.value
    assert isinstance(exc, ModelError)
    assert exc.folder == bin_folder and exc.source == bin_folder / BIN_NAME
    assert exc.size == (bin_folder / BIN_NAME).stat().st_size
    assert data_dir in exc.target.parents and exc.target.name == "model.safetensors"
    assert str(exc.source) in str(exc) and str(exc.target) in str(exc)
    assert files_under(data_dir) == []  # nothing happens before the user agrees


def test_converted_once_then_equal_to_transformers(bin_folder, data_dir):
    target = convert(bin_folder / BIN_NAME)
    assert data_dir in target.parents
    original = torch.load(bin_folder / BIN_NAME, weights_only=True)
    copied = load_file(str(target))
    assert copied.keys() == original.keys()
    assert all(torch.equal(copied[k], original[k]) for k in original)
    model = load_model(bin_folder)
    assert model.notes == [f"converted from {BIN_NAME}"]
    assert model.description.endswith(f"; converted from {BIN_NAME}")
    ids = model.tokenizer.encode(tiny.SENTENCE, 512).ids
    assert max(tiny.largest_differences(model, tiny.reference(bin_folder), ids)) < 1e-5
    # A changed .bin is a new conversion, not a stale copy.
    os.utime(bin_folder / BIN_NAME, ns=(1, 1))
    with pytest.raises(NeedsConversion):
        load_model(bin_folder)


def test_the_command_asks_then_converts_with_the_flag(bin_folder, data_dir, tmp_path, capsys):
    out = str(tmp_path / "t.json")
    with pytest.raises(SystemExit) as info:
        main(["trace", "--model-dir", str(bin_folder), "--out", out])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "re-run with --convert-weights" in err
    assert files_under(data_dir) == [] and not os.path.exists(out)

    assert main(["trace", "--model-dir", str(bin_folder), "--out", out, "--convert-weights"]) == 0
    stdout = capsys.readouterr().out
    assert "note: converted" in stdout and os.path.exists(out)
    # Once converted, it loads without asking again.
    assert main(["trace", "--model-dir", str(bin_folder), "--out", out]) == 0
    assert "converted" not in capsys.readouterr().out


class RunsACommand:
    """What a malicious checkpoint holds: unpickling it would call os.system."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def write_malicious(path, marker, kind: str) -> None:
    payload = {"embeddings.word_embeddings.weight": torch.zeros(2, 2), "hook": RunsACommand(marker)}
    if kind == "torch.save":
        torch.save(payload, path)
    else:  # a bare pickle, as old checkpoints and hand-made attacks are
        path.write_bytes(pickle.dumps(payload, protocol=2 if kind == "pickle-2" else 4))


@pytest.mark.parametrize("kind", ["torch.save", "pickle-2", "pickle-4"])
def test_a_pickle_that_runs_code_is_refused_and_nothing_runs(bin_folder, data_dir, tmp_path, capsys, kind):
    marker = tmp_path / "it-ran"
    write_malicious(bin_folder / BIN_NAME, marker, kind)
    with pytest.raises(ModelError, match="was refused: it holds") as info:
        convert(bin_folder / BIN_NAME)
    assert "nothing in it was run" in str(info.value)
    assert not marker.exists()
    with pytest.raises(SystemExit) as exit_info:
        main(
            ["trace", "--model-dir", str(bin_folder), "--out", str(tmp_path / "t.json"), "--convert-weights"]
        )
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "was refused" in err and "Traceback" not in err
    assert not marker.exists()
    assert [p for p in files_under(data_dir) if p.suffix == ".safetensors"] == []


def test_the_refusal_names_what_it_found(tmp_path):
    path = tmp_path / BIN_NAME
    write_malicious(path, tmp_path / "x", "torch.save")
    with pytest.raises(ModelError, match=r"a reference to posix\.system|a reference to nt\.system"):
        read_bin(path)


def test_non_tensor_entries_corrupt_files_and_shared_tensors(tmp_path):
    path = tmp_path / BIN_NAME
    torch.save({"weight": torch.ones(3), "step": 3}, path)
    with pytest.raises(ModelError, match="entry 'step' is not a tensor"):
        read_bin(path)
    torch.save([torch.ones(3)], path)
    with pytest.raises(ModelError, match="no table of named tensors"):
        read_bin(path)
    torch.save({"weight": torch.ones(3)}, path)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ModelError, match="truncated or corrupt") as info:
        read_bin(path)
    assert "central directory); download it again" in str(info.value)  # torch's first sentence, whole
    # Tied weights share memory; safetensors wants each on its own, and gets it.
    tied = torch.randn(4, 3)
    torch.save({"a": tied, "b": tied, "c": tied[1:]}, path)
    target = convert(path)
    copied = load_file(str(target))
    assert (
        torch.equal(copied["a"], tied)
        and torch.equal(copied["b"], tied)
        and torch.equal(copied["c"], tied[1:])
    )


def test_an_unwritable_data_folder_leaves_nothing_behind(bin_folder, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("EXPLORER_DATA_DIR", str(blocker / "data"))
    with pytest.raises(ModelError, match="cannot write .*EXPLORER_DATA_DIR"):
        convert(bin_folder / BIN_NAME)
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_a_bin_with_a_nan_is_refused_naming_it_and_nothing_is_converted(bin_folder, data_dir, run):
    weights = torch.load(bin_folder / BIN_NAME, weights_only=True)
    name = sorted(k for k, v in weights.items() if v.is_floating_point() and v.dim() == 2)[0]
    weights[name].view(-1)[3] = float("nan")
    torch.save(weights, bin_folder / BIN_NAME)
    out = bin_folder.parent / "o.json"
    command = (
        "trace",
        "--model-dir",
        str(bin_folder),
        "--sentence",
        "the animal",
        "--convert-weights",
        "--out",
        str(out),
    )
    refused(run(*command), str(bin_folder / BIN_NAME), name, "NaN")
    assert files_under(data_dir) == [] and not out.exists()
