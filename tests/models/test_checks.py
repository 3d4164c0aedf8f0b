"""A loader that never lies: one good tiny folder, one thing broken per case, one line back.

Each case is checked twice: ``load_model`` raises ModelError naming the file at fault,
and ``python -m explorer trace --model-dir`` exits 2 with that one line and no traceback.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

from explorer.cli import main
from explorer.models.loader import ModelError, load_model
from tests.models import tiny

WEIGHTS = "model.safetensors"
Q0 = "encoder.layer.0.attention.self.query.weight"


def edit_tensors(folder: Path, change) -> None:
    tensors = load_file(str(folder / WEIGHTS))
    change(tensors)
    save_file(tensors, str(folder / WEIGHTS))


def set_value(name: str, value: float):
    def change(tensors):
        tensors[name] = tensors[name].clone()
        tensors[name].view(-1)[5] = value

    return lambda folder: edit_tensors(folder, change)


def reshape(name: str, shape):
    return lambda folder: edit_tensors(folder, lambda t: t.__setitem__(name, torch.zeros(shape)))


def drop(name: str):
    return lambda folder: edit_tensors(folder, lambda t: t.pop(name))


def config(**changes):
    return lambda folder: tiny.edit_config(folder, **changes)


def write(name: str, data: bytes):
    return lambda folder: (folder / name).write_bytes(data)


def remove(name: str):
    return lambda folder: (folder / name).unlink()


def truncate(name: str, keep: int):
    return lambda folder: (folder / name).write_bytes((folder / name).read_bytes()[:keep])


def fewer_rows(folder: Path) -> None:
    """Embeddings and config agree on 20 rows, but the tokenizer knows more tokens."""
    tiny.edit_config(folder, vocab_size=20)
    edit_tensors(
        folder,
        lambda t: t.__setitem__(
            "embeddings.word_embeddings.weight", t["embeddings.word_embeddings.weight"][:20].clone()
        ),
    )


def dangling_weights(folder: Path) -> None:
    (folder / WEIGHTS).unlink()
    (folder / WEIGHTS).symlink_to(folder / "blobs" / "never-downloaded")


def int8_weights(folder: Path) -> None:
    edit_tensors(folder, lambda t: t.__setitem__(Q0, t[Q0].to(torch.int8)))


def extra_layer(folder: Path) -> None:
    def change(tensors):
        for name in list(tensors):
            if name.startswith("encoder.layer.2."):
                tensors[name.replace("layer.2.", "layer.3.")] = tensors[name].clone()

    edit_tensors(folder, change)


# (case, how to break the folder, the file the message must name, words it must hold)
CASES = [
    ("config missing", remove("config.json"), "bert", ["lacks config.json"]),
    ("config not JSON", write("config.json", b'{"hidden_size": 3'), "config.json", ["invalid JSON"]),
    ("config binary", write("config.json", b"\xff\xfe\x00garbage"), "config.json", ["not UTF-8"]),
    ("config a list", write("config.json", b"[1, 2]"), "config.json", ["no JSON object"]),
    ("config lacks a size", config(vocab_size=tiny.DELETE), "config.json", ["lacks 'vocab_size'"]),
    ("width zero", config(hidden_size=0), "config.json", ["hidden_size is 0", "whole number above 0"]),
    ("heads negative", config(num_attention_heads=-4), "config.json", ["num_attention_heads is -4"]),
    ("layers fractional", config(num_hidden_layers=2.5), "config.json", ["num_hidden_layers is 2.5"]),
    ("width a string", config(hidden_size="32"), "config.json", ["hidden_size is '32'"]),
    ("width a boolean", config(intermediate_size=True), "config.json", ["intermediate_size is True"]),
    ("heads do not divide", config(num_attention_heads=5), "config.json", ["not divisible by 5 heads"]),
    (
        "unknown model_type",
        config(model_type="t5"),
        "config.json",
        ["'t5'", "supported: bert, roberta, xlm-roberta, distilbert, gpt2, llama, mistral, qwen2"],
    ),
    (
        "no model_type",
        config(model_type=tiny.DELETE, architectures=tiny.DELETE),
        "config.json",
        ["no model_type"],
    ),
    ("unknown activation", config(hidden_act="mish"), "config.json", ["'mish' is not supported", "gelu"]),
    ("epsilon a string", config(layer_norm_eps="small"), "config.json", ["layer_norm_eps"]),
    ("relative positions", config(position_embedding_type="relative_key"), "config.json", ["relative_key"]),
    (
        "width vs weights",
        config(hidden_size=64),
        WEIGHTS,
        ["embeddings.word_embeddings.weight is [", "hidden_size"],
    ),
    (
        "FFN vs weights",
        config(intermediate_size=128),
        WEIGHTS,
        ["intermediate.dense.weight", "intermediate_size"],
    ),
    (
        "positions vs weights",
        config(max_position_embeddings=80),
        WEIGHTS,
        ["position_embeddings", "max_position"],
    ),
    ("vocab vs weights", config(vocab_size=500), WEIGHTS, ["word_embeddings", "vocab_size"]),
    (
        "token types vs weights",
        config(type_vocab_size=3),
        WEIGHTS,
        ["token_type_embeddings", "type_vocab_size"],
    ),
    (
        "fewer layers in config",
        config(num_hidden_layers=2),
        WEIGHTS,
        ["holds 3 layers", "num_hidden_layers=2"],
    ),
    ("more layers in config", config(num_hidden_layers=4), WEIGHTS, ["lacks the tensor encoder.layer.3."]),
    ("extra layer in weights", extra_layer, WEIGHTS, ["holds 4 layers", "num_hidden_layers=3"]),
    ("query reshaped", reshape(Q0, (32, 16)), WEIGHTS, [f"{Q0} is [32, 16]", "[32, 32]"]),
    (
        "output projection reshaped",
        reshape("encoder.layer.2.attention.output.dense.weight", (16, 32)),
        WEIGHTS,
        ["output.dense.weight"],
    ),
    (
        "value bias reshaped",
        reshape("encoder.layer.1.attention.self.value.bias", (31,)),
        WEIGHTS,
        ["value.bias is [31]"],
    ),
    (
        "FFN out reshaped",
        reshape("encoder.layer.1.output.dense.weight", (32, 32)),
        WEIGHTS,
        ["output.dense.weight is [32, 32]", "[32, 64]"],
    ),
    (
        "LayerNorm reshaped",
        reshape("encoder.layer.0.output.LayerNorm.weight", (33,)),
        WEIGHTS,
        ["LayerNorm.weight is [33]"],
    ),
    (
        "embedding norm missing",
        drop("embeddings.LayerNorm.bias"),
        WEIGHTS,
        ["lacks the tensor embeddings.LayerNorm.bias"],
    ),
    (
        "key missing",
        drop("encoder.layer.1.attention.self.key.weight"),
        WEIGHTS,
        ["lacks the tensor encoder.layer.1.attention.self.key.weight"],
    ),
    ("NaN in a projection", set_value(Q0, math.nan), WEIGHTS, [Q0, "NaN or infinite"]),
    (
        "inf in the embeddings",
        set_value("embeddings.word_embeddings.weight", math.inf),
        WEIGHTS,
        ["word_embeddings", "NaN or infinite"],
    ),
    (
        "-inf in a LayerNorm",
        set_value("encoder.layer.2.output.LayerNorm.weight", -math.inf),
        WEIGHTS,
        ["LayerNorm", "infinite"],
    ),
    ("quantised weights", int8_weights, WEIGHTS, ["int8", "unquantised"]),
    (
        "weights missing",
        remove(WEIGHTS),
        "bert",
        ["has no weights", "model.safetensors or pytorch_model.bin"],
    ),
    ("weights truncated", truncate(WEIGHTS, 5000), WEIGHTS, ["unreadable or corrupt", "download it again"]),
    ("weights header only", truncate(WEIGHTS, 8), WEIGHTS, ["unreadable or corrupt"]),
    ("weights cut at the end", truncate(WEIGHTS, -1000), WEIGHTS, ["unreadable or corrupt"]),
    ("weights garbage", write(WEIGHTS, b"\x00not safetensors" * 40), WEIGHTS, ["unreadable or corrupt"]),
    ("weights a dangling link", dangling_weights, WEIGHTS, ["missing", "download the model again"]),
    (
        "tokenizer missing",
        remove("tokenizer.json"),
        "bert",
        ["has no tokenizer (tokenizer.json or vocab.txt)"],
    ),
    ("tokenizer garbage", write("tokenizer.json", b"{not json"), "tokenizer.json", ["unreadable"]),
    ("tokenizer empty", write("tokenizer.json", b""), "tokenizer.json", ["unreadable"]),
    ("tokenizer larger than the vocabulary", fewer_rows, "tokenizer.json", ["embeds only 20"]),
]


@pytest.fixture(scope="module")
def good(folders):
    return folders("bert")


@pytest.fixture
def broken(good, tmp_path, request):
    _name, damage, _file, _words = request.param
    folder = tiny.copy_folder(good, tmp_path / "bert")
    damage(folder)
    return folder


def test_the_good_folder_loads_and_traces(good, tmp_path, capsys):
    assert load_model(good).config.num_hidden_layers == tiny.LAYERS
    assert main(["trace", "--model-dir", str(good), "--out", str(tmp_path / "t.json")]) == 0


@pytest.mark.parametrize(
    "broken,file,words", [(c, c[2], c[3]) for c in CASES], ids=[c[0] for c in CASES], indirect=["broken"]
)
def test_each_problem_is_one_line_naming_the_file(broken, file, words, tmp_path, capsys):
    with pytest.raises(ModelError) as info:
        load_model(broken)
    message = str(info.value)
    assert "\n" not in message
    named = broken if file == "bert" else broken / file
    assert str(named) in message, message
    assert ";" in message, f"no fix offered: {message}"
    for word in words:
        assert word in message, message
    # The command: status 2, the same line, nothing else on stderr.
    with pytest.raises(SystemExit) as exit_info:
        main(["trace", "--model-dir", str(broken), "--out", str(tmp_path / "t.json")])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err == f"error: {message}\n"
    assert not (tmp_path / "t.json").exists()


def test_finite_values_adding_up_past_float32_are_not_called_infinite():
    from explorer.models.checks import non_finite

    huge = torch.full((4,), 3e38)
    assert non_finite(huge) == 0
    huge[2] = math.nan
    assert non_finite(huge) == 1
    assert non_finite(torch.tensor([math.inf, -math.inf, 1.0], dtype=torch.bfloat16)) == 2


def test_distilbert_messages_use_its_own_names(folders, tmp_path):
    folder = tiny.copy_folder(folders("distilbert"), tmp_path / "distil")
    tiny.edit_config(folder, dim=64)
    with pytest.raises(ModelError, match=r"dim") as info:
        load_model(folder)
    assert "embeddings.word_embeddings.weight" in str(info.value)
    folder = tiny.copy_folder(folders("distilbert"), tmp_path / "distil2")
    edit_tensors(folder, lambda t: t.pop("transformer.layer.1.attention.q_lin.weight"))
    with pytest.raises(ModelError, match=r"lacks the tensor transformer\.layer\.1\.attention\.q_lin\.weight"):
        load_model(folder)
    folder = tiny.copy_folder(folders("distilbert"), tmp_path / "distil3")
    tiny.edit_config(folder, n_heads=5)
    with pytest.raises(ModelError, match=r"dim=32 is not divisible by 5 heads \(n_heads\)"):
        load_model(folder)


def test_prefixed_messages_name_the_tensor_as_stored(folders, tmp_path):
    folder = tiny.copy_folder(folders("roberta", head=True), tmp_path / "rob")
    edit_tensors(
        folder, lambda t: t.__setitem__("roberta.encoder.layer.0.attention.self.key.bias", torch.zeros(8))
    )
    with pytest.raises(ModelError, match=r"roberta\.encoder\.layer\.0\.attention\.self\.key\.bias is \[8\]"):
        load_model(folder)


def test_no_traceback_reaches_a_real_process(good, tmp_path):
    """The real process, once: a NaN folder exits 2 with one line."""
    folder = tiny.copy_folder(good, tmp_path / "nan")
    set_value(Q0, math.nan)(folder)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "explorer",
            "trace",
            "--model-dir",
            str(folder),
            "--out",
            str(tmp_path / "t.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "NaN" in result.stderr and "Traceback" not in result.stderr


def test_a_fixed_folder_loads_after_forget(good, tmp_path):
    """The engine caches a failure; forget_model lets the user's fix take effect."""
    from explorer.core.config import AttentionConfig
    from explorer.core.engine import Engine

    folder = tiny.copy_folder(good, tmp_path / "fix")
    tiny.edit_config(folder, hidden_act="mish")
    engine = Engine()
    with pytest.raises(ModelError):
        engine.trace(AttentionConfig(sentence="the animal", model_dir=str(folder)))
    tiny.edit_config(folder, hidden_act="gelu")
    engine.forget_model(folder)
    assert (
        engine.trace(AttentionConfig(sentence="the animal", model_dir=str(folder))).weights_source
        == "pretrained"
    )
