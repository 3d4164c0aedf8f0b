"""How long ``./dev lint``'s checks take: each tool on the whole tree, once cold (no cache)
and once warm (mypy's and ruff's caches from the cold run), as a table.

    python bench/lint_time.py [--markdown]

Run it from the repository with the project's venv (the tools of the ``lint`` extra).
Timings depend on the machine's load: the table prints the load average beside them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def timed(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    return time.perf_counter() - started, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    caches = Path(tempfile.mkdtemp(prefix="lint-time-"))
    env = {**os.environ, "RUFF_CACHE_DIR": str(caches / "ruff"), "MYPY_CACHE_DIR": str(caches / "mypy")}
    checks = {
        "ruff check": [str(BIN / "ruff"), "check", "."],
        "ruff format --check": [str(BIN / "ruff"), "format", "--check", "."],
        "lint-imports": [str(BIN / "lint-imports"), "--no-cache"],
        "mypy": [str(BIN / "mypy")],
    }
    rows = []
    try:
        for name, command in checks.items():
            cold, code = timed(command, env)
            warm, _ = timed(command, env)
            rows.append((name, cold, warm, code))
    finally:
        shutil.rmtree(caches, ignore_errors=True)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    total_cold, total_warm = sum(r[1] for r in rows), sum(r[2] for r in rows)
    if args.markdown:
        print(f"| check | cold s | warm s | exit |  (load {load})\n|---|---|---|---|")
        for name, cold, warm, code in rows:
            print(f"| {name} | {cold:.1f} | {warm:.1f} | {code} |")
        print(f"| all | {total_cold:.1f} | {total_warm:.1f} | |")
    else:
        print(f"load average {load}")
        print(f"{'check':<22}{'cold s':>8}{'warm s':>8}{'exit':>6}")
        for name, cold, warm, code in rows:
            print(f"{name:<22}{cold:>8.1f}{warm:>8.1f}{code:>6}")
        print(f"{'all':<22}{total_cold:>8.1f}{total_warm:>8.1f}")
    return 0 if all(r[3] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
