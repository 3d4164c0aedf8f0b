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

One torch thread: the models are tiny.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.appstate.lm import Head, LMState
from explorer.core.device import torch_threads
from explorer.lm import tasks
from explorer.lm.ablation import Ablation, ablate
from explorer.lm.folders import load_shipped
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
