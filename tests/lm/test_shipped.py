"""The shipped checkpoints (resources/lm/): small, standard, and still scoring what their record says."""

import math

import numpy as np
import pytest

from explorer.lm.folders import CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE, load_shipped, shipped_folder
from explorer.lm.report import model_report

TASKS = ("induction", "text")


def approx_equal(a, b, where="report"):
    """The same structure, numbers within 1e-6."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), where
        for key in a:
            approx_equal(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            approx_equal(x, y, f"{where}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6), f"{where}: {a} != {b}"
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


@pytest.mark.parametrize("task", TASKS)
def test_each_file_is_small(task):
    folder = shipped_folder(task)
    for name in (CONFIG_FILE, WEIGHTS_FILE, TOKENIZER_FILE):
        assert (folder / name).stat().st_size <= 1 << 20, name  # the bundle's budget: ≤ 1 MB each


@pytest.mark.parametrize("task", TASKS)
def test_the_checkpoint_keeps_the_scores_its_record_states(task):
    shipped = load_shipped(task)
    record = shipped.record
    assert record["task"] == task
    assert record["command"].startswith(f"python -m explorer train --model gpt --task {task} ")
    approx_equal(model_report(shipped.model, shipped.vocab, task), record["report"])


def test_the_induction_checkpoint_has_induction_heads_fed_by_previous_token_heads():
    report = load_shipped("induction").record["report"]
    best_layer_2 = max(report["scores"]["induction"][1])
    assert best_layer_2 >= 0.5
    assert report["induction_heads"] and all(layer == 1 for layer, _ in report["induction_heads"])
    assert report["previous_token_heads"] and all(layer == 0 for layer, _ in report["previous_token_heads"])
    ablation = report["ablation"]
    assert ablation["induction_heads"]["change"] >= 2.0  # the lesson's causal test
    assert ablation["previous_token_heads"]["change"] >= 2.0
    assert abs(ablation["neither"]["change"]) < 0.3
    assert report["repeated_half_loss"] < 0.5 < 4.0 < report["first_half_loss"]


def test_the_text_checkpoint_beats_the_bigram_on_held_out_text():
    text = load_shipped("text").record["report"]["text"]
    assert text["held_out_loss"] < text["bigram_held_out_loss"]
    assert text["train_loss"] < text["held_out_loss"]  # it also memorised: said in docs/benchmarks.md


def test_the_previous_token_heads_copy_over_the_first_half_only_as_the_lesson_says():
    """lm.previous_token's words: the line below the diagonal over the probe's first half, the
    score (the mean over every row) about 0.5."""
    from explorer.lm.trace import trace_ids
    from explorer.lm.train import probe_for

    shipped = load_shipped("induction")
    report = shipped.record["report"]
    probe = probe_for(shipped.vocab)
    period = 24  # probe_for's: the symbols, then the same again
    weights = trace_ids(shipped.model, probe[0].tolist()).weights[0]  # layer 0: [heads, n, n]
    for _, head in report["previous_token_heads"]:
        below = np.diagonal(weights[head], offset=-1)  # row i's weight on i − 1, rows 1 … n − 1
        rows = np.arange(1, len(below) + 1)
        assert below[rows < period].mean() > 0.9
        assert below[rows > period].mean() < 0.2
        assert 0.4 < report["scores"]["previous_token"][0][head] < 0.6
