"""Training: deterministic per seed, learns in seconds, reports progress, cancels, replays snapshots."""

import numpy as np
import pytest
import torch

from explorer.lab import TrainOptions
from explorer.seq2seq.spec import default_spec
from explorer.seq2seq.train import alignment_at, train_model
from explorer.training import TrainingCancelled

# A narrower model than the shipped ones, so a CI run takes seconds, not minutes.
SMALL = dict(embed=16, hidden=32, attention_dim=32, d_model=32, ffn=64)
FAST = TrainOptions(
    batch_size=64, learning_rate=1e-2, eval_every=50, eval_size=25, snapshot_every=10, device="cpu"
)


def small(model: str, scoring: str | None = None):
    return default_spec(model, scoring).with_(**SMALL)


@pytest.mark.parametrize("model", ["bahdanau", "luong", "transformer"])
def test_same_seed_same_losses(model):
    spec = small(model)
    options = TrainOptions(batch_size=32, eval_every=1000, eval_size=2, snapshot_every=0, device="cpu")
    run = lambda seed: train_model(model, steps=4, seed=seed, spec=spec, options=options).log.losses  # noqa: E731
    first, again, other = run(3), run(3), run(4)
    assert first == again
    assert first != other


def test_a_short_run_learns_the_task():
    """120 steps of a small Bahdanau model (about 7 s on an idle 2-core CPU): ≥ 80 % held-out."""
    seen = []
    result = train_model(
        "bahdanau", steps=120, seed=0, spec=small("bahdanau"), options=FAST, on_progress=seen.append,
        watch_text="9 mai 2018",
    )  # fmt: skip
    assert result.exact_match >= 0.8, result.log.metrics
    assert result.log.losses[-1] < result.log.losses[0] / 10
    assert [p.step for p in seen] == list(range(1, 121))
    evaluated = [p for p in seen if p.exact_match is not None]
    assert [p.step for p in evaluated] == [50, 100, 120]
    assert evaluated[-1].exact_match == result.exact_match
    assert "exact_match/zh_numerals" in evaluated[-1].metrics
    # Snapshot steps carry the watched text's alignment, ready to redraw.
    watched = [p for p in seen if p.watched is not None]
    assert [p.step for p in watched] == [p.step for p in seen if p.snapshot is not None]
    assert watched[-1].watched.alignment.shape == (10, len("9 mai 2018"))
    # Replaying the last snapshot gives exactly what the model computed at that step.
    replay = alignment_at(result.spec, result.log.snapshots[-1], "9 mai 2018")
    np.testing.assert_allclose(replay.alignment, watched[-1].watched.alignment, atol=1e-6)
    early = alignment_at(result.spec, result.log.snapshots[0], "9 mai 2018")
    assert not np.allclose(early.alignment, replay.alignment)


def test_cancel_stops_between_steps():
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(TrainingCancelled) as caught:
        train_model("luong", steps=50, seed=0, spec=small("luong"), options=FAST, should_stop=stop)
    assert caught.value.log.steps_done == 3


def test_auto_device_is_cuda_when_present_else_cpu():
    options = TrainOptions(batch_size=8, eval_every=1000, eval_size=1, snapshot_every=0, device="auto")
    result = train_model("bahdanau", steps=1, seed=0, spec=small("bahdanau"), options=options)
    assert result.device == ("cuda" if torch.cuda.is_available() else "cpu")
