"""Text the lab's GPT writes equals transformers' GPT2LMHeadModel on the same folder: the same
logits (≤ 1e-4) and attention of the writing position (≤ 1e-5) at every step, the same greedy
text as its ``generate``, and the same seeded draws from its own temperature and top-k warpers;
the context slides once full; a seed gives the same text, step by step or at once."""

import numpy as np
import pytest
import torch

from explorer.core.config import ConfigError
from explorer.core.decoding import GenerationSpec
from explorer.lm.errors import LMError
from explorer.lm.folders import load_shipped
from explorer.lm.generate import generate, generate_steps
from explorer.lm.vocab import INDUCTION_VOCAB

transformers = pytest.importorskip("transformers")
from transformers.generation.logits_process import (  # noqa: E402
    TemperatureLogitsWarper,
    TopKLogitsWarper,
)

PROMPT = "q7Hx2LmZ" * 2 + "q7H"  # a sequence seen once, and its start again


@pytest.fixture(scope="module")
def shipped():
    lab = load_shipped("induction")
    reference = transformers.GPT2LMHeadModel.from_pretrained(
        str(lab.folder), attn_implementation="eager"
    ).eval()
    return lab, reference


def hf_step(reference, ids, start):
    with torch.no_grad():
        out = reference(torch.tensor([ids[start:]]), output_attentions=True)
    return out.logits[0, -1].double(), [a[0, :, -1] for a in out.attentions]


def check_against(reference, lab, prompt_ids, steps):
    ids = list(prompt_ids)
    context = lab.model.config.n_positions
    for step in steps:
        start = max(0, len(ids) - context)
        assert (step.start, step.position) == (start, len(ids) - 1)
        logits, attention = hf_step(reference, ids, start)
        assert np.abs(step.logits - logits.numpy()).max() <= 1e-4
        for layer, theirs in enumerate(attention):
            assert np.abs(step.attention[layer] - theirs.numpy()).max() <= 1e-5
        assert step.probability == pytest.approx(float(torch.softmax(logits, -1)[step.id]), abs=1e-6)
        ids.append(step.id)
    return ids


def test_greedy_text_is_transformers_generate(shipped):
    lab, reference = shipped
    spec = GenerationSpec(32, "greedy")  # 19 + 32 > 48: the context slides
    out = generate(lab.model, lab.vocab, PROMPT, spec)
    ids = check_against(reference, lab, lab.vocab.encode(PROMPT), out.steps)
    with torch.no_grad():
        theirs = reference.generate(
            torch.tensor([lab.vocab.encode(PROMPT)]),
            max_new_tokens=29,  # to 48 tokens: transformers' GPT-2 does not slide
            do_sample=False,
            suppress_tokens=[lab.vocab.end_id],
            pad_token_id=lab.vocab.end_id,
        )
    assert theirs[0, len(PROMPT) :].tolist() == [s.id for s in out.steps[:29]]
    assert out.text == PROMPT + "".join(s.token for s in out.steps)
    assert len(ids) == len(PROMPT) + 32
    # the induction model copies: after "q7H" comes "x2LmZq7H…", the sequence seen before
    assert out.text[len(PROMPT) : len(PROMPT) + 13] == "x2LmZq7Hx2LmZ"


@pytest.mark.parametrize("temperature, top_k", [(1.0, 0), (0.7, 5), (2.0, 3)])
def test_seeded_draws_follow_transformers_warpers(shipped, temperature, top_k):
    lab, reference = shipped
    spec = GenerationSpec(8, "sample", temperature, top_k, seed=11)
    out = generate(lab.model, lab.vocab, PROMPT, spec)
    check_against(reference, lab, lab.vocab.encode(PROMPT), out.steps)
    # the same draws, written here from transformers' logits and its own warpers, each drawn
    # with a generator seeded by the seed and the writing position (``decoding.seeded_draw``)
    ids = lab.vocab.encode(PROMPT)
    for step in out.steps:
        logits, _ = hf_step(reference, ids, 0)
        logits[lab.vocab.end_id] = float("-inf")
        scores = TemperatureLogitsWarper(temperature)(None, logits[None].double())
        if top_k:
            scores = TopKLogitsWarper(top_k)(None, scores)
        probs = torch.softmax(scores[0], -1)
        gen = torch.Generator().manual_seed(11 * 1_000_003 + len(ids) - 1)
        choice = int(torch.multinomial(probs, 1, generator=gen))
        assert step.id == choice
        ids.append(choice)


def test_a_seed_gives_the_same_text_one_token_at_a_time(shipped):
    lab, _ = shipped
    spec = GenerationSpec(10, "sample", 1.5, 0, seed=4)
    ids = lab.vocab.encode(PROMPT)
    steps = generate_steps(lab.model, ids, spec, lab.vocab.token, lab.vocab.end_id)
    one_by_one = [next(steps).id for _ in range(10)]
    assert one_by_one == [s.id for s in generate(lab.model, lab.vocab, PROMPT, spec).steps]
    other = generate(lab.model, lab.vocab, PROMPT, GenerationSpec(10, "sample", 1.5, 0, seed=5))
    assert [s.id for s in other.steps] != one_by_one  # hot sampling: another seed, another text
    with pytest.raises(StopIteration):
        next(steps)


def test_the_attention_matrix_places_each_row_in_the_text(shipped):
    lab, _ = shipped
    out = generate(lab.model, lab.vocab, PROMPT, GenerationSpec(35, "greedy"))
    for layer, head in [(0, 1), (1, 2)]:
        m = out.attention(layer, head)
        assert m.shape == (35, len(PROMPT) + 35)
        for r, step in enumerate(out.steps):
            row = m[r]
            assert row[step.start : step.position + 1].sum() == pytest.approx(1.0, abs=1e-5)
            assert not row[: step.start].any() and not row[step.position + 1 :].any()
    assert out.steps[-1].start > 0  # it slid


def test_bad_requests_get_one_message(shipped):
    lab, _ = shipped
    with pytest.raises(LMError, match="not in this model.s vocabulary"):
        generate(lab.model, lab.vocab, "日本", GenerationSpec(3))
    with pytest.raises(LMError):
        generate(lab.model, lab.vocab, "", GenerationSpec(3))
    for bad in (
        {"tokens": 0},
        {"tokens": 3, "temperature": 0.0, "decoding": "sample"},
        {"tokens": 3, "top_k": -1},
    ):
        with pytest.raises(ConfigError):
            GenerationSpec(**bad)


def test_the_induction_vocabulary_is_the_folders():
    assert load_shipped("induction").vocab == INDUCTION_VOCAB
