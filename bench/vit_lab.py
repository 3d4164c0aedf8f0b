"""Vision transformer beside the CNN: the shipped data experiment, a live pair, and the heads.

    python bench/vit_lab.py                        # every table; the live pair trains (~1-2 minutes)
    python bench/vit_lab.py --no-live              # only what the shipped files and a few forward passes say
    python bench/vit_lab.py --markdown table.md    # the same tables as Markdown

Tables:
1. The shipped experiment (resources/vision/curve/results.json, made by ``python -m explorer
   data-curve --train``): held-out accuracy on 2,000 pictures for every model, size and seed,
   the CNN's lead, and the share of each model's attention on the object ÷ the object's share
   of the picture (the CNN: CBAM's block-3 spatial map; the ViT: attention rollout), with the
   CPU seconds each run took (and the load average when the sweep ended).
2. The shipped ViTs' heads against training-set size: mean attention distance (pixels) and self
   share per layer and head, how much more alike neighbouring position embeddings are than the
   rest, and the CLS attention's share on the object per layer.
3. Self share on trained text models (MiniLM, every layer) beside the ViT's: the seed's 3.1 claim
   ("self-attention over-attends to its own position") checked, with the uniform share 1/n.
4. Live (unless --no-live): the pair the window's Train page starts (explorer.appstate.vit:
   the data experiment's recipes cut to the plan's steps, on the plan's pictures), the CNN and
   the ViT trained at the same time on two threads, one torch thread each: wall and training
   seconds of each, final held-out accuracy, the load average before and after; and the ViT's
   position-embedding gap and mean distance at its snapshots (what it learns over training).

Timings are wall clock and thread CPU time; on a shared machine they are inflated: read them with
the load average printed beside them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.appstate.vit import ViTState
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.vision.checkpoints import load_curve
from explorer.vision.data_curve import shipped_result, test_batch
from explorer.vision.measure import attention_mass
from explorer.vision.train import model_at
from explorer.vision.vit import VisionTransformer, ViTConfig
from explorer.vision.vit_measures import measure_vit, position_similarity, position_summary, uniform_distance

SENTENCES = (
    "The animal didn't cross the street because it was too tired",
    "Attention lets every word look at every other word and take what it needs",
)


def loadavg() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def table(title: str, header: list[str], rows: list[list[str]]) -> list[str]:
    return (
        [f"### {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        + ["| " + " | ".join(r) + " |" for r in rows]
        + [""]
    )


def shipped_tables() -> list[str]:
    result = shipped_result()
    rows = []
    for size in result.sizes():
        for model in ("cnn", "vit"):
            for run in result.of(model, size):
                rows.append([f"{size:,}", model, str(run.seed), f"{run.accuracy:.3f}",
                             f"{run.share:.2f} / {run.area:.3f} = {run.ratio:.1f}×", f"{run.cpu_s:.0f}"])  # fmt: skip
    lines = table(
        f"Shipped data experiment (held-out {result.test['count']:,} pictures; sweep ended at load {result.load_average})",
        ["pictures", "model", "seed", "accuracy", "attention on the object ÷ its area", "CPU s"],
        rows,
    )
    summary = [
        [f"{n:,}", f"{result.mean_accuracy('cnn', n):.3f}", f"{result.mean_accuracy('vit', n):.3f}",
         f"{gap:+.1f}", f"{min(result.accuracies('cnn', n)) - max(result.accuracies('vit', n)):+.3f}"]
        for n, gap in result.gaps().items()
    ]  # fmt: skip
    lines += table(
        "Mean over seeds", ["pictures", "CNN", "ViT", "CNN's lead (points)", "worst CNN − best ViT"], summary
    )
    lines += [str(result.caption()), ""]
    heads = []
    for size in result.sizes():
        if not result.of("vit", size):
            continue
        run = result.of("vit", size)[0]
        d = run.details
        for layer, (dist, share) in enumerate(zip(d["mean_distance"], d["self_share"])):
            heads.append([f"{size:,}", f"layer {layer + 1}", " ".join(f"{x:.1f}" for x in dist),
                          " ".join(f"{x:.2f}" for x in share), f"{d['cls_share'][f'layer{layer + 1}']:.2f}",
                          f"{d['position_neighbours'] - d['position_others']:+.2f}" if layer == 0 else ""])  # fmt: skip
    lines += table(
        f"Shipped ViTs (seed 0): heads and position embeddings against training-set size "
        f"(a head spreading its weight evenly looks {uniform_distance(ViTConfig()):.1f} px away; uniform self share 1/65 = 0.015)",
        ["pictures", "layer", "mean distance per head (px)", "self share per head", "CLS share on object",
         "position gap (neighbours − others)"],
        heads,
    )  # fmt: skip
    return lines


def self_share_tables() -> list[str]:
    engine = Engine()
    rows = []
    for layer in range(6):
        shares, uniform = [], []
        for sentence in SENTENCES:
            trace = engine.trace(AttentionConfig(sentence=sentence, layer=layer))
            shares.append(trace.self_share)
            uniform.append(1 / trace.n_key)
        s = np.concatenate(shares)
        rows.append([f"MiniLM layer {layer}", f"{s.mean():.3f}", f"{s.min():.3f}", f"{s.max():.3f}",
                     f"{int((s > 0.5).sum())} of {s.size}", f"{np.mean(uniform):.3f}"])  # fmt: skip
    model, _ = load_curve("vit", 10_000)
    assert isinstance(model, VisionTransformer)
    measured = measure_vit(model, test_batch(500))
    for layer, share in enumerate(measured.self_share):
        rows.append([f"ViT (10,000) layer {layer + 1}", f"{share.mean():.3f}", f"{share.min():.3f}",
                     f"{share.max():.3f}", f"{int((share > 0.5).sum())} of {share.size}",
                     f"{1 / model.config.tokens:.3f}"])  # fmt: skip
    return table(
        "Self share (weight a token keeps on itself), per head, trained models",
        ["model, layer", "mean over heads", "lowest head", "highest head", "heads above 0.5", "uniform 1/n"],
        rows,
    )


def live_tables() -> list[str]:
    """The window's live pair as the Train page starts it (explorer.appstate.vit.ViTState: both
    runs at once, one torch thread each), without the window."""
    before = loadavg()
    lab = ViTState()
    lab.options = replace(lab.options, device="cpu")
    wall = time.perf_counter()
    lab.start_training()
    runs = {"vit": lab.run, "cnn": lab.cnn_run}
    while any(r.running for r in runs.values()):
        time.sleep(0.2)
        lab.poll()
    lab.poll()
    wall = time.perf_counter() - wall
    test = test_batch(500)
    rows = []
    for model, run in runs.items():
        trained = run.result.model
        accuracy = measure_vit(trained, test).accuracy if model == "vit" else attention_mass(trained, test)[0]
        rows.append([model, str(run.step), run.status, f"{run.wall_s:.1f}", f"{run.train_s:.1f}",
                     f"{run.last('accuracy'):.3f}", f"{accuracy:.3f}"])  # fmt: skip
    lines = table(
        f"Live pair on {lab.settings.train_size:,} pictures, {lab.settings.train_steps} steps each, both at once, "
        f"one torch thread each: {wall:.1f} s wall (load {before} before, {loadavg()} after)",
        ["model", "steps", "status", "wall s", "training clock s", "held-out accuracy (500, window's)",
         "accuracy on the 2,000-picture test set's first 500"],
        rows,
    )  # fmt: skip
    vit_run = runs["vit"].result  # the VisionRun: its log keeps every snapshot
    over = []
    for snapshot in (
        vit_run.log.snapshots[:: max(1, len(vit_run.log.snapshots) // 6)] + vit_run.log.snapshots[-1:]
    ):
        model = model_at(vit_run.config, snapshot)
        summary = position_summary(position_similarity(model), model.config.grid)
        measured = measure_vit(model, test_batch(200))
        over.append([str(snapshot.step), f"{summary.gap:+.3f}",
                     " / ".join(f"{d.mean():.1f}" for d in measured.mean_distance), f"{measured.accuracy:.2f}"])  # fmt: skip
    lines += table(
        "The live ViT over training",
        ["step", "position gap", "mean distance per layer (px, mean over heads)", "accuracy (200)"],
        over,
    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-live", action="store_true")
    parser.add_argument("--markdown", default=None)
    args = parser.parse_args()
    torch.set_num_threads(1)
    lines = [f"torch {torch.__version__}, {os.cpu_count()} CPUs, load {loadavg()}", ""]
    lines += shipped_tables()
    lines += self_share_tables()
    if not args.no_live:
        lines += live_tables()
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
