"""Global and local attention on copy-twice: does the window follow the alignment, how accurate
is each model at lengths ≤ 30, and how long does training take on one CPU thread?

    python bench/local_attention.py                          # the default rows (below)
    python bench/local_attention.py --steps 600 --rows local-p:3 local-p-ours:3
    python bench/local_attention.py --task reorder-zh --steps 1500   # the grammar into Chinese: words move
    python bench/local_attention.py --task reorder-zh --steps 1500 --save resources/seq2seq
    python bench/local_attention.py --device cuda            # where a GPU is lent
    python bench/local_attention.py --save resources/seq2seq # also write each D = 3 model's checkpoint
                                                             # (the shipped <task>-<model> folders,
                                                             # written by ``python -m explorer train
                                                             # … --float16``, float16 weights)

Each row trains one model alone with the command's code (``python -m explorer train --model …``:
explorer.seq2seq.sequence_train, seed 0, batch 32, Adam 4e-3, hidden 48) for ``--steps`` steps,
then scores 20 held-out strings of each length 5, 10, … 30 (reorder-zh: 40 sentences of 1, 2
and 3 held-out clauses) (explorer.seq2seq.local_eval):
exact match and word accuracy of greedy decoding, and — on the true translation — the share
of output steps whose p_t is within 1 position of the source word they copy, and the mean
distance. "train s" is the training steps' CPU time (thread time, evaluations left out),
"wall s" the wall clock of the whole run. Printed with the load average: run it on a quiet
machine for timings; the accuracy numbers do not depend on the load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.seq2seq.local_eval import window_report
from explorer.seq2seq.local_lab import window_pairs
from explorer.seq2seq.local_tasks import WINDOW_GROUPS
from explorer.seq2seq.sequence_train import SequenceTrainOptions, train_sequence_models
from explorer.seq2seq.tasks import get_task

ROWS = ("global:3", "local-p-ours:3", "local-m:3", "local-p:3", "local-p:8")
LENGTHS = (5, 10, 15, 20, 25, 30)
PER_LENGTH = 20
EVAL_SEED = 2


def held_out(task_name: str):
    task = get_task(task_name)
    rng = np.random.default_rng(EVAL_SEED)
    if task.kind == "copy":
        return [pair for n in LENGTHS for pair in task.held_out(rng, PER_LENGTH, n)]
    if task_name in WINDOW_GROUPS:  # clause counts
        groups = WINDOW_GROUPS[task_name]
        return window_pairs(task_name, PER_LENGTH * len(LENGTHS) // len(groups))
    return task.held_out(rng, PER_LENGTH * len(LENGTHS), 1)


def train_shipped(folder: Path, task: str, model: str, window: int, steps: int, device: str):
    """The shipped checkpoint, written by the command itself (float16 weights); (module, record)."""
    from explorer.seq2seq.local_cli import train_main
    from explorer.seq2seq.sequence_checkpoints import load_sequence_checkpoint

    argv = ["--model", model, "--task", task, "--steps", str(steps), "--seed", "0", "--window", str(window)]
    argv += ["--device", device, "--eval-every", str(10 * steps), "--float16", "--out", str(folder)]
    train_main(argv)
    return load_sequence_checkpoint(folder)


def row(task: str, model: str, window: int, steps: int, device: str, save_in: Path | None) -> dict:
    started = time.perf_counter()
    if save_in is not None and window == 3:
        module, record = train_shipped(save_in / f"{task}-{model}", task, model, window, steps, device)
        cpu_s, used = record["cpu_seconds"], record["device"]
    else:
        options = SequenceTrainOptions(eval_every=10 * steps, window=window, device=device)  # one evaluation
        result = train_sequence_models((model,), task, steps, seed=0, options=options)
        module, cpu_s, used = result.models[model], result.cpu_seconds[model], result.device
    wall = time.perf_counter() - started
    report = window_report(module, held_out(task))
    share, error = report.centre_share(), report.centre_error()
    return {
        "model": model,
        "D": window if model != "global" else "-",
        "steps": steps,
        "train s": f"{cpu_s:.1f}",
        "wall s": f"{wall:.1f}",
        "exact": f"{report.accuracy.exact_match:.3f}",
        "word acc": f"{report.accuracy.word_accuracy:.3f}",
        "p_t within 1": "-" if share is None else f"{share:.3f}",
        "mean distance of p_t": "-" if error is None else f"{error:.2f}",
        "argmax on truth": f"{report.argmax_share():.3f}",
        "device": used,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="copy-twice")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--rows", nargs="+", default=list(ROWS), help="model:D")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--save", type=Path, default=None, help="write the D = 3 models' checkpoints here")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    rows = []
    for spec in args.rows:
        model, _, window = spec.partition(":")
        rows.append(row(args.task, model, int(window or 3), args.steps, args.device, args.save))
        print(rows[-1], file=sys.stderr, flush=True)
        print(f"done {spec}", file=sys.stderr, flush=True)
    keys = list(rows[0])
    groups = (
        "clause counts 1–3"
        if args.task in WINDOW_GROUPS and get_task(args.task).kind != "copy"
        else (f"lengths {LENGTHS[0]}–{LENGTHS[-1]} × {PER_LENGTH}")
    )
    print(f"task {args.task}, seed 0, held-out {groups}")
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(str(r[k]) for k in keys) + " |")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, torch threads 1")


if __name__ == "__main__":
    main()
