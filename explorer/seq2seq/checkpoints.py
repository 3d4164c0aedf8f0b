"""Checkpoints as a folder: ``model.safetensors`` (the weights) and ``config.json`` (spec,
vocabulary, how it was trained and how well it did). No pickle anywhere.

The shipped ones live in ``resources/seq2seq/<model>-<scoring>/`` (found through
``explorer.resources.resource_path``, so the same code works from source and from a bundle).
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save

from explorer import json_text, reading
from explorer.atomic import atomic_write
from explorer.finite import first_non_finite, strict_json
from explorer.messages import message_of
from explorer.resources import resource_path
from explorer.seq2seq.build import build_model
from explorer.seq2seq.spec import LabError, ModelSpec
from explorer.training import isolated_generator

WEIGHTS_FILE = "model.safetensors"
CONFIG_FILE = "config.json"
CHECKPOINT_KIND = "attention-explorer translation checkpoint"
CHECKPOINT_VERSION = 1


class CheckpointError(LabError):
    """A checkpoint folder that is missing, incomplete or does not fit its own description."""


def shipped_folder(model: str, scoring: str) -> Path:
    return resource_path("seq2seq", f"{model}-{scoring}")


def save_checkpoint(
    folder: str | Path, model: torch.nn.Module, spec, training: dict, kind: str = CHECKPOINT_KIND
) -> Path:
    """Write both files (each atomically); ``training`` records the command, seed, steps, scores.
    ``spec`` is anything with ``to_dict()``; ``kind`` tells the readers which spec it is."""
    folder = Path(folder)
    state = {name: t.detach().to("cpu").contiguous() for name, t in model.state_dict().items()}
    config = {
        "kind": kind,
        "version": CHECKPOINT_VERSION,
        "spec": spec.to_dict(),
        "training": training,
    }
    text = strict_json(config, CONFIG_FILE, ensure_ascii=False, indent=1)  # a diverged run's NaN: refused
    atomic_write(folder / WEIGHTS_FILE, lambda f: f.write(save(state)), "wb")
    atomic_write(folder / CONFIG_FILE, lambda f: f.write(text), "w")
    return folder


def read_config(folder: str | Path, kind: str = CHECKPOINT_KIND) -> dict:
    reading.folder(reading.user_path(folder, "--checkpoint", CheckpointError), CheckpointError)
    path = Path(folder) / CONFIG_FILE
    if not reading.present(path, CheckpointError):
        raise CheckpointError.of("seq2seq.no_checkpoint", folder=str(folder), file=CONFIG_FILE)
    try:
        config = json_text.loads(reading.read_bytes(path, CheckpointError).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError.of("seq2seq.config_not_json", path=str(path), detail=str(exc)) from None
    if not isinstance(config, dict) or config.get("kind") != kind:
        raise CheckpointError.of("seq2seq.not_a_checkpoint", path=str(path))
    version = config.get("version", CHECKPOINT_VERSION)  # a file from before versions: version 1
    if type(version) is not int or version != CHECKPOINT_VERSION:  # a later file, read as if it were this one
        raise CheckpointError.of(
            "seq2seq.checkpoint_version",
            path=str(path),
            version=json.dumps(version),
            known=CHECKPOINT_VERSION,
        )
    return config


def load_checkpoint(folder: str | Path) -> tuple[torch.nn.Module, ModelSpec, dict]:
    """(module in eval mode on the CPU, its spec, its training record); CheckpointError if unusable."""
    folder = Path(folder)
    config = read_config(folder)
    try:
        spec = ModelSpec.from_dict(config.get("spec", {}))
    except (LabError, TypeError) as exc:
        raise CheckpointError.of(
            "seq2seq.impossible_spec", path=str(folder / CONFIG_FILE), detail=message_of(exc)
        ) from None
    model = load_weights(folder, lambda: build_model(spec))
    return model, spec, config.get("training", {})


def load_weights(folder: Path, build) -> torch.nn.Module:
    """``build()``'s module with the folder's weights, in eval mode on the CPU."""
    weights = folder / WEIGHTS_FILE
    if not reading.present(weights, CheckpointError):
        raise CheckpointError.of("seq2seq.no_checkpoint", folder=str(folder), file=WEIGHTS_FILE)
    reading.file(weights, CheckpointError)  # permission, a folder of that name: said so
    try:
        state = load_file(str(weights), device="cpu")
    except (SafetensorError, OSError, ValueError) as exc:
        raise CheckpointError.of(
            "seq2seq.weights_unreadable", weights=str(weights), detail=str(exc)
        ) from None
    bad = first_non_finite((name, t.float().numpy()) for name, t in state.items() if t.is_floating_point())
    if bad is not None:  # a diverged run's weights: refused like a model folder's, not run into NaN
        raise CheckpointError.of("checks.non_finite", weights=str(weights), tensor=bad[0], count=bad[1])
    with isolated_generator():  # the random start is overwritten at once: leave the generator alone
        model = build()
    try:
        model.load_state_dict(state)
    except RuntimeError as exc:
        # torch's first line only names the module ("Error(s) in loading state_dict for …:"):
        # the line after it names the tensor that does not fit
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        detail = lines[1] if len(lines) > 1 else lines[0] if lines else type(exc).__name__
        if len(detail) > 300:
            detail = detail[:299] + "…"
        raise CheckpointError.of("seq2seq.weights_misfit", weights=str(weights), detail=detail) from None
    return model.eval()
