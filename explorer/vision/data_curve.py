"""The data experiment: the CNN and the vision transformer trained on 100, 1,000 and 10,000 pictures.

The seed's claim (self-attention lacks a CNN's priors, so with little data it does worse) put
to the test on the lab's pictures: for every training-set size and seed, each model is trained
from scratch with its own fixed recipe (RECIPES: the same for every size, so the number of
pictures is the only thing that changes) and measured on TEST_SIZE held-out pictures no run
ever saw, starting at held-out index TEST_FIRST (training evaluates on the first ones).

    result = run_curve()                 # minutes: every size and seed, as the shipped result was made
    result = shipped_result()            # the shipped numbers (resources/vision/curve/results.json)
    result.accuracies("vit", 1000)       # one per seed
    result.caption()                     # the figure's caption, a keyed message

A run's record (CurveRun) holds its held-out accuracy, the share of its attention on the object
(the CNN: CBAM's block-3 spatial map; the transformer: attention rollout; both through
explorer.vision.measure.mass_share), the object's share of the picture, and the CPU seconds
it took; the transformer's also its heads' mean attention distances and self shares and how
much more alike neighbouring position embeddings became. Seed SHIPPED_SEED's models ship as
checkpoints (explorer.vision.checkpoints.load_curve). ``live_recipe`` is the shorter recipe
the window trains while the class watches: both models side by side, one thread each.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from explorer import json_text, reading
from explorer.atomic import atomic_write
from explorer.lab import TrainOptions
from explorer.messages import Message
from explorer.resources import resource_path
from explorer.training import Progress
from explorer.vision.measure import attention_mass
from explorer.vision.models import VisionConfig
from explorer.vision.shapes import Batch, held_out
from explorer.vision.train import Schedule, VisionRun, train_config
from explorer.vision.vit import VisionTransformer, ViTConfig
from explorer.vision.vit_measures import measure_vit, position_similarity, position_summary

SIZES = (100, 1_000, 10_000)
SEEDS = (0, 1, 2)
SHIPPED_SEED = 0
CURVE_MODELS = ("cnn", "vit")
TEST_FIRST = 10_000  # past the held-out pictures any training run evaluates on
TEST_SIZE = 2_000
CURVE_FORMAT_VERSION = 1
MAX_SIZE = 200_000

CONFIGS: dict[str, VisionConfig | ViTConfig] = {"cnn": VisionConfig(variant="cbam"), "vit": ViTConfig()}


@dataclass(frozen=True)
class Recipe:
    """How one model of the experiment is trained: the shared options and its schedule."""

    options: TrainOptions
    schedule: Schedule = Schedule()

    def described(self) -> dict:
        """The recipe as a file records it (without what a run changes: size, seed, device, threads)."""
        own = {
            k: v
            for k, v in asdict(self.options).items()
            if k not in ("pool_size", "seed", "device", "threads")
        }
        return {**own, **asdict(self.schedule)}


_SHARED = TrainOptions(batch_size=64, eval_every=250, snapshot_every=0, device="cpu")
RECIPES = {
    "cnn": Recipe(replace(_SHARED, steps=1000, learning_rate=3e-3)),
    "vit": Recipe(
        replace(_SHARED, steps=3000, learning_rate=1e-3), Schedule(warmup_steps=200, weight_decay=0.05)
    ),
}
LIVE_SIZE = 1_000
LIVE_STEPS = {"cnn": 600, "vit": 900}


def recipe_for(model: str, size: int, seed: int, steps: int | None = None, **changes) -> Recipe:
    """The recipe of ``model`` on ``size`` training pictures with ``seed`` (``steps``: a shorter
    budget, its warm-up cut to a tenth of it); ``changes`` replace options."""
    base = RECIPES[model]
    options = replace(base.options, pool_size=size, seed=seed, **changes)
    schedule = base.schedule
    if steps is not None:
        options = replace(options, steps=steps)
        schedule = replace(schedule, warmup_steps=min(schedule.warmup_steps, steps // 10))
    return Recipe(options, schedule)


def live_recipe(model: str, size: int = LIVE_SIZE, seed: int = 0, **changes) -> Recipe:
    """What the window trains live: the recipe on ``size`` pictures, cut to LIVE_STEPS, snapshots on."""
    changes.setdefault("snapshot_every", 25)
    changes.setdefault("eval_every", 50)
    return recipe_for(model, size, seed, LIVE_STEPS[model], **changes)


@dataclass(frozen=True)
class CurveRun:
    model: str  # cnn or vit
    size: int  # training pictures
    seed: int
    steps: int
    accuracy: float  # on the TEST_SIZE held-out pictures
    share: float  # mean share of the attention map's mass on the object
    area: float  # mean share of the picture the object covers
    map_kind: str  # what the share was measured on
    cpu_s: float  # CPU seconds of the training thread (the picture pool's drawing included)
    wall_s: float
    details: dict = field(default_factory=dict)  # the transformer's heads, the CNN's other blocks

    @property
    def ratio(self) -> float:
        return self.share / self.area


def test_batch(size: int = TEST_SIZE) -> Batch:
    return held_out(size, start=TEST_FIRST)


def train_one(
    model: str,
    size: int,
    seed: int,
    *,
    recipe: Recipe | None = None,
    test: Batch | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[VisionRun, CurveRun]:
    """Train one model of the experiment and measure it (TrainingCancelled when stopped)."""
    if model not in CURVE_MODELS:
        raise ValueError(f"model {model!r} is not one of {', '.join(CURVE_MODELS)}")
    recipe = recipe or recipe_for(model, size, seed)
    started_cpu, started = time.thread_time(), time.perf_counter()
    run = train_config(CONFIGS[model], recipe.options, on_progress, should_stop, schedule=recipe.schedule)
    cpu_s, wall_s = time.thread_time() - started_cpu, time.perf_counter() - started
    return run, measure_run(run, model, cpu_s, wall_s, test or test_batch())


def measure_run(run: VisionRun, model: str, cpu_s: float, wall_s: float, test: Batch) -> CurveRun:
    s = run.options
    size = s.pool_size if s.pool_size is not None else 0  # train_config always fills it in

    def record(accuracy: float, share: float, area: float, map_kind: str, details: dict) -> CurveRun:
        return CurveRun(model, size, s.seed, s.steps, accuracy, share, area, map_kind, cpu_s, wall_s, details)

    if isinstance(run.model, VisionTransformer):
        measured = measure_vit(run.model, test)
        positions = position_summary(position_similarity(run.model), run.model.config.grid)
        details = {
            "mean_distance": measured.mean_distance.tolist(),  # [layers][heads] pixels
            "self_share": measured.self_share.tolist(),  # [layers][heads]
            "cls_share": {m.block: m.share for m in measured.masses[1:]},
            "cls_share_per_head": measured.cls_share_per_head.tolist(),
            "position_neighbours": positions.neighbours,
            "position_others": positions.others,
        }
        best = measured.rollout
        return record(measured.accuracy, best.share, best.area, "attention rollout", details)
    accuracy, masses = attention_mass(run.model, test)
    last = masses[-1]
    return record(accuracy, last.share, last.area, f"CBAM spatial map, {last.block}",
                  {"blocks": {m.block: m.share for m in masses}})  # fmt: skip


@dataclass
class CurveResult:
    runs: list[CurveRun]
    command: str = ""
    load_average: list[float] = field(default_factory=list)  # at the end of the sweep
    test: dict = field(default_factory=lambda: {"first": TEST_FIRST, "count": TEST_SIZE})
    recipes: dict = field(default_factory=dict)

    def sizes(self) -> list[int]:
        return sorted({r.size for r in self.runs})

    def seeds(self) -> list[int]:
        return sorted({r.seed for r in self.runs})

    def of(self, model: str, size: int) -> list[CurveRun]:
        return sorted((r for r in self.runs if r.model == model and r.size == size), key=lambda r: r.seed)

    def accuracies(self, model: str, size: int) -> list[float]:
        return [r.accuracy for r in self.of(model, size)]

    def mean_accuracy(self, model: str, size: int) -> float:
        values = self.accuracies(model, size)
        return float(np.mean(values)) if values else float("nan")

    def gaps(self) -> dict[int, float]:
        """Per size that has both models, the CNN's mean accuracy minus the transformer's, in points (0–100)."""
        both = [n for n in self.sizes() if self.of("cnn", n) and self.of("vit", n)]
        return {n: 100 * (self.mean_accuracy("cnn", n) - self.mean_accuracy("vit", n)) for n in both}

    def caption(self) -> Message:
        gaps = self.gaps()
        sizes = list(gaps)
        text = ", ".join(f"{gaps[n]:.0f}" for n in sizes)
        largest = f"{sizes[-1]:,}"
        if gaps[sizes[-1]] > 0:
            return Message.of("vision.curve_caption_behind", gaps=text, largest=largest)
        return Message.of("vision.curve_caption_overtakes", gaps=text, largest=largest)

    def to_dict(self) -> dict:
        return {
            "format_version": CURVE_FORMAT_VERSION,
            "command": self.command,
            "load_average": self.load_average,
            "test": self.test,
            "recipes": self.recipes,
            "gaps_points": {str(n): round(g, 2) for n, g in self.gaps().items()},
            "caption": str(self.caption()) if self.gaps() else "",
            "runs": [{**asdict(r), "ratio": r.ratio} for r in self.runs],
        }

    @classmethod
    def from_dict(cls, data: dict) -> CurveResult:
        fields = CurveRun.__dataclass_fields__
        runs = [CurveRun(**{k: v for k, v in r.items() if k in fields}) for r in data["runs"]]
        return cls(
            runs, data.get("command", ""), data.get("load_average", []), data["test"], data.get("recipes", {})
        )

    def save(self, path: str | Path) -> None:
        atomic_write(Path(path), lambda f: json.dump(self.to_dict(), f, indent=1, ensure_ascii=False))


def recipes_of(steps: dict[str, int | None] | None = None) -> dict:
    out = {}
    for model in CURVE_MODELS:
        recipe = recipe_for(model, 1, 0, (steps or {}).get(model))
        out[model] = {"config": CONFIGS[model].to_dict(), "settings": recipe.described()}
    return out


def run_curve(
    sizes: tuple[int, ...] = SIZES,
    seeds: tuple[int, ...] = SEEDS,
    *,
    steps: dict[str, int | None] | None = None,
    test_size: int = TEST_SIZE,
    checkpoints: Path | None = None,
    device: str = "cpu",
    on_run: Callable[[CurveRun], None] | None = None,
    command: str = "",
) -> CurveResult:
    """Every size and seed for both models, one after the other (one torch thread each).
    With ``checkpoints``, seed SHIPPED_SEED's models are written there as MODEL-SIZE."""
    from explorer.vision.checkpoints import save_checkpoint

    test = test_batch(test_size)
    runs = []
    for size in sizes:
        for seed in seeds:
            for model in CURVE_MODELS:
                recipe = recipe_for(model, size, seed, (steps or {}).get(model), device=device)
                run, record = train_one(model, size, seed, recipe=recipe, test=test)
                runs.append(record)
                if on_run is not None:
                    on_run(record)
                if checkpoints is not None and seed == SHIPPED_SEED:
                    save_checkpoint(run.model, Path(checkpoints) / f"{model}-{size}", asdict(record))
    result = CurveResult(
        runs, command, load_average(), {"first": TEST_FIRST, "count": test_size}, recipes_of(steps)
    )
    return result


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # not every system has one
        return []


class CurveError(ValueError):
    """A user-facing message about a missing or damaged result file."""


def read_result(path: str | Path) -> CurveResult:
    try:
        if not reading.present(path):  # a loop, also in a folder on the way: said so
            raise CurveError(f"{path}: no such file")
        text = reading.read_bytes(path).decode("utf-8")  # a pipe, a folder: said so
    except reading.ReadError as exc:
        raise CurveError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise CurveError(f"{path}: not a data-curve result ({exc})") from None
    try:
        return CurveResult.from_dict(json_text.loads(text))
    except FileNotFoundError:
        raise CurveError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise CurveError(f"{path}: not a data-curve result ({exc})") from None


def result_of_checkpoints(folder: str | Path) -> CurveResult:
    """The runs whose checkpoints ``run_curve`` wrote into ``folder`` (MODEL-SIZE.json holds each
    run's record beside its weights): a sweep run size by size comes together here."""
    folder = Path(folder)
    try:
        reading.folder(folder)  # a loop, a file: said so, not "no checkpoints in it"
    except reading.ReadError as exc:
        raise CurveError(str(exc)) from None
    fields = CurveRun.__dataclass_fields__
    runs = []
    for path in sorted(folder.glob("*-*.json")):
        if path.name.endswith(".history.json"):  # a run's curves beside its record (gui/lab/shipped)
            continue
        try:
            data = json_text.loads(reading.read_bytes(path, reading.ReadError).decode("utf-8"))
            runs.append(CurveRun(**{k: v for k, v in data.items() if k in fields}))
        except reading.ReadError as exc:  # a pipe, a loop: said so
            raise CurveError(str(exc)) from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, TypeError) as exc:
            raise CurveError(f"{path}: not a data-curve checkpoint ({exc})") from None
    if not runs:
        raise CurveError(f"{folder}: no data-curve checkpoints (MODEL-SIZE.json) in it")
    runs.sort(key=lambda r: (r.size, r.seed, CURVE_MODELS.index(r.model) if r.model in CURVE_MODELS else 9))
    return CurveResult(runs, load_average=load_average(), recipes=recipes_of())


def shipped_result() -> CurveResult:
    return read_result(resource_path("vision", "curve", "results.json"))
