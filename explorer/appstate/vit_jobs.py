"""What the Vision Transformer tab asks the worker to compute, Qt-free.

``compute(request)`` turns a ``ViTRequest`` (the picture, and the models: the data experiment's
shipped pair of one training-set size, or the live pair's snapshots) into a ``ViTResult``: the
ViT's trace (every stage of every head, rollout, CLS attention, distances, self shares), the
CNN's trace on the same picture (CBAM's spatial map beside it), and both models' share of
attention on the object where the picture has one. ``photo(path)`` is the attention between a
photograph's own patches, with no trained model (explorer.vision.photo_attention).
``heads(size)`` reads the shipped experiment's measured heads for the Heads page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from explorer.appstate.vision_jobs import Stopped, load_file
from explorer.appstate.vit import ViTSettings, ViTState
from explorer.core.device import threads_for
from explorer.training import Snapshot
from explorer.vision.data_curve import CONFIGS, CurveResult
from explorer.vision.measure import mass_share
from explorer.vision.models import TinyCNN
from explorer.vision.photo_attention import PhotoAttention, default_photo, load_photo
from explorer.vision.shapes import generate
from explorer.vision.trace import VisionTrace, run_model
from explorer.vision.vit import VisionTransformer
from explorer.vision.vit_trace import ViTTrace, run_vit_model

CNN_MAP_BLOCK = "block3"  # the data experiment measures CBAM's last spatial map


@dataclass(frozen=True)
class ViTRequest:
    source: str
    seed: int
    path: str
    size: int  # the shipped pair of this many training pictures (when no run is shown)
    run: int | None = None  # the live pair's ViT run id and the snapshot's step
    step: int | None = None
    vit_snapshot: Snapshot | None = field(default=None, compare=False)
    cnn_snapshot: Snapshot | None = field(default=None, compare=False)

    @property
    def shipped(self) -> bool:
        return self.run is None


def request_of(state: ViTState) -> ViTRequest:
    s: ViTSettings = state.settings
    shown, run = state.shown_snapshot(), state.run
    if shown is None or run is None:
        return ViTRequest(s.source, s.seed, s.path, s.size)
    return ViTRequest(s.source, s.seed, s.path, s.size, run.id, shown.step, shown, state.cnn_snapshot())


@dataclass
class ViTResult:
    request: ViTRequest
    pixels: np.ndarray  # [32, 32, 3] in [0, 1]: what both models read
    vit: ViTTrace
    cnn: VisionTrace | None  # None: the live CNN has no snapshot yet
    cnn_share: float | None  # CBAM's block-3 map: its share on the object (generated pictures)
    area: float | None  # the object's share of the picture


def _models(request: ViTRequest) -> tuple[VisionTransformer, TinyCNN | None]:
    from explorer.vision.checkpoints import load_curve
    from explorer.vision.train import model_at

    vit: TinyCNN | VisionTransformer
    cnn: TinyCNN | VisionTransformer | None
    if request.shipped:
        vit, cnn = load_curve("vit", request.size)[0], load_curve("cnn", request.size)[0]
    else:
        if request.vit_snapshot is None:
            raise ValueError("a training run's model needs its snapshot")
        vit = model_at(CONFIGS["vit"], request.vit_snapshot)
        cnn = None if request.cnn_snapshot is None else model_at(CONFIGS["cnn"], request.cnn_snapshot)
    if not isinstance(vit, VisionTransformer) or not (cnn is None or isinstance(cnn, TinyCNN)):
        raise ValueError("the data experiment's models are a transformer and a CNN")
    return vit, cnn


def compute(request: ViTRequest, should_stop: Callable[[], bool] | None = None) -> ViTResult:
    if request.source == "generate":
        picture = generate(request.seed)
        pixels, mask, label, notices = picture.image, picture.mask, picture.label, []
        source = f"generate:{request.seed}"
    else:
        loaded = load_file(request.path)
        pixels, mask, label, notices = loaded.pixels, None, None, [str(n) for n in loaded.notices]
        source = request.path
    if should_stop is not None and should_stop():
        raise Stopped()
    vit_model, cnn_model = _models(request)
    with threads_for(0):  # one thread: a forward pass this small only waits for a second one
        vit = run_vit_model(vit_model, pixels, object_mask=mask, label=label, source=source, notices=notices)
        if should_stop is not None and should_stop():
            raise Stopped()
        cnn = None
        if cnn_model is not None:
            cnn = run_model(cnn_model, pixels, object_mask=mask, label=label, source=source)
    cnn_share = area = None
    if mask is not None:
        area = float(np.mean(mask))
        if cnn is not None:
            cnn_share = float(mass_share(cnn.stage("spatial_map", CNN_MAP_BLOCK)[None], mask[None])[0])
    return ViTResult(request, pixels, vit, cnn, cnn_share, area)


def photo(path: str | None, should_stop: Callable[[], bool] | None = None) -> PhotoAttention:
    """The photo at ``path``, attended to; None: the generated picture shown before one is opened."""
    with threads_for(0):
        return default_photo() if path is None else load_photo(path)


@dataclass(frozen=True)
class HeadsOfSize:
    size: int
    mean_distance: np.ndarray  # [layers, heads] pixels, mean over the held-out pictures
    self_share: np.ndarray  # [layers, heads]
    position_neighbours: float  # mean cosine of neighbouring position embeddings
    position_others: float
    accuracy: float


def heads(result: CurveResult) -> list[HeadsOfSize]:
    """The shipped ViTs' heads (seed 0 of each size): what the experiment measured."""
    out = []
    for size in result.sizes():
        runs = [r for r in result.of("vit", size) if "mean_distance" in r.details]
        if not runs:
            continue
        d = runs[0].details
        out.append(
            HeadsOfSize(
                size,
                np.asarray(d["mean_distance"], dtype=float),
                np.asarray(d["self_share"], dtype=float),
                float(d["position_neighbours"]),
                float(d["position_others"]),
                runs[0].accuracy,
            )
        )
    return out
