"""The command line's words, as an engineer met them (trial 6 T11): a Llama folder's broken
config.json was "not a BERT config"; a number overflowed beside the arrays was "meta: a number to
write is NaN or infinite" (one in the forward itself now names its layer); ``length-curve --shipped`` of a task with no shipped result was "No such file
or directory"; ``--top-k`` with greedy decoding was silently ignored; ``translate --help`` and
``train --help`` listed no options. Each is now one line that says what it is, exit 2, no file."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from safetensors.torch import load_file, save_file


def one_line(result) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def copied(folder, tmp_path, name="copy"):
    copy = tmp_path / name
    shutil.copytree(folder, copy)
    return copy


@pytest.mark.parametrize("config", [b"[]", b"\xff\xfe\x00"], ids=["a-list", "not-utf8"])
def test_a_decoder_folder_whose_config_is_not_one_says_model_config_not_bert(
    decoder_folders, tmp_path, run, config
):
    folder = copied(decoder_folders("llama"), tmp_path)
    (folder / "config.json").write_bytes(config)
    out = tmp_path / "t.json"
    said = one_line(run("trace", "--model-dir", str(folder), "--sentence", "the animal", "--out", str(out)))
    assert "is not a model config" in said and "BERT" not in said, said
    assert not out.exists()


@pytest.mark.parametrize("suffix", ["json", "npz"])
def test_a_number_of_the_trace_beside_its_arrays_that_is_not_finite_is_named_not_meta(tmp_path, suffix):
    """The arrays are checked where the trace is made; a number derived beside them (a head's
    share of the first token, the next tokens' probabilities) was refused as "meta: …"."""
    import dataclasses

    from explorer.core.config import AttentionConfig
    from explorer.core.engine import Engine
    from explorer.finite import NotFinite

    trace = Engine().trace(AttentionConfig(sentence="a b", weights="random"))
    broken = dataclasses.replace(trace, first_token_share=[float("nan")] * trace.heads)
    out = tmp_path / f"t.{suffix}"
    with pytest.raises(NotFinite) as caught:
        broken.save(out)
    said = str(caught.value)
    assert "the trace's first_token_share holds NaN or infinite values" in said and "meta" not in said
    assert not out.exists()


def test_an_overflow_in_the_forward_names_the_layer_not_meta(decoder_folders, tmp_path, run):
    folder = copied(decoder_folders("llama"), tmp_path)
    tensors = load_file(str(folder / "model.safetensors"))
    for name in tensors:
        if ".mlp." in name:
            tensors[name] = tensors[name] * 1e18  # finite weights; the forward overflows
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "pt"})
    for dtype in ("float32", "float16"):
        out = tmp_path / f"t-{dtype}.json"
        argv = ["trace", "--model-dir", str(folder), "--sentence", "the animal", "--next-tokens", "3"]
        said = one_line(run(*argv, "--dtype", dtype, "--out", str(out)))
        assert "meta" not in said and "overflowed while computing: layer" in said, said
        assert not out.exists()


def test_top_k_without_sampling_is_refused_and_a_top_k_beyond_the_vocabulary_too(
    decoder_folders, tmp_path, run
):
    folder, out = decoder_folders("llama"), tmp_path / "t.json"
    argv = ["trace", "--model-dir", str(folder), "--sentence", "the animal", "--out", str(out)]
    said = one_line(run(*argv, "--generate", "2", "--top-k", "5"))  # greedy: the default
    assert "top-k 5 is for sampled writing" in said and not out.exists()
    said = one_line(run(*argv, "--top-k", "5"))  # nothing written at all
    assert "top-k 5 is for sampled writing" in said and not out.exists()
    huge = "9" * 25
    said = one_line(run(*argv, "--generate", "2", "--decoding", "sample", "--top-k", huge))
    assert f"top-k {huge} is more than the" in said and not out.exists()
    assert run(*argv, "--generate", "2", "--decoding", "sample", "--top-k", "5").returncode == 0


def test_length_curve_shipped_for_a_task_without_one_says_which_tasks_have_one(tmp_path, run):
    out = tmp_path / "f.json"
    said = one_line(run("length-curve", "--shipped", "--task", "sentences-zh", "--out", str(out)))
    assert "no length-curve result is shipped for the task sentences-zh (shipped: compound-fr)" in said
    assert "No such file" not in said and not out.exists()
    assert run("length-curve", "--shipped", "--task", "compound-fr", "--out", str(out)).returncode == 0


@pytest.mark.parametrize(
    "command, options",
    [
        ("translate", ("--source", "--scoring", "--attention", "--checkpoint", "--window", "--out")),
        ("train", ("--steps", "--seed", "--lr", "--batch-size", "--window", "--mlp", "--out")),
    ],
)
def test_train_and_translate_help_list_their_options(command, options):
    result = subprocess.run(
        [sys.executable, "-m", "explorer", command, "--help"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    listed = result.stdout.split("options of each family", 1)[1]
    for option in options:
        assert option in listed, (option, listed)
