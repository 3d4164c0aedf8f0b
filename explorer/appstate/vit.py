"""The Vision Transformer tab's settings, without Qt: which picture, which model, what is shown.

``ViTState`` hangs off the ExplorerState (``state.labs["vit"]``) with its own events
(``EVENTS``): the picture (a generated one by its seed, or a photograph's path), the
training-set size whose shipped models are shown (the data experiment's checkpoints: the ViT
and, beside it, the CNN trained on as many pictures), the map (a clicked patch's attention, the
CLS token's, or the rollout across layers), the layer, the head and the patch, and the page.

Its live run is a pair: the ViT and the CNN trained at the same time on the same pictures, one
thread each (``LabRun``s; ``run`` is the ViT's, the one the training page follows, and
``cnn_run`` the CNN's). The weights in use are the shipped checkpoints of ``size`` or the
pair's snapshots (``LabState``: events ``training`` and ``weights``). ``ViTSettings`` is what a
session saves; the runs live only in memory.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import partial
from typing import Any

from explorer.appstate.lab import LabState
from explorer.lab import Goal, LabRun, TrainOptions, Update
from explorer.messages import Message
from explorer.training import Snapshot
from explorer.vision.data_curve import CONFIGS, LIVE_SIZE, LIVE_STEPS, SIZES, recipe_for
from explorer.vision.train import train_config
from explorer.vision.vit import ViTConfig

PAGES = ("looks", "heads", "data", "train", "photo")
MAPS = ("patch", "cls", "rollout")  # a clicked patch's attention, the CLS token's, the rollout
SOURCES = ("generate", "file")
MAX_SEED = 2**31 - 1
MAX_TRAIN_STEPS = 5000
LIVE_SIZES = (100, 1_000)  # what the window trains live (10,000 pictures take minutes)
EVENTS = ("picture", "model", "selection", "page", "training", "weights")
GOAL = Goal("accuracy", 0.9)
# The window's runs: the data experiment's recipe (explorer.vision.data_curve.RECIPES), the
# evaluations often enough for a curve, a snapshot every 25 steps, one torch thread each.
WINDOW_TRAINING = TrainOptions(eval_every=50, snapshot_every=25, device="auto", threads=1)
# Each model evaluates every eval_every × this many steps: the ViT's evaluation (500 pictures
# through every stage of its attention) costs as much as 8 of its steps, the CNN's 3, and the
# ViT's is the longer run, the one the pair waits for.
EVAL_SPACING = {"cnn": 1, "vit": 2}
_CONFIG = ViTConfig()
PATCHES = _CONFIG.grid**2


def _whole(value: object, low: int, high: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} {value!r}: it must be a whole number from {low} to {high}")
    return value


@dataclass(frozen=True)
class ViTSettings:
    source: str = "generate"
    seed: int = 7
    path: str = ""
    size: int = SIZES[-1]  # the shipped models of this many training pictures
    map: str = "rollout"
    layer: int = _CONFIG.layers - 1
    head: int = 0
    patch: int = 27  # reading order on the 8 × 8 grid (row 3, column 3)
    page: str = "looks"
    train_size: int = LIVE_SIZE
    train_steps: int = LIVE_STEPS["vit"]
    train_seed: int = 0

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"source {self.source!r} is not one of {', '.join(SOURCES)}")
        if not isinstance(self.path, str) or (self.source == "file" and not self.path):
            raise ValueError("a photograph needs its file's path")
        _whole(self.seed, 0, MAX_SEED, "seed")
        if self.size not in SIZES:
            raise ValueError(f"size {self.size!r} is not one of {', '.join(map(str, SIZES))}")
        if self.map not in MAPS:
            raise ValueError(f"map {self.map!r} is not one of {', '.join(MAPS)}")
        _whole(self.layer, 0, _CONFIG.layers - 1, "layer")
        _whole(self.head, 0, _CONFIG.heads - 1, "head")
        _whole(self.patch, 0, PATCHES - 1, "patch")
        if self.page not in PAGES:
            raise ValueError(f"page {self.page!r} is not one of {', '.join(PAGES)}")
        if self.train_size not in LIVE_SIZES:
            raise ValueError(
                f"train_size {self.train_size!r} is not one of {', '.join(map(str, LIVE_SIZES))}"
            )
        _whole(self.train_steps, 10, MAX_TRAIN_STEPS, "train_steps")
        _whole(self.train_seed, 0, 999_999, "train_seed")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> ViTSettings:
        if not isinstance(data, dict):
            raise ValueError("vit must be an object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"vit: unknown settings {', '.join(sorted(map(str, unknown)))}")
        return cls(**data)


def _train_pair_member(model: str, size: int, options: TrainOptions, **callbacks: Any) -> Any:
    """One model of the live pair: the data experiment's recipe on ``size`` pictures, cut to
    the plan's steps, with the window's evaluations and snapshots."""
    recipe = recipe_for(
        model,
        size,
        options.seed,
        options.steps,
        eval_every=options.eval_every * EVAL_SPACING[model],
        eval_size=options.eval_size,
        snapshot_every=options.snapshot_every,
        device=options.device,
        threads=options.threads,
    )
    return train_config(CONFIGS[model], recipe.options, schedule=recipe.schedule, **callbacks)


class ViTState(LabState):
    TITLE = "appstate.lab_vit"
    EVENTS = EVENTS
    GOAL = GOAL
    OPTIONS = WINDOW_TRAINING

    def __init__(self) -> None:
        super().__init__()
        self.settings = ViTSettings()
        self.cnn_run: LabRun | None = None

    def _change(self, event: str, **changes: Any) -> bool:
        new = replace(self.settings, **changes)
        if new == self.settings:
            return False
        self.settings = new
        self._emit(event)
        return True

    # -- what the user changes -----------------------------------------------------------------------
    def generate(self, seed: int) -> bool:
        return self._change("picture", source="generate", seed=int(seed))

    def load(self, path: str) -> bool:
        return self._change("picture", source="file", path=str(path))

    def set_size(self, size: int) -> bool:
        changed = self._change("model", size=int(size))
        if changed and self.weights == "trained":
            self.use_shipped()  # the sizes are the shipped models'
        return changed

    def set_map(self, kind: str) -> bool:
        return self._change("selection", map=kind)

    def set_layer(self, layer: int) -> bool:
        return self._change("selection", layer=int(layer))

    def set_head(self, head: int) -> bool:
        return self._change("selection", head=int(head))

    def select_patch(self, patch: int) -> bool:
        """A clicked patch: its own attention is what the maps show now."""
        return self._change("selection", patch=int(patch), map="patch")

    def set_page(self, page: str) -> bool:
        return self._change("page", page=page)

    def set_train_size(self, size: int) -> bool:
        return self._change("training", train_size=int(size))

    # -- a lab's state ---------------------------------------------------------------------------------
    def apply(self, settings: ViTSettings) -> None:
        old, self.settings = self.settings, settings
        for event, names in (
            ("picture", ("source", "seed", "path")),
            ("model", ("size",)),
            ("selection", ("map", "layer", "head", "patch")),
            ("page", ("page",)),
            ("training", ("train_size", "train_steps", "train_seed")),
        ):
            if any(getattr(old, n) != getattr(settings, n) for n in names):
                self._emit(event)

    def prepared(self) -> ViTSettings:
        return replace(self.settings, map="rollout", layer=ViTSettings.layer, head=0, patch=ViTSettings.patch)

    def plan(self) -> tuple[int, int]:
        return self.settings.train_steps, self.settings.train_seed

    def _store_plan(self, steps: int, seed: int) -> bool:
        return self._change("training", train_steps=steps, train_seed=seed)

    def new_run(self, options: TrainOptions) -> LabRun:
        size = self.settings.train_size
        self.cnn_run = LabRun(
            partial(_train_pair_member, "cnn", size),
            options,
            goal=GOAL,
            spec=CONFIGS["cnn"],
            title=Message.of("appstate.lab_vit_cnn"),
        )
        return LabRun(partial(_train_pair_member, "vit", size), options, goal=GOAL, spec=CONFIGS["vit"])

    def start_training(self, options: TrainOptions | None = None) -> LabRun:
        if self.cnn_run is not None and self.cnn_run.running:
            self.cnn_run.cancel()
            self.cnn_run.join(5.0)  # two runs at most: the old CNN leaves before the new pair starts
        run = super().start_training(options)  # makes both (new_run) and starts the ViT's
        if self.cnn_run is not None:
            self.cnn_run.start()
        return run

    def cancel_training(self) -> None:
        super().cancel_training()
        if self.cnn_run is not None and self.cnn_run.running:
            self.cnn_run.cancel()

    def stop_training(self, timeout: float = 5.0) -> None:
        super().stop_training(timeout)
        if self.cnn_run is not None:
            self.cnn_run.join(timeout)

    @property
    def training(self) -> bool:
        """While either of the pair trains: the page keeps taking the CNN's progress after the
        ViT's run ended (it stopped polling, and the CNN's run stayed "running" at the step
        polled last, its curve cut short)."""
        return super().training or (self.cnn_run is not None and self.cnn_run.running)

    def poll(self) -> list[Update]:
        cnn = self.cnn_run
        was = None if cnn is None else cnn.status
        moved = cnn is not None and (bool(cnn.take()) or cnn.status != was)  # its end is news too
        updates = super().poll()
        if moved and not updates:
            self._emit("training")
        return updates

    # -- reading -------------------------------------------------------------------------------------
    def cnn_snapshot(self) -> Snapshot | None:
        """The CNN's snapshot beside the ViT's in use: the one at the same step (or the CNN's
        newest before it), None with the shipped checkpoints."""
        shown, cnn = self.shown_snapshot(), self.cnn_run
        if shown is None or cnn is None or not cnn.snapshots:
            return None
        earlier = [s for s in cnn.snapshots if s.step <= shown.step]
        return earlier[-1] if earlier else cnn.snapshots[0]
