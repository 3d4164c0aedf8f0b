"""Train pressed soon after a lab's tab opens: the GUI thread's longest block around the click.

    python bench/vision_early_click.py [--lab vision|lm] [--after-start 0.3] [--delay 0.5] [--profile]
                                       [--stalls FILE]

Offscreen, one real MainWindow. ``--after-start`` seconds after the window has drawn its first
trace (0.3: before the labs' warm-up starts at idle; 8: after it), the lab's tab is opened with
its training page in front (as a lesson step does), and ``--delay`` seconds later its Train
button is clicked. A 5 ms timer on the GUI thread records every gap between its ticks, from the
tab's opening to ``--after-step`` seconds after the run's first step: the longest wall gap, the
GUI thread's CPU in it (time.thread_time), the worst tick by CPU, before and after the click.
Also reported: where the labs' warm-up was at the tab's opening and at the click, and when the
run's first step came.
``--profile`` prints cProfile's functions of the three worst ticks (thread CPU clock; it
slows Python about twofold). Never used for assertions.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import torch  # noqa: E402  (before Qt, as in main.py)
from lab_tick_cpu import TickMeter  # noqa: E402
from PySide6 import QtCore  # noqa: E402
from vision_tab import pause, wait  # noqa: E402

import explorer  # noqa: E402,F401  (its thread settings come before torch)
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402
from explorer.lab import warmed  # noqa: E402
from explorer.lab.warm_up import started  # noqa: E402


class Stalls(QtCore.QObject):
    """A stall finder: faulthandler dumps every thread's stack when the GUI thread has not
    re-armed it for 70 ms (re-armed every 5 ms by a timer on the GUI thread)."""

    def __init__(self, path: str):
        super().__init__()
        self.file = open(path, "w", encoding="utf-8")  # faulthandler writes to it until stop()
        self.timer = QtCore.QTimer(self, interval=5)
        self.timer.timeout.connect(self._arm)
        self._arm()
        self.timer.start()

    def _arm(self) -> None:
        faulthandler.dump_traceback_later(0.07, repeat=False, file=self.file)

    def stop(self) -> None:
        self.timer.stop()
        faulthandler.cancel_dump_traceback_later()
        self.file.close()


def open_training(window: MainWindow, lab: str):
    """The lab's tab, its training page in front: (the training page, the lab's state)."""
    window.state.set_tab(lab)
    view = window.view(lab)
    if lab == "vision":
        view.vision.set_page("train")
        return view.train_page, view.vision
    view.lab.set_page("train")  # the language-model lab
    return view.train_page, view.lab


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", default="vision", choices=("vision", "lm"))
    parser.add_argument(
        "--after-start",
        type=float,
        default=0.3,
        help="seconds from the window's first trace to opening the tab",
    )
    parser.add_argument(
        "--delay", type=float, default=0.5, help="seconds from the tab's opening to the click"
    )
    parser.add_argument("--after-step", type=float, default=2.0, help="seconds measured after the first step")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--size", default="1400x900")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--stalls", metavar="FILE", help="every thread's stack written here when the GUI thread misses 70 ms"
    )
    args = parser.parse_args()
    torch.set_num_threads(1)
    configure_app(["bench"])
    window = MainWindow(
        Engine(), AttentionConfig(sentence="Thinking Machines", weights="random"), settings=MemorySettings()
    )
    w, h = (int(v) for v in args.size.split("x"))
    window.resize(w, h)
    window.show()
    wait(lambda: window.trace is not None)
    pause(int(args.after_start * 1000))
    load = os.getloadavg()
    meter = TickMeter(profile=args.profile)
    stalls = Stalls(args.stalls) if args.stalls else None
    warm_at_open = "over" if warmed() and started() else ("under way" if started() else "not started")
    meter.start()
    page, lab = open_training(window, args.lab)
    lab.set_training_plan(args.steps, 0)
    pause(int(args.delay * 1000))
    warm_at_click = "under way" if not warmed() else "over"
    clicked = time.perf_counter()
    page.train_button.click()
    run = lab.run
    stepped: list[float] = []

    def seen() -> bool:
        if not stepped and run is not None and run.step > 0:
            stepped.append(time.perf_counter())
        return bool(stepped) and time.perf_counter() - stepped[0] > args.after_step

    wait(seen, timeout_s=120)
    meter.stop()
    if stalls is not None:
        stalls.stop()
    lab.stop_training()
    ticks = list(zip(meter.gaps, meter.windows))
    before = [t for t in ticks if t[1][1] <= clicked]
    after = [t for t in ticks if t[1][1] > clicked]
    for spent, text in meter.worst:
        print(f"\n--- a tick of {spent:.1f} ms GUI CPU (profiled) ---")
        print("\n".join(line for line in text.splitlines()[6:] if line.strip()))
    print(
        f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; lab {args.lab}; tab opened "
        f"{args.after_start:.1f} s after the window's first trace, Train clicked {args.delay:.1f} s after that"
        f"{'; PROFILED (numbers inflated)' if args.profile else ''}"
    )
    print(
        "| lab | warm-up at the tab's opening | at the click | ticks | longest GUI block ms | GUI CPU in it ms "
        "| worst tick GUI CPU ms | first step s after the click |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, part in (("opening the tab (build, first draw)", before), ("from the click on", after)):
        (wall, cpu), _ = max(part, key=lambda t: t[0][0])
        worst = max(c for (_, c), _ in part)
        print(
            f"| {args.lab}: {name} | {warm_at_open} | {warm_at_click} | {len(part)} | {wall:.1f} | {cpu:.1f} | "
            f"{worst:.1f} | {stepped[0] - clicked:.2f} |"
        )
    print(
        "worst ticks after the click by GUI CPU (ms CPU / ms wall at s after the click): "
        + ", ".join(
            f"{c:.1f} / {g:.0f} at {w0 - clicked:+.2f}"
            for (g, c), (w0, _) in sorted(after, key=lambda t: -t[0][1])[:6]
        )
    )
    window.worker.shutdown(timeout=30)
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
