"""One text through the lab's GPT: every layer's attention as explorer.core traces, the
next-token predictions and their losses.

    t = trace_text(model, vocab, "abcabc")          (or trace_ids(model, ids, tokens))
    t.layer(0)          explorer.core AttentionTrace of layer 0: every head's Q, K, V, scores,
                        causal mask, weights, outputs (the Pipeline tab's panels and worked
                        arithmetic apply unchanged)
    t.weights           [layers, heads, n, n]
    t.losses            [n − 1] nats: −ln p(token i + 1 | tokens 0 … i)
    t.top               per position, the most likely next tokens and their probabilities
(Text written one token at a time, with the attention that chose each: generate.py.)
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

import numpy as np
import torch

from explorer.core.config import AttentionConfig
from explorer.core.engine import stage_arrays
from explorer.core.trace import AttentionTrace
from explorer.lm.errors import LMError
from explorer.lm.model import GPT, Head, Recorded
from explorer.lm.vocab import CharVocab

TOP = 5  # predictions kept per position


@dataclass
class LMTrace:
    tokens: list[str]
    ids: list[int]
    layers: list[AttentionTrace]
    losses: np.ndarray  # [n − 1]
    top: list[list[tuple[str, float]]]  # per position: (token, probability), the TOP most likely
    off: tuple[Head, ...] = ()

    def layer(self, index: int) -> AttentionTrace:
        return self.layers[index]

    @property
    def weights(self) -> np.ndarray:
        return np.stack([t.weights for t in self.layers])


def trace_ids(
    model: GPT, ids: list[int], token_of: Callable[[int], str] = str, off: Collection[Head] = ()
) -> LMTrace:
    """``ids`` through ``model`` (on the CPU, no gradients), every stage kept; ``token_of``
    names a token id (a vocabulary's ``token``, or any tokenizer's ``id_to_token``)."""
    if not ids:
        raise LMError.of("lm.text_empty")
    if len(ids) > model.config.n_positions:
        raise LMError.of("lm.too_long", count=len(ids), limit=model.config.n_positions)
    tokens = [token_of(i) for i in ids]
    off = tuple(sorted(set(off)))
    x = torch.tensor(ids)
    with torch.no_grad():
        out = model.to("cpu")(x, off=off, record=True)
    logp = torch.log_softmax(out.logits.double(), dim=-1)
    losses = -logp[:-1].gather(-1, x[1:, None]).squeeze(-1).numpy()
    probs, which = logp.exp().topk(min(TOP, logp.shape[-1]), dim=-1)
    top = [[(token_of(i), p) for i, p in zip(w, pr)] for w, pr in zip(which.tolist(), probs.tolist())]
    text = "".join(tokens)
    keeps = model._keeps(off, x.device, torch.float32)  # a head off: its values are zero
    layers = [
        _core_trace(model, text, tokens, record, layer, keeps.get(layer))
        for layer, record in enumerate(out.layers)
    ]
    return LMTrace(tokens, list(ids), layers, losses, top, off)


def trace_text(model: GPT, vocab: CharVocab, text: str, off: Collection[Head] = ()) -> LMTrace:
    return trace_ids(model, vocab.encode(text), vocab.token, off)


def _core_trace(
    model: GPT, text: str, tokens: list[str], record: Recorded, layer: int, keep: torch.Tensor | None = None
) -> AttentionTrace:
    """One layer's attention as explorer.core's AttentionTrace (what the stage panels draw)."""
    attn = model.blocks[layer].attn
    settings = attn.settings
    config = AttentionConfig(
        sentence=text if text.strip() else "·",  # a trace of spaces only still needs a sentence
        scoring=settings.scoring,
        scale=settings.scale,
        heads=settings.heads,
        attention=settings.attention,
        mask=str(settings.mask),
        weights="pretrained",
        device="cpu",
        max_tokens=max(2, model.config.n_positions),
    )
    x = record.x.detach().float().numpy()
    proj = attn.projections(keep)  # the projections that made the recorded stages
    projections = {
        name: getattr(proj, name).detach().float().numpy().copy()
        for name in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
    }
    return AttentionTrace(
        config=config,
        tokens_query=list(tokens),
        tokens_key=list(tokens),
        X_query=x,
        X_key=x,
        **stage_arrays(record.stages),
        heads=settings.heads,
        d_k=model.config.d_head,
        device="cpu",
        weights_source="trained",
        model_name="gpt",
        layer=layer,
        projections=projections,
    )
