"""``python -m explorer train --model gpt --task induction|text --steps N --seed S --out DIR``.

Trains the lab's GPT from scratch and writes a GPT-2 folder (config.json, model.safetensors,
tokenizer.json) into DIR, with what it learned in config.json's "attention_explorer" record.
Bad input exits with status 2 and one ``error: ...`` line (explorer.failing.fail); a cancelled
training (Ctrl-C) writes nothing and exits 130.
"""

from __future__ import annotations

import platform
import shlex
import signal
import sys
import threading
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.failing import Parser, check_out_folder, fail
from explorer.lab.command import (
    EXIT_CANCELLED,
    EXIT_HELP,
    check_learning_rate,
    check_seed,
    diverged,
    refuse_divergence,
)

if TYPE_CHECKING:
    from explorer.lm.train import LMTrainResult
    from explorer.training import Progress

MLP_CHOICES = {"task": None, "on": True, "off": False}


def say(line: str) -> None:
    if sys.stdout is not None:
        print(line, flush=True)


def train_main(argv: list[str]) -> int:
    from explorer.lm.train import TASKS

    parser = Parser(
        prog="python -m explorer train --model gpt",
        description="Train the lab's tiny GPT-2.",
        epilog=EXIT_HELP,
    )
    parser.add_argument("--model", choices=("gpt",), required=True)
    parser.add_argument("--task", choices=TASKS, required=True)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", required=True, help="folder for config.json, model.safetensors, tokenizer.json"
    )
    parser.add_argument(
        "--mlp", choices=tuple(MLP_CHOICES), default="task", help="task: induction off, text on"
    )
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument(
        "--lr", type=float, default=None, help="Adam's learning rate (induction 2e-3, text 1e-3)"
    )
    parser.add_argument("--eval-every", type=int, default=None, help="induction 25, text 50")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (1 is fastest here)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        fail(f"--out {args.out}: it is a file; give a folder")
    check_out_folder(args.out)  # the folder itself may be new, not its parents
    # explorer.lab.TrainOptions' limits, as one line here instead of its ValueError's traceback
    for name, most in (
        ("steps", 1_000_000),
        ("batch_size", 4096),
        ("eval_every", 1_000_000),
        ("threads", 256),
    ):
        value = getattr(args, name)
        if value is not None and value < 1:
            fail(f"--{name.replace('_', '-')} must be 1 or more, not {value}")
        if value is not None and value > most:
            fail(f"--{name.replace('_', '-')} must be at most {most}, not {value}")
    check_seed(args.seed)
    check_learning_rate(args.lr)

    import torch

    from explorer.lm.errors import LMError
    from explorer.lm.folders import save_folder
    from explorer.lm.report import finite, model_report
    from explorer.lm.train import DEFAULTS, LMSpec, train_lm
    from explorer.training import TrainingCancelled

    spec = LMSpec(args.task, mlp=MLP_CHOICES[args.mlp])
    task_options = DEFAULTS[args.task]
    options = replace(
        task_options,
        steps=args.steps,
        seed=args.seed,
        batch_size=args.batch_size,
        learning_rate=task_options.learning_rate if args.lr is None else args.lr,
        eval_every=args.eval_every or task_options.eval_every,
        threads=args.threads,
        device=args.device,
    )
    stop = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())  # finish the step, then stop
    window: list[float] = []

    def show(p: Progress) -> None:
        window.append(p.loss)
        if p.metrics:
            m = p.metrics
            say(
                f"step {p.step:>6}/{p.total_steps}  loss {sum(window) / len(window):.4f}  "
                f"probe: first half {m['first_half_loss']:.3f}, repeated half {m['repeated_half_loss']:.3f}, "
                f"best induction {m['best_induction']:.2f}, best previous-token {m['best_previous_token']:.2f}"
                + (f"  held-out {m['held_out_loss']:.3f}" if "held_out_loss" in m else "")
                + f"  {p.elapsed_s:6.1f} s"
            )
            window.clear()

    say(
        f"training gpt on {args.task}: {args.steps} steps, seed {args.seed}, batch {args.batch_size}, {args.threads} thread(s)"
    )
    try:
        result = train_lm(spec, options, show, stop.is_set)
    except TrainingCancelled as exc:
        if sys.stderr is not None:
            print(f"cancelled after {exc.log.steps_done} steps; nothing written", file=sys.stderr)
        return EXIT_CANCELLED
    except LMError as exc:
        if exc.message is not None and exc.message.key == "lm.loss_not_finite":  # diverged, not bad input
            diverged(f"{exc}; nothing written (try a lower --lr)")
        fail(str(exc))
    finally:
        signal.signal(signal.SIGINT, previous)
    for notice in result.notices:
        say(f"note: {notice}")
    refuse_divergence(result.log.losses)
    report = model_report(
        result.model.to("cpu"), result.vocab, args.task, options.eval_size, spec.probe_period
    )
    if not finite(report) or not all(map(_finite, result.log.losses)):
        fail("training ended with numbers that are not finite; nothing written (try a lower --lr)")
    record = {
        "task": args.task,
        "command": "python -m explorer train " + shlex.join(argv),
        "seed": args.seed,
        "steps": args.steps,
        "options": {**asdict(options), **spec.to_dict(), "mlp": result.config.mlp},
        "device": result.device,
        "seconds": round(result.log.elapsed_s, 1),
        "final_loss": result.log.losses[-1],
        "phase_change_step": result.phase_change_step,
        "report": report,
        "torch": torch.__version__,
        "python": platform.python_version(),
    }
    try:
        folder = save_folder(args.out, result.model, result.vocab, record)
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
    say(_summary(folder, report, result))
    return 0


def _finite(x: float) -> bool:
    return x == x and abs(x) != float("inf")


def _summary(folder: Path, report: dict[str, Any], result: LMTrainResult) -> str:
    lines = [
        f"{folder}: gpt on {result.task}, {result.log.steps_done} steps in {result.log.elapsed_s:.1f} s on {result.device}",
        f"  probe: first-half loss {report['first_half_loss']:.3f}, repeated-half loss {report['repeated_half_loss']:.3f}",
        f"  induction heads {_heads(report['induction_heads'])}, previous-token heads {_heads(report['previous_token_heads'])}",
        f"  phase change at step {result.phase_change_step}"
        if result.phase_change_step
        else "  no phase change",
    ]
    for name, row in report["ablation"].items():
        lines.append(f"  off {name} ({_heads(row['heads'])}): repeated-half loss {_change(row['change'])}")
    if "text" in report:
        t = report["text"]
        lines.append(
            f"  held-out loss {t['held_out_loss']:.3f} (bigram {t['bigram_held_out_loss']:.3f}), training text {t['train_loss']:.3f}"
        )
    return "\n".join(lines)


def _change(change: float) -> str:
    """A change of loss in words: a bare "-1.526" reads like a negative loss."""
    if change == 0:
        return "unchanged"
    return f"{'rose' if change > 0 else 'fell'} by {abs(change):.3f}"


def _heads(heads: list[list[int]]) -> str:
    return ", ".join(f"{layer}.{head}" for layer, head in heads) or "none"
