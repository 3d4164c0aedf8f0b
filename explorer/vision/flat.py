"""Attention that says next to nothing on a picture, found so the tab can say so.

An SE block whose weights are all about the same rescales every channel alike (the shipped
SE model's block3: every weight in 0.97–1.00), and a spatial map that is small everywhere
lets almost nothing through (CBAM's block3 on many drawings: at most 0.05). Both are the
model's true numbers; drawn on their fixed 0–1 scale they look like nothing happened, so the
tab names the range, and for SE the block whose weights differ most.
"""

from __future__ import annotations

import numpy as np

from explorer.vision.trace import VisionTrace

FLAT_SPREAD = 0.05  # channel weights within this of each other rescale all channels alike
FAINT_PEAK = 0.1  # a spatial map below this everywhere passes almost nothing on


def weight_range(weights: np.ndarray) -> tuple[float, float]:
    w = np.asarray(weights, dtype=np.float64)
    return float(w.min()), float(w.max())


def is_flat(weights: np.ndarray) -> bool:
    lo, hi = weight_range(weights)
    return hi - lo < FLAT_SPREAD


def is_faint(spatial_map: np.ndarray) -> bool:
    return float(np.max(spatial_map)) < FAINT_PEAK


def liveliest_block(trace: VisionTrace) -> str | None:
    """The block whose channel weights differ most (max − min), or None without any."""
    spreads = {
        b.name: np.ptp(b.stages["channel_weights"]) for b in trace.blocks if "channel_weights" in b.stages
    }
    return max(spreads, key=lambda name: spreads[name]) if spreads else None
