"""Why the decoder bench reads a child's peak memory from VmHWM, not getrusage: a parent that
holds a large array starts children; each child reports both numbers, with and without an
allocation of its own. ru_maxrss shows the parent's peak in every child; VmHWM the child's own.

    python bench/peak_memory_check.py [--parent-mb 600] [--child-mb 200]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

CHILD = """
import resource, sys
from pathlib import Path
n = int(sys.argv[1])
block = bytearray(n * 2**20)  # touched: resident
for i in range(0, len(block), 4096):
    block[i] = 1
hwm = next(int(l.split()[1]) for l in Path('/proc/self/status').read_text().splitlines() if l.startswith('VmHWM:'))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, hwm)
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parent-mb", type=int, default=600)
    parser.add_argument("--child-mb", type=int, default=200)
    args = parser.parse_args(argv)
    held = bytearray(args.parent_mb * 2**20)
    for i in range(0, len(held), 4096):
        held[i] = 1
    print(f"load average {os.getloadavg()[0]:.2f}; the parent holds {args.parent_mb} MiB")
    print("| child allocates | ru_maxrss (MiB) | VmHWM (MiB) |\n|---|---|---|")
    for mb in (0, args.child_mb):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(mb)], capture_output=True, text=True, check=True
        )
        maxrss, hwm = (int(v) / 1024 for v in out.stdout.split())
        print(f"| {mb} MiB | {maxrss:.0f} | {hwm:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
