"""The pretrained path against Hugging Face's BertModel, and the loader's guard rails."""

import shutil

import numpy as np
import pytest
import torch

from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.device import threads_for
from explorer.core.engine import Engine
from explorer.models.loader import ModelError, load_model

LONG_SENTENCE = " ".join(
    f"sentence {i} says that attention weighs every word against every other word." for i in range(60)
)


@pytest.fixture(scope="module")
def hf_model(model_dir):
    transformers = pytest.importorskip("transformers", reason="transformers is in the test extra")
    model = transformers.BertModel.from_pretrained(str(model_dir), attn_implementation="eager")
    return model.eval()


@pytest.mark.parametrize(
    "sentence",
    [
        "Thinking Machines",
        "The animal didn't cross the street because it was too tired.",
        "注意力机制其实是源自于人对于外部信息的处理能力",
        LONG_SENTENCE,
    ],
)
def test_every_layer_matches_hugging_face(engine, hf_model, sentence):
    model = engine.model()
    ids = model.tokenizer.encode(sentence, 512).ids
    with torch.no_grad():
        ref = hf_model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
    if sentence is LONG_SENTENCE:
        assert len(ids) == 512, "the long sentence must reach the 512-token limit"
    for layer in range(model.config.num_hidden_layers):
        trace = engine.trace(AttentionConfig(sentence=sentence, layer=layer))
        assert trace.n_key == len(ids)
        np.testing.assert_allclose(trace.X_key, ref.hidden_states[layer][0].numpy(), atol=1e-4, rtol=0)
        np.testing.assert_allclose(trace.weights, ref.attentions[layer][0].numpy(), atol=1e-5, rtol=0)


def test_regrouped_heads_reuse_the_same_projections(engine):
    own = engine.trace(AttentionConfig(sentence="the quick brown fox"))
    regrouped = engine.trace(AttentionConfig(sentence="the quick brown fox", heads=6))
    assert regrouped.Q.shape == (6, own.n_key, 64)
    # Regrouping changes how columns are split, never the projected values.
    np.testing.assert_allclose(
        regrouped.Q.transpose(1, 0, 2).reshape(own.n_key, -1),
        own.Q.transpose(1, 0, 2).reshape(own.n_key, -1),
        atol=1e-6,
    )
    assert any("regrouped" in n for n in regrouped.notices)
    assert not any("regrouped" in n for n in own.notices)


def test_tokens_keep_cls_sep_and_unknown_characters(engine):
    trace = engine.trace(AttentionConfig(sentence="我们先来看一张图片"))
    assert trace.tokens_key[0] == "[CLS]" and trace.tokens_key[-1] == "[SEP]"
    assert trace.unk_count == 7
    assert "[UNK:们]" in trace.tokens_key
    assert any("[UNK]" in n for n in trace.notices)


def test_tokenizer_does_not_pad_and_truncates_at_512(engine):
    assert engine.trace(AttentionConfig(sentence="hello")).n_key == 3
    trace = engine.trace(AttentionConfig(sentence="word " * 2000))
    assert trace.n_key == 512 and trace.tokens_key[-1] == "[SEP]"
    assert any("cut from 2002 to 512" in n for n in trace.notices)


def test_cross_attention_uses_query_tokens(engine):
    trace = engine.trace(
        AttentionConfig(
            sentence="Jane visite l'Afrique en septembre", query="Jane visits Africa in September"
        )
    )
    assert trace.tokens_query != trace.tokens_key
    assert trace.weights.shape == (12, trace.n_query, trace.n_key)
    assert trace.output.shape == (trace.n_query, 384)


def test_layer_out_of_range(engine):
    with pytest.raises(ConfigError, match="layers 0 to 5"):
        engine.trace(AttentionConfig(layer=6))


def test_missing_model_falls_back_to_random_with_message(tmp_path):
    engine = Engine(default_model=tmp_path / "nowhere")
    trace = engine.trace(AttentionConfig(sentence="Thinking Machines"))
    assert trace.weights_source == "random"
    assert any("pretrained weights unavailable" in n for n in trace.notices)


def _copy_model(model_dir, target):
    target.mkdir()
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        shutil.copy(model_dir / name, target / name)
    return target


@pytest.mark.parametrize(
    "damage,message",
    [
        ("missing", "does not exist"),
        ("empty", "lacks config.json"),
        ("truncated", "unreadable or corrupt"),
        ("garbage", "unreadable or corrupt"),
        ("bad_config", "not a model config"),
    ],
)
def test_broken_model_folders_give_clear_errors(model_dir, tmp_path, damage, message):
    folder = tmp_path / "model"
    if damage == "empty":
        folder.mkdir()
    elif damage != "missing":
        _copy_model(model_dir, folder)
        weights = folder / "model.safetensors"
        if damage == "truncated":
            weights.write_bytes(weights.read_bytes()[:100_000])
        elif damage == "garbage":
            weights.write_bytes(b"\x00not safetensors at all" * 10)
        elif damage == "bad_config":
            (folder / "config.json").write_text("[1, 2", encoding="utf-8")
    with pytest.raises(ModelError, match=message):
        load_model(folder)
    with pytest.raises(ModelError):
        Engine().trace(AttentionConfig(model_dir=str(folder)))


def test_a_copied_model_folder_loads_the_same(model_dir, tmp_path, engine):
    folder = _copy_model(model_dir, tmp_path / "copy")
    a = engine.trace(AttentionConfig(sentence="same numbers", model_dir=str(folder)))
    b = engine.trace(AttentionConfig(sentence="same numbers"))
    np.testing.assert_array_equal(a.weights, b.weights)
    assert a.model_name == "copy"


def test_should_stop_cancels_between_layers(engine):
    from explorer.core.engine import Cancelled

    calls = []

    def stop_at_third_check():
        calls.append(1)
        return len(calls) >= 3

    with pytest.raises(Cancelled):
        engine.trace(  # the last layer: five layers run before it (layer 0 runs none)
            AttentionConfig(sentence="a sentence nobody computed before, to skip the cache", layer=5),
            should_stop=stop_at_third_check,
        )
    assert len(calls) == 3
    # The engine still works afterwards, and a never-true check changes nothing.
    trace = engine.trace(AttentionConfig(sentence="Thinking Machines"), should_stop=lambda: False)
    assert trace.weights.shape == (12, 4, 4)


def test_a_layer_runs_only_the_layers_before_it_and_later_layers_carry_on(model_dir, monkeypatch):
    """A keystroke on layer 0 needs the embeddings alone: no encoder layer runs. A later layer
    carries the kept states on, and every layer's numbers equal one whole pass's, bit for bit."""
    engine = Engine()
    encoder = engine.model().encoder
    ran: list[int] = []
    layer_of = {id(lw): k for k, lw in enumerate(encoder.layers)}
    real = encoder._layer
    monkeypatch.setattr(
        encoder, "_layer", lambda x, lw, edit=None: ran.append(layer_of[id(lw)]) or real(x, lw, edit)
    )
    sentence = "the animal did not cross the street"
    first = engine.trace(AttentionConfig(sentence=sentence))
    assert ran == []
    third = engine.trace(AttentionConfig(sentence=sentence, layer=2))
    assert ran == [0, 1]
    last = engine.trace(AttentionConfig(sentence=sentence, layer=5))
    assert ran == [0, 1, 2, 3, 4]
    engine.trace(AttentionConfig(sentence=sentence, layer=1))  # kept: nothing runs again
    assert ran == [0, 1, 2, 3, 4]
    ids = torch.tensor(engine.model().tokenizer.encode(sentence, 512).ids)
    c = engine.model().config
    with threads_for(len(ids) * c.hidden_size**2 * 12 * c.num_hidden_layers):  # as the engine runs it
        whole = encoder.hidden_states(ids)
    for trace in (first, third, last):
        assert np.array_equal(trace.X_key, whole[trace.layer].numpy())
