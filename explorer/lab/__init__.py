"""What every lab shares, without Qt: how a run is trained and watched.

- ``TrainOptions`` (options.py): one options type for every lab's training;
- ``LabRun``, ``Goal``, ``STATUSES`` (run.py): a run on a thread of its own, its progress in
  an inbox the window takes on its own timer, one status vocabulary, the time to the goal;
- ``warm_up()`` (warm_up.py): the first optimiser's imports before Train is pressed;
- ``messages.py``: the runs' keyed errors.

The loop itself is explorer.training's (``train``: steps, evaluations, measures, snapshots,
cancel). docs/architecture.md ("Adding a lab") says how a lab is built on these.
"""

from explorer.lab import messages as messages  # registers the lab.* templates
from explorer.lab.options import TrainOptions
from explorer.lab.run import ENDED, MAX_RUNNING, STATUSES, Goal, LabRun, Update, run_all
from explorer.lab.warm_up import warm_up, warmed

__all__ = [
    "ENDED",
    "MAX_RUNNING",
    "STATUSES",
    "Goal",
    "LabRun",
    "TrainOptions",
    "Update",
    "run_all",
    "warm_up",
    "warmed",
]
