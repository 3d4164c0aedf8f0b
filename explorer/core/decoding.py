"""What only a language model can be asked: its next token, text it writes, heads turned off.

Qt-free and independent of the window: the engine calls these with a loaded model and the
hidden states it cached; the trace file and the window's panels read their results.

- ``next_token_entries``: the top-k next tokens after each position, with probabilities
  (final norm → LM head → softmax over the whole vocabulary).
- ``generate``: N tokens written one at a time, greedily or sampled (temperature, top-k,
  seeded), with the attention of the position that wrote each one.
- ``HeadSet`` and the ablation results: heads turned off by zeroing their output before W_O
  or replacing it by its mean over the text, and what changes: a decoder's next-token
  probabilities, an encoder's output vectors (cosine to the unablated ones).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from explorer.core.config import ConfigError
from explorer.core.decoder_pass import Ablation, NextTokens, logits, next_tokens, run_decoder
from explorer.models.ablation import ABLATIONS, editor
from explorer.models.bert import BertEncoder
from explorer.models.decoder import DecoderWeights, PretrainedDecoder
from explorer.models.loader import PretrainedModel
from explorer.models.tokenizer import TextTokenizer

__all__ = [
    "ABLATIONS",
    "DECODINGS",
    "DecoderRequests",
    "Generation",
    "GenerationSpec",
    "HeadSet",
    "check_next_tokens",
    "check_within_vocabulary",
    "decoder_ablation",
    "draw",
    "encoder_ablation",
    "generate",
    "next_token_entries",
    "sampling_distribution",
    "seeded_draw",
]
Entries = list[list[dict[str, Any]]]  # per position: [{"id", "token", "probability"}, …]
DECODINGS = ("greedy", "sample")
MAX_GENERATED = 256
MAX_NEXT_TOKENS = 100


def next_token_entries(tokenizer: TextTokenizer, top: NextTokens) -> Entries:
    """Per position, [{"id", "token", "probability"}, …] most likely first."""
    return [
        [
            {"id": int(i), "token": tokenizer.label(int(i)), "probability": float(p)}
            for i, p in zip(ids, probs)
        ]
        for ids, probs in zip(top.ids, top.probabilities)
    ]


def check_next_tokens(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= MAX_NEXT_TOKENS:
        raise ConfigError.of("decoding.next_tokens", value=k, limit=MAX_NEXT_TOKENS)
    return k


def check_within_vocabulary(option: str, k: int, model: PretrainedDecoder) -> None:
    """``k`` tokens asked for (the top k next, or sampling's top-k) that the vocabulary has:
    refused beyond it rather than clamped, since a top-k of every token and more silently
    meant top-k 0, and more next tokens than there are cannot be written."""
    if k > model.config.vocab_size:
        raise ConfigError.of(
            "decoding.beyond_vocabulary",
            option=option,
            value=k,
            vocabulary=model.config.vocab_size,
            model=model.name,
        )


# -- what a trace is asked beyond the attention -------------------------------------------------


@dataclass(frozen=True)
class DecoderRequests:
    """The trace command's (and ``explorer.trace``'s) questions beyond the attention: the top
    ``next_tokens`` after every position, ``generation`` (written with the ``ablation``'s heads
    off, when any) and ``ablation`` (what turning heads off changes)."""

    next_tokens: int = 0
    generation: GenerationSpec | None = None
    ablation: HeadSet | None = None

    @classmethod
    def of(
        cls,
        next_tokens: int = 0,
        generate: int = 0,
        decoding: str = "greedy",
        temperature: float = 1.0,
        top_k: int = 0,
        seed: int = 0,
        ablate: str | None = None,
        ablation: str = "zero",
    ) -> DecoderRequests:
        """Checked (ConfigError) before anything is computed; ``generate`` 0: nothing written."""
        check_next_tokens(next_tokens)
        generation = None
        if isinstance(generate, bool) or generate != 0:
            generation = GenerationSpec(generate, decoding, temperature, top_k, seed)
        if top_k != 0 and (generation is None or generation.decoding != "sample"):
            # greedy writing takes the most likely token whatever the top-k: never silently ignored
            raise ConfigError.of("decoding.top_k_greedy", value=top_k)
        heads = HeadSet.parse(ablate, ablation) if ablate is not None else None
        return cls(next_tokens, generation, heads)

    def answer(self, engine: Any, config: Any, trace: Any) -> None:
        """Fill the trace's ``generation`` and ``ablation`` (its next tokens come with it)."""
        if self.generation is not None:
            trace.generation = engine.generate(config, self.generation, heads=self.ablation)
        if self.ablation is not None:
            trace.ablation = engine.ablate(config, self.ablation, k=self.next_tokens or 5)


# -- writing --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GenerationSpec:
    """How to write: ``tokens`` new tokens, greedy (the most likely) or sampled from the
    softmax of logits ÷ temperature over the top_k most likely (0: all), seeded."""

    tokens: int
    decoding: str = "greedy"
    temperature: float = 1.0
    top_k: int = 0
    seed: int = 0

    def __post_init__(self) -> None:
        if (
            isinstance(self.tokens, bool)
            or not isinstance(self.tokens, int)
            or not 1 <= self.tokens <= MAX_GENERATED
        ):
            raise ConfigError.of("decoding.tokens", value=self.tokens, limit=MAX_GENERATED)
        if self.decoding not in DECODINGS:
            raise ConfigError.of("decoding.method", value=self.decoding, choices=", ".join(DECODINGS))
        t = self.temperature
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t <= 0:
            raise ConfigError.of("decoding.temperature", value=t)
        if isinstance(self.top_k, bool) or not isinstance(self.top_k, int) or self.top_k < 0:
            raise ConfigError.of("decoding.top_k", value=self.top_k)

    def describe(self) -> dict[str, Any]:
        data: dict[str, Any] = {"tokens": self.tokens, "decoding": self.decoding}
        if self.decoding == "sample":
            data.update(temperature=self.temperature, top_k=self.top_k, seed=self.seed)
        return data


@dataclass
class Generation:
    spec: GenerationSpec
    layer: int
    prompt_ids: list[int]
    ids: list[int] = field(default_factory=list)  # the tokens written
    steps: list[dict[str, Any]] = field(default_factory=list)
    stopped: str = "length"  # "length", "end of text" or "context"
    heads: HeadSet | None = None  # the heads off while writing (None: every head on)

    def to_dict(self, tokenizer: TextTokenizer) -> dict[str, Any]:
        return {
            **self.spec.describe(),
            "heads_off": None if self.heads is None else self.heads.describe(),
            "layer": self.layer,
            "stopped": self.stopped,
            "ids": self.ids,
            "tokens": tokenizer.labels(self.ids) if self.ids else [],
            "text": tokenizer.decode(self.prompt_ids + self.ids),
            "steps": self.steps,
        }


def generate(
    model: PretrainedDecoder,
    ids: list[int],
    spec: GenerationSpec,
    layer: int,
    device: torch.device,
    weights: DecoderWeights | None = None,
    between: Callable[[], None] | None = None,
    heads: HeadSet | None = None,
) -> Generation:
    """Write ``spec.tokens`` tokens after ``ids``; each step records the chosen token, its
    probability, the top 5, and the attention of the writing position (every head of ``layer``).
    With ``heads``, every step is the forward with those heads off (a mean over the text so far)."""
    heads = heads if heads is not None and heads.heads else None
    out = Generation(spec, layer, list(ids), heads=heads)
    ablation = None if heads is None else heads.ablation
    current = list(ids)
    limit, ends = model.max_tokens, set(model.config.eos_token_ids)
    if len(current) >= limit:  # refused, not "0 tokens written" with exit 0 (positions cannot slide)
        raise ConfigError.of("decoding.context_full", model=model.name, limit=limit, most=limit - 1)
    for _ in range(spec.tokens):
        if len(current) >= limit:
            out.stopped = "context"
            break
        run = run_decoder(
            model,
            torch.tensor(current, device=device),
            weights,
            keep_weights=[layer],
            ablation=ablation,
            between_layers=between,
        )
        last = run.final[-1:]
        top = next_tokens(model, last, k=max(5, spec.top_k or 5), weights=weights)
        if spec.decoding == "greedy":
            chosen = int(top.ids[0, 0])
        else:
            chosen = draw(logits(model, last, weights)[0].cpu(), spec, len(current) - 1)
        probability = _probability(model, last, chosen, top, weights)
        out.ids.append(chosen)
        out.steps.append(
            {
                "id": chosen,
                "token": model.tokenizer.label(chosen),
                "probability": probability,
                "top": next_token_entries(model.tokenizer, _first(top, 5))[0],
                "position": len(current) - 1,  # the position that wrote it
                "attention": run.weights[layer][:, -1, :].cpu().numpy().tolist(),
            }
        )
        current.append(chosen)
        if chosen in ends:
            out.stopped = "end of text"
            break
    return out


def sampling_distribution(scores: torch.Tensor, temperature: float = 1.0, top_k: int = 0) -> torch.Tensor:
    """What sampling draws from: softmax(logits ÷ temperature) over the top_k most likely tokens
    (0: every token), zero elsewhere; float64, [vocabulary] (or [n, vocabulary])."""
    scaled = scores.double() / temperature
    if top_k and top_k < scaled.shape[-1]:
        kth = scaled.topk(top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))  # ties at the k-th stay in
    return torch.softmax(scaled, dim=-1)


def seeded_draw(probabilities: torch.Tensor, seed: int, position: int) -> int:
    """One token drawn from ``probabilities`` [vocabulary], the same one for the same seed and
    position: writing from the same text twice writes the same text."""
    gen = torch.Generator().manual_seed(seed * 1_000_003 + position)
    return int(torch.multinomial(probabilities.cpu(), 1, generator=gen))


def _first(top: NextTokens, k: int) -> NextTokens:
    return NextTokens(top.ids[:, :k], top.probabilities[:, :k], top.log_normaliser)


def draw(scores: torch.Tensor, spec: GenerationSpec, position: int) -> int:
    """The token written after ``position`` from its logits [vocab] (on the CPU): the most
    likely (greedy), or drawn from ``sampling_distribution`` with ``seeded_draw`` — the one
    definition behind ``trace --generate``, the window's Write and the LM lab's writing, so the
    same text, seed and settings write the same tokens in each."""
    if spec.decoding == "greedy":
        return int(scores.double().argmax())
    return seeded_draw(sampling_distribution(scores, spec.temperature, spec.top_k), spec.seed, position)


def _probability(
    model: PretrainedDecoder, last: torch.Tensor, chosen: int, top: NextTokens, weights: DecoderWeights | None
) -> float:
    """The model's probability of the chosen token (before temperature and top-k)."""
    where = np.nonzero(top.ids[0] == chosen)[0]
    if where.size:
        return float(top.probabilities[0, where[0]])
    for start, rows in (weights or model.weights).lm_head_chunks():
        if start <= chosen < start + rows.shape[0]:
            logit = float(last[0] @ rows[chosen - start].to(last.device))
            return math.exp(logit - float(top.log_normaliser[0]))
    return 0.0


# -- turning heads off ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HeadSet:
    """Heads as "L.H,L.H" names them: (layer, head) pairs, and how they are turned off."""

    heads: frozenset[tuple[int, int]]
    mode: str = "zero"

    @classmethod
    def parse(cls, text: str, mode: str = "zero") -> HeadSet:
        if mode not in ABLATIONS:
            raise ConfigError.of("decoding.ablation_mode", value=mode, choices=", ".join(ABLATIONS))
        if not isinstance(text, str) or not re.fullmatch(r"\s*\d+\.\d+\s*(,\s*\d+\.\d+\s*)*", text):
            raise ConfigError.of("decoding.ablate_heads", text=str(text))
        pairs = frozenset(
            (int(layer), int(head)) for layer, head in (item.strip().split(".") for item in text.split(","))
        )
        return cls(pairs, mode)

    def check(self, layers: int, heads: int, model: str) -> None:
        for layer, head in sorted(self.heads):
            if layer >= layers or head >= heads:
                raise ConfigError.of(
                    "decoding.head_missing",
                    layer=layer,
                    head=head,
                    model=model,
                    last_layer=layers - 1,
                    last_head=heads - 1,
                )

    @property
    def ablation(self) -> Ablation:
        return Ablation(self.heads, self.mode)

    def names(self) -> str:
        """ "0.1, 2.3": the heads as the command line names them."""
        return ", ".join(f"{layer}.{head}" for layer, head in sorted(self.heads))

    def describe(self) -> dict[str, Any]:
        return {
            "heads": [f"{layer}.{head}" for layer, head in sorted(self.heads)],
            "mode": self.mode,
            "how": "zeroed before W_O"
            if self.mode == "zero"
            else "replaced by its mean over the text, before W_O",
        }


def decoder_ablation(
    model: PretrainedDecoder,
    ids: list[int],
    heads: HeadSet,
    k: int,
    device: torch.device,
    weights: DecoderWeights | None = None,
    plain: torch.Tensor | None = None,
) -> dict[str, Any]:
    """Next-token probabilities before and after, at every position, and how far they moved."""
    ids_t = torch.tensor(ids, device=device)
    plain = plain if plain is not None else run_decoder(model, ids_t, weights).final
    ablated = run_decoder(model, ids_t, weights, ablation=heads.ablation).final
    before, after = next_tokens(model, plain, k, weights), next_tokens(model, ablated, k, weights)
    kl, moved = divergence(
        model, plain, ablated, before.log_normaliser, after.log_normaliser, before.ids[:, 0], weights
    )
    return {
        **heads.describe(),
        "before": next_token_entries(model.tokenizer, before),
        "after": next_token_entries(model.tokenizer, after),
        "top_token_probability_after": moved.tolist(),  # p_after of the unablated top token
        "kl_divergence": kl.tolist(),  # KL(before ‖ after) per position, nats
    }


def divergence(
    model: PretrainedDecoder,
    final_a: torch.Tensor,
    final_b: torch.Tensor,
    log_z_a: np.ndarray,
    log_z_b: np.ndarray,
    top_a: np.ndarray,
    weights: DecoderWeights | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """KL(p_a ‖ p_b) per position and p_b of each position's top token under p_a, a block at a time."""
    store = weights or model.weights
    kl = torch.zeros(final_a.shape[0], dtype=torch.float64)
    top_b = torch.zeros(final_a.shape[0], dtype=torch.float64)
    za, zb = torch.from_numpy(log_z_a).double()[:, None], torch.from_numpy(log_z_b).double()[:, None]
    top = torch.from_numpy(np.asarray(top_a))
    with torch.inference_mode():
        for start, rows in store.lm_head_chunks():
            rows = rows.to(final_a.device)
            la = (final_a @ rows.T).double().cpu() - za
            lb = (final_b @ rows.T).double().cpu() - zb
            kl += (la.exp() * (la - lb)).sum(dim=-1)
            inside = (top >= start) & (top < start + rows.shape[0])
            if inside.any():
                index = torch.nonzero(inside).squeeze(-1)
                top_b[index] = lb[index, top[index] - start].exp()
    return kl.clamp_min(0.0).numpy(), top_b.numpy()


def encoder_ablation(
    model: PretrainedModel,
    ids: list[int],
    heads: HeadSet,
    device: torch.device,
    encoder: BertEncoder | None = None,
) -> dict[str, Any]:
    """The encoder's output vectors (after its last layer) with the heads off, against without."""
    encoder = encoder or model.encoder
    ids_t = torch.tensor(ids, device=device)
    plain = encoder.hidden_states(ids_t)[-1]
    ablated = encoder.hidden_states(ids_t, edit_heads=editor(heads.heads, heads.mode))[-1]
    cosine = torch.nn.functional.cosine_similarity(plain, ablated, dim=-1)
    return {**heads.describe(), "output_cosine": cosine.cpu().numpy().astype(float).round(7).tolist()}
