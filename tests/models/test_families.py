"""Every family the loader reads, against transformers' own model (eager attention) on every layer."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
import torch
from safetensors import safe_open

from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.models.loader import ModelError, load_model
from tests.models import tiny

FAMILIES = ["bert", "roberta", "xlm-roberta", "distilbert"]
TOLERANCE = 1e-5
PREFIXES = {"bert": "bert.", "roberta": "roberta.", "xlm-roberta": "roberta.", "distilbert": "distilbert."}


def stored_names(folder) -> list[str]:
    with safe_open(str(folder / "model.safetensors"), framework="pt") as f:
        return list(f.keys())


@pytest.mark.parametrize("head", [False, True], ids=["bare names", "prefixed names"])
@pytest.mark.parametrize("family", FAMILIES)
def test_every_layer_equals_transformers(folders, family, head):
    folder = folders(family, head=head)
    prefixed = [n for n in stored_names(folder) if n.startswith(PREFIXES[family])]
    assert bool(prefixed) == head, "the folder must really be spelled the way the test says"
    model = load_model(folder)
    ids = model.tokenizer.encode(tiny.SENTENCE, 512).ids
    attention, hidden = tiny.largest_differences(model, tiny.reference(folder), ids)
    assert attention < TOLERANCE and hidden < TOLERANCE


@pytest.mark.parametrize("family", ["distilbert", "roberta"])
def test_a_moved_encoder_computes_the_same(folders, family):
    """What the engine does for another device, done on the CPU (no token types, offsets)."""
    model = load_model(folders(family))
    moved = model.encoder.to(torch.device("cpu"))
    assert (moved.token_type is None) == (family == "distilbert")
    ids = torch.tensor(model.tokenizer.encode(tiny.SENTENCE, 512).ids)
    for a, b in zip(model.encoder.hidden_states(ids), moved.hidden_states(ids)):
        assert torch.equal(a, b)


def test_distilbert_with_sinusoidal_positions(folders):
    folder = folders("distilbert", sinusoidal_pos_embds=True)
    model = load_model(folder)
    # The table really is the fixed one: position p, pair j holds sin/cos(p / 10000^(2j/dim)).
    p, j = 5, 3
    angle = p / 10000 ** (2 * j / tiny.WIDTH)
    expected = torch.tensor([math.sin(angle), math.cos(angle)])
    torch.testing.assert_close(model.encoder.position[p, 2 * j : 2 * j + 2], expected, atol=1e-6, rtol=0)
    ids = model.tokenizer.encode(tiny.SENTENCE, 512).ids
    assert max(tiny.largest_differences(model, tiny.reference(folder), ids)) < TOLERANCE


@pytest.mark.parametrize("family", ["roberta", "xlm-roberta"])
def test_roberta_positions_start_after_the_padding_index(folders, family):
    folder = folders(family)
    model, ref = load_model(folder), tiny.reference(folder)
    assert model.config.position_offset == 2 and model.max_tokens == tiny.POSITIONS
    # The longest input the table allows, and one with a padding id inside it.
    longest = model.tokenizer.encode(" ".join(tiny.CORPUS), model.max_tokens).ids
    assert len(longest) == tiny.POSITIONS
    with_pad = [0, 7, 1, 9, 1, 11, 2]
    for ids in (longest, with_pad):
        assert max(tiny.largest_differences(model, ref, ids)) < TOLERANCE
    # BERT's numbering (from 0) on the same weights runs, and is wrong: the offset matters.
    model.encoder.config = dataclasses.replace(model.config, position_offset=0)
    attention, _ = tiny.largest_differences(model, ref, with_pad)
    assert attention > 1e-3


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("family", ["bert", "xlm-roberta"])
def test_half_precision_weights_compute_in_float32(folders, family, dtype):
    folder = folders(family, dtype=dtype)
    with safe_open(str(folder / "model.safetensors"), framework="pt") as f:
        stored = {f.get_slice(name).get_dtype() for name in f.keys()}
    assert stored == {"F16" if dtype == torch.float16 else "BF16"}
    model, ref = load_model(folder), tiny.reference(folder, torch.float32)
    # The upcast weights are exactly transformers' float32 ones.
    lw, theirs = model.encoder.layers[1], ref.encoder.layer[1]
    assert lw.w_q.dtype == torch.float32
    assert torch.equal(lw.w_q, theirs.attention.self.query.weight)
    assert torch.equal(model.encoder.word, ref.embeddings.word_embeddings.weight)
    ids = model.tokenizer.encode(tiny.SENTENCE, 512).ids
    assert max(tiny.largest_differences(model, ref, ids)) < TOLERANCE
    label = str(dtype).removeprefix("torch.")
    assert f"{label} weights, computed in float32" in model.description


def test_hugging_face_cache_folder(folders, tmp_path):
    source = folders("bert")
    root = tiny.cache_layout(source, tmp_path / "hub", repo="org/tiny")
    snapshot = next((root / "snapshots").iterdir())
    assert (snapshot / "model.safetensors").is_symlink()
    by_root, by_snapshot = load_model(root), load_model(snapshot)
    assert by_root.path == by_snapshot.path == snapshot
    assert by_root.name == by_snapshot.name == "org/tiny"
    ids = by_root.tokenizer.encode(tiny.SENTENCE, 512).ids
    assert max(tiny.largest_differences(by_root, tiny.reference(source), ids)) < TOLERANCE
    # Without refs/main, the only snapshot is the one.
    (root / "refs" / "main").unlink()
    assert load_model(root).path == snapshot
    # refs/main naming a snapshot that is not there, and a blob that never arrived.
    (root / "refs" / "main").write_text("feedface" * 5, encoding="utf-8")
    with pytest.raises(ModelError, match="names snapshot feedfacefeed"):
        load_model(root)
    target = (snapshot / "model.safetensors").resolve()
    target.unlink()
    with pytest.raises(ModelError, match="interrupted download"):
        load_model(snapshot)


def test_sharded_safetensors(folders, tmp_path):
    from safetensors.torch import load_file, save_file

    folder = tiny.copy_folder(folders("bert"), tmp_path / "sharded")
    tensors = load_file(str(folder / "model.safetensors"))
    (folder / "model.safetensors").unlink()
    names = sorted(tensors)
    shards = {"model-00001-of-00002.safetensors": names[::2], "model-00002-of-00002.safetensors": names[1::2]}
    for file, part in shards.items():
        save_file({n: tensors[n] for n in part}, str(folder / file))
    weight_map = {n: file for file, part in shards.items() for n in part}
    (folder / "model.safetensors.index.json").write_text(
        json.dumps({"weight_map": weight_map}), encoding="utf-8"
    )
    model = load_model(folder)
    ids = model.tokenizer.encode(tiny.SENTENCE, 512).ids
    assert max(tiny.largest_differences(model, tiny.reference(folders("bert")), ids)) < TOLERANCE
    (folder / "model-00002-of-00002.safetensors").unlink()
    with pytest.raises(ModelError, match="model-00002-of-00002.safetensors is missing"):
        load_model(folder)


def test_the_engine_traces_a_brought_model(folders):
    """The whole path, tokenizer included: an XLM-R folder through Engine.trace on every layer."""
    folder = folders("xlm-roberta")
    sentence = "the animal 龘 crossed"  # 龘 is not in the tiny vocabulary
    engine = Engine()
    model = engine.model(str(folder))
    ids = model.tokenizer.encode(sentence, 512).ids
    with torch.no_grad():
        ref = tiny.reference(folder)(torch.tensor([ids]), output_attentions=True)
    for layer in range(tiny.LAYERS):
        trace = engine.trace(AttentionConfig(sentence=sentence, model_dir=str(folder), layer=layer))
        np.testing.assert_allclose(trace.weights, ref.attentions[layer][0].numpy(), atol=TOLERANCE, rtol=0)
    assert trace.tokens_key[0] == "<s>" and trace.tokens_key[-1] == "</s>"
    assert trace.unk_count == 1 and "<unk:龘>" in trace.tokens_key
    assert trace.heads == tiny.HEADS and trace.model_name == folder.name


@pytest.mark.parametrize(
    "family,label",
    [("bert", "BERT"), ("roberta", "RoBERTa"), ("xlm-roberta", "XLM-RoBERTa"), ("distilbert", "DistilBERT")],
)
def test_family_and_description(folders, family, label):
    model = load_model(folders(family))
    assert model.family == label
    assert model.description == f"{model.name} ({label}, 3 layers × 4 heads, 32 wide)"


def test_bundled_model_description():
    from explorer.models.loader import default_model_dir

    assert (
        load_model(default_model_dir()).description
        == "all-MiniLM-L6-v2 (BERT, 6 layers × 12 heads, 384 wide)"
    )


def test_activations_equal_transformers(transformers):
    from transformers.activations import ACT2FN

    from explorer.models.bert import ACTIVATIONS

    x = torch.linspace(-6, 6, 1001)
    for name, ours in ACTIVATIONS.items():
        torch.testing.assert_close(ours(x), ACT2FN[name](x), atol=1e-6, rtol=0, msg=name)


@pytest.mark.parametrize("act", ["gelu_new", "relu"])
def test_other_activations_through_the_whole_model(folders, act):
    folder = folders("bert", hidden_act=act)
    model = load_model(folder)
    assert model.config.hidden_act == act
    ids = model.tokenizer.encode(tiny.SENTENCE, 512).ids
    assert max(tiny.largest_differences(model, tiny.reference(folder), ids)) < TOLERANCE
