"""The sequence models' commands: ``train`` and ``translate`` with ``--task`` or a sequence
model, and ``length-curve``.

    train        --model no-attention|attention --task dates|sentences-fr|sentences-zh|compound-fr|compound-zh|copy
                 --steps N [--seed S] --out DIR
    translate    --task sentences-fr --source TEXT [--model attention|no-attention] [--checkpoint DIR] --out FILE.json|.npz
    length-curve [--models no-attention,attention] [--task compound-fr] [--steps N] [--seed S]
                 [--lr-factors no-attention=2] [--checkpoints DIR] [--from FILE.json | --shipped]
                 --out FILE.json|.png

Bad input exits with status 2 and one ``error: ...`` line (explorer.failing.fail); a cancelled
training (Ctrl-C) writes nothing and exits 130.
"""

from __future__ import annotations

import os
import shlex
import signal
import sys
import threading
import time

from explorer.failing import Parser, check_not_input, check_out, check_out_folder, check_out_name, fail
from explorer.finite import NotFinite
from explorer.lab.command import EXIT_CANCELLED, EXIT_HELP, check_learning_rate, check_seed, refuse_divergence
from explorer.seq2seq.length_curve import LONG as LONG_WORDS
from explorer.seq2seq.length_curve import SHORT as SHORT_WORDS
from explorer.seq2seq.spec import MODELS as DATE_MODELS
from explorer.seq2seq.spec import LabError

# The largest each whole-number option takes: a 30-digit --hidden crashed inside torch, a
# 30-digit --batch-size or --eval-per-group drew sentences forever.
MOST = {
    "steps": 1_000_000,
    "batch_size": 4096,
    "eval_every": 1_000_000,
    "eval_per_group": 10_000,
    "threads": 1024,
    "hidden": 4096,
    "window": 1000,
}


def say(line: str) -> None:
    if sys.stdout is not None:
        print(line, flush=True)


def sequence_models() -> tuple[str, ...]:
    from explorer.seq2seq.sequence_models import SEQUENCE_MODELS

    return tuple(SEQUENCE_MODELS)


def task_names() -> tuple[str, ...]:
    from explorer.seq2seq.tasks import TASKS

    return tuple(TASKS)


def wants_sequence(argv: list[str]) -> bool:
    """Does this ``train`` / ``translate`` command line ask for a sequence model or task?"""
    probe = Parser(add_help=False)
    probe.add_argument("--task", default=None)
    probe.add_argument("--model", default=None)
    probe.add_argument("--checkpoint", default=None)
    known, _ = probe.parse_known_args(argv)
    if known.checkpoint is not None and _is_sequence_checkpoint(known.checkpoint):
        return True
    return known.task not in (None, "dates") or known.model in sequence_models()


def _is_sequence_checkpoint(folder: str) -> bool:
    """A folder a sequence model was saved in (anything else is the date models' to judge)."""
    from explorer.seq2seq.checkpoints import read_config
    from explorer.seq2seq.sequence_checkpoints import SEQUENCE_KIND

    try:
        read_config(folder, SEQUENCE_KIND)
    except LabError:
        return False
    return True


def add_training_arguments(parser, steps_default: int | None) -> None:
    from explorer.seq2seq.sequence_train import SequenceTrainOptions

    d = SequenceTrainOptions()
    parser.add_argument("--steps", type=int, required=steps_default is None, default=steps_default)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=d.batch_size)
    parser.add_argument("--lr", type=float, default=d.lr)
    parser.add_argument("--eval-every", type=int, default=d.eval_every)
    parser.add_argument(
        "--eval-per-group", type=int, default=d.eval_per_group, help="held-out sentences per clause count"
    )
    parser.add_argument("--hidden", type=int, default=d.hidden, help="encoder GRU width per direction")
    parser.add_argument("--window", type=int, default=d.window, help="local attention's D")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (1 is fastest here)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")


def check_training_arguments(args) -> None:
    for name, most in MOST.items():
        if not 1 <= getattr(args, name) <= most:
            fail(f"--{name.replace('_', '-')} must be from 1 to {most:,}, not {getattr(args, name)}")
    check_seed(args.seed)
    check_learning_rate(args.lr)


def options_of(args):
    from explorer.seq2seq.sequence_train import SequenceTrainOptions

    return SequenceTrainOptions(
        batch_size=args.batch_size,
        lr=args.lr,
        eval_every=args.eval_every,
        eval_per_group=args.eval_per_group,
        threads=args.threads,
        device=args.device,
        hidden=args.hidden,
        window=args.window,
        lr_factors=getattr(args, "lr_factors", ()),
    )


def lr_factors_of(text: str, models: list[str]) -> tuple[tuple[str, float], ...]:
    """``no-attention=2,attention=1`` → ((model, factor), …); "" for none. Exits on bad input."""
    import math

    factors = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        model, _, number = part.partition("=")
        try:
            factor = float(number)
        except ValueError:
            factor = float("nan")
        if model not in models or not (math.isfinite(factor) and 0 < factor <= 1000):
            fail(f"--lr-factors {text!r}: write MODEL=FACTOR for models of --models, each factor above 0")
        factors.append((model, factor))
    if len({m for m, _ in factors}) != len(factors):
        fail(f"--lr-factors {text!r}: name each model once")
    return tuple(factors)


def shipped_tasks(model: str) -> list[str]:
    """The tasks a shipped checkpoint of ``model`` translates (resources/seq2seq/<task>-<model>/)."""
    from explorer.seq2seq.checkpoints import CONFIG_FILE
    from explorer.seq2seq.sequence_checkpoints import shipped_sequence_folder

    return [task for task in task_names() if (shipped_sequence_folder(task, model) / CONFIG_FILE).is_file()]


def check_shipped(model: str, task: str) -> None:
    """``translate`` without --checkpoint reads a shipped model: a task none was shipped for is
    refused by name, with how to train one (it named the missing resource folder)."""
    shipped = shipped_tasks(model)
    if task not in shipped:
        fail(
            f"no {model} model is shipped for --task {task} (shipped: {', '.join(shipped) or 'none'}); "
            f"train one with: python -m explorer train --model {model} --task {task} --steps N --out DIR, "
            "then translate --checkpoint DIR"
        )


def check_model_for_task(model: str, task: str) -> None:
    if model in DATE_MODELS and task != "dates":
        fail(
            f"--model {model} translates dates only; for --task {task} choose one of {', '.join(sequence_models())}"
        )
    if model not in sequence_models():
        fail(f"--model {model!r} is not one of {', '.join(sequence_models())}")


def run_training(models, task: str, args):
    """Train with Ctrl-C stopping between steps; prints a line per evaluation."""
    from explorer.seq2seq.sequence_train import train_sequence_models
    from explorer.training import TrainingCancelled

    stop = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())

    def show(p) -> None:
        if p.curves is None:
            return
        parts = []
        for name, curve in p.curves.items():
            overall = _overall(curve)
            parts.append(f"{name} word acc {overall[1]:.3f} exact {overall[0]:.3f}")
        say(f"step {p.step:>6}/{p.total_steps}  " + "  ".join(parts) + f"  {p.elapsed_s:6.1f} s")

    try:
        trained = train_sequence_models(
            models, task, args.steps, args.seed, show, stop.is_set, options_of(args)
        )
    except TrainingCancelled as exc:
        if sys.stderr is not None:
            print(f"cancelled after {exc.log.steps_done} steps; nothing written", file=sys.stderr)
        raise SystemExit(EXIT_CANCELLED) from None
    finally:
        signal.signal(signal.SIGINT, previous)
    for name in models:  # a diverged model is not written, nor drawn beside the others
        refuse_divergence(trained.losses[name])
    return trained


def _overall(curve) -> tuple[float, float]:
    """(exact match, per-word accuracy) over every point, weighted by the points' counts."""
    total = sum(curve.counts)
    exact = sum(e * c for e, c in zip(curve.exact_match, curve.counts)) / total
    words = sum(w * c for w, c in zip(curve.word_accuracy, curve.counts)) / total
    return exact, words


# -- train -------------------------------------------------------------------------------------
def train_main(argv: list[str]) -> int:
    parser = Parser(
        prog="python -m explorer train",
        description="Train a sequence model from scratch (every model: python -m explorer train --help).",
        epilog=EXIT_HELP,
    )
    parser.add_argument("--model", required=True, help=f"one of {', '.join(sequence_models())}")
    parser.add_argument("--task", choices=task_names(), required=True)
    parser.add_argument("--out", required=True, help="folder for model.safetensors and config.json")
    parser.add_argument("--final-eval", type=int, default=100, help="held-out pairs per group at the end")
    add_training_arguments(parser, None)
    args = parser.parse_args(argv)
    check_model_for_task(args.model, args.task)
    check_out_folder(args.out)
    check_training_arguments(args)
    if args.final_eval < 1:
        fail(f"--final-eval must be 1 or more, not {args.final_eval}")

    from explorer.seq2seq.length_curve import evaluation_pairs, length_curve
    from explorer.seq2seq.sequence_checkpoints import save_sequence_checkpoint
    from explorer.seq2seq.sequence_eval import predict

    say(f"training {args.task}-{args.model}: {args.steps} steps, seed {args.seed}, batch {args.batch_size}")
    result = run_training((args.model,), args.task, args)
    for notice in result.notices:
        say(f"note: {notice}")
    model = result.models[args.model]
    pairs = evaluation_pairs(result.task, args.final_eval, seed=1)
    report = predict(model, pairs, model.spec.vocab)
    curve = length_curve(report, args.model)
    score = report.alignment_score()
    training = {
        "command": "python -m explorer train " + shlex.join(argv),
        "seed": args.seed,
        "steps": args.steps,
        "options": result.options.record(),
        "device": result.device,
        "cpu_seconds": round(result.cpu_seconds[args.model], 2),
        "parameters": result.parameters[args.model],
        "final_loss": result.losses[args.model][-1],
        "held_out_pairs": len(pairs),
        "exact_match": report.exact_match,
        "word_accuracy": report.word_accuracy,
        "alignment_score": score,
        "length_curve": curve.to_dict(),
    }
    try:
        folder = save_sequence_checkpoint(args.out, model, training)
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
    aligned = "no attention" if score is None else f"alignment score {score:.3f}"
    say(
        f"{folder}: {model.spec.name}, {result.parameters[args.model]:,} parameters, held-out exact match "
        f"{report.exact_match:.4f}, per-word accuracy {report.word_accuracy:.4f}, {aligned}, "
        f"{result.cpu_seconds[args.model]:.1f} CPU s on {result.device}"
    )
    return 0


# -- translate ---------------------------------------------------------------------------------
def translate_main(argv: list[str]) -> int:
    parser = Parser(
        prog="python -m explorer translate",
        description="Translate a sentence with a sequence model and write every number, with the true alignment.",
    )
    parser.add_argument("--source", required=True, help="e.g. 'Jane visits Africa in September'")
    parser.add_argument("--task", choices=task_names(), default="sentences-fr")
    parser.add_argument("--model", default="attention", help=f"one of {', '.join(sequence_models())}")
    parser.add_argument("--checkpoint", default=None, help="a folder written by train (sets task and model)")
    parser.add_argument("--out", required=True, help="FILE.json or FILE.npz")
    args = parser.parse_args(argv)
    if args.checkpoint is None:
        check_model_for_task(args.model, args.task)
        check_shipped(args.model, args.task)
    from explorer.failing import check_out_file

    check_out_file(args.out)
    check_not_input(args.out, [("--checkpoint", args.checkpoint)])
    from explorer.seq2seq.sequence_trace import translate_sequence

    try:
        trace = translate_sequence(args.source, args.task, args.model, args.checkpoint)
    except (LabError, NotFinite) as exc:  # finite weights whose numbers overflow
        fail(str(exc))
    try:
        trace.save(args.out)
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
    for notice in trace.notices:
        say(f"note: {notice}")
    score = "n/a (no attention)" if not trace.has_attention else "n/a"
    if trace.alignment_score is not None:
        score = f"{trace.alignment_score:.2f}"
    truth = (
        ""
        if trace.exact is None
        else (" (the true translation)" if trace.exact else f" (true: {trace.expected})")
    )
    say(
        f"{args.out}: {trace.source!r} → {trace.output!r}{truth} ({trace.task}-{trace.model}, "
        f"{trace.parameters:,} parameters), alignment score {score}, {trace.timings_ms['translate']:.1f} ms"
    )
    return 0


# -- length-curve ------------------------------------------------------------------------------
def length_curve_main(argv: list[str]) -> int:
    from explorer.seq2seq.sequence_train import LENGTH_EXPERIMENT_LR_FACTORS, LENGTH_EXPERIMENT_STEPS

    parser = Parser(
        prog="python -m explorer length-curve",
        description="Train models side by side on sentences of every length and write accuracy against length.",
    )
    parser.add_argument(
        "--models", default="no-attention,attention", help="comma-separated, e.g. no-attention,attention"
    )
    parser.add_argument("--task", choices=task_names(), default="compound-fr")
    parser.add_argument(
        "--out", required=True, help="FILE.json (the numbers) or FILE.png (the figure, numbers inside)"
    )
    parser.add_argument("--checkpoints", default=None, help="also save each model to DIR/<task>-<model>/")
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--from", dest="from_file", default=None, help="draw a result written before, no training"
    )
    source.add_argument("--shipped", action="store_true", help="draw the shipped result, no training")
    add_training_arguments(parser, LENGTH_EXPERIMENT_STEPS)
    parser.add_argument(
        "--lr-factors",
        default=None,
        help="a model's own learning rate as a multiple of --lr ('' for none; default: "
        + ",".join(f"{m}={f:g}" for m, f in LENGTH_EXPERIMENT_LR_FACTORS)
        + " for the models trained)",
    )
    args = parser.parse_args(argv)
    check_out_name(args.out, (".json", ".png"))
    check_out(args.out)
    check_not_input(args.out, [("--from", args.from_file)])
    models = [m.strip() for m in args.models.split(",")]
    if not all(models) or len(set(models)) != len(models):
        fail(f"--models {args.models!r}: name each model once, separated by commas")
    for model in models:
        check_model_for_task(model, args.task)
    check_training_arguments(args)
    if args.lr_factors is None:  # the length experiment's own, for the models it trains
        args.lr_factors = tuple((m, f) for m, f in LENGTH_EXPERIMENT_LR_FACTORS if m in models)
    else:
        args.lr_factors = lr_factors_of(args.lr_factors, models)
    if args.checkpoints is not None:
        check_out_folder(args.checkpoints)

    from explorer.seq2seq.length_result import LengthResult, load_length_result, shipped_length_result

    if args.shipped or args.from_file:
        try:
            result = shipped_length_result(args.task) if args.shipped else load_length_result(args.from_file)
        except LabError as exc:
            fail(str(exc))
    else:
        load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        say(f"training {', '.join(models)} side by side on {args.task}: {args.steps} steps, seed {args.seed}")
        started = time.perf_counter()
        trained = run_training(tuple(models), args.task, args)
        load_end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        result = LengthResult.from_training(
            trained, "python -m explorer length-curve " + shlex.join(argv), time.perf_counter() - started,
            [x for x in (load_start, load_end) if x == x],
        )  # fmt: skip
        if args.checkpoints is not None:
            _save_checkpoints(trained, result, args.checkpoints)
    _write(result, args.out)
    for name, curve in result.final.items():
        short, long = curve.short, curve.long
        say(
            f"{name:>14}: {result.parameters[name]:,} parameters, {result.cpu_seconds[name]:.1f} CPU s; "
            f"per-word accuracy ≤{SHORT_WORDS} words {_fmt(short.word_accuracy)}, ≥{LONG_WORDS} words {_fmt(long.word_accuracy)}"
        )
    say(f"{args.out}: {result.task}, {result.steps} steps, seed {result.seed}")
    return 0


def _fmt(value) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _save_checkpoints(trained, result, folder: str) -> None:
    from pathlib import Path

    from explorer.seq2seq.sequence_checkpoints import save_sequence_checkpoint

    for name, model in trained.models.items():
        target = Path(folder) / model.spec.name
        record = {
            "command": result.command,
            "seed": result.seed,
            "steps": result.steps,
            "options": result.options,
            "cpu_seconds": result.cpu_seconds[name],
            "parameters": result.parameters[name],
            "length_curve": result.final[name].to_dict(),
        }
        try:
            save_sequence_checkpoint(target, model, record)
        except OSError as exc:
            fail(f"cannot write {target}: {exc.strerror or exc}")
        result.checkpoints[name] = model.spec.name


def _write(result, out: str) -> None:
    try:
        if out.lower().endswith(".png"):
            from explorer.seq2seq.length_figure import save_length_png

            save_length_png(result, out)
        else:
            result.save(out)
    except NotFinite as exc:  # a NaN in the result: refused, nothing written
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")


def main(argv: list[str]) -> int:
    command, rest = argv[0], argv[1:]
    if command == "train":
        return train_main(rest)
    if command == "translate":
        return translate_main(rest)
    return length_curve_main(rest)
