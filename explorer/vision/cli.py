"""``python -m explorer train-vision …`` and ``python -m explorer vision …``.

train-vision trains one variant from scratch and writes a checkpoint (NAME.safetensors +
NAME.json) into --out; vision computes every stage of one picture (a PNG, or a generated one)
with a shipped or trained model and writes them like ``trace`` does (.json or .npz). Bad input
exits with status 2 and one line on stderr (explorer.failing.fail), never a traceback.
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from explorer.failing import (
    Parser,
    check_not_input,
    check_out,
    check_out_file,
    check_out_folder,
    check_out_name,
    fail,
)
from explorer.finite import NotFinite
from explorer.lab.command import (
    EXIT_CANCELLED,
    EXIT_HELP,
    check_learning_rate,
    check_seed,
    refuse_divergence,
)

MAX_SEED = 2**63 - 1


def _print(line: str) -> None:
    if sys.stdout is not None:
        print(line, flush=True)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        fail(f"seed {text!r}: it must be a whole number")
    if not 0 <= value <= MAX_SEED:
        fail(f"seed {value}: it must be from 0 to {MAX_SEED}")
    return value


def train_vision_main(argv: list[str]) -> int:
    from explorer.vision.models import MODELS

    parser = Parser(
        prog="python -m explorer train-vision",
        description="Train a vision model from scratch: a CNN variant, or the vision transformer (vit).",
        epilog=EXIT_HELP,
    )
    parser.add_argument(
        "--model", choices=MODELS, required=True, help="a CNN variant, or vit (the transformer)"
    )
    parser.add_argument("--reduction", type=int, default=None, help="r: SE/CBAM bottleneck of C/r units (4)")
    parser.add_argument("--kernel", type=int, default=None, help="CBAM's spatial convolution size (odd; 7)")
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help="a folder: MODEL.safetensors and MODEL.json go there")
    parser.add_argument("--name", default=None, help="file name stem (default: the model variant)")
    parser.add_argument("--batch-size", type=int, default=None, help="32 (vit: 64)")
    parser.add_argument("--lr", type=float, default=None, help="3e-3 (vit: 1e-3, after a warm-up)")
    parser.add_argument("--eval-every", type=int, default=25)
    parser.add_argument("--pool-size", type=int, default=4096, help="how many training pictures to draw from")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads (1 is fastest for this size)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda", "mps"), default="auto")
    args = parser.parse_args(argv)
    seed = args.seed
    check_seed(seed)  # a training seed: torch's range, as every lab's (a picture's may be larger)
    check_learning_rate(args.lr)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        fail(f"--out {args.out}: it is a file; give a folder")
    check_out_folder(args.out)  # the folder itself may be new, not its parents
    name = args.name or args.model
    if not name or "/" in name or "\\" in name or name.startswith("."):
        fail(f"--name {name!r}: give a plain file name stem")

    from explorer.lab import TrainOptions
    from explorer.training import TrainingCancelled
    from explorer.vision.checkpoints import save_checkpoint
    from explorer.vision.models import VisionConfig, VisionConfigError
    from explorer.vision.shapes import held_out
    from explorer.vision.train import Schedule, train_config
    from explorer.vision.vit import ViTConfig, ViTConfigError

    transformer = args.model == ViTConfig().variant
    if transformer and (args.reduction, args.kernel) != (None, None):
        fail("--reduction and --kernel shape the CNN's attention blocks; the vision transformer has none")
    config: VisionConfig | ViTConfig
    try:
        if transformer:
            from explorer.vision.data_curve import RECIPES

            config, recipe = ViTConfig(), RECIPES["vit"]
        else:
            from explorer.vision.data_curve import Recipe

            config = VisionConfig(
                variant=args.model,
                reduction=4 if args.reduction is None else args.reduction,
                kernel=7 if args.kernel is None else args.kernel,
            )
            recipe = Recipe(TrainOptions(batch_size=32, learning_rate=3e-3))
        schedule = Schedule(
            warmup_steps=min(recipe.schedule.warmup_steps, args.steps // 10),
            weight_decay=recipe.schedule.weight_decay,
        )
        options = TrainOptions(
            steps=args.steps,
            seed=seed,
            batch_size=recipe.options.batch_size if args.batch_size is None else args.batch_size,
            learning_rate=recipe.options.learning_rate if args.lr is None else args.lr,
            eval_every=args.eval_every,
            pool_size=args.pool_size,
            device=args.device,
            threads=args.threads,
            snapshot_every=0,
        )
    except (VisionConfigError, ViTConfigError, ValueError) as exc:
        fail(str(exc))

    def report(p) -> None:
        if p.metrics:
            _print(
                f"step {p.step}/{p.total_steps}  loss {p.loss:.4f}  "
                f"held-out accuracy {p.metrics['accuracy']:.3f}  {p.elapsed_s:.1f} s"
            )

    started = time.perf_counter()
    try:
        run = train_config(config, options, on_progress=report, schedule=schedule)
    except (TrainingCancelled, KeyboardInterrupt) as exc:
        after = f" after {exc.log.steps_done} steps" if isinstance(exc, TrainingCancelled) else ""
        if sys.stderr is not None:
            print(f"cancelled{after}; nothing written", file=sys.stderr)
        return EXIT_CANCELLED
    seconds = time.perf_counter() - started
    for notice in run.notices:
        _print(f"note: {notice}")
    refuse_divergence(run.log.losses)
    accuracy, ratios, extra = _measured(run.model, held_out(1000))
    info = {
        "trained_by": "python -m explorer train-vision " + shlex.join(argv),
        "steps": options.steps,
        "seed": seed,
        "batch_size": options.batch_size,
        "pool_size": options.pool_size,
        "learning_rate": options.learning_rate,
        "warmup_steps": schedule.warmup_steps,
        "weight_decay": schedule.weight_decay,
        "device": run.device,
        "train_seconds": round(seconds, 1),
        "held_out_accuracy_1000": accuracy,
        "attention_mass": [
            {"block": r.block, "kind": r.kind, "share": r.share, "area": r.area, "ratio": r.ratio}
            for r in ratios
        ],
        **extra,
    }
    try:
        weights, described = save_checkpoint(run.model, out / name, info)
    except NotFinite as exc:  # the run diverged: its loss is NaN
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write into {args.out}: {exc.strerror or exc}")
    ratio_text = "; ".join(f"{_map_name(r)} {r.ratio:.2f}×" for r in ratios)
    _print(f"held-out accuracy on 1,000 pictures: {accuracy:.3f}; mass on the object: {ratio_text}")
    _print(
        f"{weights} and {described.name}: {args.model}, {options.steps} steps, {seconds:.1f} s on {run.device}"
    )
    return 0


def _map_name(ratio) -> str:
    """ "block3 spatial attention", "layer2 CLS attention, mean over heads"; the rollout's kind
    names it already ("attention rollout", not "rollout attention rollout")."""
    return ratio.kind if ratio.block in ratio.kind else f"{ratio.block} {ratio.kind}"


def _measured(model, batch) -> tuple[float, list, dict]:
    """Accuracy, the mass ratios of its maps on the object, and for the transformer its heads."""
    from explorer.vision.measure import attention_mass
    from explorer.vision.vit import VisionTransformer
    from explorer.vision.vit_measures import measure_vit

    if not isinstance(model, VisionTransformer):
        return (*attention_mass(model, batch), {})
    measured = measure_vit(model, batch)
    heads = {
        "mean_attention_distance": measured.mean_distance.tolist(),
        "self_share": measured.self_share.tolist(),
    }
    return measured.accuracy, measured.masses, heads


def vision_main(argv: list[str]) -> int:
    from explorer.vision.models import MODELS

    parser = Parser(
        prog="python -m explorer vision", description="Every stage of one picture through one model."
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", help="a PNG (JPEG, BMP and GIF work too); any size is resized")
    source.add_argument("--generate", metavar="SEED", help="a generated picture (with its object mask)")
    parser.add_argument(
        "--model", choices=MODELS, default=None, help="a shipped model (default: cbam; vit: the transformer)"
    )
    parser.add_argument(
        "--checkpoint",
        default=None,
        help="a trained NAME (NAME.safetensors + NAME.json) instead of a shipped model",
    )
    parser.add_argument("--device", choices=("auto", "cpu", "cuda", "mps"), default="auto")
    parser.add_argument("--out", required=True, help="FILE.json or FILE.npz")
    args = parser.parse_args(argv)
    check_out_file(args.out)
    check_not_input(args.out, [("--image", args.image), *_checkpoint_inputs(args.checkpoint)])

    # The picture first: a bad one is refused before any model is read.
    from explorer.vision.images import ImageError, load_image, photo_caveat
    from explorer.vision.shapes import generate

    mask = label = None
    notices: list[str]  # keyed Messages, and the command line's own note about --model
    if args.image is not None:
        try:
            loaded = load_image(args.image)
        except ImageError as exc:
            fail(str(exc))
        image, notices, source_text = loaded.pixels, list(loaded.notices), f"image:{args.image}"
        notices.append(photo_caveat())
    else:
        seed = _seed(args.generate)
        picture = generate(seed)
        image, mask, label, notices, source_text = (
            picture.image,
            picture.mask,
            picture.label,
            [],
            f"generate:{seed}",
        )

    from explorer.core.device import choose_device
    from explorer.vision.checkpoints import CheckpointError, load_checkpoint, load_shipped, load_shipped_vit
    from explorer.vision.models import TinyCNN
    from explorer.vision.trace import VisionTrace, run_model
    from explorer.vision.vit import VisionTransformer
    from explorer.vision.vit_trace import ViTTrace, run_vit_model

    model: TinyCNN | VisionTransformer
    try:
        if args.checkpoint is not None:  # "" is refused, not read as the shipped model
            model, _ = load_checkpoint(args.checkpoint.removesuffix(".safetensors").removesuffix(".json"))
            if args.model not in (None, model.config.variant):
                notices.append(
                    f"--checkpoint holds a {model.config.variant} model: --model {args.model} ignored"
                )
        elif args.model == "vit":
            model, _ = load_shipped_vit()
        else:
            model, _ = load_shipped(args.model or "cbam")
    except CheckpointError as exc:
        fail(str(exc))
    device, notice = choose_device(args.device)
    if notice:
        notices.append(notice)
    if device.type != "cpu":
        import copy

        model = copy.deepcopy(model).to(device)  # the shipped model stays on the CPU for everyone else
    trace: VisionTrace | ViTTrace
    try:
        if isinstance(model, VisionTransformer):
            trace = run_vit_model(
                model, image, object_mask=mask, label=label, source=source_text, notices=notices
            )
        else:
            trace = run_model(
                model, image, object_mask=mask, label=label, source=source_text, notices=notices
            )
        trace.save(args.out)
    except NotFinite as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
    for note in trace.notices:
        _print(f"note: {note}")
    truth = "" if trace.label is None else f"; the picture is a {trace.class_names[trace.label]}"
    _print(
        f"{args.out}: {trace.variant} predicts {trace.prediction_name!r} "
        f"(p = {trace.probabilities[trace.prediction]:.3f}){truth}; "
        f"{_parts(trace)} on {trace.device}, {trace.compute_ms:.1f} ms"
    )
    return 0


def _parts(trace) -> str:
    if hasattr(trace, "blocks"):
        return f"{len(trace.blocks)} blocks"
    text = f"{len(trace.layers)} layers of {trace.config.heads} heads"
    if "rollout" in trace.object_share:
        text += f", rollout share on the object {trace.object_share['rollout']:.2f}"
    return text


def _numbers(option: str, text: str, low: int, high: int) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        fail(f"{option} {text!r}: give whole numbers separated by commas, e.g. 100,1000")
    bad = [v for v in values if not low <= v <= high]
    if bad:
        fail(f"{option}: {bad[0]} is not from {low:,} to {high:,}")
    if len(set(values)) != len(values):
        fail(f"{option} {text!r}: a number is given twice")
    return values


def data_curve_main(argv: list[str]) -> int:
    from explorer.vision.data_curve import MAX_SIZE, SEEDS, SIZES, TEST_SIZE

    parser = Parser(
        prog="python -m explorer data-curve",
        description="Held-out accuracy of the CNN and the vision transformer against training-set size.",
    )
    parser.add_argument("--out", required=True, help="FILE.json (the numbers) or FILE.png (the figure)")
    parser.add_argument(
        "--from", dest="sources", nargs="+", metavar="FILE.json", help="results to draw or merge"
    )
    parser.add_argument("--train", action="store_true", help="train every run again instead (minutes)")
    parser.add_argument("--sizes", default=None, help="with --train: training-set sizes")
    parser.add_argument("--seeds", default=None, help="with --train: seeds")
    parser.add_argument("--steps-cnn", type=int, default=None, help="with --train: a shorter budget")
    parser.add_argument("--steps-vit", type=int, default=None, help="with --train: a shorter budget")
    parser.add_argument("--test-size", type=int, default=None, help="with --train: held-out pictures")
    parser.add_argument(
        "--checkpoints",
        default=None,
        help="with --train: write seed 0's models into this folder; without: read the runs of the models there",
    )
    parser.add_argument("--device", choices=("auto", "cpu", "cuda", "mps"), default="cpu")
    args = parser.parse_args(argv)
    check_out_name(args.out, (".json", ".png"))
    check_out(args.out)
    read = [("--from", p) for p in args.sources or ()]
    check_not_input(args.out, read if args.train else [*read, ("--checkpoints", args.checkpoints)])
    if args.train and args.sources:
        fail("--train and --from: give one of them")
    if not args.train and (args.steps_cnn or args.steps_vit):
        fail("--steps-cnn and --steps-vit go with --train")
    if not args.train and (args.sizes, args.seeds, args.test_size) != (None, None, None):
        fail("--sizes, --seeds and --test-size go with --train (without it the runs are read, not trained)")
    args.sizes = args.sizes or ",".join(map(str, SIZES))
    args.seeds = args.seeds or ",".join(map(str, SEEDS))
    args.test_size = TEST_SIZE if args.test_size is None else args.test_size
    if args.checkpoints and args.sources:
        fail("--checkpoints and --from: give one of them")

    from explorer.vision.data_curve import (
        CurveError,
        CurveResult,
        read_result,
        result_of_checkpoints,
        run_curve,
        shipped_result,
    )

    if args.train:
        sizes = _numbers("--sizes", args.sizes, 1, MAX_SIZE)
        seeds = _numbers("--seeds", args.seeds, 0, MAX_SEED)
        for option, value in (("--steps-cnn", args.steps_cnn), ("--steps-vit", args.steps_vit)):
            if value is not None and not 1 <= value <= 1_000_000:
                fail(f"{option} {value}: it must be from 1 to 1,000,000")
        if not 1 <= args.test_size <= 100_000:
            fail(f"--test-size {args.test_size}: it must be from 1 to 100,000")
        if args.checkpoints:
            folder = Path(args.checkpoints)
            if folder.exists() and not folder.is_dir():
                fail(f"--checkpoints {args.checkpoints}: it is a file; give a folder")
            check_out_folder(args.checkpoints)

        def report(run) -> None:
            _print(
                f"{run.model} on {run.size:,} pictures, seed {run.seed}: held-out accuracy {run.accuracy:.3f}; "
                f"{run.map_kind} on the object {run.share:.2f} ({run.ratio:.1f}× its area); {run.cpu_s:.0f} CPU s"
            )

        try:
            result = run_curve(
                sizes,
                seeds,
                steps={"cnn": args.steps_cnn, "vit": args.steps_vit},
                test_size=args.test_size,
                checkpoints=Path(args.checkpoints) if args.checkpoints else None,
                device=args.device,
                on_run=report,
                command="python -m explorer data-curve " + shlex.join(argv),
            )
        except KeyboardInterrupt:
            fail("training interrupted; nothing written")
        except OSError as exc:
            fail(f"cannot write into {args.checkpoints}: {exc.strerror or exc}")
    elif args.checkpoints:
        try:
            result = result_of_checkpoints(args.checkpoints)
        except CurveError as exc:
            fail(str(exc))
        result.command = "python -m explorer data-curve " + shlex.join(argv)
    else:
        try:
            parts = [read_result(p) for p in args.sources] if args.sources else [shipped_result()]
        except CurveError as exc:
            fail(str(exc))
        result = CurveResult([r for part in parts for r in part.runs], *_merged_story(parts))
        if len({(r.model, r.size, r.seed) for r in result.runs}) != len(result.runs):
            fail("--from: two files hold the same model, size and seed")
        if not result.runs:
            fail("the result holds no runs")
    try:
        if args.out.lower().endswith(".png"):
            from explorer.vision.curve_figure import save_curve_png

            save_curve_png(result, args.out)
        else:
            result.save(args.out)
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
    gaps = ", ".join(f"{n:,}: {g:+.0f}" for n, g in result.gaps().items())
    _print(f"{args.out}: {len(result.runs)} runs; the CNN's lead in points by size: {gaps}")
    return 0


def _checkpoint_inputs(checkpoint: str | None) -> list[tuple[str, str | None]]:
    """The two files ``--checkpoint NAME`` reads (NAME.safetensors and NAME.json)."""
    if checkpoint is None or not checkpoint.strip():
        return []
    from explorer.vision.checkpoints import checkpoint_paths

    stem = checkpoint.removesuffix(".safetensors").removesuffix(".json")
    return [("--checkpoint", str(path)) for path in checkpoint_paths(stem)]


def _merged_story(parts) -> tuple:
    """The command, load average, test set and recipes of merged results (the first file's)."""
    first = parts[0]
    return first.command, first.load_average, first.test, first.recipes


def main(argv: list[str]) -> int:
    """``argv`` starts with the command's name: train-vision, vision or data-curve."""
    if argv[:1] == ["train-vision"]:
        return train_vision_main(argv[1:])
    if argv[:1] == ["data-curve"]:
        return data_curve_main(argv[1:])
    return vision_main(argv[1:])
