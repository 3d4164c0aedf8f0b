"""How a language model in the window writes and which of its heads are off (``state.decoding``).

Two things a person sets beside a decoder's attention: the heads turned off (a toggle on each
head of the All-heads grid; any layers, zeroed or replaced by their mean before W_O), and how
the next token is chosen (greedy, or sampled with a temperature, a top-k and a seed). The
next-token panel shows the distribution those settings give, and with heads off, before and
after. Notifies "decoding", and "heads_off" too when the heads off change. Qt-free.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from explorer.core.decoding import ABLATIONS, DECODINGS, HeadSet

MAX_TOP_K = 1000
TEMPERATURE_RANGE = (0.05, 5.0)
MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class DecodingOptions:
    heads_off: frozenset[tuple[int, int]] = frozenset()  # (layer, head)
    ablation: str = "zero"  # or "mean"
    decoding: str = "greedy"  # or "sample"
    temperature: float = 1.0
    top_k: int = 0  # 0: every token
    seed: int = 0

    def __post_init__(self) -> None:
        if self.ablation not in ABLATIONS:
            raise ValueError(f"ablation {self.ablation!r} is not one of {', '.join(ABLATIONS)}")
        if self.decoding not in DECODINGS:
            raise ValueError(f"decoding {self.decoding!r} is not one of {', '.join(DECODINGS)}")
        lo, hi = TEMPERATURE_RANGE
        t = self.temperature
        if (
            isinstance(t, bool)
            or not isinstance(t, (int, float))
            or not math.isfinite(t)
            or not lo <= t <= hi
        ):
            raise ValueError(f"the temperature must be between {lo} and {hi}, not {t!r}")
        for name, top in (("top-k", MAX_TOP_K), ("seed", MAX_SEED)):
            value = self.top_k if name == "top-k" else self.seed
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
                raise ValueError(f"the {name} must be a whole number from 0 to {top}, not {value!r}")
        pairs = frozenset((int(layer), int(head)) for layer, head in self.heads_off)
        if any(layer < 0 or head < 0 for layer, head in pairs):
            raise ValueError("a head turned off needs a layer and a head, 0 or more")
        object.__setattr__(self, "heads_off", pairs)
        object.__setattr__(self, "temperature", float(t))

    @property
    def sampled(self) -> bool:
        return self.decoding == "sample"

    def head_set(self, layers: int, heads: int) -> HeadSet | None:
        """The heads off that the model has (a folder with fewer layers keeps the rest for later),
        None when none is off."""
        kept = frozenset((layer, head) for layer, head in self.heads_off if layer < layers and head < heads)
        return HeadSet(kept, self.ablation) if kept else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "heads_off": [f"{layer}.{head}" for layer, head in sorted(self.heads_off)],
            "ablation": self.ablation,
            "decoding": self.decoding,
            "temperature": self.temperature,
            "top_k": self.top_k,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: object) -> DecodingOptions:
        known = {"heads_off", "ablation", "decoding", "temperature", "top_k", "seed"}
        if not isinstance(data, dict) or set(data) - known:
            raise ValueError(f"decoding must hold {', '.join(sorted(known))}")
        names = data.get("heads_off", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError("heads_off must be a list of layer.head names")
        pairs = HeadSet.parse(",".join(names)).heads if names else frozenset()
        defaults = cls()
        return cls(
            pairs,
            data.get("ablation", defaults.ablation),
            data.get("decoding", defaults.decoding),
            data.get("temperature", defaults.temperature),
            data.get("top_k", defaults.top_k),
            data.get("seed", defaults.seed),
        )


class DecodingState:
    """``state.decoding``: the options; every change notifies "decoding" ("heads_off" too
    when the heads off or how they are off change)."""

    def __init__(self, emit: Callable[[str], None]):
        self._emit = emit
        self.options = DecodingOptions()

    def set_options(self, options: DecodingOptions) -> None:
        if options != self.options:
            before, self.options = self.options, options
            self._emit("decoding")
            if (before.heads_off, before.ablation) != (options.heads_off, options.ablation):
                self._emit("heads_off")

    def update(self, **changes: Any) -> None:
        """Change some options (ValueError for an impossible value: nothing changes)."""
        self.set_options(replace(self.options, **changes))

    def is_off(self, layer: int, head: int) -> bool:
        return (layer, head) in self.options.heads_off

    def toggle_head(self, layer: int, head: int) -> None:
        """Turn a head off, or on again."""
        self.set_heads_off(self.options.heads_off ^ {(int(layer), int(head))})

    def set_heads_off(self, pairs: Iterable[tuple[int, int]]) -> None:
        self.update(heads_off=frozenset(pairs))
