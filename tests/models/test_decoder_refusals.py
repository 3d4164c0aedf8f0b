"""Two wrong numbers a tester found, each now refused with one line and exit 2: finite weights
so large that a norm's mean of squares overflows (it gave zeros and exit 0), and a count of
tokens beyond the vocabulary (silently accepted)."""

from __future__ import annotations

import shutil

import pytest
import torch
from safetensors.torch import load_file, save_file

from explorer.cli import main
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.decoding import GenerationSpec
from explorer.core.engine import Engine
from explorer.finite import NotFinite
from explorer.models.loader import load_model
from tests.models import tiny_decoders as td


def huge(folder, tmp_path, family):
    """The tiny folder with every weight × 1e37 (or × 1e35 when that is beyond float32): finite."""
    copy = tmp_path / family
    shutil.copytree(folder, copy)
    tensors = load_file(str(copy / "model.safetensors"))
    scaled = {name: (t.double() * 1e37).clamp(-3e38, 3e38).to(t.dtype) for name, t in tensors.items()}
    assert all(torch.isfinite(t).all() for t in scaled.values())
    save_file(scaled, str(copy / "model.safetensors"), metadata={"format": "pt"})
    return copy


@pytest.mark.parametrize("family", ["llama", "gpt2"])
def test_a_norm_whose_mean_of_squares_overflows_is_refused(decoder_folders, tmp_path, capsys, family):
    folder, out = huge(decoder_folders(family), tmp_path, family), tmp_path / "t.json"
    capsys.readouterr()  # the fixture's build said its progress
    with pytest.raises(SystemExit) as info:
        main(
            [
                "trace",
                "--model-dir",
                str(folder),
                "--sentence",
                td.ENGLISH,
                "--next-tokens",
                "3",
                "--out",
                str(out),
            ]
        )
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1 and not out.exists()
    assert "overflowed while computing: layer 0's first norm (mean of squares)" in err
    from explorer.core.decoder_pass import run_decoder

    with pytest.raises(NotFinite, match="first norm"):  # the forward itself, not only the command
        run_decoder(load_model(folder), torch.tensor([1, 2, 3]))


@pytest.mark.parametrize(
    "extra,option",
    [
        (["--decoding", "sample", "--generate", "2", "--top-k", "{beyond}"], "top-k"),
        (["--next-tokens", "{beyond}"], "next tokens"),
    ],
)
def test_more_tokens_than_the_vocabulary_are_refused(
    decoder_folders, tmp_path, capsys, monkeypatch, extra, option
):
    folder, out = decoder_folders("llama"), tmp_path / "t.json"
    vocabulary = load_model(folder).config.vocab_size
    if option == "next tokens":  # beyond the vocabulary and within --next-tokens' own limit of 100
        monkeypatch.setattr("explorer.core.decoding.MAX_NEXT_TOKENS", vocabulary + 5)
    args = ["trace", "--model-dir", str(folder), "--sentence", "the animal", "--out", str(out)]
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main([*args, *(e.format(beyond=vocabulary + 1) for e in extra)])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1 and not out.exists()
    assert f"{option} {vocabulary + 1} is more than the {vocabulary} tokens" in err
    assert main([*args, *(e.format(beyond=vocabulary) for e in extra)]) == 0  # every token: still allowed


def test_the_engine_refuses_them_too(decoder_folders):
    engine, folder = Engine(), decoder_folders("gpt2")
    config = AttentionConfig(sentence="the animal", model_dir=str(folder))
    vocabulary = load_model(folder).config.vocab_size
    with pytest.raises(ConfigError, match="more than the"):
        engine.generate(config, GenerationSpec(2, "sample", top_k=vocabulary + 1))
