#!/usr/bin/env python3
"""The GUI thread's cost of board mode, predict-then-reveal and the lines view.

    python bench/classroom_views.py [--repeats 20]

Prints one table of medians and maxima of the wall time, and the median CPU time of the
GUI thread (ms), over --repeats runs, offscreen:
  * board_trace: the board's computation (on the worker in the window), 3 tokens × 4 numbers,
    2 heads, and 8 tokens × 8 numbers, 8 heads;
  * Board tab: drawing a new board trace (figure, layout, paint) at 1024×768 presentation;
  * reveal: the pipeline redrawn when a lesson question is revealed (15 tokens, 12 heads,
    MiniLM; the window's limit for a GUI block is 50 ms);
  * lines: the pipeline's lines view (15 tokens) and the All-heads lines with 12 heads
    overlaid, painted from scratch (a new picture) and repainted (from its cached image).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # before Qt


def timed(fn, repeats: int) -> tuple[float, float, float]:
    """Median and maximum wall time, and median CPU time of this thread (ms): on a busy
    machine the wall time includes waiting for a core, the CPU time does not."""
    times, cpu = [], []
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.thread_time()
        fn()
        times.append((time.perf_counter() - started) * 1e3)
        cpu.append((time.thread_time() - started_cpu) * 1e3)
    return statistics.median(times), max(times), statistics.median(cpu)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()

    from PySide6 import QtCore, QtWidgets

    from explorer.appstate.board import BOARD_PRESETS
    from explorer.appstate.lesson import STEPS
    from explorer.core.board import Board, board_trace
    from explorer.core.config import AttentionConfig
    from explorer.core.engine import Engine
    from explorer.gui.app_setup import configure_app
    from explorer.gui.main_window import MainWindow
    from explorer.gui.preferences import MemorySettings

    app = configure_app(["bench"])
    rows = []
    options = AttentionConfig()
    small = BOARD_PRESETS[2].board
    big = Board(
        tuple(f"t{i}" for i in range(8)),
        x=tuple(tuple(float(i + j) for j in range(8)) for i in range(8)),
        heads=8,
    )
    rows.append(
        ("board_trace 3×4, 2 heads (worker)", *timed(lambda: board_trace(small, options), args.repeats))
    )
    rows.append(
        ("board_trace 8×8, 8 heads (worker)", *timed(lambda: board_trace(big, options), args.repeats))
    )

    def settle(window) -> None:
        for _ in range(400):
            app.processEvents()
            if window.trace is not None and not window.worker.busy():
                return
            time.sleep(0.01)

    w = MainWindow(
        Engine(),
        AttentionConfig(sentence="The animal didn't cross the street because it was too tired", layer=5),
        settings=MemorySettings(),
    )
    w.resize(1024, 768)
    w.show()
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    settle(w)
    w.state.show_lesson(False)
    w.state.set_stage_zoom(None)
    w.state.set_tab("board")
    board = w.view("board")
    for _ in range(100):
        app.processEvents()
        if board.trace is not None:
            break
        time.sleep(0.01)
    rows.append(
        (
            "Board tab: draw a new board trace (GUI)",
            *timed(lambda: (board._show(), app.processEvents()), args.repeats),
        )
    )

    w.state.set_tab("pipeline")
    w.state.select_head(11)
    w.state.show_lesson(True)
    w.state.set_lesson_step(next(i for i, s in enumerate(STEPS) if s.stage == "weights"))
    w.state.predict.set_enabled(True)
    app.processEvents()

    def reveal_and_ask_again() -> None:
        w.state.predict.revealed = False  # the bench repeats the reveal; the window never does
        w.state.predict.reveal()
        app.processEvents()

    rows.append(("reveal: pipeline redrawn, 15 tokens (GUI)", *timed(reveal_and_ask_again, args.repeats)))

    w.state.lines.set_pipeline(True)
    lines = w.pipeline.lines_box.view

    def fresh(view):  # a new picture (a click, a new head): painted from scratch
        view._cache = None
        view.repaint()

    rows.append(("lines: pipeline weights, new picture (GUI)", *timed(lambda: fresh(lines), args.repeats)))
    rows.append(("lines: pipeline weights, repaint (GUI)", *timed(lambda: lines.repaint(), args.repeats)))
    w.state.show_lesson(False)
    w.state.set_tab("heads")
    w.state.lines.set_heads(True)
    app.processEvents()
    heads = w.heads.lines_box.view
    rows.append(("lines: 12 heads overlaid, new picture (GUI)", *timed(lambda: fresh(heads), args.repeats)))
    w.state.select_cell(None)  # nothing focused: every kept line antialiased
    app.processEvents()
    rows.append(("lines: 12 heads, nothing focused (GUI)", *timed(lambda: fresh(heads), args.repeats)))
    QtWidgets.QApplication.processEvents()
    w.close()

    print(f"{'what':48} {'median ms':>10} {'max ms':>8} {'CPU ms':>8}")
    for what, median, worst, cpu in rows:
        print(f"{what:48} {median:10.2f} {worst:8.2f} {cpu:8.2f}")
    print(f"(torch threads {torch.get_num_threads()}, Qt {QtCore.qVersion()}, {args.repeats} repeats)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
