"""A decoder through the engine and ``trace``: every stage, each checked by its own equation.

The weights against transformers (every layer, eager attention); X against the input
transformers' attention reads (a hook); the rotation against the RoPE equation written here
in float64; grouped K/V heads, scores, scaling, the causal mask, softmax, head outputs and
W_O against their definitions; the sink against head_measures' definition; the next tokens
against transformers' logits; greedy text against transformers' generate; and the controls
that are not how the model was trained, refused or said.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from explorer.cli import main
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.decoding import GenerationSpec, HeadSet
from explorer.core.engine import Engine
from explorer.core.worked import work_cell, work_rotation
from tests.models import tiny_decoders as td

TOLERANCE = 1e-5


@pytest.fixture(scope="module")
def engine():
    return Engine()


def config_for(folder, **options) -> AttentionConfig:
    return AttentionConfig(**{"sentence": td.ENGLISH, "model_dir": str(folder), "device": "cpu", **options})


@pytest.mark.parametrize("family", ["llama", "gpt2", "qwen2"])
def test_every_layer_of_the_trace_equals_transformers(engine, decoder_folders, family):
    folder = decoder_folders(family)
    for text in (td.ENGLISH, td.CHINESE):
        trace = engine.trace(config_for(folder, sentence=text))
        attentions, _ = td.reference_outputs(td.reference(folder), trace.token_ids_key)
        for layer, theirs in enumerate(attentions):
            weights = (
                trace.weights
                if layer == 0
                else engine.trace(config_for(folder, sentence=text, layer=layer)).weights
            )
            np.testing.assert_allclose(weights, theirs.numpy(), atol=TOLERANCE, rtol=0)
        assert engine.layer_weights(config_for(folder, sentence=text)).shape == (
            td.LAYERS,
            td.HEADS,
            trace.n_key,
            trace.n_key,
        )
        np.testing.assert_allclose(
            engine.layer_weights(config_for(folder, sentence=text)),
            np.stack([a.numpy() for a in attentions]),
            atol=TOLERANCE,
            rtol=0,
        )


def test_each_stage_of_a_rotary_grouped_layer_is_its_equation(engine, decoder_folders):
    folder = decoder_folders("llama")
    layer = 1
    t = engine.trace(config_for(folder, layer=layer), next_tokens=4)
    ref = td.reference(folder)
    # X: what transformers' attention of this layer reads (after input_layernorm).
    seen = {}

    def keep(module, args, kwargs):
        seen["x"] = kwargs["hidden_states"][0]

    hook = ref.model.layers[layer].self_attn.register_forward_pre_hook(keep, with_kwargs=True)
    try:
        with torch.no_grad():
            ref(torch.tensor([t.token_ids_key]))
    finally:
        hook.remove()
    np.testing.assert_allclose(t.X_key, seen["x"].numpy(), atol=1e-5, rtol=0)
    n, h, kv, d = t.n_key, td.HEADS, td.KV_HEADS, t.d_k
    p = {k: v.astype(np.float64) for k, v in t.projections.items()}
    x = t.X_key.astype(np.float64)
    q = (x @ p["w_q"].T).reshape(n, h, d).transpose(1, 0, 2)
    k = (x @ p["w_k"].T).reshape(n, kv, d).transpose(1, 0, 2)
    v = (x @ p["w_v"].T).reshape(n, kv, d).transpose(1, 0, 2)
    assert t.kv_heads == kv and t.kv_head_of == [0, 0, 1, 1]
    np.testing.assert_allclose(t.Q, q, atol=1e-5)
    np.testing.assert_allclose(t.K, k[t.kv_head_of], atol=1e-5)  # each query head's K/V head
    np.testing.assert_allclose(t.V, v[t.kv_head_of], atol=1e-5)
    # RoPE as the paper writes it, in the checkpoints' (i, i + d/2) pairing, θ = 10000.
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    angle = np.arange(n)[:, None] * omega[None, :]
    np.testing.assert_allclose(t.rope_angles, angle, rtol=1e-6, atol=1e-6)

    def turn(a):
        x1, x2 = a[..., : d // 2], a[..., d // 2 :]
        return np.concatenate(
            [x1 * np.cos(angle) - x2 * np.sin(angle), x2 * np.cos(angle) + x1 * np.sin(angle)], -1
        )

    np.testing.assert_allclose(t.Q_rotated, turn(q), atol=1e-5)
    np.testing.assert_allclose(t.K_rotated, turn(k)[t.kv_head_of], atol=1e-5)
    scores = t.Q_rotated.astype(np.float64) @ t.K_rotated.astype(np.float64).transpose(0, 2, 1)
    np.testing.assert_allclose(t.scores, scores, atol=1e-5)
    np.testing.assert_allclose(t.scaled, scores / math.sqrt(d), atol=1e-5)
    assert (t.mask == np.tril(np.ones((n, n), dtype=bool))).all()
    masked = np.where(t.mask, t.scaled.astype(np.float64), -np.inf)
    weights = np.exp(masked - masked.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    np.testing.assert_allclose(t.weights, weights, atol=1e-6)
    np.testing.assert_allclose(t.head_outputs, weights @ t.V.astype(np.float64), atol=1e-5)
    np.testing.assert_allclose(t.output, t.concat.astype(np.float64) @ p["w_o"].T, atol=1e-5)
    # The sink: each head's mean weight on token 0 over rows 1 …
    np.testing.assert_allclose(t.first_token_share, weights[:, 1:, 0].mean(axis=1), atol=1e-6)
    assert len(t.first_token_share_by_layer) == td.LAYERS
    np.testing.assert_allclose(t.first_token_share_by_layer[layer], t.first_token_share, atol=1e-6)
    # The worked arithmetic scores the rotated vectors, and shows the rotation pair by pair.
    cell = work_cell(t, 2, 5, 3)
    assert cell.rotated and cell.score.score == pytest.approx(float(t.scores[2, 5, 3]), abs=1e-5)
    turned = work_rotation(t, 2, 5, "q")
    np.testing.assert_allclose(
        np.concatenate([turned.after[:, 0], turned.after[:, 1]]), t.Q_rotated[2, 5], atol=1e-5
    )
    # Next tokens: transformers' softmax over the vocabulary, at every position.
    with torch.no_grad():
        probs = torch.softmax(ref(torch.tensor([t.token_ids_key])).logits[0], dim=-1)
    expected, expected_ids = probs.topk(4, dim=-1)
    assert len(t.next_tokens) == n
    for row, (want, want_ids) in enumerate(zip(expected, expected_ids)):
        got = t.next_tokens[row]
        assert [e["id"] for e in got] == want_ids.tolist()
        np.testing.assert_allclose([e["probability"] for e in got], want.numpy(), atol=1e-6)
    assert any("grouped-query attention: 4 query heads share 2 K/V heads" in str(m) for m in t.notices)
    # Only the positions asked for (the window's selected one), negative from the end.
    chosen = engine.next_tokens(config_for(folder), 4, positions=[-1, 0])
    for got, want in zip(chosen, [t.next_tokens[-1], t.next_tokens[0]]):
        assert [e["id"] for e in got] == [e["id"] for e in want]
        np.testing.assert_allclose(
            [e["probability"] for e in got], [e["probability"] for e in want], atol=1e-6
        )


def test_projection_slices_read_each_heads_kv_rows(engine, decoder_folders):
    t = engine.trace(config_for(decoder_folders("llama")))
    sliced = t.projection_slices(list(range(td.HEADS)))
    x = t.X_key.astype(np.float64)
    for head in range(td.HEADS):
        np.testing.assert_allclose(x @ sliced["W_K"][head].T + sliced["b_K"][head], t.K[head], atol=1e-5)
        np.testing.assert_allclose(x @ sliced["W_Q"][head].T + sliced["b_Q"][head], t.Q[head], atol=1e-5)


def test_the_causal_mask_is_the_models_own(engine, decoder_folders):
    folder = decoder_folders("llama")
    own, causal = engine.trace(config_for(folder)), engine.trace(config_for(folder, mask="causal"))
    np.testing.assert_array_equal(own.weights, causal.weights)
    assert not [m for m in own.notices if "mask" in str(m)]
    off = engine.trace(config_for(folder, mask="none"))
    assert off.mask.all() and float(np.triu(off.weights[0], 1).max()) > 0
    assert any(getattr(m, "key", "") == "engine.mask_not_causal" for m in off.notices)
    window = engine.trace(config_for(folder, mask="window:1"))
    assert any("not how the model was trained" in str(m) for m in window.notices)


def test_a_sliding_window_is_said_where_it_cuts(engine, decoder_folders):
    folder = decoder_folders("mistral", sliding_window=3)
    t = engine.trace(config_for(folder))
    assert t.sliding_window == 3 and not t.mask[5, 2] and t.mask[5, 3]
    assert any(getattr(m, "key", "") == "engine.sliding_window" for m in t.notices)
    short = engine.trace(config_for(folder, sentence="the"))
    assert not any(getattr(m, "key", "") == "engine.sliding_window" for m in short.notices)


def test_heads_are_the_models_own_where_they_are_grouped_or_rotated(engine, decoder_folders):
    with pytest.raises(ConfigError, match="head count cannot be changed"):
        engine.trace(config_for(decoder_folders("llama"), heads=2))
    assert engine.source_info(config_for(decoder_folders("llama"))).head_counts == [td.HEADS]
    gpt2 = engine.trace(config_for(decoder_folders("gpt2"), heads=2))  # learned positions, no sharing
    assert gpt2.heads == 2 and any(getattr(m, "key", "") == "engine.heads_regrouped" for m in gpt2.notices)
    info = engine.source_info(config_for(decoder_folders("gpt2")))
    assert info.causal and info.is_decoder and info.family == "GPT-2" and 2 in info.head_counts


def test_other_scorings_carry_the_untrained_notice(engine, decoder_folders):
    t = engine.trace(config_for(decoder_folders("qwen2"), scoring="additive"))
    assert any(getattr(m, "key", "") == "engine.untrained_additive" for m in t.notices)
    assert (t.weights[:, ~t.mask] == 0).all()  # still the causal mask


def test_a_decoder_reads_no_second_text(engine, decoder_folders):
    with pytest.raises(ConfigError, match="leave the query empty"):
        engine.trace(config_for(decoder_folders("llama"), query="another text"))


def test_greedy_writing_is_transformers_generate(engine, decoder_folders):
    folder = decoder_folders("llama")
    out = engine.generate(config_for(folder, layer=2), GenerationSpec(6))
    ids = engine.trace(config_for(folder)).token_ids_key
    with torch.no_grad():
        theirs = td.reference(folder).generate(
            torch.tensor([ids]), max_new_tokens=6, do_sample=False, eos_token_id=None, pad_token_id=0
        )[0, len(ids) :]
    assert out["ids"] == theirs.tolist()[: len(out["ids"])] and out["stopped"] in ("length", "end of text")
    step = out["steps"][0]
    assert len(step["attention"]) == td.HEADS and len(step["attention"][0]) == len(ids)
    assert step["position"] == len(ids) - 1 and step["top"][0]["id"] == out["ids"][0]
    np.testing.assert_allclose(np.sum(step["attention"], axis=1), 1.0, atol=1e-5)


def test_sampling_is_seeded_and_top_1_is_greedy(engine, decoder_folders):
    folder = decoder_folders("gpt2")
    spec = GenerationSpec(5, "sample", temperature=1.5, seed=3)
    first, again = engine.generate(config_for(folder), spec), engine.generate(config_for(folder), spec)
    assert first["ids"] == again["ids"]
    greedy = engine.generate(config_for(folder), GenerationSpec(5))
    top1 = engine.generate(config_for(folder), GenerationSpec(5, "sample", top_k=1, seed=9))
    assert top1["ids"] == greedy["ids"]


def test_turning_heads_off_changes_the_next_tokens(engine, decoder_folders):
    folder = decoder_folders("llama")
    result = engine.ablate(config_for(folder), HeadSet.parse("0.1, 2.3", "mean"), k=3)
    plain = engine.next_tokens(config_for(folder), 3)
    assert result["before"] == plain and result["mode"] == "mean" and result["heads"] == ["0.1", "2.3"]
    assert min(result["kl_divergence"]) >= 0 and max(result["kl_divergence"]) > 1e-4
    # KL and the top token's new probability, from the whole distributions computed here.
    from explorer.core.decoder_pass import Ablation, logits, run_decoder

    model = engine.model(str(folder))
    ids = torch.tensor(engine.trace(config_for(folder)).token_ids_key)
    p_before = torch.softmax(logits(model, run_decoder(model, ids).final).double(), -1)
    ablation = Ablation(frozenset({(0, 1), (2, 3)}), "mean")
    p_after = torch.softmax(logits(model, run_decoder(model, ids, ablation=ablation).final).double(), -1)
    kl = (p_before * (p_before.log() - p_after.log())).sum(-1)
    np.testing.assert_allclose(result["kl_divergence"], kl.numpy(), atol=1e-6)
    top = [row[0]["id"] for row in plain]
    np.testing.assert_allclose(
        result["top_token_probability_after"], p_after[range(len(top)), top].numpy(), atol=1e-6
    )
    with pytest.raises(ConfigError, match="head 3.0 does not exist"):
        engine.ablate(config_for(folder), HeadSet.parse("3.0"))


@pytest.mark.parametrize(("family", "mode"), [("gpt2", "zero"), ("llama", "mean")])
def test_a_trace_with_heads_off_is_the_forward_with_them_off(engine, decoder_folders, family, mode):
    """Heads off in layers 0 and 1: layer 1's weights (what enters it changed) and its output
    (its own off head left out) equal transformers' forward with those heads' slices of the
    output projection's input replaced (tests/models/head_hooks.py); layer 0's weights, before
    any edit, equal the plain forward's."""
    from tests.models.head_hooks import heads_off, output_projection

    folder = decoder_folders(family)
    ref = td.reference(folder)
    off = HeadSet.parse("0.0, 0.1, 1.2", mode)
    config = config_for(folder, layer=1)
    trace = engine.trace(config, heads=off)
    captured = {}
    hook = output_projection(ref, 1).register_forward_hook(lambda m, a, out: captured.update(out=out[0]))
    try:
        with heads_off(ref, off.heads, mode), torch.no_grad():
            attentions = ref(torch.tensor([trace.token_ids_key]), output_attentions=True).attentions
    finally:
        hook.remove()
    np.testing.assert_allclose(trace.weights, attentions[1][0].numpy(), atol=TOLERANCE)
    np.testing.assert_allclose(trace.output, captured["out"].numpy(), atol=1e-4)
    plain = engine.trace(config)
    assert float(np.abs(trace.weights - plain.weights).max()) > 1e-3  # the edit reached layer 1
    first = engine.trace(config.with_(layer=0), heads=off)
    np.testing.assert_allclose(first.weights, engine.trace(config.with_(layer=0)).weights, atol=1e-6)
    assert any("0.0, 0.1, 1.2 off" in str(n) for n in trace.notices)
    every = engine.layer_weights(config, heads=off)  # the page's every-layer view follows too
    np.testing.assert_allclose(every[1], attentions[1][0].numpy(), atol=TOLERANCE)


def test_the_trace_command_writes_the_stages_with_heads_off(decoder_folders, tmp_path):
    folder, out = decoder_folders("gpt2"), tmp_path / "t.json"
    args = ["trace", "--model-dir", str(folder), "--sentence", td.ENGLISH, "--layer", "1", "--device", "cpu"]
    assert main([*args, "--ablate", "0.0,0.1", "--out", str(out)]) == 0
    ablated = json.loads(out.read_text())
    assert main([*args, "--out", str(out)]) == 0
    plain = json.loads(out.read_text())
    assert np.abs(np.array(ablated["weights"]) - np.array(plain["weights"])).max() > 1e-3
    assert any("off" in n for n in ablated["notices"]) and ablated["ablation"]["heads"] == ["0.0", "0.1"]


def test_turning_encoder_heads_off_measures_the_outputs(engine, folders):
    from tests.models import tiny

    folder = folders("bert")
    config = AttentionConfig(sentence=tiny.SENTENCE, model_dir=str(folder), device="cpu")
    result = engine.ablate(config, HeadSet.parse("1.2"))
    assert result["how"] == "zeroed before W_O" and min(result["output_cosine"]) < 0.9999
    assert max(result["output_cosine"]) <= 1.0 + 1e-6
    with pytest.raises(ConfigError, match="not a decoder"):
        engine.next_tokens(config, 3)


def _strict(path):
    def refuse(constant):
        raise ValueError(f"not strict JSON: {constant}")

    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


def test_the_trace_command_on_a_decoder(decoder_folders, tmp_path, capsys):
    folder = decoder_folders("qwen2")
    out = tmp_path / "t.json"
    args = [
        "trace",
        "--model-dir",
        str(folder),
        "--sentence",
        td.ENGLISH,
        "--layer",
        "2",
        "--next-tokens",
        "3",
    ]
    assert main([*args, "--generate", "3", "--ablate", "0.1,1.3", "--out", str(out)]) == 0
    data = _strict(out)
    assert data["format_version"] == 3 and data["causal"] and data["model_family"] == "Qwen2"
    assert data["kv_head_of"] == [0, 0, 1, 1] and data["positions"] == "rotary"
    assert data["rope"]["theta"] == 10000.0 and "ω_i" in data["rope"]["formula"]
    assert np.array(data["Q_rotated"]).shape == (td.HEADS, len(data["tokens_key"]), 8)
    assert np.array(data["rope_angles"]).shape == (len(data["tokens_key"]), 4)
    assert "Q_rotated" in data["stages_written"] and len(data["next_tokens"]) == len(data["tokens_key"])
    assert len(data["generation"]["ids"]) == 3 and data["ablation"]["heads"] == ["0.1", "1.3"]
    assert data["tokens_key"][1] == "␣animal" and data["pieces_key"][1] == "Ġanimal"
    printed = capsys.readouterr().out
    assert "grouped-query attention" in printed and "wrote 3 tokens" in printed
    npz = tmp_path / "t.npz"
    only = ["--stages", "Q_rotated,weights", "--only-heads", "3", "--ablate", "0.1,1.3"]  # the same forward
    assert main([*args, *only, "--out", str(npz)]) == 0
    with np.load(npz, allow_pickle=False) as f:
        assert sorted(f.files) == ["Q_rotated", "meta_json", "weights"]
        np.testing.assert_allclose(f["Q_rotated"][0], np.array(data["Q_rotated"])[3])


@pytest.mark.parametrize(
    "extra,words",
    [
        (["--heads", "2"], "head count cannot be changed"),
        (["--query", "other"], "leave the query empty"),
        (["--generate", "0"], None),  # 0: nothing to write, not an error
        (["--generate", "999"], "from 1 to 256"),
        (["--next-tokens", "-1"], "from 0 to 100"),
        (["--ablate", "1-2"], "layer.head pairs"),
        (["--ablate", "9.0"], "head 9.0 does not exist"),
        (
            ["--decoding", "sample", "--generate", "2", "--decoding-temperature", "0"],
            "temperature must be a finite",
        ),
    ],
)
def test_decoder_options_refused_with_one_line(decoder_folders, tmp_path, capsys, extra, words):
    out = tmp_path / "t.json"
    args = ["trace", "--model-dir", str(decoder_folders("llama")), *extra, "--out", str(out)]
    if words is None:
        assert main(args) == 0
        return
    with pytest.raises(SystemExit) as info:
        main(args)
    err = capsys.readouterr().err
    assert info.value.code == 2 and words in err and err.count("\n") == 1 and not out.exists()


def test_next_tokens_on_an_encoder_is_refused(folders, tmp_path, capsys):
    out = tmp_path / "t.json"
    with pytest.raises(SystemExit):
        main(["trace", "--model-dir", str(folders("bert")), "--next-tokens", "3", "--out", str(out)])
    assert "not a decoder" in capsys.readouterr().err and not out.exists()


def test_the_board_rotates_by_position(tmp_path):
    from explorer.core.board import Board, board_trace

    board = Board(("a", "b", "c"), x=((1.0, 0.0), (1.0, 0.0), (0.0, 1.0)), rope_theta=10000.0)
    t = board_trace(board, AttentionConfig())
    # d = 2: one pair, ω = 1: token p turns by p radians.
    np.testing.assert_allclose(t.rope_angles[:, 0], [0.0, 1.0, 2.0])
    np.testing.assert_allclose(t.Q_rotated[0, 1], [math.cos(1.0), math.sin(1.0)], atol=1e-6)
    np.testing.assert_allclose(t.scores[0], t.Q_rotated[0] @ t.K_rotated[0].T, atol=1e-6)
    assert work_cell(t, 0, 2, 1).score.score == pytest.approx(float(t.scores[0, 2, 1]), abs=1e-6)
    assert Board.from_dict(board.to_dict()) == board


@pytest.mark.parametrize("mode", ["zero", "mean"])
def test_writing_with_heads_off_is_transformers_generate_with_them_off(engine, decoder_folders, mode):
    from tests.models.head_hooks import heads_off

    folder = decoder_folders("gpt2")
    off = HeadSet.parse("0.1,1.3", mode)
    out = engine.generate(config_for(folder), GenerationSpec(5), heads=off)
    plain = engine.generate(config_for(folder), GenerationSpec(5))
    ids = engine.trace(config_for(folder)).token_ids_key
    ref, current = td.reference(folder), list(ids)
    with heads_off(ref, off.heads, mode), torch.no_grad():  # greedy, one forward a token (the mean: so far)
        for _ in out["ids"]:
            current.append(int(ref(torch.tensor([current])).logits[0, -1].argmax()))
    assert out["ids"] == current[len(ids) :]
    assert out["heads_off"]["heads"] == ["0.1", "1.3"] and out["heads_off"]["mode"] == mode
    assert plain["heads_off"] is None and plain["ids"] != out["ids"]
    with pytest.raises(ConfigError, match="head 3.0 does not exist"):
        engine.generate(config_for(folder), GenerationSpec(2), heads=HeadSet.parse("3.0"))


def test_the_trace_command_writes_with_the_heads_it_was_told_to_turn_off(decoder_folders, tmp_path):
    folder = decoder_folders("gpt2")
    args = ["trace", "--model-dir", str(folder), "--sentence", td.ENGLISH, "--generate", "4"]
    outs = {}
    for name, extra in (
        ("on", []),
        ("off", ["--ablate", "0.1,1.3"]),
        ("mean", ["--ablate", "0.1,1.3", "--ablation", "mean"]),
    ):
        outs[name] = tmp_path / f"{name}.json"
        assert main([*args, *extra, "--out", str(outs[name])]) == 0
    on, off, mean = (_strict(outs[n])["generation"] for n in ("on", "off", "mean"))
    engine = Engine()
    assert (
        off["ids"]
        == engine.generate(config_for(folder), GenerationSpec(4), heads=HeadSet.parse("0.1,1.3"))["ids"]
    )
    assert on["heads_off"] is None and on["ids"] != off["ids"]
    assert off["heads_off"] == {"heads": ["0.1", "1.3"], "mode": "zero", "how": "zeroed before W_O"}
    assert mean["heads_off"]["mode"] == "mean" and "mean" in mean["heads_off"]["how"]
