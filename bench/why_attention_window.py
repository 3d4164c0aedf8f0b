"""The Why-attention page's benchmark in the window: the length experiment trained from scratch
with the Train button, both models side by side, while the page stays usable.

    python bench/why_attention_window.py [--seeds 0 1 2 3 4] [--steps 500] [--profile]

For each seed, in the real window (MainWindow on the Why-attention tab, its length-curve page,
1600×900, offscreen): the wall-clock time from the click until the run is done and its last
curves are drawn, the steps' wall time and each model thread's CPU, the longest the GUI thread
was blocked meanwhile (bench/translation_tab.py's 5 ms meter), and the last evaluation's
per-word accuracy at ≤ 8 and ≥ 40 words for both models. The run is the ``length-curve``
command's (the same batches, seed and steps): bench/why_attention.py gives the same numbers
without the window. A sentence is typed every 2 s meanwhile, so the worker keeps translating
with the newest snapshot. Timings are wall clock except the CPU columns (each model's thread,
the worst tick's and the whole run's GUI-thread CPU); the load average is printed with the table. ``--profile`` also
prints where the GUI thread's CPU went in its worst tick; ``--stalls FILE`` writes every thread's
stack whenever the GUI thread misses 70 ms (faulthandler, re-armed every 5 ms on the GUI thread),
with each thread's name at the end, to see who held the interpreter lock meanwhile.

Train is pressed once the figure has been painted and READ_S later, as a person reads the
page first; the CPU its first layout and paint took is the last column. The longest block is
split into the GUI thread's CPU and its wait for a core (Linux schedstat: the machine's load);
"longest wait for a lock" is the most any tick slept beyond the timer's 5 ms, the interpreter
lock held by another thread (the app's to fix).
"""

from __future__ import annotations

import argparse
import cProfile
import faulthandler
import io
import pstats
import sys
import threading
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
import torch  # noqa: E402, F401  (before Qt, as in main.py)
from PySide6 import QtCore, QtTest  # noqa: E402
from translation_tab import GapMeter, machine, percentile, pump_until  # noqa: E402

from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.labs.translation.why_attention import CURVE_PAGE  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402
from explorer.lab import warmed  # noqa: E402  (a person reads the page first: the labs' warm-up has ended)

TAB = "why_attention"
SENTENCES = ("Jane visits Africa in September", "Jane sees the red car")
GOAL_S, BLOCK_MS = 90.0, 50.0
READ_S = 0.5  # the figure on screen this long before the click (bench/vision_tab.py's pause)


class Painted(QtCore.QObject):
    """Whether the length figure's plot (made later, when its page shows) has been painted:
    every event of the application is looked at until ``stop()``."""

    def __init__(self, app, curve):
        super().__init__()
        self.app, self.curve, self.seen = app, curve, False
        app.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        plot = self.curve.plot
        if event.type() == QtCore.QEvent.Type.Paint and plot is not None and obj is plot.viewport():
            self.seen = True
        return False

    def stop(self) -> None:
        self.app.removeEventFilter(self)


def pump_for(app, seconds: float) -> None:
    deadline = time.perf_counter() + seconds
    pump_until(app, lambda: time.perf_counter() >= deadline)


def run_queue_ms() -> float | None:
    """The calling thread's time waiting for a core so far (Linux schedstat), None elsewhere."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e6
    except (OSError, ValueError, IndexError):
        return None


class CpuMeter(GapMeter):
    """GapMeter that also keeps the most GUI-thread CPU any one tick took (load inflates a
    block's wall time, much less its CPU) and the GUI thread's CPU over the whole run. On
    Linux it splits each wait between ticks three ways: the GUI thread's CPU, its time
    waiting for a core (the machine's load), and the rest, the time it slept, which beyond the
    timer's 5 ms is a wait for a lock (the interpreter's, held by another thread): the
    longest such wait (``max_held``) is the app's to fix, a run-queue wait the load's."""

    def start(self) -> None:
        self.worst_cpu, self.started_cpu = 0.0, time.thread_time()
        self.max_gap_queue = self.max_held = 0.0
        self.last_queue = run_queue_ms()
        super().start()

    def _tick(self) -> None:
        gap = (time.perf_counter() - self.last) * 1e3
        cpu = (time.thread_time() - self.last_cpu) * 1e3
        longest = self.max_gap
        queue = run_queue_ms()
        waited = 0.0 if queue is None or self.last_queue is None else queue - self.last_queue
        self.last_queue = queue
        super()._tick()
        self.worst_cpu = max(self.worst_cpu, cpu)
        if self.max_gap > longest:
            self.max_gap_queue = waited
        self.max_held = max(self.max_held, gap - cpu - waited - 5.0)  # less the timer's own wait

    def stop(self) -> None:
        super().stop()
        self.total_cpu_s = time.thread_time() - self.started_cpu


class StallFinder(CpuMeter):
    """CpuMeter that dumps every thread's stack to ``out`` when the GUI thread misses 70 ms."""

    def __init__(self, out):
        super().__init__()
        self.out = out

    def start(self) -> None:
        super().start()
        faulthandler.dump_traceback_later(0.07, repeat=False, file=self.out)

    def _tick(self) -> None:
        super()._tick()
        faulthandler.dump_traceback_later(0.07, repeat=False, file=self.out)

    def stop(self) -> None:
        faulthandler.cancel_dump_traceback_later()
        super().stop()
        names = {f"0x{t.ident:016x}": t.name for t in threading.enumerate() if t.ident}
        self.out.write("\nthreads: " + ", ".join(f"{k} {v}" for k, v in names.items()) + "\n")
        self.out.flush()


class WorstTickProfile(CpuMeter):
    """GapMeter that also profiles the GUI thread between its ticks and keeps the profile of
    the tick with the most GUI-thread CPU (cProfile inflates each call; the shares stand). The
    profile counts the GUI thread's CPU time, not wall time: a wait for the interpreter lock or
    a core would otherwise show as the work of whichever call was waiting."""

    def start(self) -> None:
        self.worst_stats, self.profile = None, cProfile.Profile(time.thread_time)
        super().start()
        self.profile.enable()

    def _tick(self) -> None:
        self.profile.disable()
        worst = self.worst_cpu
        super()._tick()
        if self.worst_cpu > worst:
            self.worst_stats = self.profile
        self.profile = cProfile.Profile(time.thread_time)
        self.profile.enable()

    def stop(self) -> None:
        super().stop()
        self.profile.disable()

    def report(self, top: int = 14) -> str:
        if self.worst_stats is None:
            return "no tick profiled"
        out = io.StringIO()
        stats = pstats.Stats(self.worst_stats, stream=out)
        stats.sort_stats("cumulative").print_stats(top)
        return f"worst tick: {self.worst_cpu:.1f} ms of GUI-thread CPU (profiled)\n" + out.getvalue()


def one_run(
    app, seed: int, steps: int, type_every_s: float = 2.0, profile: bool = False, stalls=None
) -> dict:
    window = MainWindow(Engine(), settings=MemorySettings())
    window.resize(1600, 900)
    window.show()
    window.state.set_tab(TAB)
    view = window.view(TAB)
    pump_until(app, lambda: view.shown is not None)
    painted, before = Painted(app, view.curve), time.thread_time()
    view.pages.setCurrentIndex(CURVE_PAGE)
    # the figure the class sees before the click: its plot is made once, when the page shows,
    # and laid out and painted in the turns after that; a person reads it before pressing
    # Train. Clicked at once (seeds after the first: the labs' warm-up had ended already), the
    # plot's first layout and paint (its axes, 30-60 ms of GUI CPU) fell in the run's first ticks.
    pump_until(app, lambda: view.curve.plot is not None and view._wanted is None and warmed())
    pump_until(app, lambda: painted.seen)
    painted.stop()
    # the page's opening to the plot's first paint: its build, layout and paint (and the
    # warm-up's turns on this thread while seed 0 waits for it)
    first_paint_cpu_ms = (time.thread_time() - before) * 1e3
    pump_for(app, READ_S)
    view.training.steps.setValue(steps)
    view.training.seed.setValue(seed)
    lab = view.lab
    meter = WorstTickProfile() if profile else StallFinder(stalls) if stalls else CpuMeter()
    meter.start()
    started = time.perf_counter()
    QtTest.QTest.mouseClick(view.training.train_button, QtCore.Qt.MouseButton.LeftButton)
    run = lab.run
    next_key, keys = started + type_every_s, 0
    while run.running or view.training.poll_timer.isActive():
        # sleep until the next event (the meter's 5 ms timer wakes it), as the window's own
        # loop does: a loop that polls would spin the GUI thread and take a core from training
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        now = time.perf_counter()
        if now >= next_key:
            lab.set_sentence(SENTENCES[keys % len(SENTENCES)])
            keys += 1
            next_key = now + type_every_s
    wall = time.perf_counter() - started
    meter.stop()
    last = run.metrics[-1]
    row = dict(
        seed=seed, steps=run.step, status=run.status, wall_s=wall, train_s=run.train_s,
        block_ms=meter.max_gap, block_cpu_ms=meter.max_gap_cpu, block_queue_ms=meter.max_gap_queue,
        held_ms=meter.max_held, first_paint_cpu_ms=first_paint_cpu_ms,
        cpu=run.result.cpu_seconds if run.result is not None else {}, worst_cpu_ms=meter.worst_cpu, gui_cpu_s=meter.total_cpu_s,
        gap_p99=percentile(sorted(meter.gaps), 0.99), over_50=sum(g > BLOCK_MS for g in meter.gaps),
        **{f"{m}/{part}": last.get(f"{m}/{part}/word_accuracy") for m in ("attention", "no-attention")
           for part in ("short", "long")},
    )  # fmt: skip
    if profile:
        print(meter.report(), flush=True)
    window.close()
    window.deleteLater()
    app.processEvents()
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--profile", action="store_true", help="print the worst tick's profile (slower)")
    parser.add_argument(
        "--switch-interval",
        type=float,
        help="sys.setswitchinterval for this run, in ms (the app sets 1; 5 is Python's default)",
    )
    parser.add_argument(
        "--stalls", type=Path, help="write every thread's stack at each GUI miss of 70 ms here"
    )
    args = parser.parse_args()
    stalls = args.stalls.open("w") if args.stalls else None
    app = configure_app(sys.argv[:1])
    if args.switch_interval:  # after the app's own setting (explorer.gui.app_setup), to compare
        sys.setswitchinterval(args.switch_interval / 1e3)
    print(machine(), f"switch interval {sys.getswitchinterval() * 1e3:g} ms")
    print(
        "| seed | wall s (click → done) | training s (steps, wall) | thread CPU s: fixed C / attention "
        "| longest GUI block ms (its CPU, its wait for a core) | longest wait for a lock ms "
        "| worst tick's GUI CPU ms | GUI CPU s | ticks > 50 ms "
        "| ≤ 8 words: attention / fixed C | ≥ 40 words: attention / fixed C | goals "
        "| the page's opening to the figure's first paint, GUI CPU ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for seed in args.seeds:
        r = one_run(app, seed, args.steps, profile=args.profile, stalls=stalls)
        parts = (
            r["attention/long"] >= 0.8 and r["no-attention/long"] <= 0.4
            and r["attention/short"] >= 0.9 and r["no-attention/short"] >= 0.9
        )  # fmt: skip
        met = parts and r["wall_s"] <= GOAL_S and r["block_ms"] <= BLOCK_MS
        print(
            f"| {seed} | {r['wall_s']:.1f} | {r['train_s']:.1f} "
            f"| {r['cpu'].get('no-attention', float('nan')):.1f} / {r['cpu'].get('attention', float('nan')):.1f} "
            f"| {r['block_ms']:.0f} ({r['block_cpu_ms']:.0f}, {r['block_queue_ms']:.0f}) "
            f"| {r['held_ms']:.0f} "
            f"| {r['worst_cpu_ms']:.1f} | {r['gui_cpu_s']:.1f} "
            f"| {r['over_50']} | {r['attention/short']:.3f} / {r['no-attention/short']:.3f} "
            f"| {r['attention/long']:.3f} / {r['no-attention/long']:.3f} "
            f"| curves part: {'yes' if parts else 'NO'}; ≤ {GOAL_S:.0f} s and ≤ {BLOCK_MS:.0f} ms: "
            f"{'met' if met else 'NOT met'} | {r['first_paint_cpu_ms']:.1f} |",
            flush=True,
        )
    print(machine())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
