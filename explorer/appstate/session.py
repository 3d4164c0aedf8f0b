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
from operator import attrgetter
from pathlib import Path
from typing import Any

from explorer import json_text, reading
from explorer.appstate import labs as lab_registry
from explorer.appstate.board import DEFAULT_BOARD
from explorer.appstate.decoding import DecodingOptions
from explorer.appstate.lesson import ALL_TRACKS, STEPS, step_index, track_ids
from explorer.appstate.lines import LinesOptions
from explorer.appstate.matrix_zoom import Region
from explorer.appstate.state import (
    DEFAULT_TAB,
    GRID_STAGES,
    LANGUAGES,
    TEXT_ZOOM_RANGE,
    THEMES,
    ZOOM_NAMES,
    CompareOptions,
    ExplorerState,
)
from explorer.appstate.translation import TranslationSettings
from explorer.appstate.vision import VisionSettings
from explorer.atomic import atomic_write
from explorer.core.board import Board
from explorer.core.config import AttentionConfig, ConfigError
from explorer.finite import strict_json
from explorer.messages import MessageError, message_of

SESSION_FORMAT = "attention-explorer-session"
SESSION_VERSION = 2
MAX_SESSION_BYTES = 2 * 1024 * 1024  # a session holds settings and text, never arrays


class SessionError(MessageError):
    """A session file that cannot be opened, with the reason (a Message: the window says it
    in its language)."""


class _Invalid(MessageError, ValueError):
    """One field of a session that cannot be used; SessionError "holds invalid settings" says it."""


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
    matrix_zoom: Region | None = None  # the cells zoomed panels show (optional key)
    values_on_cells: bool = False
    lesson_visible: bool = False
    lesson_step: int = 0  # an index into lesson.STEPS; the file holds the step's id
    lesson_track: str = ALL_TRACKS
    tab: str = DEFAULT_TAB
    board: Board = DEFAULT_BOARD  # board mode's vectors
    lines: LinesOptions = field(default_factory=LinesOptions)  # the weights as lines
    decoding: DecodingOptions = field(default_factory=DecodingOptions)  # heads off, how text is written
    questions: bool = False  # the lesson asks its predict-then-reveal questions
    # every registered lab's settings by its name (explorer/appstate/labs.py), each saved under
    # that name; a lab missing from a file keeps its defaults
    labs: dict[str, Any] = field(default_factory=lambda: _default_labs({}))

    @property
    def vision(self) -> VisionSettings:
        settings: VisionSettings = self.labs["vision"]
        return settings

    @property
    def translation(self) -> TranslationSettings:
        settings: TranslationSettings = self.labs["translation"]
        return settings

    def to_json(self) -> str:
        data = {"format": SESSION_FORMAT, "version": SESSION_VERSION, **asdict(self)}
        del data["labs"]  # each lab's settings under its own name, below
        data["lesson_step_id"] = STEPS[data.pop("lesson_step")].id  # ids stay when steps are added
        data["selected_cell"] = list(self.selected_cell) if self.selected_cell else None
        data["stage_zoom"] = list(self.stage_zoom) if self.stage_zoom else None
        data["matrix_zoom"] = None if self.matrix_zoom is None else self.matrix_zoom.to_list()
        data["board"] = self.board.to_dict()
        data["lines"] = self.lines.to_dict()
        data["decoding"] = self.decoding.to_dict()
        data.update({name: settings.to_dict() for name, settings in self.labs.items()})
        return strict_json(data, "session", ensure_ascii=False, indent=2)


def _default_labs(given: dict[str, Any]) -> dict[str, Any]:
    """The registered labs' settings: the given ones, the rest at their defaults."""
    return {e.name: given.get(e.name, e.settings()) for e in lab_registry.LABS}


def session_of(state: ExplorerState) -> Session:
    """The state as a session: what a saved lesson holds."""
    names = [f.name for f in fields(Session) if f.name != "labs"]
    held: dict[str, Any] = {name: attrgetter(_STATE_NAMES.get(name, name))(state) for name in names}
    return Session(**held, labs={name: lab.settings for name, lab in state.labs.items()})


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
    state.set_lesson_track(session.lesson_track)
    state.set_lesson_step(session.lesson_step)
    state.show_lesson(session.lesson_visible)
    # last: a lesson step moves to its tab (and the window's lesson to its stage), the saved
    # tab and stage are what the user had chosen after that
    state.set_tab(session.tab)
    state.set_stage_zoom(session.stage_zoom)
    state.set_matrix_zoom(session.matrix_zoom)  # kept inside the matrix when the trace comes
    state.board.set_board(session.board)
    state.lines.set_options(session.lines)
    state.decoding.set_options(session.decoding)
    state.predict.set_enabled(session.questions)
    for name, lab in state.labs.items():
        if name in session.labs:
            lab.apply(session.labs[name])


# session field -> state attribute, where they differ
_STATE_NAMES = {
    "stage": "grid_stage",
    "board": "board.board",
    "lines": "lines.options",
    "decoding": "decoding.options",
    "questions": "predict.enabled",
}


def save_session(path: str | Path, session: Session) -> None:
    """Write to a temporary file beside the target, then rename over it."""
    text = session.to_json()
    atomic_write(path, lambda f: f.write(text))


def load_session(path: str | Path) -> Session:
    path = Path(path)
    # a folder, a pipe (which blocked the read forever), a permission, a link loop: reading's line
    raw = reading.read_bytes(path, SessionError, limit=MAX_SESSION_BYTES)
    if len(raw) > MAX_SESSION_BYTES:
        raise SessionError.of("session.too_large", name=path.name, size=_size(path, len(raw)) // 1024)
    if not raw.strip():
        raise SessionError.of("session.empty", name=path.name)
    try:
        data = json_text.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SessionError.of("session.not_json", name=path.name, detail=str(exc)) from None
    return session_from_dict(data, path.name)


def _size(path: Path, read: int) -> int:
    """The file's size, for the too-large line (``read``, the bytes read, if it is gone)."""
    try:
        return max(path.stat().st_size, read)
    except OSError:
        return read


def session_from_dict(data: object, name: str = "the session") -> Session:
    if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
        raise SessionError.of("session.foreign", name=name)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SessionError.of("session.no_version", name=name)
    if version > SESSION_VERSION:
        raise SessionError.of("session.newer", name=name, version=version, supported=SESSION_VERSION)
    try:
        config = AttentionConfig.from_dict(dict(data.get("config") or {}))
        cell = data.get("selected_cell")
        if cell is not None:
            if not (isinstance(cell, list) and len(cell) == 2 and all(_is_index(c) for c in cell)):
                raise _Invalid.of("session.cell")
            cell = (cell[0], cell[1])
        head = data.get("selected_head", 0)
        if not _is_index(head):
            raise _Invalid.of("session.head")
        theme, language = data.get("theme", "light"), data.get("language", "en")
        if theme not in THEMES or language not in LANGUAGES:
            raise _Invalid.of("session.look", theme=theme, language=language)
        stage = data.get("stage", "weights")
        if not isinstance(stage, str):
            raise _Invalid.of("session.stage")
        if stage not in GRID_STAGES:  # format 1 kept any text: the grid shows the weights then
            stage = "weights"
        later = _format_2(data) if version >= 2 else {}
    except (ConfigError, ValueError, TypeError) as exc:  # ConfigError and _Invalid carry a Message
        raise SessionError.of("session.invalid", name=name, detail=message_of(exc)) from None
    return Session(config, head, cell, stage, theme, language, **later)


def _format_2(data: dict[str, Any]) -> dict[str, Any]:
    """The fields format 2 added, checked (missing ones keep their defaults)."""
    out: dict[str, Any] = {}
    if "compare" in data:
        compare = data["compare"]
        if not isinstance(compare, dict):
            raise _Invalid.of("session.compare")
        unknown = sorted(set(compare) - {"scoring", "attention", "mask", "temperature"})
        if unknown:
            raise _Invalid.of("session.compare_unknown", option=unknown[0])
        options = CompareOptions.from_changes(**compare)
        for text in (options.scoring, options.attention, options.mask):
            if text is not None and not isinstance(text, str):
                raise _Invalid.of("session.compare_text")
        t = options.temperature
        if t is not None and not (math.isfinite(t) and t > 0):
            raise _Invalid.of("session.compare_temperature")
        out["compare"] = options
    for key in ("presentation", "values_on_cells", "lesson_visible"):
        if key in data:
            if not isinstance(data[key], bool):
                raise _Invalid.of("session.flag", key=key)
            out[key] = data[key]
    if "text_zoom" in data:
        zoom = data["text_zoom"]
        lo, hi = TEXT_ZOOM_RANGE
        if not (isinstance(zoom, int) and not isinstance(zoom, bool) and lo <= zoom <= hi):
            raise _Invalid.of("session.text_zoom", low=lo, high=hi)
        out["text_zoom"] = zoom
    if data.get("stage_zoom") is not None:
        panels = data["stage_zoom"]
        if not (isinstance(panels, list) and panels and all(p in ZOOM_NAMES for p in panels)):
            raise _Invalid.of("session.stage_zoom")
        out["stage_zoom"] = tuple(panels)
    if data.get("matrix_zoom") is not None:
        try:
            out["matrix_zoom"] = Region.from_list(data["matrix_zoom"])
        except ValueError:
            raise _Invalid.of("session.matrix_zoom") from None
    if "lesson_step" in data:  # written before steps had ids: the index among the steps of then
        step = data["lesson_step"]
        if not (_is_index(step) and step < len(STEPS)):
            raise _Invalid.of("session.lesson_step", last=len(STEPS) - 1)
        out["lesson_step"] = step
    if "lesson_step_id" in data:  # the step by its id; one since removed starts the lesson afresh
        step_id = data["lesson_step_id"]
        if not isinstance(step_id, str):
            raise _Invalid.of("session.lesson_step_id")
        try:
            out["lesson_step"] = step_index(step_id)
        except KeyError:
            out["lesson_step"] = 0
    if "lesson_track" in data:
        track = data["lesson_track"]
        out["lesson_track"] = track if track in track_ids() else ALL_TRACKS  # a track since removed
    if "tab" in data:
        if not isinstance(data["tab"], str) or not data["tab"]:
            raise _Invalid.of("session.tab")
        out["tab"] = data["tab"]
    if "board" in data:  # the board and the lines came later within format 2: optional
        out["board"] = Board.from_dict(data["board"])
    if "lines" in data:
        out["lines"] = LinesOptions.from_dict(data["lines"])
    if "decoding" in data:  # later still: optional too
        out["decoding"] = DecodingOptions.from_dict(data["decoding"])
    if "questions" in data:
        if not isinstance(data["questions"], bool):
            raise ValueError("questions must be true or false")
        out["questions"] = data["questions"]
    out["labs"] = _default_labs(
        {
            e.name: e.settings.from_dict(data[e.name])
            for e in lab_registry.LABS
            if data.get(e.name) is not None
        }
    )
    return out


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
