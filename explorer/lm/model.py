"""A small GPT-2 whose every attention is ``explorer.core.attention.attend``.

The architecture and the parameter names are GPT-2's (Radford et al. 2019, as in
transformers' ``GPT2LMHeadModel``), so a trained model saves as a standard GPT-2 folder:

    x = wte[ids] + wpe[positions]
    for each block:   x = x + Attn(ln_1 x)       causal self-attention, W_O = c_proj
                      x = x + MLP(ln_2 x)        c_fc, gelu (tanh form), c_proj
    logits = ln_f(x) · W_headᵀ                   W_head = wte when tied (GPT-2's own models);
                                                 the lab's are untied (lm_head.weight)

GPT-2 keeps its projections as "Conv1D" weights [in, out] (x · W + b); ``c_attn`` holds
W_Q, W_K, W_V side by side. ``attend`` takes nn.Linear's [out, in], so each block hands it
transposed views of the same tensors: gradients flow into the GPT-2 tensors themselves.

Attention-only: ``GPTConfig(mlp=False)`` keeps the MLP tensors (the folder stays standard)
at zero and frozen, so each block is x + Attn(ln_1 x) exactly (gelu(0) = 0).

Ablation: ``forward(ids, off={(layer, head), ...})`` zeroes those heads' outputs before W_O.
It zeroes the heads' value rows, so the weights still show what the head looks at while
what it passes on is exactly nothing.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import asdict, dataclass, replace
from typing import Any, cast

import torch
import torch.nn.functional as F
from torch import nn

from explorer.core.attention import Projections, Settings, Stages, attend
from explorer.core.config import MaskSpec
from explorer.lm.errors import LMError

LAYER_NORM_EPS = 1e-5  # GPT-2's layer_norm_epsilon
MAX_POSITIONS = 1024  # GPT-2's own context; the lab's models are far shorter
MAX_VOCABULARY = 65_536
MAX_WIDTH = 1024


@dataclass(frozen=True)
class GPTConfig:
    vocab_size: int = 65
    n_positions: int = 48
    n_embd: int = 64
    n_layer: int = 2
    n_head: int = 4
    n_inner: int = 256  # the MLP's hidden width (GPT-2: 4 × n_embd)
    mlp: bool = False  # False: the MLPs are zero and frozen (attention-only)
    tie_word_embeddings: bool = False  # True: the LM head is wte (GPT-2's own choice)
    dropout: float = 0.0  # GPT-2's resid_pdrop and embd_pdrop: while training only

    def __post_init__(self) -> None:
        limits = {
            "vocab_size": MAX_VOCABULARY,
            "n_positions": MAX_POSITIONS,
            "n_embd": MAX_WIDTH,
            "n_layer": 48,
            "n_head": 64,
            "n_inner": 4 * MAX_WIDTH,
        }
        for name, limit in limits.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= limit:
                raise LMError.of("lm.size_out_of_range", name=name, value=value, limit=limit)
        if self.n_embd % self.n_head:
            raise LMError.of("lm.heads_not_dividing", width=self.n_embd, heads=self.n_head)
        if not isinstance(self.dropout, (int, float)) or not 0 <= self.dropout < 1:
            raise LMError.of("lm.dropout_out_of_range", value=self.dropout)
        for name in ("mlp", "tie_word_embeddings"):
            if not isinstance(getattr(self, name), bool):
                raise LMError.of("lm.size_out_of_range", name=name, value=getattr(self, name), limit=1)

    @property
    def d_head(self) -> int:
        return self.n_embd // self.n_head

    def with_(self, **changes: Any) -> GPTConfig:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Conv1D(nn.Module):
    """GPT-2's linear layer: weight [in, out], y = x · W + b."""

    def __init__(self, n_in: int, n_out: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_in, n_out))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.addmm(self.bias, x.reshape(-1, x.shape[-1]), self.weight).view(*x.shape[:-1], -1)


class Attention(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.c_attn = Conv1D(config.n_embd, 3 * config.n_embd)  # W_Q | W_K | W_V
        self.c_proj = Conv1D(config.n_embd, config.n_embd)  # W_O
        self.settings = Settings(heads=config.n_head, scoring="dot", scale="sqrt", mask=MaskSpec("causal"))

    def projections(self, keep: torch.Tensor | None = None) -> Projections:
        """nn.Linear views ([out, in]) of the Conv1D tensors; ``keep`` [d] (1 or 0 per value
        column) silences heads by zeroing their values."""
        w_q, w_k, w_v = self.c_attn.weight.t().chunk(3, dim=0)
        b_q, b_k, b_v = self.c_attn.bias.chunk(3)
        if keep is not None:
            w_v, b_v = w_v * keep[:, None], b_v * keep
        return Projections(w_q, w_k, w_v, self.c_proj.weight.t(), b_q, b_k, b_v, self.c_proj.bias)

    def forward(self, x: torch.Tensor, keep: torch.Tensor | None = None) -> Stages:
        return attend(x, x, self.projections(keep), self.settings)  # the core builds the causal mask


class RunDropout(nn.Module):
    """nn.Dropout drawing from a generator the training run owns.

    torch's global generator is shared by every thread: two runs training at once with
    nn.Dropout would take each other's draws and neither would repeat for its seed. With no
    generator given (``generator`` None) this is nn.Dropout exactly."""

    def __init__(self, p: float):
        super().__init__()
        self.p = p
        self.generator: torch.Generator | None = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.training or self.p == 0:
            return x
        if self.generator is None:
            return F.dropout(x, self.p, training=True)
        keep = torch.empty_like(x).bernoulli_(1 - self.p, generator=self.generator)
        return x * keep / (1 - self.p)


class MLP(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.c_fc = Conv1D(config.n_embd, config.n_inner)
        self.c_proj = Conv1D(config.n_inner, config.n_embd)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))  # GPT-2's "gelu_new"


class Block(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, eps=LAYER_NORM_EPS)
        self.attn = Attention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, eps=LAYER_NORM_EPS)
        self.mlp = MLP(config)
        self.has_mlp = config.mlp
        self.drop = RunDropout(config.dropout)  # on each branch before it joins the residual

    def forward(
        self, x: torch.Tensor, keep: torch.Tensor | None, record: list[Recorded] | None
    ) -> torch.Tensor:
        h = self.ln_1(x)
        stages = self.attn(h, keep)
        if record is not None:
            record.append(Recorded(h, stages))
        x = x + self.drop(stages.output)
        if self.has_mlp:  # a zero MLP adds exactly 0: skip the work
            x = x + self.drop(self.mlp(self.ln_2(x)))
        return x


@dataclass
class Recorded:
    """One layer's attention: its input X (after ln_1) and every stage ``attend`` kept."""

    x: torch.Tensor
    stages: Stages


class _Transformer(nn.Module):
    """GPT-2's ``transformer.*`` tensors (the names a GPT-2 folder uses)."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.n_positions, config.n_embd)
        self.h = nn.ModuleList(Block(config) for _ in range(config.n_layer))
        self.ln_f = nn.LayerNorm(config.n_embd, eps=LAYER_NORM_EPS)
        self.drop = RunDropout(config.dropout)


@dataclass
class LMOutput:
    logits: torch.Tensor  # [..., n, vocab]
    layers: list[Recorded] | None  # one per layer when asked to record


Head = tuple[int, int]  # (layer, head), both 0-based


class GPT(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.config = config
        self.transformer = _Transformer(config)
        if not config.tie_word_embeddings:
            self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """torch's own defaults: embeddings N(0, 1), every projection and bias U(±1/√fan-in).

        Not GPT-2's N(0, 0.02): from that small start the induction task settles on counting
        which tokens the row has shown (loss ≈ ln k) and no induction head formed within
        1,500 steps; from torch's the phase change comes at about step 500 (bench/lm_lab.py)."""
        t = self.transformer
        nn.init.normal_(t.wte.weight, 0.0, 1.0)
        nn.init.normal_(t.wpe.weight, 0.0, 1.0)
        for module in self.modules():
            if isinstance(module, Conv1D):  # [in, out]: fan-in is the first axis
                bound = 1 / math.sqrt(module.weight.shape[0])
                nn.init.uniform_(module.weight, -bound, bound)
                nn.init.uniform_(module.bias, -bound, bound)
            elif isinstance(module, nn.LayerNorm):
                module.reset_parameters()
        if not self.config.tie_word_embeddings:
            self.lm_head.reset_parameters()
        if not self.config.mlp:
            self.zero_mlps()

    @classmethod
    def unfilled(cls, config: GPTConfig) -> GPT:
        """A model whose parameters are about to be loaded: made without drawing a random
        number (the global generator is shared with any run training meanwhile, on its thread)."""
        with torch.device("meta"):
            model = cls(config)
        return model.to_empty(device="cpu")

    def draw_dropout_from(self, generator: torch.Generator) -> None:
        """Every dropout of this model draws from ``generator`` (a training run's own)."""
        for module in self.modules():
            if isinstance(module, RunDropout):
                module.generator = generator

    def gpt2_init(self) -> None:
        """GPT-2's initialisation, N(0, 0.02) with the residual projections scaled by
        1/√(2·layers), for comparison (bench/lm_lab.py)."""
        residual_std = 0.02 / math.sqrt(2 * self.config.n_layer)
        for name, p in self.named_parameters():
            if ".ln_" in name:
                nn.init.ones_(p) if name.endswith("weight") else nn.init.zeros_(p)
            elif name.endswith(".bias"):
                nn.init.zeros_(p)
            else:
                nn.init.normal_(p, 0.0, residual_std if name.endswith("c_proj.weight") else 0.02)
        if not self.config.mlp:
            self.zero_mlps()

    def zero_mlps(self) -> None:
        """Attention-only: every MLP (and the norm in front of it) zero or one, and frozen."""
        for block in self.blocks:
            for p in block.mlp.parameters():
                nn.init.zeros_(p)
                p.requires_grad_(False)
            block.ln_2.requires_grad_(False)

    @property
    def blocks(self) -> list[Block]:
        return [cast(Block, block) for block in self.transformer.h]

    def head_weight(self) -> torch.Tensor:
        """The LM head [vocab, d]: wte itself when tied."""
        return self.transformer.wte.weight if self.config.tie_word_embeddings else self.lm_head.weight

    @property
    def heads(self) -> list[Head]:
        return [(layer, head) for layer in range(self.config.n_layer) for head in range(self.config.n_head)]

    def forward(self, ids: torch.Tensor, off: Collection[Head] = (), record: bool = False) -> LMOutput:
        """ids [..., n] (n ≤ n_positions) → logits [..., n, vocab]; ``off``: heads to silence."""
        n = ids.shape[-1]
        if n > self.config.n_positions:
            raise LMError.of("lm.too_long", count=n, limit=self.config.n_positions)
        t = self.transformer
        x = t.drop(t.wte(ids) + t.wpe(torch.arange(n, device=ids.device)))
        keeps = self._keeps(off, x.device, x.dtype)
        layers: list[Recorded] | None = [] if record else None
        for i, block in enumerate(self.blocks):
            x = block(x, keeps.get(i), layers)
        logits = t.ln_f(x) @ self.head_weight().t()
        return LMOutput(logits, layers)

    def _keeps(
        self, off: Collection[Head], device: torch.device, dtype: torch.dtype
    ) -> dict[int, torch.Tensor]:
        """Per layer with a silenced head: 1 for each value column kept, 0 for the silenced heads'."""
        keeps: dict[int, torch.Tensor] = {}
        c = self.config
        for layer, head in off:
            if not (0 <= layer < c.n_layer and 0 <= head < c.n_head):
                raise LMError.of("lm.no_such_head", layer=layer, head=head, layers=c.n_layer, heads=c.n_head)
            keep = keeps.setdefault(layer, torch.ones(c.n_embd, device=device, dtype=dtype))
            keep[head * c.d_head : (head + 1) * c.d_head] = 0.0
        return keeps

    def weights_per_layer(self, ids: torch.Tensor) -> list[torch.Tensor]:
        """The attention weights of every layer, [..., heads, n, n] each (no gradients)."""
        with torch.no_grad():
            return [r.stages.weights for r in self(ids, record=True).layers]


def next_token_loss(logits: torch.Tensor, ids: torch.Tensor, reduction: str = "mean") -> torch.Tensor:
    """Cross-entropy of predicting ids[..., i + 1] from position i ("none": [..., n − 1])."""
    loss = F.cross_entropy(logits[..., :-1, :].flatten(0, -2), ids[..., 1:].flatten(), reduction=reduction)
    return loss if reduction != "none" else loss.view(ids[..., 1:].shape)
