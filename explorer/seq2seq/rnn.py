"""The seeds' model: a bidirectional GRU encoder and a GRU decoder that attends, two ways.

Encoder: h_j = [→h_j ; ←h_j], one annotation of width 2·hidden per source character.
The decoder's state has the same width, so dot and scaled-dot need no projection.

Bahdanau (2014), ``model="bahdanau"``: the query is the *previous* state s_{i−1};
    α_i = normalise(score(s_{i−1}, h)),  c_i = Σ_j α_ij h_j,
    s_i = GRU([E y_{i−1} ; c_i], s_{i−1}),  p(y_i) = softmax(W_o [s_i ; c_i ; E y_{i−1}]).
Luong (2015), ``model="luong"``: the query is the *current* state h_t (with input feeding);
    h_t = GRU([E y_{t−1} ; h̃_{t−1}], h_{t−1}),  α_t = normalise(score(h_t, h)),  c_t = Σ_j α_tj h_j,
    h̃_t = tanh(W_c [c_t ; h_t]),  p(y_t) = softmax(W_s h̃_t).

Either way the attention is ``explorer.core.attention.attend_heads`` with one head and the
*trained* scoring parameters (additive W₁, W₂, v; general W), so every score can be redone
by ``explorer.core.worked``. With one head, the core's leading "heads" axis carries the batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from explorer.core.attention import HeadStages, Settings, attend_heads
from explorer.core.scoring import ScoringParams
from explorer.seq2seq.dates import TARGET_LENGTH
from explorer.seq2seq.spec import ModelSpec, core_settings
from explorer.seq2seq.vocab import BOS, PAD, TARGET_TOKENS


class TrainedAttention(nn.Module):
    """One head of attention; additive and general scoring carry trained parameters."""

    def __init__(self, scoring: str, d_query: int, d_key: int, d_attention: int):
        super().__init__()
        self.scoring = scoring
        if scoring == "additive":  # vᵀ tanh(W₁ q + W₂ k), in the core's [heads, d_in, d_a] layout
            self.w_query = nn.Parameter(torch.randn(1, d_query, d_attention) / d_query**0.5)
            self.w_key = nn.Parameter(torch.randn(1, d_key, d_attention) / d_key**0.5)
            self.v = nn.Parameter(torch.randn(1, d_attention) / d_attention**0.5)
        elif scoring == "general":  # qᵀ W k
            self.bilinear = nn.Parameter(torch.randn(1, d_query, d_key) / d_query**0.5)

    def params(self) -> ScoringParams:
        if self.scoring == "additive":
            return ScoringParams(w_query=self.w_query, w_key=self.w_key, v=self.v)
        if self.scoring == "general":
            return ScoringParams(bilinear=self.bilinear)
        return ScoringParams()

    def forward(
        self, query: torch.Tensor, keys: torch.Tensor, mask: torch.Tensor | None, settings: Settings
    ) -> HeadStages:
        """query [B, d_q], keys = values [B, n, d_k], mask [B, 1, n] (True = a real character)."""
        return attend_heads(query[:, None, :], keys, keys, settings, self.params(), mask)


class BiGRUEncoder(nn.Module):
    def __init__(self, vocab_size: int, embed: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed, padding_idx=PAD)
        self.gru = nn.GRU(embed, hidden, batch_first=True, bidirectional=True)

    def forward(self, source: torch.Tensor, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Annotations [B, n, 2·hidden] and the two directions' final states [B, 2·hidden]."""
        x = self.embed(source)
        n = source.shape[1]
        if bool((lengths == n).all()):
            annotations, final = self.gru(x)
        else:  # packed, so the backward GRU starts at each text's own last character
            packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
            out, final = self.gru(packed)
            annotations, _ = pad_packed_sequence(out, batch_first=True, total_length=n)
        return annotations, torch.cat([final[0], final[1]], dim=-1)


class BahdanauDecoder(nn.Module):
    def __init__(self, spec: ModelSpec, width: int):
        super().__init__()
        self.embed = nn.Embedding(len(TARGET_TOKENS), spec.embed)
        self.attention = TrainedAttention(spec.scoring, width, width, spec.attention_dim)
        self.cell = nn.GRUCell(spec.embed + width, width)
        self.out = nn.Linear(width + width + spec.embed, len(TARGET_TOKENS))

    def start(self, initial: torch.Tensor):
        return initial

    def step(self, prev: torch.Tensor, state, keys, mask, settings: Settings):
        query = state  # s_{i-1}: the state *before* this output is written
        stages = self.attention(query, keys, mask, settings)
        context = stages.head_outputs[:, 0]
        e = self.embed(prev)
        new_state = self.cell(torch.cat([e, context], dim=-1), state)
        logits = self.out(torch.cat([new_state, context, e], dim=-1))
        return logits, new_state, stages, query


class LuongDecoder(nn.Module):
    def __init__(self, spec: ModelSpec, width: int):
        super().__init__()
        self.embed = nn.Embedding(len(TARGET_TOKENS), spec.embed)
        self.attention = TrainedAttention(spec.scoring, width, width, spec.attention_dim)
        self.cell = nn.GRUCell(spec.embed + width, width)  # input feeding: [E y ; h̃_{t-1}]
        self.combine = nn.Linear(2 * width, width)  # W_c
        self.out = nn.Linear(width, len(TARGET_TOKENS))  # W_s

    def start(self, initial: torch.Tensor):
        return initial, torch.zeros_like(initial)

    def step(self, prev: torch.Tensor, state, keys, mask, settings: Settings):
        h, attentional = state
        h = self.cell(torch.cat([self.embed(prev), attentional], dim=-1), h)
        stages = self.attention(h, keys, mask, settings)  # query h_t: the state *after* reading y_{t-1}
        context = stages.head_outputs[:, 0]
        attentional = torch.tanh(self.combine(torch.cat([context, h], dim=-1)))
        return self.out(attentional), (h, attentional), stages, h


@dataclass
class GRUDecode:
    """Greedy decoding of a batch; every tensor is per output step."""

    tokens: torch.Tensor  # [B, T]
    queries: torch.Tensor  # [B, T, d] the decoder states used as queries
    keys: torch.Tensor  # [B, n, d] the annotations (also the values)
    scores: torch.Tensor  # [B, T, n]
    scaled: torch.Tensor  # [B, T, n]
    weights: torch.Tensor  # [B, T, n] what each step used (soft, hard or sampled)
    context: torch.Tensor  # [B, T, d]
    scale_divisor: float

    @property
    def alignment(self) -> torch.Tensor:
        return self.weights


class GRUTranslator(nn.Module):
    def __init__(self, spec: ModelSpec):
        super().__init__()
        self.spec = spec
        width = 2 * spec.hidden
        self.encoder = BiGRUEncoder(len(spec.source_chars) + 2, spec.embed, spec.hidden)
        self.bridge = nn.Linear(width, width)  # s_0 = tanh(W [→h_n ; ←h_1])
        decoder = BahdanauDecoder if spec.model == "bahdanau" else LuongDecoder
        self.decoder = decoder(spec, width)

    def encode(self, source: torch.Tensor, lengths: torch.Tensor):
        annotations, final = self.encoder(source, lengths)
        visible = source != PAD
        mask = None if bool(visible.all()) else visible[:, None, :]  # [B, 1, n]
        return annotations, mask, self.decoder.start(torch.tanh(self.bridge(final)))

    def forward(self, source: torch.Tensor, lengths: torch.Tensor, target_in: torch.Tensor) -> torch.Tensor:
        """Teacher forcing with soft attention: logits [B, T, vocab]."""
        keys, mask, state = self.encode(source, lengths)
        settings = core_settings(self.spec.scoring)
        logits = []
        for t in range(target_in.shape[1]):
            step_logits, state, _, _ = self.decoder.step(target_in[:, t], state, keys, mask, settings)
            logits.append(step_logits)
        return torch.stack(logits, dim=1)

    def greedy(
        self, source: torch.Tensor, lengths: torch.Tensor, attention: str = "soft", seed: int = 0
    ) -> GRUDecode:
        """Write the answer one character at a time, each step feeding back its own choice."""
        keys, mask, state = self.encode(source, lengths)
        prev = torch.full((source.shape[0],), BOS, dtype=torch.long, device=source.device)
        rows: dict[str, list[torch.Tensor]] = {k: [] for k in ("tokens", "q", "sc", "sd", "w", "c")}
        divisor = 1.0
        for t in range(TARGET_LENGTH):
            # A fresh draw per step for sampled attention; the same seed, the same draws.
            settings = core_settings(self.spec.scoring, attention, seed * TARGET_LENGTH + t)
            logits, state, stages, query = self.decoder.step(prev, state, keys, mask, settings)
            logits[:, BOS] = float("-inf")  # <bos> is never an answer
            prev = logits.argmax(dim=-1)
            divisor = stages.scale_divisor
            for key, value in zip(
                ("tokens", "q", "sc", "sd", "w", "c"),
                (prev, query, stages.scores, stages.scaled, stages.weights, stages.head_outputs),
            ):
                rows[key].append(value if value.dim() < 3 else value[:, 0])
        stack = {k: torch.stack(v, dim=1) for k, v in rows.items()}
        return GRUDecode(
            stack["tokens"], stack["q"], keys, stack["sc"], stack["sd"], stack["w"], stack["c"], divisor
        )
