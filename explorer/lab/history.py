"""A shipped checkpoint's training history: the loss of every step and the held-out numbers of
every evaluation of the run that made it, for a lab's training page to draw before (and beside)
a run of its own.

The file sits beside the weights, ``NAME.history.json`` next to ``NAME.safetensors``, written
by packaging/record_histories.py, which re-runs the checkpoint's own command and writes the
history only when the weights it ends with are the shipped ones (``weights_apart``: the
largest difference, 0.0). A checkpoint without one has no history (``shipped_history``: None).
Qt-free; read once per file and kept (a page asks at every redraw).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from explorer import json_text, reading
from explorer.atomic import atomic_write

FORMAT = 1
SUFFIX = ".history.json"


@dataclass(frozen=True)
class History:
    command: str  # the command that trained the shipped weights
    losses: tuple[float, ...]  # the training loss after each step (step k + 1 at index k)
    eval_steps: tuple[int, ...]  # the steps of the evaluations
    metrics: dict[str, tuple[float, ...]] = field(default_factory=dict)  # one value per evaluation
    weights_apart: float = 0.0  # the re-run's weights against the shipped ones

    @property
    def steps(self) -> int:
        return len(self.losses)

    def series(self, metric: str) -> list[float]:
        """One metric at every evaluation (empty: not measured in that run), like LabRun.series."""
        return list(self.metrics.get(metric, ()))


def history_path(weights: str | Path) -> Path:
    weights = Path(weights)
    return weights.with_name(weights.stem + SUFFIX)


def write_history(weights: str | Path, history: History) -> Path:
    path = history_path(weights)
    body = {
        "format": FORMAT,
        "command": history.command,
        "weights_apart": history.weights_apart,
        "losses": [_finite(v) for v in history.losses],
        "eval_steps": list(history.eval_steps),
        "metrics": {k: [_finite(v) for v in vs] for k, vs in history.metrics.items()},
    }
    atomic_write(path, lambda f: json.dump(body, f, separators=(",", ":"), allow_nan=False))
    return path


def _finite(value: float) -> float | None:
    return round(float(value), 7) if math.isfinite(value) else None


def read_history(path: str | Path) -> History:
    """The history file; a ValueError when it cannot be read (reading.py's ReadError: a folder,
    a pipe, a permission, a link loop) or is not a history."""
    body = json_text.loads(reading.read_text(path))  # nesting, huge ints: UnparsableJSON
    if not isinstance(body, dict):
        raise ValueError(f"{path}: a history file holds a JSON object")
    if body.get("format") != FORMAT:
        raise ValueError(f"{path}: history format {body.get('format')!r}, not {FORMAT}")
    steps = tuple(int(s) for s in body["eval_steps"])
    metrics = {
        str(k): tuple(math.nan if v is None else float(v) for v in vs) for k, vs in body["metrics"].items()
    }
    if any(len(vs) != len(steps) for vs in metrics.values()):
        raise ValueError(f"{path}: a metric's values do not match the evaluations")
    return History(
        command=str(body["command"]),
        losses=tuple(math.nan if v is None else float(v) for v in body["losses"]),
        eval_steps=steps,
        metrics=metrics,
        weights_apart=float(body.get("weights_apart", 0.0)),
    )


_read: dict[Path, tuple[float, History | None]] = {}


def shipped_history(weights: str | Path) -> History | None:
    """The history beside these weights (None: none shipped, or not readable), read again only
    when the file changed."""
    path = history_path(weights)
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return None
    kept = _read.get(path)
    if kept is None or kept[0] != stamp:
        try:
            history: History | None = read_history(path)
        except (OSError, ValueError, KeyError, TypeError):
            history = None
        kept = _read[path] = (stamp, history)
    return kept[1]
