"""Find files under ``resources/`` the same way from source and from a frozen bundle.

From source the folder is the repository's ``resources/`` (next to ``explorer/``); in a
PyInstaller bundle it is ``sys._MEIPASS/resources`` (the spec copies it there). Qt-free.
"""

from __future__ import annotations

import sys
from pathlib import Path

APP_ICON = ("icons", "attention-explorer.svg")
APP_ICON_PNG = ("icons", "attention-explorer-512.png")


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def bundle_root() -> Path:
    """The folder that holds ``resources/``: the bundle's _internal, or the repository."""
    if is_frozen():
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).resolve().parent))
    return Path(__file__).resolve().parent.parent


def resource_path(*parts: str) -> Path:
    """``resource_path("icons", "attention-explorer.svg")`` -> an absolute path (may not exist)."""
    return bundle_root().joinpath("resources", *parts)


def app_icon_paths() -> list[Path]:
    """The application icon files that exist, best first (SVG, then a large PNG)."""
    return [p for p in (resource_path(*APP_ICON), resource_path(*APP_ICON_PNG)) if p.is_file()]
