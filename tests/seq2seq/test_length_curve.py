"""Accuracy against length: the curve's arithmetic, and the shipped result re-derived from the
shipped checkpoints and the command that made them."""

import json
import shlex

import numpy as np
import pytest

from explorer.seq2seq.length_curve import LONG, SHORT, LengthCurve, evaluation_pairs, length_curve
from explorer.seq2seq.length_result import load_length_result, shipped_length_result, shipped_result_path
from explorer.seq2seq.sequence_checkpoints import load_sequence_checkpoint, shipped_sequence_folder
from explorer.seq2seq.sequence_eval import SequencePredictions, predict
from explorer.seq2seq.sequence_lab import EXPERIMENT
from explorer.seq2seq.sequence_train import (
    EVAL_BATCH,
    LENGTH_EXPERIMENT_LR_FACTORS,
    SequenceTrainOptions,
    train_sequence_models,
)
from explorer.seq2seq.tasks import Pair, get_task


def pair(n_source: int, target: str) -> Pair:
    words = tuple(target.split())
    return Pair(tuple(f"w{i}" for i in range(n_source)), words, tuple((0,) for _ in words))


def test_per_word_accuracy_counts_words_at_their_place_and_bins_by_length():
    pairs = [pair(5, "a b c d"), pair(6, "a b"), pair(45, "a b c d e f g h i j")]
    outputs = [
        ["a", "b", "c", "d"],  # exact
        ["a"],  # one word missing: 1 of 2
        ["a", "x", "c", "d", "e", "f", "g", "h", "i", "j", "k"],  # one wrong, one extra: 9 of 10
    ]
    curve = length_curve(SequencePredictions(pairs, outputs, [None] * 3), "no-attention")
    assert curve.counts == (2, 1) and curve.lengths == (5.5, 45.0)
    assert curve.exact_match == (0.5, 0.0)
    assert curve.word_accuracy == pytest.approx((5 / 6, 0.9))  # right words over true words
    assert curve.short.word_accuracy == pytest.approx(5 / 6) and curve.short.count == 2
    assert curve.long.word_accuracy == pytest.approx(0.9) and curve.long.exact_match == 0.0
    assert curve.alignment_score is None
    assert LengthCurve.from_dict(json.loads(json.dumps(curve.to_dict()))) == curve


def test_a_curve_with_impossible_numbers_is_refused():
    curve = length_curve(SequencePredictions([pair(5, "a")], [["a"]], [None]), "attention").to_dict()
    for field, value in (("word_accuracy", [float("nan")]), ("exact_match", [1.5]), ("lengths", [-3.0])):
        with pytest.raises(ValueError):
            LengthCurve.from_dict({**curve, field: value})


def test_the_evaluation_set_spans_short_and_long_sentences_and_is_held_out():
    pairs = evaluation_pairs(get_task("compound-fr"), 20)
    lengths = [len(p.source) for p in pairs]
    assert len(pairs) == 200 and min(lengths) <= SHORT and max(lengths) >= 60
    assert sum(n >= LONG for n in lengths) >= 60
    assert pairs == evaluation_pairs(get_task("compound-fr"), 20)  # the same set every time


@pytest.fixture(scope="module")
def shipped():
    return shipped_length_result()


def test_the_shipped_curves_part_where_the_lesson_says(shipped):
    final = shipped.final
    attention, fixed = final["attention"], final["no-attention"]
    assert attention.long.word_accuracy >= 0.8 and fixed.long.word_accuracy <= 0.4
    assert attention.short.word_accuracy >= 0.9 and fixed.short.word_accuracy >= 0.9
    assert shipped.parameters["no-attention"] >= shipped.parameters["attention"]
    assert max(attention.lengths) >= 60


def test_the_shipped_numbers_are_what_the_shipped_checkpoints_measure(shipped):
    """Re-derived: decode the evaluation set with each shipped checkpoint, get the shipped curve."""
    task = get_task(shipped.task)
    pairs = evaluation_pairs(task, shipped.options["eval_per_group"])
    for name, folder in shipped.checkpoints.items():
        model, record = load_sequence_checkpoint(shipped_sequence_folder(shipped.task, name))
        assert model.spec.name == folder and record["command"] == shipped.command
        curve = length_curve(predict(model, pairs, model.spec.vocab, EVAL_BATCH), name)
        assert curve == shipped.final[name]


def test_the_shipped_command_is_the_record(shipped):
    argv = shlex.split(shipped.command)
    assert argv[:4] == ["python", "-m", "explorer", "length-curve"]
    args = dict(zip(argv[4::2], argv[5::2]))
    assert args["--out"].endswith(shipped_result_path().name) and "--checkpoints" in args
    assert int(args.get("--seed", 0)) == shipped.seed
    assert shipped.steps == int(args.get("--steps", shipped.steps))
    defaults = json.loads(json.dumps(EXPERIMENT.record()))  # as the record writes it
    assert shipped.options == defaults  # the length experiment's own options: nothing else to pass


def test_the_reproduction_path_in_process_equals_the_command(tmp_path):
    """A small budget through the command and in process: the same curves, number for number."""
    from explorer.cli import main

    out = tmp_path / "curve.json"
    tiny = ["--steps", "3", "--hidden", "8", "--batch-size", "8", "--eval-every", "3", "--eval-per-group", "2",
            "--seed", "2"]  # fmt: skip
    assert main(["length-curve", "--task", "compound-zh", *tiny, "--out", str(out)]) == 0
    options = SequenceTrainOptions(
        hidden=8, batch_size=8, eval_every=3, eval_per_group=2, lr_factors=LENGTH_EXPERIMENT_LR_FACTORS
    )  # the command's default: the fixed C at its own rate
    trained = train_sequence_models(("no-attention", "attention"), "compound-zh", 3, 2, options=options)
    assert load_length_result(out).final == trained.final_curves
    assert np.isfinite([c.long.word_accuracy for c in trained.final_curves.values()]).all()
