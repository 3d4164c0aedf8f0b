"""A small Transformer encoder–decoder whose every attention is ``explorer.core.attention.attend``.

Pre-norm layers (x + Attn(LN x), x + FFN(LN x)), learned positions, ReLU feed-forward, no
dropout. Three kinds of attention, all through the core's staged pipeline while training
and while tracing:

    encoder self-attention    every source character looks at every source character;
    decoder self-attention    causal: output step i sees steps 0 … i (a trained mask);
    cross-attention           each output step looks at the encoder's last layer.

Training pads sources to one length; the key-padding mask goes to ``attend`` as an explicit
boolean [B, 1, 1, n] tensor. A single text needs no padding, so a trace's masks are the
core's own [n_q, n_k] matrices. The scoring is scaled dot; at decode time the cross-attention
can be soft or hard (one-hot at the argmax), the two self-attentions stay soft.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from explorer.core.attention import Projections, Settings, Stages, attend
from explorer.core.config import MaskSpec
from explorer.seq2seq.dates import TARGET_LENGTH
from explorer.seq2seq.spec import ModelSpec
from explorer.seq2seq.vocab import BOS, PAD, TARGET_TOKENS

ATTENTION_KINDS = ("encoder_self", "decoder_self", "cross")


class CoreAttention(nn.Module):
    """W_q, W_k, W_v, W_O as nn.Linear layers; the mechanism itself is ``explorer.core``."""

    def __init__(self, width: int):
        super().__init__()
        self.q, self.k, self.v, self.o = (nn.Linear(width, width) for _ in range(4))

    def projections(self) -> Projections:
        return Projections(
            self.q.weight, self.k.weight, self.v.weight, self.o.weight,
            self.q.bias, self.k.bias, self.v.bias, self.o.bias,
        )  # fmt: skip

    def forward(self, x_query, x_key, settings: Settings, mask: torch.Tensor | None = None) -> Stages:
        return attend(x_query, x_key, self.projections(), settings, mask=mask)


@dataclass
class Recorded:
    """One attention call while tracing: its inputs X (after layer norm) and its stages."""

    x_query: torch.Tensor
    x_key: torch.Tensor
    stages: Stages


def feed_forward(width: int, hidden: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(width, hidden), nn.ReLU(), nn.Linear(hidden, width))


class EncoderLayer(nn.Module):
    def __init__(self, spec: ModelSpec):
        super().__init__()
        self.norm_attention, self.norm_ffn = nn.LayerNorm(spec.d_model), nn.LayerNorm(spec.d_model)
        self.attention = CoreAttention(spec.d_model)
        self.ffn = feed_forward(spec.d_model, spec.ffn)

    def forward(self, x, settings: Settings, pad_mask, record: list | None):
        h = self.norm_attention(x)
        stages = self.attention(h, h, settings, pad_mask)
        x = x + stages.output
        if record is not None:
            record.append(Recorded(h, h, stages))
        return x + self.ffn(self.norm_ffn(x))


class DecoderLayer(nn.Module):
    def __init__(self, spec: ModelSpec):
        super().__init__()
        width = spec.d_model
        self.norm_self, self.norm_cross, self.norm_ffn = (nn.LayerNorm(width) for _ in range(3))
        self.self_attention = CoreAttention(width)
        self.cross_attention = CoreAttention(width)
        self.ffn = feed_forward(width, spec.ffn)

    def forward(self, y, memory, causal: Settings, cross: Settings, pad_mask, record: dict | None):
        h = self.norm_self(y)
        self_stages = self.self_attention(h, h, causal)  # the core builds the causal mask
        y = y + self_stages.output
        h_cross = self.norm_cross(y)
        cross_stages = self.cross_attention(h_cross, memory, cross, pad_mask)
        y = y + cross_stages.output
        if record is not None:
            record["decoder_self"].append(Recorded(h, h, self_stages))
            record["cross"].append(Recorded(h_cross, memory, cross_stages))
        return y + self.ffn(self.norm_ffn(y))


@dataclass
class TransformerDecode:
    tokens: torch.Tensor  # [B, T]
    alignment: torch.Tensor  # [B, T, n] the last layer's cross-attention weights, mean over heads
    record: dict[str, list[Recorded]] | None  # per kind, one per layer (when asked to keep them)


class TransformerTranslator(nn.Module):
    def __init__(self, spec: ModelSpec):
        super().__init__()
        self.spec = spec
        width = spec.d_model
        self.source_embed = nn.Embedding(len(spec.source_chars) + 2, width, padding_idx=PAD)
        self.source_position = nn.Embedding(spec.max_source, width)
        self.target_embed = nn.Embedding(len(TARGET_TOKENS), width)
        self.target_position = nn.Embedding(TARGET_LENGTH, width)
        self.encoder = nn.ModuleList(EncoderLayer(spec) for _ in range(spec.layers))
        self.decoder = nn.ModuleList(DecoderLayer(spec) for _ in range(spec.layers))
        self.encoder_norm, self.decoder_norm = nn.LayerNorm(width), nn.LayerNorm(width)
        self.out = nn.Linear(width, len(TARGET_TOKENS))

    def settings(self, attention: str = "soft") -> dict[str, Settings]:
        h = self.spec.heads
        return {
            "encoder_self": Settings(heads=h, scoring="dot", scale="sqrt"),
            "decoder_self": Settings(heads=h, scoring="dot", scale="sqrt", mask=MaskSpec("causal")),
            "cross": Settings(heads=h, scoring="dot", scale="sqrt", attention=attention),
        }

    @staticmethod
    def padding_mask(source: torch.Tensor) -> torch.Tensor | None:
        """[..., 1, 1, n] True at real characters; None when nothing is padded."""
        visible = source != PAD
        return None if bool(visible.all()) else visible[..., None, None, :]

    def encode(self, source: torch.Tensor, record: dict | None = None) -> torch.Tensor:
        """source [B, n] or [n] → memory [B, n, d] (or [n, d])."""
        positions = torch.arange(source.shape[-1], device=source.device)
        x = self.source_embed(source) + self.source_position(positions)
        settings, mask = self.settings()["encoder_self"], self.padding_mask(source)
        for layer in self.encoder:
            x = layer(x, settings, mask, None if record is None else record["encoder_self"])
        return self.encoder_norm(x)

    def decode(self, memory, source, target_in, attention: str = "soft", record: dict | None = None):
        """Logits [B, T, vocab] for every position of target_in at once (causal)."""
        positions = torch.arange(target_in.shape[-1], device=target_in.device)
        y = self.target_embed(target_in) + self.target_position(positions)
        settings, mask = self.settings(attention), self.padding_mask(source)
        for layer in self.decoder:
            y = layer(y, memory, settings["decoder_self"], settings["cross"], mask, record)
        return self.out(self.decoder_norm(y))

    def forward(self, source: torch.Tensor, lengths: torch.Tensor, target_in: torch.Tensor) -> torch.Tensor:
        return self.decode(self.encode(source), source, target_in)

    def greedy(
        self, source: torch.Tensor, lengths=None, attention: str = "soft", seed: int = 0, keep: bool = False
    ) -> TransformerDecode:
        """One character at a time. Each step reruns the decoder on the prefix; with a causal
        mask the earlier rows come out exactly as before, so the last pass holds every step.
        ``seed`` is unused (sampled attention is offered for the GRU models only)."""
        if attention == "sample":
            raise ValueError("the transformer decodes with soft or hard cross-attention")
        record: dict[str, list[Recorded]] = {kind: [] for kind in ATTENTION_KINDS}
        memory = self.encode(source, record if keep else None)
        prefix = torch.full((*source.shape[:-1], 1), BOS, dtype=torch.long, device=source.device)
        for t in range(TARGET_LENGTH):
            last = t == TARGET_LENGTH - 1
            logits = self.decode(memory, source, prefix, attention, record if last else None)[..., -1, :]
            logits[..., BOS] = float("-inf")  # <bos> is never an answer
            choice = logits.argmax(dim=-1, keepdim=True)
            if not last:
                prefix = torch.cat([prefix, choice], dim=-1)
        tokens = torch.cat([prefix[..., 1:], choice], dim=-1)
        alignment = record["cross"][-1].stages.weights.mean(dim=-3)  # last layer, mean over heads
        return TransformerDecode(tokens, alignment, record if keep else None)
