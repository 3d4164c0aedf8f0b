"""Saved lessons: a snapshot of the ExplorerState as versioned JSON, written atomically.

Format 2 holds everything the state holds (``session_of`` / ``apply_session``); format 1
files (configuration, head, cell, grid stage, theme, language) still open, the rest at
its defaults. A corrupt, foreign, oversized or newer-version file raises SessionError
with a message for the user, and nothing of the current state is touched (loading
returns a new value).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from explorer.appstate.lesson import STEPS
from explorer.appstate.state import (
    DEFAULT_TAB,
    GRID_STAGES,
    LANGUAGES,
    PANEL_NAMES,
    TEXT_ZOOM_RANGE,
    THEMES,
    CompareOptions,
    ExplorerState,
)
from explorer.appstate.translation import TranslationSettings
from explorer.atomic import atomic_write
from explorer.core.config import AttentionConfig, ConfigError

SESSION_FORMAT = "attention-explorer-session"
SESSION_VERSION = 2
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
    # format 2
    compare: CompareOptions = field(default_factory=CompareOptions)
    presentation: bool = False
    text_zoom: int = 0
    stage_zoom: tuple[str, ...] | None = None
    values_on_cells: bool = False
    lesson_visible: bool = False
    lesson_step: int = 0
    tab: str = DEFAULT_TAB
    translation: TranslationSettings = field(default_factory=TranslationSettings)  # the Translation tab

    def to_json(self) -> str:
        data = {"format": SESSION_FORMAT, "version": SESSION_VERSION, **asdict(self)}
        data["selected_cell"] = list(self.selected_cell) if self.selected_cell else None
        data["stage_zoom"] = list(self.stage_zoom) if self.stage_zoom else None
        return json.dumps(data, ensure_ascii=False, indent=2)


def session_of(state: ExplorerState) -> Session:
    """The state as a session: what a saved lesson holds."""
    values = {f.name: getattr(state, _STATE_NAMES.get(f.name, f.name)) for f in fields(Session)}
    values["translation"] = state.translation.settings
    return Session(**values)


def apply_session(state: ExplorerState, session: Session) -> None:
    """Set every field of the state from the session (each change notifies as usual)."""
    state.set_config(session.config)
    state.select_head(session.selected_head)
    state.select_cell(session.selected_cell)
    state.set_grid_stage(session.stage)
    state.set_compare(session.compare)
    state.set_theme(session.theme)
    state.set_language(session.language)
    state.set_text_zoom(session.text_zoom)
    state.set_values_on_cells(session.values_on_cells)
    state.set_presentation(session.presentation)
    state.set_stage_zoom(session.stage_zoom)
    state.set_lesson_step(session.lesson_step)
    state.show_lesson(session.lesson_visible)
    state.translation.apply(session.translation)
    state.set_tab(session.tab)  # last: the lesson step above goes to its own tab


_STATE_NAMES = {"stage": "grid_stage"}  # session field -> state attribute, where they differ


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
        if stage not in GRID_STAGES:  # format 1 kept any text: the grid shows the weights then
            stage = "weights"
        later = _format_2(data) if version >= 2 else {}
    except (ConfigError, ValueError, TypeError) as exc:
        raise SessionError(f"{name} holds invalid settings: {exc}") from None
    return Session(config, head, cell, stage, theme, language, **later)


def _format_2(data: dict) -> dict:
    """The fields format 2 added, checked (missing ones keep their defaults)."""
    out: dict = {}
    if "compare" in data:
        compare = data["compare"]
        if not isinstance(compare, dict):
            raise ValueError("compare must be an object")
        options = CompareOptions.from_changes(**compare)
        for text in (options.scoring, options.attention, options.mask):
            if text is not None and not isinstance(text, str):
                raise ValueError("compare options must be text")
        t = options.temperature
        if t is not None and not (math.isfinite(t) and t > 0):
            raise ValueError("the compare temperature must be a positive number")
        out["compare"] = options
    for key in ("presentation", "values_on_cells", "lesson_visible"):
        if key in data:
            if not isinstance(data[key], bool):
                raise ValueError(f"{key} must be true or false")
            out[key] = data[key]
    if "text_zoom" in data:
        zoom = data["text_zoom"]
        lo, hi = TEXT_ZOOM_RANGE
        if not (isinstance(zoom, int) and not isinstance(zoom, bool) and lo <= zoom <= hi):
            raise ValueError(f"text_zoom must be a whole number from {lo} to {hi}")
        out["text_zoom"] = zoom
    if data.get("stage_zoom") is not None:
        panels = data["stage_zoom"]
        if not (isinstance(panels, list) and panels and all(p in PANEL_NAMES for p in panels)):
            raise ValueError("stage_zoom must list pipeline panels")
        out["stage_zoom"] = tuple(panels)
    if "lesson_step" in data:
        step = data["lesson_step"]
        if not (_is_index(step) and step < len(STEPS)):
            raise ValueError(f"lesson_step must be 0 to {len(STEPS) - 1}")
        out["lesson_step"] = step
    if "tab" in data:
        if not isinstance(data["tab"], str) or not data["tab"]:
            raise ValueError("tab must be a tab's name")
        out["tab"] = data["tab"]
    if "translation" in data:
        out["translation"] = TranslationSettings.from_dict(data["translation"])
    return out


def _is_index(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
