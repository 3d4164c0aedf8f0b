"""The sentence grammar: translations checked by hand, true alignments, reading text back, the split."""

from dataclasses import replace

import numpy as np
import pytest

from explorer.seq2seq import sentences
from explorer.seq2seq.sentences import parse, render, sample_clauses, source_words, target_words
from explorer.seq2seq.tasks import TASKS, get_task, make_sequence_batch

# English → (French, Chinese), written and checked by hand: agreement, gender, elision, adjective
# position, "goes to"'s preposition, the Chinese time phrase before the verb, measure words.
CHECKED = [
    ("Jane visits Africa in September", "Jane visite l'Afrique en septembre", "简九月访问非洲"),
    ("Jane sees the red car", "Jane voit la voiture rouge", "简看见了红色的汽车"),
    ("Paul buys a new book in May", "Paul achète un nouveau livre en mai", "保罗五月买了一本新书"),
    ("Marie wants the old plane", "Marie veut le vieil avion", "玛丽想要旧飞机"),
    ("Marie wants the old house", "Marie veut la vieille maison", "玛丽想要老房子"),
    ("Jane and Paul go to Japan on Monday", "Jane et Paul vont au Japon lundi", "简和保罗星期一去日本"),
    ("Emma goes to the United States in August", "Emma va aux États-Unis en août", "艾玛八月去美国"),
    ("Tom visits the United States", "Tom visite les États-Unis", "汤姆访问美国"),
    ("Anna goes to Italy", "Anna va en Italie", "安娜去意大利"),
    ("Anna goes to France on Friday", "Anna va en France vendredi", "安娜星期五去法国"),
    ("Lucas goes to London", "Lucas va à Londres", "卢卡斯去伦敦"),
    ("Louis leaves Paris in March", "Louis quitte Paris en mars", "路易三月离开巴黎"),
    ("Emma likes China", "Emma aime la Chine", "艾玛喜欢中国"),
    ("Tom and Anna like Brazil", "Tom et Anna aiment le Brésil", "汤姆和安娜喜欢巴西"),
    ("Jane likes the school", "Jane aime l'école", "简喜欢学校"),
    ("Paul sees the small school", "Paul voit la petite école", "保罗看见了小学校"),
    ("Paul sees the beautiful hotel", "Paul voit le bel hôtel", "保罗看见了漂亮的酒店"),
    ("Marie has an old dog", "Marie a un vieux chien", "玛丽有一只老狗"),
    ("Marie has an umbrella", "Marie a un parapluie", "玛丽有一把雨伞"),
    ("Louis has a black cat", "Louis a un chat noir", "路易有一只黑色的猫"),
    ("Jane and Marie buy the green bicycle on Friday", "Jane et Marie achètent le vélo vert vendredi",
     "简和玛丽星期五买了绿色的自行车"),
    ("Tom wants a white house", "Tom veut une maison blanche", "汤姆想要一座白色的房子"),
    ("Emma and Lucas see a grey table in June", "Emma et Lucas voient une table grise en juin",
     "艾玛和卢卡斯六月看见了一张灰色的桌子"),
    ("Anna buys the blue piano", "Anna achète le piano bleu", "安娜买了蓝色的钢琴"),
    ("Paul has a big tree", "Paul a un grand arbre", "保罗有一棵大树"),
    ("Jane wants the new plane", "Jane veut le nouvel avion", "简想要新飞机"),
    ("Jane wants a new car", "Jane veut une nouvelle voiture", "简想要一辆新汽车"),
    ("Jane visits Africa in September and Paul sees the red car",
     "Jane visite l'Afrique en septembre et Paul voit la voiture rouge", "简九月访问非洲，保罗看见了红色的汽车"),
]  # fmt: skip


@pytest.mark.parametrize(("english", "french", "chinese"), CHECKED)
def test_checked_translations(english, french, chinese):
    assert parse(english, "fr").translation == french
    assert parse(english, "zh").translation == chinese
    assert parse(english, "fr").text == english


def test_true_alignment_of_the_lessons_examples():
    fr = parse("Jane visits Africa in September", "fr")
    assert fr.target == ("Jane", "visite", "l'", "Afrique", "en", "septembre")
    assert fr.links == ((0,), (1,), (2,), (2,), (3,), (4,))
    zh = parse("Jane visits Africa in September", "zh")
    assert zh.target == ("简", "九月", "访问", "非洲")
    assert zh.links == ((0,), (4,), (1,), (2,))  # 九月 looks back across "visits Africa"
    car = parse("Jane sees the red car", "fr")
    assert car.target[-2:] == ("voiture", "rouge") and car.links[-2:] == ((4,), (3,))  # car, then red
    book = parse("Paul buys a new book", "zh")
    assert book.target == ("保罗", "买了", "一", "本", "新", "书")
    assert book.links == ((0,), (1,), (2,), (2, 4), (3,), (4,))  # the measure word: "a" and its noun
    states = parse("Emma goes to the United States", "fr")
    assert states.target == ("Emma", "va", "aux", "États-Unis")
    assert states.links == ((0,), (1,), (2, 3), (4, 5))
    compound = parse("Tom likes Paris and Anna has an umbrella", "zh")
    assert compound.target[3] == "，" and compound.links[3] == (3,)
    assert compound.clause_of_source == (0, 0, 0, 1, 1, 1, 1, 1)


def test_every_generated_sentence_reads_back_and_links_every_word():
    rng = np.random.default_rng(7)
    for language in ("fr", "zh"):
        for clauses in (1, 3, 10):
            for _ in range(60):
                example = render(sample_clauses(rng, clauses), language)
                again = parse(example.text, language)
                assert again == example
                assert len(example.links) == len(example.target)
                assert all(
                    links and all(0 <= j < len(example.source) for j in links) for links in example.links
                )
                assert set(example.source) <= set(source_words())
                assert set(example.target) <= set(target_words(language))


def test_sentences_the_grammar_does_not_write():
    for text in ("Jane visits", "Jane visit Africa", "Jane sees Africa", "Jane and visits Paris",
                 "Jane sees a old car", "Jane visits Paris and", "Jane visits Paris in Monday", ""):  # fmt: skip
        assert parse(text, "fr") is None, text


def test_held_out_clauses_never_reach_training():
    rng = np.random.default_rng(0)
    train = {render([c], "fr").text for c in sample_clauses(rng, 3000)}
    held = {render([c], "fr").text for c in sample_clauses(rng, 500, "held_out")}
    assert not train & held
    share = np.mean([sentences.is_held_out(sentences.random_clause(rng)) for _ in range(4000)])
    assert 0.09 < share < 0.16  # one in eight


def test_compound_task_reaches_sixty_words_and_its_curriculum_grows():
    task = get_task("compound-fr")
    rng = np.random.default_rng(1)
    long = task.held_out(rng, 50, 10)
    assert np.mean([len(p.source) >= 60 for p in long]) > 0.4
    assert min(len(p.source) for p in task.held_out(rng, 50, 1)) >= 3
    curriculum = task.curriculum
    assert curriculum.top(0.0) == 1 and curriculum.top(curriculum.ramp) == 10 and curriculum.top(1.0) == 10
    early = [len(p.source) for _ in range(20) for p in task.sample(rng, 4, progress=0.0)]
    assert max(early) <= 10  # single clauses only at the start
    held = replace(curriculum, hold=0.2)  # a first stage of single clauses, then the same ramp
    assert held.top(0.0) == held.top(0.2) == 1 and held.top(0.2 + curriculum.ramp / 2) == 6
    assert held.top(0.2 + curriculum.ramp) == 10 and curriculum.top(curriculum.ramp / 2) == 6


def test_batches_pad_and_end_with_eos():
    from explorer.seq2seq.tasks import BOS, EOS, PAD, Pair, TokenVocabulary

    task = TASKS["sentences-zh"]
    pairs = [parse("Jane visits Africa in September", "zh"), parse("Jane likes Paris", "zh")]
    vocab = TokenVocabulary(task.source_tokens, task.target_tokens)
    batch = make_sequence_batch([Pair(p.source, p.target, p.links) for p in pairs], vocab)
    assert batch.lengths.tolist() == [5, 3]
    assert batch.source[1, 3:].tolist() == [PAD, PAD]
    assert batch.target[0, 4] == EOS and batch.target[1, 3] == EOS and batch.target[1, 4] == PAD
    assert vocab.decode_target(batch.target[1]) == ["简", "喜欢", "巴黎"]
    assert batch.target_in[:, 0].tolist() == [BOS, BOS]
    assert batch.target_in[1, 1:].tolist() == batch.target[1, :3].tolist() + [PAD]  # nothing read after <eos>


def test_batches_equal_their_rows_padded_one_by_one():
    """A batch filled in one numpy step holds what each row padded on its own holds: the same
    ids, int64 (the shipped length experiment and every seed's numbers read these batches)."""
    import torch

    from explorer.seq2seq.tasks import EOS, PAD, TokenVocabulary

    task = TASKS["compound-fr"]
    vocab = TokenVocabulary(task.source_tokens, task.target_tokens)
    rng = np.random.default_rng(5)
    for i in range(20):
        pairs = task.sample(rng, 7, i / 20)
        rows = pairs + [replace(pairs[0], source=("zebra", *pairs[0].source))]  # an unknown word too
        batch = make_sequence_batch(rows, vocab)
        sources = [vocab.encode_source(p.source) for p in rows]
        targets = [[vocab.target_index()[t] for t in p.target] + [EOS] for p in rows]
        for got, want in ((batch.source, sources), (batch.target, targets)):
            assert got.dtype == torch.int64 and got.shape == (len(rows), max(map(len, want)))
            for row, ids in zip(got.tolist(), want):
                assert row == ids + [PAD] * (len(row) - len(ids))
        assert batch.lengths.tolist() == [len(s) for s in sources] and batch.lengths.dtype == torch.int64
