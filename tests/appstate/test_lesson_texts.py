"""The lesson's words, read as a class reads them: formulas in symbols a projector prints (no
TeX source such as f^{k×k}), the tokens step naming the markers of the model on screen."""

import re

import pytest

from explorer.appstate.lesson import (
    STEPS,
    TOKENS_OF_A_DECODER,
    TOKENS_OF_A_DECODER_WITHOUT_START,
    TOKENS_WITHOUT_MARKERS,
    model_markers,
    step_explanation,
)

TEX = re.compile(r"[\^_]\{|\\[a-z]+")


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.stage)
def test_no_formula_or_text_shows_tex_source(step):
    for text in (step.title, step.formula, step.explanation):
        assert not TEX.search(text), text


def test_the_tokens_step_names_each_models_markers():
    tokens = STEPS[0]
    assert model_markers(["[CLS]", "hi", "[SEP]"]) == ("[CLS]", "[SEP]", "[UNK]")
    assert model_markers(["<s>", "▁hi", "</s>"]) == ("<s>", "</s>", "<unk>")
    assert model_markers(["hi", "there"]) is None  # seeded weights: no tokenizer of a model
    assert model_markers(["[CLS]", "hi"]) is None  # cut before its end marker: not claimed
    text, words = step_explanation(tokens, ["<s>", "▁hi", "</s>"])
    assert text.format(**words).count("<s>") == 1 and "[CLS]" not in text.format(**words)
    assert step_explanation(tokens, ["hi"]) == (TOKENS_WITHOUT_MARKERS, {})
    other = STEPS[1]
    assert step_explanation(other, ["[CLS]", "[SEP]"]) == (other.explanation, {})


def test_the_tokens_step_of_a_language_model_names_its_own_start_token():
    tokens = STEPS[0]
    for start in ("<s>", "<|begin_of_text|>"):  # Llama 2 / Mistral, Llama 3: a start, no end
        text, words = step_explanation(tokens, [start, "▁the", "▁cat"], decoder=True)
        shown = text.format(**words)
        assert text == TOKENS_OF_A_DECODER and shown.count(start) == 1
        assert not any(m in shown for m in ("[CLS]", "[SEP]", "</s>", "[UNK]"))
    # GPT-2, Qwen2: no start token; seeded weights or an encoder are not a language model
    assert step_explanation(tokens, ["the", "␣cat"], decoder=True) == (TOKENS_OF_A_DECODER_WITHOUT_START, {})
    assert step_explanation(tokens, ["hi"], decoder=False) == (TOKENS_WITHOUT_MARKERS, {})
