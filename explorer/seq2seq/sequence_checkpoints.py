"""Sequence-model checkpoints: the same two files as the dates' (explorer.seq2seq.checkpoints),
with a ``SequenceSpec`` in config.json and a kind of their own, so neither reader mistakes the
other's folder.

Shipped: ``resources/seq2seq/<task>-<model>/`` (sentences-fr-attention, compound-fr-no-attention, …).
"""

from __future__ import annotations

import threading
from pathlib import Path

from explorer.messages import message_of
from explorer.reading import canonical
from explorer.resources import resource_path
from explorer.seq2seq.checkpoints import (
    CONFIG_FILE,
    CheckpointError,
    load_weights,
    read_config,
    save_checkpoint,
)
from explorer.seq2seq.sequence_models import SequenceModel, SequenceSpec, build_sequence_model
from explorer.seq2seq.spec import LabError

SEQUENCE_KIND = "attention-explorer sequence checkpoint"


def shipped_sequence_folder(task: str, model: str) -> Path:
    return resource_path("seq2seq", f"{task}-{model}")


def save_sequence_checkpoint(folder: str | Path, model: SequenceModel, training: dict) -> Path:
    return save_checkpoint(folder, model, model.spec, training, kind=SEQUENCE_KIND)


def load_sequence_checkpoint(folder: str | Path) -> tuple[SequenceModel, dict]:
    """(module in eval mode on the CPU, its training record); CheckpointError if unusable."""
    folder = Path(folder)
    config = read_config(folder, SEQUENCE_KIND)
    try:
        spec = SequenceSpec.from_dict(config.get("spec", {}))
    except (LabError, TypeError) as exc:
        raise CheckpointError.of(
            "seq2seq.impossible_spec", path=str(folder / CONFIG_FILE), detail=message_of(exc)
        ) from None
    model = load_weights(folder, lambda: build_sequence_model(spec))
    assert isinstance(model, SequenceModel)
    return model, config.get("training", {})


_loaded: dict[str, tuple[SequenceModel, dict, str]] = {}
_lock = threading.Lock()


def load_sequence_model(
    task: str, model: str, checkpoint: str | Path | None = None
) -> tuple[SequenceModel, dict, str]:
    """(module, training record, label): a shipped checkpoint, or any folder; loaded once."""
    if checkpoint is None:
        folder, label = shipped_sequence_folder(task, model), f"shipped {task}-{model}"
    else:
        folder = canonical(checkpoint)  # a symbolic-link loop keeps its name (resolve raised)
        label = str(folder)
    with _lock:
        key = str(folder)
        if key not in _loaded:
            module, training = load_sequence_checkpoint(folder)
            _loaded[key] = (module, training, label)
        return _loaded[key]


def forget_loaded() -> None:
    """Drop the cache (a test rewrote a folder)."""
    with _lock:
        _loaded.clear()
