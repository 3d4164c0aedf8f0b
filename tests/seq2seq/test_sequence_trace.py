"""Sentence translation with the shipped models: the true translation and alignment, the fixed C
shown as one column, the attention as explorer.core's stages (worked arithmetic included)."""

import json

import numpy as np
import pytest

from explorer.core.worked import work_cell
from explorer.seq2seq.length_curve import evaluation_pairs
from explorer.seq2seq.sequence_checkpoints import load_sequence_model
from explorer.seq2seq.sequence_eval import predict
from explorer.seq2seq.sequence_trace import SentenceError, translate_sequence
from explorer.seq2seq.tasks import get_task


@pytest.mark.parametrize("language", ["fr", "zh"])
@pytest.mark.parametrize("model", ["attention", "no-attention"])
def test_the_shipped_sentence_models_translate_held_out_sentences(language, model):
    """≥ 99 % exact on held-out single sentences; the attention models align ≥ 0.9 (like the dates')."""
    module, record, _ = load_sequence_model(f"sentences-{language}", model)
    task = get_task(f"sentences-{language}")
    report = predict(module, evaluation_pairs(task, 120, seed=7), module.spec.vocab)
    assert report.exact_match >= 0.99
    if model == "attention":
        assert report.alignment_score() >= 0.9
        assert record["alignment_score"] >= 0.9
    else:
        assert report.alignment_score() is None
    assert record["exact_match"] >= 0.99 and record["command"].startswith("python -m explorer train")


def test_the_seeds_example_reorders_in_chinese():
    trace = translate_sequence("Jane visits Africa in September", "sentences-zh")
    assert trace.output == "简九月访问非洲" and trace.exact
    assert trace.output_tokens == ["简", "九月", "访问", "非洲"]
    top = trace.alignment.argmax(axis=1).tolist()
    assert top == [0, 4, 1, 2]  # 九月 looks back at "September" across "visits Africa"
    assert trace.alignment_hits == [True] * 4 and trace.alignment_score == 1.0
    np.testing.assert_array_equal(trace.true_alignment.argmax(axis=1), top)


def test_french_adjective_after_the_noun():
    trace = translate_sequence("Jane sees the red car", "sentences-fr")
    assert trace.output == "Jane voit la voiture rouge"
    assert trace.alignment[3].argmax() == 4 and trace.alignment[4].argmax() == 3  # voiture ← car, rouge ← red


def test_the_model_without_attention_shows_one_column():
    trace = translate_sequence("Jane sees the red car", "sentences-fr", "no-attention")
    assert trace.output == "Jane voit la voiture rouge" and not trace.has_attention
    assert trace.alignment_columns == ["C"] and trace.alignment.shape == (5, 1)
    assert np.all(trace.alignment == 1) and trace.context_kind == "fixed"
    assert all(np.array_equal(row, trace.context[0]) for row in trace.context)
    assert "C = [→h_n ; ←h_1]" in trace.alignment_note
    assert trace.alignment_score is None and trace.true_alignment.shape == (5, 5)
    with pytest.raises(ValueError, match="no attention"):
        trace.attention_trace()
    data = trace.to_dict()
    assert data["scores"] is None and data["annotations"] is None and data["has_attention"] is False


def test_the_attention_is_explorer_cores_and_its_arithmetic_works_out():
    trace = translate_sequence("Paul buys a new book in May", "sentences-zh")
    assert trace.output == "保罗五月买了一本新书"
    core = trace.attention_trace()
    assert core.tokens_query == trace.output_tokens and core.tokens_key == trace.source_tokens
    assert set(core.scoring_params) == {"additive_W1", "additive_W2", "additive_v"}
    for i in range(len(trace.output_tokens)):
        j = int(trace.alignment[i].argmax())
        cell = work_cell(core, 0, i, j)
        assert cell.score.score == pytest.approx(float(trace.scores[i, j]), rel=1e-4, abs=1e-4)
        assert cell.softmax_weight == pytest.approx(float(trace.alignment[i, j]), abs=1e-5)
        np.testing.assert_allclose(cell.output, trace.context[i], atol=1e-5)


def test_text_the_grammar_does_not_write_still_translates_with_notices(tmp_path):
    trace = translate_sequence("Jane  visits   Atlantis 😀", "sentences-fr")
    assert trace.source_tokens == ["Jane", "visits", "<unk>", "<unk>"]
    assert trace.unknown_tokens == ["Atlantis", "😀"]
    assert trace.expected is None and trace.alignment_score is None and trace.true_alignment is None
    assert any("does not write this text" in n for n in trace.notices)
    assert np.isfinite(trace.alignment).all()
    trace.save(tmp_path / "t.npz")
    with np.load(tmp_path / "t.npz", allow_pickle=False) as npz:
        assert json.loads(str(npz["meta_json"]))["unknown_tokens"] == ["Atlantis", "😀"]
        assert "true_alignment" not in npz.files


@pytest.mark.parametrize(("text", "words"), [("", "empty"), ("\t\x00 ", "empty"), ("Jane " * 41, "41 words")])
def test_unreadable_sentences_are_refused(text, words):
    with pytest.raises(SentenceError, match=words):
        translate_sequence(text, "sentences-fr")


def test_a_long_sentence_is_refused_by_the_single_sentence_models():
    long = " and ".join(["Jane visits Africa in September"] * 8)  # 47 words
    with pytest.raises(SentenceError, match="47 words; this model reads at most 40"):
        translate_sequence(long, "sentences-fr")
