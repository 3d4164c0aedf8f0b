"""Logging for the window app: a log file in the user's data folder, uncaught exceptions kept.

Qt-free. The folder is computed without Qt (so it is known before Qt starts):

* ``$EXPLORER_LOG_DIR`` when set (tests point it at a temporary folder);
* Linux/BSD: ``$XDG_DATA_HOME/attention-explorer`` or ``~/.local/share/attention-explorer``;
* Windows: ``%LOCALAPPDATA%\\attention-explorer``;
* macOS: ``~/Library/Application Support/attention-explorer``.

A windowed (no console) build has ``sys.stdout`` and ``sys.stderr`` set to None: nothing
here writes to them unless they exist. ``install_excepthook`` logs every uncaught
exception (main thread and other threads) and, when a GUI is up, shows it in a message box.
"""

from __future__ import annotations

import faulthandler
import logging
import logging.handlers
import os
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

APP_DIR_NAME = "attention-explorer"
LOG_DIR_ENV = "EXPLORER_LOG_DIR"
DATA_DIR_ENV = "EXPLORER_DATA_DIR"
LOG_FILE_NAME = "explorer.log"
CRASH_FILE_NAME = "crash.log"  # Python stacks of a fatal crash (faulthandler)
LOGGER_NAME = "explorer"

_log_file: Path | None = None
_crash_file = None  # the crash log, open for the process's life
_gui_reporter = None  # callable(str) set by the window app once a QApplication exists


def user_data_dir() -> Path:
    """The platform's per-user data folder for this app (not created here)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Local")
        return Path(base) / APP_DIR_NAME
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP_DIR_NAME
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / APP_DIR_NAME


def data_dir() -> Path:
    """Where the app keeps what it makes for the user (converted weights); tests override it."""
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override).expanduser() if override else user_data_dir()


def log_dir() -> Path:
    override = os.environ.get(LOG_DIR_ENV)
    return Path(override).expanduser() if override else user_data_dir()


def say(message: str) -> None:
    """One line to stderr when there is a stderr (windowed builds have none)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        print(message, file=stream, flush=True)
    except (OSError, ValueError):  # closed or broken stream
        pass


def setup_logging(level: int = logging.INFO) -> logging.Logger:
    """Log to ``log_dir()/explorer.log`` (rotated at 1 MB, 3 kept); idempotent.

    A folder that cannot be created (read-only home) leaves the app running without a file.
    Nothing is echoed to the console: callers print their own one-line messages.
    """
    global _log_file
    logger = logging.getLogger(LOGGER_NAME)
    if getattr(logger, "_explorer_configured", False):
        return logger
    logger.setLevel(level)
    logger.propagate = False
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / LOG_FILE_NAME
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=1_000_000, backupCount=3, encoding="utf-8", delay=False
        )
        handler.setFormatter(fmt)
        logger.addHandler(handler)
        _log_file = path
    except OSError as exc:
        say(f"warning: cannot write a log file ({exc})")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
    logger._explorer_configured = True  # type: ignore[attr-defined]
    return logger


def set_gui_reporter(reporter: Callable[[str], object] | None) -> None:
    """``reporter(text)`` shows an uncaught error to the user (a message box); None: none."""
    global _gui_reporter
    _gui_reporter = reporter


def _report(
    exc_type: type[BaseException], exc: BaseException | None, tb: TracebackType | None, where: str
) -> None:
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    logging.getLogger(LOGGER_NAME).error("uncaught exception %s:\n%s", where, text.rstrip())
    say(text.rstrip())  # like Python's own hook, when there is a console
    reporter = _gui_reporter
    if reporter is not None and threading.current_thread() is threading.main_thread():
        try:
            where_log = f"\n\nDetails were written to {_log_file}." if _log_file else ""
            reporter(f"{exc_type.__name__}: {exc}{where_log}")
        except Exception:  # never raise from the hook
            pass


def install_excepthook() -> None:
    """Route uncaught exceptions (main and worker threads) to the log and the GUI reporter."""
    setup_logging()

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            if sys.__excepthook__ is not None and sys.stderr is not None:
                sys.__excepthook__(exc_type, exc, tb)
            return
        _report(exc_type, exc, tb, "in the main thread")

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "?"
        _report(args.exc_type, args.exc_value, args.exc_traceback, f"in thread {name}")

    # Only replace the interpreter's defaults: a hook someone else installed (pytest-qt,
    # an IDE, a debugger) keeps working.
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = hook
    if threading.excepthook is threading.__excepthook__:
        threading.excepthook = thread_hook
    install_crash_log()


def install_crash_log() -> Path | None:
    """A crash inside Qt or torch (a segfault, an abort) ends the process before any hook
    runs; faulthandler then writes every thread's Python stack to ``crash.log`` beside the
    log. Twice a window vanished without a word: the next one leaves its stack. Only when
    nothing (a test runner, ``-X faulthandler``) reports faults already."""
    global _crash_file
    if faulthandler.is_enabled():
        return None
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        _crash_file = open(folder / CRASH_FILE_NAME, "a", encoding="utf-8")  # open for life
    except OSError:
        return None
    faulthandler.enable(file=_crash_file, all_threads=True)
    return folder / CRASH_FILE_NAME
