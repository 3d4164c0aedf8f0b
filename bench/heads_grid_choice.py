"""GUI-thread CPU of the All heads grid's column choice, and of a keystroke on that tab.

    python bench/heads_grid_choice.py [--n 20]

1. The choice for one new text (what a keystroke asks): the window's (the widest title bounds
   which counts can keep whole titles; a grid's panels measure their shared labels once)
   against laying the grid out at every count with whole and short titles (the search before).
   12, 14 and 16 heads of 16 tokens, decoder-like titles, 13 and 20 px (presentation) fonts,
   at the grid's room beside the lesson at 1024x768 and in a wide window.
2. MiniLM in the window at 1024x768 on All heads: GUI-thread CPU (time.thread_time) per
   keystroke, median and p95, and the share of it spent choosing the columns.
CPU time, not wall-clock: load on the machine inflates it little. Prints the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import string
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import torch  # before Qt
from PySide6 import QtCore, QtTest

from bench.decoder_window import wait_for
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.gui.app_setup import configure_app
from explorer.gui.heatmap import MatrixPanel
from explorer.gui.heatmap.figure import Style
from explorer.gui.main_window import MainWindow
from explorer.gui.views import heads
from explorer.gui.views.registry import Tab
from tests.gui.test_head_grid_fit import every_count_laid_out as every_count

TOKENS = ["the", "animal", "did", "not", "cross", "the", "street", "because", "it", "was", "too"]
TOKENS += ["tired", ",", "so", "it", "slept"]


def panels(count: int) -> list[MatrixPanel]:
    rng = np.random.default_rng(count)
    title = "head {h} · H̄ 1.23 · first token 0.{h} · prev 0.10 · ind 0.65"
    return [
        MatrixPanel(rng.random((16, 16)), rows=TOKENS, cols=TOKENS, title=title.format(h=h), kind="weights")
        for h in range(count)
    ]


def cpu_ms(fn, repeat: int) -> float:
    started = time.thread_time()
    for _ in range(repeat):
        fn()
    return (time.thread_time() - started) / repeat * 1e3


def choice_table(repeat: int) -> None:
    print("1. the column choice for one new text, GUI-thread CPU ms per choice")
    print(f"{'heads':>5} {'font px':>7} {'room':>9} {'every count':>12} {'bound':>7} {'same':>5}")
    for count in (12, 14, 16):
        for font_px in (13, 20):
            for size in (QtCore.QSize(560, 520), QtCore.QSize(1300, 760)):
                style = Style.make(font_px)
                ps = panels(count)
                full = [p.title for p in ps]
                short = [heads.stages.short_head_title(t) for t in full]
                before = cpu_ms(lambda ps=ps, size=size, style=style: every_count(ps, size, style), repeat)
                now = cpu_ms(
                    lambda ps=ps, size=size, style=style, full=full, short=short: heads._best_grid(
                        ps, size, style, full, short, {}
                    ),
                    repeat,
                )
                same = every_count(panels(count), size, style) == heads._best_grid(
                    panels(count), size, style, full, short, {}
                )
                room = f"{size.width()}x{size.height()}"
                print(f"{count:>5} {font_px:>7} {room:>9} {before:>12.1f} {now:>7.1f} {str(same):>5}")


def redrawn(app, window, grid, before) -> None:
    """Until the window holds a new result and the grid has drawn it."""
    wait_for(
        app,
        lambda: (
            window.prepared is not before and grid.prepared is window.prepared and not window.worker.busy()
        ),
    )


def keystrokes(app, n: int) -> None:
    window = MainWindow(Engine(), AttentionConfig(sentence="the animal did not cross the street "))
    window.resize(1024, 768)
    window.show()
    window.state.set_tab(Tab.HEADS)
    grid = window.heads
    wait_for(
        app, lambda: grid.prepared is window.prepared and grid.canvas.panels and not window.worker.busy()
    )
    spent: list[float] = []
    original = heads._best_grid

    def timed(*args, **kwargs):
        started = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append((time.thread_time() - started) * 1e3)

    heads._best_grid = timed
    field = window.controls.sentence
    field.setFocus()
    field.end(False)
    gui, choosing = [], []
    for k in range(n):
        before = window.prepared
        spent.clear()
        started = time.thread_time()
        QtTest.QTest.keyClicks(field, string.ascii_lowercase[k % 26])
        redrawn(app, window, grid, before)
        app.processEvents()
        gui.append((time.thread_time() - started) * 1e3)
        choosing.append(sum(spent))
        before = window.prepared
        QtTest.QTest.keyClick(field, QtCore.Qt.Key.Key_Backspace)
        redrawn(app, window, grid, before)
    heads._best_grid = original
    gui.sort()
    p95 = gui[min(len(gui) - 1, int(0.95 * len(gui)))]
    print(f"2. MiniLM, All heads, 1024x768, {n} keystrokes: GUI-thread CPU per keystroke")
    print(
        f"   median {statistics.median(gui):.1f} ms, p95 {p95:.1f} ms; choosing the columns: "
        f"median {statistics.median(choosing):.1f} ms ({100 * statistics.median(choosing) / statistics.median(gui):.0f} %)"
    )
    window.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    app = configure_app()
    print(f"load average before: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    choice_table(args.repeat)
    keystrokes(app, args.n)
    print(f"load average after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
