"""Every lab training in the window, tick by tick: the GUI thread's CPU in its worst tick.

    python bench/lab_tick_cpu.py [--labs vision lm translation local] [--steps lab=N ...]
                                 [--size 1400x900] [--profile] [--parts 18]

Offscreen, one real MainWindow. For each lab its training page is put in front (as a person
does before pressing Train), Train is pressed and the run goes to its end, while a 5 ms timer
on the GUI thread records every gap between its ticks: its wall time and the GUI thread's CPU
time within it (time.thread_time, which other processes' load inflates far less than wall
time). Reported per lab: the tick gaps seen, the worst tick's GUI CPU, the 99th percentile,
the GUI CPU in the longest wall gap, the longest wall gap, and the training thread's own
seconds (run.train_s). The worst-tick GUI CPU is the number to compare between machines and
branches; the wall gap equals it only on a quiet machine.

``--profile`` runs cProfile (thread CPU clock) over each tick and prints, per lab, the functions
of its three worst ticks by cumulative time: which draw or paint the tick was. cProfile slows
Python calls about twofold: read the profile for its parts, the unprofiled run for its numbers.
Also counted: the plots' paints and resizes (a resized plot redraws its axes and grid), and
which plots painted in the worst tick. Never used for assertions.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import torch  # noqa: E402  (before Qt, as in main.py)
from PySide6 import QtCore  # noqa: E402
from vision_tab import pause, wait  # noqa: E402

import explorer  # noqa: E402,F401  (its thread settings come before torch)
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.lab.warm import plotting_ready  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402
from explorer.lab import warmed  # noqa: E402

LABS = ("vision", "lm", "translation", "local")
STEPS = {"vision": 400, "lm": 600, "translation": 300, "local": 800}  # the tabs' benches' runs


class PlotEvents(QtCore.QObject):
    """The paints and resizes of the training page's plots (an event filter on each view)."""

    KINDS = {QtCore.QEvent.Type.Paint: "paint", QtCore.QEvent.Type.Resize: "resize"}

    def __init__(self, plots):
        super().__init__()
        self.seen: list[tuple[float, int, str]] = []  # (perf_counter, plot, kind)
        self.watched = {}
        for k, plot in enumerate(plots):
            widget = plot.plot.viewport()
            self.watched[widget] = k
            widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        kind = self.KINDS.get(event.type())
        if kind is not None and obj in self.watched:
            self.seen.append((time.perf_counter(), self.watched[obj], kind))
        return False

    def count(self, kind: str) -> int:
        return sum(1 for _, _, k in self.seen if k == kind)

    def between(self, start: float, end: float) -> str:
        return ", ".join(f"plot {k} {kind}" for t, k, kind in self.seen if start <= t <= end) or "no plot"

    def twice(self, gaps: list[tuple[float, float]]) -> int:
        """Ticks (``(start, end)`` perf_counter windows) in which one plot painted more than once."""
        paints = sorted((t, k) for t, k, kind in self.seen if kind == "paint")
        count, i = 0, 0
        for start, end in gaps:
            while i < len(paints) and paints[i][0] < start:
                i += 1
            j, seen, doubled = i, set(), False
            while j < len(paints) and paints[j][0] <= end:
                doubled |= paints[j][1] in seen
                seen.add(paints[j][1])
                j += 1
            count += doubled
        return count


class Collections:
    """When Python's cyclic garbage collector ran (on whatever thread allocated), and how long."""

    def __init__(self):
        self.seen: list[tuple[float, float, int]] = []  # (start, end, generation)
        self._start = 0.0
        gc.callbacks.append(self._on)

    def _on(self, phase, info) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seen.append((self._start, time.perf_counter(), info["generation"]))

    def between(self, start: float, end: float) -> float:
        """ms of collections within [start, end]."""
        return sum((min(b, end) - max(a, start)) * 1e3 for a, b, _ in self.seen if b >= start and a <= end)

    def stop(self) -> None:
        gc.callbacks.remove(self._on)


class TickMeter(QtCore.QObject):
    """A 5 ms timer on the GUI thread: every gap between its ticks, as (wall ms, GUI CPU ms);
    with ``profile`` the cProfile stats of the ``keep`` ticks that took the most CPU."""

    def __init__(self, profile: bool = False, keep: int = 3):
        super().__init__()
        self.timer = QtCore.QTimer(self)
        self.timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[tuple[float, float]] = []
        self.windows: list[tuple[float, float]] = []  # each gap's (from, to), perf_counter
        self.profile = cProfile.Profile(time.thread_time) if profile else None
        self.keep = keep
        self.worst: list[tuple[float, str]] = []  # (GUI CPU ms, profile text)
        self.worst_window: tuple = ()  # (GUI CPU ms, from, to) of the worst tick

    def start(self) -> None:
        self.gaps.clear()
        self.windows.clear()
        self.last, self.last_cpu = time.perf_counter(), time.thread_time()
        if self.profile is not None:
            self.profile.enable()
        self.timer.start()

    def _tick(self) -> None:
        if self.profile is not None:
            self.profile.disable()
        now, cpu = time.perf_counter(), time.thread_time()
        spent = (cpu - self.last_cpu) * 1e3
        self.gaps.append(((now - self.last) * 1e3, spent))
        self.windows.append((self.last, now))
        if not self.worst_window or spent > self.worst_window[0]:
            self.worst_window = (spent, self.last, now)
        if self.profile is not None:
            if len(self.worst) < self.keep or spent > self.worst[-1][0]:
                text = io.StringIO()
                pstats.Stats(self.profile, stream=text).sort_stats("cumulative").print_stats(PARTS[0])
                self.worst = sorted([*self.worst, (spent, text.getvalue())], reverse=True)[: self.keep]
            self.profile.clear()
            self.profile.enable()
        self.last, self.last_cpu = time.perf_counter(), time.thread_time()  # the profiling left out

    def stop(self) -> None:
        self.timer.stop()
        if self.profile is not None:
            self.profile.disable()


PARTS = [18]


def prepare(window: MainWindow, lab: str, steps: int):
    """The lab's tab open, its training page in front and drawn: (its training page, a start,
    its run once started)."""
    window.state.set_tab(lab)
    view = window.view(lab)
    if lab == "vision":
        wait(lambda: view.result is not None and not window.worker.busy())
        v = view.vision
        v.set_variant("cbam")
        v.set_page("train")
        v.set_training_plan(steps, 0)
        page = view.train_page
        return page, view.start_training, lambda: v.run
    if lab == "lm":
        wait(lambda: view.result is not None and warmed())
        view.lab.set_page("train")
        view.lab.set_training_plan(steps, 0)
        page = view.train_page
        return page, page.start, lambda: view.lab.run
    page = view.training
    if lab == "translation":
        wait(lambda: view.trace is not None and view._wanted is None)
        window.state.translation.set_model("bahdanau")
        wait(lambda: view.trace is not None and view.trace.model == "bahdanau" and view._wanted is None)
        view.pages.setCurrentIndex(1)
        runs = lambda: window.state.translation.run  # noqa: E731
    else:
        from explorer.gui.labs.translation.window_view import TRAIN_PAGE

        wait(lambda: view.compared is not None and view._wanted is None)
        view.pages.setCurrentIndex(TRAIN_PAGE)
        runs = lambda: view.lstate.run  # noqa: E731
    page.steps.setValue(steps)
    page.seed.setValue(0)
    return page, page.train_button.click, runs


def measure(window: MainWindow, lab: str, steps: int, profile: bool) -> dict:
    page, start, run_of = prepare(window, lab, steps)
    wait(lambda: plotting_ready() and warmed() and all(p.plot is not None for p in page.plots))
    pause(300)
    events = PlotEvents(page.plots)
    collections = Collections()
    meter = TickMeter(profile)
    modules = set(sys.modules)
    meter.start()
    started = time.perf_counter()
    start()
    run = run_of()
    wait(lambda: not run.running and not page.poll_timer.isActive(), timeout_s=3600)
    pause(500)  # the end of the run drawn
    wall = time.perf_counter() - started
    meter.stop()
    collections.stop()
    imported = sorted(m for m in set(sys.modules) - modules if "." not in m or m.count(".") < 2)
    cpus = sorted(c for _, c in meter.gaps)
    longest = max(meter.gaps)
    return dict(
        lab=lab,
        steps=run.step,
        status=run.status,
        ticks=len(meter.gaps),
        worst_cpu=cpus[-1],
        p99_cpu=cpus[min(len(cpus) - 1, int(0.99 * len(cpus)))],
        over_25=sum(c > 25 for c in cpus),
        longest_wall=longest[0],
        its_cpu=longest[1],
        train_s=run.train_s,
        wall_s=wall,
        profiles=meter.worst,
        paints=events.count("paint"),
        resizes=events.count("resize"),
        painted_twice=events.twice(meter.windows),
        imported=imported,
        worst_tick=events.between(*meter.worst_window[1:]),
        worst_gc=collections.between(*meter.worst_window[1:]),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labs", nargs="+", default=list(LABS), choices=LABS)
    parser.add_argument("--steps", nargs="*", default=[], help="lab=N, e.g. lm=300")
    parser.add_argument("--size", default="1400x900")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--parts", type=int, default=18, help="functions printed per profiled tick")
    args = parser.parse_args()
    PARTS[0] = args.parts
    steps = dict(STEPS, **{k: int(v) for k, v in (s.split("=") for s in args.steps)})
    torch.set_num_threads(1)
    configure_app(["bench"])
    window = MainWindow(
        Engine(), AttentionConfig(sentence="Thinking Machines", weights="random"), settings=MemorySettings()
    )
    w, h = (int(v) for v in args.size.split("x"))
    window.resize(w, h)
    window.show()
    wait(lambda: window.trace is not None and plotting_ready())
    load = os.getloadavg()
    rows = []
    for lab in args.labs:
        rows.append(measure(window, lab, steps[lab], args.profile))
        r = rows[-1]
        print(
            f"{lab}: worst tick {r['worst_cpu']:.1f} ms GUI CPU ({r['worst_tick']}, {r['worst_gc']:.1f} ms of "
            "garbage collection in it), longest gap "
            f"{r['longest_wall']:.0f} ms; {r['paints']} plot paints ({r['painted_twice']} ticks with a plot "
            f"painted twice), {r['resizes']} plot resizes; imported while training: "
            f"{', '.join(r['imported']) or 'nothing'}",
            flush=True,
        )
        for cpu, text in r["profiles"]:
            print(f"\n--- {lab}: a tick of {cpu:.1f} ms GUI CPU (profiled) ---")
            print("\n".join(line for line in text.splitlines()[6:] if line.strip()))
    end = os.getloadavg()
    print(
        f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start, {end[0]:.2f} at the end; "
        f"window {args.size}; one torch thread{'; PROFILED (numbers inflated)' if args.profile else ''}"
    )
    print(
        "| lab | steps | ticks | worst tick GUI CPU ms | p99 GUI CPU ms | ticks > 25 ms CPU "
        "| longest gap wall ms | GUI CPU in it ms | training thread s | run wall s | plot paints | ticks a plot painted twice | plot resizes |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['lab']} | {r['steps']} ({r['status']}) | {r['ticks']} | {r['worst_cpu']:.1f} | "
            f"{r['p99_cpu']:.1f} | {r['over_25']} | {r['longest_wall']:.0f} | {r['its_cpu']:.1f} | "
            f"{r['train_s']:.1f} | {r['wall_s']:.1f} | {r['paints']} | {r['painted_twice']} | {r['resizes']} |"
        )
    for state in window.state.labs.values():
        state.stop_training()
    window.worker.shutdown(timeout=30)
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
