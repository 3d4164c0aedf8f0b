"""The Vision tab's own GUI-thread work, in CPU time: what each slot costs, and where it goes.

    python bench/vision_gui_cpu.py [--repeat 20] [--profile]

Offscreen, a real MainWindow on the Vision tab. Measured with time.thread_time (the GUI
thread's CPU, which the load of other processes does not inflate the way it does wall time):
  * opening the tab (building the view, its first result drawn);
  * one new result drawn (what every training snapshot and every scrub costs the GUI thread),
    on the picture page and on the training page;
  * one page switch.
``--profile`` adds cProfile's top functions of the new-result redraw. Never used for
assertions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402,F401  (before Qt, as in main.py)
from PySide6 import QtCore, QtWidgets  # noqa: E402

import explorer  # noqa: E402,F401
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402


def wait(app, condition, timeout_s: float = 120.0) -> None:
    end = time.time() + timeout_s
    while not condition() and time.time() < end:
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
        time.sleep(0.005)


def cpu_ms(fn) -> float:
    start = time.thread_time()
    fn()
    QtWidgets.QApplication.processEvents()  # the paints it asked for
    return 1000 * (time.thread_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    app = configure_app(["bench"])
    window = MainWindow(Engine(), None)
    window.resize(1600, 900)
    window.show()
    wait(app, lambda: window.trace is not None)
    from explorer.gui.lab.warm import plotting_ready

    wait(app, plotting_ready)
    start = time.thread_time()
    window.state.set_tab("vision")
    view = window.view("vision")
    wait(app, lambda: view.result is not None and not window.worker.busy())
    QtWidgets.QApplication.processEvents()
    opened = 1000 * (time.thread_time() - start)  # includes the waits' own polling: an upper bound
    rows = [("open the tab (upper bound)", [opened])]
    result = view.result
    for page in ("picture", "train"):
        view.vision.set_page(page)
        wait(app, lambda: not window.worker.busy())
        QtWidgets.QApplication.processEvents()
        rows.append(
            (
                f"a new result drawn, {page} page",
                [cpu_ms(lambda: view._on_result(Ok(result))) for _ in range(args.repeat)],
            )
        )
    pages = ("picture", "channel", "spatial", "residual", "train")
    switches = []
    for k in range(args.repeat):
        page = pages[k % len(pages)]
        switches.append(cpu_ms(lambda page=page: view.vision.set_page(page)))
    rows.append(("a page switch", switches))
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; GUI-thread CPU ms")
    print(f"{'what':38} {'median':>7} {'max':>7}")
    for name, values in rows:
        print(f"{name:38} {statistics.median(values):7.1f} {max(values):7.1f}")
    if args.profile:
        view.vision.set_page("picture")
        profile = cProfile.Profile(time.thread_time)
        profile.enable()
        for _ in range(args.repeat):
            view._on_result(Ok(result))
            QtWidgets.QApplication.processEvents()
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    window.close()


class Ok:
    """A worker result as the tab receives it."""

    ok = True
    error = None

    def __init__(self, value):
        self.value = value


if __name__ == "__main__":
    main()
