"""Local attention (Luong, Pham & Manning 2015, §3.2): each output step reads a window of the source.

For output step t, with source positions s = 0 … S − 1 and the window's half-width D:

    p_t          the window's centre (below: how each model chooses it)
    window_t     the positions s with |s − p_t| ≤ D, inside the sentence
    align_t(s)   softmax of score(h_t, h̄_s) over the window, 0 outside it: explorer.core's
                 ``attend_heads`` with the window as its mask
    a_t(s)     = align_t(s) · exp(−(s − p_t)² / (2σ²)),  σ = D / 2     (the paper's eq. 10,
                 not renormalised: the weights of a step sum to less than 1)
    c_t        = Σ_s a_t(s) h̄_s

The models differ only in p_t:

    local-m       p_t = t: output word t looks at source word t (monotonic alignment)
    local-p       p_t = S · sigmoid(v_pᵀ tanh(W_p h_t)) (predictive alignment, the paper's eq. 9);
                  the Gaussian is what lets the loss move p_t (the window's edges have no gradient)
    local-p-ours  NOT the paper's, ours: p_t = clamp(r_t, 0, S − 1) with r_t = r_{t−1} + softplus(v_pᵀ
                  tanh(W_p h_t)) and r_{−1} = −1. The window moves forward by a learned step each word,
                  so the decoder learns a step size instead of an absolute position it must count up
                  to; it cannot move back (reordering beyond D is out of its reach)
    global        every position of the sentence and no Gaussian: global attention, the same decoder

Everything else is the ``attention`` model's decoder (explorer.seq2seq.sequence_models): the same
encoder, s_0, GRU, scoring, W_c and W_s, with the decoder state h_t as the query and no input
feeding, so the decoder's states never depend on the attention and training computes every
step at once (local-m's and local-p's centres come from each h_t alone, ours from a running
sum). ``global`` with an ``attention`` model's weights computes that model's numbers exactly.

``model.with_window(D)`` reads the same trained weights through another window (a shallow copy:
the parameters are shared); the trained D is ``spec.window``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from explorer.seq2seq import local_messages as local_messages  # registers seq2seq.window_*
from explorer.seq2seq.sequence_models import (
    AttentionTranslator,
    SequenceDecode,
    SequenceSpec,
    _finish,
    register,
)
from explorer.seq2seq.spec import LabError
from explorer.seq2seq.tasks import BOS, EOS

LOCAL_MODELS = ("local-m", "local-p", "local-p-ours")
WINDOW_MODELS = ("global", *LOCAL_MODELS)  # the models of this module, global beside the local ones
# How each model places its window, for the trace and the lesson.
CENTRE_RULES = {
    "global": "every source position, no window",
    "local-m": "p_t = t",
    "local-p": "p_t = S · sigmoid(v_pᵀ tanh(W_p h_t))",
    "local-p-ours": "p_t = clamp(p_{t−1} + softplus(v_pᵀ tanh(W_p h_t)), 0, S − 1)  (ours, not Luong's)",
}


@dataclass
class WindowStages:
    """One attention call's numbers, every output step of a batch: [B, T, …]."""

    centres: torch.Tensor | None  # [B, T] p_t; None for global attention
    window: torch.Tensor  # [B, T or 1, n] bool, True where step t may read position s
    scores: torch.Tensor  # [B, T, n] score(h_t, h̄_s) at every position
    scaled: torch.Tensor  # [B, T, n]
    align: torch.Tensor  # [B, T, n] softmax over the window, 0 outside it
    gaussian: torch.Tensor | None  # [B, T, n] exp(−(s − p_t)² / 2σ²); None for global attention
    weights: torch.Tensor  # [B, T, n] a_t(s) = align · gaussian (global: align)
    context: torch.Tensor  # [B, T, d] c_t


@dataclass
class WindowDecode(SequenceDecode):
    """Greedy decoding with the window of every step (see SequenceDecode for the rest)."""

    centres: torch.Tensor | None = None  # [B, T] p_t
    window: torch.Tensor | None = None  # [B, T, n] bool
    align: torch.Tensor | None = None  # [B, T, n]
    gaussian: torch.Tensor | None = None  # [B, T, n]
    half_width: int = 0  # the D this decode read with


def check_window(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise LabError.of("seq2seq.not_positive", name="window", value=value)
    return value


def window_mask(centres: torch.Tensor, n: int, half_width: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(|s − p_t| ≤ D for every position s, as bool [.., n]; the offsets s − p_t)."""
    offsets = torch.arange(n, device=centres.device, dtype=centres.dtype) - centres[..., None]
    return offsets.abs() <= half_width, offsets


@register("global", "global attention: every source position, on the decoder the local models share")
class WindowedTranslator(AttentionTranslator):
    centre = "global"

    def __init__(self, spec: SequenceSpec):
        super().__init__(spec)
        self.half_width = check_window(spec.window)
        if self.centre in ("local-p", "local-p-ours"):  # W_p and v_p (no biases, as in the paper)
            self.position_w = nn.Linear(self.width, self.width, bias=False)
            self.position_v = nn.Linear(self.width, 1, bias=False)

    def with_window(self, half_width: int) -> WindowedTranslator:
        """The same trained weights reading a window of half-width ``half_width``."""
        clone = copy.copy(self)  # parameters shared: nothing is trained or copied
        clone.half_width = check_window(half_width)
        return clone

    # -- where the window sits ---------------------------------------------------------------
    def position_logits(self, states: torch.Tensor) -> torch.Tensor:
        """v_pᵀ tanh(W_p h_t) for every step: [B, T]."""
        return self.position_v(torch.tanh(self.position_w(states)))[..., 0]

    def centres_of(
        self, states: torch.Tensor, lengths: torch.Tensor, first_step: int, running: torch.Tensor | None
    ) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        """p_t for steps first_step … first_step + T − 1 (None for global attention), and for ours
        the running sum r after the last of them (``running``: r before the first; None at the start)."""
        batch, steps = states.shape[:2]
        length = lengths.to(states.device, states.dtype)[:, None]  # S
        if self.centre == "local-m":
            t = torch.arange(first_step, first_step + steps, device=states.device, dtype=states.dtype)
            return t.expand(batch, steps), None
        if self.centre == "local-p":
            return length * torch.sigmoid(self.position_logits(states)), None
        if self.centre == "local-p-ours":
            start = states.new_full((batch,), -1.0) if running is None else running
            r = start[:, None] + torch.cumsum(F.softplus(self.position_logits(states)), dim=1)
            return torch.minimum(r.clamp(min=0.0), length - 1), r[:, -1]
        return None, None

    # -- what it reads -----------------------------------------------------------------------
    def look(
        self,
        states: torch.Tensor,
        annotations: torch.Tensor,
        visible: torch.Tensor | None,
        centres: torch.Tensor | None,
        attention: str = "soft",
    ) -> WindowStages:
        """Every step's attention at once: the window as the core's mask, then the Gaussian."""
        if centres is None:
            stages = self._attend(states, annotations, visible, attention)
            window = stages.mask.expand(states.shape[0], -1, -1) if stages.mask.dim() == 2 else stages.mask
            return WindowStages(
                None, window, stages.scores, stages.scaled, stages.weights, None, stages.weights,
                stages.head_outputs,
            )  # fmt: skip
        window, offsets = window_mask(centres, annotations.shape[1], self.half_width)
        if visible is not None:
            window = window & visible
        stages = self._attend(states, annotations, window, attention)
        sigma = self.half_width / 2
        gaussian = torch.exp(-(offsets**2) / (2 * sigma**2))
        weights = stages.weights * gaussian
        context = weights @ annotations
        return WindowStages(
            centres, window, stages.scores, stages.scaled, stages.weights, gaussian, weights, context
        )

    # -- training and decoding ---------------------------------------------------------------
    def read(self, source, lengths, target_in) -> tuple[torch.Tensor, WindowStages]:
        """Teacher forcing: (logits [B, T, vocab], every step's window and weights)."""
        annotations, visible, _, state = self.encode(source, lengths)
        states, _ = self.cell(self.target_embed(target_in), state[None])
        centres, _ = self.centres_of(states, lengths, 0, None)
        looked = self.look(states, annotations, visible, centres)
        return self.out(torch.tanh(self.combine(torch.cat([looked.context, states], dim=-1)))), looked

    def forward(self, source, lengths, target_in) -> torch.Tensor:
        return self.read(source, lengths, target_in)[0]

    def greedy(self, source, lengths, max_steps: int, attention: str = "soft") -> WindowDecode:
        annotations, visible, _, state = self.encode(source, lengths)
        prev = torch.full((source.shape[0],), BOS, dtype=torch.long, device=source.device)
        hidden, running, done = state[None], None, None
        keys = ("tokens", "s", "c", "w", "sc", "sd", "p", "win", "al", "g")
        rows: dict[str, list[torch.Tensor]] = {k: [] for k in keys}
        for t in range(max_steps):
            out, hidden = self.cell(self.target_embed(prev)[:, None], hidden)
            centres, running = self.centres_of(out, lengths, t, running)
            looked = self.look(out, annotations, visible, centres, attention)
            c = looked.context[:, 0]
            logits = self.out(torch.tanh(self.combine(torch.cat([c, out[:, 0]], dim=-1))))
            logits[:, :EOS] = float("-inf")  # <pad> and <bos> are never written
            prev = logits.argmax(dim=-1)
            step = (
                prev, out[:, 0], c, looked.weights[:, 0], looked.scores[:, 0], looked.scaled[:, 0],
                None if looked.centres is None else looked.centres[:, 0], looked.window[:, 0],
                looked.align[:, 0], None if looked.gaussian is None else looked.gaussian[:, 0],
            )  # fmt: skip
            for key, value in zip(keys, step):
                if value is not None:
                    rows[key].append(value)
            done = prev == EOS if done is None else done | (prev == EOS)
            if bool(done.all()):
                break
        ids = _finish(rows["tokens"])
        stack = {k: torch.stack(v, 1) for k, v in rows.items() if k != "tokens" and v}
        return WindowDecode(
            ids, stack["s"], stack["c"], stack["w"], stack["sc"], stack["sd"], annotations,
            stack.get("p"), stack["win"], stack["al"], stack.get("g"), self.half_width,
        )  # fmt: skip


@register("local-m", "local-m: a window of 2D + 1 source words centred on p_t = t, weighed by a Gaussian")
class MonotonicTranslator(WindowedTranslator):
    centre = "local-m"


@register("local-p", "local-p: the window's centre p_t = S · sigmoid(v_pᵀ tanh(W_p h_t)) predicted per step")
class PredictiveTranslator(WindowedTranslator):
    centre = "local-p"


@register(
    "local-p-ours",
    "ours, not Luong's: the window moves forward by a learned step, p_t = p_{t−1} + softplus(v_pᵀ tanh(W_p h_t))",
)
class SteppingTranslator(WindowedTranslator):
    centre = "local-p-ours"
