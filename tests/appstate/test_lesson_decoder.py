"""The language-model steps and presets quote numbers: each is measured here on the bundled
GPT-2 folders, with the setup the step applies (its model, text, layer and heads off)."""

from __future__ import annotations

import pytest

from explorer.appstate.bundled_decoders import BUNDLED_DECODERS, bundled_decoder
from explorer.appstate.decoding import DecodingOptions
from explorer.appstate.lesson import STEPS, step_index, track_range
from explorer.appstate.lesson_decoder import DECODER_SETUPS, apply_setup
from explorer.appstate.next_tokens import next_tokens_job
from explorer.appstate.presets import PRESETS
from explorer.appstate.state import ExplorerState
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine


@pytest.fixture(scope="module")
def engine():
    return Engine()


def setup_of(step_id: str):
    setup = DECODER_SETUPS[step_id]
    config = AttentionConfig(
        sentence=setup.sentence,
        model_dir=str(bundled_decoder(setup.model).folder),
        layer=setup.layer,
        device="cpu",
    )
    return setup, config


def pct(p: float) -> str:
    return f"{100 * p:.0f} %"


def explanation(step_id: str) -> str:
    return STEPS[step_index(step_id)].explanation


def test_both_bundled_language_models_are_there_and_every_step_has_a_setup():
    assert all(d.installed for d in BUNDLED_DECODERS)
    steps = [STEPS[i].id for i in track_range("decoder")]
    assert steps == [
        "decoder.causal",
        "decoder.next",
        "decoder.previous",
        "decoder.induction",
        "decoder.ablate",
    ]
    assert set(DECODER_SETUPS) == set(steps)


def test_the_numbers_the_steps_quote(engine):
    setup, config = setup_of("decoder.next")
    trace = engine.trace(config)
    assert trace.causal and trace.model_family == "GPT-2"
    top = next_tokens_job(engine, config, trace.n_query - 1).choices[0]
    assert top.token == "r" and f"“r” {pct(top.probability)}" in explanation("decoder.next")

    setup, config = setup_of("decoder.previous")
    previous = engine.trace(config).previous_token_score
    assert {pct(previous[0]), pct(previous[1])} == {"99 %"} and "prev 99 %" in explanation("decoder.previous")

    setup, config = setup_of("decoder.induction")
    trace = engine.trace(config)
    scores, period = trace.induction
    assert period == 8 and "after 8 letters" in explanation("decoder.induction")
    low, high = f"{100 * scores.min():.0f}", f"{100 * scores.max():.0f}"
    assert f"ind {low}–{high} %" in explanation("decoder.induction")
    top = next_tokens_job(engine, config, trace.n_query - 1).choices[0]
    assert top.token == "u" and f"writes “u” next ({pct(top.probability)})" in explanation(
        "decoder.induction"
    )

    setup, config = setup_of("decoder.ablate")
    assert setup.heads_off == {(0, 0), (0, 1)}
    answer = next_tokens_job(engine, config, trace.n_query - 1, DecodingOptions(heads_off=setup.heads_off))
    u = next(c for c in answer.choices if c.token == "u")
    quoted = f"“u” falls from {pct(u.probability)} to {pct(u.after)}"
    assert quoted in explanation("decoder.ablate"), quoted
    for preset in PRESETS[-2:]:  # the two language-model presets quote the same numbers
        assert preset.changes["model_dir"] in {str(d.folder) for d in BUNDLED_DECODERS}


def test_a_step_sets_up_its_model_text_and_heads_off():
    state = ExplorerState()
    setup = DECODER_SETUPS["decoder.ablate"]
    apply_setup(state, setup)
    assert state.config.model_dir == str(bundled_decoder("lm-induction").folder)
    assert state.config.sentence == setup.sentence and state.config.layer == 1 and state.selected_head == 3
    assert state.decoding.options.heads_off == {(0, 0), (0, 1)}
    query, key = state.selected_cell  # the second "z", and the letter after the first "z"
    assert (setup.sentence[query], setup.sentence[key], setup.sentence[key - 1]) == ("z", "u", "z")
    apply_setup(state, DECODER_SETUPS["decoder.induction"])
    assert state.decoding.options.heads_off == frozenset()
