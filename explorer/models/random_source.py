"""Seeded embeddings and projections for when no pretrained model is wanted or present.

Words are split on spaces and punctuation (each CJK character is a word of its own),
and each distinct word gets one fixed random vector, so "the" is the same row
wherever it appears and the same seed always gives the same numbers.
"""

from __future__ import annotations

import hashlib
import re

import torch

# CJK ideographs one by one, runs of letters and digits, then any other single symbol.
_WORD = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+|\S", re.UNICODE)
MAX_RANDOM_TOKENS = 4096


def split_words(text: str) -> list[str]:
    return _WORD.findall(text)


def embed_words(words: list[str], d_model: int, seed: int) -> torch.Tensor:
    """One seeded N(0, 1) vector per distinct word (case-insensitive): [n, d_model]."""
    vocab: dict[str, int] = {}
    rows = [vocab.setdefault(w.lower(), len(vocab)) for w in words]
    table = torch.empty(len(vocab), d_model)
    for word, index in vocab.items():
        digest = hashlib.blake2b(f"{seed}:{word}".encode("utf-8", "surrogatepass"), digest_size=8).digest()
        gen = torch.Generator().manual_seed(int.from_bytes(digest, "little") & (2**63 - 1))
        table[index] = torch.randn(d_model, generator=gen)
    return table[torch.tensor(rows, dtype=torch.long)] if rows else torch.empty(0, d_model)


def random_projections(d_model: int, seed: int) -> dict[str, torch.Tensor]:
    """W_q, W_k, W_v, W_O ~ N(0, 1/d_model) and zero biases, nn.Linear convention."""
    gen = torch.Generator().manual_seed(seed)
    std = d_model**-0.5
    out = {}
    for name in ("q", "k", "v", "o"):
        out[f"w_{name}"] = torch.randn(d_model, d_model, generator=gen) * std
        out[f"b_{name}"] = torch.zeros(d_model)
    return out


def identity_projections(d_model: int) -> dict[str, torch.Tensor]:
    eye, zero = torch.eye(d_model), torch.zeros(d_model)
    return {
        f"{kind}_{name}": (eye if kind == "w" else zero).clone()
        for name in ("q", "k", "v", "o")
        for kind in ("w", "b")
    }
