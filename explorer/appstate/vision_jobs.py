"""What the Vision tab asks the worker to compute, Qt-free: a picture, a model, every stage.

``compute(request)`` turns a ``VisionRequest`` (the picture's settings and the model: a
shipped checkpoint, or a training run's snapshot) into a ``VisionResult`` holding the
explorer.vision ``VisionTrace``; ``compare(picture, variants)`` runs several shipped models
on the same picture. Both run on one torch thread (the models are tiny: a second thread only
waits at barriers). Files are decoded once and kept (the last few), so switching models
does not read the file again; a file that changed on disk is read again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from explorer.appstate.vision import Picture, VisionState, render_drawing
from explorer.core.device import threads_for
from explorer.training import Snapshot
from explorer.vision.models import TinyCNN, VisionConfig
from explorer.vision.shapes import generate
from explorer.vision.trace import VisionTrace, run_model

if TYPE_CHECKING:  # explorer.vision.images loads Pillow: only when a file is read
    from explorer.vision.images import LoadedImage

COMPARED = ("plain", "se", "cbam")  # the variants compare mode shows side by side
_FILES_KEPT = 4


class Stopped(Exception):
    """A newer request replaced this one before it finished (never shown)."""


@dataclass(frozen=True)
class ModelChoice:
    """A shipped checkpoint (``run`` None), or the snapshot at ``step`` of training run ``run``."""

    variant: str
    run: int | None = None
    step: int | None = None
    config: VisionConfig | None = field(default=None, compare=False)
    snapshot: Snapshot | None = field(default=None, compare=False)

    @property
    def shipped(self) -> bool:
        return self.run is None


def model_choice(vision: VisionState) -> ModelChoice:
    """The shipped checkpoint, or the training run's snapshot whose weights are in use."""
    snapshot = vision.shown_snapshot()
    run = vision.run
    if snapshot is None or run is None or run.spec.variant != vision.variant:
        return ModelChoice(vision.variant)
    return ModelChoice(vision.variant, run.id, snapshot.step, run.spec, snapshot)


@dataclass(frozen=True)
class VisionRequest:
    picture: Picture
    model: ModelChoice


@dataclass
class PictureInput:
    pixels: np.ndarray  # [32, 32, 3] float32 in [0, 1]
    mask: np.ndarray | None  # the target's pixels (generated pictures only)
    label: int | None  # the true class (generated pictures only)
    source: str
    notices: list[str]


@dataclass
class VisionResult:
    request: VisionRequest
    trace: VisionTrace


@dataclass
class CompareResult:
    picture: Picture
    traces: dict[str, VisionTrace]  # variant -> trace, in COMPARED order


_files: OrderedDict[tuple[str, int, int], LoadedImage] = OrderedDict()
_files_lock = threading.Lock()


def load_file(path: str | Path) -> LoadedImage:
    """The file's picture (explorer.vision.images: ImageError with one line for any bad file),
    decoded once while the file stays the same."""
    path = Path(path)
    try:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None  # load_image says what is wrong
    if key is not None:
        with _files_lock:
            if key in _files:
                _files.move_to_end(key)
                return _files[key]
    from explorer.vision.images import load_image

    loaded = load_image(path)
    if key is not None:
        with _files_lock:
            _files[key] = loaded
            while len(_files) > _FILES_KEPT:
                _files.popitem(last=False)
    return loaded


def make_picture(picture: Picture) -> PictureInput:
    """The pixels the model reads, and what is known about them."""
    if picture.kind == "generate":
        p = generate(picture.seed)
        return PictureInput(p.image, p.mask, p.label, picture.describe(), [])
    if picture.kind == "file":
        loaded = load_file(picture.path)
        return PictureInput(loaded.pixels, None, None, picture.describe(), list(loaded.notices))
    return PictureInput(render_drawing(picture), None, None, picture.describe(), [])


def model_for(choice: ModelChoice) -> TinyCNN:
    if choice.shipped:
        from explorer.vision.checkpoints import load_shipped

        return load_shipped(choice.variant)[0]
    from explorer.vision.train import model_at

    if choice.config is None or choice.snapshot is None:
        raise ValueError("a training run's model needs its configuration and snapshot")
    return model_at(choice.config, choice.snapshot)


def _trace(model: TinyCNN, picture: PictureInput) -> VisionTrace:
    with threads_for(0):  # one thread: a forward pass this small only waits for a second one
        return run_model(
            model,
            picture.pixels,
            object_mask=picture.mask,
            label=picture.label,
            source=picture.source,
            notices=picture.notices,
        )


def compute(request: VisionRequest, should_stop: Callable[[], bool] | None = None) -> VisionResult:
    picture = make_picture(request.picture)
    if should_stop is not None and should_stop():
        raise Stopped()
    return VisionResult(request, _trace(model_for(request.model), picture))


def compare(
    picture: Picture, variants: tuple[str, ...] = COMPARED, should_stop: Callable[[], bool] | None = None
) -> CompareResult:
    """The shipped models of ``variants`` on the same picture."""
    pixels = make_picture(picture)
    traces = {}
    for variant in variants:
        if should_stop is not None and should_stop():
            raise Stopped()
        traces[variant] = _trace(model_for(ModelChoice(variant)), pixels)
    return CompareResult(picture, traces)


__all__ = [
    "COMPARED",
    "CompareResult",
    "ModelChoice",
    "PictureInput",
    "Stopped",
    "VisionRequest",
    "VisionResult",
    "compare",
    "compute",
    "load_file",
    "make_picture",
    "model_choice",
    "model_for",
]
