"""Translation lab: time from scratch to 95 % held-out exact match, and translate latency.

    python bench/seq2seq_train.py                 # bahdanau-additive, luong-general, transformer
    python bench/seq2seq_train.py --all           # every (model, scoring) the lab ships
    python bench/seq2seq_train.py --threads 1 2 --models bahdanau   # compare torch CPU threads

Training runs the same code as ``python -m explorer train`` (seed 0, batch 128, Adam 3e-3),
evaluating 400 held-out dates (50 per format) every ``--eval-every`` steps. "train s" leaves
the evaluations out (they exist only to find the moment 95 % is reached); "wall s" keeps them.
Timings are wall clock: run it on an idle machine. The load average is printed with the table.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.seq2seq.dates import EXAMPLE_DATE, render
from explorer.seq2seq.spec import DEFAULT_SCORING, GRU_MODELS, SCORINGS
from explorer.seq2seq.train import DEFAULTS, alignment_at, train_model
from explorer.seq2seq.translate import load_model, trace_translation

TARGET = 0.95
DEFAULT_STEPS = {"bahdanau": 300, "luong": 300, "transformer": 600}


def train_row(model: str, scoring: str, steps: int, threads: int, eval_every: int) -> dict:
    evals = []
    options = replace(DEFAULTS, threads=threads, eval_every=eval_every, snapshot_every=0, device="cpu")
    train_model(
        model, scoring, steps, 0, lambda p: p.exact_match is not None and evals.append(p), options=options
    )
    reached = None
    for p in evals:
        if reached is None and p.exact_match >= TARGET:
            reached = (p.step, p.train_s, p.elapsed_s)  # the training clock leaves evaluations out
    last = evals[-1]
    train_s = last.train_s
    return {
        "model": model,
        "scoring": scoring,
        "threads": threads,
        "steps": steps,
        "step95": reached[0] if reached else None,
        "train95": reached[1] if reached else None,
        "wall95": reached[2] if reached else None,
        "exact": last.exact_match,
        "align": last.metrics["alignment_score"],
        "ms_step": 1e3 * train_s / steps,
    }


def latency(repeat: int) -> list[tuple]:
    longest = render(EXAMPLE_DATE.replace(month=9, day=26), "weekday_long").source  # 27 characters
    texts = [longest, "Wednesday 26 September 2018 at noon"[:30], "9" * 40]
    rows = []
    for model in ("bahdanau", "luong", "transformer"):
        module, spec, _ = load_model(model, DEFAULT_SCORING[model])
        for text in texts:
            trace_translation(module, spec, text)  # warm up
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                trace_translation(module, spec, text).to_dict()
                times.append((time.perf_counter() - start) * 1e3)
            times.sort()
            rows.append((spec.name, len(text), statistics.median(times), times[int(0.95 * (len(times) - 1))]))
    return rows


def scrubber(repeat: int) -> list[tuple]:
    """alignment_at: a training snapshot's parameters loaded and the text translated."""
    rows = []
    text = render(EXAMPLE_DATE, "zh_numerals").source
    for model in ("bahdanau", "luong", "transformer"):
        options = replace(DEFAULTS, eval_every=1000, eval_size=1, snapshot_every=5, device="cpu")
        result = train_model(model, None, 10, 0, options=options)
        snapshots = result.log.snapshots
        alignment_at(result.spec, snapshots[0], text)  # warm up (builds the scratch model)
        times = []
        for i in range(repeat):
            start = time.perf_counter()
            alignment_at(result.spec, snapshots[i % len(snapshots)], text)
            times.append((time.perf_counter() - start) * 1e3)
        times.sort()
        rows.append((result.spec.name, statistics.median(times), times[int(0.95 * (len(times) - 1))]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--all", action="store_true", help="every GRU scoring too")
    parser.add_argument("--models", nargs="+", default=None, help="e.g. bahdanau luong:dot transformer")
    parser.add_argument("--threads", type=int, nargs="+", default=[1])
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--steps", type=int, default=None, help="override the steps of every model")
    parser.add_argument("--repeat", type=int, default=50, help="translate calls per latency row")
    parser.add_argument("--no-train", action="store_true", help="only the translate latency")
    args = parser.parse_args()
    pairs = [(m, DEFAULT_SCORING[m]) for m in ("bahdanau", "luong", "transformer")]
    if args.all:
        pairs = [(m, s) for m in GRU_MODELS for s in SCORINGS] + [("transformer", "scaled-dot")]
    if args.models:
        pairs = [(m, s or DEFAULT_SCORING[m]) for m, _, s in (name.partition(":") for name in args.models)]
    print(
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, torch {torch.__version__}; load average at start "
        f"{os.getloadavg()[0]:.2f}"
    )
    if not args.no_train:
        print(f"\nFrom scratch to {TARGET:.0%} held-out exact match (400 held-out dates, seed 0, batch 128)")
        header = f"{'model':<12} {'scoring':<11} {'threads':>7} {'steps':>6} {'step@95%':>8} {'train s':>8} {'wall s':>7} {'final EM':>8} {'align':>6} {'ms/step':>8}"
        print(header)
        for model, scoring in pairs:
            for threads in args.threads:
                r = train_row(model, scoring, args.steps or DEFAULT_STEPS[model], threads, args.eval_every)
                fmt = lambda x, spec: "never" if x is None else format(x, spec)  # noqa: E731
                print(
                    f"{r['model']:<12} {r['scoring']:<11} {r['threads']:>7} {r['steps']:>6} "
                    f"{fmt(r['step95'], 'd'):>8} {fmt(r['train95'], '.1f'):>8} {fmt(r['wall95'], '.1f'):>7} "
                    f"{r['exact']:>8.3f} {r['align']:>6.3f} {r['ms_step']:>8.1f}",
                    flush=True,
                )
    print(f"\ntranslate after the model is loaded (trace + to_dict), median of {args.repeat}, 1 thread")
    print(f"{'model':<24} {'characters':>10} {'median ms':>10} {'p95 ms':>8}")
    for name, n, median, p95 in latency(args.repeat):
        print(f"{name:<24} {n:>10} {median:>10.2f} {p95:>8.2f}")
    print(f"\nalignment_at(spec, snapshot, '{render(EXAMPLE_DATE, 'zh_numerals').source}'), the scrubber")
    print(f"{'model':<24} {'median ms':>10} {'p95 ms':>8}")
    for name, median, p95 in scrubber(args.repeat):
        print(f"{name:<24} {median:>10.2f} {p95:>8.2f}")
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
