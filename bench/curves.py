"""The labs' training curves: pyqtgraph's costs against a curve drawn with QPainter.

    python bench/curves.py [--repeat 30] [--points 300 5000] [--markdown]

Offscreen, one process per import measurement (a module imports once):
  * importing pyqtgraph after torch and PySide6 (what the window has loaded), on the GUI
    thread, and on a thread of its own while a 5 ms timer on the GUI thread records the
    longest wait between its ticks (what the labs do: explorer/gui/lab/warm.py);
  * making one plot (explorer.gui.lab.curves.CurvePlot, pyqtgraph inside) in a window on
    screen and its first paint, wall clock and the GUI thread's CPU time;
  * a new training step: the plot's data replaced (a loss curve of N points and an accuracy
    curve of N/20) and the widget painted again (``grab()``: every paint event of the widget
    and its children, into a picture), the GUI thread's CPU time, median and 95th
    percentile, against the QPainter curve the labs drew before (the same polyline, ticks and
    texts; kept here only to measure it).
Wall-clock numbers: the load average is printed with the table. Never used for assertions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

IMPORT_ON_GUI = """
import time, torch
from PySide6 import QtWidgets
app = QtWidgets.QApplication([])
started = time.perf_counter()
import pyqtgraph
print((time.perf_counter() - started) * 1e3)
"""

IMPORT_ON_THREAD = """
import threading, time, torch
from PySide6 import QtCore, QtWidgets
app = QtWidgets.QApplication([])
gaps, last, done = [], [time.perf_counter()], threading.Event()
def tick():
    now = time.perf_counter(); gaps.append((now - last[0]) * 1e3); last[0] = now
timer = QtCore.QTimer(interval=5); timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
timer.timeout.connect(tick)
def work():
    started = time.perf_counter(); import pyqtgraph
    work.took = (time.perf_counter() - started) * 1e3; done.set()
for _ in range(20):  # the loop settles first: its first ticks are not the import's
    app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5); time.sleep(0.005)
timer.start(); last[0] = time.perf_counter()
threading.Thread(target=work).start()
while not done.is_set():
    app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5)
print(work.took, max(gaps))
"""


def run_child(code: str) -> list[float]:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return [float(v) for v in out.stdout.split()]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def painter_curve():
    """The QPainter curve the translation lab drew (title, round ticks, one polyline, dots)."""
    import math

    import numpy as np
    from PySide6 import QtCore, QtGui, QtWidgets

    def ticks(lo: float, hi: float, most: int = 5) -> list[float]:
        raw = (hi - lo) / max(1, most - 1)
        power = 10 ** math.floor(math.log10(raw))
        step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
        return [lo + k * step for k in range(int((hi - lo) / step) + 1)]

    class Curve(QtWidgets.QWidget):
        def __init__(self):
            super().__init__()
            self.x = self.y = np.zeros(0)
            self.painted = 0

        def set_data(self, x, y):
            self.x, self.y = np.asarray(x, float), np.asarray(y, float)
            self.update()

        def paintEvent(self, event):
            self.painted += 1
            p = QtGui.QPainter(self)
            w, h = self.width(), self.height()
            p.fillRect(self.rect(), QtGui.QColor("white"))
            plot = QtCore.QRectF(40, 20, w - 50, h - 50)
            hi = float(self.y.max()) if self.y.size else 1.0
            xmax = max(float(self.x.max()) if self.x.size else 1.0, 1.0)
            for v in ticks(0, hi):
                y = plot.bottom() - v / hi * plot.height()
                p.drawLine(QtCore.QLineF(plot.left(), y, plot.right(), y))
                p.drawText(QtCore.QPointF(4, y), f"{v:g}")
            for v in ticks(0, xmax):
                x = plot.left() + v / xmax * plot.width()
                p.drawText(QtCore.QPointF(x, plot.bottom() + 14), f"{v:g}")
            p.drawText(QtCore.QPointF(w / 2, 14), "training loss")
            p.drawRect(plot)
            p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
            xs = plot.left() + self.x / xmax * plot.width()
            ys = plot.bottom() - self.y / hi * plot.height()
            p.setPen(QtGui.QPen(QtGui.QColor("#0072B2"), 2))
            p.drawPolyline(QtGui.QPolygonF([QtCore.QPointF(a, b) for a, b in zip(xs, ys)]))
            p.end()

    return Curve()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--imports", type=int, default=3, help="fresh processes per import measurement")
    parser.add_argument("--points", type=int, nargs="+", default=[300, 5000])
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    load = os.getloadavg()
    rows = []
    gui = [run_child(IMPORT_ON_GUI)[0] for _ in range(args.imports)]
    rows.append(
        (
            "import pyqtgraph on the GUI thread (after torch, PySide6)",
            f"median {statistics.median(gui):.0f} ms, all {', '.join(f'{v:.0f}' for v in gui)}",
        )
    )
    threaded = [run_child(IMPORT_ON_THREAD) for _ in range(args.imports)]
    rows.append(
        (
            "import pyqtgraph on a thread of its own: its time, and the GUI thread's longest wait",
            ", ".join(f"{t:.0f} ms / {g:.0f} ms" for t, g in threaded),
        )
    )

    import numpy as np
    import torch  # noqa: F401  (as the window has it)
    from PySide6 import QtWidgets

    from explorer.gui.app_setup import configure_app
    from explorer.gui.heatmap import Style
    from explorer.gui.lab.curves import CurvePlot, Curves, Series

    app = configure_app(["bench"])
    import pyqtgraph  # noqa: F401  (measured above)

    host = QtWidgets.QWidget()  # the plots are children of a window on screen, as in a tab
    host.resize(520, 640)
    QtWidgets.QVBoxLayout(host)
    host.show()
    app.processEvents()
    made, made_cpu = [], []
    for _ in range(6):
        started, cpu = time.perf_counter(), time.thread_time()
        plot = CurvePlot(Style.make(13))
        plot.ensure_plot()
        host.layout().addWidget(plot)
        app.processEvents()
        plot.repaint()
        made.append((time.perf_counter() - started) * 1e3)
        made_cpu.append((time.thread_time() - cpu) * 1e3)
        plot.setParent(None)
        plot.deleteLater()
        app.processEvents()
    rows.append(
        (
            "one CurvePlot made in a shown window and painted",
            f"first {made[0]:.0f} ms (GUI CPU {made_cpu[0]:.0f}), then median {statistics.median(made[1:]):.0f} ms "
            f"(GUI CPU {statistics.median(made_cpu[1:]):.0f})",
        )
    )

    for n in args.points:
        xs = np.arange(1, n + 1, dtype=float)
        ys = 2.5 * np.exp(-xs / (n / 4)) + 0.05 * np.random.default_rng(0).random(n)
        plot = CurvePlot(Style.make(13))
        plot.ensure_plot()
        old = painter_curve()
        for widget in (plot, old):
            widget.setMinimumSize(480, 260)
            host.layout().addWidget(widget)
            widget.show()
        for _ in range(5):
            app.processEvents()
        assert old.isVisible() and old.height() > 50 and plot.plot.isVisible()
        ours, theirs = [], []
        for k in range(args.repeat):
            m = n - args.repeat + k + 1
            curves = Curves(
                x_label="step",
                series=[
                    Series("training loss", xs[:m], ys[:m], "#0072B2"),
                    Series("held-out", xs[19:m:20], ys[19:m:20], "#009E73", dots=True),
                ],
                x_range=(0.0, float(n)),
            )
            cpu = time.thread_time()
            plot.set_curves(curves)
            plot.grab()
            ours.append((time.thread_time() - cpu) * 1e3)
            cpu = time.thread_time()
            old.set_data(xs[:m], ys[:m])
            old.grab()
            theirs.append((time.thread_time() - cpu) * 1e3)
        assert old.painted >= args.repeat
        rows.append(
            (
                f"a new step on a {n}-point curve: data replaced and painted (GUI-thread CPU)",
                f"pyqtgraph median {statistics.median(ours):.2f} ms (p95 {percentile(ours, 0.95):.2f}); "
                f"QPainter median {statistics.median(theirs):.2f} ms (p95 {percentile(theirs, 0.95):.2f})",
            )
        )
        for widget in (plot, old):
            widget.setParent(None)
    QtWidgets.QApplication.processEvents()
    end = os.getloadavg()
    head = f"load average at start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, at the end {end[0]:.2f} {end[1]:.2f} {end[2]:.2f}; {os.cpu_count()} CPUs"
    print(head)
    if args.markdown:
        print("\n| measured | result |\n|---|---|")
        for what, result in rows:
            print(f"| {what} | {result} |")
    else:
        for what, result in rows:
            print(f"{what}\n    {result}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
