"""When a run diverged: its loss ended far above the untrained model's, or stopped being a number."""

from __future__ import annotations

import pytest

from explorer.lab.divergence import RISE, TAIL, divergence


@pytest.mark.parametrize(
    "losses",
    [
        [],
        [4.3],  # one step: nothing to compare
        [4.3, 3.1, 2.2, 1.5],  # learning
        [2.30, 2.31, 2.33, 2.29],  # a short run's noise around the start
        [3.0] + [5.9] * 50,  # risen, but not to twice the start
        [3.0] + [9.0] * 5 + [2.0] * TAIL,  # a bad stretch it recovered from
    ],
)
def test_a_run_that_learnt_or_wobbled_did_not_diverge(losses):
    assert divergence(losses) is None


def test_a_loss_that_ends_at_twice_the_start_diverged():
    losses = [4.330] + [150.0] * 30 + [206.455] * TAIL  # train --model gpt --lr 0.9
    why = divergence(losses)
    assert why.key == "lab.diverged" and why.params == {
        "start": 4.33,
        "end": pytest.approx(206.455),
        "steps": TAIL,
    }
    assert str(why) == (
        "the loss rose from 4.330 at step 1 to 206.455 over the last 10 steps: the run diverged"
    )
    assert divergence([1.0, RISE * 1.0]) is not None and divergence([1.0, 1.99]) is None


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_loss_that_is_not_a_number_diverged_at_its_step(bad):
    why = divergence([2.0, 1.5, bad, 1.0])
    assert why.key == "lab.loss_not_finite" and why.params == {"step": 3}
