"""The Vision tab's settings, without Qt: which picture, which model, what is selected, what is shown.

``VisionState`` hangs off the ExplorerState (``state.vision``) and has its own events
(``EVENTS``): the picture (``Picture``: generated from a seed, loaded from a file, or drawn on
a generated or plain background), the model variant, the block, the channel and the position
whose arithmetic is worked, the page of the tab and the plan of the next training run. The
run, the weights in use (the shipped checkpoint or a snapshot of the run) and the scrubber's
snapshot are held the way every lab holds them (``explorer.appstate.lab.LabState``: events
``training`` and ``weights``).

A drawing is kept as its strokes (colour, radius, points in pixel units), never as pixels:
``render_drawing`` paints them again, so a session stores a drawing as a few numbers.
``VisionSettings`` is what a session saves (``settings()`` / ``apply()`` /
``VisionSettings.from_dict``); a trained run lives only in memory, so its snapshot is not saved.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

from explorer.appstate.lab import LabState
from explorer.lab import LabRun, TrainOptions
from explorer.vision.models import VARIANTS, VisionConfig
from explorer.vision.shapes import DISTRACTOR_COLOURS, IMAGE_SIZE, TARGET_COLOURS, generate
from explorer.vision.train import DEFAULTS, GOAL, train_config

KINDS = ("generate", "file", "draw")  # where the picture comes from
BACKGROUNDS = ("picture", "plain")  # a drawing is painted on the seed's picture or on plain grey
PLAIN_BACKGROUND = (0.22, 0.22, 0.22)
DRAW_COLOURS = {**TARGET_COLOURS, **DISTRACTOR_COLOURS}  # the generator's own colours
PAGES = ("picture", "channel", "spatial", "residual", "compare", "train")
MAX_SEED = 2**31 - 1  # what a spin box holds; the generator takes any seed ≥ 0
MAX_STROKES = 200
MAX_POINTS = 2000  # per stroke
BRUSH_RANGE = (0.5, 6.0)  # radius in pixels of the 32×32 picture
MAX_TRAIN_STEPS = 5000
EVENTS = ("picture", "model", "block", "channel", "position", "page", "training", "weights", "brush")
# The window's runs: the train command's data, an evaluation every 20 steps for the curves,
# CUDA when present (else the CPU, one torch thread).
WINDOW_TRAINING = replace(DEFAULTS, eval_every=20, snapshot_every=10, device="auto", threads=1)
_BLOCK = re.compile(r"block[1-9][0-9]?")


@dataclass(frozen=True)
class Stroke:
    colour: str  # a key of DRAW_COLOURS
    radius: float  # in pixels
    points: tuple[tuple[float, float], ...]  # (row, column) in pixels, 0 … IMAGE_SIZE

    def __post_init__(self) -> None:
        if self.colour not in DRAW_COLOURS:
            raise ValueError(f"colour {self.colour!r} is not one of {', '.join(DRAW_COLOURS)}")
        radius = float(self.radius)
        if not (math.isfinite(radius) and BRUSH_RANGE[0] <= radius <= BRUSH_RANGE[1]):
            raise ValueError(
                f"brush radius {self.radius!r}: it must be from {BRUSH_RANGE[0]} to {BRUSH_RANGE[1]}"
            )
        points = tuple((float(r), float(c)) for r, c in self.points)
        if not 1 <= len(points) <= MAX_POINTS:
            raise ValueError(f"a stroke has 1 to {MAX_POINTS} points, not {len(points)}")
        if not all(math.isfinite(v) and -1 <= v <= IMAGE_SIZE + 1 for p in points for v in p):
            raise ValueError("a stroke's points must lie on the picture")
        object.__setattr__(self, "radius", radius)
        object.__setattr__(self, "points", points)


@dataclass(frozen=True)
class Picture:
    """Where the picture comes from. Switching ``kind`` keeps the others' settings."""

    kind: str = "generate"
    seed: int = 7  # the generated picture (and a drawing's background)
    path: str = ""  # a loaded file
    background: str = "picture"  # a drawing's background
    strokes: tuple[Stroke, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"picture kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if not (
            isinstance(self.seed, int) and not isinstance(self.seed, bool) and 0 <= self.seed <= MAX_SEED
        ):
            raise ValueError(f"seed {self.seed!r}: it must be a whole number from 0 to {MAX_SEED}")
        if not isinstance(self.path, str):
            raise ValueError("the picture's path must be text")
        if self.kind == "file" and not self.path:
            raise ValueError("a loaded picture needs its file's path")
        if self.background not in BACKGROUNDS:
            raise ValueError(f"background {self.background!r} is not one of {', '.join(BACKGROUNDS)}")
        strokes = tuple(self.strokes)
        if len(strokes) > MAX_STROKES:
            raise ValueError(f"a drawing has at most {MAX_STROKES} strokes")
        if not all(isinstance(s, Stroke) for s in strokes):
            raise ValueError("strokes must be Stroke values")
        object.__setattr__(self, "strokes", strokes)

    def describe(self) -> str:
        """What the vision command would call it (the trace's ``source``)."""
        if self.kind == "generate":
            return f"generate:{self.seed}"
        if self.kind == "file":
            return f"image:{self.path}"
        return f"drawn:{self.background}:{self.seed}:{len(self.strokes)} strokes"

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Picture:
        if not isinstance(data, dict):
            raise ValueError("picture must be an object")
        strokes = data.get("strokes") or []
        if not isinstance(strokes, list):
            raise ValueError("strokes must be a list")
        made = []
        for s in strokes:
            if not isinstance(s, dict) or not isinstance(s.get("points"), list):
                raise ValueError("a stroke needs a colour, a radius and a list of points")
            if not all(isinstance(p, list) and len(p) == 2 for p in s["points"]):
                raise ValueError("a stroke's points are [row, column] pairs")
            if not all(_is_number(v) for p in s["points"] for v in p) or not _is_number(s.get("radius")):
                raise ValueError("a stroke's radius and points must be numbers")
            made.append(Stroke(str(s.get("colour")), s["radius"], tuple((p[0], p[1]) for p in s["points"])))
        return Picture(
            kind=data.get("kind", "generate"),
            seed=data.get("seed", 7),
            path=data.get("path", ""),
            background=data.get("background", "picture"),
            strokes=tuple(made),
        )


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def stroke_mask(stroke: Stroke, size: int = IMAGE_SIZE) -> np.ndarray:
    """The pixels whose centres lie within ``radius`` of the stroke's path (a capsule per segment)."""
    points = np.asarray(stroke.points, dtype=np.float64)
    starts, ends = (points, points) if len(points) == 1 else (points[:-1], points[1:])
    hit = np.zeros((size, size), dtype=bool)
    for first in range(0, len(starts), 64):  # segments in chunks, each over its own bounding box
        a, b = starts[first : first + 64], ends[first : first + 64]
        lo = np.floor(np.minimum(a, b).min(axis=0) - stroke.radius).astype(int).clip(0, size)
        hi = np.ceil(np.maximum(a, b).max(axis=0) + stroke.radius).astype(int).clip(0, size)
        if (hi <= lo).any():
            continue
        rows, cols = np.mgrid[lo[0] : hi[0], lo[1] : hi[1]] + 0.5
        rows, cols = rows.ravel()[None, :], cols.ravel()[None, :]  # [1, P]
        r0, c0 = a[:, :1], a[:, 1:]  # [S, 1]
        dr, dc = b[:, :1] - r0, b[:, 1:] - c0
        length2 = dr * dr + dc * dc
        # the nearest point of each segment to each pixel centre, as a fraction along it
        along = (rows - r0) * dr + (cols - c0) * dc
        t = np.clip(np.divide(along, length2, out=np.zeros_like(along), where=length2 > 0), 0.0, 1.0)
        near = (rows - (r0 + t * dr)) ** 2 + (cols - (c0 + t * dc)) ** 2 <= stroke.radius**2
        hit[lo[0] : hi[0], lo[1] : hi[1]] |= near.any(axis=0).reshape(hi[0] - lo[0], hi[1] - lo[1])
    return hit


def drawing_background(picture: Picture, size: int = IMAGE_SIZE) -> np.ndarray:
    if picture.background == "plain":
        return np.broadcast_to(np.asarray(PLAIN_BACKGROUND, dtype=np.float32), (size, size, 3)).copy()
    return generate(picture.seed).image.copy()


def render_drawing(picture: Picture, size: int = IMAGE_SIZE) -> np.ndarray:
    """The drawn picture [size, size, 3] float32 in [0, 1]: the background, then every stroke in order."""
    image = drawing_background(picture, size)
    for stroke in picture.strokes:
        image[stroke_mask(stroke, size)] = DRAW_COLOURS[stroke.colour]
    return image


@dataclass(frozen=True)
class VisionSettings:
    """What a session keeps of the Vision tab."""

    picture: Picture = field(default_factory=Picture)
    variant: str = "cbam"
    block: str = "block3"
    channel: int | None = None
    position: tuple[int, int] | None = None  # (row, column) of the block's map
    page: str = "picture"
    draw_colour: str = "red"
    brush: float = 2.0
    train_steps: int = 400
    train_seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.picture, Picture):
            raise ValueError("picture must be a Picture")
        if self.variant not in VARIANTS:
            raise ValueError(f"model {self.variant!r} is not one of {', '.join(VARIANTS)}")
        if not isinstance(self.block, str) or not _BLOCK.fullmatch(self.block):
            raise ValueError(f"block {self.block!r} is not a block name (block1, block2, …)")
        if self.channel is not None and not _is_index(self.channel):
            raise ValueError("channel must be 0 or more")
        if self.position is not None:
            if not (len(self.position) == 2 and all(_is_index(v) for v in self.position)):
                raise ValueError("position must be two indices (row, column)")
            object.__setattr__(self, "position", (int(self.position[0]), int(self.position[1])))
        if self.page not in PAGES:
            raise ValueError(f"page {self.page!r} is not one of {', '.join(PAGES)}")
        if self.draw_colour not in DRAW_COLOURS:
            raise ValueError(f"colour {self.draw_colour!r} is not one of {', '.join(DRAW_COLOURS)}")
        if not (_is_number(self.brush) and BRUSH_RANGE[0] <= self.brush <= BRUSH_RANGE[1]):
            raise ValueError(f"brush {self.brush!r}: it must be from {BRUSH_RANGE[0]} to {BRUSH_RANGE[1]}")
        if not (_is_index(self.train_steps) and 1 <= self.train_steps <= MAX_TRAIN_STEPS):
            raise ValueError(f"training steps must be from 1 to {MAX_TRAIN_STEPS}")
        if not (_is_index(self.train_seed) and self.train_seed <= MAX_SEED):
            raise ValueError(f"training seed must be from 0 to {MAX_SEED}")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["position"] = list(self.position) if self.position is not None else None
        return data

    @staticmethod
    def from_dict(data: object) -> VisionSettings:
        """Checked; any bad value raises ValueError (the session reports it)."""
        if not isinstance(data, dict):
            raise ValueError("vision must be an object")
        known = {f for f in VisionSettings.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown vision settings: {', '.join(sorted(unknown))}")
        values = dict(data)
        if "picture" in values:
            values["picture"] = Picture.from_dict(values["picture"])
        if values.get("position") is not None:
            position = values["position"]
            if not (isinstance(position, list) and len(position) == 2):
                raise ValueError("position must be [row, column] or null")
            values["position"] = tuple(position)
        return VisionSettings(**values)


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def attention_blocks(variant: str, blocks: int = 3) -> list[str]:
    """The blocks of a variant that hold attention (the residual model has it in block1 only)."""
    if variant == "plain":
        return []
    if variant == "residual":
        return ["block1"]
    return [f"block{i + 1}" for i in range(blocks)]


def default_block(variant: str, blocks: int = 3) -> str:
    """Where to look first: the last block (CBAM's block3 map decides where the classifier
    pools), or the residual block."""
    return "block1" if variant == "residual" else f"block{blocks}"


class VisionState(LabState):
    """The tab's settings and training; each setter validates, changes, then notifies its event."""

    TITLE = "appstate.lab_vision"
    EVENTS = EVENTS
    GOAL = GOAL
    OPTIONS = WINDOW_TRAINING

    def __init__(self, settings: VisionSettings | None = None):
        super().__init__()
        s = settings or VisionSettings()
        self.picture: Picture = s.picture
        self.variant: str = s.variant
        self.block: str = s.block
        self.channel: int | None = s.channel
        self.position: tuple[int, int] | None = s.position
        self.page: str = s.page
        self.draw_colour: str = s.draw_colour
        self.brush: float = s.brush
        self.train_steps: int = s.train_steps
        self.train_seed: int = s.train_seed

    def __eq__(self, other: object) -> bool:  # the same settings (a session round trip keeps them)
        return isinstance(other, VisionState) and self.settings == other.settings

    __hash__ = None  # mutable

    # -- the picture -----------------------------------------------------------------------------
    def set_picture(self, picture: Picture) -> bool:
        if not isinstance(picture, Picture):
            raise ValueError("set_picture takes a Picture")
        changed = self._set("picture", picture, "picture")
        if changed:
            self.select_position(None)  # a position of another picture means nothing
        return changed

    def generate(self, seed: int) -> bool:
        return self.set_picture(replace(self.picture, kind="generate", seed=int(seed)))

    def load(self, path: str) -> bool:
        return self.set_picture(replace(self.picture, kind="file", path=str(path)))

    def draw(self) -> bool:
        """Draw on the current seed's picture (or on the plain background): strokes are kept."""
        return self.set_picture(replace(self.picture, kind="draw"))

    def add_stroke(self, stroke: Stroke) -> bool:
        strokes = (*self.picture.strokes, stroke)[-MAX_STROKES:]
        return self.set_picture(replace(self.picture, kind="draw", strokes=strokes))

    def undo_stroke(self) -> bool:
        return self.set_picture(replace(self.picture, strokes=self.picture.strokes[:-1]))

    def clear_drawing(self) -> bool:
        return self.set_picture(replace(self.picture, strokes=()))

    def set_background(self, background: str) -> bool:
        return self.set_picture(replace(self.picture, background=background))

    def set_brush(self, colour: str | None = None, radius: float | None = None) -> None:
        colour = self.draw_colour if colour is None else colour
        radius = self.brush if radius is None else float(radius)
        VisionSettings(draw_colour=colour, brush=radius)  # validates both
        if (colour, radius) != (self.draw_colour, self.brush):
            self.draw_colour, self.brush = colour, radius
            self._emit("brush")

    # -- the model and the selection ---------------------------------------------------------------
    def set_variant(self, variant: str) -> bool:
        if variant not in VARIANTS:
            raise ValueError(f"model {variant!r} is not one of {', '.join(VARIANTS)}")
        if variant == self.variant:
            return False
        self.variant = variant
        if self.block not in attention_blocks(variant):
            self.block = default_block(variant)
        self.position = None
        self._emit("model")
        self._keep_weights_fitting()  # a run of another variant: its shipped checkpoint
        return True

    def set_block(self, block: str) -> bool:
        if not isinstance(block, str) or not _BLOCK.fullmatch(block):
            raise ValueError(f"block {block!r} is not a block name (block1, block2, …)")
        changed = self._set("block", block, "block")
        if changed:
            self.select_position(None)  # blocks differ in resolution
        return changed

    def select_channel(self, channel: int | None) -> bool:
        if channel is not None and not _is_index(int(channel)):
            raise ValueError("channel must be 0 or more")
        return self._set("channel", None if channel is None else int(channel), "channel")

    def select_position(self, position: tuple[int, int] | None) -> bool:
        if position is not None:
            position = (int(position[0]), int(position[1]))
            if min(position) < 0:
                raise ValueError("a position's row and column are 0 or more")
        return self._set("position", position, "position")

    def set_page(self, page: str) -> bool:
        if page not in PAGES:
            raise ValueError(f"page {page!r} is not one of {', '.join(PAGES)}")
        return self._set("page", page, "page")

    @property
    def compare(self) -> bool:
        """Compare mode: the variants side by side on the same picture."""
        return self.page == "compare"

    # -- training (explorer.appstate.lab) ------------------------------------------------------------
    def plan(self) -> tuple[int, int]:
        return self.train_steps, self.train_seed

    def _store_plan(self, steps: int, seed: int) -> bool:
        VisionSettings(train_steps=steps, train_seed=seed)  # validates both
        if (steps, seed) == (self.train_steps, self.train_seed):
            return False
        self.train_steps, self.train_seed = steps, seed
        self._emit("training")
        return True

    def new_run(self, options: TrainOptions) -> LabRun:
        config = VisionConfig(variant=self.variant)
        return LabRun(partial(train_config, config), options, goal=GOAL, spec=config)

    def run_fits(self, spec: VisionConfig) -> bool:
        return spec.variant == self.variant

    def show_run_model(self, spec: VisionConfig) -> None:
        self.set_variant(spec.variant)

    # -- sessions ----------------------------------------------------------------------------------
    @property
    def settings(self) -> VisionSettings:
        return VisionSettings(
            picture=self.picture,
            variant=self.variant,
            block=self.block,
            channel=self.channel,
            position=self.position,
            page=self.page,
            draw_colour=self.draw_colour,
            brush=self.brush,
            train_steps=self.train_steps,
            train_seed=self.train_seed,
        )

    @settings.setter
    def settings(self, settings: VisionSettings) -> None:
        self.apply(settings)

    def prepared(self) -> VisionSettings:
        return replace(self.settings, channel=None, position=None, page="picture")

    def apply(self, settings: VisionSettings) -> None:
        """Every saved setting, each change notified as usual (the training run is not saved)."""
        self.set_variant(settings.variant)
        self.set_block(settings.block)
        self.set_picture(settings.picture)
        self.select_channel(settings.channel)
        self.select_position(settings.position)
        self.set_brush(settings.draw_colour, settings.brush)
        self.set_training_plan(settings.train_steps, settings.train_seed)
        self.set_page(settings.page)
