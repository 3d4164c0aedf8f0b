"""Record a shipped checkpoint's training history: its loss at every step and its held-out
numbers at every evaluation, for the labs' training pages to draw before any run.

    python packaging/record_histories.py vision-cbam lm-induction …   (names: NAMES below)

Each name re-runs the very command its checkpoint says trained it (its ``trained_by`` /
``command``), in this process with the training loop's log kept, into a temporary folder;
then compares the weights it ended with to the shipped file, tensor by tensor. Only when
they are the same (the same run: same seed, same code, one CPU thread) is the history
written beside the checkpoint (explorer.lab.history: ``NAME.history.json``), with how far the
weights were apart (0.0: bit for bit). A run that does not reproduce the shipped weights
writes nothing and says so: its curve would not be the shipped run's. ``--tolerance T``
accepts weights at most T apart (the language model's re-run on torch 2.13 ends 0.026 from
the shipped weights, its probe losses the same to three decimals: the history says how far).

Two labs train a pair, and their shipped checkpoints were not written by one command each:

* Global vs local (``window-TASK-LOCAL``): the shipped ``TASK-global`` and ``TASK-LOCAL`` were
  trained one at a time (bench/local_attention.py --save), with the same seed on the same
  batches; the lab's own trainer (explorer.seq2seq.local_lab.train_window_pair) trains both
  together, its evaluations every 50 steps left out of their weights. The pair's run is
  recorded when both models end on their shipped weights (float16, as shipped), beside the
  local model's: the loss the page draws (the mean of the two) and ``window_share`` per
  evaluation.
  (The pair trained together ends on the weights each model trained alone ends on, bit for
  bit: checked over 60 steps. The shipped pairs, though, were trained before later changes to
  the sequence code: today's commands end 0.30 (copy-twice-global) and 0.57 (reorder-zh-global)
  from them, so nothing is written until they are trained again.)
* ViT vs CNN (``curve-MODEL-SIZE``): the data experiment's seed-0 run of one model
  (explorer.vision.data_curve.train_one, its evaluations every 250 steps), recorded beside
  ``resources/vision/curve/MODEL-SIZE.safetensors``; each prints its accuracy on the
  experiment's test pictures beside the shipped run's. On 2026-12-03 only vit-100 came out
  the same (``--tolerance 0.05``: 0.004 apart, 0.3745 both); vit-1000 ended 0.034 apart but
  0.6875 against 0.6665 (not written: another run), cnn-100 0.25 and cnn-1000 0.15 apart.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# name: (the shipped weights, the file that names the command, the command's --out/--save target)
NAMES = {
    "vision-cbam": ("resources/vision/cbam.safetensors", "resources/vision/cbam.json"),
    "vision-se": ("resources/vision/se.safetensors", "resources/vision/se.json"),
    "vision-plain": ("resources/vision/plain.safetensors", "resources/vision/plain.json"),
    "vision-residual": ("resources/vision/residual.safetensors", "resources/vision/residual.json"),
    "lm-induction": ("resources/lm/induction/model.safetensors", "resources/lm/induction/config.json"),
    "lm-text": ("resources/lm/text/model.safetensors", "resources/lm/text/config.json"),
    "translation-luong-general": (
        "resources/seq2seq/luong-general/model.safetensors",
        "resources/seq2seq/luong-general/config.json",
    ),
    "translation-transformer-scaled-dot": (
        "resources/seq2seq/transformer-scaled-dot/model.safetensors",
        "resources/seq2seq/transformer-scaled-dot/config.json",
    ),
    "translation-bahdanau-additive": (
        "resources/seq2seq/bahdanau-additive/model.safetensors",
        "resources/seq2seq/bahdanau-additive/config.json",
    ),
}


# window-TASK-LOCAL: (task, local model, the shipped steps)
PAIRS = {
    f"window-{task}-{local}": (task, local, steps)
    for task, steps in (("copy-twice", 1000), ("reorder-zh", 1500))
    for local in ("local-m", "local-p", "local-p-ours")
}
# curve-MODEL-SIZE: the data experiment's shipped seed-0 checkpoints the ViT vs CNN pair page draws
CURVES = {f"curve-{model}-{size}": (model, size) for model in ("vit", "cnn") for size in (100, 1000)}


def command_of(story_path: Path) -> list[str]:
    import json

    story = json.loads(story_path.read_text(encoding="utf-8"))
    command = story.get("trained_by") or story.get("attention_explorer", {}).get("command")
    command = command or story.get("training", {}).get("command")
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "explorer"], command
    return words[3:]


def retargeted(argv: list[str], out: Path) -> list[str]:
    argv = list(argv)
    if "--out" in argv:
        argv[argv.index("--out") + 1] = str(out)
    else:
        argv += ["--out", str(out)]
    return argv


def record(name: str, tolerance: float = 0.0) -> int:
    if name in PAIRS:
        return record_pair(name, tolerance)
    if name in CURVES:
        return record_curve(name, tolerance)
    import explorer.lm.train
    import explorer.seq2seq.train
    import explorer.training
    import explorer.vision.train
    from explorer.cli import main

    weights, story = (ROOT / p for p in NAMES[name])
    argv = command_of(story)
    logs = []
    original = explorer.training.train

    def keeping(*args, **kwargs):
        log = original(*args, **kwargs)
        logs.append(log)
        return log

    for module in (explorer.vision.train, explorer.lm.train, explorer.seq2seq.train):
        module.train = keeping  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        if name.startswith("vision"):
            out = Path(tmp)
        code = main(retargeted(argv, out))
        if code != 0 or len(logs) != 1:
            print(f"{name}: the command ended {code} with {len(logs)} runs: nothing written")
            return 1
        made = next(p for p in Path(tmp).rglob(weights.name))
        apart = weights_apart(weights, made)
    if apart is None or apart > tolerance:
        print(f"{name}: the weights differ from the shipped ones (by {apart}): nothing written")
        return 1
    log = logs[0]
    return written(name, weights, "python -m explorer " + shlex.join(argv), log, measured_names(log), apart)


def record_pair(name: str, tolerance: float = 0.0) -> int:
    from dataclasses import replace

    from explorer.seq2seq.local_lab import DEFAULTS, WindowPair, train_window_pair
    from explorer.seq2seq.sequence_checkpoints import shipped_sequence_folder

    task, local, steps = PAIRS[name]
    pair = WindowPair(local, 3, task)
    options = replace(DEFAULTS, steps=steps, seed=0, snapshot_every=0, threads=1, device="cpu")
    result = train_window_pair(pair, options)
    apart = 0.0
    for model in pair.names:
        shipped = load(shipped_sequence_folder(task, model) / "model.safetensors")
        made = {k: t.detach().cpu() for k, t in result.models[model].state_dict().items()}
        made = {k: t.half() if t.is_floating_point() else t for k, t in made.items()}  # --float16
        one = tensors_apart(shipped, made)
        apart = max(apart, one if one is not None else float("inf"))
    if apart > tolerance:
        print(f"{name}: the weights differ from the shipped ones (by {apart}): nothing written")
        return 1
    command = (
        f"python -m explorer train --model {local} --task {task} --steps {steps} --seed 0 --window 3 "
        f"--device cpu --float16, beside --model global on the same batches "
        f"(explorer.seq2seq.local_lab.train_window_pair, an evaluation every {options.eval_every} steps)"
    )
    weights = shipped_sequence_folder(task, local) / "model.safetensors"
    return written(name, weights, command, result.log, ("window_share", "window_error"), apart)


def record_curve(name: str, tolerance: float = 0.0) -> int:
    import json

    from explorer.vision.data_curve import SHIPPED_SEED, TEST_SIZE, recipe_for, train_one

    model, size = CURVES[name]
    recipe = recipe_for(model, size, SHIPPED_SEED)
    run, measured = train_one(model, size, SHIPPED_SEED, recipe=recipe)
    weights = ROOT / "resources" / "vision" / "curve" / f"{model}-{size}.safetensors"
    made = {k: t.detach().cpu().contiguous() for k, t in run.model.state_dict().items()}
    apart = tensors_apart(load(weights), made)
    shipped_accuracy = json.loads(weights.with_suffix(".json").read_text(encoding="utf-8"))["accuracy"]
    print(
        f"{name}: held-out accuracy on the experiment's {TEST_SIZE:,} test pictures {measured.accuracy:.4f} "
        f"(the shipped run's {shipped_accuracy:.4f}), weights {apart} apart"
    )
    if apart is None or apart > tolerance:
        print(f"{name}: the weights differ from the shipped ones (by {apart}): nothing written")
        return 1
    command = (
        f"python -m explorer data-curve --train --sizes {size} --seeds {SHIPPED_SEED} "
        f"--steps-{model} {recipe.options.steps} --checkpoints resources/vision/curve --out results.json "
        f"(its {model}, an evaluation every {recipe.options.eval_every} steps)"
    )
    return written(name, weights, command, run.log, measured_names(run.log), apart)


def measured_names(log) -> list[str]:
    """Every metric the run evaluated (not the evaluations' own timing)."""
    return sorted({k for m in log.metrics for k in m if k != "eval_seconds"})


def written(name: str, weights: Path, command: str, log, names, apart: float) -> int:
    """The run's curves as the history beside ``weights`` (explorer.lab.history)."""
    from explorer.lab.history import History, write_history

    history = History(
        command=command,
        losses=tuple(float(v) for v in log.losses),
        eval_steps=tuple(int(s) for s in log.eval_steps),
        metrics={k: tuple(float(m.get(k, float("nan"))) for m in log.metrics) for k in names},
        weights_apart=apart,
    )
    path = write_history(weights, history)
    print(f"{name}: {len(history.losses)} steps, {len(history.eval_steps)} evaluations -> {path}")
    return 0


def load(path: Path):
    from safetensors.torch import load_file

    return load_file(str(path))


def tensors_apart(a, b) -> float | None:
    if a.keys() != b.keys():
        return None
    return max(float((a[k].double() - b[k].double()).abs().max()) if a[k].numel() else 0.0 for k in a)


def weights_apart(shipped: Path, made: Path) -> float | None:
    from safetensors.torch import load_file

    a, b = load_file(str(shipped)), load_file(str(made))
    if a.keys() != b.keys():
        return None
    return max(float((a[k].double() - b[k].double()).abs().max()) if a[k].numel() else 0.0 for k in a)


if __name__ == "__main__":
    args = sys.argv[1:]
    tolerance = 0.0
    if "--tolerance" in args:  # a run on another CPU, or after a change to the code's floating point
        at = args.index("--tolerance")
        tolerance = float(args[at + 1])
        del args[at : at + 2]
    sys.exit(max([record(n, tolerance) for n in args] or [0]))
