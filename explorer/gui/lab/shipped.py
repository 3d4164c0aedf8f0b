"""The shipped run's curves on a lab's training page: what the run that made the shipped
checkpoint measured (explorer.lab.history, ``NAME.history.json`` beside its weights), drawn
from the moment the page shows, dashed, so a live run draws beside it in the lab's own
solid colours. A checkpoint without a recorded history draws nothing more.

Each lab's ``TrainingContent.curves`` appends these after its own series (a run's series keep
their places). They take no room in a plot's legend (an entry widens its plot, and beside a
lab's figure on a projector the figure has no width to give): the training page's status
line says what the dashed lines are before a run (``explains``), the hover read-out names
each one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from explorer.gui.i18n import translate
from explorer.gui.lab.curves import Curves, Series
from explorer.lab.history import History, shipped_history

SHIPPED_COLOUR = "#888888"  # readable on the light and the dark theme


def history_of(weights: str | Path) -> History | None:
    """The shipped run's history beside these weights (None: none recorded)."""
    return shipped_history(weights)


def shipped_name(what: str = "") -> str:
    name = translate("LabTraining", "shipped run")
    return f"{name}: {what}" if what else name


def explains(curves: list[Curves]) -> bool:
    """Whether these plots draw a shipped run's lines (the status line then says so)."""
    prefix = shipped_name()
    return any(s.name.startswith(prefix) and len(s.ys) for c in curves for s in c.series)


def shipped_loss(history: History | None, colour: str = SHIPPED_COLOUR, what: str = "") -> list[Series]:
    """The shipped run's training loss at every step, dashed: grey, or in ``colour`` where a
    plot draws two runs' (the ViT's and the CNN's, named by ``what``)."""
    if history is None or not history.losses:
        return []
    ys = np.asarray(history.losses, dtype=float)
    return [
        Series(
            shipped_name(what),
            np.arange(1, len(ys) + 1, dtype=float),
            ys,
            colour,
            1.0,
            dashed=True,
            in_legend=False,
            bounds=False,
        )
    ]


def shipped_metric(history: History | None, metric: str, colour: str, what: str) -> list[Series]:
    """One held-out number of the shipped run at each of its evaluations, dashed in ``colour``."""
    if history is None:
        return []
    ys = np.asarray(history.series(metric), dtype=float)
    if not ys.size:
        return []
    return [
        Series(
            shipped_name(what),
            np.asarray(history.eval_steps, dtype=float),
            ys,
            colour,
            1.5,
            dashed=True,
            in_legend=False,
            bounds=False,
        )
    ]
