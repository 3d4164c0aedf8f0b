"""The VisionTrace: every stage of one picture through one model, as numpy arrays, plus files.

``run_model(model, image)`` computes it; nothing downstream computes. Per block (``block1`` …)
the stages are those of explorer.vision.blocks under their fixed names — ``features``,
``squeeze``, ``excitation``, ``channel_weights``, ``spatial_map``, ``output`` and the others a
block keeps (``excitation_hidden``, ``squeeze_max``, ``channel_refined``, ``pooled_avg``,
``pooled_max``, ``spatial_logits``, ``trunk``, ``mask_branch``) — each for this one picture
(no batch axis: maps [C, H, W], vectors [C], spatial maps [H, W]). Then ``pooled`` [C],
``logits`` [classes], ``probabilities`` (softmax of the logits) and ``prediction`` (argmax).
``params`` holds, per block, the weights the worked arithmetic needs (SE: w1, w2; CBAM: w0, w1,
spatial_weight [1, 2, k, k], spatial_bias [1]).

Files (``save``), like the ``trace`` command's:
- JSON: metadata, ``image`` [H, W, 3], ``object_mask`` [H, W] or null, and every stage name as
  a key mapping block name → array (``data["spatial_map"]["block3"]``; a stage no block has is
  an empty object), plus ``pooled``, ``logits``, ``probabilities``, ``prediction``, ``params``.
- NPZ: arrays named ``STAGE.BLOCK`` (``spatial_map.block3``), ``param.BLOCK.NAME``, ``image``,
  ``object_mask`` (when known), ``pooled``, ``logits``, ``probabilities``, ``prediction``, and
  the metadata as a JSON string ``meta_json``: ``np.load(f, allow_pickle=False)`` reads it all.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from explorer.atomic import atomic_write, save_json_or_npz
from explorer.finite import require_finite, strict_json
from explorer.vision.models import TinyCNN, VisionConfig
from explorer.vision.vit import VisionTransformer

# The stage names a trace file always uses first, then the others blocks keep, in the order they happen.
FIXED_STAGES = ("features", "squeeze", "excitation", "channel_weights", "spatial_map", "output")
OTHER_STAGES = (
    "excitation_hidden",
    "squeeze_max",
    "channel_refined",
    "pooled_avg",
    "pooled_max",
    "spatial_logits",
    "trunk",
    "mask_branch",
)
STAGES = FIXED_STAGES + OTHER_STAGES
VISION_TRACE_FORMAT_VERSION = 1


@dataclass
class BlockTrace:
    name: str  # block1, block2, …
    attention: str  # plain, se, cbam or residual
    stages: dict[str, np.ndarray]
    params: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass
class VisionTrace:
    config: VisionConfig
    image: np.ndarray  # [H, W, 3] float32 in [0, 1], what the model read
    blocks: list[BlockTrace]
    pooled: np.ndarray  # [C] what the classifier reads
    logits: np.ndarray  # [classes]
    probabilities: np.ndarray  # [classes] softmax of the logits
    prediction: int
    object_mask: np.ndarray | None = None  # [H, W] bool, for generated pictures
    label: int | None = None  # the true class, for generated pictures
    source: str = ""  # "generate:SEED", "image:PATH" or what the caller says
    device: str = "cpu"
    notices: list[str] = field(default_factory=list)
    compute_ms: float = 0.0

    def __post_init__(self) -> None:
        # Every number the tab draws and the files hold is finite (the checkpoint's weights
        # were checked on loading; what fails here overflowed), block by block as computed.
        stages = ((f"{b.name}.{name}", value) for b in self.blocks for name, value in b.stages.items())
        final = (("pooled", self.pooled), ("logits", self.logits), ("probabilities", self.probabilities))
        require_finite((*stages, *final))

    @property
    def variant(self) -> str:
        return self.config.variant

    @property
    def class_names(self) -> tuple[str, ...]:
        return self.config.classes

    @property
    def prediction_name(self) -> str:
        return self.class_names[self.prediction]

    def block(self, name: str) -> BlockTrace:
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(f"no block {name!r}; blocks: {', '.join(b.name for b in self.blocks)}")

    def stage(self, stage: str, block: str) -> np.ndarray:
        return self.block(block).stages[stage]

    def blocks_with(self, stage: str) -> list[str]:
        return [b.name for b in self.blocks if stage in b.stages]

    def meta(self) -> dict:
        return {
            "format_version": VISION_TRACE_FORMAT_VERSION,
            "variant": self.variant,
            "config": self.config.to_dict(),
            "class_names": list(self.class_names),
            "prediction_name": self.prediction_name,
            "label": self.label,
            "label_name": None if self.label is None else self.class_names[self.label],
            "source": self.source,
            "device": self.device,
            "notices": self.notices,
            "compute_ms": self.compute_ms,
            "blocks": [
                {"name": b.name, "attention": b.attention, "stages": list(b.stages)} for b in self.blocks
            ],
        }

    def to_dict(self) -> dict:
        data = self.meta()
        data["image"] = self.image.tolist()
        data["object_mask"] = None if self.object_mask is None else self.object_mask.tolist()
        for stage in STAGES:
            data[stage] = {b.name: b.stages[stage].tolist() for b in self.blocks if stage in b.stages}
        data["pooled"] = self.pooled.tolist()
        data["logits"] = self.logits.tolist()
        data["probabilities"] = self.probabilities.tolist()
        data["prediction"] = self.prediction
        data["params"] = {b.name: {k: v.tolist() for k, v in b.params.items()} for b in self.blocks}
        return data

    def arrays(self) -> dict[str, np.ndarray]:
        out = {"image": self.image}
        if self.object_mask is not None:
            out["object_mask"] = self.object_mask
        for b in self.blocks:
            out.update({f"{stage}.{b.name}": value for stage, value in b.stages.items()})
            out.update({f"param.{b.name}.{k}": v for k, v in b.params.items()})
        out.update(
            pooled=self.pooled,
            logits=self.logits,
            probabilities=self.probabilities,
            prediction=np.array(self.prediction, dtype=np.int64),
        )
        return out

    def to_json(self, path: str | Path) -> None:
        text = strict_json(self.to_dict(), Path(path).name, ensure_ascii=False)
        atomic_write(Path(path), lambda f: f.write(text))

    def to_npz(self, path: str | Path) -> None:
        arrays: dict[str, Any] = self.arrays()
        arrays["meta_json"] = np.array(strict_json(self.meta(), "meta_json", ensure_ascii=False))  # no pickle
        atomic_write(Path(path), lambda f: np.savez_compressed(f, **arrays), "wb")

    def save(self, path: str | Path) -> None:
        save_json_or_npz(path, self.to_json, self.to_npz)


def block_params(model: TinyCNN) -> list[dict[str, np.ndarray]]:
    """Per block, the attention weights the worked arithmetic reads (float32 copies)."""

    def arr(t: torch.Tensor) -> np.ndarray:
        return t.detach().to("cpu", torch.float32).numpy().copy()

    out = []
    for block in model.blocks:
        a: Any = block.attention  # the kind says which block it is
        if block.kind == "se":
            out.append({"w1": arr(a.w1.weight), "w2": arr(a.w2.weight)})
        elif block.kind == "cbam":
            out.append(
                {
                    "w0": arr(a.w0.weight),
                    "w1": arr(a.w1.weight),
                    "spatial_weight": arr(a.spatial.weight),
                    "spatial_bias": arr(a.spatial.bias),
                }
            )
        else:
            out.append({})
    return out


def forward_keeping(
    model: TinyCNN | VisionTransformer, image: np.ndarray
) -> tuple[np.ndarray, dict[str, dict], torch.Tensor, torch.Tensor, torch.device]:
    """One forward of ``image`` ([H, W, 3] in [0, 1], H = W = the model's input size) in eval
    mode, every stage kept: (the picture as float32, what the model kept, logits,
    probabilities in float64, the device). The model's training mode is left as it was."""
    size = model.config.image_size
    image = np.asarray(image, dtype=np.float32)
    if image.shape != (size, size, 3):
        raise ValueError(f"the model reads {size}×{size}×3 pictures, not {'×'.join(map(str, image.shape))}")
    device = next(model.parameters()).device
    was_training = model.training
    model.eval()
    keep: dict[str, dict] = {}
    with torch.no_grad():
        x = torch.from_numpy(np.ascontiguousarray(image.transpose(2, 0, 1)))[None].to(device)
        logits = model(x, keep)[0]
        probabilities = torch.softmax(logits.double(), dim=0)
    model.train(was_training)
    return image, keep, logits, probabilities, device


def run_model(
    model: TinyCNN,
    image: np.ndarray,
    *,
    object_mask: np.ndarray | None = None,
    label: int | None = None,
    source: str = "",
    notices: Sequence[str] | None = None,
) -> VisionTrace:
    """Every stage of ``image`` ([H, W, 3] float in [0, 1], H = W = the model's input size)."""
    started = time.perf_counter()
    image, keep, logits, probabilities, device = forward_keeping(model, image)
    params = block_params(model)
    blocks = [
        BlockTrace(
            name,
            model.config.attention_of(i),
            {stage: keep[name][stage][0].cpu().numpy() for stage in STAGES if stage in keep[name]},
            params[i],
        )
        for i, name in enumerate(model.config.block_names())
    ]
    return VisionTrace(
        config=model.config,
        image=image,
        blocks=blocks,
        pooled=keep["head"]["pooled"][0].cpu().numpy(),
        logits=logits.cpu().numpy(),
        probabilities=probabilities.cpu().numpy(),
        prediction=int(logits.argmax()),
        object_mask=None if object_mask is None else np.asarray(object_mask, dtype=bool),
        label=label,
        source=source,
        device=str(device),
        notices=list(notices or []),
        compute_ms=(time.perf_counter() - started) * 1000,
    )
