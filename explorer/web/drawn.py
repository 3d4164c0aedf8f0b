"""What makes a trace draw itself: a ``page(head)``, and this class gives it the rest."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

from explorer.web.html import fragment, write_page
from explorer.web.page import Page


class DrawsItself(ABC):
    """A trace with ``page(head) -> Page`` gets ``to_html`` (a page of its own, opening offline)
    and ``_repr_html_`` (the view Jupyter shows for a cell's last expression)."""

    @abstractmethod
    def page(self, head: int = 0) -> Page:
        """What the trace's page shows, opening on ``head``."""

    def to_html(self, path: str | Path, language: str = "en", head: int = 0) -> Path:
        """The interactive view as one self-contained HTML file, opening in ``language`` on ``head``."""
        return write_page(path, self.page(head), language)

    def _repr_html_(self) -> str:
        return fragment(self.page())
