"""The explorer's state, without Qt: the configuration plus what the user selected.

Views and controls subscribe; every change notifies them with the name of what
changed ("config", "head", "cell", "stage"). Data flows one way: controls edit the
state, the state asks for a trace, traces become pictures.
"""

from __future__ import annotations

from collections.abc import Callable

from explorer.appstate.presets import DEFAULT_PRESET
from explorer.core.config import AttentionConfig

THEMES = ("light", "dark")  # the palettes are explorer.gui.theme's
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}  # each language in its own words
GRID_STAGES = ("weights", "scores", "scaled", "head_outputs", "Q", "K", "V")

Callback = Callable[[str, "ExplorerState"], None]


class ExplorerState:
    def __init__(self, config: AttentionConfig | None = None):
        self.config: AttentionConfig = config if config is not None else DEFAULT_PRESET.config()
        self.selected_head: int = 0
        self.selected_cell: tuple[int, int] | None = None
        self.grid_stage: str = "weights"
        self._subscribers: list[Callback] = []

    # -- events -----------------------------------------------------------
    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Call ``callback(event, state)`` on each change; returns an unsubscribe function."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def _emit(self, event: str) -> None:
        for callback in list(self._subscribers):
            callback(event, self)

    # -- changes ------------------------------------------------------------
    def set_config(self, config: AttentionConfig) -> bool:
        if config == self.config:
            return False
        self.config = config
        self._emit("config")
        return True

    def update_config(self, **changes) -> bool:
        """Apply changes (raises ConfigError for an impossible combination)."""
        return self.set_config(self.config.with_(**changes))

    def select_head(self, head: int) -> None:
        head = max(0, int(head))
        if head != self.selected_head:
            self.selected_head = head
            self._emit("head")

    def select_cell(self, cell: tuple[int, int] | None) -> None:
        cell = None if cell is None else (int(cell[0]), int(cell[1]))
        if cell != self.selected_cell:
            self.selected_cell = cell
            self._emit("cell")

    def set_grid_stage(self, stage: str) -> None:
        if stage not in GRID_STAGES:
            raise ValueError(f"stage {stage!r} is not one of {', '.join(GRID_STAGES)}")
        if stage != self.grid_stage:
            self.grid_stage = stage
            self._emit("stage")

    def clamp_to(self, heads: int, n_query: int, n_key: int) -> None:
        """Keep the selection inside a new trace's shape."""
        if self.selected_head >= heads:
            self.select_head(heads - 1)
        if self.selected_cell is not None:
            i, j = self.selected_cell
            if i >= n_query or j >= n_key:
                self.select_cell((min(i, n_query - 1), min(j, n_key - 1)))
