"""The Global vs local tab's benchmark in the window: one command, offscreen, one table.

    python bench/local_window_tab.py [--moves 20] [--steps 800] [--local local-p-ours] [--task reorder-zh]

Measures, in the real window (MainWindow on the Global vs local tab, 1024×768, offscreen):
  * a move of the D slider → both alignments drawn (the worker runs the text through the shipped
    global and local models, the GUI draws them), median and 95th percentile, and the GUI
    thread's own CPU time per move; first each D once (decoded), then back and forth over the
    same D values (answered from the last comparisons);
  * one repaint of a window canvas (the local model's alignment with its windows), GUI CPU;
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

from explorer.appstate.local_window import EXAMPLES
from explorer.core.engine import Engine
from explorer.gui.app_setup import configure_app
from explorer.gui.labs.translation.window_view import CHANNEL, TRAIN_PAGE
from explorer.gui.main_window import MainWindow
from explorer.gui.preferences import MemorySettings
from explorer.lab import warmed  # a person reads the page first: the labs' warm-up has ended

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


class Probe:
    """The worker's compute time of each result the tab receives, and the GUI thread's CPU in
    drawing it (show_compared): what a move costs apart from waiting for a core."""

    def __init__(self, view):
        self.compute_ms: list[float] = []
        self.draw_cpu_ms: list[float] = []
        on_result, show = view._on_result, view.show_compared

        def timed_result(result):
            self.compute_ms.append(result.elapsed_ms)
            on_result(result)

        def timed_show(*args):
            thread = time.thread_time()
            show(*args)
            self.draw_cpu_ms.append((time.thread_time() - thread) * 1e3)

        view.context.worker._listeners[CHANNEL] = [timed_result]
        view.show_compared = timed_show

    def take(self) -> tuple[list[float], list[float]]:
        taken = (self.compute_ms, self.draw_cpu_ms)
        self.compute_ms, self.draw_cpu_ms = [], []
        return taken


def slider_moves(app, view, values) -> tuple[list[float], list[float]]:
    """(wall ms, GUI-thread CPU ms) per move to each of ``values``, each until both are drawn."""
    times, cpu = [], []
    for value in values:
        started, thread = time.perf_counter(), time.thread_time()
        view.window_slider.setValue(value)
        pump_until(app, lambda: drawn(view))
        times.append((time.perf_counter() - started) * 1e3)
        cpu.append((time.thread_time() - thread) * 1e3)
    return times, cpu


def canvas_repaints(app, canvas, n: int = 20) -> list[float]:
    """GUI-thread CPU ms of one repaint of ``canvas`` (its paint event, nothing else)."""
    cpu = []
    for _ in range(n):
        thread = time.thread_time()
        canvas.repaint()
        cpu.append((time.thread_time() - thread) * 1e3)
    return cpu


def training(app, view, steps: int, every_s: float = 0.5) -> dict:
    panel, lab = view.training, view.lstate
    # A person presses Train on the training page, so its plots are made before the run starts.
    view.pages.setCurrentIndex(TRAIN_PAGE)
    pump_until(app, lambda: all(plot.plot is not None for plot in panel.plots) and warmed())
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


def summary(times: list[float], cpu: list[float]) -> str:
    return (
        f"median {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms (GUI CPU median "
        f"{statistics.median(cpu):.1f}, max {max(cpu):.1f} ms; n={len(times)})"
    )


def parts(compute: list[float], draw: list[float]) -> str:
    return (
        f"compute median {statistics.median(compute):.1f} ms (max {max(compute):.1f}), drawing GUI CPU "
        f"median {statistics.median(draw):.1f} ms (max {max(draw):.1f})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--local", default="local-p-ours")
    parser.add_argument("--task", default="copy-twice", help="copy-twice or reorder-zh")
    parser.add_argument("--no-training", action="store_true")
    args = parser.parse_args()
    app = configure_app(["bench"])
    print("machine:", machine(), flush=True)
    window = MainWindow(Engine(), settings=MemorySettings())
    window.resize(1024, 768)
    window.show()
    window.state.set_tab(TAB)
    view = window.view(TAB)
    view.lstate.set_task(args.task)
    view.lstate.set_local(args.local)
    if args.task != "copy-twice":
        view.lstate.set_source(EXAMPLES[args.task][1])
    pump_until(app, lambda: drawn(view))
    probe = Probe(view)
    slider_moves(app, view, (4, 3))  # warm up: D 4, back to 3
    fresh = [1, 2, 5, 6, 7, 8, 9, 10, 11, 12][: max(1, args.moves // 2)]
    probe.take()
    first, first_cpu = slider_moves(app, view, fresh)
    first_parts = probe.take()
    again, again_cpu = slider_moves(app, view, [fresh[k % len(fresh)] for k in range(args.moves)])
    again_parts = probe.take()
    paints = canvas_repaints(app, view.local_canvas)
    local = view.compared.local
    words = f"{len(local.source_tokens)} source × {len(local.output_tokens)} output words"
    rows = [
        (f"D slider, a D not yet shown → both alignments drawn, shipped {args.task} global + {args.local}",
         summary(first, first_cpu)),
        ("  of which the worker's compute / the GUI's drawing (its CPU)", parts(*first_parts)),
        ("D slider, back and forth over D values shown before", summary(again, again_cpu)),
        ("  of which the worker's compute / the GUI's drawing (its CPU)", parts(*again_parts)),
        (f"one repaint of the local canvas ({words}), GUI CPU",
         f"median {statistics.median(paints):.2f} ms, max {max(paints):.2f} ms (n={len(paints)})"),
    ]  # fmt: skip
    if not args.no_training:
        r = training(app, view, args.steps)
        goal = "not reached" if r["goal_wall_s"] is None else (
            f"{r['goal_wall_s']:.1f} s wall ({r['goal_train_s']:.1f} s training, step {r['goal_step']})"
        )  # fmt: skip
        rows += [
            (
                f"train {args.task} global + {args.local} ({r['steps']} steps, {r['device']}): p_t within 1 on ≥ 90 %",
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
