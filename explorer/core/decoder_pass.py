"""A decoder's whole forward pass, every layer's attention through the staged attention.

    embed (+ learned positions) → for each layer: norm → attend_decoder → + residual
                                                  norm → MLP → + residual
    → final norm → LM head → next-token probabilities

Each layer is computed as the model was trained (dot scores, ÷ √d_k, its causal mask and
sliding window, softmax), from its weights in float32 (converted as the layer is reached when
the store keeps them as stored). What is kept is what was asked for: the hidden state
entering each layer (the engine's cache), the attention weights of some layers, the whole
stages of some layers, and each head's weight on the first token (the attention sink).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.core.attention import Projections, Settings
from explorer.core.causal_attention import DecoderStages, Rotary, attend_decoder, causal_mask
from explorer.core.config import MaskSpec
from explorer.core.head_measures import first_token_share
from explorer.models.ablation import ABLATIONS, HeadEdit, editor
from explorer.models.decoder import DecoderLayer, DecoderWeights, PretrainedDecoder, mlp, norm, rope_tables

__all__ = ["ABLATIONS", "Ablation", "DecoderPass", "NextTokens", "logits", "next_tokens", "run_decoder"]


@dataclass(frozen=True)
class Ablation:
    """Heads turned off (explorer.models.ablation): (layer, head) pairs, zero or mean."""

    heads: frozenset[tuple[int, int]]
    mode: str = "zero"

    def edit_for(self, layer: int) -> HeadEdit | None:
        return editor(self.heads, self.mode)(layer)


@dataclass
class DecoderPass:
    hidden: list[torch.Tensor]  # hidden[L]: what enters layer L (before its norm); hidden[-1]: after the last
    final: torch.Tensor  # [n, width] after the final norm: what the LM head reads
    sink: np.ndarray  # [layers, heads] each head's mean weight on the first token (rows 1 …)
    weights: dict[int, torch.Tensor] = field(default_factory=dict)  # layer → [heads, n, n], where kept
    stages: dict[int, DecoderStages] = field(default_factory=dict)  # layer → every stage, where kept
    first_key: np.ndarray | None = None  # [layers, heads, n] each row's weight on key 0
    keys_values: list[tuple[torch.Tensor, torch.Tensor]] = field(default_factory=list)  # per layer, K/V heads

    def common_prefix(self, ids: list[int], own: list[int]) -> int:
        """How many first positions of ``ids`` this pass (over ``own``) computed already."""
        if not self.keys_values or self.first_key is None:
            return 0
        p = 0
        for a, b in zip(ids, own, strict=False):
            if a != b:
                break
            p += 1
        return p


def model_settings(model: PretrainedDecoder, layer: int) -> Settings:
    """How layer ``layer`` was trained to attend."""
    c = model.config
    return Settings(
        heads=c.num_attention_heads,
        mask=MaskSpec("model"),
        extra_divisor=float(layer + 1) if c.layer_scaled else 1.0,
    )


def layer_projections(lw: DecoderLayer) -> Projections:
    return Projections(lw.w_q, lw.w_k, lw.w_v, lw.w_o, lw.b_q, lw.b_k, lw.b_v, lw.b_o)


def rotary_for(model: PretrainedDecoder, n: int, device: torch.device) -> Rotary | None:
    tables = rope_tables(model.config, n)
    return None if tables is None else Rotary(*tables).to(device)


def embed(
    model: PretrainedDecoder, ids: torch.Tensor, weights: DecoderWeights | None = None, first: int = 0
) -> torch.Tensor:
    """The rows of positions ``first`` … of ``ids`` (learned positions added for GPT-2)."""
    weights = weights or model.weights
    x = weights.embed_rows(ids[first:])
    if model.config.gpt2:
        x = x + weights.top("positions")[first : ids.shape[0]].to(x.device)
    return x.to(ids.device)


def attention_input(
    model: PretrainedDecoder, lw: DecoderLayer, hidden: torch.Tensor, layer: int | None = None
) -> torch.Tensor:
    """X as the layer's attention reads it: the hidden state after the layer's first norm."""
    c = model.config
    where = "a layer" if layer is None else f"layer {layer}"
    return norm(
        hidden, lw.norm1_w, lw.norm1_b, c.norm_eps, not c.gpt2, f"{where}'s first norm (mean of squares)"
    )


def run_decoder(
    model: PretrainedDecoder,
    ids: torch.Tensor,
    weights: DecoderWeights | None = None,
    keep_weights: Iterable[int] = (),
    keep_stages: Iterable[int] = (),
    ablation: Ablation | None = None,
    between_layers: Callable[[], None] | None = None,
    prefix: tuple[DecoderPass, int] | None = None,
) -> DecoderPass:
    """The forward over ``ids`` [n] on ``ids.device``; ``weights``: the store to read (a copy
    on another device), the model's own by default. ``prefix`` (an earlier pass, p): its first
    p positions were these ids, so only rows p … are computed; a causal layer's earlier rows do
    not depend on what follows (taken only when no layer's weights or stages are kept and no
    heads are off: a head's mean output is over the whole text)."""
    c, store = model.config, weights or model.weights
    keep_weights, keep_stages = set(keep_weights), set(keep_stages)
    n, device = ids.shape[0], ids.device
    earlier, p = prefix if prefix is not None else (None, 0)
    if earlier is None or keep_weights or keep_stages or ablation is not None or not 0 < p < n:
        earlier, p = None, 0
    rotary = rotary_for(model, n, device)
    if rotary is not None and p:
        rotary = Rotary(rotary.angles[p:], rotary.cos[p:], rotary.sin[p:])
    masks = {window: causal_mask(n - p, n, window, device, first=p) for window in set(c.sliding_windows)}
    x = embed(model, ids, store, first=p)
    hidden = [x if earlier is None else torch.cat((earlier.hidden[0][:p], x))]
    first_key = np.zeros((c.num_hidden_layers, c.num_attention_heads, n))
    kept_weights, kept_stages, keys_values = {}, {}, []
    with torch.inference_mode():
        for layer in range(c.num_hidden_layers):
            if between_layers is not None:
                between_layers()
            lw = store.layer(layer)
            past = None
            if earlier is not None:
                k_past, v_past = earlier.keys_values[layer]
                past = (k_past[:, :p], v_past[:, :p])
            stages = attend_decoder(
                attention_input(model, lw, x, layer),
                layer_projections(lw),
                model_settings(model, layer),
                c.num_key_value_heads,
                rotary,
                masks[c.sliding_windows[layer]],
                edit_heads=None if ablation is None else ablation.edit_for(layer),
                past=past,
            )
            # Only the first key is read: the sink measure needs column 0 alone.
            first_key[layer, :, p:] = stages.weights[:, :, 0].cpu().numpy()
            if earlier is not None and earlier.first_key is not None:
                first_key[layer, :, :p] = earlier.first_key[layer, :, :p]
            if stages.keys_values is not None:
                keys_values.append(stages.keys_values)
            if layer in keep_weights:
                kept_weights[layer] = stages.weights
            if layer in keep_stages:
                kept_stages[layer] = stages
            x = x + stages.output
            second = f"layer {layer}'s second norm (mean of squares)"
            x = x + mlp(norm(x, lw.norm2_w, lw.norm2_b, c.norm_eps, not c.gpt2, second), lw, c.hidden_act)
            hidden.append(x if earlier is None else torch.cat((earlier.hidden[layer + 1][:p], x)))
            del stages, lw
        final = norm(
            x,
            store.top("final_norm.weight"),
            store.optional("final_norm.bias"),
            c.norm_eps,
            not c.gpt2,
            "the final norm (mean of squares)",
        )
        if earlier is not None:
            final = torch.cat((earlier.final[:p], final))
    sink = first_token_share(first_key[..., None]) if n > 1 else np.ones(first_key.shape[:2])
    return DecoderPass(hidden, final, sink, kept_weights, kept_stages, first_key, keys_values)


# -- the next token ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NextTokens:
    """The k most likely next tokens after each position: ids and probabilities [n, k]."""

    ids: np.ndarray
    probabilities: np.ndarray
    log_normaliser: np.ndarray  # [n] log Σ exp(logits): p = exp(logit − this)


def logits(
    model: PretrainedDecoder, final: torch.Tensor, weights: DecoderWeights | None = None
) -> torch.Tensor:
    """The LM head's logits, [n, vocabulary], float32 (one block of the table at a time)."""
    store = weights or model.weights
    parts = [final @ rows.to(final.device).T for _, rows in store.lm_head_chunks()]
    return torch.cat(parts, dim=-1)


def next_tokens(
    model: PretrainedDecoder, final: torch.Tensor, k: int, weights: DecoderWeights | None = None
) -> NextTokens:
    """Top-k next tokens after each row of ``final``, with probabilities over the whole vocabulary;
    the table is read a block at a time, so no [n, vocabulary] array is needed for large n."""
    store = weights or model.weights
    k = min(k, model.config.vocab_size)
    best_logit = torch.empty(final.shape[0], 0, device=final.device)
    best_id = torch.empty(final.shape[0], 0, dtype=torch.long, device=final.device)
    log_z = torch.full((final.shape[0],), float("-inf"), device=final.device)
    with torch.inference_mode():
        for start, rows in store.lm_head_chunks():
            block = final @ rows.to(final.device).T  # [n, m]
            # The normaliser over the whole vocabulary, a block at a time: log Σ exp = logaddexp of the blocks'.
            log_z = torch.logaddexp(log_z, torch.logsumexp(block, dim=-1))
            values, index = block.topk(min(k, block.shape[-1]), dim=-1)
            width = min(k, best_logit.shape[-1] + values.shape[-1])
            merged, order = torch.cat((best_logit, values), -1).topk(width, dim=-1)
            best_id = torch.cat((best_id, index + start), -1).gather(-1, order)
            best_logit = merged
        probs = torch.exp(best_logit - log_z[:, None])
    return NextTokens(best_id.cpu().numpy(), probs.cpu().numpy(), log_z.cpu().numpy())
