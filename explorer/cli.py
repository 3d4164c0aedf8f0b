"""Command-line options shared by ``trace`` and the window's ``--screenshot``."""

from __future__ import annotations

import argparse
import sys

from explorer.core.config import (
    ATTENTIONS,
    DEVICES,
    SCALES,
    SCORINGS,
    WEIGHT_SOURCES,
    AttentionConfig,
    ConfigError,
)

EXIT_BAD_INPUT = 2


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    d = AttentionConfig()
    parser.add_argument("--sentence", default=d.sentence, help="the text whose tokens are keys and values")
    parser.add_argument("--query", default=d.query, help="the text whose tokens ask (empty: self-attention)")
    parser.add_argument("--scoring", choices=SCORINGS, default=d.scoring)
    parser.add_argument("--scale", choices=SCALES, default=d.scale)
    parser.add_argument("--temperature", type=float, default=d.temperature, help="τ for --scale temperature")
    parser.add_argument("--heads", type=int, default=None, help="head count (default: the model's own)")
    parser.add_argument("--attention", choices=ATTENTIONS, default=d.attention)
    parser.add_argument("--mask", default=d.mask, help="none, causal, window:K or valid:N")
    parser.add_argument("--weights", choices=WEIGHT_SOURCES, default=d.weights)
    parser.add_argument("--layer", type=int, default=d.layer, help="pretrained layer (0-based)")
    parser.add_argument("--d-model", type=int, default=d.d_model, help="width of random/identity weights")
    parser.add_argument("--seed", type=int, default=d.seed)
    parser.add_argument("--device", choices=DEVICES, default=d.device)
    parser.add_argument("--model-dir", default=None, help="a BERT-family folder (default: bundled MiniLM)")


def config_from_args(args: argparse.Namespace) -> AttentionConfig:
    return AttentionConfig(
        sentence=args.sentence,
        query=args.query,
        scoring=args.scoring,
        scale=args.scale,
        temperature=args.temperature,
        heads=args.heads,
        attention=args.attention,
        mask=args.mask,
        weights=args.weights,
        layer=args.layer,
        d_model=args.d_model,
        seed=args.seed,
        device=args.device,
        model_dir=args.model_dir,
    )


class Parser(argparse.ArgumentParser):
    """argparse that fails with one line and status 2, without the usage block."""

    def error(self, message: str):  # noqa: D401
        fail(message)


def fail(message: str) -> None:
    if sys.stderr is not None:
        print(f"error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def trace_main(argv: list[str]) -> int:
    parser = Parser(
        prog="python -m explorer trace", description="Compute every attention stage and write it to a file."
    )
    add_config_arguments(parser)
    parser.add_argument("--out", required=True, help="FILE.json or FILE.npz")
    args = parser.parse_args(argv)
    if not args.out.lower().endswith((".json", ".npz")):
        fail(f"--out {args.out!r}: the file name must end in .json or .npz")
    from explorer.core.engine import Engine
    from explorer.models.loader import ModelError

    try:
        trace = Engine().trace(config_from_args(args))
    except (ConfigError, ModelError) as exc:
        fail(str(exc))
    try:
        trace.save(args.out)
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
    if sys.stdout is not None:
        for notice in trace.notices:
            print(f"note: {notice}")
        print(
            f"{args.out}: {trace.heads} heads, {trace.n_query}x{trace.n_key} tokens, "
            f"{trace.weights_source} weights on {trace.device}, {trace.compute_ms:.1f} ms"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "trace":
        return trace_main(argv[1:])
    if argv and argv[0] in ("train", "translate"):
        from explorer.seq2seq.cli import main as lab_main

        return lab_main(argv)
    if sys.stderr is not None:
        print(
            "usage: python -m explorer trace [options] --out FILE.json|FILE.npz\n"
            "       python -m explorer train --model M --steps N --seed S --out DIR\n"
            "       python -m explorer translate --source TEXT [options] --out FILE.json|FILE.npz\n"
            "       python -m explorer [window options]   (starts the window)",
            file=sys.stderr,
        )
    return EXIT_BAD_INPUT
