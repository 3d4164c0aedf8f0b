"""Vision lab: how fast each variant learns from scratch, and where its spatial attention looks.

    python bench/vision_train.py                       # all four variants, 1 and 2 threads for cbam
    python bench/vision_train.py --variants cbam --threads 1 2 --seeds 0 1 2 --markdown table.md

For each run: seconds from nothing (no pictures, an untrained model) to the first evaluation
with ≥ 95 % held-out accuracy (500 held-out pictures, evaluated every --eval-every steps; the
pool of training pictures and the evaluations are counted in the time), the accuracy after all
--steps on 1,000 other held-out pictures, and the share of each spatial map's mass inside the
object mask over those 1,000 pictures divided by the object's share of the image
(explorer/vision/measure.py; maps upsampled by nearest neighbour). Plain and SE have no spatial
map: their figure is the channel-mean activation of the last block, labelled as not attention.
Timings are wall clock: note the load average printed with the table.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.vision.measure import attention_mass
from explorer.vision.models import VARIANTS, VisionConfig
from explorer.vision.shapes import held_out
from explorer.vision.train import DEFAULTS, train_config

TARGET = 0.95


def one_run(variant: str, threads: int, seed: int, steps: int, eval_every: int, final) -> dict:
    settings = replace(
        DEFAULTS, steps=steps, seed=seed, eval_every=eval_every, snapshot_every=0, threads=threads
    )
    reached: list[float] = []
    started = time.perf_counter()

    def watch(p) -> None:
        if p.metrics and not reached and p.metrics["accuracy"] >= TARGET:
            reached.append(time.perf_counter() - started)

    run = train_config(VisionConfig(variant=variant), settings, on_progress=watch)
    total = time.perf_counter() - started
    accuracy, ratios = attention_mass(run.model, final)
    headline = ratios[-1]
    return {
        "variant": variant,
        "threads": threads,
        "seed": seed,
        "to_target": reached[0] if reached else None,
        "total": total,
        "ms_per_step": run.log.elapsed_s / steps * 1000,
        "accuracy": accuracy,
        "ratio": headline.ratio,
        "ratio_kind": f"{headline.block} {headline.kind}",
        "others": ", ".join(f"{r.block} {r.ratio:.2f}×" for r in ratios[:-1]),
    }


def table(rows: list[dict], steps: int) -> list[str]:
    head = (
        f"| variant | threads | seed | s to ≥ 95 % | ms/step | s for {steps} steps | final accuracy (1,000) "
        "| mass on object ÷ object area | what the map is | other blocks |"
    )
    lines = [head, "|" + "---|" * 10]
    for r in rows:
        reached = f"{r['to_target']:.1f}" if r["to_target"] is not None else "not reached"
        lines.append(
            f"| {r['variant']} | {r['threads']} | {r['seed']} | {reached} | {r['ms_per_step']:.1f} | {r['total']:.1f} "
            f"| {r['accuracy']:.3f} | {r['ratio']:.2f}× | {r['ratio_kind']} | {r['others'] or '–'} |"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--threads", nargs="+", type=int, default=[1], help="thread counts for every variant")
    parser.add_argument("--cbam-threads", nargs="+", type=int, default=[1, 2], help="thread counts for cbam")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--markdown", default=None, help="also write the table to this file")
    args = parser.parse_args()

    final = held_out(1000, start=500)  # not the 500 the runs evaluate on
    load_before = os.getloadavg()
    rows = []
    for variant in args.variants:
        for threads in args.cbam_threads if variant == "cbam" else args.threads:
            for seed in args.seeds:
                rows.append(one_run(variant, threads, seed, args.steps, args.eval_every, final))
                print(f"  done: {variant}, {threads} thread(s), seed {seed}", file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    machine = (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"torch {torch.__version__}; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )
    lines = [machine, "", *table(rows, args.steps)]
    print("\n".join(lines))
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
