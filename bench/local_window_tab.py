"""The Global vs local tab's benchmark in the window: one command, offscreen, one table.

    python bench/local_window_tab.py [--moves 20] [--steps 800] [--local local-p-ours]

Measures, in the real window (MainWindow on the Global vs local tab, 1024×768, offscreen):
  * a move of the D slider → both alignments drawn (the worker runs the text through the shipped
    global and local models, the GUI draws them), median and 95th percentile;
  * training global and a local model from scratch with the Train button of the training page (the window's options:
    one torch thread, an evaluation every 50 steps): the wall-clock time from the click until the
    window shows p_t within 1 of the truth on ≥ 90 % of steps (the lab's goal), the training
    thread's own time to it, and the longest the GUI thread was blocked meanwhile (bench/
    translation_tab.py's GapMeter: a 5 ms timer's largest gap, and the GUI thread's CPU time in
    it), with the slider moved every 0.5 s so the tab keeps comparing with the newest snapshot.
Timings are wall clock: the load average is printed with the table. Never used for assertions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: F401  (before Qt, as in main.py)
from PySide6 import QtCore, QtTest
from translation_tab import GapMeter, machine, percentile

from explorer.core.engine import Engine
from explorer.gui.app_setup import configure_app
from explorer.gui.labs.translation.window_view import TRAIN_PAGE
from explorer.gui.main_window import MainWindow
from explorer.gui.preferences import MemorySettings

TAB = "local"


def pump_until(app, condition, timeout_s: float = 600.0) -> None:
    deadline = time.perf_counter() + timeout_s
    while not condition():
        if time.perf_counter() > deadline:
            raise RuntimeError("timed out")
        app.processEvents()
        time.sleep(0.002)


def drawn(view) -> bool:
    return (
        view.compared is not None and view._wanted is None and view.compared_request == view.lstate.request()
    )


def slider_moves(app, view, n: int) -> list[float]:
    times = []
    for k in range(n + 2):  # two to warm up
        started = time.perf_counter()
        view.window_slider.setValue(1 + (k % 8))
        pump_until(app, lambda: drawn(view))
        if k >= 2:
            times.append((time.perf_counter() - started) * 1e3)
    return times


def training(app, view, steps: int, every_s: float = 0.5) -> dict:
    panel, lab = view.training, view.lstate
    # A person presses Train on the training page, so its plots are made before the run starts.
    view.pages.setCurrentIndex(TRAIN_PAGE)
    pump_until(app, lambda: all(plot.plot is not None for plot in panel.plots))
    panel.steps.setValue(steps)
    meter = GapMeter()
    meter.start()
    started = time.perf_counter()
    QtTest.QTest.mouseClick(panel.train_button, QtCore.Qt.MouseButton.LeftButton)
    run = lab.run
    seen_goal_s, next_move, moves = None, started + every_s, 0
    while run.running or panel.poll_timer.isActive():
        app.processEvents()
        time.sleep(0.002)
        now = time.perf_counter()
        if seen_goal_s is None and run.goal_step is not None:
            seen_goal_s = now - started
        if now >= next_move:
            view.window_slider.setValue(2 + moves % 3)
            moves += 1
            next_move = now + every_s
    wall = time.perf_counter() - started
    meter.stop()
    gaps = sorted(meter.gaps)
    return dict(
        steps=run.step, status=run.status, goal_wall_s=seen_goal_s, goal_train_s=run.goal_s,
        goal_step=run.goal_step, final=run.last("window_share"), wall_s=wall, block_ms=meter.max_gap,
        block_cpu_ms=meter.max_gap_cpu, gap_p99=percentile(gaps, 0.99), over_50=sum(g > 50 for g in gaps),
        moves=moves, device=run.device,
    )  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--local", default="local-p-ours")
    parser.add_argument("--no-training", action="store_true")
    args = parser.parse_args()
    app = configure_app(["bench"])
    print("machine:", machine(), flush=True)
    window = MainWindow(Engine(), settings=MemorySettings())
    window.resize(1024, 768)
    window.show()
    window.state.set_tab(TAB)
    view = window.view(TAB)
    view.lstate.set_local(args.local)
    pump_until(app, lambda: drawn(view))
    times = slider_moves(app, view, args.moves)
    rows = [
        (
            f"D slider → both alignments drawn, shipped global + {args.local}",
            f"median {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms (n={len(times)})",
        )
    ]
    if not args.no_training:
        r = training(app, view, args.steps)
        goal = "not reached" if r["goal_wall_s"] is None else (
            f"{r['goal_wall_s']:.1f} s wall ({r['goal_train_s']:.1f} s training, step {r['goal_step']})"
        )  # fmt: skip
        rows += [
            (
                f"train global + {args.local} ({r['steps']} steps, {r['device']}): p_t within 1 on ≥ 90 %",
                goal,
            ),
            ("  p_t within 1 at the end", f"{r['final']:.3f}"),
            ("  whole run", f"{r['wall_s']:.1f} s wall, status {r['status']}"),
            (
                "  GUI thread blocked while training",
                f"longest {r['block_ms']:.0f} ms (its own CPU {r['block_cpu_ms']:.0f} ms), p99 gap "
                f"{r['gap_p99']:.0f} ms, {r['over_50']} gaps > 50 ms, {r['moves']} slider moves",
            ),
        ]
    print("| measured | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    print("machine after:", machine())
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
