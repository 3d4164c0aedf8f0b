"""Self-attention between a photograph's own patches, with no trained model at all.

The lesson's "a query looks for what resembles it", on any picture: cut the photo into
patches, describe each patch by a few numbers anyone can read (FEATURES: its mean red, green
and blue, how much its brightness varies, how strong its left-right and up-down edges are),
standardise each number over the photo's patches (so every feature counts alike), and let the
patches attend to each other with Q = K = V = those features (identity projections) through
``explorer.core.attention.attend``: scaled dot product, softmax. Patch p's row of weights says
which parts of the picture match it.

    photo_attention(image)   image [S, S, 3] in [0, 1], S a multiple of the patch size
      → PhotoAttention: features [patches, 6], x (standardised), Q, K, V, scores, scaled,
        weights [patches, patches] (one head), grid; ``matches(p)`` is patch p's row as a grid.

``load_photo(path)`` reads a PNG/JPEG (explorer.vision.images: safe, resized to PHOTO_SIZE with
a notice); ``default_photo()`` is the picture the tab shows before one is opened, drawn here
in numpy (``default_picture``: a house under a sky with the sun, on grass; no file, nothing
downloaded). Nothing here was trained: the numbers are the photo's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from explorer.core.attention import Projections, Settings, attend
from explorer.messages import Message
from explorer.vision.images import load_image

PHOTO_SIZE = 128  # pixels a side: 16 × 16 patches of 8 pixels, fine enough to see a shape
PATCH = 8
FEATURES = ("red", "green", "blue", "brightness spread", "left-right edges", "up-down edges")
LUMINANCE = np.array([0.299, 0.587, 0.114])  # ITU-R BT.601 weights of R, G, B


@dataclass(frozen=True)
class PhotoAttention:
    image: np.ndarray  # [S, S, 3] float32 in [0, 1]
    patch: int
    features: np.ndarray  # [patches, len(FEATURES)] the raw numbers
    x: np.ndarray  # [patches, len(FEATURES)] standardised: what the patches attend with
    q: np.ndarray  # [patches, F] = x (identity projection)
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray  # [patches, patches] q·k
    scaled: np.ndarray  # q·k / √F
    weights: np.ndarray  # softmax of each row
    notices: list[Message] = field(default_factory=list)

    @property
    def grid(self) -> int:
        return self.image.shape[0] // self.patch

    def matches(self, patch: int) -> np.ndarray:
        """[grid, grid]: how much patch ``patch`` (reading order) attends to every patch."""
        return self.weights[patch].reshape(self.grid, self.grid)

    def patch_at(self, row: float, col: float) -> int:
        """The patch under pixel (row, col) of ``image``."""
        g = self.grid
        return int(min(g - 1, max(0, row // self.patch)) * g + min(g - 1, max(0, col // self.patch)))


def patch_features(image: np.ndarray, patch: int = PATCH) -> np.ndarray:
    """[S, S, 3] → [patches, 6]: per patch the FEATURES, in reading order."""
    size = image.shape[0]
    g = size // patch
    squares = image.reshape(g, patch, g, patch, 3).transpose(0, 2, 1, 3, 4).reshape(g * g, patch, patch, 3)
    brightness = squares.astype(np.float64) @ LUMINANCE  # [patches, p, p]
    return np.column_stack(
        [
            squares.mean(axis=(1, 2)),
            brightness.std(axis=(1, 2)),
            np.abs(np.diff(brightness, axis=2)).mean(axis=(1, 2)),  # changes from left to right
            np.abs(np.diff(brightness, axis=1)).mean(axis=(1, 2)),  # changes from top to bottom
        ]
    )


def standardise(features: np.ndarray) -> np.ndarray:
    """Each column to mean 0, standard deviation 1 over the patches (a constant column: all 0)."""
    spread = features.std(axis=0)
    return (features - features.mean(axis=0)) / np.where(spread > 1e-12, spread, 1.0)


def photo_attention(
    image: np.ndarray, patch: int = PATCH, notices: list[Message] | None = None
) -> PhotoAttention:
    image = np.asarray(image, dtype=np.float32)
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] != image.shape[1] or image.shape[0] % patch:
        raise ValueError(
            f"a square RGB picture whose side is a multiple of {patch} pixels, not {image.shape}"
        )
    features = patch_features(image, patch)
    x = torch.from_numpy(standardise(features).astype(np.float32))
    eye = torch.eye(x.shape[1])
    with torch.no_grad():
        stages = attend(x, x, Projections(eye, eye, eye, eye), Settings(heads=1))  # Q = K = V = x

    def one(t: torch.Tensor) -> np.ndarray:
        return t[0].numpy()

    return PhotoAttention(
        image=image,
        patch=patch,
        features=features.astype(np.float32),
        x=x.numpy(),
        q=one(stages.q),
        k=one(stages.k),
        v=one(stages.v),
        scores=one(stages.scores),
        scaled=one(stages.scaled),
        weights=one(stages.weights),
        notices=list(notices or []),
    )


DEFAULT_PATCH = (11, 6)  # (row, column) of the patch selected at first: the house's red wall


def default_picture(size: int = PHOTO_SIZE) -> np.ndarray:
    """[size, size, 3] float32 in [0, 1]: a sky darkening upwards with a sun at its top right,
    grass with stripes below the horizon, a red house with a dark roof, a window and a door
    in the middle: regions a patch's colour and edges tell apart, each several patches big."""
    u = (np.arange(size, dtype=np.float32) + 0.5) / size  # 0 at the top or left, 1 at the bottom or right
    row, col = u[:, None], u[None, :]
    image = np.empty((size, size, 3), np.float32)
    sky = np.stack([0.35 + 0.4 * row, 0.6 + 0.3 * row, np.full_like(row, 0.95)], axis=-1)
    image[:] = np.broadcast_to(sky, (size, size, 3))
    sun = (row - 0.16) ** 2 + (col - 0.8) ** 2 < 0.1**2
    image[sun] = (1.0, 0.85, 0.2)
    stripes = np.broadcast_to(0.12 * (np.floor(col * 16) % 2), (size, size))  # mown: left-right edges
    grass = np.broadcast_to(row > 0.62, (size, size))
    image[grass] = np.stack([np.full_like(stripes, 0.2), 0.5 + stripes, np.full_like(stripes, 0.2)], -1)[
        grass
    ]
    wall = (row > 0.45) & (row < 0.78) & (col > 0.3) & (col < 0.7)
    image[wall] = (0.75, 0.15, 0.12)
    roof = (row > 0.25) & (row <= 0.45) & (np.abs(col - 0.5) < (row - 0.25) * 1.1)
    image[roof] = (0.25, 0.2, 0.2)
    window = (row > 0.5) & (row < 0.6) & (col > 0.36) & (col < 0.46)
    image[window] = (0.95, 0.95, 0.8)
    door = (row > 0.6) & (row < 0.78) & (col > 0.54) & (col < 0.63)
    image[door] = (0.35, 0.2, 0.1)
    return image


def default_photo() -> PhotoAttention:
    """The generated picture (default_picture), attended to like a photo."""
    return photo_attention(default_picture())


def load_photo(path: str | Path) -> PhotoAttention:
    """A photograph from a file (ImageError, one line, when it cannot be used), attended to."""
    loaded = load_image(path, size=PHOTO_SIZE)
    return photo_attention(loaded.pixels, notices=loaded.notices)
