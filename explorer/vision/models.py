"""The tiny CNN in four variants, and its frozen, validated configuration.

    image [N, 3, 32, 32]
      → block1: conv 3×3 → BN → ReLU → max-pool 2 → attention     X, output [N, C₁, 16, 16]
      → block2: conv 3×3 → BN → ReLU → max-pool 2 → attention     X, output [N, C₂, 8, 8]
      → block3: conv 3×3 → BN → ReLU → attention                  X, output [N, C₃, 8, 8]
      → pool over positions → linear                                pooled [N, C₃] → logits

The attention is what the variant says: ``plain`` none, ``se`` an SE block in every block,
``cbam`` a CBAM block in every block, ``residual`` one residual-attention block in block1
(its mask branch halves and restores the resolution, so it belongs where there is some).
Each block keeps ``features`` (the maps X that enter the attention), its attention stages
(see explorer.vision.blocks) and ``output``; a block without attention has output = features.

The pool over positions is the plain average, except after a CBAM block, where it is the
average weighted by that block's spatial map M_s:

    pooled = Σ_p F″(p) / Σ_p M_s(p) = Σ_p M_s(p) F′(p) / Σ_p M_s(p)

(with M_s = 1 everywhere this is the plain average). Why: with a plain average the map acts as
a gain, and a gain is free to saturate at 1 everywhere; weighted by its own mass, the map can
only decide *where* the class evidence comes from — and it learns to look at the target
(measured: bench/vision_train.py). The CBAM block itself is the paper's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F
from torch import nn

from explorer.training import isolated_generator
from explorer.vision.blocks import CBAMBlock, ResidualAttentionBlock, SEBlock
from explorer.vision.shapes import CLASS_NAMES, IMAGE_SIZE
from explorer.vision.vit import ARCHITECTURE, VisionTransformer, ViTConfig, ViTConfigError, build_vit

VARIANTS = ("plain", "se", "cbam", "residual")
MODELS = (*VARIANTS, ARCHITECTURE)  # the CNN's variants and the vision transformer
MAX_KERNEL = 15


class VisionConfigError(ValueError):
    """A user-facing message about an impossible model configuration."""


@dataclass(frozen=True)
class VisionConfig:
    variant: str = "cbam"
    reduction: int = 4  # r: the SE/CBAM bottleneck has C / r units
    kernel: int = 7  # CBAM's spatial convolution is kernel × kernel
    channels: tuple[int, ...] = (16, 32, 32)
    image_size: int = IMAGE_SIZE
    classes: tuple[str, ...] = CLASS_NAMES

    def __post_init__(self) -> None:
        object.__setattr__(self, "channels", tuple(int(c) for c in self.channels))
        object.__setattr__(self, "classes", tuple(self.classes))
        if self.variant not in VARIANTS:
            raise VisionConfigError(f"model {self.variant!r} is not one of {', '.join(VARIANTS)}")
        if not self.channels or min(self.channels) < 1:
            raise VisionConfigError(f"channels {self.channels}: every block needs 1 channel or more")
        if not 1 <= self.reduction <= min(self.channels):
            raise VisionConfigError(
                f"reduction {self.reduction}: it must be from 1 to {min(self.channels)} (the fewest channels)"
            )
        if not (1 <= self.kernel <= MAX_KERNEL and self.kernel % 2 == 1):
            raise VisionConfigError(f"kernel {self.kernel}: it must be odd, from 1 to {MAX_KERNEL}")
        if len(self.classes) < 2:
            raise VisionConfigError("a classifier needs 2 classes or more")
        if self.image_size < 2 ** (len(self.channels) - 1) * 2:
            raise VisionConfigError(
                f"image size {self.image_size} is too small for {len(self.channels)} blocks"
            )

    def to_dict(self) -> dict:
        data = asdict(self)
        data["channels"] = list(self.channels)
        data["classes"] = list(self.classes)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> VisionConfig:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)

    def block_names(self) -> list[str]:
        return [f"block{i + 1}" for i in range(len(self.channels))]

    def attention_of(self, block: int) -> str:
        """Which attention block ``block`` (0-based) holds: plain, se, cbam or residual."""
        if self.variant == "residual":
            return "residual" if block == 0 else "plain"
        return self.variant


class ConvBlock(nn.Module):
    def __init__(self, c_in: int, c_out: int, attention: str, config: VisionConfig, pool: bool):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1, bias=False)
        self.norm = nn.BatchNorm2d(c_out)
        self.kind = attention
        self.pool = pool
        self.attention: nn.Module | None
        if attention == "se":
            self.attention = SEBlock(c_out, config.reduction)
        elif attention == "cbam":
            self.attention = CBAMBlock(c_out, config.reduction, config.kernel)
        elif attention == "residual":
            self.attention = ResidualAttentionBlock(c_out)
        else:
            self.attention = None

    def forward(self, x: torch.Tensor, keep: dict | None = None) -> torch.Tensor:
        features = F.relu(self.norm(self.conv(x)))
        if self.pool:
            features = F.max_pool2d(features, 2)  # X: the maps attention will weigh
        if keep is not None:
            keep["features"] = features
        out = features if self.attention is None else self.attention(features, keep)
        if keep is not None and self.attention is None:
            keep["output"] = out
        return out


class TinyCNN(nn.Module):
    def __init__(self, config: VisionConfig):
        super().__init__()
        self.config = config
        widths = (3, *config.channels)
        last = len(config.channels) - 1
        self.blocks = nn.ModuleList(
            ConvBlock(widths[i], widths[i + 1], config.attention_of(i), config, pool=i < last)
            for i in range(len(config.channels))
        )
        self.classifier = nn.Linear(config.channels[-1], len(config.classes))

    def forward(self, images: torch.Tensor, keep: dict[str, dict] | None = None) -> torch.Tensor:
        """Logits [N, classes]; with ``keep``, keep[block name] gets that block's stages and
        keep["head"] the pooled vector and the logits."""
        keep = {} if keep is None else keep  # references only: keeping costs no copies
        x = images
        for name, block in zip(self.config.block_names(), self.blocks):
            x = block(x, keep.setdefault(name, {}))
        last = keep[self.config.block_names()[-1]]
        if self.config.attention_of(len(self.blocks) - 1) == "cbam":
            pooled = x.sum(dim=(2, 3)) / last["spatial_map"].sum(dim=(1, 2))[:, None]  # weighted by M_s
        else:
            pooled = x.mean(dim=(2, 3))  # global average pool
        logits = self.classifier(pooled)
        keep["head"] = {"pooled": pooled, "logits": logits}
        return logits


def build_model(config: VisionConfig, seed: int | None = None) -> TinyCNN:
    """A fresh model; with ``seed``, its initial weights are that seed's (without, a random start
    about to be overwritten); either way the global generator is left as it was."""
    with isolated_generator(seed):
        return TinyCNN(config)


def config_from_dict(data: dict) -> VisionConfig | ViTConfig:
    """A checkpoint's configuration: the transformer's says so (``architecture``), the CNN's does not.
    Raises VisionConfigError for every impossible one."""
    try:
        if data.get("architecture") == ARCHITECTURE:
            return ViTConfig.from_dict(data)
        return VisionConfig.from_dict(data)
    except ViTConfigError as exc:
        raise VisionConfigError(str(exc)) from None


def build_any(config: VisionConfig | ViTConfig, seed: int | None = None) -> TinyCNN | VisionTransformer:
    """The CNN or the transformer a configuration describes (with ``seed``: that seed's initial weights)."""
    return build_vit(config, seed) if isinstance(config, ViTConfig) else build_model(config, seed)
