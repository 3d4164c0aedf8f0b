"""The windowed models' commands (global, local-m, local-p, local-p-ours):

    train      --model local-p-ours --task copy-twice|reorder-zh [--window D] --steps N [--seed S]
               [--float16] --out DIR
               explorer.seq2seq.sequence_cli's train, then where the window sits against the truth
               on held-out pairs (explorer.seq2seq.local_eval), added to the checkpoint's record;
               --float16 stores the weights rounded to float16 (the shipped checkpoints: half the
               size) and measures the rounded model
    translate  --source TEXT [--task copy-twice] [--model local-p-ours] [--checkpoint DIR] [--window D]
               --out FILE.json|.npz: every step's p_t, window, Gaussian and weights
               (explorer.seq2seq.local_trace); --window reads the trained weights through another D

Bad input exits with status 2 and one ``error: ...`` line (explorer.failing.fail).
"""

from __future__ import annotations

from explorer.failing import Parser, check_not_input, check_out_file, fail
from explorer.finite import NotFinite
from explorer.seq2seq import sequence_cli
from explorer.seq2seq.local_attention import LOCAL_MODELS, WINDOW_MODELS, WindowedTranslator
from explorer.seq2seq.sequence_cli import MOST, say, task_names
from explorer.seq2seq.spec import LabError

WINDOW_EVAL_PER_LENGTH = 20  # held-out pairs per length group for the record's window numbers


def wants_window(argv: list[str]) -> bool:
    """Is this ``train`` / ``translate`` command line about a windowed model?"""
    if not argv or argv[0] not in ("train", "translate"):
        return False
    probe = Parser(add_help=False)
    probe.add_argument("--model", default=None)
    probe.add_argument("--checkpoint", default=None)
    known, _ = probe.parse_known_args(argv[1:])
    if known.checkpoint is not None and argv[0] == "translate":
        return checkpoint_model(known.checkpoint) in WINDOW_MODELS
    return known.model in WINDOW_MODELS


def checkpoint_model(folder: str) -> str | None:
    """The model a sequence checkpoint folder holds, or None (anything else is another reader's)."""
    from explorer.seq2seq.checkpoints import read_config
    from explorer.seq2seq.sequence_checkpoints import SEQUENCE_KIND

    try:
        spec = read_config(folder, SEQUENCE_KIND).get("spec")
    except LabError:
        return None
    model = spec.get("model") if isinstance(spec, dict) else None
    return model if isinstance(model, str) else None


# -- train -------------------------------------------------------------------------------------
def train_main(argv: list[str]) -> int:
    half = "--float16" in argv
    argv = [a for a in argv if a != "--float16"]
    code = sequence_cli.train_main(argv)  # trains, saves, prints; fails with status 2 on bad input
    probe = Parser(add_help=False)
    probe.add_argument("--out")
    out = probe.parse_known_args(argv)[0].out

    from explorer.seq2seq.length_curve import evaluation_pairs
    from explorer.seq2seq.local_eval import window_report
    from explorer.seq2seq.local_lab import window_pairs
    from explorer.seq2seq.sequence_checkpoints import load_sequence_checkpoint, save_sequence_checkpoint
    from explorer.seq2seq.tasks import get_task

    model, training = load_sequence_checkpoint(out)
    assert isinstance(model, WindowedTranslator)  # WINDOW_MODELS, global included, are windowed
    if half:
        round_to_float16(model)
        training["command"] += " --float16"
        training["weights"] = "float16"
    task = get_task(model.spec.task)
    pairs = (  # every string length the task writes; the clause counts of reorder-zh
        evaluation_pairs(task, WINDOW_EVAL_PER_LENGTH, seed=2)
        if task.kind == "copy"
        else window_pairs(task.name, WINDOW_EVAL_PER_LENGTH)
    )
    report = window_report(model, pairs)
    training["window"] = window_record(report)
    try:
        save_sequence_checkpoint(out, model.half() if half else model, training)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    share, error = report.centre_share(), report.centre_error()
    where = (
        "no window (global attention)"
        if share is None
        else f"p_t within 1 of the truth on {share:.1%} of output steps (mean distance {error:.2f})"
    )
    say(f"{out}: D = {model.spec.window}, {where}, largest weight on a true word {report.argmax_share():.1%}")
    return code


def round_to_float16(model) -> None:
    """The weights as float16 would store them (kept float32: the numbers measured are the shipped ones)."""
    import torch

    with torch.no_grad():
        for tensor in model.state_dict().values():
            if tensor.is_floating_point():
                tensor.copy_(tensor.half().float())


def window_record(report) -> dict:
    """The report's numbers for config.json: overall and per source length."""
    return {
        "half_width": report.half_width,
        "pairs": len(report.pairs),
        "measured_on": "the true translation (teacher forcing)",
        "centre_share": report.centre_share(),
        "centre_error": report.centre_error(),
        "argmax_share": report.argmax_share(),
        "by_length": {str(length): vars(row) for length, row in report.by_length().items()},
    }


# -- translate ---------------------------------------------------------------------------------
def translate_main(argv: list[str]) -> int:
    parser = Parser(
        prog="python -m explorer translate",
        description="Translate with a windowed model and write every step's window, p_t and weights.",
    )
    parser.add_argument("--source", required=True, help="e.g. 'a b c d e' for copy-twice")
    parser.add_argument("--task", choices=task_names(), default="copy-twice")
    parser.add_argument("--model", choices=WINDOW_MODELS, default="local-p-ours")
    parser.add_argument("--checkpoint", default=None, help="a folder written by train (sets task and model)")
    parser.add_argument(
        "--window", type=int, default=None, help=f"read with another D ({', '.join(LOCAL_MODELS)})"
    )
    parser.add_argument("--out", required=True, help="FILE.json or FILE.npz")
    args = parser.parse_args(argv)
    if args.window is not None and not 1 <= args.window <= MOST["window"]:
        fail(f"--window must be from 1 to {MOST['window']:,}, not {args.window}")
    if args.checkpoint is None:
        sequence_cli.check_shipped(args.model, args.task)
    check_out_file(args.out)
    check_not_input(args.out, [("--checkpoint", args.checkpoint)])

    from explorer.seq2seq.local_trace import translate_window

    try:
        trace = translate_window(args.source, args.task, args.model, args.checkpoint, args.window)
    except (LabError, NotFinite) as exc:  # finite weights whose numbers overflow
        fail(str(exc))
    try:
        trace.save(args.out)
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
    for notice in trace.notices:
        say(f"note: {notice}")
    truth = (
        ""
        if trace.exact is None
        else (" (the true translation)" if trace.exact else f" (true: {trace.expected})")
    )
    counted = trace.centre_count()
    where = "every source word (no window)"
    if trace.centres is not None:
        where = f"D = {trace.half_width}"
        if counted is not None:
            where += f", p_t within 1 of the truth on {counted[0]}/{counted[1]} steps"
            if trace.steps_past_truth():
                where += f" ({trace.steps_past_truth()} written past the true translation's end: not within)"
    say(f"{args.out}: {trace.source!r} → {trace.output!r}{truth} ({trace.task}-{trace.model}, {where})")
    return 0


def main(argv: list[str]) -> int:
    command, rest = argv[0], argv[1:]
    return train_main(rest) if command == "train" else translate_main(rest)
