"""How every command fails: one ``error: …`` line on stderr and exit status 2, never a traceback.

Shared by ``trace``, the labs' commands and the window's command line; it imports nothing of
the explorer, so any package may use it.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NoReturn

EXIT_BAD_INPUT = 2


class Parser(argparse.ArgumentParser):
    """argparse that fails with one line and status 2, without the usage block, and refuses
    arguments that are not UTF-8 (Python hands them over with lone surrogates, which the
    tokenizer and every print then fail on with a traceback)."""

    def error(self, message: str) -> NoReturn:
        fail(message)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: None = None
    ) -> argparse.Namespace:
        parsed = super().parse_args(args, namespace)
        for name, value in vars(parsed).items():
            if isinstance(value, str) and not _utf8(value):
                shown = value.encode("utf-8", "surrogateescape")
                fail(f"--{name.replace('_', '-')} is not valid UTF-8 text ({shown!r}): give it in UTF-8")
        return parsed


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def fail(message: str) -> NoReturn:
    if sys.stderr is not None:  # windowed builds have no stderr
        print(f"error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def goes_with(given: bool, option: str, other: str) -> None:
    """An option that only means something with another is refused without it, never silently
    ignored: ``--option value goes with --other``, exit 2. ``given`` is whether the option
    differs from its default (the default, passed explicitly, changes nothing and is fine)."""
    if given:
        fail(f"{option} goes with {other}")


def check_out(path: str) -> None:
    """``--out`` goes into a folder that exists: a mistyped path fails here, before any work,
    instead of creating folders nobody asked for (writing made them, silently). A command
    whose --out is a folder may create that folder itself, not the ones above it."""
    parent = Path(path).expanduser().parent
    if not parent.exists():
        fail(f"the folder {parent} does not exist")
    if not parent.is_dir():  # the writer said "cannot write …: File exists"
        fail(f"{parent} is a file, not a folder")


def check_out_folder(path: str) -> None:
    """``--out DIR`` (the training commands): its parent as ``check_out``, then DIR itself: a
    file there, or a link that loops or leads nowhere, is said so (the writer said only
    "cannot write DIR: File exists")."""
    check_out(path)
    target = Path(path).expanduser()
    try:
        os.stat(target)
    except FileNotFoundError:
        if target.is_symlink():
            fail(f"{path} is a link to {os.readlink(target)}, which does not exist")
        return
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            fail(f"{path}: it loops through symbolic links")
        fail(f"{path}: {exc.strerror or exc}")
    if not target.is_dir():
        fail(f"{path} is a file, not a folder: give a folder (it may be new)")


def check_has_name(path: str, option: str = "--out") -> None:
    """A file name that is more than its extension: ``--out .json`` (or ``dir/.npz``) is
    refused, where it wrote a hidden file named ``.json``."""
    name = Path(path).name
    if name.startswith(".") and len(name) > 1 and "." not in name[1:]:
        fail(f"{option} {path!r} has no file name before its extension: give one, e.g. run{name}")


def check_out_name(path: str, suffixes: tuple[str, ...], option: str = "--out") -> None:
    """A file name that ends in one of ``suffixes`` and has a name before it (``check_has_name``)."""
    if not path.lower().endswith(suffixes):
        fail(f"{option} {path!r}: the file name must end in {' or '.join(suffixes)}")
    check_has_name(path, option)


def check_out_file(path: str) -> None:
    """``--out FILE.json|FILE.npz`` (trace, translate, vision): the name, then the folder."""
    check_out_name(path, (".json", ".npz"))
    check_out(path)


def check_not_input(out: str | None, inputs: Iterable[tuple[str, str | None]], option: str = "--out") -> None:
    """``out`` is none of the run's inputs, each an ``(option, path)``: the same file (by its
    resolved path, or ``os.path.samefile`` where both exist: a link, a hard link), or a file
    already in an input folder (a model folder's config.json), is refused before any work,
    where writing it overwrote the input the run had just read."""
    if out is None:
        return
    target = os.path.realpath(Path(out).expanduser())
    for name, given in inputs:
        if given is None or not str(given).strip():
            continue
        source = os.path.realpath(Path(given).expanduser())
        if target == source or _same_file(target, source):
            fail(f"{option} {out} is {name} {given}, which this run reads: give another file to write")
        if (
            os.path.isdir(source)
            and os.path.lexists(target)
            and target.startswith(source.rstrip(os.sep) + os.sep)
        ):
            fail(f"{option} {out} is a file in {name} {given}, which this run reads: write it elsewhere")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # either is missing or cannot be read: not the same
        return False
