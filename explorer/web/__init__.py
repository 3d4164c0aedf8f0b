"""Traces as pages: an interactive view of attention that needs nothing but a browser.

- ``Page`` / ``AttentionSet`` (page.py): what a page shows: per attention, its tokens and the
  weights of every layer and head, the settings and the notices. ``AttentionTrace.page()`` and
  ``TranslationTrace.page()`` make one.
- ``write_page(path, page, language)`` (html.py): one self-contained HTML file (script, styles
  and data inline; it asks for nothing from any network); ``fragment(page, language)``: the
  same view as a notebook cell's HTML (the traces' ``_repr_html_``).
- ``DrawsItself`` (drawn.py): a trace class that says what its page shows (``page(head)``) gets
  ``to_html(path, language, head)`` and Jupyter's ``_repr_html_`` from it.
- The view itself is view.js and view.css beside this file, plain JavaScript and CSS, inlined
  when a page is written. Its words are words.py, translated in the window's catalogue.

Qt-free, and below explorer.core: it knows no trace, only arrays and tokens.
"""

from explorer.web import messages as messages  # registers the web.* templates
from explorer.web.drawn import DrawsItself
from explorer.web.html import check_page_path, fragment, page_html, write_page
from explorer.web.language import LANGUAGES
from explorer.web.messages import PageError
from explorer.web.page import AttentionSet, Page, page_data

__all__ = [
    "LANGUAGES",
    "AttentionSet",
    "DrawsItself",
    "Page",
    "PageError",
    "check_page_path",
    "fragment",
    "page_data",
    "page_html",
    "write_page",
]
