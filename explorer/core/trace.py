"""The AttentionTrace: every stage of one computation as numpy arrays, plus its story.

This is what the window draws and what ``trace`` writes; nothing downstream computes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from explorer.atomic import atomic_write
from explorer.core.config import AttentionConfig

# Array stages, in the order of the lesson; JSON keys and NPZ names alike.
STAGE_ARRAYS = (
    "X_query",
    "X_key",
    "Q",
    "K",
    "V",
    "scores",
    "scaled",
    "mask",
    "weights",
    "head_outputs",
    "concat",
    "output",
    "entropy",
)
TRACE_FORMAT_VERSION = 1


@dataclass
class AttentionTrace:
    config: AttentionConfig
    tokens_query: list[str]
    tokens_key: list[str]
    X_query: np.ndarray  # [n_q, d_model]
    X_key: np.ndarray  # [n_k, d_model]
    Q: np.ndarray  # [h, n_q, d_k]
    K: np.ndarray  # [h, n_k, d_k]
    V: np.ndarray  # [h, n_k, d_v]
    scores: np.ndarray  # [h, n_q, n_k] before scaling and masking
    scaled: np.ndarray  # [h, n_q, n_k] before masking
    mask: np.ndarray  # [n_q, n_k] bool, True where the query may attend
    weights: np.ndarray  # [h, n_q, n_k]
    head_outputs: np.ndarray  # [h, n_q, d_v]
    concat: np.ndarray  # [n_q, h * d_v]
    output: np.ndarray  # [n_q, d_model]
    entropy: np.ndarray  # [h, n_q] nats
    heads: int
    d_k: int
    scale_divisor: float
    device: str
    weights_source: str  # what was used: pretrained / random / identity
    model_name: str | None = None
    layer: int | None = None
    scoring_params: dict[str, np.ndarray] = field(default_factory=dict)
    untrained: list[str] = field(default_factory=list)  # parameters that are seeded, not learned
    notices: list[str] = field(default_factory=list)  # fallbacks, truncation, [UNK], regrouping
    unk_count: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def n_query(self) -> int:
        return len(self.tokens_query)

    @property
    def n_key(self) -> int:
        return len(self.tokens_key)

    @property
    def compute_ms(self) -> float:
        return self.timings_ms.get("total", 0.0)

    def meta(self) -> dict:
        return {
            "format_version": TRACE_FORMAT_VERSION,
            "config": self.config.to_dict(),
            "device": self.device,
            "tokens_query": self.tokens_query,
            "tokens_key": self.tokens_key,
            "heads": self.heads,
            "d_k": self.d_k,
            "scale_divisor": self.scale_divisor,
            "weights_source": self.weights_source,
            "model_name": self.model_name,
            "layer": self.layer,
            "untrained": self.untrained,
            "notices": self.notices,
            "unk_count": self.unk_count,
            "compute_ms": self.compute_ms,
            "timings_ms": self.timings_ms,
        }

    def to_dict(self) -> dict:
        data = self.meta()
        for name in STAGE_ARRAYS:
            data[name] = getattr(self, name).tolist()
        data["scoring_params"] = {k: v.tolist() for k, v in self.scoring_params.items()}
        return data

    def to_json(self, path: str | Path) -> None:
        atomic_write(Path(path), lambda f: json.dump(self.to_dict(), f, ensure_ascii=False), "w")

    def to_npz(self, path: str | Path) -> None:
        arrays = {name: getattr(self, name) for name in STAGE_ARRAYS}
        arrays.update({f"param_{k}": v for k, v in self.scoring_params.items()})
        # Metadata as a JSON string, so loading needs no pickle.
        arrays["meta_json"] = np.array(json.dumps(self.meta(), ensure_ascii=False))
        atomic_write(Path(path), lambda f: np.savez_compressed(f, **arrays), "wb")

    def save(self, path: str | Path) -> None:
        suffix = Path(path).suffix.lower()
        if suffix == ".json":
            self.to_json(path)
        elif suffix == ".npz":
            self.to_npz(path)
        else:
            raise ValueError(f"{path}: the file name must end in .json or .npz")
