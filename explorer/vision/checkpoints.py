"""Checkpoints: the weights as safetensors, the configuration and story as JSON. No pickle.

A checkpoint is two files side by side, ``NAME.safetensors`` and ``NAME.json``; the JSON holds
``config`` (a VisionConfig, or a ViTConfig with ``"architecture": "vit"``), and whatever the trainer adds (steps, seed, held-out accuracy,
the command that made it). The shipped ones live in resources/vision/, one per variant,
named after it: ``load_shipped("cbam")`` reads them once and keeps the model (eval mode, CPU).
The data experiment's runs live in resources/vision/curve/ (``load_curve("vit", 1000)``);
``load_shipped_vit()`` is its transformer trained on 10,000 pictures.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from safetensors import SafetensorError
from safetensors.torch import load_file, save

from explorer import json_text, reading
from explorer.atomic import atomic_write
from explorer.finite import first_non_finite, strict_json
from explorer.messages import Message, MessageError
from explorer.resources import resource_path
from explorer.vision.models import VARIANTS, TinyCNN, VisionConfigError, build_any, config_from_dict
from explorer.vision.vit import ARCHITECTURE, VisionTransformer

FORMAT_VERSION = 1
CURVE_SHIPPED_SIZE = 10_000  # ``--model vit`` is the transformer trained on the most pictures


class CheckpointError(MessageError, ValueError):
    """A user-facing message about a missing or damaged checkpoint."""


def checkpoint_paths(stem: str | Path) -> tuple[Path, Path]:
    stem = Path(stem)
    return stem.with_suffix(".safetensors"), stem.with_suffix(".json")


def save_checkpoint(
    model: TinyCNN | VisionTransformer, stem: str | Path, info: dict | None = None
) -> tuple[Path, Path]:
    """Write ``stem.safetensors`` and ``stem.json`` (each written beside, then renamed)."""
    weights_path, json_path = checkpoint_paths(stem)
    state = {name: t.detach().to("cpu").contiguous() for name, t in model.state_dict().items()}
    meta = {"format_version": FORMAT_VERSION, "config": model.config.to_dict(), **(info or {})}

    text = strict_json(meta, json_path.name, indent=2, ensure_ascii=False)  # a diverged run's NaN: refused
    atomic_write(weights_path, lambda f: f.write(save(state)), "wb")
    atomic_write(json_path, lambda f: f.write(text))
    return weights_path, json_path


def read_info(stem: str | Path) -> dict:
    stem = reading.user_path(stem, "--checkpoint", CheckpointError)  # "": no checkpoint, not ".json"
    _, json_path = checkpoint_paths(stem)
    if not reading.present(json_path, CheckpointError):  # unreadable or a loop: said so
        raise CheckpointError.of("vision.checkpoint_missing", path=str(json_path))
    try:
        info = json_text.loads(reading.read_text(json_path, CheckpointError))
    except json.JSONDecodeError as exc:
        raise CheckpointError.of("vision.checkpoint_not_json", path=str(json_path), detail=str(exc)) from None
    if not isinstance(info, dict) or not isinstance(info.get("config"), dict):
        raise CheckpointError.of("vision.checkpoint_no_config", path=str(json_path))
    return info


def load_checkpoint(stem: str | Path) -> tuple[TinyCNN | VisionTransformer, dict]:
    """The model (CPU, eval mode) and the checkpoint's JSON; every problem a CheckpointError."""
    stem = reading.user_path(stem, "--checkpoint", CheckpointError)  # "": no checkpoint, not ".json"
    weights_path, json_path = checkpoint_paths(stem)
    info = read_info(stem)
    try:
        config = config_from_dict(info["config"])
    except (VisionConfigError, TypeError, ValueError) as exc:
        raise CheckpointError.of("vision.checkpoint_config", path=str(json_path), detail=str(exc)) from None
    if not reading.present(weights_path, CheckpointError):
        raise CheckpointError.of("vision.no_file", path=str(weights_path))
    reading.file(weights_path, CheckpointError)  # permission, a folder of that name
    try:
        state = load_file(str(weights_path), device="cpu")
    except FileNotFoundError:
        raise CheckpointError.of("vision.no_file", path=str(weights_path)) from None
    except (OSError, SafetensorError, ValueError) as exc:
        raise CheckpointError.of(
            "vision.weights_unreadable", path=str(weights_path), detail=str(exc)
        ) from None
    bad = first_non_finite((name, t.float().numpy()) for name, t in state.items() if t.is_floating_point())
    if bad is not None:  # a diverged run's weights: refused like a model folder's, not run into NaN
        raise CheckpointError(
            Message.of("checks.non_finite", weights=str(weights_path), tensor=bad[0], count=bad[1])
        )
    model = build_any(config)
    try:
        model.load_state_dict(state)
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()
        raise CheckpointError.of(
            "vision.weights_misfit", path=str(weights_path), detail=first[-1].strip()
        ) from None
    return model.eval(), info


def shipped_stem(variant: str) -> Path:
    return resource_path("vision", variant)


def curve_stem(model: str, size: int) -> Path:
    """The data experiment's shipped run of ``model`` (cnn or vit) on ``size`` training pictures."""
    return resource_path("vision", "curve", f"{model}-{size}")


@lru_cache(maxsize=len(VARIANTS))
def load_shipped(variant: str) -> tuple[TinyCNN, dict]:
    """The shipped, trained CNN of ``variant`` and its JSON, read once and kept.

    The same model object is handed to every caller: use it to compute, never to train it.
    """
    if variant not in VARIANTS:
        raise CheckpointError.of("vision.model_unknown", value=variant, choices=", ".join(VARIANTS))
    model, info = _frozen(shipped_stem(variant))
    if not isinstance(model, TinyCNN):
        raise CheckpointError(f"{shipped_stem(variant)}: it holds no CNN")
    return model, info


@lru_cache(maxsize=8)
def load_curve(model: str, size: int) -> tuple[TinyCNN | VisionTransformer, dict]:
    """The data experiment's shipped model (cnn or vit, 100, 1,000 or 10,000 pictures), read once."""
    return _frozen(curve_stem(model, size))


def load_shipped_vit() -> tuple[VisionTransformer, dict]:
    """The shipped vision transformer: the data experiment's, trained on the most pictures."""
    model, info = load_curve(ARCHITECTURE, CURVE_SHIPPED_SIZE)
    if not isinstance(model, VisionTransformer):
        raise CheckpointError(f"{curve_stem(ARCHITECTURE, CURVE_SHIPPED_SIZE)}: it holds no transformer")
    return model, info


def _frozen(stem: Path) -> tuple[TinyCNN | VisionTransformer, dict]:
    model, info = load_checkpoint(stem)
    for p in model.parameters():
        p.requires_grad_(False)
    return model, info
