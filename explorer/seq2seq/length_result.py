"""The length experiment's record: every evaluation's curves, how long training took, how to
redo it. Written by ``python -m explorer length-curve``; the shipped one is
``resources/seq2seq/length-curve-<task>.json`` beside the checkpoints it measured.

    result = shipped_length_result("compound-fr")
    result.final["attention"].long.word_accuracy      the numbers the figure shows
    result.evaluations                                [(step, {model: LengthCurve})] as it trained
"""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass, field
from pathlib import Path

from explorer import json_text, reading
from explorer.atomic import atomic_write
from explorer.finite import strict_json
from explorer.resources import resource_path
from explorer.seq2seq.length_curve import BIN_WIDTH, EVAL_SEED, LONG, SHORT, LengthCurve
from explorer.seq2seq.spec import LabError

RESULT_KIND = "attention-explorer length curve"
RESULT_VERSION = 1
SHIPPED_TASK = "compound-fr"


class LengthResultError(LabError):
    """A length-curve file that is missing, not JSON, or not one."""


def shipped_result_path(task: str = SHIPPED_TASK) -> Path:
    return resource_path("seq2seq", f"length-curve-{task}.json")


@dataclass
class LengthResult:
    task: str
    models: list[str]
    parameters: dict[str, int]
    steps: int
    seed: int
    options: dict
    cpu_seconds: dict[str, float]  # training steps only, per model
    eval_seconds: float
    wall_seconds: float
    device: str
    evaluations: list[tuple[int, dict[str, LengthCurve]]]
    command: str = ""
    load_average: list[float] = field(default_factory=list)  # the 1-minute load, at start and end
    checkpoints: dict[str, str] = field(default_factory=dict)  # model → folder name, when saved
    environment: dict[str, str] = field(default_factory=dict)

    @property
    def final(self) -> dict[str, LengthCurve]:
        return self.evaluations[-1][1]

    @classmethod
    def from_training(
        cls, result, command: str = "", wall_seconds: float = 0.0, load_average=()
    ) -> LengthResult:
        import torch

        return cls(
            task=result.task.name,
            models=list(result.models),
            parameters=result.parameters,
            steps=result.log.steps_done,
            seed=result.seed,
            options=result.options.record(),
            cpu_seconds={k: round(v, 2) for k, v in result.cpu_seconds.items()},
            eval_seconds=round(result.eval_seconds, 2),
            wall_seconds=round(wall_seconds, 2),
            device=result.device,
            evaluations=list(result.curves),
            command=command,
            load_average=[round(x, 2) for x in load_average],
            environment={"torch": torch.__version__, "python": platform.python_version()},
        )

    def to_dict(self) -> dict:
        return {
            "kind": RESULT_KIND,
            "version": RESULT_VERSION,
            "task": self.task,
            "models": self.models,
            "parameters": self.parameters,
            "steps": self.steps,
            "seed": self.seed,
            "options": self.options,
            "cpu_seconds": self.cpu_seconds,
            "eval_seconds": self.eval_seconds,
            "wall_seconds": self.wall_seconds,
            "device": self.device,
            "command": self.command,
            "load_average": self.load_average,
            "checkpoints": self.checkpoints,
            "environment": self.environment,
            "short_words": SHORT,
            "long_words": LONG,
            "bin_width": BIN_WIDTH,
            "eval_seed": EVAL_SEED,
            "evaluations": [
                {"step": step, "curves": {m: c.to_dict() for m, c in curves.items()}}
                for step, curves in self.evaluations
            ],
        }

    @classmethod
    def from_dict(cls, data: dict) -> LengthResult:
        evaluations = [
            (int(e["step"]), {m: LengthCurve.from_dict(c) for m, c in e["curves"].items()})
            for e in data["evaluations"]
        ]
        if not evaluations:
            raise ValueError("no evaluations")
        names = ("task", "models", "parameters", "steps", "seed", "options", "cpu_seconds", "eval_seconds",
                 "wall_seconds", "device", "command", "load_average", "checkpoints", "environment")  # fmt: skip
        return cls(**{k: data[k] for k in names}, evaluations=evaluations)

    def save(self, path: str | Path) -> None:
        text = strict_json(
            self.to_dict(), Path(path).name, ensure_ascii=False, indent=1
        )  # NotFinite: nothing written
        atomic_write(Path(path), lambda f: f.write(text), "w")


def load_length_result(path: str | Path) -> LengthResult:
    path = Path(path)
    try:
        text = reading.read_bytes(path, LengthResultError).decode("utf-8")  # a pipe, a loop: said so
        data = json_text.loads(text, allow_nan=False)  # written again
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LengthResultError.of("seq2seq.length_file", path=str(path), detail=str(exc)) from None
    if not isinstance(data, dict) or data.get("kind") != RESULT_KIND:
        raise LengthResultError.of(
            "seq2seq.length_file", path=str(path), detail=f"kind is not {RESULT_KIND!r}"
        )
    try:
        return LengthResult.from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise LengthResultError.of("seq2seq.length_file", path=str(path), detail=_detail(exc)) from None


def _detail(exc: Exception) -> str:
    """What is wrong, in the words of the check that failed (never Python's repr)."""
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r} in it" if exc.args else "a field is missing"
    return str(exc) or type(exc).__name__


def _kind(data) -> object:
    return data.get("kind") if isinstance(data, dict) else type(data).__name__


def shipped_tasks() -> list[str]:
    """The tasks a length-curve result is shipped for."""
    found = resource_path("seq2seq").glob("length-curve-*.json")
    return sorted(p.name.removeprefix("length-curve-").removesuffix(".json") for p in found)


def shipped_length_result(task: str = SHIPPED_TASK) -> LengthResult:
    """The shipped result of ``task``; LengthResultError saying which tasks have one when it
    has none (not "no such file": nothing is wrong with the install)."""
    path = shipped_result_path(task)
    if not path.exists():
        raise LengthResultError.of(
            "seq2seq.length_not_shipped", task=task, shipped=", ".join(shipped_tasks())
        )
    return load_length_result(path)
