"""The Language model tab's benchmark: training in the window, and how long the GUI thread is blocked.

    python bench/lm_tab.py [--seeds 0 1 2 3 4] [--steps 600]

Offscreen, in a real MainWindow on the Language model tab (its Train page, the two formed
heads beside the curves following every snapshot, computed on the worker). For each seed:
Train is pressed (the window's own run: the induction task's recipe, one torch thread, the
probe every 25 steps) and the run goes to its end. Reported: the seconds from Train to the
first evaluation whose best second-layer induction score reached 0.5 (the lab's goal, as the
window saw it), the phase change's step, the seconds to the end, and the longest gap between
ticks of a 5 ms timer on the GUI thread while training (bench/interaction.py's GapMeter; the
GUI thread's own CPU time in that gap beside it), and the most GUI-thread CPU time in any one
gap (on a loaded machine the longest gap is the thread waiting, not computing: this column is
the one to compare there). Wall-clock numbers: run it on an idle machine (the load average is
printed). Never used for assertions.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import torch  # noqa: E402,F401  (before Qt, as in main.py)
from interaction import GapMeter  # noqa: E402
from PySide6 import QtCore  # noqa: E402

import explorer  # noqa: E402,F401
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.labs.lm.training import phase_step  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402
from explorer.lab import warmed  # noqa: E402


class CpuGapMeter(GapMeter):
    """GapMeter, and ``most_cpu``: the most GUI-thread CPU time (ms) between two ticks."""

    def start(self) -> None:
        self.most_cpu = 0.0
        super().start()

    def _tick(self) -> None:
        self.most_cpu = max(self.most_cpu, (time.thread_time() - self.last_cpu) * 1e3)
        super()._tick()


def wait(condition, timeout_s: float = 900.0) -> None:
    """Run the event loop until ``condition()`` (QEventLoop.exec lets the training thread run)."""
    if condition():
        return
    loop = QtCore.QEventLoop()
    poll = QtCore.QTimer(interval=2)
    poll.timeout.connect(lambda: condition() and loop.quit())
    QtCore.QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    poll.start()
    loop.exec()
    poll.stop()
    if not condition():
        raise RuntimeError("timed out")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--steps", type=int, default=600)
    args = parser.parse_args()
    configure_app(["bench"])
    window = MainWindow(
        Engine(), AttentionConfig(sentence="Thinking Machines", weights="random"), settings=MemorySettings()
    )
    window.resize(1400, 900)
    window.show()
    window.state.set_tab("lm")
    view = window.view("lm")
    lab = view.lab
    wait(lambda: view.result is not None and warmed())
    rows = []
    for seed in args.seeds:
        lab.set_training_plan(args.steps, seed)
        meter = CpuGapMeter()
        meter.start()
        started = time.perf_counter()
        view.train_page.start()
        wait(lambda: lab.status in ("done", "failed", "cancelled"))
        total = time.perf_counter() - started
        meter.stop()
        run = lab.run
        rows.append(
            (
                seed,
                run.goal_step,
                run.goal_wall_s,
                phase_step(run),
                total,
                meter.max_gap,
                meter.max_gap_cpu,
                meter.most_cpu,
            )
        )
        print(rows[-1], flush=True)
    print(
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.steps} steps, one torch thread"
    )
    print(
        f"{'seed':>4} {'to 0.5: step':>12} {'s':>6} {'phase':>6} {'end s':>6} {'GUI block ms':>12} "
        f"{'its CPU ms':>10} {'most CPU ms':>11}"
    )
    for seed, step, wall, phase, total, gap, cpu, most in rows:
        f = lambda v, spec: "-" if v is None else format(v, spec)  # noqa: E731
        print(
            f"{seed:>4} {f(step, 'd'):>12} {f(wall, '.1f'):>6} {f(phase, 'd'):>6} {total:6.1f} {gap:12.0f} "
            f"{cpu:10.1f} {most:11.1f}"
        )
    lab.stop_training()
    window.worker.shutdown(timeout=30)  # as the app does before torch shuts down
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
