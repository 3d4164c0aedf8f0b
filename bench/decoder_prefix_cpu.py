"""A keystroke's CPU on the Qwen2.5-0.5B shape: the 16-token forward and the top-10 next tokens at
the last position, every token computed against the earlier text's first tokens reused (1 or 2
new tokens, as typing a character at the end gives). CPU seconds of the process (one torch
thread), which the machine's load inflates far less than the wall clock.

    python bench/decoder_prefix_cpu.py [--repeats 4]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=4)
    args = parser.parse_args(argv)
    import decoder_vs_transformers as bench
    import torch

    from explorer.core.decoder_pass import next_tokens, run_decoder

    torch.set_num_threads(1)
    root = Path(tempfile.mkdtemp(prefix="decoder-prefix-"))
    try:
        folder = bench.build("qwen", root / "qwen")
        model = bench.open_ours(folder)
        ids = bench.token_ids(folder)[:16]
        earlier = run_decoder(model, ids[:15])

        def timed(prefix):
            def once():
                next_tokens(model, run_decoder(model, ids, prefix=prefix).final[-1:], 10)

            once()
            cpu, wall = [], []
            for _ in range(args.repeats):
                w, c = time.perf_counter(), time.process_time()
                once()
                cpu.append(time.process_time() - c)
                wall.append(time.perf_counter() - w)
            return min(cpu) * 1e3, min(wall) * 1e3

        rows = [
            ("every token", None),
            ("15 reused, 1 new", (earlier, 15)),
            ("14 reused, 2 new", (earlier, 14)),
        ]
        load = os.getloadavg()[0]
        print(f"load average {load:.2f}; one torch thread; fastest of {args.repeats}")
        print("| 16 tokens | CPU ms | wall ms |\n|---|---|---|")
        for label, prefix in rows:
            cpu, wall = timed(prefix)
            print(f"| {label} | {cpu:.0f} | {wall:.0f} |")
        print(f"load average after {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
