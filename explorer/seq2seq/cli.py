"""``python -m explorer train ...`` and ``python -m explorer translate ...``.

    train      --model bahdanau|luong|transformer [--scoring S] --steps N --seed S --out DIR
    translate  --source TEXT [--model M] [--scoring S] [--attention soft|hard|sample] --out FILE.json|.npz
               [--html FILE.html] (the interactive page)

Bad input exits with status 2 and one ``error: ...`` line (explorer.failing.fail); a cancelled
training (Ctrl-C) writes nothing and exits 130.
"""

from __future__ import annotations

import platform
import shlex
import signal
import sys
import threading
from dataclasses import replace

from explorer.failing import Parser, check_not_input, check_out_file, check_out_folder, fail, goes_with
from explorer.finite import NotFinite
from explorer.lab.command import EXIT_CANCELLED, EXIT_HELP, check_learning_rate, check_seed, refuse_divergence
from explorer.seq2seq.spec import ATTENTIONS, DEFAULT_SCORING, MODELS, SCORINGS, LabError
from explorer.web.options import add_page_arguments, check_outputs, write_page_or_fail, written_together


def say(line: str) -> None:
    if sys.stdout is not None:
        print(line, flush=True)


# The most each count of a training run may be: far beyond what the lab needs, below where a
# run never ends or the machine runs out of memory.
TRAIN_LIMITS = {
    "steps": 1_000_000,
    "batch_size": 65_536,
    "eval_every": 1_000_000,
    "final_eval": 100_000,
    "threads": 1024,
}


def train_main(argv: list[str]) -> int:
    parser = Parser(
        prog="python -m explorer train",
        description="Train a date-translation model from scratch (every model: python -m explorer train --help).",
        epilog=EXIT_HELP,
    )
    parser.add_argument("--model", choices=MODELS, required=True, help="the date models")
    parser.add_argument(
        "--task",
        choices=("dates",),
        default="dates",
        help="the date models' one task (other tasks: train --help)",
    )
    parser.add_argument(
        "--scoring", choices=SCORINGS, default=None, help="default: bahdanau additive, luong general"
    )
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help="folder for model.safetensors and config.json")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--eval-every", type=int, default=50)
    parser.add_argument("--final-eval", type=int, default=250, help="held-out days per format at the end")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (1 is fastest here)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    args = parser.parse_args(argv)
    check_out_folder(args.out)  # the folder itself may be new, not its parents
    for name, most in TRAIN_LIMITS.items():  # a 30-digit --steps trained forever
        if not 1 <= getattr(args, name) <= most:
            fail(f"--{name.replace('_', '-')} must be from 1 to {most}, not {getattr(args, name)}")
    check_seed(args.seed)  # torch takes no 30-digit seed
    check_learning_rate(args.lr)

    import torch

    from explorer.seq2seq.checkpoints import save_checkpoint
    from explorer.seq2seq.evaluate import held_out_report
    from explorer.seq2seq.spec import default_spec
    from explorer.seq2seq.train import DEFAULTS, train_model
    from explorer.seq2seq.vocab import Vocabulary
    from explorer.training import TrainingCancelled

    try:
        spec = default_spec(args.model, args.scoring)
    except LabError as exc:
        fail(str(exc))
    try:
        options = replace(
            DEFAULTS,
            steps=args.steps,
            seed=args.seed,
            batch_size=args.batch_size,
            learning_rate=args.lr,
            eval_every=args.eval_every,
            threads=args.threads,
            device=args.device,
        )
    except ValueError as exc:  # beyond what a run can take (steps, batch, threads)
        fail(str(exc))
    stop = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())  # finish the step, then stop
    window: list[float] = []

    def show(p) -> None:
        window.append(p.loss)
        if p.exact_match is not None:
            say(
                f"step {p.step:>6}/{p.total_steps}  loss {sum(window) / len(window):.4f}  "
                f"held-out exact match {p.exact_match:.3f}  {p.elapsed_s:6.1f} s"
            )
            window.clear()

    say(
        f"training {spec.name}: {args.steps} steps, seed {args.seed}, batch {args.batch_size}, {args.threads} thread(s)"
    )
    try:
        result = train_model(
            args.model, args.scoring, args.steps, args.seed, show, stop.is_set, options=options, spec=spec
        )
    except TrainingCancelled as exc:
        if sys.stderr is not None:
            print(f"cancelled after {exc.log.steps_done} steps; nothing written", file=sys.stderr)
        return EXIT_CANCELLED
    finally:
        signal.signal(signal.SIGINT, previous)
    for notice in result.notices:
        say(f"note: {notice}")
    refuse_divergence(result.log.losses)
    report = held_out_report(result.model, Vocabulary(spec.source_chars), args.final_eval)
    per_format = report.by_format()
    say(f"held-out, {args.final_eval} days per format:")
    say(f"  {'format':<15} exact-match  alignment-score  alignment-score-on-spelled-digits")
    for fmt, numbers in per_format.items():
        say(
            f"  {fmt:<15} {numbers['exact_match']:11.4f}  {numbers['alignment_score']:15.3f}  "
            f"{_score(numbers['spelled_alignment_score']):>33}"
        )
    training = {
        "command": "python -m explorer train " + shlex.join(argv),
        "seed": args.seed,
        "steps": args.steps,
        "options": vars(options),
        "device": result.device,
        "seconds": round(result.log.elapsed_s, 1),
        "final_loss": result.log.losses[-1],
        "held_out_per_format": args.final_eval,
        "exact_match": report.exact_match,
        "alignment_score": report.alignment_score(),
        "spelled_alignment_score": report.spelled_alignment_score(),
        "by_format": per_format,
        "torch": torch.__version__,
        "python": platform.python_version(),
    }
    try:
        folder = save_checkpoint(args.out, result.model, spec, training)
    except NotFinite as exc:  # the run diverged: its loss is NaN
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
    say(
        f"{folder}: {spec.name}, held-out exact match {report.exact_match:.4f}, "
        f"alignment score {report.alignment_score():.3f}, {result.log.elapsed_s:.1f} s on {result.device}"
    )
    return 0


def _score(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"  # None: no such digits in that format


def translate_main(argv: list[str]) -> int:
    parser = Parser(
        prog="python -m explorer translate",
        description="Translate a date to YYYY-MM-DD with a trained model and write every attention number "
        "(every model: python -m explorer translate --help).",
    )
    parser.add_argument("--source", required=True, help="the date to translate, e.g. '9 mai 2018'")
    parser.add_argument("--model", choices=MODELS, default="bahdanau")
    parser.add_argument(
        "--task",
        choices=("dates",),
        default="dates",
        help="the date models' one task (other tasks: translate --help)",
    )
    parser.add_argument(
        "--scoring", choices=SCORINGS, default=None, help=f"default per model: {DEFAULT_SCORING}"
    )  # fmt: skip
    parser.add_argument("--attention", choices=ATTENTIONS, default="soft")
    parser.add_argument("--seed", type=int, default=0, help="the draw of --attention sample")
    parser.add_argument(
        "--checkpoint", default=None, help="a folder written by train (sets model and scoring)"
    )
    parser.add_argument("--out", default=None, help="FILE.json or FILE.npz")
    add_page_arguments(parser)
    args = parser.parse_args(argv)
    check_outputs(args.out, args.html)
    goes_with(args.html is None and args.language != "en", f"--language {args.language}", "--html FILE.html")
    if args.out is not None:
        check_out_file(args.out)
    for option, path in (("--out", args.out), ("--html", args.html)):
        check_not_input(path, [("--checkpoint", args.checkpoint)], option)
    check_seed(args.seed)
    from explorer.seq2seq.translate import translate

    try:
        trace = translate(args.source, args.model, args.scoring, args.attention, args.seed, args.checkpoint)
    except (LabError, NotFinite) as exc:
        fail(str(exc))
    with written_together(args.out, args.html) as (out, html):  # all or nothing
        try:
            if out is not None:
                trace.save(out)
        except NotFinite as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write {args.out}: {exc.strerror or exc}")
        if html is not None:
            size = write_page_or_fail(html, trace.page(), args.language, shown=args.html)
    for notice in trace.notices:
        say(f"note: {notice}")
    if args.html is not None:
        say(f"{args.html}: the interactive page, {size / 1e6:.2f} MB")
    score = "n/a"
    if trace.alignment_score is not None:
        score = f"{trace.alignment_score:.2f} ({trace.spelled_alignment_score:.2f} on the digits the source spells)"
    say(
        f"{args.out or args.html}: {trace.source!r} → {trace.output} ({trace.model}-{trace.scoring}, {trace.attention}), "
        f"alignment score {score}, {trace.timings_ms['translate']:.1f} ms"
    )
    return 0


def main(argv: list[str]) -> int:
    """``argv`` starts with the command name: train, translate or length-curve. The sequence
    models and tasks (explorer.seq2seq.sequence_cli) take ``--task`` or their model's name."""
    from explorer.seq2seq import local_cli, sequence_cli

    if local_cli.wants_window(argv):  # global, local-m, local-p, local-p-ours
        return local_cli.main(argv)
    command, rest = argv[0], argv[1:]
    if command == "length-curve" or sequence_cli.wants_sequence(rest):
        return sequence_cli.main(argv)
    if command == "train":
        return train_main(rest)
    return translate_main(rest)
