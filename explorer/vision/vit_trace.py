"""The ViTTrace: every stage of one picture through the vision transformer, as numpy arrays.

``run_vit_model(model, image)`` computes it; nothing downstream computes. Tokens are the CLS
token (0) and the g×g patches in reading order (1 + row·g + column). Per layer (``layer1`` …)
the stages under their fixed names (LAYER_STAGES):

    input [n, d]             the tokens entering the layer
    normed [n, d]            LN₁(input): what attention reads
    Q, K, V [h, n, d_k]      the heads' queries, keys and values
    scores, scaled [h, n, n] q·k, and q·k / √d_k (no mask: every token sees every token)
    weights [h, n, n]        softmax of the scaled scores, rows sum to 1
    entropy [h, n]           each row's entropy (nats)
    head_outputs [h, n, d_k] weights · V
    concat [n, d]            the heads side by side
    attention_output [n, d]  concat · W_Oᵀ + b_O, added to the input (the residual)
    output [n, d]            the layer's output, after the MLP

and for the whole picture: ``patches`` [patches, 3·P²] (the pixels each token starts from),
``tokens`` [n, d] (patch embedding + position embedding, CLS first), ``cls`` [d], ``logits``,
``probabilities``, ``prediction``; ``rollout`` [n, n] and its CLS row on the patches as a grid
``rollout_cls`` [g, g]; ``cls_attention`` [layers, heads, g, g]; ``self_share`` and
``mean_distance`` [layers, heads]; ``position_similarity`` [patches, patches]; and for a
generated picture its ``object_mask`` [H, W], ``patch_object`` [g, g] (the share of each patch
that is object) and ``object_share`` (the share of the rollout's and each layer's CLS
attention on the object).

Files (``save``), like the CNN's VisionTrace: JSON with a key per stage mapping layer name →
array (``data["weights"]["layer2"]``), NPZ with ``STAGE.LAYER`` arrays (``weights.layer2``) and
the metadata as the JSON string ``meta_json`` (``np.load(f, allow_pickle=False)``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from explorer.atomic import atomic_write, save_json_or_npz
from explorer.core.head_measures import self_share
from explorer.vision.measure import mass_share
from explorer.vision.trace import forward_keeping
from explorer.vision.vit import VisionTransformer, ViTConfig
from explorer.vision.vit_measures import as_grid, cls_attention, mean_distance, position_similarity, rollout

LAYER_STAGES = (
    "input",
    "normed",
    "Q",
    "K",
    "V",
    "scores",
    "scaled",
    "weights",
    "entropy",
    "head_outputs",
    "concat",
    "attention_output",
    "output",
)
PICTURE_ARRAYS = (
    "image",
    "patches",
    "tokens",
    "cls",
    "logits",
    "probabilities",
    "rollout",
    "rollout_cls",
    "cls_attention",
    "self_share",
    "mean_distance",
    "position_similarity",
)
VIT_TRACE_FORMAT_VERSION = 1


@dataclass
class ViTTrace:
    config: ViTConfig
    arrays: dict[str, np.ndarray]  # PICTURE_ARRAYS (and the object's, when known)
    layers: dict[str, dict[str, np.ndarray]]  # layer name → LAYER_STAGES
    prediction: int
    object_mask: np.ndarray | None = None  # [H, W] bool, for generated pictures
    object_share: dict[str, float] = field(default_factory=dict)  # rollout, layer1 … (CLS, mean over heads)
    label: int | None = None
    source: str = ""
    device: str = "cpu"
    notices: list[str] = field(default_factory=list)
    compute_ms: float = 0.0

    variant = "vit"

    @property
    def class_names(self) -> tuple[str, ...]:
        return self.config.classes

    @property
    def prediction_name(self) -> str:
        return self.class_names[self.prediction]

    @property
    def probabilities(self) -> np.ndarray:
        return self.arrays["probabilities"]

    def stage(self, stage: str, layer: str) -> np.ndarray:
        return self.layers[layer][stage]

    def patch_attention(self, layer: str, head: int, patch: int) -> tuple[np.ndarray, float]:
        """Where patch ``patch`` (0-based, reading order) looks: its weights on the patches as a
        g×g grid, and its weight on the CLS token (the grid and that weight sum to 1)."""
        row = self.layers[layer]["weights"][head, 1 + patch]
        return as_grid(row[1:], self.config.grid), float(row[0])

    def meta(self) -> dict:
        return {
            "format_version": VIT_TRACE_FORMAT_VERSION,
            "variant": self.variant,
            "config": self.config.to_dict(),
            "class_names": list(self.class_names),
            "prediction": self.prediction,
            "prediction_name": self.prediction_name,
            "label": self.label,
            "label_name": None if self.label is None else self.class_names[self.label],
            "source": self.source,
            "device": self.device,
            "notices": [str(n) for n in self.notices],
            "compute_ms": self.compute_ms,
            "tokens": ["CLS", *(f"patch {p}" for p in range(self.config.patches))],
            "layers": list(self.layers),
            "layer_stages": list(LAYER_STAGES),
            "object_share": self.object_share,
            "rollout_note": "attention rollout (Abnar & Zuidema 2020): R = Â_L ⋯ Â_1, "
            "Â = ½·mean over heads + ½·I, rows renormalised",
        }

    def all_arrays(self) -> dict[str, np.ndarray]:
        out = dict(self.arrays)
        if self.object_mask is not None:
            out["object_mask"] = self.object_mask
        for stage in LAYER_STAGES:
            out.update({f"{stage}.{name}": stages[stage] for name, stages in self.layers.items()})
        out["prediction"] = np.array(self.prediction, dtype=np.int64)
        return out

    def to_dict(self) -> dict:
        data = self.meta()
        data.update({name: value.tolist() for name, value in self.arrays.items()})
        data["object_mask"] = None if self.object_mask is None else self.object_mask.tolist()
        for stage in LAYER_STAGES:
            data[stage] = {name: stages[stage].tolist() for name, stages in self.layers.items()}
        return data

    def to_json(self, path: str | Path) -> None:
        atomic_write(Path(path), lambda f: json.dump(self.to_dict(), f, ensure_ascii=False))

    def to_npz(self, path: str | Path) -> None:
        arrays: dict[str, Any] = self.all_arrays()
        arrays["meta_json"] = np.array(json.dumps(self.meta(), ensure_ascii=False))
        atomic_write(Path(path), lambda f: np.savez_compressed(f, **arrays), "wb")

    def save(self, path: str | Path) -> None:
        save_json_or_npz(path, self.to_json, self.to_npz)


def patch_object_share(mask: np.ndarray, patch: int) -> np.ndarray:
    """[H, W] bool → [g, g]: the share of each patch's pixels that belong to the object."""
    h, w = mask.shape
    return mask.reshape(h // patch, patch, w // patch, patch).mean(axis=(1, 3))


def run_vit_model(
    model: VisionTransformer,
    image: np.ndarray,
    *,
    object_mask: np.ndarray | None = None,
    label: int | None = None,
    source: str = "",
    notices: list[str] | None = None,
) -> ViTTrace:
    """Every stage of ``image`` ([H, W, 3] float in [0, 1], H = W = the model's input size)."""
    config = model.config
    started = time.perf_counter()
    image, keep, logits, probabilities, device = forward_keeping(model, image)

    def arr(t: torch.Tensor) -> np.ndarray:
        return t.detach()[0].to("cpu").numpy()

    layers = {}
    for name in config.layer_names():
        kept, s = keep[name], keep[name]["stages"]
        assert s.entropy is not None  # a forward pass that keeps its stages computes it
        layers[name] = {
            "input": arr(kept["input"]),
            "normed": arr(kept["normed"]),
            "Q": arr(s.q),
            "K": arr(s.k),
            "V": arr(s.v),
            "scores": arr(s.scores),
            "scaled": arr(s.scaled),
            "weights": arr(s.weights),
            "entropy": arr(s.entropy),
            "head_outputs": arr(s.head_outputs),
            "concat": arr(s.concat),
            "attention_output": arr(s.output),
            "output": arr(kept["output"]),
        }
    weights = np.stack([layers[name]["weights"] for name in config.layer_names()])  # [layers, heads, n, n]
    flow = rollout(weights)
    arrays = {
        "image": image,
        "patches": arr(keep["embedding"]["patches"]),
        "tokens": arr(keep["embedding"]["tokens"]),
        "cls": arr(keep["head"]["cls"]),
        "logits": logits.cpu().numpy(),
        "probabilities": probabilities.cpu().numpy(),
        "rollout": flow,
        "rollout_cls": as_grid(flow[0, 1:], config.grid),
        "cls_attention": as_grid(cls_attention(weights), config.grid),
        "self_share": self_share(weights),
        "mean_distance": mean_distance(weights, config),
        "position_similarity": position_similarity(model),
    }
    shares: dict[str, float] = {}
    mask = None
    if object_mask is not None:
        mask = np.asarray(object_mask, dtype=bool)
        arrays["patch_object"] = patch_object_share(mask, config.patch)
        maps = [("rollout", arrays["rollout_cls"])]
        maps += [(n, arrays["cls_attention"][i].mean(axis=0)) for i, n in enumerate(config.layer_names())]
        shares = {n: float(mass_share(m[None], mask[None])[0]) for n, m in maps}
    return ViTTrace(
        config=config,
        arrays=arrays,
        layers=layers,
        prediction=int(logits.argmax()),
        object_mask=mask,
        object_share=shares,
        label=label,
        source=source,
        device=str(device),
        notices=list(notices or []),
        compute_ms=(time.perf_counter() - started) * 1000,
    )
