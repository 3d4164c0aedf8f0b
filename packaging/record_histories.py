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
    import explorer.lm.train
    import explorer.seq2seq.train
    import explorer.training
    import explorer.vision.train
    from explorer.cli import main
    from explorer.lab.history import History, write_history

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
    names = sorted({k for m in log.metrics for k in m if k != "eval_seconds"})
    history = History(
        command="python -m explorer " + shlex.join(argv),
        losses=tuple(float(v) for v in log.losses),
        eval_steps=tuple(int(s) for s in log.eval_steps),
        metrics={k: tuple(float(m.get(k, float("nan"))) for m in log.metrics) for k in names},
        weights_apart=apart,
    )
    path = write_history(weights, history)
    print(f"{name}: {len(history.losses)} steps, {len(history.eval_steps)} evaluations -> {path}")
    return 0


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
