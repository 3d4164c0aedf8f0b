"""The vision lab, Qt-free: channel (SE) and spatial (CBAM) attention on generated pictures.

What the Vision tab (or any caller) uses, module by module:

- ``shapes.generate(seed) -> Picture``: image [32, 32, 3] float32, label, object mask [32, 32]
  bool, and how it was drawn; ``shapes.CLASS_NAMES``; ``shapes.held_out(n)`` for a batch of
  held-out pictures (seeds ≥ shapes.HELD_OUT_FIRST, never trained on).
- ``checkpoints.load_shipped(variant) -> (model, info)``: the trained model of ``plain``,
  ``se``, ``cbam`` or ``residual`` from resources/vision/, read once and cached (compute with
  it, never train it); ``load_checkpoint(stem)`` for one ``train-vision`` wrote.
- ``trace.run_model(model, image) -> VisionTrace``: every stage, per block, as numpy arrays
  under fixed names (``trace.stage("spatial_map", "block3")``), the prediction and the
  probabilities; ``trace.save(path)`` writes JSON or NPZ.
- ``images.load_image(path) -> LoadedImage`` (safe: bad files are ImageError with a one-line
  message; grey, RGBA and any size converted with notices); ``images.to_rgb`` and
  ``images.resize`` do the same for a drawn array.
- ``worked.work_channel(trace, block, c)`` (one channel's squeeze and excite) and
  ``worked.work_position(trace, block, i, j)`` (one position's spatial score), as plain
  numbers; ``format_channel`` / ``format_position`` give them as text lines.
- ``train.train_variant(variant, steps, seed, on_progress, should_stop)`` trains on the
  caller's thread (a worker), reporting explorer.training.Progress; its snapshots turn back
  into models with ``train.model_at(config, snapshot)`` to redraw a watched picture's maps.
- ``measure.attention_mass(model, batch)``: held-out accuracy and the share of each spatial
  map's mass on the object.

Nothing here imports Qt (an import-linter contract in pyproject.toml checks it).
"""

import sys as _sys
import types as _types
from typing import Any as _Any

from explorer.vision import messages as messages  # registers the vision.* templates


class _CallableLab(_types.ModuleType):
    """``explorer.vision(...)`` is the API's function (explorer.api.vision). Importing this package
    makes ``explorer.vision`` the package itself, so the package answers the call too."""

    def __call__(self, *args: _Any, **kwargs: _Any) -> _Any:
        return _sys.modules["explorer.api"].vision(*args, **kwargs)  # loaded with the explorer package


_sys.modules[__name__].__class__ = _CallableLab
