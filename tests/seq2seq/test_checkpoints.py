"""Shipped checkpoints: safetensors + JSON, small, and as accurate as their config.json says."""

import json

import numpy as np
import pytest
import torch

from explorer.seq2seq.checkpoints import (
    CheckpointError,
    load_checkpoint,
    read_config,
    save_checkpoint,
    shipped_folder,
)
from explorer.seq2seq.dates import FORMATS, held_out_set
from explorer.seq2seq.evaluate import predict
from explorer.seq2seq.spec import default_spec
from explorer.seq2seq.translate import load_model
from explorer.seq2seq.vocab import Vocabulary

from .conftest import ALL_PAIRS

RECORDED = {("bahdanau", "additive"), ("luong", "general"), ("transformer", "scaled-dot")}
SAMPLE = held_out_set(30, seed=11)  # 240 held-out dates, 30 of each format


@pytest.mark.parametrize("model,scoring", ALL_PAIRS)
def test_shipped_checkpoint_keeps_its_accuracy(model, scoring):
    folder = shipped_folder(model, scoring)
    # and the shipped run's training history where the lab draws it (explorer.lab.history)
    recorded = ["model.history.json"] if (model, scoring) in RECORDED else []
    assert sorted(p.name for p in folder.iterdir()) == sorted(["config.json", "model.safetensors", *recorded])
    assert (folder / "model.safetensors").stat().st_size <= 5 * 1024 * 1024
    record = read_config(folder)["training"]
    assert record["command"].startswith(f"python -m explorer train --model {model} --scoring {scoring} ")
    assert record["held_out_per_format"] == 2000
    for fmt in FORMATS:  # what the README and docs/benchmarks.md report
        assert record["by_format"][fmt]["exact_match"] >= 0.99, (fmt, record["by_format"][fmt])
    module, spec, _ = load_model(model, scoring)
    predictions = predict(module, SAMPLE, Vocabulary(spec.source_chars))
    assert predictions.exact_match >= 0.99, [
        (e.source, o) for e, o in zip(predictions.examples, predictions.outputs) if o != e.target
    ]


def test_save_and_load_round_trip(tmp_path):
    spec = default_spec("luong", "dot").with_(hidden=8, embed=4, attention_dim=4)
    from explorer.seq2seq.build import build_model

    model = build_model(spec)
    save_checkpoint(tmp_path / "ck", model, spec, {"note": "test"})
    loaded, loaded_spec, training = load_checkpoint(tmp_path / "ck")
    assert loaded_spec == spec and training == {"note": "test"}
    for name, tensor in model.state_dict().items():
        assert torch.equal(tensor, loaded.state_dict()[name])
    examples = held_out_set(2)
    assert (
        predict(model, examples, Vocabulary(spec.source_chars)).outputs
        == predict(loaded, examples, Vocabulary(spec.source_chars)).outputs
    )


def test_unusable_checkpoints_say_why(tmp_path):
    with pytest.raises(CheckpointError, match="nothing: it does not exist"):  # no folder at all
        load_checkpoint(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CheckpointError, match="config.json is missing"):
        load_checkpoint(tmp_path / "empty")
    spec = default_spec("bahdanau").with_(hidden=8, embed=4, attention_dim=4)
    from explorer.seq2seq.build import build_model

    save_checkpoint(tmp_path / "ck", build_model(spec), spec, {})
    (tmp_path / "ck" / "model.safetensors").write_bytes(b"\x00" * 64)
    with pytest.raises(CheckpointError, match="cannot be read"):
        load_checkpoint(tmp_path / "ck")
    save_checkpoint(tmp_path / "ck", build_model(spec.with_(hidden=6)), spec, {})  # wrong shapes
    with pytest.raises(CheckpointError, match=r"does not fit.*size mismatch for \w"):  # the tensor named
        load_checkpoint(tmp_path / "ck")
    config = tmp_path / "ck" / "config.json"
    config.write_text("{not json", encoding="utf-8")
    with pytest.raises(CheckpointError, match="JSON"):
        load_checkpoint(tmp_path / "ck")
    config.write_text(json.dumps({"kind": "something else"}), encoding="utf-8")
    with pytest.raises(CheckpointError, match="not a translation-lab checkpoint"):
        load_checkpoint(tmp_path / "ck")
    data = {"kind": "attention-explorer translation checkpoint", "spec": {"model": "gru9"}}
    config.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CheckpointError, match="gru9"):
        load_checkpoint(tmp_path / "ck")


def test_loading_leaves_the_global_generator_alone():
    torch.manual_seed(1)
    expected = torch.rand(3)
    torch.manual_seed(1)
    load_checkpoint(shipped_folder("bahdanau", "additive"))
    np.testing.assert_array_equal(torch.rand(3).numpy(), expected.numpy())


@pytest.mark.parametrize(
    "model,scoring", [("bahdanau", "additive"), ("luong", "dot"), ("transformer", "scaled-dot")]
)
def test_a_padded_batch_decodes_like_one_text_at_a_time(model, scoring):
    """Training and evaluation pad texts to one length (packed GRU, key-padding mask); a single
    text is never padded. Both must give the same answers and the same weights."""
    from explorer.seq2seq.translate import translate

    module, spec, _ = load_model(model, scoring)
    examples = held_out_set(2, seed=4)  # 16 texts of 6 to 27 characters
    batched = predict(module, examples, Vocabulary(spec.source_chars))
    for example, output, alignment in zip(examples, batched.outputs, batched.alignments):
        single = translate(example.source, model, scoring)
        assert single.output == output
        np.testing.assert_allclose(single.alignment, alignment, atol=1e-5)


@pytest.mark.parametrize(
    "change,said",
    [
        ({"hidden": 10**12}, "hidden is 1000000000000, more than this lab's models use"),  # not allocated
        ({"source_chars": ["ab"]}, "entry 0 is 'ab'"),  # read as <unk> with exit 0 before
        ({"source_chars": ["0", "0"]}, "entry 1 is '0'"),
    ],
)
def test_a_damaged_config_is_refused_in_one_line(tmp_path, change, said):
    from explorer.seq2seq.build import build_model

    spec = default_spec("bahdanau").with_(hidden=8, embed=4, attention_dim=4)
    save_checkpoint(tmp_path / "ck", build_model(spec), spec, {})
    config = tmp_path / "ck" / "config.json"
    data = json.loads(config.read_text(encoding="utf-8"))
    data["spec"].update(change)
    config.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CheckpointError, match=said) as caught:
        load_checkpoint(tmp_path / "ck")
    assert "\n" not in str(caught.value)
