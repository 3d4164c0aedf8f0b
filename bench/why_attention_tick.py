"""The Why-attention page's GUI thread while a run trains: each tick's CPU and its own methods'.

    python bench/why_attention_tick.py [--steps 120] [--present] [--sentence]

The real window (1024×768; ``--present``: presentation mode with the lesson column open) on the
Why-attention tab, the length-curve page (``--sentence``: the sentence page, its maps following
the run), a run of ``--steps`` started with the Train button. Prints the GUI thread's CPU per
5 ms tick (max, p99, p99.9, the five worst) and, per page method and paint, calls / max / mean /
total CPU ms (time.thread_time on the GUI thread: less inflated by load than wall clock). The
load average is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
import torch  # noqa: E402, F401  (before Qt, as in main.py)
from PySide6 import QtCore, QtTest  # noqa: E402
from translation_tab import pump_until  # noqa: E402
from why_attention_window import CpuMeter, WorstTickProfile  # noqa: E402

from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.labs.translation.why_attention import CURVE_PAGE, SENTENCE_PAGE  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402

STATS: dict[str, list[float]] = {}


def timed(f, label: str):
    def g(*args, **kwargs):
        started = time.thread_time()
        try:
            return f(*args, **kwargs)
        finally:
            STATS.setdefault(label, []).append((time.thread_time() - started) * 1e3)

    return g


def tick_meter(profiled: bool) -> CpuMeter:
    """Every tick's GUI CPU in ``cpus``; ``profiled``: the worst tick's profile too (cProfile
    inflates every call, the shares stand)."""

    class TickCPU(WorstTickProfile if profiled else CpuMeter):  # type: ignore[misc]
        def start(self) -> None:
            self.cpus: list[float] = []
            super().start()

        def _tick(self) -> None:
            self.cpus.append((time.thread_time() - self.last_cpu) * 1e3)
            super()._tick()

    return TickCPU()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--present", action="store_true")
    parser.add_argument("--sentence", action="store_true")
    parser.add_argument("--profile", action="store_true", help="print the worst tick's profile")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    app = configure_app(sys.argv[:1])
    import pyqtgraph as pg

    from explorer.gui.heatmap import MatrixCanvas

    w = MainWindow(Engine(), settings=MemorySettings())
    w.resize(1024, 768)
    w.show()
    if args.present:
        w.classroom.set_presentation(True, fullscreen=False)
        w.resize(1024, 768)
        w.state.show_lesson(True)
    w.state.set_tab("why_attention")
    view = w.view("why_attention")
    pump_until(app, lambda: view.shown is not None)
    view.pages.setCurrentIndex(CURVE_PAGE)
    pump_until(app, lambda: view.curve.plot is not None and view._wanted is None)
    shown = time.perf_counter()  # a person reads the page before the click: its layout settled
    pump_until(app, lambda: time.perf_counter() - shown > 1.0)
    for name in ("_fit_training", "_fit_summary", "draw_curve", "show_translations", "request"):
        setattr(view, name, timed(getattr(view, name), "view." + name))
    for name in ("show_run", "_show_weights", "draw_curves"):
        setattr(view.training, name, timed(getattr(view.training, name), "training." + name))
    view.curve._draw = timed(view.curve._draw, "curve._draw")
    for cls, label in (
        (MatrixCanvas, "MatrixCanvas.paintEvent"),
        (pg.GraphicsView, "pg.GraphicsView.paintEvent"),
    ):
        cls.paintEvent = timed(cls.paintEvent, label)  # Qt calls the class's override
    # a resized plot lays out and paints its axes anew: the page's layout should hold still
    pg.GraphicsView.resizeEvent = timed(pg.GraphicsView.resizeEvent, "pg.GraphicsView.resizeEvent")
    if args.sentence:
        view.pages.setCurrentIndex(SENTENCE_PAGE)
    meter = tick_meter(args.profile)
    meter.start()
    view.training.steps.setValue(args.steps)
    QtTest.QTest.mouseClick(view.training.train_button, QtCore.Qt.MouseButton.LeftButton)
    run = view.lab.run
    while run.running or view.training.poll_timer.isActive():
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.WaitForMoreEvents)  # sleeps as the window does
    settle = time.perf_counter()
    while time.perf_counter() - settle < 2:
        app.processEvents()
    meter.stop()
    c = sorted(meter.cpus)
    print(
        f"load average at end: {os.getloadavg()[0]:.2f}; {len(c)} ticks; GUI CPU per tick: max {c[-1]:.1f} ms, "
        f"p99 {c[int(0.99 * len(c))]:.1f}, p99.9 {c[int(0.999 * len(c))]:.1f}, five worst {[round(x, 1) for x in c[-5:]]}"
    )
    for label, values in sorted(STATS.items()):
        print(
            f"{label:28s} n={len(values):4d} max={max(values):6.1f} ms mean={sum(values) / len(values):5.2f} "
            f"total={sum(values):7.1f}"
        )
    if args.profile:
        print(meter.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
