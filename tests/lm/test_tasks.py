"""The generated tasks: periodic rows, the probe's halves, the text split, the bigram baseline."""

import math

import numpy as np
import pytest
import torch

from explorer.lm import tasks
from explorer.lm.errors import LMError
from explorer.lm.vocab import END, INDUCTION_VOCAB, CharVocab


def test_induction_rows_repeat_a_segment_with_a_period_from_6_to_24():
    rows = tasks.induction_rows(np.random.default_rng(0), 200, 48, 64)
    assert rows.shape == (200, 48) and rows.dtype == torch.int64
    assert 0 <= int(rows.min()) and int(rows.max()) < 64
    periods = []
    for row in rows.tolist():
        k = next(k for k in range(1, 49) if all(row[i] == row[i - k] for i in range(k, 48)))
        periods.append(k)
    # The smallest period is the drawn one unless the segment itself repeats (rare at 64 symbols).
    assert min(periods) >= 6 and max(periods) <= 24
    assert len(set(periods)) > 10  # position alone cannot solve it
    again = tasks.induction_rows(np.random.default_rng(0), 200, 48, 64)
    assert torch.equal(rows, again)


def test_the_probe_is_random_tokens_repeated_once_and_its_halves_are_the_right_targets():
    probe = tasks.repeated_probe(np.random.default_rng(1), 3, 5, 64)
    assert probe.shape == (3, 10) and torch.equal(probe[:, :5], probe[:, 5:])
    first, repeated = tasks.probe_halves(5)
    # loss index i predicts token i + 1: first half tokens 1-4, repeated half tokens 6-9
    assert list(range(10 - 1))[first] == [0, 1, 2, 3] and list(range(9))[repeated] == [5, 6, 7, 8]
    with pytest.raises(LMError, match="period"):
        tasks.repeated_probe(np.random.default_rng(1), 3, 1, 64)


def test_the_corpus_holds_english_and_chinese_and_holds_paragraphs_back():
    c = tasks.corpus()
    assert "induction head" in c.train_text and "归纳头" in c.train_text
    assert c.held_out_text and c.held_out_text not in c.train_text
    for paragraph in c.held_out_text.split("\n\n"):
        assert paragraph not in c.train_text
    assert c.vocab.decode(c.train.tolist()) == c.train_text
    assert len(c.held_out) == len(c.held_out_text)


def test_the_bigram_baseline_is_the_mean_negative_log_probability_of_its_counts():
    train, held = torch.tensor([0, 1, 0, 1, 2, 0]), torch.tensor([0, 1, 2])
    alpha = 0.5
    counts = np.full((3, 3), alpha)
    for a, b in zip(train[:-1].tolist(), train[1:].tolist()):
        counts[a, b] += 1
    p = counts / counts.sum(1, keepdims=True)
    expected = -(math.log(p[0, 1]) + math.log(p[1, 2])) / 2
    assert tasks.bigram_loss(train, held, 3, alpha) == pytest.approx(expected)
    best, _ = tasks.best_bigram_loss(train, held, 3)
    assert best <= expected + 1e-12


def test_text_windows_are_slices_of_the_text():
    ids = torch.arange(100)
    windows = tasks.text_windows(np.random.default_rng(0), ids, 8, 10)
    for w in windows:
        assert torch.equal(w, torch.arange(int(w[0]), int(w[0]) + 10))
    assert tasks.held_out_windows(ids, 30).shape == (3, 30)


def test_the_vocabulary_refuses_what_it_does_not_know():
    vocab = CharVocab.of_text("abc 注意")
    assert vocab.decode(vocab.encode("c a注")) == "c a注"
    assert len(vocab) == 7 and vocab.token(vocab.end_id) == END
    with pytest.raises(LMError, match="2 characters are not in this model's vocabulary: '😀x'"):
        vocab.encode("ab😀x")
    with pytest.raises(LMError, match="empty"):
        vocab.encode("")
    with pytest.raises(LMError, match="at most"):
        vocab.encode("a" * 200_000)
    assert len(INDUCTION_VOCAB) == 65 and INDUCTION_VOCAB.end_id == 64


def test_a_refusal_names_the_alphabet_and_the_first_character_outside_it():
    """Classroom trial: "hi hi" was refused without saying what the model does read."""
    with pytest.raises(LMError) as refused:
        INDUCTION_VOCAB.encode("hi hi")
    text = str(refused.value.message.render())
    assert "'␣'" in text and "character 3 of the text" in text
    assert text.endswith("this model knows only a–z A–Z 0–9 # $")
    # derived from the vocabulary: a text model's alphabet is its corpus's characters
    assert CharVocab.of_text("cab, d\n").alphabet() == "U+000A ␣ , a–d"
    assert CharVocab(chr(0x4E00 + i) for i in range(100)).alphabet(most=3) == "一–乣"
    assert CharVocab("acegikmoqsuwy").alphabet(most=3) == "a c e …"


def test_a_tokenizer_json_nested_too_deep_is_not_a_character_vocabulary(tmp_path):
    """Engineer trial 9: JSON nested 100,000 deep raised a RecursionError from Python's json;
    a folder's tokenizer.json that deep is simply not one this lab wrote (None: read otherwise)."""
    from explorer.lm.vocab import CharVocab

    path = tmp_path / "tokenizer.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert CharVocab.from_tokenizer_file(path) is None
