"""A trained model as a standard GPT-2 folder, and back. No pickle anywhere.

    config.json         model_type "gpt2" and GPT-2's fields; "attention_explorer" adds how
                        the lab trained it (task, seed, steps, scores, the command)
    model.safetensors   GPT-2's tensor names (transformer.h.0.attn.c_attn.weight, …),
                        Conv1D weights [in, out]; lm_head.weight when the head is not tied
                        (tie_word_embeddings false; a tied head is wte and not stored)
    tokenizer.json      built with ``tokenizers`` (explorer.lm.vocab)

transformers' ``GPT2LMHeadModel.from_pretrained(folder)`` opens it. ``load_folder`` opens
these and other GPT-2 folders (keys with or without the ``transformer.`` prefix; the causal
mask buffers of older files are skipped).
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save

from explorer import json_text, reading
from explorer.atomic import atomic_write
from explorer.lm.errors import LMError
from explorer.lm.model import GPT, LAYER_NORM_EPS, GPTConfig
from explorer.lm.vocab import CharVocab
from explorer.messages import message_of
from explorer.resources import resource_path

CONFIG_FILE = "config.json"
WEIGHTS_FILE = "model.safetensors"
TOKENIZER_FILE = "tokenizer.json"
LAB_KEY = "attention_explorer"  # the lab's own record inside config.json
PREFIX = "transformer."
HEAD = "lm_head.weight"  # the LM head; a tied one is wte (transformers does not store it)
MAX_WEIGHTS_BYTES = 2 << 30  # a GPT-2 large is 3 GB: beyond what a lesson needs


@dataclass
class LMFolder:
    model: GPT  # eval mode, CPU
    vocab: CharVocab | None  # None: a tokenizer that is not the lab's characters
    folder: Path
    record: dict[str, Any] = field(
        default_factory=dict
    )  # config.json's "attention_explorer" (empty if absent)


def shipped_folder(task: str) -> Path:
    """resources/lm/<task>/: the checkpoints the lab ships (induction, text)."""
    return resource_path("lm", task)


_shipped: dict[str, LMFolder] = {}
_shipped_lock = threading.Lock()


def load_shipped(task: str) -> LMFolder:
    """A shipped checkpoint, read once and kept (compute with it; never train it)."""
    with _shipped_lock:
        if task not in _shipped:
            _shipped[task] = load_folder(shipped_folder(task))
        return _shipped[task]


def hf_config(config: GPTConfig, vocab: CharVocab, record: dict[str, Any]) -> dict[str, Any]:
    """config.json as transformers writes it for GPT-2, plus the lab's record."""
    return {
        "model_type": "gpt2",
        "architectures": ["GPT2LMHeadModel"],
        "vocab_size": config.vocab_size,
        "n_positions": config.n_positions,
        "n_ctx": config.n_positions,
        "n_embd": config.n_embd,
        "n_layer": config.n_layer,
        "n_head": config.n_head,
        "n_inner": config.n_inner,
        "activation_function": "gelu_new",
        "resid_pdrop": config.dropout,
        "embd_pdrop": config.dropout,
        "attn_pdrop": 0.0,
        "layer_norm_epsilon": LAYER_NORM_EPS,
        "initializer_range": 0.02,
        "scale_attn_weights": True,
        "scale_attn_by_inverse_layer_idx": False,
        "reorder_and_upcast_attn": False,
        "tie_word_embeddings": config.tie_word_embeddings,
        "bos_token_id": vocab.end_id,
        "eos_token_id": vocab.end_id,
        "torch_dtype": "float32",
        LAB_KEY: {"mlp": config.mlp, **record},
    }


def save_folder(
    folder: str | Path, model: GPT, vocab: CharVocab, record: dict[str, Any] | None = None
) -> Path:
    """Write the three files, each atomically (the folder is made if missing)."""
    folder = Path(folder)
    if len(vocab) != model.config.vocab_size:
        raise ValueError(f"{len(vocab)} tokens for a model of {model.config.vocab_size}")
    state = {name: t.detach().to("cpu").contiguous() for name, t in model.state_dict().items()}
    config = hf_config(model.config, vocab, record or {})
    atomic_write(folder / WEIGHTS_FILE, lambda f: f.write(save(state, metadata={"format": "pt"})), "wb")
    atomic_write(folder / TOKENIZER_FILE, lambda f: f.write(vocab.tokenizer_json()))
    atomic_write(folder / CONFIG_FILE, lambda f: json.dump(config, f, ensure_ascii=False, indent=1))
    return folder


def read_hf_config(folder: Path) -> tuple[GPTConfig, dict[str, Any]]:
    path = folder / CONFIG_FILE
    if not path.is_file():
        raise LMError.of("lm.folder_file_missing", folder=str(folder), file=CONFIG_FILE)
    try:
        data = json_text.loads(reading.read_bytes(path, LMError).decode("utf-8"))  # a pipe: said so
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LMError.of("lm.config_not_json", path=str(path), detail=str(exc)) from None
    if not isinstance(data, dict) or data.get("model_type") != "gpt2":
        kind = data.get("model_type") if isinstance(data, dict) else None
        raise LMError.of("lm.not_gpt2", path=str(path), value=kind)
    stored = data.get(LAB_KEY)
    record: dict[str, Any] = stored if isinstance(stored, dict) else {}
    fixed = {"activation_function": "gelu_new", "scale_attn_weights": True}
    fixed |= {"scale_attn_by_inverse_layer_idx": False, "reorder_and_upcast_attn": False}
    for key, wanted in fixed.items():
        if data.get(key, wanted) != wanted:
            raise LMError.of("lm.config_unsupported", path=str(path), key=key, value=data[key])
    eps = data.get("layer_norm_epsilon", LAYER_NORM_EPS)
    if not isinstance(eps, (int, float)) or not math.isclose(eps, LAYER_NORM_EPS):
        raise LMError.of("lm.config_unsupported", path=str(path), key="layer_norm_epsilon", value=eps)
    try:
        n_embd = data.get("n_embd", 768)
        inner = data.get("n_inner")
        config = GPTConfig(
            vocab_size=data.get("vocab_size", 50257),
            n_positions=data.get("n_positions", 1024),
            n_embd=n_embd,
            n_layer=data.get("n_layer", 12),
            n_head=data.get("n_head", 12),
            n_inner=4 * n_embd if inner is None else inner,
            mlp=bool(record.get("mlp", True)),
            tie_word_embeddings=bool(data.get("tie_word_embeddings", True)),
            dropout=data.get("resid_pdrop", 0.1),  # training only: any value reads the same
        )
    except (LMError, TypeError) as exc:
        raise LMError.of("lm.config_impossible", path=str(path), detail=message_of(exc)) from None
    return config, record


def load_folder(folder: str | Path) -> LMFolder:
    """The model (eval mode, CPU), its character vocabulary (when it is one) and its record;
    LMError with one line for anything missing, damaged or not a GPT-2 the lab can run."""
    folder = Path(folder)
    if not folder.is_dir():
        raise LMError.of("lm.no_folder", folder=str(folder))
    config, record = read_hf_config(folder)
    weights = folder / WEIGHTS_FILE
    if not weights.is_file():
        raise LMError.of("lm.folder_file_missing", folder=str(folder), file=WEIGHTS_FILE)
    size = weights.stat().st_size
    if size > MAX_WEIGHTS_BYTES:
        raise LMError.of(
            "lm.weights_too_large", weights=str(weights), size=size / 2**20, limit=MAX_WEIGHTS_BYTES / 2**20
        )
    try:
        state = load_file(str(weights), device="cpu")
    except (SafetensorError, OSError, ValueError) as exc:
        raise LMError.of("lm.weights_unreadable", weights=str(weights), detail=str(exc)) from None
    state = standard_names(state)
    if config.tie_word_embeddings:  # the head is wte: a stored copy must be one
        head = state.pop(HEAD, None)
        if head is not None and not torch.equal(head, state.get(PREFIX + "wte.weight", head)):
            raise LMError.of("lm.weights_misfit", weights=str(weights), detail=f"{HEAD} is not wte.weight")
    for name, tensor in state.items():
        if not tensor.is_floating_point() or not bool(torch.isfinite(tensor).all()):
            raise LMError.of("lm.weights_not_finite", weights=str(weights), name=name)
    if not config.mlp and any(bool(t.any()) for k, t in state.items() if ".mlp." in k):
        config = config.with_(mlp=True)  # the record says attention-only, the weights disagree
    model = GPT.unfilled(config)  # overwritten at once: leave the generator alone
    try:
        model.load_state_dict({k: v.float() for k, v in state.items()})
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0]
        raise LMError.of("lm.weights_misfit", weights=str(weights), detail=first) from None
    vocab = CharVocab.from_tokenizer_file(folder / TOKENIZER_FILE)
    if vocab is not None and len(vocab) != config.vocab_size:
        vocab = None
    return LMFolder(model.eval(), vocab, folder, record)


def standard_names(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """GPT-2's tensors under the ``transformer.`` names; the tied head and mask buffers dropped."""
    out = {}
    for name, tensor in state.items():
        if name.endswith((".attn.bias", ".attn.masked_bias")):
            continue  # the causal mask older GPT-2 files store (the core builds it)
        out[name if name.startswith(PREFIX) or name == HEAD else PREFIX + name] = tensor
    return out
