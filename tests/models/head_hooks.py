"""transformers' own models with heads turned off: a forward pre-hook on the layer's output
projection (o_proj, c_proj, attention.output.dense, out_lin) that edits that head's slice of
its input, the heads' outputs side by side [batch, n, heads · d_head]."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import torch


def output_projection(model, layer: int) -> torch.nn.Module:
    """The module that applies W_O in ``layer`` of a transformers model (decoder or encoder)."""
    base = getattr(model, "base_model", model)
    if hasattr(base, "layers"):  # Llama, Mistral, Qwen2
        return base.layers[layer].self_attn.o_proj
    if hasattr(base, "h"):  # GPT-2
        return base.h[layer].attn.c_proj
    if hasattr(base, "transformer"):  # DistilBERT
        return base.transformer.layer[layer].attention.out_lin
    return base.encoder.layer[layer].attention.output.dense  # BERT, RoBERTa, XLM-RoBERTa


@contextmanager
def heads_off(model, off: Iterable[tuple[int, int]], mode: str = "zero") -> Iterator[None]:
    """Within: each (layer, head) of ``off`` zeroed, or replaced by its mean over the text, before W_O."""
    c = model.config
    heads = getattr(c, "num_attention_heads", None) or c.n_heads
    width = getattr(c, "head_dim", None) or (getattr(c, "hidden_size", None) or c.dim) // heads
    handles = []
    for layer, head in off:

        def edit(module, args, head=head):
            x = args[0].clone()
            part = x[..., head * width : (head + 1) * width]
            x[..., head * width : (head + 1) * width] = (
                0.0 if mode == "zero" else part.mean(dim=1, keepdim=True)
            )
            return (x, *args[1:])

        handles.append(output_projection(model, layer).register_forward_pre_hook(edit))
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()


def output_cosine(model, ids: list[int], off: Iterable[tuple[int, int]], mode: str = "zero") -> torch.Tensor:
    """transformers' encoder: each token's last hidden state with the heads ``off`` against with
    every head on, their cosine [n] (float64)."""
    with torch.no_grad():
        plain = model(torch.tensor([ids])).last_hidden_state[0].double()
        with heads_off(model, off, mode):
            ablated = model(torch.tensor([ids])).last_hidden_state[0].double()
    return torch.nn.functional.cosine_similarity(plain, ablated, dim=-1)
