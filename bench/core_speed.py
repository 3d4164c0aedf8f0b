"""Core speed: staged attention vs fused SDPA, the pretrained forward, start to first trace.

    python bench/core_speed.py [--repeat N]

Prints tables; numbers are medians over repeats, measured in one run on the machine it runs on.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from explorer.core.attention import Settings, attend_heads
from explorer.core.config import AttentionConfig
from explorer.core.device import threads_for
from explorer.core.engine import Engine


def median_ms(fn, repeat: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def staged_vs_fused(repeat: int) -> None:
    print("\nStaged pipeline (keeps every stage) vs fused scaled_dot_product_attention, 8 heads, d_k 64")
    print(f"{'n':>6} {'threads':>7} {'staged ms':>10} {'fused ms':>10} {'ratio':>6}")
    settings = Settings(8)
    for n in (16, 128, 512, 2048):
        q, k, v = (torch.randn(8, n, 64) for _ in range(3))
        with torch.inference_mode(), threads_for(8 * n * n * 64) as threads:
            reps = repeat if n <= 512 else max(3, repeat // 10)
            staged = median_ms(lambda q=q, k=k, v=v: attend_heads(q, k, v, settings), reps)
            fused = median_ms(lambda q=q, k=k, v=v: F.scaled_dot_product_attention(q, k, v), reps)
        print(f"{n:>6} {threads:>7} {staged:>10.3f} {fused:>10.3f} {staged / fused:>6.2f}")


def pretrained_forward(repeat: int) -> None:
    engine = Engine()
    model = engine.model()
    print(
        f"\nPretrained {model.name}: encoder forward (all {model.config.num_hidden_layers} layers) "
        "and a full trace (cached encoder)"
    )
    print(f"{'tokens':>6} {'threads':>7} {'encoder ms':>11} {'trace ms':>9} {'attention ms':>13}")
    for n in (16, 128, 512):
        ids = torch.tensor([101] + [2023] * (n - 2) + [102])
        work = n * model.config.hidden_size**2 * 12 * model.config.num_hidden_layers
        with threads_for(work) as threads:
            enc = median_ms(
                lambda ids=ids: model.encoder.hidden_states(ids), repeat if n < 512 else max(3, repeat // 4)
            )
        config = AttentionConfig(sentence=" ".join(["this"] * (n - 2)))
        engine.trace(config)
        runs = [engine.trace(config).timings_ms for _ in range(max(3, repeat // 4))]
        total = statistics.median(r["total"] for r in runs)
        attn = statistics.median(r["attention"] for r in runs)
        print(f"{n:>6} {threads:>7} {enc:>11.2f} {total:>9.2f} {attn:>13.2f}")


def start_to_first_trace() -> None:
    code = (
        "import time; t0=time.perf_counter();"
        "from explorer.core import Engine, AttentionConfig;"
        "t1=time.perf_counter(); e=Engine(); tr=e.trace(AttentionConfig());"
        "t2=time.perf_counter(); print(f'{(t1-t0)*1e3:.0f} {(t2-t1)*1e3:.0f}')"
    )
    print("\nProcess start to first trace (pretrained, 'Thinking Machines'), 3 runs")
    print(f"{'wall ms':>8} {'imports ms':>10} {'load+trace ms':>13}")
    root = Path(__file__).resolve().parents[1]
    for _ in range(3):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True
        )
        wall = (time.perf_counter() - start) * 1e3
        imports, first = out.stdout.split()
        print(f"{wall:>8.0f} {imports:>10} {first:>13}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"torch {torch.__version__}, python {platform.python_version()}"
    )
    staged_vs_fused(args.repeat)
    pretrained_forward(args.repeat)
    start_to_first_trace()


if __name__ == "__main__":
    main()
