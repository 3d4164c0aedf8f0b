"""docs/architecture.md's recipe for a lab, followed for a third one in miniature: a toy task and
a toy model (Qt-free), its state, its tab, one lesson step, registered in the registries and
nowhere else; trained two steps in the window, saved in a session and opened again.

The task: four numbers in, the position of the largest out. The model: one head of the staged
attention (explorer.core.attention.attend), a learned query over the numbers' embeddings.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from functools import partial
from typing import Any

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lab import LabState
from explorer.appstate.labs import LabEntry, register_lab
from explorer.appstate.lesson import STEPS, register_track
from explorer.appstate.lesson_step import Step, Track
from explorer.appstate.session import apply_session, load_session, save_session, session_of
from explorer.core.attention import Projections, Settings, attend
from explorer.core.device import torch_threads
from explorer.gui.lab.curves import Curves, Series
from explorer.gui.lab.training import TrainingContent, TrainingPage
from explorer.gui.views.base import View
from explorer.gui.views.registry import TabSpec, register_tab
from explorer.lab import Goal, LabRun, TrainOptions
from explorer.training import seed_everything, train

from .helpers import WAIT_MS

# -- the Qt-free package: data, model, metrics, training -----------------------------------------
N, WIDTH = 4, 8
GOAL = Goal("accuracy", 0.9)
DEFAULTS = TrainOptions(
    steps=200, batch_size=64, learning_rate=1e-2, eval_every=1, eval_size=256, device="cpu"
)


def batch(rng: np.random.Generator, size: int) -> tuple[torch.Tensor, torch.Tensor]:
    numbers = torch.from_numpy(rng.random((size, N), dtype=np.float32))
    return numbers, numbers.argmax(dim=1)


class ArgMax(torch.nn.Module):
    """Each number embedded, one learned query attends over them; the weights are the answer."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Linear(1, WIDTH)
        self.query = torch.nn.Parameter(torch.randn(1, WIDTH))
        self.w = torch.nn.ParameterList(torch.nn.Parameter(torch.eye(WIDTH)) for _ in range(4))

    def forward(self, numbers: torch.Tensor) -> torch.Tensor:
        scores = []
        for row in numbers:
            keys = self.embed(row[:, None])
            stages = attend(self.query, keys, Projections(*self.w), Settings(heads=1))
            scores.append(stages.scaled[0, 0])
        return torch.stack(scores)  # [batch, N]: the logits of each position


def train_toy(options: TrainOptions, on_progress=None, should_stop=None, measures=()):
    with torch_threads(options.threads):
        seed_everything(options.seed)
        model = ArgMax()
        optimiser = torch.optim.Adam(model.parameters(), lr=options.learning_rate)
        rng = np.random.default_rng(options.seed)
        held_out = batch(np.random.default_rng(10_000), options.eval_size)

        def take_step(i: int) -> float:
            numbers, answer = batch(rng, options.batch_size)
            loss = F.cross_entropy(model(numbers), answer)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            return loss.item()

        def evaluate() -> dict[str, float]:
            numbers, answer = held_out
            return {"accuracy": (model(numbers).argmax(dim=1) == answer).float().mean().item()}

        log = train(
            model,
            take_step,
            evaluate,
            steps=options.steps,
            eval_every=options.eval_every,
            snapshot_every=options.snapshot_every,
            on_progress=on_progress,
            should_stop=should_stop,
            measures=measures,
        )
        return model, log


# -- its state ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ToySettings:
    train_steps: int = 200
    train_seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> ToySettings:
        if not isinstance(data, dict) or set(data) - {"train_steps", "train_seed"}:
            raise ValueError("toy must be an object of train_steps and train_seed")
        return cls(**data)


class ToyState(LabState):
    EVENTS = ("training", "weights")
    GOAL = GOAL
    OPTIONS = replace(DEFAULTS, snapshot_every=1)

    def __init__(self) -> None:
        super().__init__()
        self.settings = ToySettings()

    def apply(self, settings: ToySettings) -> None:
        self.set_training_plan(settings.train_steps, settings.train_seed)

    def plan(self) -> tuple[int, int]:
        return self.settings.train_steps, self.settings.train_seed

    def _store_plan(self, steps: int, seed: int) -> bool:
        new = ToySettings(steps, seed)
        if new == self.settings:
            return False
        self.settings = new
        self._emit("training")
        return True

    def new_run(self, options: TrainOptions) -> LabRun:
        return LabRun(partial(train_toy), options, goal=GOAL, spec="argmax")


# -- its tab ---------------------------------------------------------------------------------------------
class ToyTraining(TrainingContent):
    steps_range = (1, 1000)

    def intro(self, lab: ToyState) -> str:
        return "Train the arg-max model"

    def measure(self, run: LabRun) -> str | None:
        value = run.last("accuracy")
        return None if value is None else f"accuracy {value:.2f}"

    def curves(self, lab: ToyState, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        losses = run.losses if run is not None else []
        return [Curves(series=[Series("loss", np.arange(1, len(losses) + 1), np.asarray(losses), "#0072B2")])]


class ToyView(View):
    TAB = "toy"

    def __init__(self, context, parent=None):
        super().__init__(context, parent)
        layout = QtWidgets.QVBoxLayout(self)
        self.training = TrainingPage(self.state, self.state.labs["toy"], ToyTraining())
        layout.addWidget(self.training)

    def draw(self, prepared):
        self.prepared, self.stale = prepared, False
        return iter(())


# -- its lesson step ---------------------------------------------------------------------------------------
TOY_TRACK = Track(
    "toy",
    "The arg-max lab",
    (
        Step(
            "toy_train",
            "A query finds the largest number",
            "αⱼ = softmax(q·kⱼ)",
            "Train it.",
            tab="toy",
            id="toy.train",
        ),
    ),
)


# -- registered in the registries, and nowhere else ------------------------------------------------------
@pytest.fixture
def toy_lab():
    undo = [
        register_lab(LabEntry("toy", ToyState, ToySettings)),
        register_tab(TabSpec("toy", "Toy", "A toy lab from the recipe", f"{__name__}:ToyView")),
        register_track(TOY_TRACK),
    ]
    yield
    for take_out in undo:
        take_out()


def test_a_third_lab_from_the_recipe_trains_in_the_window_and_lives_in_sessions(
    qtbot, toy_lab, make_window, tmp_path
):
    window = make_window()
    window.state.set_tab("toy")
    view = window.view("toy")
    assert isinstance(view, ToyView) and window.tabs.currentWidget().isAncestorOf(view)
    assert window.tabs.currentWidget() is window.tabs.labs_page and window.tabs.title("toy") == "Toy"
    page, lab = view.training, window.state.labs["toy"]
    page.steps.setValue(2)
    page.seed.setValue(5)
    assert lab.settings == ToySettings(2, 5)
    qtbot.mouseClick(page.train_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: lab.status == "done", timeout=WAIT_MS)
    run = lab.run
    _, log = train_toy(replace(ToyState.OPTIONS, steps=2, seed=5))  # what the lab trains, step for step
    assert run.losses == log.losses and run.step == 2 and [s.step for s in run.snapshots] == [0, 1, 2]
    assert run.eval_steps == [1, 2] and run.series("accuracy") == [m["accuracy"] for m in log.metrics]
    qtbot.waitUntil(lambda: list(page.curve_data(0)[1]) == run.losses, timeout=WAIT_MS)
    assert "Finished." in page.status.text() and page.progress.value() == 2
    assert lab.follow and lab.shown_step() == 2  # the trained weights are in use
    # its lesson step: walked with the others, it opens the lab's tab
    window.state.set_tab("pipeline")
    window.state.show_lesson(True)
    window.state.set_lesson_step(len(STEPS) - 1)
    assert STEPS[window.state.lesson_step].id == "toy.train" and window.state.tab == "toy"
    assert window.tabs.currentWidget().isAncestorOf(view)
    window.state.set_lesson_track("toy")  # a registered track is picked alone like a listed one
    assert STEPS[window.state.lesson_step].id == "toy.train"
    # sessions: saved under the lab's name, opened again, and an older file without it still opens
    save_session(tmp_path / "toy.json", session_of(window.state))
    other = make_window()
    apply_session(other.state, load_session(tmp_path / "toy.json"))
    assert other.state.labs["toy"].settings == ToySettings(2, 5)
    assert other.state.labs["toy"].run is None and other.state.labs["toy"].weights == "shipped"
    assert STEPS[other.state.lesson_step].id == "toy.train" and other.state.tab == "toy"
    (tmp_path / "old.json").write_text(
        (tmp_path / "toy.json").read_text(encoding="utf-8").replace('"toy"', '"unknown_lab"'),
        encoding="utf-8",
    )
    apply_session(other.state, load_session(tmp_path / "old.json"))
    assert other.state.labs["toy"].settings == ToySettings()  # not in the file: its defaults
    for w in (window, other):  # the toy track leaves with the fixture, before the windows close:
        w.state.set_lesson_track("all")  # their look-ahead timer read it after (a KeyError on CI)
        w.classroom._ahead.stop()
