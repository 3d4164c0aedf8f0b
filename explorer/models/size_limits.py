"""How large a size in a model's config.json may be: far beyond any real model's, below what
would fill the memory (or overflow torch) when the weights are checked against it. A 30-digit
layer count filled the memory; ten million layers took 19 minutes and 13 GB to be refused."""

from __future__ import annotations

from pathlib import Path

from explorer.models.errors import ModelError

MAX_SIZE = 2**31 - 1
LIMITS = {"num_hidden_layers": 1024, "num_attention_heads": 4096, "num_key_value_heads": 4096}


def check_size(path: Path, name: str, value: int, key: str | None = None) -> None:
    """ModelError ``families.too_large`` when ``value`` (a whole, positive size) is beyond its
    limit; ``name`` is the canonical size, ``key`` the config's own spelling of it."""
    limit = LIMITS.get(name, MAX_SIZE)
    if value > limit:
        raise ModelError.of("families.too_large", path=path, key=key or name, value=value, limit=limit)
