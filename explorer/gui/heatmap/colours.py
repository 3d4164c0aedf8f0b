"""Colour maps as 256-entry lookup tables, and the levels that map values onto them.

Colour-blind-safe defaults: cividis for weights and other values in 0..1, the CET-D1A
blue-white-red diverging map centred at 0 for signed stages. Both tables are read from
pyqtgraph's colour-map files (cividis CC0, CET maps CC-BY, per the licence files beside
them) without importing pyqtgraph, which the window does not need at start-up.
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class ColourMap:
    name: str
    argb: np.ndarray  # uint32 [256]: 0xffRRGGBB, the layout of QImage.Format_RGB32
    dark: np.ndarray  # bool [256]: text on this colour should be white

    def rgb(self, x: float) -> tuple[int, int, int]:
        """The colour at x in 0..1."""
        v = int(self.argb[min(255, max(0, int(round(x * 255))))])
        return (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF


def _maps_folder() -> Path:
    spec = importlib.util.find_spec("pyqtgraph")  # finds the package without running it
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pyqtgraph is not installed: its colour-map files are needed")
    return Path(next(iter(spec.submodule_search_locations))) / "colors" / "maps"


@cache
def colour_map(name: str) -> ColourMap:
    """A colour map from pyqtgraph's ``colors/maps/<name>.csv`` (rows of r,g,b in 0..1)."""
    rows = []
    for line in (_maps_folder() / f"{name}.csv").read_text(encoding="utf-8").splitlines():
        line = line.split(";", 1)[0].strip()
        parts = line.split(",")
        if len(parts) >= 3:
            rows.append([float(p) for p in parts[:3]])
    table = np.asarray(rows, dtype=np.float64)
    if len(table) != 256:  # resample to 256 entries
        x = np.linspace(0.0, 1.0, len(table))
        table = np.stack([np.interp(np.linspace(0.0, 1.0, 256), x, table[:, k]) for k in range(3)], 1)
    rgb = np.clip(np.round(table * 255), 0, 255).astype(np.uint32)
    argb = np.uint32(0xFF000000) | (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    luma = 0.299 * rgb[:, 0] + 0.587 * rgb[:, 1] + 0.114 * rgb[:, 2]
    return ColourMap(name, argb.astype(np.uint32), luma <= 140)


def sequential() -> ColourMap:
    return colour_map("cividis")


def diverging() -> ColourMap:
    return colour_map("CET-D1A")


SPOTLIGHT_FLOOR = 0.2  # a spotlight keeps this much of a picture's brightness where the map is 0


@cache
def spotlight() -> ColourMap:
    """Grey from nearly black to white: how much of the picture a spotlight lets through (its
    colour bar). A spotlight adds no hue, so no colour of the picture reads as attention."""
    grey = np.round(255 * (SPOTLIGHT_FLOOR + (1 - SPOTLIGHT_FLOOR) * np.linspace(0.0, 1.0, 256)))
    grey = grey.astype(np.uint32)
    argb = np.uint32(0xFF000000) | (grey << 16) | (grey << 8) | grey
    return ColourMap("spotlight", argb.astype(np.uint32), grey <= 140)


def colour_map_for(kind: str) -> ColourMap:
    """weights and mask (0..1): cividis; a spotlight over a picture: grey; anything signed:
    the diverging map."""
    if kind == "spotlight":
        return spotlight()
    return sequential() if kind in ("weights", "mask", "sequential") else diverging()


def symmetric_levels(*arrays: np.ndarray) -> tuple[float, float]:
    """(-p, p) with p the largest finite magnitude, rounded up to 1, 1.2, 1.5, 2, 2.5, 3, 4,
    5, 6 or 8 times a power of ten: the colour bar then stays the same across most edits,
    and its end labels read cleanly."""
    peak = 0.0
    for a in arrays:
        a = np.asarray(a)
        finite = a[np.isfinite(a)]
        if finite.size:
            peak = max(peak, float(np.abs(finite).max()))
    peak = peak or 1.0
    decade = 10 ** math.floor(math.log10(peak))
    nice = next(m for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if m * decade >= peak * (1 - 1e-9))
    peak = float(f"{nice * decade:.6g}")
    return (-peak, peak)


def colour_indices(values: np.ndarray, levels: tuple[float, float]) -> np.ndarray:
    """Each value's entry in a 256-colour table: lo -> 0, hi -> 255; NaN as 0.0 would be,
    infinities at the ends."""
    lo, hi = levels
    with np.errstate(over="ignore"):  # beyond float32: inf, which goes to the end below
        x = np.asarray(values, dtype=np.float32)
    if not np.isfinite(x).all():
        x = np.nan_to_num(x, nan=0.0, posinf=hi, neginf=lo)
    # levels a hair apart (all values about 1e-40) would overflow float32: the largest it holds
    scale = min(255.0 / (hi - lo), float(np.finfo(np.float32).max)) if hi > lo else 0.0
    out = np.empty(x.shape, dtype=np.float32)
    np.subtract(x, np.float32(lo), out=out)
    np.multiply(out, np.float32(scale), out=out)
    np.clip(out, 0.0, 255.0, out=out)
    np.add(out, np.float32(0.5), out=out)
    return out.astype(np.uint8)
