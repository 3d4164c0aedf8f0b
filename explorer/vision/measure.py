"""Held-out numbers: accuracy, and how much of each spatial map's mass lies on the object.

The mass share of a map A over an image with object mask O (both at image size):

    share = Σ_{p ∈ O} A(p) / Σ_p A(p)        area = |O| / (H · W)

Maps smaller than the image are upsampled by nearest neighbour — each map cell covers an
f × f block of pixels (f = image size / map size), so every pixel under a cell carries that
cell's value and no mass is invented or smoothed away. The reported ratio is
mean(share) / mean(area) over the held-out pictures: 1 means "no better than uniform"; a
trained CBAM's spatial attention should reach 2 or more.

Plain and SE models have no spatial attention; for them ``activation_mass`` reports the same
ratio for the channel-mean of the last block's output — an activation map, not attention.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from explorer.vision.models import TinyCNN
from explorer.vision.shapes import Batch


@dataclass(frozen=True)
class MassRatio:
    block: str
    kind: str  # "spatial attention" (CBAM M_s), "mask branch mean" (residual), "activation (not attention)"
    share: float  # mean share of the map's mass inside the object
    area: float  # mean share of the image the object covers
    map_size: int

    @property
    def ratio(self) -> float:
        return self.share / self.area


def upsample_nearest(maps: np.ndarray, size: int) -> np.ndarray:
    """[N, h, h] → [N, size, size], each cell repeated over its (size / h)² pixels."""
    factor = size // maps.shape[-1]
    if factor * maps.shape[-1] != size:
        raise ValueError(f"a {maps.shape[-1]}-cell map does not tile a {size}-pixel image")
    return maps.repeat(factor, axis=-2).repeat(factor, axis=-1)


def mass_share(maps: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Per picture: the share of the (upsampled) map's mass inside the object mask."""
    up = upsample_nearest(maps.astype(np.float64), masks.shape[-1])
    return (up * masks).sum(axis=(1, 2)) / up.sum(axis=(1, 2))


def run_batch(model: TinyCNN, images: np.ndarray, chunk: int = 500) -> tuple[np.ndarray, dict[str, dict]]:
    """Logits and every block's stages (numpy, CPU) for many pictures, in chunks."""
    device = next(model.parameters()).device
    logits: list[np.ndarray] = []
    stages: dict[str, dict[str, list[np.ndarray]]] = {}
    model.eval()
    with torch.no_grad():
        for start in range(0, len(images), chunk):
            keep: dict[str, dict] = {}
            x = torch.from_numpy(images[start : start + chunk]).to(device)
            logits.append(model(x, keep).cpu().numpy())
            for block, kept in keep.items():
                for name, value in kept.items():
                    stages.setdefault(block, {}).setdefault(name, []).append(value.cpu().numpy())
    merged = {b: {n: np.concatenate(v) for n, v in kept.items()} for b, kept in stages.items()}
    return np.concatenate(logits), merged


def accuracy(model: TinyCNN, batch: Batch) -> float:
    logits, _ = run_batch(model, batch.images)
    return float((logits.argmax(axis=1) == batch.labels).mean())


def attention_mass(model: TinyCNN, batch: Batch) -> tuple[float, list[MassRatio]]:
    """Accuracy, and the mass ratio of every spatial map (or, without one, the last block's activation)."""
    logits, stages = run_batch(model, batch.images)
    area = float(batch.masks.mean(axis=(1, 2)).mean())
    ratios = []
    for i, block in enumerate(model.config.block_names()):
        kind = model.config.attention_of(i)
        if "spatial_map" in stages[block]:
            label = "spatial attention" if kind == "cbam" else "mask branch, mean over channels"
            maps = stages[block]["spatial_map"]
            ratios.append(
                MassRatio(block, label, float(mass_share(maps, batch.masks).mean()), area, maps.shape[-1])
            )
    if not ratios:
        last = model.config.block_names()[-1]
        maps = stages[last]["output"].mean(axis=1)
        ratios.append(
            MassRatio(
                last,
                "activation (not attention)",
                float(mass_share(maps, batch.masks).mean()),
                area,
                maps.shape[-1],
            )
        )
    return float((logits.argmax(axis=1) == batch.labels).mean()), ratios
