"""Write a file so that a crash never leaves half of it: beside the target, then renamed. Qt-free."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any


def atomic_write(path: str | Path, write: Callable[[IO[Any]], object], mode: str = "w") -> None:
    """Call ``write(f)`` on a temporary file in the target's folder, flush it to disk, then
    rename it over ``path`` (made with its folders if missing). ``mode``: "w" (UTF-8 text)
    or "wb". On any error (a full disk, a MemoryError, Ctrl-C) the temporary file is removed
    and the old file is untouched."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.part"
    # os.open, not mkstemp: the file gets the usual permissions (umask), not 0600.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def save_json_or_npz(
    path: str | Path, to_json: Callable[[Path], None], to_npz: Callable[[Path], None]
) -> None:
    """A lab's trace as JSON or NPZ, chosen by the file's suffix."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        to_json(path)
    elif suffix == ".npz":
        to_npz(path)
    else:
        raise ValueError(f"{path}: the file name must end in .json or .npz")
