"""An encoder's heads turned off, against transformers: that head's slice of the input of the
attention's output dense (W_O) zeroed, or replaced by its mean over the text, by a hook on
transformers' own model; each token's output vector's cosine to the unablated one equal to 1e-5,
for every encoder family and the bundled MiniLM, through the engine and the window's job."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.appstate.decoding import DecodingOptions
from explorer.appstate.output_cosine import output_cosine_job
from explorer.core.config import AttentionConfig
from explorer.core.decoding import HeadSet
from explorer.core.engine import Engine
from tests.models import tiny
from tests.models.head_hooks import output_cosine

TOLERANCE = 1e-5
OFF = {(0, 1), (1, 3)}


@pytest.fixture(scope="module")
def engine():
    return Engine()


@pytest.mark.parametrize("family", ["bert", "roberta", "xlm-roberta", "distilbert"])
@pytest.mark.parametrize("mode", ["zero", "mean"])
def test_every_family_equals_transformers_with_those_heads_off(engine, folders, family, mode):
    folder = folders(family)
    config = AttentionConfig(sentence=tiny.SENTENCE, model_dir=str(folder), device="cpu")
    ids = engine.trace(config).token_ids_key
    theirs = output_cosine(tiny.reference(folder), ids, OFF, mode)
    result = engine.ablate(config, HeadSet(frozenset(OFF), mode))
    np.testing.assert_allclose(result["output_cosine"], theirs.numpy(), atol=TOLERANCE, rtol=0)
    assert float(theirs.min()) < 0.9999  # the heads mattered
    answer = output_cosine_job(engine, config, DecodingOptions(heads_off=frozenset(OFF), ablation=mode))
    np.testing.assert_allclose(answer.cosine, theirs.numpy(), atol=TOLERANCE, rtol=0)
    assert answer.mean == pytest.approx(float(theirs.mean()), abs=TOLERANCE)
    assert answer.heads.mode == mode and sorted(answer.heads.heads) == sorted(OFF)


def test_the_bundled_minilm_equals_transformers(engine):
    transformers = pytest.importorskip("transformers", reason="transformers is in the test extra")
    from explorer.models.loader import default_model_dir

    config = AttentionConfig(sentence="The animal didn't cross the street because it was too tired")
    ids = engine.trace(config).token_ids_key
    ref = transformers.AutoModel.from_pretrained(str(default_model_dir()), attn_implementation="eager").eval()
    for off, mode in (({(2, 3)}, "zero"), ({(0, 0), (5, 11)}, "mean")):
        answer = output_cosine_job(engine, config, DecodingOptions(heads_off=frozenset(off), ablation=mode))
        np.testing.assert_allclose(answer.cosine, output_cosine(ref, ids, off, mode).numpy(), atol=TOLERANCE)


def test_no_head_of_the_model_off_asks_nothing(engine, folders):
    config = AttentionConfig(sentence=tiny.SENTENCE, model_dir=str(folders("bert")), device="cpu")
    assert output_cosine_job(engine, config, DecodingOptions()) is None
    assert output_cosine_job(engine, config, DecodingOptions(heads_off=frozenset({(9, 0)}))) is None
    random = AttentionConfig(sentence=tiny.SENTENCE, weights="random")
    assert output_cosine_job(engine, random, DecodingOptions(heads_off=frozenset({(0, 0)}))) is None
