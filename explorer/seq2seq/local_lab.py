"""Global beside local attention, trained together for a window to watch, and compared on one text.

    pair = WindowPair("local-p-ours", window=3)            # global + one local model on copy-twice
    result = train_window_pair(pair, options=replace(DEFAULTS, steps=600))   # explorer.lab's job
    models = pair.models_at(snapshot.state)               # both modules from one training snapshot
    compared = compare_windows(models, pair.task, "a b c d e", half_width=5)
    compared.global_, compared.local                      # WindowTraces (explorer.seq2seq.local_trace)

Both models train in one explorer.training loop on the same batches from the same seed
(explorer.seq2seq.sequence_train), so their curves and snapshots line up step for step; a
snapshot holds both (``global.…`` and ``<local>.…``). Every evaluation measures, on the true
translations of ``WINDOW_EVAL`` held-out strings, where the local model's p_t sits against the
alignment (explorer.seq2seq.local_eval): ``window_share`` is the share of output steps whose
p_t is within 1 position of the source word they copy, the lab's goal.

``shipped_pair(pair)`` loads the checkpoints shipped for the pair (resources/seq2seq/
``copy-twice-global`` and ``copy-twice-<local>``), or says which is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from explorer.lab import Goal, TrainOptions
from explorer.seq2seq.local_attention import LOCAL_MODELS, WindowedTranslator, check_window
from explorer.seq2seq.local_eval import forced_distances
from explorer.seq2seq.local_tasks import WINDOW_GROUPS
from explorer.seq2seq.local_trace import WindowTrace, trace_window
from explorer.seq2seq.sequence_checkpoints import load_sequence_model, shipped_sequence_folder
from explorer.seq2seq.sequence_models import build_sequence_model, sequence_spec
from explorer.seq2seq.sequence_train import SequenceTrainOptions, train_sequence_models
from explorer.seq2seq.spec import LabError
from explorer.seq2seq.tasks import get_task
from explorer.training import isolated_generator

PAIR_TASK = "copy-twice"
WINDOW_LENGTHS = (5, 10, 20, 30)  # held-out string lengths the goal is measured on
WINDOW_EVAL = 8  # strings of each
# One evaluation every 50 steps (greedy decoding of 8 strings per length for the curves, both
# models, plus the window's measure), a snapshot every 25 for the scrubber, one torch thread.
DEFAULTS = TrainOptions(
    steps=800, batch_size=32, learning_rate=4e-3, eval_every=50, eval_size=4, snapshot_every=25
)
GOAL = Goal("window_share", 0.9)
HIDDEN, EMBED = 48, 32


@dataclass(frozen=True)
class WindowPair:
    """What a run trains: global attention and one local model, the window's D, the task."""

    local: str = "local-p-ours"
    window: int = 3
    task: str = PAIR_TASK
    hidden: int = HIDDEN
    embed: int = EMBED

    def __post_init__(self) -> None:
        if self.local not in LOCAL_MODELS:
            raise LabError.of("seq2seq.window_model", model=self.local, choices=", ".join(LOCAL_MODELS))
        check_window(self.window)

    @property
    def names(self) -> tuple[str, str]:
        return ("global", self.local)

    def models_at(self, state: dict[str, torch.Tensor]) -> dict[str, WindowedTranslator]:
        """Both modules with a snapshot's weights (keys ``<model>.<parameter>``)."""
        task = get_task(self.task)
        models = {}
        for name in self.names:
            spec = sequence_spec(name, task, hidden=self.hidden, embed=self.embed, window=self.window)
            with isolated_generator():  # the random start is overwritten at once
                module = build_sequence_model(spec)
            prefix = f"{name}."
            module.load_state_dict({k[len(prefix) :]: v for k, v in state.items() if k.startswith(prefix)})
            models[name] = module.eval()
        return models  # type: ignore[return-value]


def window_pairs(task: str = PAIR_TASK, per_group: int = WINDOW_EVAL):
    """Held-out pairs of every length the window is measured at (string lengths, clause counts)."""
    rng = np.random.default_rng(2)
    chosen = get_task(task)
    groups = WINDOW_GROUPS.get(task, WINDOW_LENGTHS)
    return [pair for n in groups for pair in chosen.held_out(rng, per_group, n)]


def window_measure(pair: WindowPair):
    """The evaluation's extra numbers: where the local model's window sits against the truth."""
    held_out = window_pairs(pair.task)

    def measure(container) -> dict[str, float]:
        distances = np.concatenate(forced_distances(container[pair.local], held_out))
        return {
            "window_share": float(np.mean(distances <= 1.0)),
            "window_error": float(np.mean(distances)),
        }

    return measure


@dataclass
class PairProgress:
    """What a run's taker reads (explorer.lab.LabRun): one loss, the two models' mean."""

    step: int
    total_steps: int
    loss: float
    elapsed_s: float
    train_s: float
    metrics: dict
    snapshot: object = None
    start: object = None


def train_window_pair(pair: WindowPair, options: TrainOptions = DEFAULTS, on_progress=None, should_stop=None):
    """Train global and local side by side from scratch: explorer.lab's job for the window."""
    sequence_options = SequenceTrainOptions(
        batch_size=options.batch_size,
        lr=options.learning_rate,
        eval_every=options.eval_every,
        eval_per_group=options.eval_size,
        snapshot_every=options.snapshot_every,
        threads=options.threads or 1,
        device=options.device,
        hidden=pair.hidden,
        embed=pair.embed,
        window=pair.window,
    )

    def report(p) -> None:
        if on_progress is not None:
            loss = float(np.mean(list(p.losses.values())))
            on_progress(
                PairProgress(
                    p.step, p.total_steps, loss, p.elapsed_s, p.train_s, p.metrics, p.snapshot, p.start
                )
            )

    return train_sequence_models(
        pair.names,
        pair.task,
        options.steps,
        options.seed,
        on_progress=report,
        should_stop=should_stop,
        options=sequence_options,
        measures=(window_measure(pair),),
    )


def shipped_pair(pair: WindowPair) -> dict[str, WindowedTranslator]:
    """The shipped checkpoints of the pair's two models (LabError naming a missing one)."""
    models = {}
    for name in pair.names:
        if not (shipped_sequence_folder(pair.task, name) / "config.json").is_file():
            raise LabError.of("seq2seq.window_not_shipped", name=f"{pair.task}-{name}")
        models[name] = load_sequence_model(pair.task, name)[0]
    return models  # type: ignore[return-value]


@dataclass
class ComparedWindows:
    global_: WindowTrace
    local: WindowTrace


def compare_windows(
    models: dict[str, WindowedTranslator],
    task: str,
    text: str,
    half_width: int | None = None,
    global_trace: WindowTrace | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ComparedWindows | None:
    """The same text through global attention and through the local model's window (read with
    ``half_width``, or the D it was trained with). ``global_trace``: global attention's trace of
    this text with these weights, already computed (another D leaves it as it is).
    ``should_stop()`` True after the global trace: None, the local one is not decoded."""
    chosen = get_task(task)
    local = next(name for name in models if name != "global")
    global_ = global_trace or trace_window(models["global"], chosen, text, "global")
    if should_stop is not None and should_stop():
        return None
    return ComparedWindows(global_, trace_window(models[local], chosen, text, local, half_width))
