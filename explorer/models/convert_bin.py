"""pytorch_model.bin → model.safetensors, once, into the user's data folder, tensors only.

A .bin is a pickle, and unpickling can run code. It is read only through
``torch.load(weights_only=True)``, whose unpickler rebuilds tensors and plain containers
and refuses every other reference (``os.system`` and friends) before anything runs.
The conversion happens only when the user agrees (the window asks, the command line
wants ``--convert-weights``); afterwards the loader reads the safetensors copy.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
from pathlib import Path
from typing import Any

from explorer.models.errors import ModelError, NeedsConversion

BIN_NAME = "pytorch_model.bin"
CONVERTED_DIR = "converted-models"


def conversion_target(source: Path) -> Path:
    """One folder per .bin path, under the data folder: ``converted-models/<name>-<hash>/``."""
    from explorer.logsetup import data_dir

    resolved = str(Path(source).resolve())
    digest = hashlib.sha1(resolved.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    label = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(resolved).parent.name)[:40].strip("-.") or "model"
    return data_dir() / CONVERTED_DIR / f"{label}-{digest}" / "model.safetensors"


def converted_weights(source: Path) -> Path | None:
    """The safetensors copy of this very .bin (same path, size and time), if made before."""
    target = conversion_target(source)
    try:
        stamp = json.loads((target.parent / "source.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return target if stamp == _stamp(source) and target.is_file() else None


def needs_conversion(folder: Path, source: Path) -> NeedsConversion:
    return NeedsConversion(folder, source, conversion_target(source), source.stat().st_size)


def convert(source: Path) -> Path:
    """Read the .bin safely, write its tensors as safetensors; return the new file."""
    from safetensors import SafetensorError
    from safetensors.torch import save_file

    source = Path(source)
    tensors = read_bin(source)
    _refuse_non_finite(source, tensors)  # before writing: a damaged copy would stay in the data folder
    target = conversion_target(source)
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        save_file(tensors, str(partial), metadata={"converted_from": str(source.resolve())})
        os.replace(partial, target)  # whole or absent: never a half-written model.safetensors
        (target.parent / "source.json").write_text(json.dumps(_stamp(source)), encoding="utf-8")
    except (OSError, SafetensorError) as exc:
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass  # the folder itself could not be made: nothing was written
        reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0]
        raise ModelError.of("convert_bin.cannot_write", target=target, reason=reason) from None
    return target


def _refuse_non_finite(source: Path, tensors: dict[str, Any]) -> None:
    """ModelError naming the user's .bin and its first tensor holding a NaN or an infinity."""
    from explorer.models.checks import non_finite  # checks imports the families, which import much

    for name in sorted(tensors):
        tensor = tensors[name]
        bad = non_finite(tensor) if tensor.is_floating_point() else 0
        if bad:
            raise ModelError.of("checks.non_finite", weights=source, tensor=name, count=bad)


def read_bin(source: Path) -> dict[str, Any]:
    """The named tensors of a .bin; anything but tensors and plain containers is refused."""
    from pickle import UnpicklingError  # the error weights_only raises; nothing is unpickled here

    import torch

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # protocol notices would reach the user's console
            loaded = torch.load(source, map_location="cpu", weights_only=True)
    except UnpicklingError as exc:
        found = re.search(r"GLOBAL (\S+)", str(exc))
        if found:
            raise ModelError.of("convert_bin.refused_reference", source=source, name=found.group(1)) from None
        raise ModelError.of("convert_bin.refused_content", source=source) from None
    except (RuntimeError, EOFError, ValueError, OSError) as exc:
        raise ModelError.of("convert_bin.corrupt", source=source, detail=_first_sentence(exc)) from None
    if not isinstance(loaded, dict) or not loaded:
        raise ModelError.of("convert_bin.no_table", source=source)
    out, seen = {}, set()
    for name, value in loaded.items():
        if not isinstance(name, str) or not isinstance(value, torch.Tensor):
            raise ModelError.of("convert_bin.not_tensor", source=source, name=name)
        value = value.detach().contiguous()
        # safetensors refuses tensors sharing memory (tied weights): each gets its own copy.
        where = value.untyped_storage().data_ptr()
        out[name] = value.clone() if where in seen else value
        seen.add(where)
    return out


def _first_sentence(exc: Exception, most: int = 160) -> str:
    """torch's first sentence ("PytorchStreamReader failed … central directory"), never one
    cut mid-word: its advice that follows is a paragraph."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    text = text.split(". ")[0].rstrip(".")
    return text if len(text) <= most else text[: most - 1].rsplit(" ", 1)[0] + "…"


def _stamp(source: Path) -> dict[str, Any]:
    info = Path(source).stat()
    return {"source": str(Path(source).resolve()), "size": info.st_size, "mtime_ns": info.st_mtime_ns}
