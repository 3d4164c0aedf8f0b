"""What importing pyqtgraph on the GUI thread at start-up costs the first painted window.

    python bench/plotting_at_start.py [--runs 5] [--other /path/to/another/checkout]

Per run, in turn (the machine's load hits them alike): ``main.py --first-paint-exit`` from this
checkout (pyqtgraph imported in configure_app, before the window) and, with ``--other``, from
another checkout (e.g. one that imports it later, on a thread); and the bare
``import PySide6.QtWidgets`` then ``import pyqtgraph`` in a fresh process, timed inside it:
the import's own cost. Wall clock, median and range; the load average beside them. Never
used for assertions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

from interaction import until_marked

ROOT = Path(__file__).resolve().parents[1]
IMPORT_ONLY = (
    "import time, torch, PySide6.QtWidgets; t = time.perf_counter(); import pyqtgraph; "
    "print(f'{(time.perf_counter() - t) * 1e3:.0f}', flush=True)"
)


def paint_ms(root: Path) -> float:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(root))
    return until_marked([sys.executable, str(root / "main.py"), "--first-paint-exit"], "first-paint", env)


def import_ms() -> float:
    out = subprocess.run([sys.executable, "-c", IMPORT_ONLY], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--other", type=Path, default=None, help="another checkout to compare with")
    args = ap.parse_args()
    rows: dict[str, list[float]] = {"first paint, this checkout": [], "import pyqtgraph alone": []}
    if args.other:
        rows[f"first paint, {args.other}"] = []
    loads = [os.getloadavg()[0]]
    for _ in range(args.runs):
        rows["first paint, this checkout"].append(paint_ms(ROOT))
        if args.other:
            rows[f"first paint, {args.other}"].append(paint_ms(args.other.resolve()))
        rows["import pyqtgraph alone"].append(import_ms())
        loads.append(os.getloadavg()[0])
    print(f"{'what':<44} {'median ms':>10} {'min':>7} {'max':>7}")
    for name, times in rows.items():
        print(f"{name:<44} {statistics.median(times):>10.0f} {min(times):>7.0f} {max(times):>7.0f}")
    print(f"load average (1 min) {min(loads):.1f}–{max(loads):.1f} over {args.runs} runs")


if __name__ == "__main__":
    main()
