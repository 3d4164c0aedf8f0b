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

from explorer.failing import Parser, check_out, check_out_file, fail
from explorer.finite import NotFinite

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
    from explorer.vision.models import VARIANTS

    parser = Parser(prog="python -m explorer train-vision", description="Train a vision model from scratch.")
    parser.add_argument("--model", choices=VARIANTS, required=True)
    parser.add_argument("--reduction", type=int, default=4, help="r: SE/CBAM bottleneck of C/r units")
    parser.add_argument("--kernel", type=int, default=7, help="CBAM's spatial convolution size (odd)")
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--out", required=True, help="a folder: MODEL.safetensors and MODEL.json go there")
    parser.add_argument("--name", default=None, help="file name stem (default: the model variant)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--eval-every", type=int, default=25)
    parser.add_argument("--pool-size", type=int, default=4096, help="how many training pictures to draw from")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads (1 is fastest for this size)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda", "mps"), default="auto")
    args = parser.parse_args(argv)
    seed = _seed(args.seed)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        fail(f"--out {args.out}: it is a file; give a folder")
    check_out(args.out)  # the folder itself may be new, not its parents
    name = args.name or args.model
    if not name or "/" in name or "\\" in name or name.startswith("."):
        fail(f"--name {name!r}: give a plain file name stem")

    from explorer.lab import TrainOptions
    from explorer.training import TrainingCancelled
    from explorer.vision.checkpoints import save_checkpoint
    from explorer.vision.measure import attention_mass
    from explorer.vision.models import VisionConfig, VisionConfigError
    from explorer.vision.shapes import held_out
    from explorer.vision.train import train_config

    try:
        config = VisionConfig(variant=args.model, reduction=args.reduction, kernel=args.kernel)
        options = TrainOptions(
            steps=args.steps,
            seed=seed,
            batch_size=args.batch_size,
            learning_rate=args.lr,
            eval_every=args.eval_every,
            pool_size=args.pool_size,
            device=args.device,
            threads=args.threads,
            snapshot_every=0,
        )
    except (VisionConfigError, ValueError) as exc:
        fail(str(exc))

    def report(p) -> None:
        if p.metrics:
            _print(
                f"step {p.step}/{p.total_steps}  loss {p.loss:.4f}  "
                f"held-out accuracy {p.metrics['accuracy']:.3f}  {p.elapsed_s:.1f} s"
            )

    started = time.perf_counter()
    try:
        run = train_config(config, options, on_progress=report)
    except TrainingCancelled as exc:
        fail(f"training stopped after {exc.log.steps_done} steps; nothing written")
    except KeyboardInterrupt:
        fail("training interrupted; nothing written")
    seconds = time.perf_counter() - started
    for notice in run.notices:
        _print(f"note: {notice}")
    accuracy, ratios = attention_mass(run.model, held_out(1000))
    info = {
        "trained_by": "python -m explorer train-vision " + shlex.join(argv),
        "steps": options.steps,
        "seed": seed,
        "batch_size": options.batch_size,
        "pool_size": options.pool_size,
        "learning_rate": options.learning_rate,
        "device": run.device,
        "train_seconds": round(seconds, 1),
        "held_out_accuracy_1000": accuracy,
        "attention_mass": [
            {"block": r.block, "kind": r.kind, "share": r.share, "area": r.area, "ratio": r.ratio}
            for r in ratios
        ],
    }
    try:
        weights, described = save_checkpoint(run.model, out / name, info)
    except NotFinite as exc:  # the run diverged: its loss is NaN
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write into {args.out}: {exc.strerror or exc}")
    ratio_text = ", ".join(f"{r.block} {r.kind} {r.ratio:.2f}×" for r in ratios)
    _print(f"held-out accuracy on 1,000 pictures: {accuracy:.3f}; mass on the object: {ratio_text}")
    _print(
        f"{weights} and {described.name}: {args.model}, {options.steps} steps, {seconds:.1f} s on {run.device}"
    )
    return 0


def vision_main(argv: list[str]) -> int:
    from explorer.vision.models import VARIANTS

    parser = Parser(
        prog="python -m explorer vision", description="Every stage of one picture through one model."
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", help="a PNG (JPEG, BMP and GIF work too); any size is resized")
    source.add_argument("--generate", metavar="SEED", help="a generated picture (with its object mask)")
    parser.add_argument("--model", choices=VARIANTS, default=None, help="a shipped model (default: cbam)")
    parser.add_argument(
        "--checkpoint",
        default=None,
        help="a trained NAME (NAME.safetensors + NAME.json) instead of a shipped model",
    )
    parser.add_argument("--device", choices=("auto", "cpu", "cuda", "mps"), default="auto")
    parser.add_argument("--out", required=True, help="FILE.json or FILE.npz")
    args = parser.parse_args(argv)
    check_out_file(args.out)

    # The picture first: a bad one is refused before any model is read.
    from explorer.vision.images import ImageError, load_image
    from explorer.vision.shapes import generate

    mask = label = None
    notices: list[str]  # keyed Messages, and the command line's own note about --model
    if args.image is not None:
        try:
            loaded = load_image(args.image)
        except ImageError as exc:
            fail(str(exc))
        image, notices, source_text = loaded.pixels, list(loaded.notices), f"image:{args.image}"
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
    from explorer.vision.checkpoints import CheckpointError, load_checkpoint, load_shipped
    from explorer.vision.trace import run_model

    try:
        if args.checkpoint is not None:  # "" is refused, not read as the shipped model
            model, _ = load_checkpoint(args.checkpoint.removesuffix(".safetensors").removesuffix(".json"))
            if args.model not in (None, model.config.variant):
                notices.append(
                    f"--checkpoint holds a {model.config.variant} model: --model {args.model} ignored"
                )
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
    try:
        trace = run_model(model, image, object_mask=mask, label=label, source=source_text, notices=notices)
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
        f"{len(trace.blocks)} blocks on {trace.device}, {trace.compute_ms:.1f} ms"
    )
    return 0


def main(argv: list[str]) -> int:
    """``argv`` starts with the command's name: train-vision or vision."""
    if argv[:1] == ["train-vision"]:
        return train_vision_main(argv[1:])
    return vision_main(argv[1:])
