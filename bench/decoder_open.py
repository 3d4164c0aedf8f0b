"""Opening the Qwen2.5-0.5B-shaped folder after the imports, in fresh processes: wall clock,
CPU (user and system, every thread: the tokenizer loads on a thread of its own) and page
faults. The folder's tokenizer.json has a real Qwen2 one's shape (151,643 byte-level BPE
tokens, ~151 k merges, tokens 2–8 characters: ~5 MB), and its weights are bfloat16, kept as
float32 copies: most of the system time is the first touch of those 2 GB.

    python bench/decoder_open.py [--runs 3] [--folder DIR (an existing Qwen-shape folder)] [--code CHECKOUT]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ONE_OPEN = """
import resource, sys, time
sys.path[:0] = [{root!r}]
import torch
torch.set_num_threads(1)
import explorer.core.engine  # the explorer's imports, before the clock starts
from pathlib import Path
from explorer.models.loader import load_model
before, started = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
load_model(Path({folder!r}))
wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF)
print(wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, after.ru_minflt - before.ru_minflt)
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=None)
    parser.add_argument(
        "--code", type=Path, default=HERE.parent, help="the checkout whose explorer opens it (to compare)"
    )
    args = parser.parse_args(argv)
    sys.path[:0] = [str(HERE.parent), str(HERE)]
    import decoder_vs_transformers as bench

    root = Path(tempfile.mkdtemp(prefix="decoder-open-"))
    try:
        folder = args.folder or bench.build("qwen", root / "qwen")
        size = (folder / "tokenizer.json").stat().st_size / 1e6
        print(
            f"load average {os.getloadavg()[0]:.2f}; tokenizer.json {size:.1f} MB; fresh process each run; code {args.code}"
        )
        print("| run | wall s | user s | system s | page faults |\n|---|---|---|---|---|")
        for run in range(args.runs):
            code = ONE_OPEN.format(root=str(args.code), folder=str(folder))
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            wall, user, system, faults = done.stdout.split()
            print(
                f"| {run + 1} | {float(wall):.2f} | {float(user):.2f} | {float(system):.2f} | {int(faults):,} |"
            )
        print(f"load average after {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
