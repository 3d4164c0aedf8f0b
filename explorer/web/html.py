"""The view as HTML: a whole page that opens offline by double-click, or a notebook cell's output.

Both carry everything inline: the styles (view.css), the script (view.js) and the data
(page.page_data as JSON). The page also forbids itself any request (a Content-Security-Policy
of ``default-src 'none'``), so nothing it shows can come from a network.
"""

from __future__ import annotations

import html
import json
import secrets
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from explorer.atomic import atomic_write
from explorer.web.language import word
from explorer.web.messages import PageError
from explorer.web.page import Page, page_data

ASSETS = Path(__file__).resolve().parent  # view.js and view.css, package data (and in the bundle)
PAGE_SUFFIXES = (".html", ".htm")
# Inline script and styles only; no fetch, image, font or frame from anywhere, not even the file's folder.
POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


@lru_cache(maxsize=2)
def asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def _script_json(data: dict[str, Any]) -> str:
    """JSON that cannot end the <script> element it sits in."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")  # both still JSON


def fragment(page: Page, language: str = "en") -> str:
    """The view as one <div>: a notebook cell's text/html, or the body of a page."""
    data = page_data(page, language)
    uid = "ae-" + secrets.token_hex(6)
    needs_script = " / ".join(dict.fromkeys(word("needs_script", lang) for lang in data["languages"]))
    return (
        '<div class="ae-output">'
        f"<style>{asset('view.css')}</style>"
        f'<div class="ae-view" id="{uid}"><p class="ae-needs-script">{html.escape(needs_script)}</p></div>'
        f'<script type="application/json" id="{uid}-data">{_script_json(data)}</script>'
        f"<script>{asset('view.js')}</script>"
        "</div>"
    )


def page_html(page: Page, language: str = "en") -> str:
    """A whole HTML document of the view."""
    title = html.escape(f"{word('app', language)} · {page.title}")
    lang = "zh-Hans" if language == "zh_CN" else "en"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="Attention Explorer">\n'
        f"<title>{title}</title>\n</head>\n"
        f'<body class="ae-page">\n{fragment(page, language)}\n</body>\n</html>\n'
    )


def check_page_path(path: str | Path) -> Path:
    """``OUT.html``: the suffix, before anything is computed."""
    if Path(path).suffix.lower() not in PAGE_SUFFIXES:
        raise PageError.of("web.file_suffix", path=str(path))
    return Path(path)


def write_page(path: str | Path, page: Page, language: str = "en") -> Path:
    """Write the page (all or nothing: a failed write leaves no partial file)."""
    target = check_page_path(path)
    if not target.expanduser().parent.exists():  # never folders nobody asked for, as the command
        raise PageError.of("files.no_folder", folder=target.expanduser().parent)
    text = page_html(page, language)

    def write(f: IO[str]) -> None:
        f.write(text)

    atomic_write(target, write, "w")
    return target
