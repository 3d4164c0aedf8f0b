"""How many steps the live ViT needs: held-out accuracy of the live recipe cut to fewer steps.

    python bench/vit_live_steps.py --steps 900,750 --seeds 0,1,2 [--size 1000]

Each run is the window's ViT of the live pair (explorer.vision.data_curve.recipe_for, the
warm-up a tenth of the steps), trained alone on one torch thread with one evaluation (the last),
then measured on the data experiment's 2,000 test pictures (accuracy and the rollout's share on
the object ÷ the object's area). Prints a table with each run's training-thread CPU seconds and
the load average. Never used for assertions.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.vision.data_curve import CONFIGS, recipe_for, test_batch
from explorer.vision.train import train_config
from explorer.vision.vit_measures import measure_vit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="900,750")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--size", type=int, default=1000)
    args = parser.parse_args()
    torch.set_num_threads(1)
    test = test_batch()
    print(f"load {os.getloadavg()[0]:.2f} at start; {args.size:,} training pictures, test 2,000")
    print("| steps | seed | accuracy (2,000) | rollout ÷ area | training thread CPU s | load |")
    print("|---|---|---|---|---|---|")
    for steps in (int(s) for s in args.steps.split(",")):
        for seed in (int(s) for s in args.seeds.split(",")):
            recipe = recipe_for("vit", args.size, seed, steps, eval_every=steps, snapshot_every=0, threads=1)
            cpu = time.thread_time()
            run = train_config(CONFIGS["vit"], recipe.options, schedule=recipe.schedule)
            cpu = time.thread_time() - cpu
            m = measure_vit(run.model, test)
            print(
                f"| {steps} | {seed} | {m.accuracy:.3f} | {m.rollout.share / m.rollout.area:.1f}× | "
                f"{cpu:.1f} | {os.getloadavg()[0]:.2f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
