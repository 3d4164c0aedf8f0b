"""A small Vision Transformer (Dosovitskiy et al. 2020) whose attention is the lesson's.

    image [N, 3, 32, 32]
      → patches: P×P squares in reading order, each flattened (3·P² numbers)   patches [N, n, 3P²]
      → patch embedding E (linear) + position embedding; a learned CLS token first
                                                                              tokens  [N, 1 + n, d]
      → L encoder layers, pre-norm:   x ← x + MHSA(LN₁ x);   x ← x + MLP(LN₂ x)
      → LN of the CLS token → linear                                           logits  [N, classes]

Every layer's self-attention is ``explorer.core.attention.attend`` (scaled dot product, soft,
no mask) on the normed tokens, so Q, K, V, the scores, the scaled scores, the weights and the
head outputs of every head are the ones the text tab shows, kept for every token. Token 0 is
the CLS token, token 1 + r·g + c the patch in row r, column c of the g×g grid.

With ``keep`` (a dict) the forward pass stores references (no copies): ``keep["embedding"]``
holds ``patches`` and ``tokens`` (the encoder's input), ``keep["layerK"]`` (K = 1 … L) holds
``input`` (the layer's tokens), ``normed`` (LN₁ of them, what attention reads), ``stages``
(the core's Stages: q, k, v, scores, scaled, weights, head_outputs, concat, output) and
``output``; ``keep["head"]`` the normed CLS vector ``cls`` and the ``logits``.

Nothing here has a convolution: what a CNN is built with (neighbours matter, the same
pattern anywhere is the same pattern) the position embeddings and the heads must learn.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn

from explorer.core.attention import Projections, Settings, Stages, attend
from explorer.training import isolated_generator
from explorer.vision.shapes import CLASS_NAMES, IMAGE_SIZE

ARCHITECTURE = "vit"  # the checkpoint's config says which model it describes
# With no gradients and no stages kept, a CPU forward pass of more pictures than this takes them
# this many at a time: the attention's [pictures, heads, tokens, tokens] arrays then stay in the
# cache (500 held-out pictures: 15–35 % less CPU time), and each picture's numbers are its own.
CPU_CHUNK = 64


class ViTConfigError(ValueError):
    """A user-facing message about an impossible transformer configuration."""


@dataclass(frozen=True)
class ViTConfig:
    patch: int = 4  # a patch is patch × patch pixels
    width: int = 32  # d: every token's width
    layers: int = 2
    heads: int = 4
    mlp: int = 64  # the MLP's hidden width
    image_size: int = IMAGE_SIZE
    classes: tuple[str, ...] = CLASS_NAMES

    def __post_init__(self) -> None:
        object.__setattr__(self, "classes", tuple(self.classes))
        checks = [
            (1 <= self.patch <= self.image_size, f"patch {self.patch}: it must be from 1 to {self.image_size}"),
            (self.image_size % self.patch == 0, f"patch {self.patch} does not tile a {self.image_size}-pixel picture"),
            (1 <= self.heads <= 64, f"heads {self.heads}: it must be from 1 to 64"),
            (1 <= self.width <= 1024 and self.width % self.heads == 0,
             f"width {self.width}: it must be from 1 to 1024 and divisible by the {self.heads} heads"),
            (1 <= self.layers <= 12, f"layers {self.layers}: it must be from 1 to 12"),
            (1 <= self.mlp <= 4096, f"mlp {self.mlp}: it must be from 1 to 4096"),
            (len(self.classes) >= 2, "a classifier needs 2 classes or more"),
        ]  # fmt: skip
        for ok, message in checks:
            if not ok:
                raise ViTConfigError(message)

    @property
    def variant(self) -> str:
        return ARCHITECTURE

    @property
    def grid(self) -> int:
        """Patches per side."""
        return self.image_size // self.patch

    @property
    def patches(self) -> int:
        return self.grid**2

    @property
    def tokens(self) -> int:
        return self.patches + 1  # the CLS token first

    def layer_names(self) -> list[str]:
        return [f"layer{i + 1}" for i in range(self.layers)]

    def to_dict(self) -> dict:
        data = asdict(self)
        data["classes"] = list(self.classes)
        data["architecture"] = ARCHITECTURE
        return data

    @classmethod
    def from_dict(cls, data: dict) -> ViTConfig:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def to_patches(images: torch.Tensor, patch: int) -> torch.Tensor:
    """[N, C, H, W] → [N, (H/P)·(W/P), C·P·P]: patches in reading order, each as (channel, row, column)."""
    n, c, h, w = images.shape
    x = images.reshape(n, c, h // patch, patch, w // patch, patch)
    return x.permute(0, 2, 4, 1, 3, 5).reshape(n, (h // patch) * (w // patch), c * patch * patch)


class SelfAttention(nn.Module):
    """Multi-head self-attention with W_q, W_k, W_v, W_O as nn.Linear, computed by ``attend``."""

    def __init__(self, width: int, heads: int):
        super().__init__()
        self.heads = heads
        self.w_q = nn.Linear(width, width)
        self.w_k = nn.Linear(width, width)
        self.w_v = nn.Linear(width, width)
        self.w_o = nn.Linear(width, width)

    def projections(self) -> Projections:
        return Projections(
            self.w_q.weight, self.w_k.weight, self.w_v.weight, self.w_o.weight,
            self.w_q.bias, self.w_k.bias, self.w_v.bias, self.w_o.bias,
        )  # fmt: skip

    def forward(self, x: torch.Tensor, entropy: bool = True) -> Stages:
        return attend(x, x, self.projections(), Settings(heads=self.heads), entropy=entropy)


class EncoderLayer(nn.Module):
    def __init__(self, config: ViTConfig):
        super().__init__()
        self.norm1 = nn.LayerNorm(config.width)
        self.attention = SelfAttention(config.width, config.heads)
        self.norm2 = nn.LayerNorm(config.width)
        self.mlp = nn.Sequential(
            nn.Linear(config.width, config.mlp), nn.GELU(), nn.Linear(config.mlp, config.width)
        )

    def forward(self, x: torch.Tensor, keep: dict | None = None) -> torch.Tensor:
        normed = self.norm1(x)
        # every token looks at every token; the weights' entropy only where the stages are kept
        stages = self.attention(normed, entropy=keep is not None)
        mixed = x + stages.output
        out = mixed + self.mlp(self.norm2(mixed))
        if keep is not None:
            keep.update(input=x, normed=normed, stages=stages, output=out)
        return out


class VisionTransformer(nn.Module):
    def __init__(self, config: ViTConfig):
        super().__init__()
        self.config = config
        self.embed = nn.Linear(3 * config.patch**2, config.width)  # E: a patch's pixels → a token
        self.cls = nn.Parameter(torch.zeros(1, 1, config.width))
        self.position = nn.Parameter(torch.zeros(1, config.tokens, config.width))
        nn.init.trunc_normal_(self.cls, std=0.02)
        nn.init.trunc_normal_(self.position, std=0.02)  # no prior: nearby patches start unrelated
        self.layers = nn.ModuleList(EncoderLayer(config) for _ in range(config.layers))
        self.norm = nn.LayerNorm(config.width)
        self.classifier = nn.Linear(config.width, len(config.classes))

    def forward(self, images: torch.Tensor, keep: dict[str, dict] | None = None) -> torch.Tensor:
        """Logits [N, classes]; with ``keep``, every layer's stages (see the module docstring)."""
        if (
            keep is None
            and len(images) > CPU_CHUNK
            and images.device.type == "cpu"
            and not torch.is_grad_enabled()
        ):
            return torch.cat([self(chunk) for chunk in images.split(CPU_CHUNK)])
        patches = to_patches(images, self.config.patch)
        tokens = torch.cat([self.cls.expand(len(images), -1, -1), self.embed(patches)], dim=1) + self.position
        if keep is not None:
            keep["embedding"] = {"patches": patches, "tokens": tokens}
        x = tokens
        for name, layer in zip(self.config.layer_names(), self.layers):
            x = layer(x, None if keep is None else keep.setdefault(name, {}))
        cls = self.norm(x[:, 0])
        logits = self.classifier(cls)
        if keep is not None:
            keep["head"] = {"cls": cls, "logits": logits}
        return logits


def build_vit(config: ViTConfig, seed: int | None = None) -> VisionTransformer:
    """A fresh model; with ``seed``, its initial weights are that seed's (without, a random start
    about to be overwritten); either way the global generator is left as it was."""
    with isolated_generator(seed):
        return VisionTransformer(config)


def attention_weights(keep: dict[str, dict], config: ViTConfig) -> torch.Tensor:
    """Every layer's weights from a forward pass's ``keep``: [N, layers, heads, tokens, tokens]."""
    return torch.stack([keep[name]["stages"].weights for name in config.layer_names()], dim=1)


def patch_centres(config: ViTConfig) -> torch.Tensor:
    """[patches, 2]: each patch's centre (row, column) in pixels, in token order (CLS excluded)."""
    index = torch.arange(config.patches)
    rows, cols = index // config.grid, index % config.grid
    return (torch.stack([rows, cols], dim=1).double() + 0.5) * config.patch
