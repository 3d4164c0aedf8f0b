"""What a language model would write next, for the window: the worker's job and its answer.

The Pipeline tab shows, beside a decoder's attention, the most likely next tokens after one
position of the text: the selected cell's row (the query whose attention is shown), else
the last token. They come from the model's own forward (every layer with its own causal
attention, then the final norm and the LM head), whatever options the attention stages are
drawn with. Qt-free: the window submits ``next_tokens_job`` on its worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer.core.config import AttentionConfig
from explorer.core.engine import clean_text

SHOWN = 10  # the panel's top-k


@dataclass(frozen=True)
class NextTokenChoice:
    token: str  # the model's token, labelled as the trace labels it ("␣the", "我 1/3")
    token_id: int
    probability: float
    # The text with this token written after it; None where no text spells the ids so far
    # and this one (a byte of a character split over tokens cannot be typed alone).
    written: str | None = None


@dataclass(frozen=True)
class NextTokens:
    """The top next tokens after ``position`` of the text of ``config``."""

    config: AttentionConfig
    position: int
    choices: tuple[NextTokenChoice, ...]

    @property
    def shown_mass(self) -> float:
        """The probability of all the listed tokens together (the rest: every other token)."""
        return sum(c.probability for c in self.choices)


def next_token_position(selected_cell: tuple[int, int] | None, n_tokens: int) -> int:
    """The selected cell's row (the query shown), else the last token."""
    if n_tokens <= 0:
        return 0
    if selected_cell is None:
        return n_tokens - 1
    return min(max(selected_cell[0], 0), n_tokens - 1)


def next_tokens_job(engine: Any, config: AttentionConfig, position: int, k: int = SHOWN) -> NextTokens:
    """The worker's job: the k most likely next tokens after one position (the engine's
    cached forward of this text, so a new selection costs only the LM head's row), and after
    the last token the text each would write."""
    (entries,) = engine.next_tokens(config, k, positions=[position])
    model = engine.decoder(config)
    limit = min(config.max_tokens, model.max_tokens)
    ids = list(model.tokenizer.encode(clean_text(config.sentence)[0], limit).ids)
    last = position == len(ids) - 1
    return NextTokens(
        config,
        position,
        tuple(
            NextTokenChoice(
                e["token"],
                int(e["id"]),
                float(e["probability"]),
                written_text(model.tokenizer, ids, int(e["id"]), limit) if last else None,
            )
            for e in entries
        ),
    )


def written_text(tokenizer: Any, ids: list[int], token_id: int, limit: int) -> str | None:
    """The text that the tokenizer reads back as ``ids`` and then ``token_id``, or None."""
    wanted = [*ids, token_id]
    text = tokenizer.text_of(wanted)
    if len(wanted) > limit or clean_text(text)[0] != text:  # a control character: the engine drops it
        return None
    return text if list(tokenizer.encode(text, limit).ids) == wanted else None
