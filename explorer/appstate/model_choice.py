"""Which model the window reads, and what the loaded one is: Qt-free, so the state holds them.

A ``Choice`` is a bundled model of the catalogue (``key``) or any folder (``folder``, which
wins, as in the configuration). A ``LoadedModel`` is what the labels say of the model a
worker loaded (``explorer.gui.model_picker.describe``); the state holds the one the window
uses (``ExplorerState.loaded_model``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from explorer import reading
from explorer.core.config import AttentionConfig
from explorer.models import catalogue


@dataclass(frozen=True)
class Choice:
    """A bundled model (``key``) or any folder (``folder``, which wins, as in the config)."""

    key: str | None = catalogue.DEFAULT_MODEL
    folder: str | None = None

    @staticmethod
    def of(config: AttentionConfig) -> Choice:
        return Choice(None, config.model_dir) if config.model_dir else Choice(config.model, None)

    @staticmethod
    def folder_of(path: str | Path) -> Choice:
        return Choice(None, str(Path(path).expanduser()))

    def applied(self, config: AttentionConfig) -> AttentionConfig:
        return config.with_(model=self.key or config.model, model_dir=self.folder)

    def same(self, other: Choice | None) -> bool:
        """The same model (a folder compared by where it resolves)."""
        if other is None:
            return False
        if self.folder is None or other.folder is None:
            return self.folder is None and other.folder is None and self.key == other.key
        return resolved_folder(self.folder) == resolved_folder(other.folder)

    @property
    def short_name(self) -> str:
        if self.folder:
            return folder_label(self.folder)
        return catalogue.CATALOGUE[self.key or catalogue.DEFAULT_MODEL].folder_name


@dataclass(frozen=True)
class LoadedModel:
    """What the labels say of a loaded model (read on the worker, shown on the GUI thread)."""

    choice: Choice
    name: str
    family: str
    layers: int
    heads: int
    width: int
    notes: tuple[str, ...] = ()
    provenance: str | None = None  # a converter's one-line summary of what the weights are
    causal: bool = False  # trained with a causal mask: a decoder, or a BERT with "is_decoder": true
    kv_heads: int | None = None  # a decoder's K/V heads (fewer than heads: grouped-query attention)
    windows: tuple[int | None, ...] = ()  # a decoder's sliding window per layer (None: every key before)


def resolved_folder(folder: str) -> str:
    return str(reading.canonical(folder))


def folder_label(folder: str) -> str:
    """A folder's short name: ``org/name`` for a Hugging Face cache folder, else its name."""
    path = Path(folder)
    for part in (path, *path.parents):
        if part.name.startswith("models--"):
            return part.name[len("models--") :].replace("--", "/")
    return path.name or str(path)
