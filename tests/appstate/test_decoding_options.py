"""Heads off and sampling for the next-token panel (``state.decoding`` and the worker's job),
against transformers: a head turned off is that head's slice of the attention output zeroed
before the output projection (a hook on transformers' own o_proj / c_proj), and a sampled
next token is drawn from softmax(logits ÷ T) over the top-k, seeded."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from explorer.appstate.decoding import DecodingOptions
from explorer.appstate.next_tokens import next_tokens_job
from explorer.appstate.session import SessionError, session_from_dict, session_of
from explorer.appstate.state import ExplorerState
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine

TEXT = "the animal did not cross the street"


@pytest.fixture(scope="module")
def td():
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    from tests.models import tiny_decoders

    return tiny_decoders


@pytest.fixture(scope="module")
def folders(td, tmp_path_factory):
    root = tmp_path_factory.mktemp("decoding")
    return {family: td.build(root / family, family) for family in ("llama", "gpt2")}


@pytest.fixture(scope="module")
def engine():
    return Engine()


def config_for(folder) -> AttentionConfig:
    return AttentionConfig(sentence=TEXT, model_dir=str(folder), device="cpu")


def reference_logits(td, folder, ids, off: set[tuple[int, int]] = frozenset()) -> torch.Tensor:
    """transformers' logits [n, vocabulary] with the heads ``off`` zeroed before W_O."""
    from tests.models.head_hooks import heads_off

    model = td.reference(folder)
    with heads_off(model, off), torch.no_grad():
        return model(torch.tensor([ids])).logits[0].double()


@pytest.mark.parametrize("family", ["llama", "gpt2"])
def test_a_head_off_gives_transformers_next_tokens_with_that_head_zeroed(td, folders, engine, family):
    folder = folders[family]
    config = config_for(folder)
    ids = engine.trace(config).token_ids_query
    position = len(ids) - 1
    off = {(1, 2), (2, 0)}
    answer = next_tokens_job(engine, config, position, DecodingOptions(heads_off=frozenset(off)))
    before = torch.softmax(reference_logits(td, folder, ids)[position], -1)
    after = torch.softmax(reference_logits(td, folder, ids, off)[position], -1)
    assert sorted(answer.heads.heads) == sorted(off) and answer.heads.mode == "zero"
    top_before = torch.topk(before, 10).indices.tolist()
    assert [c.token_id for c in answer.choices[:10]] == top_before
    for c in answer.choices:
        assert c.probability == pytest.approx(float(before[c.token_id]), abs=1e-5)
        assert c.after == pytest.approx(float(after[c.token_id]), abs=1e-5)
    assert max(abs(c.after - c.probability) for c in answer.choices) > 1e-3  # the heads mattered
    newcomers = [i for i in torch.topk(after, 3).indices.tolist() if i not in top_before]
    assert [c.token_id for c in answer.choices[10:]] == newcomers
    assert answer.chosen.token_id == int(after.argmax())  # Write follows the model as it is now

    # a head the model does not have (a folder with fewer layers) is left out, not an error
    fewer = next_tokens_job(engine, config, position, DecodingOptions(heads_off=frozenset({(9, 0)})))
    assert fewer.heads is None and all(c.after is None for c in fewer.choices)


def test_mean_ablation_is_offered_too(td, folders, engine):
    config = config_for(folders["llama"])
    position = 3
    zero = next_tokens_job(engine, config, position, DecodingOptions(heads_off=frozenset({(0, 1)})))
    mean = next_tokens_job(
        engine, config, position, DecodingOptions(heads_off=frozenset({(0, 1)}), ablation="mean")
    )
    assert mean.heads.mode == "mean"
    assert [c.probability for c in mean.choices] == [c.probability for c in zero.choices]
    assert any(abs(a.after - b.after) > 1e-6 for a, b in zip(mean.choices, zero.choices))


def test_sampling_shows_the_distribution_after_temperature_and_top_k(td, folders, engine):
    folder = folders["gpt2"]
    config = config_for(folder)
    ids = engine.trace(config).token_ids_query
    position = len(ids) - 1
    options = DecodingOptions(decoding="sample", temperature=0.7, top_k=4, seed=5)
    answer = next_tokens_job(engine, config, position, options)
    scores = reference_logits(td, folder, ids)[position] / 0.7
    kept = torch.topk(scores, 4)
    expected = torch.softmax(kept.values, -1)
    assert [c.token_id for c in answer.choices] == kept.indices.tolist()  # only the top 4 can be drawn
    np.testing.assert_allclose([c.probability for c in answer.choices], expected.numpy(), atol=1e-5)
    assert answer.shown_mass == pytest.approx(1.0, abs=1e-6)

    # the draw: torch.multinomial over the whole vocabulary, seeded by the seed and the position
    full = torch.zeros_like(scores)
    full[kept.indices] = expected
    gen = torch.Generator().manual_seed(5 * 1_000_003 + position)
    assert answer.chosen.token_id == int(torch.multinomial(full, 1, generator=gen))
    again = next_tokens_job(engine, config, position, options)
    assert again.chosen == answer.chosen  # reproducible
    hot = [DecodingOptions(decoding="sample", temperature=3.0, seed=s) for s in range(12)]
    draws = {next_tokens_job(engine, config, position, o).chosen.token_id for o in hot}
    assert len(draws) > 1  # another seed, another draw (a hot temperature, every token)

    greedy = next_tokens_job(engine, config, position)  # greedy: the model's own probabilities
    plain = torch.softmax(reference_logits(td, folder, ids)[position], -1)
    assert greedy.chosen.token_id == int(plain.argmax())
    assert greedy.choices[0].probability == pytest.approx(float(plain.max()), abs=1e-5)


def test_the_options_refuse_impossible_values_and_travel_with_the_session():
    for bad in (
        {"temperature": 0.0},
        {"temperature": float("nan")},
        {"top_k": -1},
        {"top_k": 1.5},
        {"seed": -3},
        {"decoding": "beam"},
        {"ablation": "noise"},
        {"heads_off": frozenset({(-1, 0)})},
    ):
        with pytest.raises(ValueError):
            DecodingOptions(**bad)
    state = ExplorerState()
    seen = []
    state.subscribe(lambda event, _: seen.append(event), ["decoding", "heads_off"])
    state.decoding.toggle_head(2, 3)
    state.decoding.toggle_head(0, 1)
    state.decoding.toggle_head(2, 3)  # on again
    state.decoding.update(decoding="sample", temperature=1.5, top_k=20, seed=7)
    # the heads' changes say so apart: the trace follows them, not how text is written
    assert seen == ["decoding", "heads_off"] * 3 + ["decoding"]
    assert state.decoding.options.heads_off == {(0, 1)}
    assert state.decoding.is_off(0, 1) and not state.decoding.is_off(2, 3)
    with pytest.raises(ValueError):
        state.decoding.update(temperature=-1.0)
    assert state.decoding.options.temperature == 1.5  # unchanged

    text = session_of(state).to_json()
    assert json.loads(text)["decoding"]["heads_off"] == ["0.1"]
    assert session_from_dict(json.loads(text)).decoding == state.decoding.options
    broken = json.loads(text)
    broken["decoding"]["heads_off"] = ["zero.one"]
    with pytest.raises(SessionError, match="layer.head"):
        session_from_dict(broken)
    del broken["decoding"]  # a session saved before: the defaults
    assert session_from_dict(broken).decoding == DecodingOptions()
