"""Turning heads off: a head's output before W_O replaced by zeros, or by its mean over the text.

Zero-ablation asks "what if this head wrote nothing"; mean-ablation "what if it wrote the same
thing everywhere" (what it adds on average stays, what it says about each token goes). Both
edit the [heads, n, d_v] head outputs of one layer before they are concatenated; encoders and
decoders use the same edit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import torch

ABLATIONS = ("zero", "mean")
HeadEdit = Callable[[torch.Tensor], torch.Tensor]


def head_edit(heads: Iterable[int], mode: str) -> HeadEdit:
    off = sorted(set(heads))

    def edit(outputs: torch.Tensor) -> torch.Tensor:  # [heads, n, d_v]
        edited = outputs.clone()
        if mode == "zero":
            edited[off] = 0.0
        else:
            edited[off] = outputs[off].mean(dim=1, keepdim=True).expand_as(outputs[off])
        return edited

    return edit


def editor(pairs: Iterable[tuple[int, int]], mode: str) -> Callable[[int], HeadEdit | None]:
    """layer → the edit of its heads among ``pairs`` (layer, head), or None when none is off."""
    by_layer: dict[int, list[int]] = {}
    for layer, head in pairs:
        by_layer.setdefault(layer, []).append(head)
    edits = {layer: head_edit(heads, mode) for layer, heads in by_layer.items()}
    return edits.get
