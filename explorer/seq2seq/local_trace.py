"""Translate one text with a windowed model and keep the window of every output step: what the
``translate`` command writes for global, local-m, local-p and local-p-ours, and what a tab draws.

    trace = translate_window("a b c d e", "copy-twice", "local-p-ours", half_width=2)
    trace.output                   "a a b b c c d d e e"
    trace.centres                  [T] p_t of every word written (None for global attention)
    trace.window_bounds            per step [first, last] source position inside the window, or
                                   None when the window holds no source word (local-m past the end)
    trace.window_mask              [T, n] True inside the window
    trace.scores, trace.scaled     [T, n] score(h_t, h̄_s) at every position, in the window or not
    trace.align                    [T, n] the softmax over the window (0 outside)
    trace.gaussian                 [T, n] exp(−(s − p_t)² / 2σ²), σ = D / 2 (None for global)
    trace.alignment                [T, n] a_t(s) = align · gaussian: what each step read
    trace.true_alignment, trace.true_links   the truth (explorer.seq2seq.sequence_trace)
    trace.centre_distances         per step the truth covers: |p_t − nearest source word it translates|
    trace.centre_count()           (steps p_t within 1 of the truth, steps counted): every step
                                   written, one past the truth's end counted as not within
    trace.steps()                  the same per step as plain values (the JSON's "steps")

``half_width`` reads the trained weights through another window (None: the D it was trained
with, ``trace.trained_half_width``). ``trace_window(module, task, text)`` does the same for any
module, e.g. one being trained.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from explorer.messages import Message
from explorer.seq2seq.local_attention import (
    CENTRE_RULES,
    LOCAL_MODELS,
    WINDOW_MODELS,
    WindowDecode,
    WindowedTranslator,
)
from explorer.seq2seq.local_eval import HIT_DISTANCE
from explorer.seq2seq.sequence_checkpoints import load_sequence_model
from explorer.seq2seq.sequence_models import SequenceModel
from explorer.seq2seq.sequence_trace import SequenceTrace, decode_sentence, read_sentence
from explorer.seq2seq.spec import LabError
from explorer.seq2seq.tasks import Task, get_task

WINDOW_ARRAYS = ("centres", "window_mask", "align", "gaussian")


@dataclass
class WindowTrace(SequenceTrace):
    half_width: int = 0  # the D read with (global: 0)
    trained_half_width: int = 0
    sigma: float | None = None  # D / 2; None for global attention
    centre_rule: str = ""
    centres: np.ndarray | None = None  # [T] p_t
    window_mask: np.ndarray | None = None  # [T, n] bool
    window_bounds: list[list[int] | None] = field(default_factory=list)
    align: np.ndarray | None = None  # [T, n]
    gaussian: np.ndarray | None = None  # [T, n]
    centre_distances: list[float | None] = field(default_factory=list)

    def centre_count(self) -> tuple[int, int] | None:
        """(steps whose p_t is within 1 of a source word they translate, steps counted), over
        every word written: a step the truth spells with no source word (a date's "-") is left
        out, a step past the true translation's end (the model wrote too much) counts as not
        within. None without a window or a truth, or with nothing to count."""
        if self.centres is None or self.true_links is None:
            return None
        measured = [d for d in self.centre_distances if d is not None]
        within = sum(d <= HIT_DISTANCE for d in measured)
        counted = len(measured) + self.steps_past_truth()
        return (within, counted) if counted else None

    def steps_past_truth(self) -> int:
        """Words written past the true translation's end (0 without a truth)."""
        if self.true_links is None:
            return 0
        return max(0, len(self.output_tokens) - len(self.true_links))

    def steps(self) -> list[dict]:
        """Per word written: p_t, the window, the truth and how far p_t is from it."""
        rows = []
        for t, word in enumerate(self.output_tokens):
            truth = self.true_links[t] if self.true_links is not None and t < len(self.true_links) else None
            rows.append(
                {
                    "step": t,
                    "word": word,
                    "p_t": None if self.centres is None else round(float(self.centres[t]), 4),
                    "window": self.window_bounds[t],
                    "true": truth,
                    "distance": self.centre_distances[t] if t < len(self.centre_distances) else None,
                    "weight_sum": round(float(self.alignment[t].sum()), 6),
                }
            )
        return rows

    def meta(self) -> dict:
        data = super().meta()
        data.update(
            {
                "half_width": self.half_width,
                "trained_half_width": self.trained_half_width,
                "sigma": self.sigma,
                "centre_rule": self.centre_rule,
                "steps": self.steps(),
            }
        )
        return data

    def arrays(self) -> dict[str, np.ndarray]:
        arrays = super().arrays()
        arrays.update(
            {name: getattr(self, name) for name in WINDOW_ARRAYS if getattr(self, name) is not None}
        )
        return arrays

    def to_dict(self) -> dict:
        data = super().to_dict()
        for name in WINDOW_ARRAYS:
            data.setdefault(name, None)
        return data


def translate_window(
    text: str,
    task: str = "copy-twice",
    model: str = "local-p-ours",
    checkpoint: str | Path | None = None,
    half_width: int | None = None,
) -> WindowTrace:
    """With ``checkpoint`` (a folder written by ``train``), the task and model are its own."""
    if checkpoint is None and model not in WINDOW_MODELS:
        raise LabError.of("seq2seq.window_model", model=model, choices=", ".join(WINDOW_MODELS))
    module, _, label = load_sequence_model(task, model, checkpoint)
    return trace_window(module, get_task(module.spec.task), text, label, half_width)


def trace_window(
    module: SequenceModel, task: Task, text: str, label: str = "", half_width: int | None = None
) -> WindowTrace:
    if not isinstance(module, WindowedTranslator):
        raise LabError.of("seq2seq.window_model", model=module.spec.model, choices=", ".join(WINDOW_MODELS))
    local = module.centre != "global"
    if half_width is not None and not local:
        raise LabError.of(
            "seq2seq.window_not_local", model=module.spec.model, choices=", ".join(LOCAL_MODELS)
        )
    reader = module if half_width is None else module.with_window(half_width)
    tokens, _ = read_sentence(text, task)
    base, decoded = decode_sentence(reader, task, text, label)
    assert isinstance(decoded, WindowDecode) and decoded.window is not None  # a windowed model's decoding
    rows = len(base.output_tokens)
    as_array = lambda t: None if t is None else t[0, :rows].float().cpu().numpy()  # noqa: E731
    window = decoded.window[0, :rows].cpu().numpy()
    trace = WindowTrace(**vars(base))
    trace.half_width = reader.half_width if local else 0
    trace.trained_half_width = module.spec.window if local else 0
    trace.sigma = reader.half_width / 2 if local else None
    trace.centre_rule = CENTRE_RULES[module.centre]
    trace.centres = as_array(decoded.centres)
    trace.window_mask = window
    trace.window_bounds = [_bounds(row) for row in window]
    trace.align = as_array(decoded.align)
    trace.gaussian = as_array(decoded.gaussian)
    if local:
        trace.alignment_note = Message.of("seq2seq.window_note")
    if half_width is not None and half_width != module.spec.window:
        trace.notices.append(
            Message.of("seq2seq.window_changed", used=half_width, trained=module.spec.window)
        )
    empty = [t for t, bounds in enumerate(trace.window_bounds) if bounds is None]
    if empty:
        trace.notices.append(Message.of("seq2seq.window_off_source", count=len(empty), last=len(tokens) - 1))
    trace.centre_distances = _distances(trace.centres, trace.true_links, rows)
    return trace


def _bounds(inside: np.ndarray) -> list[int] | None:
    where = np.flatnonzero(inside)
    return [int(where[0]), int(where[-1])] if where.size else None


def _distances(centres: np.ndarray | None, links: list[list[int]] | None, rows: int) -> list[float | None]:
    if centres is None or links is None:
        return []
    return [
        round(float(min(abs(centres[t] - s) for s in links[t])), 4) if links[t] else None
        for t in range(min(rows, len(links)))
    ]
