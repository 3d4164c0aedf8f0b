"""A decoder folder → a checked, ready PretrainedDecoder, or one line saying what is wrong.

The same steps as an encoder's (``loader.py``): config.json checked first, then the
tokenizer, then every tensor against the config. Before a tensor's numbers are read, the
memory the model needs is weighed against the memory there is: a folder too large for this
machine is refused by name and size, instead of swapping it to a halt.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import torch

from explorer.models.decoder import DecoderWeights, FoundTensors, PretrainedDecoder, ReadFloat32, find_tensors
from explorer.models.decoder_checks import check_decoder_tensors, check_finite, check_token_ids
from explorer.models.decoder_config import DecoderConfig, read_decoder_config
from explorer.models.errors import ModelError
from explorer.models.float32_read import StoredReader
from explorer.models.tokenizer import TextTokenizer, load_tokenizer, set_ends

# Room for everything but the weights: a 512-token trace of every stage, the logits, Python.
WORKSPACE_BYTES = 512 * 1024 * 1024
# float32 copies of 16-bit weights are kept when they take at most this share of the memory
# there is; beyond it each layer is converted as the forward reaches it (slower, half the memory).
FLOAT32_SHARE = 0.5


def available_memory() -> int | None:
    """Bytes the machine can give without swapping (Linux: MemAvailable), None when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def load_decoder(
    folder: Path,
    config_file: Path,
    raw: dict[str, Any],
    model_type: str,
    name: str,
    read_weights: Callable[[Path], tuple[Path, dict[str, Any], list[str], list[Path]]],
) -> PretrainedDecoder:
    """The loader's steps for a decoder (``read_weights``: the loader's, which finds model.safetensors,
    its shards or an agreed conversion of pytorch_model.bin)."""
    config = read_decoder_config(config_file, raw, model_type)
    # The tokenizer is read on a thread while the weights are converted (a 151,643-token BPE
    # takes ~1 s; the conversion's reads and copies release the interpreter lock).
    with ThreadPoolExecutor(1, thread_name_prefix="tokenizer") as pool:
        reading = pool.submit(_tokenizer, folder, config)
        try:
            found, weights_file, notes, dtypes, keep_float32, reader = _checked_weights(
                folder, config, config_file, read_weights
            )
        except ModelError:
            reading.result()  # a broken tokenizer is named first, as the steps go
            raise
        tokenizer = reading.result()
    check_token_ids(config, tokenizer.largest_id, tokenizer.source, weights_file)
    for dtype, label in ((torch.float16, "float16"), (torch.bfloat16, "bfloat16")):
        if dtype in dtypes:
            notes.append(f"{label} weights, computed in float32")
    notes.extend(config.notes)
    weights = DecoderWeights(config, found.tensors, keep_float32, reader, later=True)
    weights.convert_in_background()  # open returns now; a forward converts what it reaches first
    return PretrainedDecoder(name, folder, config, weights, tokenizer, notes)


def _tokenizer(folder: Path, config: DecoderConfig) -> TextTokenizer:
    tokenizer = load_tokenizer(folder, wordpiece_family=False)
    set_ends(tokenizer, folder, config.bos_token_id, config.eos_token_ids)
    return tokenizer


def _checked_weights(
    folder: Path,
    config: DecoderConfig,
    config_file: Path,
    read_weights: Callable[[Path], tuple[Path, dict[str, Any], list[str], list[Path]]],
) -> tuple[FoundTensors, Path, list[str], set[torch.dtype], bool, ReadFloat32 | None]:
    """The weights found, checked against the config and finite (every stored value read once,
    a block at a time through the file: no float32 copy is made here, nor the mapping faulted
    in), whether float32 copies are kept, and how they are made (the same file reads)."""
    weights_file, stored, notes, files = read_weights(folder)
    found = find_tensors(config, stored)
    stored.clear()  # the found tensors alone keep the file mapped
    if config.tie_word_embeddings:
        found.tensors.pop("lm_head", None)  # a tied head is the embedding table: never read twice
    keep_float32 = _memory_plan(folder, found.tensors)
    check_decoder_tensors(config, found, weights_file, config_file)
    dtypes = {t.dtype for t in found.tensors.values()}
    reader = StoredReader(files, found.own_names)
    counted = {name: n for name in found.tensors if (n := reader.non_finite(name)) is not None}
    check_finite(config, found, weights_file, counted)  # a kind the reader does not know: the mapping's

    def read_float32(tensors: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        return {name: reader.float32(name, t) for name, t in tensors.items()}

    # Copies not kept are made again at each forward from the mapping, resident in that plan anyway.
    return found, weights_file, notes, dtypes, keep_float32, read_float32 if keep_float32 else None


def _memory_plan(folder: Path, tensors: dict[str, torch.Tensor]) -> bool:
    """Whether float32 copies are kept; ModelError when even one layer at a time cannot fit."""
    stored = sum(t.numel() * t.element_size() for t in tensors.values())
    as_float32 = sum(t.numel() * 4 for t in tensors.values())
    largest = max((t.numel() * 4 for t in tensors.values()), default=0)
    available = available_memory()
    if available is None:
        return True
    if as_float32 == stored or as_float32 + WORKSPACE_BYTES <= FLOAT32_SHARE * available:
        needed = as_float32
        keep = True
    else:
        needed = stored + 2 * largest  # the mapped file, one layer's float32 copy and the LM head's block
        keep = False
    if needed + WORKSPACE_BYTES > available:
        raise ModelError.of(
            "decoders.too_large",
            folder=folder,
            needed=(needed + WORKSPACE_BYTES) / 1e9,
            available=available / 1e9,
        )
    return keep
