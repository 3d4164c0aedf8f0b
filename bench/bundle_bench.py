#!/usr/bin/env python3
"""Size and start-up time of the PyInstaller bundle against running from source.

    python bench/bundle_bench.py [--bundle dist/attention-explorer] [--repeats 3]

Prints one table:
  * bundle size (MiB, apparent file sizes) and file count of dist/attention-explorer;
  * time from launch to first painted window, cold and warm (median of --repeats),
    for the bundle (`dist/attention-explorer/attention-explorer --first-paint-exit`)
    and from source (`python main.py --first-paint-exit`), and bundle/source ratios.

"Launch to first paint" is the wall time of a process started with
`--first-paint-exit`: the app prints nothing, shows its window, and exits 0 right
after the first paint event. Runs use QT_QPA_PLATFORM=offscreen, so no display is
needed. Both sides are measured in the same run, interleaved, so that the ratio is
fair on a noisy machine.

Cold runs drop the page cache first (`sync; echo 3 > /proc/sys/vm/drop_caches`),
which needs root and a writable /proc/sys (many containers have neither); when it
cannot, the table says so and the "cold" row is a first-launch number only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = "attention-explorer"
FLAG = "--first-paint-exit"


def bundle_stats(bundle: Path) -> tuple[float, int]:
    total, count = 0, 0
    for dirpath, _dirs, files in os.walk(bundle):
        for name in files:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                total += os.path.getsize(p)
                count += 1
    return total / 2**20, count


def drop_caches() -> str | None:
    """Drop the page cache; return None on success, else why it could not."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "not root"
    try:
        subprocess.run(["sync"], check=True)
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror or exc}"
    except subprocess.CalledProcessError as exc:
        return f"sync failed ({exc.returncode})"
    return None


def run_once(cmd: list[str], cwd: Path, timeout: float) -> float:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=timeout)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-5:]
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n  " + "\n  ".join(tail))
    return dt


def fmt(x: float | None, unit: str = "s") -> str:
    return "-" if x is None else f"{x:.2f} {unit}".rstrip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--bundle",
        type=Path,
        default=ROOT / "dist" / APP,
        help="one-folder bundle (default: dist/attention-explorer)",
    )
    ap.add_argument(
        "--python", default=sys.executable, help="interpreter for the from-source run (default: this one)"
    )
    ap.add_argument(
        "--entry", type=Path, default=ROOT / "main.py", help="source entry point (default: main.py)"
    )
    ap.add_argument("--flag", default=FLAG, help=f"exit-after-first-paint flag (default: {FLAG})")
    ap.add_argument("--repeats", type=int, default=3, help="warm runs per side (median)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per launch")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold runs")
    ap.add_argument("--no-source", action="store_true", help="measure the bundle only")
    ap.add_argument("--json", action="store_true", help="also print the numbers as JSON")
    args = ap.parse_args(argv)

    exe = args.bundle / (APP + (".exe" if sys.platform == "win32" else ""))
    if not exe.is_file():
        print(f"error: no bundle executable at {exe} (run packaging/build.sh)", file=sys.stderr)
        return 2
    sides = {"bundle": ([str(exe), args.flag], args.bundle)}
    if not args.no_source:
        if not args.entry.is_file():
            print(f"error: no source entry at {args.entry}", file=sys.stderr)
            return 2
        sides["source"] = ([args.python, str(args.entry), args.flag], args.entry.parent)

    size_mib, nfiles = bundle_stats(args.bundle)
    result: dict = {
        "bundle": str(args.bundle),
        "size_mib": round(size_mib, 1),
        "files": nfiles,
        "cold_s": {},
        "warm_s": {},
        "warm_runs_s": {},
        "cold_note": None,
    }

    # Cold: one launch per side, each right after dropping the page cache.
    if not args.no_cold:
        for name, (cmd, cwd) in sides.items():
            why = drop_caches()
            result["cold_note"] = why
            result["cold_s"][name] = run_once(cmd, cwd, args.timeout)

    # Warm: one discarded warm-up per side, then interleaved timed runs.
    for cmd, cwd in sides.values():
        run_once(cmd, cwd, args.timeout)
    runs: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.repeats):
        for name, (cmd, cwd) in sides.items():
            runs[name].append(run_once(cmd, cwd, args.timeout))
    result["warm_runs_s"] = {k: [round(x, 3) for x in v] for k, v in runs.items()}
    result["warm_s"] = {k: statistics.median(v) for k, v in runs.items()}

    # ---- table
    cold, warm = result["cold_s"], result["warm_s"]

    def ratio(d: dict) -> float | None:
        return d["bundle"] / d["source"] if "bundle" in d and "source" in d else None

    cold_label = (
        "cold (page cache dropped)"
        if not args.no_cold and result["cold_note"] is None
        else "cold (first launch; caches NOT dropped)"
    )
    rows = [
        ("bundle size", f"{size_mib:.1f} MiB", "", ""),
        ("bundle file count", f"{nfiles}", "", ""),
        ("launch -> first paint", "bundle", "source", "bundle/source"),
    ]
    if not args.no_cold:
        r = ratio(cold)
        rows.append(
            (cold_label, fmt(cold.get("bundle")), fmt(cold.get("source")), "-" if r is None else f"{r:.2f}x")
        )
    r = ratio(warm)
    rows.append(
        (
            f"warm (median of {args.repeats})",
            fmt(warm.get("bundle")),
            fmt(warm.get("source")),
            "-" if r is None else f"{r:.2f}x",
        )
    )
    w = [max(len(row[i]) for row in rows) for i in range(4)]
    line = "+".join("-" * (n + 2) for n in w)
    print(f"Attention Explorer bundle bench  ({args.bundle}, QT_QPA_PLATFORM=offscreen, {args.flag})")
    print(line)
    for i, row in enumerate(rows):
        print(" " + " | ".join(cell.ljust(w[j]) for j, cell in enumerate(row)))
        if i in (1, 2):
            print(line)
    print(line)
    for name, v in result["warm_runs_s"].items():
        print(f"warm runs, {name}: " + ", ".join(f"{x:.2f}" for x in v) + " s")
    if not args.no_cold and result["cold_note"] is not None:
        print(
            f"note: could not drop the page cache ({result['cold_note']}); "
            "the cold row is a first launch after earlier builds/runs, likely partly cached."
        )
    if args.json:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
