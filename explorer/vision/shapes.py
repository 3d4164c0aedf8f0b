"""The seeded picture generator: one target shape in a target colour among clutter.

Every picture is a pure function of one integer seed, ``generate(seed)``: a 32×32 RGB image in
[0, 1], its label and the boolean mask of the target object's pixels. The class is the target's
shape AND colour ("red circle", "blue cross", …): the target is the only bright red or blue
thing in the picture, while one or two distractor shapes of every kind are drawn in yellow,
cyan or green (yellow is red plus green, cyan is blue plus green), over a background of a dim
colour, stripes, small dim blobs and pixel noise. So a model must find the right place (the
shape) and read the right channels (red and yellow differ only in green).

Held-out pictures use seeds from ``HELD_OUT_FIRST`` up; training draws its seeds below it, so
the two sets never share a picture's seed (their shapes, colours and places overlap, as they
should; clutter, positions and noise make every picture different). Shapes are drawn with hard
edges at pixel centres and the target last, apart from the distractors, so the mask is exactly
the set of pixels painted in the target's colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

IMAGE_SIZE = 32
SHAPES = ("circle", "square", "triangle", "cross")
TARGET_COLOURS = {"red": (0.92, 0.12, 0.10), "blue": (0.12, 0.25, 0.95)}
DISTRACTOR_COLOURS = {"yellow": (0.92, 0.88, 0.12), "cyan": (0.12, 0.85, 0.92), "green": (0.15, 0.80, 0.20)}
CLASS_NAMES = tuple(f"{colour} {shape}" for colour in TARGET_COLOURS for shape in SHAPES)
NOISE = 0.04  # standard deviation of the pixel noise added last
HELD_OUT_FIRST = 1 << 40  # seeds from here up are the held-out set; training draws below


@dataclass(frozen=True)
class Picture:
    image: np.ndarray  # [H, W, 3] float32 in [0, 1]
    label: int  # index into CLASS_NAMES
    mask: np.ndarray  # [H, W] bool: the target object's pixels
    shape: str
    colour: str
    centre: tuple[float, float]  # (row, column) in pixels
    radius: float


def shape_mask(shape: str, centre: tuple[float, float], radius: float, size: int = IMAGE_SIZE) -> np.ndarray:
    """The pixels whose centres fall inside the shape (hard edges, so masks are exact)."""
    rows, cols = _pixel_centres(size)
    dy, dx = rows - centre[0], cols - centre[1]
    if shape == "circle":
        return dx * dx + dy * dy <= radius * radius
    if shape == "square":
        half = radius * 0.85  # about the circle's area
        return (np.abs(dx) <= half) & (np.abs(dy) <= half)
    if shape == "triangle":
        # Pointing up: apex at (−r, 0), base at +r/2 (an equilateral triangle in a circle of radius r).
        return (dy <= radius * 0.5) & (np.sqrt(3.0) * np.abs(dx) <= dy + radius)
    if shape == "cross":
        arm = radius * 0.34
        return ((np.abs(dx) <= arm) & (np.abs(dy) <= radius)) | ((np.abs(dy) <= arm) & (np.abs(dx) <= radius))
    raise ValueError(f"unknown shape {shape!r}")


@lru_cache(maxsize=4)
def _pixel_centres(size: int) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = np.mgrid[0:size, 0:size] + 0.5
    rows.flags.writeable = cols.flags.writeable = False
    return rows, cols


def _background(rng: np.random.Generator, size: int) -> np.ndarray:
    base = rng.uniform(0.05, 0.40, size=3)
    rows, cols = _pixel_centres(size)
    angle = rng.uniform(0, np.pi)
    period = rng.uniform(4.0, 10.0)
    phase = np.cos(angle) * cols + np.sin(angle) * rows
    stripes = 0.08 * np.sin(2 * np.pi * phase / period + rng.uniform(0, 2 * np.pi))
    tint = rng.uniform(0.3, 1.0, size=3)
    return base[None, None, :] + stripes[:, :, None] * tint[None, None, :]


def _place(rng: np.random.Generator, radius: float, taken: list[tuple[float, float, float]], size: int):
    """A centre whose disc (with a 1-pixel gap) overlaps no disc already taken, or None."""
    for _ in range(30):
        row, col = rng.uniform(radius + 0.5, size - radius - 0.5, size=2).tolist()
        if all((row - r) ** 2 + (col - c) ** 2 > (radius + rt + 1.5) ** 2 for r, c, rt in taken):
            return row, col
    return None


def generate(seed: int, size: int = IMAGE_SIZE, noise: float = NOISE) -> Picture:
    """One picture from its seed (any integer ≥ 0): image, label, object mask and how it was drawn."""
    rng = np.random.default_rng(seed)
    image = _background(rng, size)
    shape = SHAPES[rng.integers(len(SHAPES))]
    colour = list(TARGET_COLOURS)[rng.integers(len(TARGET_COLOURS))]
    radius = float(rng.uniform(4.5, 7.0)) * size / IMAGE_SIZE
    centre = _place(rng, radius, [], size)
    taken = [(centre[0], centre[1], radius)]

    # Clutter first (small blobs in dim or distractor colours), then distractor shapes.
    for _ in range(rng.integers(2, 6)):
        r = float(rng.uniform(1.0, 2.2))
        spot = _place(rng, r, taken, size)
        if spot is not None:
            tone = rng.uniform(0.1, 0.6, size=3)
            image[shape_mask("circle", spot, r, size)] = tone
            taken.append((spot[0], spot[1], r))
    distractor_names = list(DISTRACTOR_COLOURS)
    for _ in range(rng.integers(1, 3)):
        r = float(rng.uniform(4.0, 6.5)) * size / IMAGE_SIZE
        spot = _place(rng, r, taken, size)
        if spot is not None:
            kind = SHAPES[rng.integers(len(SHAPES))]
            tone = np.asarray(DISTRACTOR_COLOURS[distractor_names[rng.integers(len(distractor_names))]])
            image[shape_mask(kind, spot, r, size)] = tone
            taken.append((spot[0], spot[1], r))

    mask = shape_mask(shape, centre, radius, size)
    image[mask] = TARGET_COLOURS[colour]
    if noise > 0:
        image = image + rng.normal(0.0, noise, size=image.shape)
    image = np.clip(image, 0.0, 1.0).astype(np.float32)
    label = CLASS_NAMES.index(f"{colour} {shape}")
    return Picture(image, label, mask, shape, colour, centre, radius)


@dataclass(frozen=True)
class Batch:
    images: np.ndarray  # [N, 3, H, W] float32, channels first (what the model reads)
    labels: np.ndarray  # [N] int64
    masks: np.ndarray  # [N, H, W] bool
    seeds: np.ndarray  # [N] int64


def batch_of(seeds) -> Batch:
    pictures = [generate(int(s)) for s in seeds]
    return Batch(
        images=np.stack([p.image.transpose(2, 0, 1) for p in pictures]),
        labels=np.array([p.label for p in pictures], dtype=np.int64),
        masks=np.stack([p.mask for p in pictures]),
        seeds=np.asarray(seeds, dtype=np.int64),
    )


def held_out(n: int, start: int = 0) -> Batch:
    """Held-out pictures ``start`` … ``start + n − 1``: seeds HELD_OUT_FIRST + k, never trained on."""
    return batch_of(range(HELD_OUT_FIRST + start, HELD_OUT_FIRST + start + n))


def training_seeds(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` training seeds, all below HELD_OUT_FIRST."""
    return rng.integers(0, HELD_OUT_FIRST, size=n, dtype=np.int64)
