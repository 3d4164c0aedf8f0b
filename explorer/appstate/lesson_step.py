"""What a lesson step is: the lesson (explorer/appstate/lesson.py) and the labs' steps
(lesson_translation.py, lesson_vision.py) all build Steps from here, so none imports another.

Qt-free; texts are marked with ``QT_TRANSLATE_NOOP`` for lupdate in the "Lesson" context.
"""

from __future__ import annotations

from dataclasses import dataclass

LESSON_CONTEXT = "Lesson"


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate looks for
    return text


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
