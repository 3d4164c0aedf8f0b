"""Where a live ViT step's time goes, one torch thread: the step, its evaluation, its snapshot.

    python bench/vit_step.py [--repeat 30] [--ops]

The live pair's ViT and CNN (explorer.vision.data_curve.CONFIGS) on 1,000 pool pictures,
batch 64, in thread CPU milliseconds (time.thread_time: the load of other processes inflates it
far less than wall time):
  * one optimiser step as training takes it (forward, backward, AdamW/Adam with foreach), and
    the ViT's step as it was before (every layer's attention entropy computed, the scores
    clamped in place, the optimiser looping over the tensors), measured in turn in the same
    process (medians of ``--rounds`` rounds), with the saving; the optimiser's own share (loop);
  * one evaluation of the window's 500 held-out pictures (no gradients: the ViT takes them 64
    at a time, explorer.vision.vit.CPU_CHUNK), also at once and with gradients on (the staged
    attention's other softmax path);
  * one snapshot (CPU copies of the weights);
  * the evaluation's cost in steps, and what a 900-step run spends on each with the window's
    spacing (explorer.appstate.vit: WINDOW_TRAINING, EVAL_SPACING).
``--ops`` adds torch.profiler's top operators of the ViT's forward and backward. Never used for
assertions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.appstate.vit import EVAL_SPACING, WINDOW_TRAINING
from explorer.core import attention
from explorer.training import snapshot_of
from explorer.vision.data_curve import CONFIGS
from explorer.vision.models import build_any
from explorer.vision.shapes import batch_of, held_out, training_seeds


def cpu_ms(fn, repeat: int) -> float:
    fn()  # warm
    start = time.thread_time()
    for _ in range(repeat):
        fn()
    return (time.thread_time() - start) / repeat * 1e3


def row(name: str, config, batch, answers, check, repeat: int, rounds: int, ops: bool) -> None:
    """One model's row of the table (and, with ``ops``, the ViT's operators)."""
    model = build_any(config, 0)
    optimiser = torch.optim.AdamW(model.parameters(), 1e-3, weight_decay=0.05)
    fast = torch.optim.AdamW(model.parameters(), 1e-3, weight_decay=0.05, foreach=True)

    def step(before: bool = False) -> None:
        with as_before(before):
            loss = F.cross_entropy(model(batch, {} if before and name == "vit" else None), answers)
            chosen = optimiser if before else fast
            chosen.zero_grad(set_to_none=True)
            loss.backward()
            chosen.step()

    model.train()
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):
        for before in (False, True):
            times[before].append(cpu_ms(lambda b=before: step(b), repeat))
    stepped, earlier = statistics.median(times[False]), statistics.median(times[True])
    plain, foreach = cpu_ms(optimiser.step, repeat), cpu_ms(fast.step, repeat)
    model.eval()
    with torch.no_grad():
        whole = cpu_ms(lambda: model(check), 3)
        # the ViT takes CPU_CHUNK pictures at a time unless its stages are kept: at once, for comparison
        at_once = cpu_ms(lambda: model(check, {}), 3) if name == "vit" else float("nan")
    graded = cpu_ms(lambda: model(check).detach(), 3)
    snap = cpu_ms(lambda: snapshot_of(model, 1), repeat)
    every = WINDOW_TRAINING.eval_every * EVAL_SPACING[name]
    evaluations = 900 // every + (900 % every != 0)
    print(f"| {name} | {stepped:.1f} | {earlier:.1f} | {1 - stepped / earlier:.0%} | {plain:.2f} ({foreach:.2f}) | {whole:.0f} | {at_once:.0f} | {graded:.0f} | "
          f"{snap:.2f} | {whole / stepped:.1f} | {900 * stepped / 1e3:.0f} / {evaluations * whole / 1e3:.1f} "
          f"(every {every}) |")  # fmt: skip
    if ops and name == "vit":
        from torch.profiler import profile

        model.train()
        with profile() as prof:
            for _ in range(10):
                F.cross_entropy(model(batch), answers).backward()
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=20))


@contextmanager
def as_before(before: bool):
    """The attention as training ran it before: the scores clamped in place (autograd then copies
    them and passes over them three times more in the backward). The caller keeps the stages, so
    the entropy is computed too."""
    if not before:
        yield
        return
    own = attention.keep_finite
    attention.keep_finite = lambda scaled: scaled.clamp_(-attention._FINITE, attention._FINITE)
    try:
        yield
    finally:
        attention.keep_finite = own


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ops", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    pool = batch_of(training_seeds(rng, 1000))
    images, labels = torch.from_numpy(pool.images), torch.from_numpy(pool.labels)
    check = torch.from_numpy(held_out(WINDOW_TRAINING.eval_size).images)
    picks = torch.from_numpy(rng.integers(0, 1000, 64))
    batch, answers = images[picks], labels[picks]
    print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}; torch {torch.__version__}; thread CPU ms")
    print("| model | step | before | saved | of it: optimiser loop (foreach) | eval 500 | at once (stages kept) | with gradients on | "
          "snapshot | eval ÷ step | 900 steps: steps s / evals s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, config in CONFIGS.items():
        row(name, config, batch, answers, check, args.repeat, args.rounds, args.ops)
    print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
