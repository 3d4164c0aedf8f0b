"""The local window's "p_t within 1 of the truth on k of n steps" counts every step written
(trial 6 T5): local-p-ours read through D = 1 wrote 18 words for copy-twice's 16 and the line
said "16 of 16" — the two steps past the true translation's end were left out. A step past the
truth's end counts as not within; a step the truth spells with no source word is left out."""

from __future__ import annotations

import numpy as np

from explorer.cli import main as cli_main
from explorer.seq2seq.local_trace import translate_window

SOURCE = "a b c d e f g h"  # the tab's default: 16 words to write


def test_the_shipped_model_read_through_d1_is_counted_over_every_word_it_wrote():
    trace = translate_window(SOURCE, "copy-twice", "local-p-ours", half_width=1)
    written, truth = len(trace.output_tokens), len(trace.true_links)
    assert truth == 16
    within, counted = trace.centre_count()
    linked = sum(1 for links in trace.true_links[:written] if links)
    assert counted == linked + max(0, written - truth)
    measured = [d for d in trace.centre_distances if d is not None]
    assert within == sum(d <= 1 for d in measured) <= counted
    assert trace.steps_past_truth() == max(0, written - truth)
    if written > truth:  # as in the trial: the extra steps are counted, and not within
        assert counted > truth and within <= truth


def test_steps_past_the_truth_count_as_not_within(tmp_path):
    trace = translate_window(SOURCE, "copy-twice", "local-p-ours")
    truth = list(trace.true_links)
    # the same trace as if the model had written two words more (p_t on the last source word)
    trace.output_tokens = [*trace.output_tokens[: len(truth)], "h", "h"]
    trace.centres = np.concatenate([np.asarray(trace.centres[: len(truth)]), [7.0, 7.0]])
    trace.centre_distances = trace.centre_distances[: len(truth)]
    within, counted = trace.centre_count()
    measured = [d for d in trace.centre_distances if d is not None]
    assert counted == len(measured) + 2 == 18
    assert within == sum(d <= 1 for d in measured)
    assert trace.steps_past_truth() == 2


def test_the_command_line_counts_every_step_too(tmp_path, capsys):
    out = tmp_path / "t.json"
    argv = ["translate", "--model", "local-p-ours", "--task", "copy-twice", "--source", SOURCE]
    assert cli_main([*argv, "--window", "1", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    trace = translate_window(SOURCE, "copy-twice", "local-p-ours", half_width=1)
    within, counted = trace.centre_count()
    assert f"p_t within 1 of the truth on {within}/{counted} steps" in said, said
    if trace.steps_past_truth():
        assert f"{trace.steps_past_truth()} written past the true translation's end" in said
