"""The shared training loop: cadence of evaluations and snapshots, cancel, determinism."""

import sys
import threading

import pytest
import torch

from explorer.training import TrainingCancelled, seed_everything, train
from explorer.vision.models import VisionConfig, build_model
from explorer.vision.vit import ViTConfig, build_vit


def fit_line(seed: int, steps: int, **kwargs):
    """y = 3x - 1 learnt by one linear unit: small enough to run in milliseconds."""
    seed_everything(seed)
    model = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.linspace(-1, 1, 32)[:, None]
    y = 3 * x - 1

    def take_step(i: int) -> float:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss.item()

    def evaluate() -> dict:
        return {"mse": torch.nn.functional.mse_loss(model(x), y).item()}

    return model, train(model, take_step, evaluate, steps=steps, **kwargs)


def test_learns_and_reports_on_its_cadence():
    seen = []
    model, log = fit_line(0, 95, eval_every=20, snapshot_every=10, on_progress=seen.append)
    assert [p.step for p in seen] == list(range(1, 96))
    assert log.eval_steps == [20, 40, 60, 80, 95]
    assert [s.step for s in log.snapshots] == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95]
    assert [p.step for p in seen if p.metrics] == log.eval_steps
    assert log.last_metrics["mse"] < 1e-3 < log.losses[0]
    assert model.weight.item() == pytest.approx(3, abs=0.05)
    # The first snapshot is the untrained model, and snapshots are copies, not views.
    assert not torch.equal(log.snapshots[0].state["weight"], log.snapshots[-1].state["weight"])
    assert torch.equal(log.snapshots[-1].state["weight"], model.weight.detach())


def test_same_seed_same_losses():
    _, a = fit_line(7, 30)
    _, b = fit_line(7, 30)
    _, c = fit_line(8, 30)
    assert a.losses == b.losses
    assert a.losses != c.losses


def test_cancel_stops_between_steps_and_keeps_the_log():
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 12

    with pytest.raises(TrainingCancelled) as caught:
        fit_line(0, 100, should_stop=stop)
    assert caught.value.log.steps_done == 12


def test_zero_steps_is_refused():
    with pytest.raises(ValueError):
        fit_line(0, 0)


def test_a_seeded_start_is_its_seeds_while_other_threads_build_and_seed():
    """Two labs train at once and the worker rebuilds snapshots meanwhile, all on torch's one
    global generator: a model built from a seed must still start from that seed's weights."""
    config = ViTConfig()
    expected = [p.detach().clone() for p in build_vit(config, seed=5).parameters()]
    stop = threading.Event()

    def others() -> None:  # a snapshot rebuilt (random start overwritten) and another run seeding
        while not stop.is_set():
            build_model(VisionConfig())
            seed_everything(99)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # interleave the threads as often as possible
    threads = [threading.Thread(target=others) for _ in range(2)]
    try:
        for thread in threads:
            thread.start()
        for _ in range(20):
            built = [p.detach() for p in build_vit(config, seed=5).parameters()]
            assert all(torch.equal(a, b) for a, b in zip(built, expected))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        sys.setswitchinterval(switch)
