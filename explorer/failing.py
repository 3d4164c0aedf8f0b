"""How every command fails: one ``error: …`` line on stderr and exit status 2, never a traceback.

Shared by ``trace``, the labs' commands and the window's command line; it imports nothing of
the explorer, so any package may use it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

EXIT_BAD_INPUT = 2


class Parser(argparse.ArgumentParser):
    """argparse that fails with one line and status 2, without the usage block."""

    def error(self, message: str) -> NoReturn:
        fail(message)


def fail(message: str) -> NoReturn:
    if sys.stderr is not None:  # windowed builds have no stderr
        print(f"error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def check_out(path: str) -> None:
    """``--out`` goes into a folder that exists: a mistyped path fails here, before any work,
    instead of creating folders nobody asked for (writing made them, silently). A command
    whose --out is a folder may create that folder itself, not the ones above it."""
    parent = Path(path).expanduser().parent
    if not parent.exists():  # a file in the way is the writer's "cannot write …: Not a directory"
        fail(f"the folder {parent} does not exist")


def check_out_file(path: str) -> None:
    """``--out FILE.json|FILE.npz`` (trace, translate, vision): the suffix, then the folder."""
    if not path.lower().endswith((".json", ".npz")):
        fail(f"--out {path!r}: the file name must end in .json or .npz")
    check_out(path)
