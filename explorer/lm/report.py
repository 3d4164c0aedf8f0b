"""What a trained model learned, as numbers: the record a folder keeps and the command prints.

``model_report(model, vocab, task)`` measures a model on the lab's probe (every head's
scores, both half-losses, which heads are induction and previous-token heads, what turning
each kind off does) and, for the text task, on the held-out paragraphs beside the bigram
baseline. The shipped checkpoints' tests compare a fresh report with the one they carry.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from explorer.lm import tasks
from explorer.lm.ablation import ablate
from explorer.lm.measures import HeadScores, head_scores, probe_measures, ranking
from explorer.lm.model import GPT, Head, next_token_loss
from explorer.lm.train import probe_for
from explorer.lm.vocab import CharVocab


def neither_head(model: GPT, induction: list[Head], previous: list[Head], scores: HeadScores) -> Head | None:
    """The head least like either kind (lowest of its two scores' maximum), for the control."""
    others = [h for h in model.heads if h not in induction and h not in previous]
    if not others:
        return None
    return min(others, key=lambda h: max(scores.induction[h], scores.previous_token[h]))


PROBE_ROWS, PROBE_PERIOD = 16, 24  # the probe a report is measured on (a run's own by default)


def model_report(
    model: GPT, vocab: CharVocab, task: str, rows: int = PROBE_ROWS, period: int = PROBE_PERIOD
) -> dict[str, Any]:
    probe = probe_for(vocab, rows, period)
    base = probe_measures(model, probe, period)
    s = base.scores
    induction, previous = s.induction_heads, s.previous_token_heads
    report = {
        "probe": {"rows": rows, "period": period},
        "first_half_loss": base.first_half_loss,
        "repeated_half_loss": base.repeated_half_loss,
        "scores": {
            name: getattr(s, name).round(4).tolist()
            for name in ("previous_token", "induction", "first_token")
        },
        "induction_ranking": [[la, h, round(v, 4)] for la, h, v in ranking(s.induction)],
        "induction_heads": [list(h) for h in induction],
        "previous_token_heads": [list(h) for h in previous],
    }
    ablations: dict[str, dict[str, Any]] = {}
    control = neither_head(model, induction, previous, s)
    for name, heads in (("induction_heads", induction), ("previous_token_heads", previous),
                        ("neither", [control] if control else [])):  # fmt: skip
        if heads:
            row = ablate(model, probe, period, heads, base)
            ablations[name] = {
                "heads": [list(h) for h in row.heads],
                "repeated_half_loss": row.repeated_half_loss,
                "change": row.change,
            }
    report["ablation"] = ablations
    if task == "text":
        report["text"] = text_report(model)
    return report


def text_report(model: GPT) -> dict[str, Any]:
    """Held-out loss per character beside the baselines (uniform, unigram, the best bigram)."""
    c = tasks.corpus()
    windows = tasks.held_out_windows(c.held_out, model.config.n_positions)
    with torch.no_grad():
        out = model(windows, record=True)
        held_out = float(next_token_loss(out.logits, windows))
    assert out.layers is not None
    # On real text: the weight on the previous character and on the window's first one
    # (induction needs a repeat, which real paragraphs seldom hold within 64 characters).
    on_text = head_scores([layer.stages.weights for layer in out.layers], period=2)
    train_windows = tasks.held_out_windows(c.train, model.config.n_positions)
    with torch.no_grad():
        train = float(next_token_loss(model(train_windows).logits, train_windows))
    bigram, alpha = tasks.best_bigram_loss(c.train, c.held_out, len(c.vocab))
    by_language = {}
    for language, text in c.held_out_by_language.items():
        ids = torch.tensor(c.vocab.encode(text))
        part = tasks.held_out_windows(ids, model.config.n_positions)
        with torch.no_grad():
            loss = float(next_token_loss(model(part).logits, part))
        by_language[language] = {
            "held_out_loss": loss,
            "bigram_held_out_loss": tasks.bigram_loss(c.train, ids, len(c.vocab), alpha),
            "held_out_characters": len(text),
        }
    return {
        "held_out_loss": held_out,
        "train_loss": train,
        "bigram_held_out_loss": bigram,
        "bigram_alpha": alpha,
        "unigram_held_out_loss": tasks.unigram_loss(c.train, c.held_out, len(c.vocab)),
        "uniform_loss": tasks.uniform_loss(len(c.vocab)),
        "train_characters": len(c.train_text),
        "held_out_characters": len(c.held_out_text),
        "vocabulary": len(c.vocab),
        "by_language": by_language,
        "held_out_scores": {
            "previous_token": on_text.previous_token.round(4).tolist(),
            "first_token": on_text.first_token.round(4).tolist(),
        },
    }


def finite(report: dict[str, Any]) -> bool:
    """Every number in the report is finite (the command refuses to write one that is not)."""

    def walk(value: object) -> bool:
        if isinstance(value, dict):
            return all(walk(v) for v in value.values())
        if isinstance(value, (list, tuple)):
            return all(walk(v) for v in value)
        if isinstance(value, float):
            return bool(np.isfinite(value))
        return True

    return walk(report)
