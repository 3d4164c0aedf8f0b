"""The explorer's state, without Qt: the one source of truth for what the window shows.

Everything a view draws or a session saves lives here: the configuration, the selected
head and cell, the stage of the all-heads grid, the compare options, the theme, the
language, presentation mode, the text zoom, the stage the pipeline zooms into, the part of
the (query, key) matrix a zoomed panel shows, values on cells, the lesson step and the
current tab. Views and controls subscribe; a change
notifies them with the name of what changed (the ``EVENTS``). Data flows one way:
controls edit the state, the state asks for a trace, traces become pictures. Widgets
keep no copies: they read the state when they draw.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from explorer.appstate import labs
from explorer.appstate.board import BoardState
from explorer.appstate.decoding import DecodingState
from explorer.appstate.events import Observable
from explorer.appstate.lab import LabState
from explorer.appstate.lesson import ALL_TRACKS, STEPS, step_index, track_ids, track_of, track_range
from explorer.appstate.lines import LinesState
from explorer.appstate.matrix_zoom import Region, clamp
from explorer.appstate.model_choice import LoadedModel
from explorer.appstate.predict import Prediction
from explorer.appstate.presets import DEFAULT_PRESET, Preset
from explorer.appstate.translation import TranslationState
from explorer.appstate.vision import VisionState
from explorer.core.config import AttentionConfig

THEMES = ("light", "dark")  # their palettes are explorer.gui.theme's
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}  # each language in its own words
GRID_STAGES = ("weights", "scores", "scaled", "head_outputs", "Q", "K", "V")
# The panels of the pipeline, in the lesson's order (the stage zoom names some of them).
PIPELINE_PANELS = (
    ("X", "Q", "K", "V"),
    ("scores", "scaled", "mask", "weights"),
    ("head_output", "concat", "output", "entropy"),
)
PANEL_NAMES = tuple(name for row in PIPELINE_PANELS for name in row)
# Panels the pipeline shows only zoomed into them (a lesson step's own picture).
# Q of every head side by side (the split into heads); a rotary decoder's angle of every
# position and pair of dimensions (beside Q and K when zoomed into either).
ZOOM_ONLY_PANELS = ("Q_heads", "rope_angles")
ZOOM_NAMES = ("tokens", *PANEL_NAMES, *ZOOM_ONLY_PANELS)  # the token chips, or panels
TEXT_ZOOM_RANGE = (-3, 12)  # steps of 2 px
# Presentation mode's text: 22 px on a 1024×768 projector (nothing under 20 px there), in
# proportion on other windows (explorer.gui.theme.presentation_px_for), never under 20 px.
PRESENTATION_FONT_PX = 22
MIN_PRESENTATION_PX = 20
DEFAULT_TAB = "pipeline"
EVENTS = (
    "config",
    "head",
    "cell",
    "stage",
    "compare",
    "theme",
    "language",
    "presentation",
    "zoom",
    "stage_zoom",
    "matrix_zoom",  # the part of the (query, key) matrix zoomed panels show (matrix_zoom)
    "values",
    "lesson",
    "tab",
    "board",  # state.board (explorer.appstate.board)
    "lines",  # state.lines (explorer.appstate.lines)
    "decoding",  # state.decoding (explorer.appstate.decoding): heads off, how text is written
    "heads_off",  # state.decoding's heads off or how they are off changed (the trace follows them)
    "predict",  # state.predict (explorer.appstate.predict)
    "model",  # the loaded model the labels describe (loaded_model)
    "shape",  # the shape of the trace on screen (shape)
)


@dataclass(frozen=True)
class CompareOptions:
    """How B differs from A (the current settings) in the compare view; None: the same."""

    scoring: str | None = None
    attention: str | None = "hard"  # soft vs hard to start
    mask: str | None = None
    temperature: float | None = None  # B divides its scores by τ instead of A's scaling

    @staticmethod
    def from_changes(**changes: Any) -> CompareOptions:
        """Exactly these changes (scoring, attention, mask, temperature); the rest the same."""
        unknown = set(changes) - {"scoring", "attention", "mask", "temperature"}
        if unknown:
            raise ValueError(f"unknown compare option {sorted(unknown)[0]!r}")
        t = changes.get("temperature")
        return CompareOptions(
            changes.get("scoring"),
            changes.get("attention"),
            changes.get("mask"),
            None if t is None else float(t),
        )

    def changes(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if v is not None and k != "temperature"}
        if self.temperature is not None:
            out.update(scale="temperature", temperature=round(float(self.temperature), 4))
        return out

    def config_b(self, a: AttentionConfig) -> AttentionConfig:
        """B's configuration (raises ConfigError when the combination is impossible)."""
        return a.with_(**self.changes())


@dataclass(frozen=True)
class TraceShape:
    """The shape of the trace on screen, which the controls offer choices from: the head
    counts the width allows, the model's own head count, the heads and d_k it used, and how
    many layers the model has."""

    head_counts: tuple[int, ...]
    default_heads: int
    heads: int
    d_k: int
    layers: int


class ExplorerState(Observable):
    EVENTS = EVENTS

    def __init__(self, config: AttentionConfig | None = None):
        super().__init__()
        self.config: AttentionConfig = config if config is not None else DEFAULT_PRESET.config()
        self.selected_head: int = 0
        self.selected_cell: tuple[int, int] | None = None
        self.grid_stage: str = "weights"
        self.compare: CompareOptions = CompareOptions()
        self.theme: str = THEMES[0]
        self.language: str = "en"
        self.presentation: bool = False
        self.text_zoom: int = 0
        self.presentation_px: int = PRESENTATION_FONT_PX  # presentation text for the window's size
        self.stage_zoom: tuple[str, ...] | None = None
        self.matrix_zoom: Region | None = None  # None: the whole matrix
        self.values_on_cells: bool = False
        self.lesson_visible: bool = False
        self.lesson_step: int = 0  # an index into lesson.STEPS (every track's steps)
        self.lesson_track: str = ALL_TRACKS  # the track the lesson walks (lesson.track_ids())
        self.tab: str = DEFAULT_TAB
        self.loaded_model: LoadedModel | None = None  # what the model labels describe
        self.shape: TraceShape | None = None  # of the trace on screen (None: none yet)
        # every registered lab's state (explorer/appstate/labs.py), each with its own events
        self.labs: dict[str, LabState] = {entry.name: entry.state() for entry in labs.LABS}
        self.board = BoardState(self._emit)  # board mode's hand-made vectors
        self.lines = LinesState(self._emit)  # the weights drawn as lines
        self.decoding = DecodingState(self._emit)  # a language model's heads off and sampling
        self.predict = Prediction(self, self._emit)  # the lesson's predict-then-reveal

    # -- the labs -------------------------------------------------------------------------
    @property
    def translation(self) -> TranslationState:
        state = self.labs["translation"]
        assert isinstance(state, TranslationState)
        return state

    @property
    def vision(self) -> VisionState:
        state = self.labs["vision"]
        assert isinstance(state, VisionState)
        return state

    # -- what is computed ---------------------------------------------------------------
    def set_config(self, config: AttentionConfig) -> bool:
        return self._set("config", config, "config")

    def update_config(self, **changes: Any) -> bool:
        """Apply changes (raises ConfigError for an impossible combination)."""
        return self.set_config(self.config.with_(**changes))

    def set_compare(self, options: CompareOptions) -> bool:
        return self._set("compare", options, "compare")

    def compare_config(self) -> AttentionConfig:
        """B of the compare view (raises ConfigError when impossible)."""
        return self.compare.config_b(self.config)

    # -- what is selected ------------------------------------------------------------------
    def select_head(self, head: int) -> None:
        self._set("selected_head", max(0, int(head)), "head")

    def select_cell(self, cell: tuple[int, int] | None) -> None:
        cell = None if cell is None else (int(cell[0]), int(cell[1]))
        self._set("selected_cell", cell, "cell")

    def set_grid_stage(self, stage: str) -> None:
        if stage not in GRID_STAGES:
            raise ValueError(f"stage {stage!r} is not one of {', '.join(GRID_STAGES)}")
        self._set("grid_stage", stage, "stage")

    def apply_preset(self, preset: Preset) -> None:
        """A ready-made example (explorer.appstate.presets): its inputs, options, head and cell."""
        self.select_cell(None)
        self.set_config(preset.config(base=self.config))
        if preset.head is not None:
            self.select_head(preset.head)
        if preset.cell is not None:
            self.select_cell(preset.cell)

    def set_loaded_model(self, model: LoadedModel | None) -> None:
        """The model a worker loaded for the configuration (the labels describe it)."""
        self._set("loaded_model", model, "model")

    def set_shape(self, shape: TraceShape | None) -> None:
        self._set("shape", shape, "shape")

    def clamp_to(self, heads: int, n_query: int, n_key: int) -> None:
        """Keep the selection inside a new trace's shape."""
        if self.selected_head >= heads:
            self.select_head(heads - 1)
        if self.selected_cell is not None:
            i, j = self.selected_cell
            if i >= n_query or j >= n_key:
                self.select_cell((min(i, n_query - 1), min(j, n_key - 1)))
        self.set_matrix_zoom(clamp(self.matrix_zoom, n_query, n_key))

    # -- how it is shown ---------------------------------------------------------------------
    def set_theme(self, theme: str) -> None:
        if theme not in THEMES:
            raise ValueError(f"theme {theme!r} is not one of {', '.join(THEMES)}")
        self._set("theme", theme, "theme")

    def set_language(self, language: str) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
        self._set("language", language, "language")

    def set_presentation(self, on: bool) -> None:
        self._set("presentation", bool(on), "presentation")

    def set_text_zoom(self, level: int) -> None:
        lo, hi = TEXT_ZOOM_RANGE
        self._set("text_zoom", max(lo, min(hi, int(level))), "zoom")

    def set_presentation_px(self, px: int) -> None:
        """Presentation mode's text size for the window's size (a "zoom" while presenting)."""
        px = max(MIN_PRESENTATION_PX, int(px))
        if px != self.presentation_px:
            self.presentation_px = px
            if self.presentation:
                self._emit("zoom")

    def set_stage_zoom(self, panels: Iterable[str] | None) -> None:
        """Show only these pipeline panels, large (None or empty: every stage)."""
        names = tuple(n for n in (panels or ()) if n in ZOOM_NAMES) or None
        self._set("stage_zoom", names, "stage_zoom")

    def set_matrix_zoom(self, region: Region | None) -> None:
        """Show only these cells of the (query, key) matrix in zoomed panels (None: all)."""
        if region is not None and not isinstance(region, Region):
            raise ValueError(f"{region!r} is not a region of the matrix")
        self._set("matrix_zoom", region, "matrix_zoom")

    def set_values_on_cells(self, on: bool) -> None:
        self._set("values_on_cells", bool(on), "values")

    def show_lesson(self, on: bool) -> None:
        self._set("lesson_visible", bool(on), "lesson")

    def set_lesson_step(self, step: int | str) -> None:
        """Go to a lesson step (its index in STEPS, or its id), and to the tab it is shown on;
        a step of another track than the one walked takes the lesson to that track."""
        index = step_index(step) if isinstance(step, str) else max(0, min(len(STEPS) - 1, int(step)))
        other_track = index not in track_range(self.lesson_track)
        if other_track:
            self.lesson_track = track_of(index)
        if not self._set("lesson_step", index, "lesson") and other_track:
            self._emit("lesson")  # the same step, walked in another track
        shown = STEPS[index]
        lab = self.labs.get(shown.tab)
        if lab is not None:
            lab.arrive_at_step(shown.id)  # the example the step shows, whatever was typed before
        self.set_tab(shown.tab)

    def set_lesson_track(self, track: str) -> None:
        """Walk one track (or ALL_TRACKS); a step outside it moves to the track's first step."""
        if track not in track_ids():
            raise ValueError(f"lesson track {track!r} is not one of {', '.join(track_ids())}")
        if track == self.lesson_track:
            return
        self.lesson_track = track
        steps = track_range(track)
        if self.lesson_step in steps:
            self._emit("lesson")
        else:
            self.set_lesson_step(steps[0])

    def lesson_steps(self) -> range:
        """The indices in STEPS of the track the lesson walks."""
        return track_range(self.lesson_track)

    def step_lesson(self, delta: int) -> None:
        """The next (+1) or previous (−1) step of the walked track; its ends stay put."""
        steps = self.lesson_steps()
        position = steps.index(self.lesson_step) if self.lesson_step in steps else 0
        self.set_lesson_step(steps[max(0, min(len(steps) - 1, position + delta))])

    @property
    def lesson_step_id(self) -> str:
        return STEPS[self.lesson_step].id

    def set_tab(self, tab: str) -> None:
        if not isinstance(tab, str) or not tab:
            raise ValueError(f"{tab!r} is not a tab name")
        self._set("tab", tab, "tab")
