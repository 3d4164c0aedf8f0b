"""Language-model lab: when the induction heads form, with and without MLPs, and what ablating them does.

    python bench/lm_lab.py                          # the shipped recipe, seeds 0-4
    python bench/lm_lab.py --variants attn mlp tied gpt2-init --seeds 0 1 2
    python bench/lm_lab.py --ablate resources/lm/induction    # the shipped checkpoint's heads, one by one
    python bench/lm_lab.py --text --variants mlp attn --seeds 0 --steps 1500   # the text task and its baselines

Training runs ``explorer.lm.train.train_lm`` (the code of ``python -m explorer train --model
gpt``), one torch thread on the CPU, evaluating the probe (16 rows of 24 random tokens repeated
once) every 25 steps. "to 0.5" is the first evaluation at which the best layer-2 head's
induction score reaches 0.5: its step, the process's CPU seconds and the wall seconds since
training began (both include the evaluations a window would run too). The phase change is
where the repeated-half loss falls fastest. CPU seconds are less disturbed by other work than
wall seconds; the load average is printed with the table.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dataclasses import replace

from explorer.lm import ablation, tasks
from explorer.lm.folders import load_folder
from explorer.lm.measures import probe_measures
from explorer.lm.train import DEFAULTS, LMSpec, probe_for, train_lm

# name: what it changes of the LMSpec (mlp, tie, init, dropout) and of the task's options (lr)
VARIANTS = {
    # The task's own learning rate (induction 3e-3, text 1e-3) unless the name says another.
    "attn": {"mlp": False},  # attention-only: zero, frozen MLPs (the induction checkpoint's recipe)
    "mlp": {"mlp": True},  # trained MLPs (the text checkpoint's recipe)
    "attn-lr1e-3": {"mlp": False, "lr": 1e-3},
    "attn-lr2e-3": {"mlp": False, "lr": 2e-3},
    "mlp-lr2e-3": {"mlp": True, "lr": 2e-3},
    "mlp-lr5e-4": {"mlp": True, "lr": 5e-4},
    "mlp-drop0.1": {"mlp": True, "dropout": 0.1},
    "mlp-drop0.2": {"mlp": True, "dropout": 0.2},
    "tied": {"mlp": False, "tie": True},  # the LM head is wte, as in GPT-2's own models
    "gpt2-init": {"mlp": False, "init": "gpt2"},  # N(0, 0.02) instead of torch's defaults
}
TARGET = 0.5


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def recipe(task: str, variant: str, steps: int, seed: int, **options) -> tuple[LMSpec, object]:
    """The variant's LMSpec and TrainOptions for the task (on the CPU)."""
    changes = dict(VARIANTS[variant])
    lr = changes.pop("lr", DEFAULTS[task].learning_rate)
    chosen = replace(DEFAULTS[task], steps=steps, seed=seed, learning_rate=lr, device="cpu", **options)
    return LMSpec(task, **changes), chosen


def run(variant: str, seed: int, steps: int) -> dict:
    spec, options = recipe("induction", variant, steps, seed)
    cpu0 = time.process_time()
    seen: list[tuple[int, float, float, dict]] = []

    def watch(p) -> None:
        if p.metrics:
            seen.append((p.step, time.process_time() - cpu0, p.elapsed_s, p.metrics))

    result = train_lm(spec, options, watch)
    reached = next(((s, c, w) for s, c, w, m in seen if m["best_induction"] >= TARGET), None)
    last = seen[-1][3]
    return {
        "variant": variant,
        "seed": seed,
        "step05": reached[0] if reached else None,
        "cpu05": reached[1] if reached else None,
        "wall05": reached[2] if reached else None,
        "phase": result.phase_change_step,
        "ind": last["best_induction"],
        "prev": last["best_previous_token"],
        "rep": last["repeated_half_loss"],
        "first": last["first_half_loss"],
        "ms": 1e3 * (time.process_time() - cpu0) / steps,
    }


def table(rows: list[dict]) -> None:
    print(
        f"load average {load()}; torch {torch.__version__}, {platform.processor() or platform.machine()}, 1 thread"
    )
    print(f"{'variant':<13} {'seed':>4} {'to 0.5: step':>12} {'CPU s':>6} {'wall s':>6} {'phase':>6} "
          f"{'ind':>5} {'prev':>5} {'rep loss':>8} {'1st loss':>8} {'CPU ms/step':>11}")  # fmt: skip
    for r in rows:
        f = lambda v, spec: "-" if v is None else format(v, spec)  # noqa: E731
        print(
            f"{r['variant']:<13} {r['seed']:>4} {f(r['step05'], 'd'):>12} {f(r['cpu05'], '.1f'):>6} "
            f"{f(r['wall05'], '.1f'):>6} {f(r['phase'], 'd'):>6} {r['ind']:5.2f} {r['prev']:5.2f} "
            f"{r['rep']:8.3f} {r['first']:8.3f} {r['ms']:11.1f}"
        )


def ablate(folder: str) -> None:
    loaded = load_folder(folder)
    period = LMSpec().probe_period
    model, probe = loaded.model, probe_for(loaded.vocab, 16, period)
    base = probe_measures(model, probe, period)
    print(
        f"{folder}: repeated-half loss {base.repeated_half_loss:.3f}, first half {base.first_half_loss:.3f}"
    )
    print(
        f"  induction heads {base.scores.induction_heads}, previous-token heads {base.scores.previous_token_heads}"
    )
    for row in ablation.ablation_table(model, probe, period):
        print(
            f"  off {row.label:<28} repeated-half loss {row.repeated_half_loss:6.3f}  change {row.change:+6.3f}"
        )


def text(variants: list[str], seeds: list[int], steps: int) -> None:
    """The text task: held-out loss over training beside the baselines, and what the heads show."""
    c = tasks.corpus()
    bigram, alpha = tasks.best_bigram_loss(c.train, c.held_out, len(c.vocab))
    unigram = tasks.unigram_loss(c.train, c.held_out, len(c.vocab))
    print(
        f"text: {len(c.train_text)} training, {len(c.held_out_text)} held-out characters, vocabulary {len(c.vocab)}"
    )
    print(f"  uniform {tasks.uniform_loss(len(c.vocab)):.3f}  unigram {unigram:.3f}  "
          f"bigram {bigram:.3f} (α {alpha:.3g}, the best for the held-out text)")  # fmt: skip
    print(f"{'variant':<13} {'seed':>4} {'step':>5} {'CPU s':>6} {'train loss':>10} {'held-out':>8} {'- bigram':>8} "
          f"{'ind':>5} {'prev':>5}")  # fmt: skip
    for variant in variants:
        for seed in seeds:
            cpu0 = time.process_time()

            def watch(p, variant=variant, seed=seed, cpu0=cpu0) -> None:
                if p.metrics:
                    m = p.metrics
                    print(f"{variant:<13} {seed:>4} {p.step:>5} {time.process_time() - cpu0:6.1f} {p.loss:10.3f} "
                          f"{m['held_out_loss']:8.3f} {m['held_out_loss'] - bigram:+8.3f} {m['best_induction']:5.2f} "
                          f"{m['best_previous_token']:5.2f}", flush=True)  # fmt: skip

            train_lm(*recipe("text", variant, steps, seed, eval_every=100), watch)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["attn"], choices=sorted(VARIANTS))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--steps", type=int, default=700)
    parser.add_argument("--ablate", default=None, help="a folder: ablate its heads one by one")
    parser.add_argument("--text", action="store_true", help="the text task's baselines")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.ablate:
        ablate(args.ablate)
        return 0
    if args.text:
        text(args.variants, args.seeds, args.steps)
        return 0
    rows = []
    for variant in args.variants:
        for seed in args.seeds:
            rows.append(run(variant, seed, args.steps))
            print(rows[-1], flush=True)
    table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
