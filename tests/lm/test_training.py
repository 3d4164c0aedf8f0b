"""Training through explorer.training: deterministic per seed, evaluated on the probe, replayable,
cancellable, and (a short run) already better than counting characters."""

from dataclasses import replace

import numpy as np
import pytest
import torch

from explorer.lm import tasks
from explorer.lm.train import DEFAULTS, LMSpec, measures_of, model_at, probe_for, score_curves, train_lm
from explorer.training import TrainingCancelled

INDUCTION, TEXT = LMSpec("induction"), LMSpec("text")


def cpu(steps, seed=0, task="induction", **changes):
    changes = {"eval_every": 5, "snapshot_every": 5, **changes}
    return replace(DEFAULTS[task], steps=steps, seed=seed, device="cpu", **changes)


def test_the_same_seed_trains_the_same_model():
    a = train_lm(INDUCTION, cpu(12, 3))
    b = train_lm(INDUCTION, cpu(12, 3))
    c = train_lm(INDUCTION, cpu(12, 4))
    timeless = lambda log: [{k: v for k, v in m.items() if k != "eval_seconds"} for m in log.metrics]  # noqa: E731
    assert a.log.losses == b.log.losses and timeless(a.log) == timeless(b.log)
    for name, tensor in a.model.state_dict().items():
        assert torch.equal(tensor, b.model.state_dict()[name]), name
    assert a.log.losses != c.log.losses


def test_evaluations_carry_every_heads_scores_and_snapshots_replay_them():
    seen = []
    result = train_lm(INDUCTION, cpu(10), on_progress=seen.append)
    assert [p.step for p in seen] == list(range(1, 11))
    metrics = result.log.metrics[-1]
    assert {"first_half_loss", "repeated_half_loss", "best_induction", "best_previous_token"} <= set(metrics)
    assert {f"induction/{la}.{h}" for la in range(2) for h in range(4)} <= set(metrics)
    curves = score_curves(result.log, result.config)
    assert curves["induction"].shape == (2, 2, 4) and np.isfinite(curves["induction"]).all()
    assert curves["induction"][-1, 1, 2] == metrics["induction/1.2"]
    # The snapshot at step 5 is the model evaluated at step 5: the scrubber shows what was measured.
    snapshot = next(s for s in result.log.snapshots if s.step == 5)
    replayed = measures_of(model_at(result.config, snapshot), probe_for(result.vocab), INDUCTION.probe_period)
    assert replayed == pytest.approx(
        {k: v for k, v in result.log.metrics[0].items() if k != "eval_seconds"}, abs=1e-6
    )
    assert [s.step for s in result.log.snapshots] == [0, 5, 10]


def test_cancel_stops_between_steps():
    with pytest.raises(TrainingCancelled) as caught:
        train_lm(INDUCTION, cpu(50), should_stop=lambda: True)
    assert caught.value.log.steps_done == 0


def test_a_short_text_run_already_beats_counting_characters():
    """60 steps (a few seconds): the held-out loss starts near ln 429 ≈ 6.1 and falls below
    the unigram baseline (how often each character occurs, ≈ 3.85 nats)."""
    c = tasks.corpus()
    unigram = tasks.unigram_loss(c.train, c.held_out, len(c.vocab))
    result = train_lm(TEXT, cpu(60, task="text", eval_every=30))
    assert result.log.metrics[-1]["held_out_loss"] < unigram - 0.1
    assert result.config.mlp and result.config.n_positions == 64


def test_cuda_asked_for_without_a_gpu_trains_on_the_cpu_and_says_so():
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    result = train_lm(INDUCTION, replace(DEFAULTS["induction"], steps=1, device="cuda"))
    assert result.device == "cpu"
    assert any("CUDA asked for" in n and "computed on the CPU" in n for n in result.notices)


def test_replaying_a_snapshot_draws_no_random_number():
    """The window rebuilds snapshots on its worker while a run trains on its own thread: both
    share torch's generator, so a rebuild that drew from it would change the run."""
    from explorer.lm.folders import load_folder, shipped_folder

    result = train_lm(INDUCTION, cpu(5))
    torch.manual_seed(7)
    expected = torch.rand(4)
    torch.manual_seed(7)
    model = model_at(result.config, result.log.snapshots[-1])
    load_folder(shipped_folder("induction"))
    assert torch.equal(torch.rand(4), expected)
    for name, tensor in result.model.state_dict().items():
        assert torch.equal(model.state_dict()[name], tensor.cpu()), name


def test_dropout_repeats_for_its_seed_while_another_run_with_dropout_trains():
    """Two runs at once share torch's global generator; dropout draws from the run's own, so a
    run with dropout repeats its losses while another run with dropout trains beside it."""
    import sys
    import threading

    spec, options = LMSpec("induction", dropout=0.3), cpu(6, seed=3)
    alone = [p.loss for p in _progress_of(spec, options)]
    stop = threading.Event()

    def draws() -> None:
        while not stop.is_set():
            try:
                train_lm(spec, cpu(2, seed=9), should_stop=stop.is_set)
            except TrainingCancelled:
                return

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    other = threading.Thread(target=draws)
    other.start()
    try:
        beside = [p.loss for p in _progress_of(spec, options)]
    finally:
        stop.set()
        other.join()
        sys.setswitchinterval(switch)
    assert beside == alone
    assert alone != [p.loss for p in _progress_of(INDUCTION, options)]  # dropout acts


def _progress_of(spec, options):
    seen = []
    train_lm(spec, options, on_progress=seen.append)
    return seen
