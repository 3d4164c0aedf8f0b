"""Train a translation model from scratch: the ``train`` command and the window's worker.

    result = train_model("bahdanau", "additive", steps=400, seed=0,
                         on_progress=print, should_stop=lambda: False, watch_text="9 mai 2018")
    train_model("luong", options=replace(DEFAULTS, steps=300, eval_every=20))   # explorer.lab.TrainOptions
    result.model, result.spec, result.log            # the module, its spec, explorer.training's log
    save_checkpoint(folder, result.model, result.spec, ...)   (explorer.seq2seq.checkpoints)

Call it from a worker thread: ``on_progress`` runs on that thread after every step with a
``LabProgress`` (loss; held-out exact match at evaluation steps; at snapshot steps the
parameters and, when ``watch_text`` is given, the watched text translated by them, i.e. the
alignment to redraw). ``should_stop()`` answering True raises
``explorer.training.TrainingCancelled`` between steps. ``alignment_at(spec, snapshot, text)``
re-translates with any stored snapshot (the scrubber), in a few milliseconds.

Determinism: the same seed gives the same losses on the CPU (one generator for the
weights, one for the batches, a fixed thread count). The held-out days are never trained on
(see explorer.seq2seq.dates).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import torch
import torch.nn.functional as F

from explorer.core.device import choose_device, threads_for, torch_threads
from explorer.lab import Goal, TrainOptions
from explorer.seq2seq import dates
from explorer.seq2seq.build import build_model
from explorer.seq2seq.evaluate import predict
from explorer.seq2seq.spec import ModelSpec, default_spec
from explorer.seq2seq.trace import TranslationTrace
from explorer.seq2seq.translate import trace_translation
from explorer.seq2seq.vocab import Vocabulary, make_batch
from explorer.training import Measure, Snapshot, TrainingLog, isolated_generator, seed_everything, train

# Which held-out days the evaluations during training use: the same for every run and seed.
EVAL_SEED = 0
# The train command's run: batches of 128 fresh dates, Adam 3·10⁻³, an evaluation of 50 held-out
# days per format every 50 steps, one thread (two are faster when idle, far slower on a busy CPU:
# docs/benchmarks.md).
DEFAULTS = TrainOptions(steps=400, batch_size=128, learning_rate=3e-3, eval_every=50, eval_size=50)
GOAL = Goal("exact_match", 0.95)  # held-out exact match a run should reach (the window times it)
COOLDOWN = 0.2  # the last 20 % of the steps lower the learning rate linearly to 5 %
CLIP = 1.0  # gradient norm clip (GRUs early in training)


@dataclass(frozen=True)
class LabProgress:
    step: int
    total_steps: int
    loss: float
    elapsed_s: float
    exact_match: float | None = None  # held-out, at evaluation steps only
    metrics: dict[str, float] = field(default_factory=dict)  # also per format: "exact_match/french"
    snapshot: Snapshot | None = None  # at snapshot steps only
    watched: TranslationTrace | None = None  # watch_text translated at this snapshot
    train_s: float = 0.0  # the steps alone (explorer.training's clocks)
    start: Snapshot | None = None  # on the first report: the untrained model


@dataclass
class TrainResult:
    spec: ModelSpec
    model: torch.nn.Module
    log: TrainingLog
    device: str
    seed: int
    options: TrainOptions
    notices: list[str] = field(default_factory=list)

    @property
    def exact_match(self) -> float:
        return self.log.last_metrics.get("exact_match", 0.0)


def train_model(
    model_name: str,
    scoring: str | None = None,
    steps: int | None = None,
    seed: int | None = None,
    on_progress: Callable[[LabProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    watch_text: str | None = None,
    options: TrainOptions = DEFAULTS,
    spec: ModelSpec | None = None,
    measures: Sequence[Measure] = (),
) -> TrainResult:
    """``steps`` and ``seed``, when given, replace the options' (``eval_size``: held-out days
    per format)."""
    options = replace(
        options,
        steps=options.steps if steps is None else steps,
        seed=options.seed if seed is None else seed,
    )
    steps, seed = options.steps, options.seed
    spec = spec or default_spec(model_name, scoring)
    vocab = Vocabulary(spec.source_chars)
    device, notice = choose_device(options.device)
    with torch_threads(options.threads):
        seed_everything(seed)
        with isolated_generator(seed):
            model = build_model(spec).to(device)
        optimiser = torch.optim.Adam(model.parameters(), lr=options.learning_rate)
        batches = np.random.default_rng(seed)
        held_out = dates.held_out_set(options.eval_size, EVAL_SEED)
        cooldown_steps = max(1, int(COOLDOWN * steps))

        def take_step(i: int) -> float:
            for group in optimiser.param_groups:  # constant, then a linear cool-down
                group["lr"] = options.learning_rate * max(0.05, min(1.0, (steps - i) / cooldown_steps))
            batch = make_batch(dates.sample(batches, options.batch_size), vocab).to(device)
            logits = model(batch.source, batch.lengths, batch.target_in)
            loss = F.cross_entropy(logits.flatten(0, 1), batch.target.flatten())
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
            optimiser.step()
            return loss.item()

        def evaluate() -> dict[str, float]:
            report = predict(model, held_out, vocab, device=device)
            metrics = {"exact_match": report.exact_match, "alignment_score": report.alignment_score()}
            for fmt, numbers in report.by_format().items():
                exact = numbers["exact_match"]
                if exact is not None:  # (always: every format has dates)
                    metrics[f"exact_match/{fmt}"] = exact
            return metrics

        def report(progress) -> None:
            if on_progress is None:
                return
            watched = None
            if progress.snapshot is not None and watch_text:
                with torch.no_grad():
                    watched = _watch(model, spec, watch_text)
            on_progress(
                LabProgress(
                    progress.step,
                    progress.total_steps,
                    progress.loss,
                    progress.elapsed_s,
                    progress.metrics.get("exact_match"),
                    progress.metrics,
                    progress.snapshot,
                    watched,
                    progress.train_s,
                    progress.start,
                )
            )

        log = train(
            model,
            take_step,
            evaluate,
            steps=steps,
            eval_every=options.eval_every,
            snapshot_every=options.snapshot_every,
            on_progress=report,
            should_stop=should_stop,
            measures=measures,
        )
    return TrainResult(spec, model, log, str(device), seed, options, [notice] if notice else [])


def _watch(model, spec: ModelSpec, text: str) -> TranslationTrace | None:
    """The watched text at this moment of training; None when it cannot be read at all."""
    try:
        return trace_translation(model, spec, text)
    except ValueError:
        return None


# -- replaying snapshots ---------------------------------------------------------------------
_scratch: dict[ModelSpec, torch.nn.Module] = {}  # one reusable module per spec
_scratch_lock = threading.Lock()


def alignment_at(spec: ModelSpec, snapshot: Snapshot, text: str, attention: str = "soft") -> TranslationTrace:
    """``text`` translated by the parameters of one training snapshot (CPU, one scratch model
    per spec, reloaded in place: a few milliseconds)."""
    with _scratch_lock:
        model = _scratch.get(spec)
        if model is None:
            with isolated_generator():  # a throwaway start: leave the generator alone
                model = _scratch[spec] = build_model(spec).eval()
        with threads_for(0), torch.no_grad():  # one thread: two made this copy 100× slower (busy CPU)
            model.load_state_dict(snapshot.state)
            return trace_translation(model, spec, text, attention)
