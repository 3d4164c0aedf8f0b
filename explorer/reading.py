"""Reading what the user names: model folders, checkpoints, pictures, sessions, text files.

One path for every one of them, so that each problem the operating system reports becomes
one line that says what is wrong with that path: it does not exist, it cannot be read
(permissions), it loops through symbolic links, it is a file where a folder belongs (or the
reverse), the path is empty. A caller passes its own error class (ModelError,
CheckpointError, SessionError, …), so its commands and its tab report it as before; the
words are keyed messages (explorer.messages), in the window's language.

Qt-free; it imports only explorer.messages, so every package may use it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import TypeVar

from explorer.messages import QT_TRANSLATE_NOOP, Message, MessageError, register, section

register(
    section(
        QT_TRANSLATE_NOOP("CoreMessages", "{path}: {reason}", "reading.failed"),
        QT_TRANSLATE_NOOP("CoreMessages", "it does not exist", "reading.missing"),
        QT_TRANSLATE_NOOP("CoreMessages", "it cannot be read (permission denied)", "reading.denied"),
        QT_TRANSLATE_NOOP("CoreMessages", "it loops through symbolic links", "reading.loop"),
        QT_TRANSLATE_NOOP("CoreMessages", "it is a file, not a folder", "reading.not_folder"),
        QT_TRANSLATE_NOOP("CoreMessages", "it is a folder, not a file", "reading.not_file"),
        QT_TRANSLATE_NOOP(
            "CoreMessages",
            "a part of the path before it is a file, not a folder",
            "reading.parent_not_folder",
        ),
        QT_TRANSLATE_NOOP("CoreMessages", "its name is too long", "reading.too_long"),
        QT_TRANSLATE_NOOP(
            "CoreMessages",
            "it is not a regular file (a pipe, a device or a socket)",
            "reading.not_regular",
        ),
        QT_TRANSLATE_NOOP("CoreMessages", "it cannot be read ({detail})", "reading.other"),
        QT_TRANSLATE_NOOP("CoreMessages", "{option} is empty: give a path", "reading.empty"),
    )
)


class ReadError(MessageError, ValueError):
    """A path the user named that cannot be read (raise with ``ReadError.of``)."""


_E = TypeVar("_E", bound=MessageError)

REASONS = {
    errno.ENOENT: "reading.missing",
    errno.EACCES: "reading.denied",
    errno.EPERM: "reading.denied",
    errno.ELOOP: "reading.loop",
    errno.EISDIR: "reading.not_file",
    errno.ENOTDIR: "reading.parent_not_folder",
    errno.ENAMETOOLONG: "reading.too_long",
}


def reason(exc: OSError) -> Message:
    """What an operating-system error says about a path, in a few words."""
    key = REASONS.get(exc.errno or 0)
    if key is not None:
        return Message.of(key)
    return Message.of("reading.other", detail=exc.strerror or type(exc).__name__)


def failure(path: str | Path, why: Message, error: type[_E]) -> _E:
    """The error to raise about ``path``: "PATH: REASON"."""
    return error.of("reading.failed", path=str(path), reason=why)


def os_failure(path: str | Path, exc: OSError, error: type[_E]) -> _E:
    return failure(path, reason(exc), error)


def user_path(text: str | Path, option: str, error: type[MessageError] = ReadError) -> Path:
    """The path as given (``~`` expanded); an empty one is refused, never read as the
    current folder or the default."""
    if not str(text).strip():
        raise error.of("reading.empty", option=option)
    return Path(text).expanduser()


def canonical(path: str | Path) -> Path:
    """The path with ``~`` expanded and links resolved, to tell two names of one folder
    apart; a path that loops through symbolic links keeps its own (absolute) name, where
    ``Path.resolve()`` raises a RuntimeError ("Symlink loop")."""
    path = Path(path).expanduser()
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def present(path: str | Path, error: type[MessageError] = ReadError) -> bool:
    """Whether something is at ``path``: False only when nothing is; any other problem (a
    loop, a folder on the way that cannot be read) raises ``error`` saying so, where
    ``Path.exists()`` would answer False ("does not exist") or raise a traceback."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise os_failure(path, exc, error) from None
    return True


def folder(path: str | Path, error: type[MessageError] = ReadError) -> Path:
    """A folder that exists and can be listed, or ``error`` saying why not."""
    path = Path(path)
    try:
        if not path.is_dir():
            path.stat()  # raises the reason when there is nothing; else it is a file
            raise failure(path, Message.of("reading.not_folder"), error)
        with os.scandir(path) as entries:  # a folder that cannot be listed cannot be read
            next(entries, None)
        os.stat(os.path.join(path, "."))  # listed but not searchable (no x bit): nothing inside can be opened
    except OSError as exc:
        raise os_failure(path, exc, error) from None
    return path


def _regular(path: Path, error: type[MessageError]) -> None:
    """Nothing but a regular file (or a folder, which opening says is one) is opened: a FIFO
    blocked the open forever, /dev/zero read until "too large"."""
    mode = os.stat(path).st_mode  # through links; its OSError is the caller's to word
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise failure(path, Message.of("reading.not_regular"), error)


def file(path: str | Path, error: type[MessageError] = ReadError) -> Path:
    """A regular file that exists and can be opened for reading, or ``error`` saying why not."""
    path = Path(path)
    try:
        _regular(path, error)
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise os_failure(path, exc, error) from None
    return path


def read_bytes(path: str | Path, error: type[MessageError] = ReadError, limit: int | None = None) -> bytes:
    """The file's bytes (at most ``limit + 1`` of them, so a caller can tell it is too large)."""
    path = Path(path)
    try:
        _regular(path, error)
        with open(path, "rb") as f:
            return f.read() if limit is None else f.read(limit + 1)
    except OSError as exc:
        raise os_failure(path, exc, error) from None


def read_text(path: str | Path, error: type[MessageError] = ReadError) -> str:
    """The file as UTF-8 text; bytes that are not UTF-8 are replaced, never a traceback."""
    return read_bytes(path, error).decode("utf-8", errors="replace")
