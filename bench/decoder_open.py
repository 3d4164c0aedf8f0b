"""Opening the Qwen2.5-0.5B-shaped folder after the imports, in fresh processes: wall clock,
CPU (user and system, every thread: the tokenizer loads on a thread of its own) and page
faults; then the first 256-token trace (while the float32 copies are made on their thread),
when every copy is made, and the process's peak RSS. The folder's tokenizer.json has a real Qwen2 one's shape (151,643 byte-level BPE
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
model = load_model(Path({folder!r}))
wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF)
# The first trace after open (256 tokens, every layer's attention kept, the top 10 after the
# last), while the float32 copies are still being made on their thread, then that thread's end.
from explorer.core.decoder_pass import next_tokens, run_decoder
sys.path[:0] = [{bench!r}]
from decoder_vs_transformers import TEXT
ids = torch.tensor(model.tokenizer.encode(TEXT * 8, 256).ids)
traced, thread0 = time.perf_counter(), time.thread_time()
run = run_decoder(model, ids, keep_weights=range(model.config.num_hidden_layers))
next_tokens(model, run.final[-1:], 10)
trace_wall, trace_cpu = time.perf_counter() - traced, time.thread_time() - thread0
wait = getattr(model.weights, "wait_converted", None)
if wait is not None:
    wait()
converted = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
print(wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, after.ru_minflt - before.ru_minflt,
      trace_wall, trace_cpu, converted, peak)
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
        print(
            "| run | open: wall s | user s | system s | page faults | first 256-token trace: wall s "
            "| its thread CPU s | every copy made, s after the open began | peak RSS GB |"
            "\n|---|---|---|---|---|---|---|---|---|"
        )
        for run in range(args.runs):
            code = ONE_OPEN.format(root=str(args.code), folder=str(folder), bench=str(HERE))
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            wall, user, system, faults, trace_wall, trace_cpu, converted, peak = map(
                float, done.stdout.split()
            )
            print(
                f"| {run + 1} | {wall:.2f} | {user:.2f} | {system:.2f} | {int(faults):,} | {trace_wall:.2f} "
                f"| {trace_cpu:.2f} | {converted:.2f} | {peak:.2f} |"
            )
        print(f"load average after {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
