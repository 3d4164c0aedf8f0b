"""One CNN run of the data experiment looked at closely: its held-out curve and CBAM's maps.

    python bench/vit_cnn_run.py --size 100 --seed 1 [--every 50]

The data experiment's CNN recipe (explorer.vision.data_curve.recipe_for) on ``size`` pictures
with ``seed``, evaluated every ``every`` steps: the training loss (mean over the steps since the
last row), the held-out accuracy and loss (the window's 500 pictures), and the share of each
block's CBAM spatial map on the object ÷ the object's share of the picture, on the data
experiment's 2,000 test pictures. A map below 1× looks away from the object (it weighs the
background up). Never used for assertions.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.vision.data_curve import CONFIGS, recipe_for, test_batch
from explorer.vision.measure import attention_mass
from explorer.vision.train import model_at, train_config


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args()
    torch.set_num_threads(1)
    recipe = recipe_for("cnn", args.size, args.seed, eval_every=args.every, snapshot_every=args.every * 2)
    run = train_config(CONFIGS["cnn"], recipe.options, schedule=recipe.schedule)
    test = test_batch(500)
    print(f"CNN (CBAM) on {args.size:,} pictures, seed {args.seed}; load {os.getloadavg()[0]:.2f}")
    print(
        "| step | training loss | held-out accuracy | held-out loss | map on object ÷ area, block 1 / 2 / 3 (500 test) |"
    )
    print("|---|---|---|---|---|")
    losses = np.asarray(run.log.losses)
    snapshots = {s.step: s for s in run.log.snapshots}
    for k, (step, metrics) in enumerate(zip(run.log.eval_steps, run.log.metrics)):
        first = run.log.eval_steps[k - 1] if k else 0
        maps = ""
        if step in snapshots:
            _, masses = attention_mass(model_at(CONFIGS["cnn"], snapshots[step]), test)
            maps = " / ".join(f"{m.share / m.area:.2f}×" for m in masses)
        print(f"| {step} | {losses[first:step].mean():.3f} | {metrics['accuracy']:.3f} | "
              f"{metrics['held_out_loss']:.3f} | {maps} |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
