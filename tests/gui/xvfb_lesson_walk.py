"""The lesson walk on a real X server, driven by xdotool as a teacher's keyboard and mouse are.

    Xvfb :51 -screen 0 1024x768x24 &
    DISPLAY=:51 python tests/gui/xvfb_lesson_walk.py [--language zh_CN] [--shots DIR]

The window opens full screen in presentation mode with Questions on; at every step xdotool
presses → (at a question step it first clicks the last answer, then →), and the script
records where the keyboard is and what the screen shows. It prints one line per step and
exits 1 if the keyboard ever landed in a text field or a step was skipped. Not collected by
pytest (it needs the X server); tests/gui/test_classroom_walk.py is the offscreen walk CI runs.
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--language", default="zh_CN")
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
    window.state.predict.set_enabled(True)
    window.classroom.set_presentation(True)  # full screen: the 1024×768 screen
    for _ in range(2):  # what a window manager does for full screen (Xvfb has none)
        settle(app, window, 1500)
        window.setGeometry(window.screen().geometry())
    window.activateWindow()
    settle(app, window, 1500)
    xdotool("mousemove", "512", "300", "click", "1")  # the teacher clicks the stage once
    settle(app, window)
    bad = 0
    sentence = window.controls.sentence.text()
    for i, step in enumerate(STEPS):
        panel = window.classroom.lesson.question
        answered = ""
        if window.state.predict.question() is not None and panel.choice_buttons:
            button = panel.choice_buttons[-1]
            centre = button.mapToGlobal(button.rect().center())
            xdotool("mousemove", str(centre.x()), str(centre.y()), "click", "1")
            settle(app, window)
            answered = f" clicked {button.text()!r}"
        if args.shots is not None:  # a tab switch paints late: wait for it, or the shot shows the last step
            settle(app, window, 1500)
            args.shots.mkdir(parents=True, exist_ok=True)
            window.screen().grabWindow(0).save(str(args.shots / f"step{i + 1:02d}.png"))
        xdotool("key", "Right")
        settle(app, window)
        focus = QtWidgets.QApplication.focusWidget()
        in_text = isinstance(focus, TEXT) or isinstance(focus.parentWidget() if focus else None, TEXT)
        expected = min(i + 1, len(STEPS) - 1)
        ok = not in_text and window.state.lesson_step == expected
        bad += not ok
        print(
            f"{'ok ' if ok else 'BAD'} step {i + 1} {step.stage}{answered} → step {window.state.lesson_step + 1}, "
            f"keyboard in {type(focus).__name__ if focus else None}"
        )
    xdotool("key", "x")  # a key after the walk types nowhere
    settle(app, window)
    if window.controls.sentence.text() != sentence:
        print("BAD the sentence changed under the keys")
        bad += 1
    window.close()
    print(f"{len(STEPS)} steps, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
