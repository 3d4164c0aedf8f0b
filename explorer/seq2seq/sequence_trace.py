"""Translate one sentence with a sequence model and keep every number: the ``translate --task``
command and what a tab draws.

    trace = translate_sequence("Jane visits Africa in September", "sentences-fr", "attention")
    trace.output                 "Jane visite l'Afrique en septembre"
    trace.alignment              [T, n] the attention weights each output word used, or, for the
                                 model without attention, [T, 1]: the one column C that every
                                 step reads (``alignment_columns`` names the columns)
    trace.context                [T, d] what each step read: c_i, or the same C in every row
    trace.true_alignment         [T_true, n] 1 where the true translation's word i translates
                                 source word j (None when the grammar does not write the text)
    trace.alignment_score        like the dates': share of output words whose largest weight
                                 falls on a word they translate (None without attention or truth)

``trace_sequence(module, task, text)`` does the same for any module, e.g. one being trained.
"""

from __future__ import annotations

import json
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from explorer.atomic import atomic_write, save_json_or_npz
from explorer.core.attention import scale_divisor
from explorer.core.device import threads_for
from explorer.core.trace import AttentionTrace
from explorer.messages import Message
from explorer.seq2seq.rnn import TrainedAttention
from explorer.seq2seq.sequence_checkpoints import load_sequence_model
from explorer.seq2seq.sequence_eval import alignment_hits, shifted_words, word_hits
from explorer.seq2seq.sequence_models import MODEL_NOTES, SequenceDecode, SequenceModel, parameter_count
from explorer.seq2seq.spec import LabError, core_settings
from explorer.seq2seq.tasks import Pair, Task, get_task
from explorer.seq2seq.translate import core_trace

SEQUENCE_TRACE_VERSION = 1
FIXED_COLUMN = "C"
FIXED_FORMULA = "C = [→h_n ; ←h_1]"
UNK_TOKEN = "<unk>"
ARRAYS = ("alignment", "scores", "scaled", "states", "context", "annotations", "true_alignment")


class SentenceError(LabError):
    """A sentence the models cannot read (empty, too long)."""


@dataclass
class SequenceTrace:
    model: str
    task: str
    checkpoint: str
    has_attention: bool
    parameters: int
    source: str
    source_tokens: list[str]  # what the model read: the word, or <unk>
    output_tokens: list[str]
    output: str
    alignment: np.ndarray  # [T, n] attention weights, or [T, 1] ones: the fixed C
    alignment_columns: list[str]  # the source tokens, or ["C"]
    alignment_note: str
    context_kind: str  # "attention": c_i per step; "fixed": one C for every step
    states: np.ndarray  # [T, d] decoder states s_i
    context: np.ndarray  # [T, d]
    annotations: np.ndarray | None  # [n, d] h_j (attention models)
    scores: np.ndarray | None = None  # [T, n]
    scaled: np.ndarray | None = None
    expected_tokens: list[str] | None = None
    expected: str | None = None
    true_links: list[list[int]] | None = None  # per true output word: the source positions
    true_alignment: np.ndarray | None = None  # [T_true, n]
    alignment_hits: list[bool] = field(default_factory=list)
    alignment_score: float | None = None
    word_accuracy: float | None = None
    notices: list[Message] = field(default_factory=list)
    unknown_tokens: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    stages: AttentionTrace | None = None  # the attention as explorer.core sees it (attention models)

    def attention_trace(self) -> AttentionTrace:
        """Every stage of the decoder's attention (one head; queries s_i, keys = values h_j), for
        the stage panels and explorer.core.worked; ValueError for the model without attention."""
        if self.stages is None:
            raise ValueError(f"the {self.model} model has no attention: every step reads the same C")
        return self.stages

    @property
    def exact(self) -> bool | None:
        return None if self.expected_tokens is None else self.output_tokens == self.expected_tokens

    def meta(self) -> dict:
        return {
            "format_version": SEQUENCE_TRACE_VERSION,
            "model": self.model,
            "model_note": MODEL_NOTES.get(self.model, ""),
            "task": self.task,
            "checkpoint": self.checkpoint,
            "has_attention": self.has_attention,
            "parameters": self.parameters,
            "context_kind": self.context_kind,
            "source": self.source,
            "source_tokens": self.source_tokens,
            "output_tokens": self.output_tokens,
            "output": self.output,
            "expected_tokens": self.expected_tokens,
            "expected": self.expected,
            "exact": self.exact,
            "word_accuracy": self.word_accuracy,
            "alignment_columns": self.alignment_columns,
            "alignment_note": self.alignment_note,
            "true_links": self.true_links,
            "alignment_hits": self.alignment_hits,
            "alignment_score": self.alignment_score,
            "notices": self.notices,
            "unknown_tokens": self.unknown_tokens,
            "timings_ms": self.timings_ms,
        }

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in ARRAYS if getattr(self, name) is not None}

    def to_dict(self) -> dict:
        data = self.meta()
        data.update({name: None for name in ARRAYS})
        data.update({name: array.tolist() for name, array in self.arrays().items()})
        return data

    def to_json(self, path: str | Path) -> None:
        atomic_write(Path(path), lambda f: json.dump(self.to_dict(), f, ensure_ascii=False), "w")

    def to_npz(self, path: str | Path) -> None:
        arrays: dict[str, Any] = dict(self.arrays())  # Any: savez's own allow_pickle is keyword-only
        arrays["meta_json"] = np.array(json.dumps(self.meta(), ensure_ascii=False))
        atomic_write(Path(path), lambda f: np.savez_compressed(f, **arrays), "wb")

    def save(self, path: str | Path) -> None:
        save_json_or_npz(path, self.to_json, self.to_npz)


def translate_sequence(
    text: str, task: str = "sentences-fr", model: str = "attention", checkpoint: str | Path | None = None
) -> SequenceTrace:
    """With ``checkpoint`` (a folder written by ``train``), the task and model are its own."""
    module, _, label = load_sequence_model(task, model, checkpoint)
    return trace_sequence(module, get_task(module.spec.task), text, label)


def read_sentence(text, task: Task) -> tuple[list[str], list[Message]]:
    """The tokens the model will read and notices about what was changed; SentenceError if none."""
    if not isinstance(text, str) or not text.strip():
        raise SentenceError.of("seq2seq.sentence_empty", example=task.example)
    cleaned = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text).strip()
    notices: list[Message] = []
    if cleaned != text.strip():
        notices.append(Message.of("seq2seq.spaces_made_plain"))
    tokens = task.read(cleaned)
    if not tokens:
        raise SentenceError.of("seq2seq.sentence_empty", example=task.example)
    if len(tokens) > task.max_source:
        raise SentenceError.of("seq2seq.sentence_too_long", count=len(tokens), limit=task.max_source)
    return tokens, notices


def trace_sequence(module: SequenceModel, task: Task, text: str, label: str = "") -> SequenceTrace:
    return decode_sentence(module, task, text, label)[0]


def decode_sentence(
    module: SequenceModel, task: Task, text: str, label: str = ""
) -> tuple[SequenceTrace, SequenceDecode]:
    """The trace and the greedy decoding it was read from (a windowed model's decoding also
    holds every step's window: explorer.seq2seq.local_trace reads it instead of decoding again)."""
    started = time.perf_counter()
    tokens, notices = read_sentence(text, task)
    vocab = module.spec.vocab
    known = set(vocab.source_tokens)
    unknown = [t for t in tokens if t not in known]
    if unknown:
        notices.append(
            Message.of(
                "seq2seq.unknown_words",
                count=len(unknown),
                unk=UNK_TOKEN,
                words=", ".join(dict.fromkeys(unknown)),
            )
        )
    read = [t if t in known else UNK_TOKEN for t in tokens]
    device = next(module.parameters()).device
    ids = torch.tensor([vocab.encode_source(tokens)], dtype=torch.long, device=device)
    truth = task.truth(tokens)
    steps = (len(truth.target) if truth else 2 * len(tokens)) + 5
    with torch.no_grad(), threads_for(0):
        decoded = module.greedy(ids, torch.tensor([len(tokens)]), steps)
    output = vocab.decode_target(decoded.tokens[0].cpu().numpy())
    rows = len(output)  # the words written; the <eos> step is left out
    as_array = lambda t: t[0, :rows].float().cpu().numpy()  # noqa: E731
    if decoded.weights is not None:
        alignment, columns, kind = as_array(decoded.weights), list(read), "attention"
        note = Message.of("seq2seq.note_attention")
    else:  # one column, the same for every step: what the decoder reads is C, not the words
        alignment, columns, kind = np.ones((rows, 1), np.float32), [FIXED_COLUMN], "fixed"
        note = Message.of("seq2seq.note_fixed", context=FIXED_FORMULA)
    trace = SequenceTrace(
        model=module.spec.model,
        task=task.name,
        checkpoint=label,
        has_attention=decoded.weights is not None,
        parameters=parameter_count(module),
        source=" ".join(tokens),
        source_tokens=read,
        output_tokens=output,
        output=task.join(output),
        alignment=alignment,
        alignment_columns=columns,
        alignment_note=note,
        context_kind=kind,
        states=as_array(decoded.states),
        context=as_array(decoded.context),
        annotations=None if decoded.annotations is None else decoded.annotations[0].float().cpu().numpy(),
        scores=None if decoded.scores is None else as_array(decoded.scores),
        scaled=None if decoded.scaled is None else as_array(decoded.scaled),
        notices=notices,
        unknown_tokens=unknown,
    )
    if decoded.weights is not None:
        trace.stages = _core_stages(module, trace)
    _add_truth(trace, truth, task)
    trace.timings_ms["translate"] = (time.perf_counter() - started) * 1e3
    return trace, decoded


def _add_truth(trace: SequenceTrace, truth: Pair | None, task: Task) -> None:
    if truth is None:
        trace.notices.append(Message.of("seq2seq.no_truth"))
        return
    trace.expected_tokens = list(truth.target)
    trace.expected = task.join(truth.target)
    trace.true_links = [list(links) for links in truth.links]
    matrix = np.zeros((len(truth.target), len(truth.source)), dtype=np.float32)
    for i, links in enumerate(truth.links):
        matrix[i, list(links)] = 1.0
    trace.true_alignment = matrix
    trace.word_accuracy = word_hits(truth.target, trace.output_tokens) / len(truth.target)
    if trace.has_attention:
        trace.alignment_hits = alignment_hits(trace.alignment, truth)
        trace.alignment_score = float(np.mean(trace.alignment_hits)) if trace.alignment_hits else None
        shifted = shifted_words(trace.alignment, truth)
        if shifted:
            # straight quotes: curly ones fall back to the CJK font in an English window, which
            # draws them and the parentheses beside them full-width (trial 9)
            words = ", ".join(
                f'"{trace.output_tokens[i]}" → "{truth.source[top]}" ("{truth.source[own]}")'
                for i, top, own in shifted
                if i < len(trace.output_tokens)
            )
            trace.notices.append(Message.of("seq2seq.word_shift", words=words))


def _core_stages(module: SequenceModel, trace: SequenceTrace) -> AttentionTrace:
    settings = core_settings(module.spec.scoring)
    attention = module.attention
    assert isinstance(attention, TrainedAttention)
    keys = trace.annotations
    # copies: on the CPU the arrays would share the parameters' memory, and a module may take
    # other weights later (a run's next snapshot) while this trace is still shown
    params = {name: array.copy() for name, array in attention.params().as_arrays().items()}
    assert keys is not None and trace.scores is not None and trace.scaled is not None
    core = core_trace(
        module.spec, settings, (trace.source, trace.output), trace.output_tokens, trace.source_tokens,
        x_query=trace.states, x_key=keys, q=trace.states[None], k=keys[None], v=keys[None],
        scores=trace.scores[None], scaled=trace.scaled[None], mask=np.ones(trace.alignment.shape, dtype=bool),
        weights=trace.alignment[None], head_outputs=trace.context[None], concat=trace.context,
        output=trace.context, divisor=scale_divisor(settings, keys.shape[-1]),
        params=params, layer=None,
    )  # fmt: skip
    return core
