"""Why attention: recipes for the length experiment, chosen on a validation set.

    python bench/why_attention_recipes.py --seeds 0 1 2 3 4 --fixed-lr 1 2     # the fixed C alone
    python bench/why_attention_recipes.py --models attention --hold 0.1 --short-share 0.2

Each model is trained alone, which gives exactly its numbers beside the other (the same
start and the same batches: explorer.seq2seq.sequence_train), so a recipe that changes only
one model's training is measured on that model alone. A recipe is judged on a *validation*
set: held-out sentences drawn with another seed than the evaluation set's, without any of the
evaluation set's sentences, 20 per clause count 1–10. The evaluation set's numbers (what the
figure and bench/why_attention.py report) are printed beside them, never used to choose.

"CPU s" is the model's training steps only (thread CPU time, one torch thread); the load
average is printed beside every row.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import numpy as np

from explorer.seq2seq.length_curve import CLAUSE_COUNTS, EVAL_SEED, evaluation_pairs, length_curve
from explorer.seq2seq.sequence_eval import predict
from explorer.seq2seq.sequence_train import (
    EVAL_BATCH,
    LENGTH_EXPERIMENT_LR_FACTORS,
    LENGTH_EXPERIMENT_STEPS,
    SequenceTrainOptions,
    train_sequence_models,
)
from explorer.seq2seq.tasks import get_task

VALIDATION_SEED = EVAL_SEED + 1


def validation_pairs(task, per_group: int = 20):
    """Held-out sentences of every clause count, none of them in the evaluation set."""
    test = {tuple(p.source) for p in evaluation_pairs(task, per_group)}
    rng = np.random.default_rng(VALIDATION_SEED)
    kept = []
    for clauses in CLAUSE_COUNTS:
        fresh = [p for p in task.held_out(rng, 3 * per_group, clauses) if tuple(p.source) not in test]
        kept += fresh[:per_group]
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["no-attention"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--steps", type=int, default=LENGTH_EXPERIMENT_STEPS)
    parser.add_argument("--hold", type=float, nargs="+", default=[None])
    parser.add_argument("--short-share", type=float, nargs="+", default=[None])
    shipped_factor = dict(LENGTH_EXPERIMENT_LR_FACTORS).get("no-attention", 1.0)
    parser.add_argument(
        "--fixed-lr", type=float, nargs="+", default=[shipped_factor], help="the fixed C's lr factor"
    )
    args = parser.parse_args()
    base = get_task("compound-fr")
    validation = validation_pairs(base)
    test = evaluation_pairs(base, 20)
    print(f"load average at start: {os.getloadavg()[0]:.2f}; validation {len(validation)}, test {len(test)}")
    print(
        "| model | hold | short share | fixed-C lr × | seed | CPU s | validation ≤ 8 / ≥ 40 (per-word) "
        "| evaluation set ≤ 8 / ≥ 40 | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for hold, share, factor, seed in itertools.product(
        args.hold, args.short_share, args.fixed_lr, args.seeds
    ):
        changes = {k: v for k, v in (("hold", hold), ("short_share", share)) if v is not None}
        task = dataclasses.replace(base, curriculum=dataclasses.replace(base.curriculum, **changes))
        options = SequenceTrainOptions(device="cpu", eval_every=args.steps, eval_per_group=1,
                                       lr_factors=(("no-attention", factor),))  # fmt: skip
        for name in args.models:
            before = os.getloadavg()[0]
            result = train_sequence_models((name,), task, args.steps, seed, options=options)
            model, vocab = result.models[name], result.specs[name].vocab
            v = length_curve(predict(model, validation, vocab, EVAL_BATCH), name)
            t = length_curve(predict(model, test, vocab, EVAL_BATCH), name)
            print(
                f"| {name} | {task.curriculum.hold} | {task.curriculum.short_share} | {factor} | {seed} "
                f"| {result.cpu_seconds[name]:.1f} | {v.short.word_accuracy:.3f} / {v.long.word_accuracy:.3f} "
                f"| {t.short.word_accuracy:.3f} / {t.long.word_accuracy:.3f} "
                f"| {before:.1f} → {os.getloadavg()[0]:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
