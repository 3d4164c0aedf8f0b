"""The lesson walk on a real X server, driven by xdotool as a teacher's keyboard and mouse are.

    Xvfb :51 -screen 0 1024x768x24 &
    DISPLAY=:51 python tests/gui/xvfb_lesson_walk.py [--language zh_CN] [--no-questions] [--shots DIR]

The window opens full screen in presentation mode with the lesson column open and Questions
on (or off); at every step xdotool presses → as the teacher does. At a question step it first
clicks the last answer and then Reveal; on a lab's first step it clicks into the lab's first
text field and presses Esc. At each step the script checks where the keyboard is (never in a
text field after Esc or →), that every button, label, placeholder and panel title shows its
whole text, that a question (and its answer after Reveal) fits the lesson column without its
scroll bar, and on a lab's tab that nothing scrolls sideways and every figure takes at least
40 % of the stage's height with its rows labelled (tests/gui/test_labs_at_a_projector.py's
measure). It prints one line per step and
exits 1 on any problem or a skipped step. Not collected by pytest (it needs the X server);
tests/gui/test_classroom_walk.py is the offscreen walk CI runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ["QT_QPA_PLATFORM"] = "xcb"

import torch  # noqa: E402  (before Qt, as in main.py)

torch.set_num_threads(1)
from PySide6 import QtCore, QtWidgets  # noqa: E402

from explorer.appstate.lesson import STEPS  # noqa: E402
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from tests.gui.projector_check import (  # noqa: E402
    cut_problems,
    question_below_the_fold,
    sideways_problems,
    title_problems,
)
from tests.gui.test_labs_at_a_projector import too_small  # noqa: E402

TEXT = (QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox, QtWidgets.QTextEdit, QtWidgets.QPlainTextEdit)


def xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True)


def settle(app, window, ms: int = 400) -> None:
    deadline = QtCore.QDeadlineTimer(60_000)
    while window.worker.busy() and not deadline.hasExpired():
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)
    end = QtCore.QDeadlineTimer(ms)
    while not end.hasExpired():
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)


def click(widget: QtWidgets.QWidget, x: int | None = None) -> None:
    centre = widget.mapToGlobal(widget.rect().center())
    left = widget.mapToGlobal(QtCore.QPoint(x, 0)).x() if x is not None else centre.x()
    xdotool("mousemove", str(left), str(centre.y()), "click", "1")


def typing(focus: QtWidgets.QWidget | None) -> bool:
    return isinstance(focus, TEXT) or isinstance(focus.parentWidget() if focus else None, TEXT)


def step_problems(window) -> list[str]:
    """What a class at the back would find wrong with the step on screen."""
    problems = cut_problems(window) + title_problems(window)
    view = window.tabs.current_view()
    if window.state.tab in window.state.labs:
        problems += [
            f"figure {what!r} {h} px < {least} px or rows unlabelled"
            for what, h, least, *_ in too_small(view)
        ]
        problems += sideways_problems(view)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--language", default="zh_CN")
    parser.add_argument("--no-questions", action="store_true", help="Questions off")
    parser.add_argument("--shots", type=Path, default=None, help="a screenshot of each step here")
    args = parser.parse_args()
    if shutil.which("xdotool") is None or not os.environ.get("DISPLAY"):
        print("needs xdotool and an X server (DISPLAY)")
        return 2
    app = configure_app(["walk"])
    window = MainWindow(
        Engine(), AttentionConfig(sentence="The animal didn't cross the street because it was too tired")
    )
    window.show()
    settle(app, window, 1500)
    window.state.set_language(args.language)
    window.state.predict.set_enabled(not args.no_questions)
    window.state.show_lesson(True)
    window.classroom.set_presentation(True)  # full screen: the 1024×768 screen
    for _ in range(2):  # what a window manager does for full screen (Xvfb has none)
        settle(app, window, 1500)
        window.setGeometry(window.screen().geometry())
    window.activateWindow()
    settle(app, window, 1500)
    xdotool("mousemove", "512", "300", "click", "1")  # the teacher clicks the stage once
    settle(app, window)
    bad = 0
    for i, step in enumerate(STEPS):
        panel = window.classroom.lesson.question
        done = []
        if window.state.predict.question() is not None:
            if panel.choice_buttons:
                click(panel.choice_buttons[-1])
                settle(app, window)
                done.append(f"clicked {panel.choice_buttons[-1].text()!r}")
            if panel.reveal_button.isVisible() and panel.reveal_button.isEnabled():
                click(panel.reveal_button)
                settle(app, window)
                done.append("revealed")
        if step.tab in window.state.labs and (i == 0 or STEPS[i - 1].tab != step.tab):
            fields = [
                f for f in window.tabs.current_view().findChildren(QtWidgets.QLineEdit) if f.isVisible()
            ]
            if fields:  # the teacher clicks into the lab's field, then gives the keys back
                click(fields[0], 4)
                settle(app, window)
                xdotool("key", "Escape")
                settle(app, window)
                done.append(f"Esc from {type(fields[0].parentWidget()).__name__}")
        if args.shots is not None:  # a tab switch paints late: wait for it, or the shot shows the last step
            settle(app, window, 1500)
            args.shots.mkdir(parents=True, exist_ok=True)
            window.screen().grabWindow(0).save(str(args.shots / f"step{i + 1:02d}.png"))
        problems = step_problems(window)
        if question_below_the_fold(window):
            problems.append("the question (the answer after Reveal) needs the lesson column's scroll bar")
        if typing(QtWidgets.QApplication.focusWidget()):
            problems.append("the keyboard is in a text field")
        xdotool("key", "Right")
        settle(app, window)
        focus = QtWidgets.QApplication.focusWidget()
        if typing(focus):
            problems.append(f"after → the keyboard is in {type(focus).__name__}")
        expected = min(i + 1, len(STEPS) - 1)
        if window.state.lesson_step != expected:
            problems.append(f"→ went to step {window.state.lesson_step + 1}")
        bad += bool(problems)
        print(
            f"{'BAD' if problems else 'ok '} step {i + 1} {step.stage}{' ' if done else ''}{', '.join(done)} "
            f"→ step {window.state.lesson_step + 1}, keyboard in {type(focus).__name__ if focus else None}"
        )
        for problem in problems:
            print(f"      {problem}")
    sentence = window.controls.sentence.text()
    xdotool("key", "x")  # a key after the walk types nowhere
    settle(app, window)
    if window.controls.sentence.text() != sentence:
        print("BAD the sentence changed under the keys")
        bad += 1
    window.close()
    print(f"{len(STEPS)} steps, {bad} with problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
