"""Saved lessons: the whole explorer state as versioned JSON, written atomically.

A corrupt, foreign, oversized or newer-version file raises SessionError with a message
for the user, and nothing of the current state is touched (loading returns a new value).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from explorer.appstate.state import LANGUAGES, THEMES
from explorer.atomic import atomic_write
from explorer.core.config import AttentionConfig, ConfigError

SESSION_FORMAT = "attention-explorer-session"
SESSION_VERSION = 1
MAX_SESSION_BYTES = 2 * 1024 * 1024  # a session holds settings and text, never arrays


class SessionError(Exception):
    """A session file that cannot be opened, with the reason."""


@dataclass(frozen=True)
class Session:
    config: AttentionConfig = field(default_factory=AttentionConfig)
    selected_head: int = 0
    selected_cell: tuple[int, int] | None = None
    stage: str = "weights"  # the stage the head grid shows
    theme: str = "light"
    language: str = "en"

    def to_json(self) -> str:
        data = {"format": SESSION_FORMAT, "version": SESSION_VERSION, **asdict(self)}
        data["selected_cell"] = list(self.selected_cell) if self.selected_cell else None
        return json.dumps(data, ensure_ascii=False, indent=2)


def save_session(path: str | Path, session: Session) -> None:
    """Write to a temporary file beside the target, then rename over it."""
    text = session.to_json()
    atomic_write(path, lambda f: f.write(text))


def load_session(path: str | Path) -> Session:
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_SESSION_BYTES:
            raise SessionError(f"{path.name} is {size // 1024} KB; a session is never that large")
        raw = path.read_bytes()
    except OSError as exc:
        raise SessionError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    if not raw.strip():
        raise SessionError(f"{path.name} is empty")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SessionError(f"{path.name} is not a session file (not valid JSON: {exc})") from None
    return session_from_dict(data, path.name)


def session_from_dict(data, name: str = "the session") -> Session:
    if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
        raise SessionError(f"{name} is not an Attention Explorer session")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SessionError(f"{name} has no valid version number")
    if version > SESSION_VERSION:
        raise SessionError(
            f"{name} was saved by a newer version (format {version}); "
            f"this explorer reads up to format {SESSION_VERSION}"
        )
    try:
        config = AttentionConfig.from_dict(dict(data.get("config") or {}))
        cell = data.get("selected_cell")
        if cell is not None:
            if not (isinstance(cell, list) and len(cell) == 2 and all(_is_index(c) for c in cell)):
                raise ValueError("selected_cell must be two indices or null")
            cell = (cell[0], cell[1])
        head = data.get("selected_head", 0)
        if not _is_index(head):
            raise ValueError("selected_head must be 0 or more")
        theme, language = data.get("theme", "light"), data.get("language", "en")
        if theme not in THEMES or language not in LANGUAGES:
            raise ValueError(f"unknown theme {theme!r} or language {language!r}")
        stage = data.get("stage", "weights")
        if not isinstance(stage, str):
            raise ValueError("stage must be text")
    except (ConfigError, ValueError, TypeError) as exc:
        raise SessionError(f"{name} holds invalid settings: {exc}") from None
    return Session(config, head, cell, stage, theme, language)


def _is_index(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
