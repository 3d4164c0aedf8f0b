"""``--html OUT.html`` and ``--language`` for the commands that write a trace (trace, translate)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from explorer.failing import check_has_name, check_out, fail
from explorer.web.language import LANGUAGES
from explorer.web.messages import PageError
from explorer.web.page import Page


def add_page_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--html",
        default=None,
        metavar="OUT.html",
        help="also write the interactive page: one self-contained file, every layer and head, opens offline",
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default="en",
        help="the language the page opens in (it switches between English and Chinese itself)",
    )


def check_outputs(out: str | None, html: str | None) -> None:
    """At least one file to write, each with a usable name and folder, before any work."""
    if out is None and html is None:
        fail("give --out FILE.json|FILE.npz, --html FILE.html, or both")
    if html is not None:
        check_has_name(html, "--html")
        if Path(html).suffix.lower() not in (".html", ".htm"):
            fail(f"--html {html!r}: the file name must end in .html")
        check_out(html)


@contextmanager
def written_together(out: str | None, html: str | None) -> Iterator[tuple[str | None, str | None]]:
    """Where a command writes its --out and --html files: with both, beside their targets (same
    folder, same suffix), and renamed to them only when the block ends without an error (fail()
    included); otherwise removed, so a failed second file leaves no new first one behind."""
    if out is None or html is None:
        yield out, html
        return
    staged = (_staged(out), _staged(html))
    try:
        yield staged
        os.replace(staged[0], out)
        os.replace(staged[1], html)
    finally:
        for path in staged:
            Path(path).unlink(missing_ok=True)


def _staged(path: str) -> str:
    target = Path(path)
    return str(target.with_name(f".{target.stem}.writing-{os.getpid()}{target.suffix}"))


def write_page_or_fail(path: str, page: Page, language: str, shown: str | None = None) -> int:
    """Write the page; a failure is one ``error:`` line and status 2, naming ``shown`` (the path
    the user gave, when ``path`` is where it is written first). Returns its size in bytes."""
    from explorer.web.html import write_page

    try:
        return write_page(path, page, language).stat().st_size
    except PageError as exc:
        fail(str(exc))
    except MemoryError:
        fail("not enough memory to write the page")
    except OSError as exc:
        fail(f"cannot write {shown or path}: {exc.strerror or exc}")
    raise AssertionError("unreachable")  # fail() exits
