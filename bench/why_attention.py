"""Why attention, measured: the length experiment over seeds, and the sentence models.

    python bench/why_attention.py                     # both parts, seeds 0–4
    python bench/why_attention.py --part length --seeds 0 1 2
    python bench/why_attention.py --part sentences --json out.json
    python bench/why_attention.py --part length --hold 0.1 --short-share 0.2   # another curriculum

Length: the no-attention and the attention model trained side by side on compound-fr (the
``length-curve`` command's defaults: same batches, same steps, same seed, one torch thread),
then per-word accuracy and exact match on held-out sentences of ≤ 8 and ≥ 40 words. "CPU s"
is each model's training steps only (thread CPU time; evaluations left out); the fixed C
learns at its own rate (``--fixed-lr``, default the experiment's: twice). The lesson's
claim holds for a seed when attention ≥ 0.8 and no-attention ≤ 0.4 at ≥ 40 words, and both
≥ 0.9 at ≤ 8 words. ``--hold`` / ``--short-share`` / ``--ramp`` try another curriculum
(explorer.seq2seq.tasks.Curriculum) than the task's own, the shipped one.

Sentences: each model trained alone on single sentences (``train --task sentences-fr|zh``'s
defaults), then held-out exact match, per-word accuracy and alignment score on 200 sentences.

CPU seconds are less inflated than wall seconds on a busy machine, but still inflated: the
load average is printed beside every row.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.seq2seq.length_curve import evaluation_pairs
from explorer.seq2seq.sequence_eval import predict
from explorer.seq2seq.sequence_lab import EXPERIMENT
from explorer.seq2seq.sequence_train import (
    LENGTH_EXPERIMENT_STEPS,
    SENTENCE_STEPS,
    SequenceTrainOptions,
    train_sequence_models,
)
from explorer.seq2seq.tasks import get_task

MODELS = ("no-attention", "attention")


def load() -> float:
    return os.getloadavg()[0]


def passes(curves) -> bool:
    att, fixed = curves["attention"], curves["no-attention"]
    return (
        att.long.word_accuracy >= 0.8
        and fixed.long.word_accuracy <= 0.4
        and att.short.word_accuracy >= 0.9
        and fixed.short.word_accuracy >= 0.9
    )


def length_rows(
    seeds, steps: int, device: str, curriculum: dict | None = None, lr_factors=EXPERIMENT.lr_factors
) -> list[dict]:
    rows = []
    task = get_task("compound-fr")
    if curriculum:
        task = dataclasses.replace(task, curriculum=dataclasses.replace(task.curriculum, **curriculum))
    print(f"curriculum: {task.curriculum}; learning-rate factors: {lr_factors or 'none'}")
    for seed in seeds:
        before, started = load(), time.perf_counter()
        options = dataclasses.replace(EXPERIMENT, device=device, lr_factors=lr_factors)
        result = train_sequence_models(MODELS, task, steps, seed, options=options)
        curves = result.final_curves
        row = {
            "seed": seed,
            "steps": steps,
            "wall_s": time.perf_counter() - started,
            "eval_s": result.eval_seconds,
        }
        row["load"] = (before, load())
        for name in MODELS:
            c = curves[name]
            row[name] = {
                "parameters": result.parameters[name],
                "cpu_s": result.cpu_seconds[name],
                "short_word": c.short.word_accuracy,
                "short_exact": c.short.exact_match,
                "long_word": c.long.word_accuracy,
                "long_exact": c.long.exact_match,
                "curve": list(zip(c.lengths, c.word_accuracy)),
            }
        row["passes"] = passes(curves)
        rows.append(row)
        print_length([row], header=not rows[:-1])
    return rows


def print_length(rows, header: bool = True) -> None:
    if header:
        print(
            "| seed | model | parameters | CPU s | ≤ 8 words: per-word / exact | ≥ 40 words: per-word / exact "
            "| parts as the lesson says | load |"
        )
        print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        for name in MODELS:
            m = row[name]
            print(
                f"| {row['seed']} | {name} | {m['parameters']:,} | {m['cpu_s']:.1f} | "
                f"{m['short_word']:.3f} / {m['short_exact']:.2f} | {m['long_word']:.3f} / {m['long_exact']:.2f} | "
                f"{'yes' if row['passes'] else 'NO'} | {row['load'][0]:.1f} → {row['load'][1]:.1f} |",
                flush=True,
            )


def sentence_rows(seed: int, device: str) -> list[dict]:
    rows = []
    for task in ("sentences-fr", "sentences-zh"):
        for name in MODELS:
            before = load()
            result = train_sequence_models(
                (name,), task, SENTENCE_STEPS, seed, options=SequenceTrainOptions(device=device)
            )
            model = result.models[name]
            report = predict(model, evaluation_pairs(result.task, 200, seed=1), model.spec.vocab)
            score = report.alignment_score()
            rows.append(
                {"task": task, "model": name, "steps": SENTENCE_STEPS, "cpu_s": result.cpu_seconds[name],
                 "exact": report.exact_match, "word": report.word_accuracy, "alignment": score,
                 "parameters": result.parameters[name], "load": (before, load())}
            )  # fmt: skip
            r = rows[-1]
            if len(rows) == 1:
                print(
                    "| task | model | steps | CPU s | held-out exact match | per-word | alignment score | load |"
                )
                print("|---|---|---|---|---|---|---|---|")
            aligned = "n/a (no attention)" if score is None else f"{score:.3f}"
            print(
                f"| {task} | {name} | {r['steps']} | {r['cpu_s']:.1f} | {r['exact']:.3f} | {r['word']:.3f} | "
                f"{aligned} | {r['load'][0]:.1f} → {r['load'][1]:.1f} |",
                flush=True,
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("length", "sentences", "all"), default="all")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--steps", type=int, default=LENGTH_EXPERIMENT_STEPS)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--json", default=None, help="also write every number here")
    parser.add_argument("--hold", type=float, help="share of training kept at one clause first")
    parser.add_argument("--short-share", type=float, help="share of batches kept at one clause")
    parser.add_argument("--ramp", type=float, help="share of training over which the clauses grow")
    parser.add_argument(
        "--fixed-lr", type=float, help="the fixed C's learning rate as a multiple of the attention model's"
    )
    args = parser.parse_args()
    print(f"load average at start: {load():.2f}, {os.cpu_count()} CPUs")
    out = {}
    if args.part in ("sentences", "all"):
        out["sentences"] = sentence_rows(0, args.device)
        print()
    if args.part in ("length", "all"):
        chosen = {"hold": args.hold, "short_share": args.short_share, "ramp": args.ramp}
        curriculum = {k: v for k, v in chosen.items() if v is not None}
        factors = EXPERIMENT.lr_factors if args.fixed_lr is None else (("no-attention", args.fixed_lr),)
        out["length"] = length_rows(args.seeds, args.steps, args.device, curriculum, factors)
        passed = sum(r["passes"] for r in out["length"])
        print(f"\nthe curves part where the lesson says for {passed} of {len(out['length'])} seeds")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
