"""Text written by the lab's GPT one token at a time, with the attention that chose each token.

    steps = generate_steps(model, ids, GenerationSpec(20, "sample", 0.8, top_k=5, seed=3))
    next(steps)     → NewToken: the token, the model's probability of it, the five most likely,
                      and where the writing position looked (every layer and head)
    generate(model, vocab, prompt, spec) → LMGeneration: every step, the text, and per head
                      the matrix [new tokens × text] of the attention that wrote each one

The choice is explorer.core.decoding's ``draw`` (greedy, or seeded sampling with temperature
and top-k), the same as for a pretrained decoder; the seed's generator runs through the steps,
so a window that asks for the tokens one by one gets exactly what ``generate`` returns.
``<|endoftext|>`` is never drawn: the lab never trained on it. Once the context is full it
slides: the oldest tokens leave it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.core.decoding import GenerationSpec, draw
from explorer.lm.model import GPT
from explorer.lm.vocab import CharVocab

TOP = 5  # the most likely tokens kept per step


@dataclass
class NewToken:
    id: int
    token: str
    probability: float  # the model's (softmax of the logits, before temperature and top-k)
    top: list[tuple[str, float]]  # the TOP most likely, with the model's probabilities
    position: int  # the position that wrote it (the last of its context)
    start: int  # the first position of its context (above 0 once the context slides)
    attention: np.ndarray  # [layers, heads, position − start + 1]: the writing position's weights
    logits: np.ndarray = field(repr=False)  # [vocab]: what the choice was made from


def next_token(
    model: GPT,
    ids: list[int],
    spec: GenerationSpec,
    token_of: Callable[[int], str] = str,
    never: int | None = None,
) -> NewToken:
    """The token after ``ids`` (the last n_positions of them), chosen as ``spec`` says
    (``decoding.draw``: seeded by position); ``never``: a token id that is never chosen."""
    start = max(0, len(ids) - model.config.n_positions)
    with torch.no_grad():
        out = model(torch.tensor(ids[start:]), record=True)
    logits = out.logits[-1].double()
    probabilities = torch.softmax(logits, dim=-1)
    allowed = logits.clone()
    if never is not None:
        allowed[never] = float("-inf")
    chosen = draw(allowed, spec, len(ids) - 1)
    top_p, top_ids = probabilities.topk(min(TOP, len(probabilities)))
    return NewToken(
        id=chosen,
        token=token_of(chosen),
        probability=float(probabilities[chosen]),
        top=[(token_of(i), p) for i, p in zip(top_ids.tolist(), top_p.tolist())],
        position=len(ids) - 1,
        start=start,
        attention=np.stack([r.stages.weights[:, -1].numpy() for r in out.layers]),
        logits=logits.numpy(),
    )


def generate_steps(
    model: GPT,
    ids: list[int],
    spec: GenerationSpec,
    token_of: Callable[[int], str] = str,
    never: int | None = None,
) -> Iterator[NewToken]:
    """``spec.tokens`` new tokens after ``ids``, one per ``next`` (the caller may stop early)."""
    if model.training:
        model.eval()  # no dropout while writing
    ids = list(ids)
    for _ in range(spec.tokens):
        new = next_token(model, ids, spec, token_of, never)
        ids.append(new.id)
        yield new


@dataclass
class LMGeneration:
    prompt: list[str]  # the prompt's tokens
    steps: list[NewToken]

    @property
    def tokens(self) -> list[str]:
        """The prompt's tokens and the new ones."""
        return self.prompt + [s.token for s in self.steps]

    @property
    def text(self) -> str:
        return "".join(self.tokens)

    def attention(self, layer: int, head: int) -> np.ndarray:
        """[new tokens, every token]: row r is where the position that wrote new token r
        looked (zero beyond it, and before its context once the context slid)."""
        out = np.zeros((len(self.steps), len(self.tokens)), dtype=np.float32)
        for r, step in enumerate(self.steps):
            out[r, step.start : step.position + 1] = step.attention[layer, head]
        return out


def generate(model: GPT, vocab: CharVocab, prompt: str, spec: GenerationSpec) -> LMGeneration:
    """``spec.tokens`` characters after ``prompt`` (refused with one message when the model
    cannot read it), ``<|endoftext|>`` never among them."""
    ids = vocab.encode(prompt)
    steps = list(generate_steps(model, ids, spec, vocab.token, vocab.end_id))
    return LMGeneration([vocab.token(i) for i in ids], steps)
