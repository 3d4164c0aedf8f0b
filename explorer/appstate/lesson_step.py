"""What a lesson step and a track are: the lesson (explorer/appstate/lesson.py) and the labs'
tracks (lesson_translation.py, lesson_vision.py) all build them from here, so none imports
another.

Qt-free; texts are marked with ``QT_TRANSLATE_NOOP`` for lupdate in the "Lesson" context.
"""

from __future__ import annotations

from dataclasses import dataclass

LESSON_CONTEXT = "Lesson"


@dataclass(frozen=True)
class Question:
    """Asked before a step's numbers are shown: the class predicts, then the real weights reveal.

    kind: "key" (click the key the query looks at most, in the weights or the lines) or
    "choice" (pick one of ``choices``). ``answer`` names how the right answer is computed from
    the trace (explorer.appstate.predict.ANSWERS). The prompt may name ``{query}``: the first
    token of the input among ``query`` (else the selected row, else the first word).
    """

    kind: str
    prompt: str
    answer: str
    choices: tuple[str, ...] = ()
    query: tuple[str, ...] = ("it", "它")


@dataclass(frozen=True)
class Step:
    stage: str  # which panel(s) the step highlights: a trace stage name
    title: str
    formula: str  # symbols stay as they are; one with words is marked for translation
    explanation: str
    tab: str = "pipeline"  # the tab the step is shown on: walking the lesson switches to it
    question: Question | None = None  # predict, then reveal (when the lesson asks questions)
    # "<track>.<name>", never changed once shipped: sessions and --step name the step by it
    id: str = ""


@dataclass(frozen=True)
class Track:
    """A lesson a teacher can pick (the lesson dock's list): its steps in teaching order."""

    id: str
    title: str  # marked for lupdate in the "Lesson" context
    steps: tuple[Step, ...]

    def __post_init__(self) -> None:
        if not self.steps:
            raise ValueError(f"track {self.id!r} has no steps")
        for step in self.steps:
            name = step.id.removeprefix(f"{self.id}.")
            if name == step.id or not name:
                raise ValueError(
                    f"a step of track {self.id!r} needs id={self.id + '.<name>'!r}, not {step.id!r}"
                )
