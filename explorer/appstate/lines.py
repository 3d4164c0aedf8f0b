"""How the weights are drawn: as a heatmap, or as lines between tokens (``state.lines``).

The lines view (queries above, keys below, a line as thick as each weight) reads from the
back of a classroom where a heatmap does not. The pipeline can draw its weights stage that
way, and the All-heads tab can overlay every head's lines (or a few heads') in colour.
Saved with the session; notifies "lines". Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class LinesOptions:
    pipeline: bool = False  # the pipeline's weights stage as lines
    heads: bool = False  # the All-heads tab as lines, heads overlaid
    head_subset: tuple[int, ...] | None = None  # the heads overlaid (None: every head)

    def __post_init__(self) -> None:
        for name in ("pipeline", "heads"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"lines {name} must be true or false")
        subset = self.head_subset
        if subset is not None:
            if not isinstance(subset, (list, tuple)) or not subset:
                raise ValueError("the lines' heads must be a list of head numbers")
            if any(isinstance(h, bool) or not isinstance(h, int) or h < 0 for h in subset):
                raise ValueError("the lines' heads must be head numbers, 0 or more")
            object.__setattr__(self, "head_subset", tuple(sorted(set(subset))))

    def heads_of(self, count: int) -> list[int]:
        """The heads to overlay among ``count``: the subset's that exist, else all of them."""
        if self.head_subset is None:
            return list(range(count))
        kept = [h for h in self.head_subset if h < count]
        return kept or list(range(count))

    def to_dict(self) -> dict[str, Any]:
        return {
            "pipeline": self.pipeline,
            "heads": self.heads,
            "head_subset": None if self.head_subset is None else list(self.head_subset),
        }

    @classmethod
    def from_dict(cls, data: object) -> LinesOptions:
        if not isinstance(data, dict) or set(data) - {"pipeline", "heads", "head_subset"}:
            raise ValueError("lines must hold pipeline, heads and head_subset")
        return cls(data.get("pipeline", False), data.get("heads", False), data.get("head_subset"))


class LinesState:
    """``state.lines``: the options; every change notifies "lines"."""

    def __init__(self, emit: Callable[[str], None]):
        self._emit = emit
        self.options = LinesOptions()

    def set_options(self, options: LinesOptions) -> None:
        if options != self.options:
            self.options = options
            self._emit("lines")

    def set_pipeline(self, on: bool) -> None:
        self.set_options(replace(self.options, pipeline=bool(on)))

    def set_heads(self, on: bool) -> None:
        self.set_options(replace(self.options, heads=bool(on)))

    def set_head_subset(self, heads: Iterable[int] | None) -> None:
        self.set_options(replace(self.options, head_subset=None if heads is None else tuple(heads)))
