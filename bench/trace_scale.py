"""Traces that scale: `trace` at 512-4,096 random tokens, and the fused softmax + entropy.

    python bench/trace_scale.py [--tokens 512,2048,4096] [--repeat 3]

First table: the `trace` command as a fresh process per row (imports included, as a user
runs it), wall seconds and peak resident memory (the process's ru_maxrss from wait4),
median of --repeat runs. Second table: in one process, the softmax and the row entropy
as two passes (softmax, then entr) against the fused pass the engine uses, 8 heads; third:
``engine.trace`` of every stage, what the window computes for a paste.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (stages, format, dtype); JSON of every stage only where the file stays under ~1 GB.
CASES = [
    ("weights", "npz", "float32"),
    ("weights", "npz", "float16"),
    ("all", "npz", "float32"),
    ("weights", "json", "float32"),
    ("all", "json", "float32"),
]
GOALS = {
    (2048, "weights", "npz", "float32"): (5.0, 1024),
    (4096, "weights", "npz", "float32"): (15.0, None),
}


def random_text(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) for _ in range(n))


def run_trace(n: int, stages: str, fmt: str, dtype: str, folder: Path) -> tuple[float, float, int]:
    """Seconds, peak MB and file bytes of one `trace` process."""
    out = folder / f"t{n}.{fmt}"
    argv = [sys.executable, "-m", "explorer", "trace", "--weights", "random", "--sentence", random_text(n)]
    argv += ["--dtype", dtype, "--out", str(out)] + ([] if stages == "all" else ["--stages", stages])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"trace failed at {n} tokens: {proc.stderr.read().decode()}")
    size = out.stat().st_size
    out.unlink()
    return seconds, usage.ru_maxrss / 1024, size  # Linux: ru_maxrss in KiB


def command_table(tokens: list[int], repeat: int) -> None:
    print("\n`trace --weights random`, one process per run (imports included), median of", repeat)
    print(
        f"{'tokens':>6} {'stages':>8} {'format':>6} {'dtype':>8} {'seconds':>8} {'peak MB':>8} {'file MB':>8}  goal"
    )
    with tempfile.TemporaryDirectory(prefix="trace-scale-") as tmp:
        for n in tokens:
            for stages, fmt, dtype in CASES:
                if (stages, fmt) == ("all", "json") and n > 512:
                    continue  # 3 × 8 × n² numbers as text: gigabytes
                runs = [run_trace(n, stages, fmt, dtype, Path(tmp)) for _ in range(repeat)]
                seconds = statistics.median(r[0] for r in runs)
                peak = max(r[1] for r in runs)
                goal = GOALS.get((n, stages, fmt, dtype))
                verdict = ""
                if goal:
                    ok = seconds <= goal[0] and (goal[1] is None or peak <= goal[1])
                    limit = f"≤ {goal[0]:g} s" + (f", ≤ {goal[1]} MB" if goal[1] else "")
                    verdict = f"{limit}: {'met' if ok else 'MISSED'}"
                print(
                    f"{n:>6} {stages:>8} {fmt:>6} {dtype:>8} {seconds:>8.2f} {peak:>8.0f} "
                    f"{runs[0][2] / 1e6:>8.1f}  {verdict}",
                    flush=True,
                )


def fused_table(tokens: list[int], repeat: int) -> None:
    import torch

    from explorer.core.attention import build_mask, row_entropy, softmax_with_entropy
    from explorer.core.config import MaskSpec
    from explorer.core.device import threads_for

    def two_passes(scaled, mask):
        weights = torch.softmax(scaled.masked_fill(~mask, float("-inf")), dim=-1)
        weights = weights.where(mask.any(dim=-1, keepdim=True), 0.0)
        return weights, row_entropy(weights)

    print("\nSoftmax + row entropy, 8 heads, in one process (best of", repeat, "), seconds")
    print(f"{'tokens':>6} {'mask':>7} {'two passes':>11} {'fused':>7} {'max |ΔH|':>9}")
    for n in tokens:
        scaled = torch.randn(8, n, n, generator=torch.Generator().manual_seed(0)) * 3
        for kind in ("none", "causal"):
            mask = build_mask(MaskSpec(kind), n, n)
            times = {}
            with threads_for(10**12):
                for name, fn in (("two", two_passes), ("fused", softmax_with_entropy)):
                    best = float("inf")
                    for _ in range(repeat):
                        start = time.perf_counter()
                        result = fn(scaled, mask)
                        best = min(best, time.perf_counter() - start)
                    times[name] = (best, result)
            diff = (times["two"][1][1] - times["fused"][1][1]).abs().max().item()
            print(
                f"{n:>6} {kind:>7} {times['two'][0]:>11.3f} {times['fused'][0]:>7.3f} {diff:>9.1e}",
                flush=True,
            )
            del times


def engine_table(tokens: list[int], repeat: int) -> None:
    from explorer.core.config import AttentionConfig
    from explorer.core.engine import Engine

    engine = Engine()
    print("\nengine.trace, every stage (the window's compute), 8 heads, random weights, best of", repeat)
    print(f"{'tokens':>6} {'total ms':>9} {'prepare ms':>11} {'attention ms':>13}")
    for n in tokens:
        config = AttentionConfig(sentence=random_text(n), weights="random")
        runs = []
        for _ in range(repeat):
            runs.append(engine.trace(config).timings_ms)
        best = min(runs, key=lambda t: t["total"])
        print(f"{n:>6} {best['total']:>9.0f} {best['prepare']:>11.0f} {best['attention']:>13.0f}", flush=True)
        del runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", default="512,2048,4096")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tokens = [int(t) for t in args.tokens.split(",")]
    import torch

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"torch {torch.__version__}, python {platform.python_version()}, load average {load:.2f}"
    )
    command_table(tokens, args.repeat)
    fused_table(tokens, args.repeat)
    engine_table(tokens, args.repeat)


if __name__ == "__main__":
    main()
