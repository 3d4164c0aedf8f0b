"""A keystroke's CPU on the Qwen2.5-0.5B shape: the 16-token forward and the top-10 next tokens at
the last position, every token computed or the earlier text's first tokens reused (1 or 2 new
tokens, as typing a character at the end gives). Each row is measured both ways, alternated:
the few-row products of ``explorer.models.decoder.linear`` (the default: 2–3 rows a
matrix-vector product per row over cached blocks of the weight, up to 64 rows (W Xᵀ)ᵀ) and
plain F.linear everywhere. GUI-free: CPU seconds of this thread (one torch thread), which the machine's load
inflates far less than the wall clock.

    python bench/decoder_prefix_cpu.py [--repeats 6] [--folder DIR (an existing Qwen-shape folder)]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args(argv)
    import decoder_vs_transformers as bench
    import torch

    from explorer.core.decoder_pass import next_tokens, run_decoder
    from explorer.models import decoder

    torch.set_num_threads(1)
    root = Path(tempfile.mkdtemp(prefix="decoder-prefix-"))
    try:
        folder = args.folder or bench.build("qwen", root / "qwen")
        model = bench.open_ours(folder)
        model.weights.wait_converted()  # the float32 copies, made on a thread after the open
        ids = bench.token_ids(folder)[:16]
        earlier = run_decoder(model, ids[:15])
        few_rows = decoder.FEW_ROWS

        def once(prefix, rows):
            decoder.FEW_ROWS = rows
            try:
                started = time.thread_time()
                next_tokens(model, run_decoder(model, ids, prefix=prefix).final[-1:], 10)
                return (time.thread_time() - started) * 1e3
            finally:
                decoder.FEW_ROWS = few_rows

        rows = [
            ("15 reused, 1 new", (earlier, 15)),
            ("14 reused, 2 new", (earlier, 14)),
            ("every token", None),
        ]
        load = os.getloadavg()[0]
        print(f"load average {load:.2f}; one torch thread; median (fastest) of {args.repeats}, alternated")
        print(
            "| 16 tokens → top-10 at the last | CPU ms, few-row products (default) | CPU ms, F.linear |\n|---|---|---|"
        )
        for label, prefix in rows:
            once(prefix, few_rows), once(prefix, 1)  # warm
            ours, plain = [], []
            for _ in range(args.repeats):
                ours.append(once(prefix, few_rows))
                plain.append(once(prefix, 1))
            print(f"| {label} | {statistics.median(ours):.0f} ({min(ours):.0f}) "
                  f"| {statistics.median(plain):.0f} ({min(plain):.0f}) |")  # fmt: skip
        print(f"load average after {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
