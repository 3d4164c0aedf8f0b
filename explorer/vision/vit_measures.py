"""Where the vision transformer looks, and what it had to learn: numbers read off its weights.

``weights`` below are a forward pass's attention weights, [..., layers, heads, tokens, tokens]
(token 0 the CLS token, then the patches in reading order; explorer.vision.vit).

- ``rollout``: attention rollout (Abnar & Zuidema 2020). Each layer's weights averaged over its
  heads, with the residual connection as an identity added and rows renormalised,
  Â_l = ½·mean_h A_l + ½·I, then multiplied through the layers, R = Â_L ⋯ Â_1: how much each
  input token reaches each output token, through every path. Row 0, the patches' columns,
  says where the CLS token's answer came from.
- ``cls_attention``: the CLS token's own weights on the patches, per layer and head (one
  layer's look, not the flow through all of them).
- ``patch_weights``: patch-to-patch weights with the CLS column dropped and rows renormalised
  over the patches, the input of ``mean_distance`` (a patch has a place; the CLS token has none).
- ``mean_distance``: each head's mean attention distance in pixels (Dosovitskiy et al. 2020,
  Fig. 7), through explorer.core.head_measures.
- ``position_similarity``: the cosine similarity of every patch's learnt position embedding with
  every other's, [patches, patches]; row p as a grid is patch p's map. A CNN is built knowing
  that neighbours belong together; here it shows whether the model learnt it.
- ``measure_vit``: on a batch of held-out pictures, the accuracy, the share of each map's mass
  on the object (the same measure as CBAM's spatial map, explorer.vision.measure.mass_share),
  the mean distances and the self shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch

from explorer.core.head_measures import mean_attention_distance, self_share
from explorer.vision.measure import MassRatio, mass_share
from explorer.vision.shapes import Batch
from explorer.vision.vit import VisionTransformer, ViTConfig, attention_weights, patch_centres

RESIDUAL = 0.5  # the identity's share in Â: the residual stream carries as much as attention


def rollout(weights: np.ndarray, residual: float = RESIDUAL) -> np.ndarray:
    """[..., layers, heads, n, n] → [..., n, n]: R = Â_L ⋯ Â_1, Â = (1 − r)·mean_h A + r·I, rows renormalised."""
    weights = np.asarray(weights, dtype=np.float64)
    n = weights.shape[-1]
    mixed = (1 - residual) * weights.mean(axis=-3) + residual * np.eye(n)  # [..., layers, n, n]
    mixed = mixed / mixed.sum(axis=-1, keepdims=True)
    result = mixed[..., 0, :, :]
    for layer in range(1, mixed.shape[-3]):
        result = mixed[..., layer, :, :] @ result  # a later layer reads what the earlier ones mixed
    return result


def cls_attention(weights: np.ndarray) -> np.ndarray:
    """[..., layers, heads, n, n] → [..., layers, heads, patches]: the CLS row on the patches."""
    return np.asarray(weights)[..., 0, 1:]


def as_grid(values: np.ndarray, grid: int) -> np.ndarray:
    """[..., patches] → [..., grid, grid]: one number per patch, laid out as the picture."""
    values = np.asarray(values)
    return values.reshape(*values.shape[:-1], grid, grid)


def patch_weights(weights: np.ndarray) -> np.ndarray:
    """[..., n, n] → [..., patches, patches]: patches' rows on the patches, renormalised to sum to 1."""
    patches = np.asarray(weights, dtype=np.float64)[..., 1:, 1:]
    return patches / patches.sum(axis=-1, keepdims=True)


def mean_distance(weights: np.ndarray, config: ViTConfig) -> np.ndarray:
    """[..., layers, heads, n, n] → [..., layers, heads]: pixels between a patch and what it looks at."""
    return mean_attention_distance(patch_weights(weights), patch_centres(config).numpy())


@lru_cache(maxsize=8)
def uniform_distance(config: ViTConfig) -> float:
    """The mean distance of a head that spreads its weight evenly over the patches: the mark
    between a local head (below it) and one that looks anywhere (16.5 pixels on 8×8 patches of 4)."""
    n = config.patches
    return float(mean_attention_distance(np.full((1, n, n), 1.0 / n), patch_centres(config).numpy())[0])


def position_similarity(model: VisionTransformer) -> np.ndarray:
    """[patches, patches]: cos(pos_p, pos_q) of the learnt position embeddings (CLS left out)."""
    position = model.position.detach().to("cpu", torch.float64)[0, 1:]
    unit = position / position.norm(dim=1, keepdim=True).clamp_min(1e-12)
    return (unit @ unit.T).numpy()


@dataclass(frozen=True)
class PositionSummary:
    neighbours: float  # mean similarity of the patches side by side or one above the other
    others: float  # mean similarity of every other pair (p ≠ q, not neighbours)

    @property
    def gap(self) -> float:
        """How much more alike neighbours are than the rest: 0 for an untrained model."""
        return self.neighbours - self.others


def position_summary(similarity: np.ndarray, grid: int) -> PositionSummary:
    index = np.arange(grid * grid)
    rows, cols = index // grid, index % grid
    steps = np.abs(rows[:, None] - rows[None, :]) + np.abs(cols[:, None] - cols[None, :])
    return PositionSummary(float(similarity[steps == 1].mean()), float(similarity[steps > 1].mean()))


def run_vit(model: VisionTransformer, images: np.ndarray, chunk: int = 250) -> tuple[np.ndarray, np.ndarray]:
    """Logits [N, classes] and weights [N, layers, heads, n, n] (float32, CPU) for many pictures."""
    device = next(model.parameters()).device
    logits, weights = [], []
    model.eval()
    with torch.no_grad():
        for start in range(0, len(images), chunk):
            keep: dict[str, dict] = {}
            logits.append(
                model(torch.from_numpy(images[start : start + chunk]).to(device), keep).cpu().numpy()
            )
            weights.append(attention_weights(keep, model.config).cpu().numpy())
    return np.concatenate(logits), np.concatenate(weights)


@dataclass(frozen=True)
class ViTMeasures:
    accuracy: float
    masses: list[MassRatio]  # rollout first, then the CLS attention of each layer (mean over heads)
    mean_distance: np.ndarray  # [layers, heads] pixels, averaged over the pictures
    self_share: np.ndarray  # [layers, heads] every token's weight on itself, averaged
    cls_share_per_head: np.ndarray  # [layers, heads] share of each head's CLS weights on the object

    @property
    def rollout(self) -> MassRatio:
        return self.masses[0]


def measure_vit(model: VisionTransformer, batch: Batch) -> ViTMeasures:
    """Accuracy and where the model looks, on held-out pictures with their object masks."""
    config = model.config
    logits, weights = run_vit(model, batch.images)
    area = float(batch.masks.mean(axis=(1, 2)).mean())
    grid = config.grid

    def ratio(name: str, kind: str, maps: np.ndarray) -> MassRatio:
        return MassRatio(name, kind, float(mass_share(maps, batch.masks).mean()), area, grid)

    cls = cls_attention(weights)  # [N, layers, heads, patches]
    masses = [ratio("rollout", "attention rollout", as_grid(rollout(weights)[:, 0, 1:], grid))]
    for i, name in enumerate(config.layer_names()):
        masses.append(ratio(name, "CLS attention, mean over heads", as_grid(cls[:, i].mean(axis=1), grid)))
    per_head = np.array(
        [
            [mass_share(as_grid(cls[:, i, h], grid), batch.masks).mean() for h in range(config.heads)]
            for i in range(config.layers)
        ]
    )
    return ViTMeasures(
        accuracy=float((logits.argmax(axis=1) == batch.labels).mean()),
        masses=masses,
        mean_distance=mean_distance(weights, config).mean(axis=0),
        self_share=self_share(weights).mean(axis=0),
        cls_share_per_head=per_head,
    )
