"""Word-level encoder–decoders, with and without attention, for any task of explorer.seq2seq.tasks.

Both read the source with the same bidirectional GRU (explorer.seq2seq.rnn.BiGRUEncoder):
annotations h_j = [→h_j ; ←h_j] and the final states C = [→h_n ; ←h_1].

``no-attention`` (Cho et al. 2014's RNN encoder–decoder, Bahdanau et al. 2015's "RNNenc"): the
decoder reads one fixed vector, C, at every step — the same tensor, never recomputed:
    s_0 = tanh(W_b C),  s_i = GRU([E y_{i−1} ; C], s_{i−1}),  p(y_i) = softmax(W_s tanh(W_c [s_i ; C ; E y_{i−1}])).
``attention`` (global attention on the decoder state, Luong et al. 2015 without input feeding):
    s_0 = tanh(W_b C),  s_i = GRU(E y_{i−1}, s_{i−1}),  α_i = softmax(score(s_i, h)),  c_i = Σ_j α_ij h_j,
    p(y_i) = softmax(W_s tanh(W_c [c_i ; s_i])).
Without input feeding the decoder's states do not depend on the attention, so training runs
one GRU call over the whole answer and one attention call over every step (several times
faster per step than a step loop, which is what lets the length experiment train in seconds).
The attention is explorer.core.attention.attend_heads with the batch on its heads axis.

Adding a model: a ``SequenceModel`` subclass with ``forward`` (teacher forcing → logits) and
``greedy`` (→ ``SequenceDecode``), registered with ``@register("name")``; ``SequenceSpec``
carries its sizes, checkpoints and the commands find it by name.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace

import torch
from torch import nn

from explorer.core.attention import Settings, attend_heads
from explorer.seq2seq.rnn import BiGRUEncoder, TrainedAttention
from explorer.seq2seq.spec import SCORINGS, LabError, core_settings
from explorer.seq2seq.tasks import BOS, EOS, PAD, TokenVocabulary

SEQUENCE_MODELS: dict[str, Callable[[SequenceSpec], SequenceModel]] = {}
MODEL_NOTES: dict[str, str] = {}  # one line per model: what its decoder reads


def register(name: str, note: str):
    def add(cls):
        SEQUENCE_MODELS[name] = cls
        MODEL_NOTES[name] = note
        cls.name = name
        return cls

    return add


@dataclass(frozen=True)
class SequenceSpec:
    model: str
    task: str
    source_tokens: tuple[str, ...]
    target_tokens: tuple[str, ...]
    embed: int = 32  # word embedding width, both sides
    hidden: int = 64  # encoder GRU width per direction; the decoder has 2 × hidden
    scoring: str = "additive"  # attention models (each task has its own default: Task.scoring)
    attention_dim: int = 64  # additive scoring's d_a
    max_source: int = 160
    window: int = 3  # local attention's D: the window [p_t − D, p_t + D] (local_attention.py)

    def __post_init__(self) -> None:
        if self.model not in SEQUENCE_MODELS:
            raise LabError.of("seq2seq.model_unknown", value=self.model, choices=", ".join(SEQUENCE_MODELS))
        if self.scoring not in SCORINGS:
            raise LabError.of("seq2seq.scoring_unknown", value=self.scoring, choices=", ".join(SCORINGS))
        for name in ("embed", "hidden", "attention_dim", "max_source", "window"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise LabError.of("seq2seq.not_positive", name=name, value=value)

    @property
    def name(self) -> str:
        """``compound-fr-attention``: the checkpoint folder's name."""
        return f"{self.task}-{self.model}"

    @property
    def vocab(self) -> TokenVocabulary:
        return TokenVocabulary(self.source_tokens, self.target_tokens)

    def with_(self, **changes) -> SequenceSpec:
        return replace(self, **changes)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["source_tokens"], data["target_tokens"] = list(self.source_tokens), list(self.target_tokens)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> SequenceSpec:
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise LabError.of("seq2seq.unknown_settings", keys=", ".join(sorted(unknown)))
        data = dict(data)
        for key in ("source_tokens", "target_tokens"):
            data[key] = tuple(data.get(key, ()))
        return cls(**data)


def sequence_spec(model: str, task, **sizes) -> SequenceSpec:
    """The spec of ``model`` on ``task`` (an explorer.seq2seq.tasks.Task): the task's scoring and
    the default sizes, unless ``sizes`` says otherwise."""
    sizes = {"scoring": task.scoring, "max_source": task.max_source, **sizes}
    return SequenceSpec(model, task.name, task.source_tokens, task.target_tokens, **sizes)


def build_sequence_model(spec: SequenceSpec) -> SequenceModel:
    """A fresh, untrained module (weights from torch's current generator)."""
    return SEQUENCE_MODELS[spec.model](spec)


def parameter_count(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


@dataclass
class SequenceDecode:
    """Greedy decoding of a batch, per output step (T = the longest answer written)."""

    tokens: torch.Tensor  # [B, T] ids; after a row's <eos> only <pad>
    states: torch.Tensor  # [B, T, d] the decoder states s_i
    context: torch.Tensor  # [B, T, d] what each step read of the source (c_i, or the fixed C)
    weights: torch.Tensor | None  # [B, T, n] attention weights; None for a model without attention
    scores: torch.Tensor | None = None  # [B, T, n]
    scaled: torch.Tensor | None = None  # [B, T, n]
    annotations: torch.Tensor | None = None  # [B, n, d] h_j (keys = values)


class SequenceModel(nn.Module, ABC):
    name = ""
    has_attention = True

    def __init__(self, spec: SequenceSpec):
        super().__init__()
        self.spec = spec
        self.width = 2 * spec.hidden
        vocab = spec.vocab
        self.encoder = BiGRUEncoder(vocab.source_size, spec.embed, spec.hidden)
        self.bridge = nn.Linear(self.width, self.width)  # s_0 = tanh(W_b C)
        self.target_embed = nn.Embedding(vocab.target_size, spec.embed, padding_idx=PAD)

    def encode(self, source: torch.Tensor, lengths: torch.Tensor):
        """(annotations [B, n, d], the padding mask [B, 1, n] or None, C [B, d], s_0 [B, d])."""
        annotations, final = self.encoder(source, lengths)
        visible = source != PAD
        mask = None if bool(visible.all()) else visible[:, None, :]
        return annotations, mask, final, torch.tanh(self.bridge(final))

    @abstractmethod
    def greedy(self, source: torch.Tensor, lengths: torch.Tensor, max_steps: int) -> SequenceDecode:
        """Translate greedily, at most ``max_steps`` outputs, keeping every stage of each step."""


def _finish(tokens: list[torch.Tensor]) -> torch.Tensor:
    """[B, T] ids with <pad> after each row's first <eos>."""
    stacked = torch.stack(tokens, dim=1)
    ended = (stacked == EOS).cumsum(dim=1)
    after = (ended - (stacked == EOS).long()) > 0
    return stacked.masked_fill(after, PAD)


@register("no-attention", "one fixed context C = [→h_n ; ←h_1], the same at every output step")
class FixedContextTranslator(SequenceModel):
    has_attention = False

    def __init__(self, spec: SequenceSpec):
        super().__init__(spec)
        d, e = self.width, spec.embed
        self.cell = nn.GRU(e + d, d, batch_first=True)
        self.combine = nn.Linear(d + d + e, d)  # W_c [s_i ; C ; E y_{i-1}]
        self.out = nn.Linear(d, spec.vocab.target_size)

    def forward(self, source, lengths, target_in) -> torch.Tensor:
        _, _, context, state = self.encode(source, lengths)
        e = self.target_embed(target_in)
        fixed = context[:, None, :].expand(-1, e.shape[1], -1)  # one C, read by every step
        states, _ = self.cell(torch.cat([e, fixed], dim=-1), state[None])
        return self.out(torch.tanh(self.combine(torch.cat([states, fixed, e], dim=-1))))

    def greedy(self, source, lengths, max_steps: int) -> SequenceDecode:
        _, _, context, state = self.encode(source, lengths)
        prev = torch.full((source.shape[0],), BOS, dtype=torch.long, device=source.device)
        hidden = state[None]
        tokens, states, done = [], [], None
        for _ in range(max_steps):
            e = self.target_embed(prev)
            out, hidden = self.cell(torch.cat([e, context], dim=-1)[:, None], hidden)
            s = out[:, 0]
            logits = self.out(torch.tanh(self.combine(torch.cat([s, context, e], dim=-1))))
            logits[:, :EOS] = float("-inf")  # <pad> and <bos> are never written
            prev = logits.argmax(dim=-1)
            tokens.append(prev)
            states.append(s)
            done = prev == EOS if done is None else done | (prev == EOS)
            if bool(done.all()):
                break
        ids = _finish(tokens)
        steps = ids.shape[1]
        # The very same C for every step: a view of one tensor, not T copies that happen to agree.
        return SequenceDecode(ids, torch.stack(states, 1), context[:, None, :].expand(-1, steps, -1), None)


@register("attention", "global attention: each output step reads its own c_i = Σ_j α_ij h_j")
class AttentionTranslator(SequenceModel):
    def __init__(self, spec: SequenceSpec):
        super().__init__(spec)
        d, e = self.width, spec.embed
        self.cell = nn.GRU(e, d, batch_first=True)
        self.attention = TrainedAttention(spec.scoring, d, d, spec.attention_dim)
        self.combine = nn.Linear(d + d, d)  # W_c [c_i ; s_i]
        self.out = nn.Linear(d, spec.vocab.target_size)
        self._settings: dict[str, Settings] = {}  # explorer.core's settings per attention kind

    def _attend(self, states, annotations, mask, attention: str = "soft"):
        """Every step at once: the batch on the core's heads axis, the steps as its queries.
        The weights' entropy is left out (nothing here shows it; every other stage is the same
        number): fewer passes, and less Python on a thread that shares the interpreter with
        the window."""
        settings = self._settings.get(attention)
        if settings is None:
            settings = self._settings[attention] = core_settings(self.spec.scoring, attention)
        return attend_heads(
            states, annotations, annotations, settings, self.attention.params(), mask, entropy=False
        )

    def forward(self, source, lengths, target_in) -> torch.Tensor:
        annotations, mask, _, state = self.encode(source, lengths)
        states, _ = self.cell(self.target_embed(target_in), state[None])
        stages = self._attend(states, annotations, mask)
        return self.out(torch.tanh(self.combine(torch.cat([stages.head_outputs, states], dim=-1))))

    def greedy(self, source, lengths, max_steps: int) -> SequenceDecode:
        annotations, mask, _, state = self.encode(source, lengths)
        prev = torch.full((source.shape[0],), BOS, dtype=torch.long, device=source.device)
        hidden = state[None]
        rows: dict[str, list[torch.Tensor]] = {k: [] for k in ("tokens", "s", "c", "w", "sc", "sd")}
        done = None
        for _ in range(max_steps):
            out, hidden = self.cell(self.target_embed(prev)[:, None], hidden)
            stages = self._attend(out, annotations, mask)
            c = stages.head_outputs[:, 0]
            logits = self.out(torch.tanh(self.combine(torch.cat([c, out[:, 0]], dim=-1))))
            logits[:, :EOS] = float("-inf")
            prev = logits.argmax(dim=-1)
            for key, value in zip(
                ("tokens", "s", "c", "w", "sc", "sd"),
                (prev, out[:, 0], c, stages.weights[:, 0], stages.scores[:, 0], stages.scaled[:, 0]),
            ):
                rows[key].append(value)
            done = prev == EOS if done is None else done | (prev == EOS)
            if bool(done.all()):
                break
        ids = _finish(rows["tokens"])
        stack = {k: torch.stack(v, 1) for k, v in rows.items() if k != "tokens"}
        return SequenceDecode(ids, stack["s"], stack["c"], stack["w"], stack["sc"], stack["sd"], annotations)
