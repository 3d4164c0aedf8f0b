"""Command-line options shared by ``trace`` and the window's ``--screenshot``."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from explorer.core.config import (
    ATTENTIONS,
    DEVICES,
    MODEL_KEYS,
    SCALES,
    SCORINGS,
    WEIGHT_SOURCES,
    AttentionConfig,
    ConfigError,
)
from explorer.core.trace import ALL_STAGES, TRACE_DTYPES, TraceSelection
from explorer.failing import EXIT_BAD_INPUT, Parser, check_not_input, check_out_file, fail, goes_with
from explorer.finite import NotFinite
from explorer.web.options import add_page_arguments, check_outputs, write_page_or_fail, written_together

if TYPE_CHECKING:
    from explorer.core.decoding import DecoderRequests


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    d = AttentionConfig()
    parser.add_argument("--sentence", default=d.sentence, help="the text whose tokens are keys and values")
    parser.add_argument("--query", default=d.query, help="the text whose tokens ask (empty: self-attention)")
    parser.add_argument("--scoring", choices=SCORINGS, default=d.scoring)
    parser.add_argument("--scale", choices=SCALES, default=d.scale)
    parser.add_argument("--temperature", type=float, default=d.temperature, help="τ for --scale temperature")
    parser.add_argument("--heads", type=int, default=None, help="head count (default: the model's own)")
    parser.add_argument("--attention", choices=ATTENTIONS, default=d.attention)
    parser.add_argument(
        "--mask",
        default=d.mask,
        help="model (the model's own: none for an encoder, causal for a decoder), none, causal, window:K or valid:N",
    )
    parser.add_argument("--weights", choices=WEIGHT_SOURCES, default=d.weights)
    parser.add_argument("--layer", type=int, default=d.layer, help="pretrained layer (0-based)")
    parser.add_argument("--d-model", type=int, default=d.d_model, help="width of random/identity weights")
    parser.add_argument("--seed", type=int, default=d.seed)
    parser.add_argument(
        "--device",
        default=d.device,
        help=f"{', '.join(DEVICES)} or cuda:N (the N-th GPU); an absent device falls back to the CPU",
    )
    parser.add_argument(
        "--model",
        choices=MODEL_KEYS,
        default=d.model,
        help="bundled model: minilm (English) or multilingual (Chinese, English, French)",
    )
    parser.add_argument(
        "--model-dir",
        default=None,
        help="a BERT, RoBERTa, XLM-R, DistilBERT, GPT-2, Llama, Mistral or Qwen2 folder (overrides --model)",
    )


def config_from_args(args: argparse.Namespace) -> AttentionConfig:
    if args.model_dir is not None and not args.model_dir.strip():  # not the bundled model, silently
        fail("--model-dir is empty: give a model folder, or leave the option out for the bundled model")
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
        model=args.model,
        model_dir=args.model_dir,
    )


def refuse_ignored(args: argparse.Namespace) -> None:
    """``trace``'s options that only mean something with another, refused without it (exit 2,
    one line) rather than silently ignored; each at its default, given or not, is fine."""
    d = AttentionConfig()
    goes_with(
        args.scale != "temperature" and args.temperature != d.temperature,
        f"--temperature {args.temperature:g}",
        f"--scale temperature (the scale is {args.scale})",
    )
    if args.weights == "pretrained":
        goes_with(args.d_model != d.d_model, f"--d-model {args.d_model}", "--weights random or identity")
    else:  # random and identity weights are made here: no model, folder or layer is read
        other = "--weights pretrained"
        goes_with(args.model_dir is not None, "--model-dir", f"{other} (the weights are {args.weights})")
        goes_with(args.model != d.model, f"--model {args.model}", f"{other} (the weights are {args.weights})")
        goes_with(args.layer != d.layer, f"--layer {args.layer}", f"{other} (the weights are {args.weights})")
    goes_with(args.convert_weights and args.model_dir is None, "--convert-weights", "--model-dir")
    sampled = args.generate != 0 and args.decoding == "sample"
    goes_with(
        not sampled and args.decoding_temperature != 1.0,
        f"--decoding-temperature {args.decoding_temperature:g}",
        "--decoding sample and --generate N (greedy decoding always writes the most likely token)",
    )
    goes_with(
        args.ablate is None and args.ablation != "zero", f"--ablation {args.ablation}", "--ablate L.H,..."
    )
    goes_with(args.html is None and args.language != "en", f"--language {args.language}", "--html FILE.html")


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """What the trace file holds (the metadata always)."""
    parser.add_argument("--out", default=None, help="FILE.json or FILE.npz")
    parser.add_argument(
        "--stages",
        default=None,
        metavar="LIST",
        help=f"write only these arrays, comma-separated, from: {', '.join(ALL_STAGES)} (default: all)",
    )
    parser.add_argument(
        "--only-heads",
        default=None,
        metavar="LIST",
        help="write only these heads of the per-head arrays, e.g. 0,3 (--heads sets the head count)",
    )
    parser.add_argument(
        "--dtype",
        choices=TRACE_DTYPES,
        default="float32",
        help="precision of the written numbers; float16 halves the file (about 3 digits, |x| ≤ 65504)",
    )
    parser.add_argument(
        "--with-projections",
        action="store_true",
        help="also write W_Q, W_K, W_V, W_O and their biases, sliced per head",
    )
    parser.add_argument(
        "--strict-device",
        action="store_true",
        help="exit with an error when --device is absent or runs out of memory, instead of using the CPU",
    )


OUT_OF_MEMORY = (
    "not enough memory for this trace: write fewer arrays (--stages weights), fewer heads "
    "(--only-heads), --dtype float16, or use a shorter text"
)


def trace_main(argv: list[str]) -> int:
    parser = Parser(
        prog="python -m explorer trace", description="Compute every attention stage and write it to a file."
    )
    add_config_arguments(parser)
    add_output_arguments(parser)
    parser.add_argument(
        "--convert-weights",
        action="store_true",
        help="convert a folder's pytorch_model.bin once to safetensors (tensors only) and use it",
    )
    add_decoder_arguments(parser)
    add_page_arguments(parser)
    args = parser.parse_args(argv)
    check_outputs(args.out, args.html)
    if args.out is not None:
        check_out_file(args.out)
    for option, path in (("--out", args.out), ("--html", args.html)):
        check_not_input(path, [("--model-dir", args.model_dir)], option)
    refuse_ignored(args)
    from explorer.core.device import is_out_of_memory
    from explorer.core.engine import Engine
    from explorer.models.loader import ModelError, NeedsConversion

    engine = Engine()
    try:
        selection = TraceSelection.parse(args.stages, args.only_heads, args.dtype, args.with_projections)
        config = config_from_args(args)
        asked = decoder_requests(args, config)  # refused before anything is computed
        if selection.heads is not None:  # refuse an impossible head before computing anything
            selection.heads_of(config.heads or engine.source_info(config).default_heads)
        try:
            trace = engine.trace(
                config, strict_device=args.strict_device, next_tokens=args.next_tokens, heads=asked.ablation
            )
        except NeedsConversion as exc:
            if not args.convert_weights:
                fail(f"{exc}; re-run with --convert-weights to convert them")
            from explorer.models.convert_bin import convert

            converted = convert(exc.source)
            if sys.stdout is not None:
                print(f"note: converted {exc.source} to {converted}")
            engine.forget_model(args.model_dir or exc.folder)
            trace = engine.trace(
                config, strict_device=args.strict_device, next_tokens=args.next_tokens, heads=asked.ablation
            )
        asked.answer(engine, config, trace)
        if args.html is not None:  # the page switches between every layer
            trace.layer_weights = engine.layer_weights(config, heads=asked.ablation)
    except (ConfigError, ModelError, NotFinite) as exc:
        fail(str(exc))
    except MemoryError:
        fail(OUT_OF_MEMORY)
    except RuntimeError as exc:  # torch's "can't allocate memory" is a RuntimeError
        if not is_out_of_memory(exc):
            raise
        fail(OUT_OF_MEMORY)
    with written_together(args.out, args.html) as (out, html):  # all or nothing
        try:
            if out is not None:
                trace.save(out, selection)
        except MemoryError:
            fail(OUT_OF_MEMORY)
        except NotFinite as exc:  # --dtype float16 beyond its range
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write {args.out}: {exc.strerror or exc}")
        if html is not None:
            size = write_page_or_fail(html, trace.page(), args.language, shown=args.html)
    if sys.stdout is not None:
        for notice in trace.notices:
            print(f"note: {notice}")
        if args.html is not None:
            print(f"{args.html}: the interactive page, every layer and head, {size / 1e6:.1f} MB")
        print(
            f"{args.out or args.html}: {trace.heads} heads, {trace.n_query}x{trace.n_key} tokens, "
            f"{trace.weights_source} weights on {trace.device}, {trace.compute_ms:.1f} ms"
            + ("" if selection == TraceSelection() else f"; wrote {describe(selection, trace.heads)}")
        )
        if trace.generation is not None:
            print(written_line(trace.generation, args.generate))
    return 0


def written_line(generation: dict[str, Any], asked: int) -> str:
    """What ``--generate N`` wrote, and why it stopped before N."""
    count, stopped = len(generation["ids"]), generation["stopped"]
    why = {"context": ", then the context was full", "end of text": ", then the end of the text"}.get(
        stopped, ""
    )
    written = f"{count} tokens" if count == asked else f"{count} of {asked} tokens{why}"
    return f"wrote {written}: {generation['text']!r}"


def add_decoder_arguments(parser: argparse.ArgumentParser) -> None:
    """What a language model (GPT-2, Llama, Mistral, Qwen2) answers beyond its attention."""
    from explorer.core.decoding import ABLATIONS, DECODINGS

    parser.add_argument(
        "--next-tokens",
        type=int,
        default=0,
        metavar="K",
        help="a decoder: also write the K most likely next tokens after every position, with probabilities",
    )
    parser.add_argument(
        "--generate", type=int, default=0, metavar="N", help="a decoder: write N tokens after the sentence"
    )
    parser.add_argument(
        "--decoding",
        choices=DECODINGS,
        default="greedy",
        help="--generate: greedy (the most likely token) or sample (drawn from the softmax, seeded by --seed)",
    )
    parser.add_argument(
        "--decoding-temperature",
        type=float,
        default=1.0,
        metavar="T",
        help="--decoding sample: logits ÷ T before the softmax (the attention's --temperature is another one)",
    )
    parser.add_argument(
        "--top-k",
        type=int,
        default=0,
        metavar="K",
        help="--decoding sample: draw among the K most likely (0: all)",
    )
    parser.add_argument(
        "--ablate",
        default=None,
        metavar="L.H,...",
        help="turn these heads off (layer.head, e.g. 0.3,2.1) and write what changes: a decoder's "
        "next-token probabilities, an encoder's output vectors' cosine",
    )
    parser.add_argument(
        "--ablation",
        choices=ABLATIONS,
        default="zero",
        help="--ablate: zero the head's output before W_O, or replace it by its mean over the text",
    )


def decoder_requests(args: argparse.Namespace, config: AttentionConfig) -> DecoderRequests:
    """--next-tokens, --generate and --ablate checked (ConfigError) before anything is computed."""
    from explorer.core.decoding import DecoderRequests

    return DecoderRequests.of(
        args.next_tokens,
        args.generate,
        args.decoding,
        args.decoding_temperature,
        args.top_k,
        config.seed,
        args.ablate,
        args.ablation,
    )


def describe(selection: TraceSelection, heads: int) -> str:
    parts = ["every stage" if selection.stages == ALL_STAGES else ", ".join(selection.stages)]
    if selection.heads is not None:
        parts.append(f"heads {','.join(map(str, selection.heads_of(heads)))}")
    if selection.projections:
        parts.append("projections")
    parts.append(selection.dtype)
    return "; ".join(parts)


def wants_gpt(argv: list[str]) -> bool:
    """``train --model gpt`` is the language-model lab's; every other model the translation lab's."""
    for i, arg in enumerate(argv):
        if arg == "--model" and i + 1 < len(argv):
            return argv[i + 1] == "gpt"
        if arg.startswith("--model="):
            return arg.split("=", 1)[1] == "gpt"
    return False


EXIT_BROKEN_PIPE = 141  # what a shell reports for a command its reader stopped (128 + SIGPIPE)


def main(argv: list[str] | None = None) -> int:
    """Run a command; a reader that goes away (``… --help | head``) ends it quietly, where Python
    printed a BrokenPipeError traceback."""
    try:
        return _run(argv)
    except BrokenPipeError:
        if sys.stdout is not None:
            try:  # Python flushes stdout once more at exit: into nothing, not the closed pipe
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):  # no descriptor (a test's captured stdout)
                pass
        return EXIT_BROKEN_PIPE


def _run(argv: list[str] | None) -> int:
    from explorer.commands import commands_help, models_help, wants_models_help

    argv = sys.argv[1:] if argv is None else argv
    if wants_models_help(argv):  # every family's models and tasks, before one family's parser
        if sys.stdout is not None:
            print(models_help(argv[0]))
        return 0
    if argv and argv[0] == "trace":
        return trace_main(argv[1:])
    if argv and argv[0] == "train" and wants_gpt(argv[1:]):
        from explorer.lm.cli import train_main as lm_train

        return lm_train(argv[1:])
    if argv and argv[0] in ("train", "translate", "length-curve"):
        from explorer.seq2seq.cli import main as lab_main

        return lab_main(argv)
    if argv and argv[0] in ("train-vision", "vision", "data-curve"):
        from explorer.vision.cli import main as vision_main

        return vision_main(argv)
    if sys.stderr is not None:
        print(commands_help(), file=sys.stderr)
    return EXIT_BAD_INPUT
