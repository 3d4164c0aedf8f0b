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
from typing import cast

import torch
import torch.nn.functional as F
from torch import nn

from explorer.core.attention import (
    Projections,
    Settings,
    Stages,
    attend,
    merge_heads,
    normalise,
    scale_divisor,
    split_heads,
)
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

    def start_cache(self, memory: torch.Tensor, heads: int) -> LayerCache:
        w = StepWeights.of(self)
        cross_k = split_heads(F.linear(memory, *w.cross_k), heads)  # the memory's keys, once
        cross_v = split_heads(F.linear(memory, *w.cross_v), heads)
        empty = cross_k[..., :0, :]  # [..., h, 0, d_k]: no step written yet
        return LayerCache(w, empty, empty, cross_k, cross_v)

    @staticmethod
    def step(y, cache: LayerCache, causal: Settings, cross: Settings, pad_mask) -> torch.Tensor:
        """``forward`` for the newest position alone (y [..., 1, d]): its K and V join the
        cache, and its query reads every position so far (what the causal mask lets the last
        row of ``forward`` see). The same stages as ``attend``'s, as plain tensor operations:
        a step is a few hundred numbers, and attend's bookkeeping (every stage kept, the
        entropy, the masks built) cost more than its arithmetic."""
        w = cache.weights
        h = F.layer_norm(y, w.norm_self[0].shape, *w.norm_self, w.eps)
        cache.self_k = torch.cat([cache.self_k, split_heads(F.linear(h, *w.self_k), causal.heads)], dim=-2)
        cache.self_v = torch.cat([cache.self_v, split_heads(F.linear(h, *w.self_v), causal.heads)], dim=-2)
        y = y + _read(F.linear(h, *w.self_q), cache.self_k, cache.self_v, w.self_o, causal, None)
        h = F.layer_norm(y, w.norm_cross[0].shape, *w.norm_cross, w.eps)
        y = y + _read(F.linear(h, *w.cross_q), cache.cross_k, cache.cross_v, w.cross_o, cross, pad_mask)
        h = F.layer_norm(y, w.norm_ffn[0].shape, *w.norm_ffn, w.eps)
        return y + F.linear(F.relu(F.linear(h, *w.ffn_in)), *w.ffn_out)


def _read(q, k, v, out: tuple, settings: Settings, mask: torch.Tensor | None) -> torch.Tensor:
    """One attention of a decoding step, attend's stages: split the queries into heads, score
    (dot), scale, mask (the padding only: a step's query may see every position so far),
    normalise, weigh the values, concatenate, project with W_O."""
    q = split_heads(q, settings.heads)
    scaled = (q @ k.transpose(-2, -1)) / scale_divisor(settings, q.shape[-1])
    if mask is None and settings.attention == "soft":
        weights = torch.softmax(scaled, dim=-1)
    else:
        seen = torch.ones(scaled.shape[-2:], dtype=torch.bool, device=q.device) if mask is None else mask
        weights = normalise(scaled, seen, settings)  # the core's: hard is one-hot at the argmax
    return F.linear(merge_heads(weights @ v), *out)


Pair = tuple[torch.Tensor, torch.Tensor]  # (weight, bias)


@dataclass(frozen=True)
class StepWeights:
    """One decoder layer's tensors, read once per decoding (a module's attributes cost a
    lookup each time, and a step reads two dozen)."""

    norm_self: Pair
    norm_cross: Pair
    norm_ffn: Pair
    eps: float
    self_q: Pair
    self_k: Pair
    self_v: Pair
    self_o: Pair
    cross_q: Pair
    cross_k: Pair
    cross_v: Pair
    cross_o: Pair
    ffn_in: Pair
    ffn_out: Pair

    @classmethod
    def of(cls, layer: DecoderLayer) -> StepWeights:
        pair = lambda m: (m.weight, m.bias)  # noqa: E731
        a, c = layer.self_attention, layer.cross_attention
        return cls(
            pair(layer.norm_self), pair(layer.norm_cross), pair(layer.norm_ffn), layer.norm_self.eps,
            pair(a.q), pair(a.k), pair(a.v), pair(a.o), pair(c.q), pair(c.k), pair(c.v), pair(c.o),
            pair(layer.ffn[0]), pair(layer.ffn[2]),
        )  # fmt: skip


@dataclass
class LayerCache:
    """One decoder layer's keys and values so far: its self-attention's, one row per step
    written, and its cross-attention's over the memory (the same at every step)."""

    weights: StepWeights
    self_k: torch.Tensor  # [..., h, t, d_k]
    self_v: torch.Tensor
    cross_k: torch.Tensor  # [..., h, n, d_k]
    cross_v: torch.Tensor


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

    def start_caches(self, memory: torch.Tensor) -> list[LayerCache]:
        """Each decoder layer's empty K/V cache, its cross-attention's keys over ``memory`` made once."""
        return [cast(DecoderLayer, layer).start_cache(memory, self.spec.heads) for layer in self.decoder]

    def decode_step(self, memory, source, token, t: int, caches: list[LayerCache], attention: str = "soft"):
        """Logits [..., vocab] at position ``t`` given its input ``token`` [..., 1], the earlier
        positions read from ``caches`` (one per layer, extended here): the last row of
        ``decode`` on the whole prefix, in one position's work instead of t + 1."""
        y = self.target_embed(token) + self.target_position.weight[t : t + 1]
        settings, mask = self.settings(attention), self.padding_mask(source)
        for layer, cache in zip(self.decoder, caches, strict=True):
            y = cast(DecoderLayer, layer).step(y, cache, settings["decoder_self"], settings["cross"], mask)
        return self.out(self.decoder_norm(y))[..., -1, :]

    def forward(self, source: torch.Tensor, lengths: torch.Tensor, target_in: torch.Tensor) -> torch.Tensor:
        return self.decode(self.encode(source), source, target_in)

    def greedy(
        self,
        source: torch.Tensor,
        lengths=None,
        attention: str = "soft",
        seed: int = 0,
        keep: bool = False,
        guess: torch.Tensor | None = None,
        guess_passes: int = 6,
    ) -> TransformerDecode:
        """One character at a time, each step on a K/V cache (``decode_step``); then one pass of
        the decoder on the whole prefix, which records every attention (with a causal mask its
        rows are the steps as they were decoded) and picks the last character. That pass is the
        one the trace shows, the same numbers as rerunning the decoder on the prefix at every
        step. ``seed`` is unused (sampled attention is offered for the GRU models only).

        ``guess`` [..., T] is an answer the caller expects (the date grammar's reading, or the
        answer to the text before the last keystroke). The recorded pass runs on it first. A
        causal pass's pick at a position is right wherever every input before it is, so the
        picks up to the first disagreement with the guess, and that one, are the answer's:
        where all agree, that pass is the answer's own and no step runs; otherwise the picks
        become the next guess, each pass fixing one character at least and usually all (from
        the previous keystroke's answer, 2 to 4 passes of about 2.7 ms where the steps take
        11). After ``guess_passes`` passes the steps go on from the verified prefix, its keys
        and values taken from the last pass. A wrong guess never changes the answer: the
        picks it keeps are the full pass's, which a cached step equals to float32 rounding (a
        near-tie closer than that could pick the other character; none in the tests' texts)."""
        if attention == "sample":
            raise ValueError("the transformer decodes with soft or hard cross-attention")
        encoder_record = self._record() if keep else None
        memory = self.encode(source, encoder_record)
        prefix = self._after_bos(source)  # the decoder inputs known to be the answer's
        caches = self.start_caches(memory)
        if guess is not None and guess_passes > 0:
            guess = guess.to(source.device).expand(*source.shape[:-1], TARGET_LENGTH)
            for _ in range(guess_passes):
                picks, record = self._recorded_pass(
                    memory, source, self._after_bos(source, guess[..., :-1]), attention
                )
                agreed = _leading_agreement(picks[..., :-1], guess[..., :-1])
                if agreed == TARGET_LENGTH - 1:
                    return self._decoded(picks, record, encoder_record)
                prefix, guess = self._after_bos(source, picks[..., : agreed + 1]), picks
            _seed_caches(caches, record["decoder_self"], prefix.shape[-1] - 1)
        for t in range(prefix.shape[-1] - 1, TARGET_LENGTH - 1):
            logits = self.decode_step(memory, source, prefix[..., -1:], t, caches, attention)
            prefix = torch.cat([prefix, pick(logits)], dim=-1)
        picks, record = self._recorded_pass(memory, source, prefix, attention)
        # the known picks, then the pass's last
        tokens = torch.cat([prefix[..., 1:], picks[..., -1:]], dim=-1)
        return self._decoded(tokens, record, encoder_record)

    @staticmethod
    def _record() -> dict[str, list[Recorded]]:
        return {kind: [] for kind in ATTENTION_KINDS}

    @staticmethod
    def _after_bos(source: torch.Tensor, rest: torch.Tensor | None = None) -> torch.Tensor:
        """<bos> [..., 1], followed by ``rest`` where given: a decoder input."""
        bos = torch.full((*source.shape[:-1], 1), BOS, dtype=torch.long, device=source.device)
        return bos if rest is None else torch.cat([bos, rest], dim=-1)

    def _recorded_pass(self, memory, source, prefix, attention):
        """The decoder on the whole ``prefix`` [..., T], recording its attentions: every
        position's pick [..., T] (the prefix's own characters after <bos>, then the last)."""
        record = self._record()
        logits = self.decode(memory, source, prefix, attention, record)
        return pick(logits).squeeze(-1), record

    @staticmethod
    def _decoded(tokens, decoder_record, encoder_record) -> TransformerDecode:
        """The answer, with every attention recorded when the encoder's was kept."""
        alignment = decoder_record["cross"][-1].stages.weights.mean(dim=-3)  # last layer, mean over heads
        if encoder_record is None:
            return TransformerDecode(tokens, alignment, None)
        return TransformerDecode(
            tokens, alignment, {**decoder_record, "encoder_self": encoder_record["encoder_self"]}
        )


def _leading_agreement(picks: torch.Tensor, guess: torch.Tensor) -> int:
    """How many characters from the start agree in every row of the batch."""
    same = (picks == guess).long().cumprod(dim=-1).sum(dim=-1)
    return int(same.min())


def _seed_caches(caches: list[LayerCache], recorded: list[Recorded], positions: int) -> None:
    """The caches' self-attention keys and values: the first ``positions`` of a recorded pass
    (a causal pass's keys there depend on those inputs alone)."""
    for cache, layer in zip(caches, recorded, strict=True):
        cache.self_k = layer.stages.k[..., :positions, :]
        cache.self_v = layer.stages.v[..., :positions, :]


def pick(logits: torch.Tensor) -> torch.Tensor:
    """The greedy choice [..., 1]: the largest logit, <bos> never (it is no answer)."""
    logits[..., BOS] = float("-inf")
    return logits.argmax(dim=-1, keepdim=True)
