"""What a language model would write next, for the window: the worker's job and its answer.

The Pipeline tab shows, beside a decoder's attention, the most likely next tokens after one
position of the text: the selected cell's row (the query whose attention is shown), else
the last token. They come from the model's own forward (every layer with its own causal
attention, then the final norm and the LM head), whatever options the attention stages are
drawn with. ``state.decoding`` changes them in two ways: sampling shows the distribution a
draw is made from (softmax of logits ÷ temperature over the top-k), and heads turned off
show the probabilities before and after (the forward with those heads' outputs zeroed, or
replaced by their mean, before W_O). Qt-free: the window submits ``next_tokens_job`` on its
worker.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from explorer.appstate.decoding import DecodingOptions
from explorer.atomic import atomic_write
from explorer.core.config import AttentionConfig
from explorer.core.decoding import HeadSet, sampling_distribution, seeded_draw
from explorer.core.engine import clean_text
from explorer.finite import strict_json

SHOWN = 10  # the panel's top-k
NEWCOMERS = 3  # with heads off: the most likely tokens after, shown even when not in the top before


@dataclass(frozen=True)
class NextTokenChoice:
    token: str  # the model's token, labelled as the trace labels it ("␣the", "我 1/3")
    token_id: int
    probability: float  # as the model has it (after temperature and top-k when sampling)
    # The text with this token written after it; None where no text spells the ids so far
    # and this one (a byte of a character split over tokens cannot be typed alone).
    written: str | None = None
    after: float | None = None  # the probability with the heads off (None: none is off)


@dataclass(frozen=True)
class NextTokens:
    """The top next tokens after ``position`` of the text of ``config``."""

    config: AttentionConfig
    position: int
    choices: tuple[NextTokenChoice, ...]
    options: DecodingOptions = DecodingOptions()
    heads: HeadSet | None = None  # the heads off that the model has
    # What Write writes: the most likely token, or the seeded draw when sampling (with the
    # heads off, from the distribution after).
    chosen: NextTokenChoice | None = None

    @property
    def shown_mass(self) -> float:
        """The probability of all the listed tokens together (the rest: every other token)."""
        return sum(c.probability for c in self.choices)

    @property
    def shown_mass_after(self) -> float | None:
        return None if self.heads is None else sum(c.after or 0.0 for c in self.choices)

    @property
    def key(self) -> tuple[object, ...]:
        return (self.config, self.position, self.options)

    def to_dict(self) -> dict[str, Any]:
        """What an export writes: the settings, then one entry per row."""
        off = [] if self.heads is None else [f"{layer}.{head}" for layer, head in sorted(self.heads.heads)]
        return {
            "model": self.config.model_dir or self.config.model,
            "sentence": self.config.sentence,
            "position": self.position,
            "decoding": {**self.options.to_dict(), "heads_off": off},
            "tokens": [
                {
                    "token": c.token,
                    "id": c.token_id,
                    "probability": c.probability,
                    **({} if c.after is None else {"probability_heads_off": c.after}),
                }
                for c in self.choices
            ],
            "chosen": None
            if self.chosen is None
            else {"token": self.chosen.token, "id": self.chosen.token_id},
        }


def next_token_position(selected_cell: tuple[int, int] | None, n_tokens: int) -> int:
    """The selected cell's row (the query shown), else the last token."""
    if n_tokens <= 0:
        return 0
    if selected_cell is None:
        return n_tokens - 1
    return min(max(selected_cell[0], 0), n_tokens - 1)


def next_tokens_job(
    engine: Any,
    config: AttentionConfig,
    position: int,
    options: DecodingOptions | None = None,
    k: int = SHOWN,
) -> NextTokens:
    """The worker's job: the k most likely next tokens after one position (the engine's
    cached forward of this text, so a new selection costs only the LM head's row), with the
    heads off their probabilities after too, and after the last token the text each would write."""
    options = options or DecodingOptions()
    model = engine.decoder(config)
    c = model.config
    heads = options.head_set(c.num_hidden_layers, c.num_attention_heads)
    t, top_k = (options.temperature, options.top_k) if options.sampled else (1.0, 0)
    before = sampling_distribution(engine.next_token_logits(config, [position])[0], t, top_k)
    after = None
    if heads is not None:
        after = sampling_distribution(engine.next_token_logits(config, [position], heads)[0], t, top_k)
    shown = _top(before, k)
    if after is not None:
        shown += [i for i in _top(after, NEWCOMERS) if i not in shown]
    limit = min(config.max_tokens, model.max_tokens)
    ids = list(model.tokenizer.encode(clean_text(config.sentence)[0], limit).ids)
    last = position == len(ids) - 1

    def choice(token_id: int) -> NextTokenChoice:
        return NextTokenChoice(
            model.tokenizer.label_after(ids[: position + 1], token_id),
            token_id,
            float(before[token_id]),
            written_text(model.tokenizer, ids, token_id, limit) if last else None,
            None if after is None else float(after[token_id]),
        )

    now = after if after is not None else before  # the model as it is now: what Write writes from
    # decoding.draw's two steps (sampling_distribution, then seeded_draw), the distribution shown
    chosen = seeded_draw(now, options.seed, position) if options.sampled else int(now.argmax())
    return NextTokens(config, position, tuple(choice(i) for i in shown), options, heads, choice(chosen))


def _top(probabilities: torch.Tensor, k: int) -> list[int]:
    """The ids of the k most likely tokens that can be drawn at all (top-k leaves the rest at 0)."""
    values, index = probabilities.topk(min(k, probabilities.shape[-1]))
    return [int(i) for v, i in zip(values, index) if v > 0]


def written_text(tokenizer: Any, ids: list[int], token_id: int, limit: int) -> str | None:
    """The text that the tokenizer reads back as ``ids`` and then ``token_id``, or None."""
    wanted = [*ids, token_id]
    text = tokenizer.text_of(wanted)
    if len(wanted) > limit or clean_text(text)[0] != text:  # a control character: the engine drops it
        return None
    return text if list(tokenizer.encode(text, limit).ids) == wanted else None


def next_tokens_csv(answer: NextTokens) -> str:
    """One row per token shown: token, id, probability (and with the heads off, where any are)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    ablated = answer.heads is not None
    writer.writerow(["token", "id", "probability", *(["probability_heads_off"] if ablated else [])])
    for c in answer.choices:
        writer.writerow([c.token, c.token_id, repr(c.probability), *([repr(c.after)] if ablated else [])])
    return out.getvalue()


def write_next_tokens(answer: NextTokens, fmt: str, path: str | Path) -> Path:
    """The panel's numbers as CSV (one row per token) or JSON (the settings, the heads off and
    every row), written atomically."""
    if fmt == "csv":
        text = next_tokens_csv(answer)
    elif fmt == "json":
        text = strict_json(answer.to_dict(), Path(path).name, ensure_ascii=False, indent=2)
    else:
        raise ValueError(f"unknown export format {fmt!r}: csv or json")
    atomic_write(path, lambda f: f.write(text))
    return Path(path)
