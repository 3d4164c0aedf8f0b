"""What the one-folder bundle carries that the app never opens: run the bundle's own
``--self-test`` and a screenshot of each lab's tab under strace, list every file of the
bundle no process opened, and sum them by folder.

    python bench/bundle_unused.py [dist/attention-explorer] [--top 40] [--markdown]

Needs a built bundle (packaging/build.sh) and strace (Linux). Python modules live in the
bundle's PYZ archive and are read from it, so what this finds are shared libraries, data
files and folders: the candidates for the spec's excludes and _keep filter. A file that
no run opened may still be needed on a path these runs do not take (another platform
plugin, a GPU): check before cutting it, and keep the self-test green.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPENED = re.compile(r'(?:openat|open|execve|stat|newfstatat|statx|access)\((?:AT_FDCWD, )?"([^"]+)"')


def traced(bundle: Path, args: list[str], log: Path, env: dict[str, str]) -> int:
    exe = bundle / bundle.name
    command = ["strace", "-f", "-qq", "-e", "trace=openat,open,execve", "-o", str(log), str(exe), *args]
    return subprocess.run(
        command, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=600
    ).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", nargs="?", default=str(ROOT / "dist" / "attention-explorer"))
    parser.add_argument("--top", type=int, default=40, help="the largest unopened files to list")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    bundle = Path(args.bundle).resolve()
    work = Path(tempfile.mkdtemp(prefix="bundle-unused-"))
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "EXPLORER_LOG_DIR": str(work),
        "EXPLORER_DATA_DIR": str(work / "data"),
        "EXPLORER_MULTILINGUAL_DIR": str(work / "multilingual-e5-small"),
    }
    runs = {
        "self-test": ["--self-test", "--self-test-out", str(work)],
        "translation tab": [
            "--tab",
            "translation",
            "--screenshot",
            str(work / "t.png"),
            "--size",
            "1024x768",
        ],
        "vision tab": ["--tab", "vision", "--screenshot", str(work / "v.png"), "--size", "1024x768"],
        "board, presentation": ["--tab", "board", "--presentation", "--screenshot", str(work / "b.png")],
    }
    opened: set[str] = set()
    for name, run_args in runs.items():
        log = work / f"{name.replace(' ', '_').replace(',', '')}.strace"
        code = traced(bundle, run_args, log, env)
        found = {os.path.realpath(p) for p in OPENED.findall(log.read_text(errors="replace"))}
        opened |= found
        print(f"{name}: exit {code}, {len(found)} paths opened", file=sys.stderr)
    files = [p for p in bundle.rglob("*") if p.is_file() and not p.is_symlink()]
    unused = [p for p in files if os.path.realpath(p) not in opened]
    total = sum(p.stat().st_size for p in files)
    cut = sum(p.stat().st_size for p in unused)
    by_folder: dict[str, int] = defaultdict(int)
    for p in unused:
        rel = (
            p.relative_to(bundle / "_internal")
            if (bundle / "_internal") in p.parents
            else p.relative_to(bundle)
        )
        by_folder["/".join(rel.parts[:2]) if len(rel.parts) > 2 else rel.parts[0]] += p.stat().st_size
    mib = 1024 * 1024
    print(
        f"bundle: {total / mib:.1f} MiB in {len(files)} files; never opened: {cut / mib:.1f} MiB in {len(unused)} files"
    )
    print("\nnever opened, by folder (MiB):")
    for folder, size in sorted(by_folder.items(), key=lambda kv: -kv[1])[:25]:
        print(f"  {size / mib:8.1f}  {folder}")
    print(f"\nthe {args.top} largest files never opened (MiB):")
    for p in sorted(unused, key=lambda p: -p.stat().st_size)[: args.top]:
        print(f"  {p.stat().st_size / mib:8.1f}  {p.relative_to(bundle)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
