"""What the Language model tab asks the worker to compute, Qt-free: the model in use on the
probe, every head's attention and scores, and the causal test of the heads switched off.

``compute(request)`` turns an ``LMRequest`` (the model: a shipped checkpoint or a training
run's snapshot; the probe text; the heads off) into an ``LMResult``:

- ``trace``: the shown probe through the model with the heads off (explorer.lm's LMTrace:
  every layer an AttentionTrace, so the Pipeline's stage panels draw it);
- ``scores``: every head's previous-token, induction and first-token scores on the lab's
  measuring probe (16 random sequences repeated once: the numbers the training curves show);
- ``base`` and ``ablated``: both half-losses of the measuring probe with every head on, and
  with the chosen heads off (the change is what those heads did).

The Generate page's text is a ``Writing`` (its request: the model, the prompt, the
GenerationSpec): the worker calls ``advance`` once per token, the GUI thread appends each
token to the lab's state and asks for the next, until the count or Stop.

One torch thread: the models are tiny.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.appstate.lm import Head, LMState
from explorer.core.decoding import GenerationSpec
from explorer.core.device import torch_threads
from explorer.lm import tasks
from explorer.lm.ablation import Ablation, ablate
from explorer.lm.folders import load_shipped
from explorer.lm.generate import LMGeneration, NewToken, generate_steps
from explorer.lm.measures import HeadScores, ProbeMeasures, probe_measures
from explorer.lm.model import GPT, GPTConfig
from explorer.lm.trace import LMTrace, trace_ids, trace_text
from explorer.lm.train import PROBE_SEED, LMSpec, model_at, probe_for, task_vocab
from explorer.training import Snapshot

PERIOD = LMSpec().probe_period  # the shown random probe: this many symbols, then the same again


class Stopped(Exception):
    """A newer request replaced this one before it finished (never shown)."""


@dataclass(frozen=True)
class LMModelChoice:
    """A shipped checkpoint (``run`` None), or the snapshot at ``step`` of training run ``run``."""

    task: str
    run: int | None = None
    step: int | None = None
    config: GPTConfig | None = field(default=None, compare=False)
    snapshot: Snapshot | None = field(default=None, compare=False)

    @property
    def shipped(self) -> bool:
        return self.run is None


def model_choice(lab: LMState) -> LMModelChoice:
    snapshot, run = lab.shown_snapshot(), lab.run
    if snapshot is None or run is None or run.spec.task != lab.task:
        return LMModelChoice(lab.task)
    return LMModelChoice(lab.task, run.id, snapshot.step, run.spec.config(), snapshot)


@dataclass(frozen=True)
class LMRequest:
    model: LMModelChoice
    probe: str  # typed; empty: the random sequence of probe_seed, repeated once
    probe_seed: int
    off: tuple[Head, ...]


def request_of(lab: LMState) -> LMRequest:
    return LMRequest(model_choice(lab), lab.probe, lab.probe_seed, lab.off)


@dataclass
class LMResult:
    request: LMRequest
    trace: LMTrace  # the shown probe, the heads off
    period: int | None  # the shown probe's period when it is the random repeated one
    scores: HeadScores  # on the measuring probe, every head on
    base: ProbeMeasures
    ablated: Ablation | None  # None: no head is off


_models: dict[LMModelChoice, GPT] = {}  # the last snapshot's model (scrubbing back and forth)
_models_lock = threading.Lock()


def model_for(choice: LMModelChoice) -> GPT:
    if choice.shipped:
        return load_shipped(choice.task).model
    with _models_lock:
        if choice not in _models:
            assert choice.config is not None and choice.snapshot is not None
            _models.clear()
            _models[choice] = model_at(choice.config, choice.snapshot)
        return _models[choice]


def random_probe(task: str, seed: int, period: int = PERIOD) -> list[int]:
    """One random sequence of ``period`` symbols, then the same again (seed 0: the first row
    of the measuring probe)."""
    vocab = task_vocab(task)
    rng = np.random.default_rng(PROBE_SEED if seed == 0 else seed)
    return [int(i) for i in tasks.repeated_probe(rng, 1, period, len(vocab.symbols))[0]]


def compute(request: LMRequest, should_stop: Callable[[], bool] | None = None) -> LMResult:
    def check() -> None:
        if should_stop is not None and should_stop():
            raise Stopped()

    task = request.model.task
    vocab = task_vocab(task)
    with torch_threads(1), torch.no_grad():
        model = model_for(request.model)
        check()
        if request.probe:
            trace, period = trace_text(model, vocab, request.probe, request.off), None
        else:
            ids = random_probe(task, request.probe_seed)
            trace, period = trace_ids(model, ids, vocab.token, request.off), PERIOD
        check()
        probe = probe_for(vocab, 16, PERIOD)
        base = probe_measures(model, probe, PERIOD)
        ablated = ablate(model, probe, PERIOD, request.off, base) if request.off else None
    return LMResult(request, trace, period, base.scores, base, ablated)


# -- the Generate page -----------------------------------------------------------------------------
PROMPT_CONTINUES = 4  # the induction model's prompt: a random sequence, then its start again
TEXT_PROMPT = "The model cannot see the future. The model"


def default_prompt(task: str, seed: int) -> str:
    """The induction model's: PERIOD different random symbols (seeded), then the first few
    again, so what comes next can only be copied and every symbol says where to copy from (a
    symbol seen twice would leave two places); the text model's: a sentence begun again."""
    if task == "text":
        return TEXT_PROMPT
    vocab = task_vocab(task)
    ids = np.random.default_rng(seed).choice(len(vocab.symbols), PERIOD, replace=False).tolist()
    return vocab.decode(ids + ids[:PROMPT_CONTINUES])


@dataclass(frozen=True)
class WritingRequest:
    model: LMModelChoice
    prompt: str
    spec: GenerationSpec


def writing_request(lab: LMState) -> WritingRequest:
    """The weights in use, the typed prompt (or the task's own), and how to choose each token
    (temperature 0: the most likely; else drawn, seeded)."""
    spec = GenerationSpec(
        lab.write_tokens,
        "sample" if lab.temperature > 0 else "greedy",
        lab.temperature if lab.temperature > 0 else 1.0,
        lab.top_k,
        lab.write_seed,
    )
    return WritingRequest(model_choice(lab), lab.prompt or default_prompt(lab.task, lab.probe_seed), spec)


class Writing:
    """One text being written: ``advance`` (on the worker) gives its next token, None at the end."""

    def __init__(self, request: WritingRequest):
        self.request = request
        self.prompt: list[str] = []  # the prompt's tokens, once read
        self.steps: list[NewToken] = []  # the tokens so far (appended on the GUI thread)
        self._steps: Iterator[NewToken] | None = None

    def advance(self) -> NewToken | None:
        with torch_threads(1):
            if self._steps is None:  # the model and the prompt are read on the worker
                vocab = task_vocab(self.request.model.task)
                ids = vocab.encode(self.request.prompt)
                model = model_for(self.request.model)
                self.prompt = [vocab.token(i) for i in ids]
                self._steps = generate_steps(model, ids, self.request.spec, vocab.token, vocab.end_id)
            return next(self._steps, None)

    @property
    def generation(self) -> LMGeneration:
        return LMGeneration(list(self.prompt), list(self.steps))
