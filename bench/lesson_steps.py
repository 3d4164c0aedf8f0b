"""Every lesson step change in the window: the GUI thread's longest block per step, both ways.

    python bench/lesson_steps.py [--size 1024x768] [--quiet 1.0] [--worst 10] [--profile]
                                 [--no-presentation] [--all] [--steps A-B]

Offscreen, one real MainWindow at 1024×768 in presentation mode (not full screen) with the
lesson column open, as a teacher gives the lesson at a projector. The walk presses → from step
1 to the last step, then ← back to step 1, each key sent to whatever widget holds the keyboard
(the lesson's own key handling: Classroom's ← / → actions). After each key the window runs
until it has settled: the worker idle and no tick gap over 20 ms for ``--quiet`` seconds (what
the window does while the teacher talks: pages built when idle are counted for the step they
follow). Meanwhile a 5 ms timer on the GUI thread records every gap between its ticks: its
wall time and the GUI thread's CPU within it (time.thread_time; load inflates it far less
than wall time). Reported per step change: the longest gap (wall ms, and the GUI CPU in it)
and the most GUI CPU of any gap, the worst ``--worst`` steps first, then the worst over the
walk and the count of steps over 50 ms. ``--all`` prints every step; ``--profile`` prints the
functions of the worst ticks (cProfile on the GUI thread's CPU clock: numbers inflated,
read it for its parts). Then the look-ahead's heaviest pieces (explorer/gui/tab_pieces.py: a
piece is one turn of its own; the gap a meter sees may hold a piece and a paint after it), each
with where its walk stopped. ``--steps 48-53`` walks that range only (→ from A to B, ← back to A),
the lesson set to step A before the meter starts. The meter's own bookkeeping (finding the
recent gaps) is a bisection, not a scan: a scan of the walk's 20,000 gaps ran on the GUI thread
between the ticks and counted into the gaps it measured. Never used for assertions.
"""

from __future__ import annotations

import argparse
import bisect
import cProfile
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
from PySide6 import QtCore, QtTest, QtWidgets  # noqa: E402
from vision_tab import pause, wait  # noqa: E402

import explorer  # noqa: E402,F401  (its thread settings come before torch)
from explorer.appstate.lesson import STEPS  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui import tab_pieces  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.lab.warm import plotting_ready  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402
from explorer.gui.tabs import TabHost  # noqa: E402
from explorer.lab import warmed  # noqa: E402

GOAL_MS = 50.0
BUSY_GAP_MS = 20.0  # a gap this long: the window is still at work


class StepMeter(QtCore.QObject):
    """A 5 ms timer on the GUI thread: every gap between its ticks as (end, wall ms, GUI CPU
    ms); with ``profile`` the cProfile text of the tick with the most CPU since ``mark()``."""

    def __init__(self, profile: bool = False, parts: int = 22):
        super().__init__()
        self.timer = QtCore.QTimer(self)
        self.timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[tuple[float, float, float]] = []
        self.ends: list[float] = []  # the gaps' ends, for a bisection
        self.profile = cProfile.Profile(time.thread_time) if profile else None
        self.parts = parts
        self.worst: tuple[float, str] = (0.0, "")

    def start(self) -> None:
        self.last, self.last_cpu = time.perf_counter(), time.thread_time()
        if self.profile is not None:
            self.profile.enable()
        self.timer.start()

    def mark(self) -> None:
        self.worst = (0.0, "")

    def _tick(self) -> None:
        if self.profile is not None:
            self.profile.disable()
        now, cpu = time.perf_counter(), time.thread_time()
        wall, spent = (now - self.last) * 1e3, (cpu - self.last_cpu) * 1e3
        self.gaps.append((now, wall, spent))
        self.ends.append(now)
        if self.profile is not None:
            if spent > self.worst[0]:
                text = io.StringIO()
                pstats.Stats(self.profile, stream=text).sort_stats("cumulative").print_stats(self.parts)
                self.worst = (spent, text.getvalue())
            self.profile.clear()
            self.profile.enable()
        self.last, self.last_cpu = time.perf_counter(), time.thread_time()  # the profiling left out

    def since(self, start: float) -> list[tuple[float, float, float]]:
        return self.gaps[bisect.bisect_left(self.ends, start) :]

    def stop(self) -> None:
        self.timer.stop()
        if self.profile is not None:
            self.profile.disable()


class PieceLog:
    """Every look-ahead piece's GUI CPU, from Pieces._pace, with the line its walk paused at."""

    def __init__(self):
        self.pieces: list[tuple[float, str]] = []
        pace = tab_pieces.Pieces._pace
        log = self

        def logged(pieces, spent_ms):
            log.pieces.append((spent_ms, log.where(pieces)))
            pace(pieces, spent_ms)

        tab_pieces.Pieces._pace = logged

    @staticmethod
    def where(pieces) -> str:
        walks = getattr(pieces, "_walks", {})
        if not walks:
            return "(the walk ended)"
        key, (gen, _) = next(iter(walks.items()))
        while getattr(gen, "gi_yieldfrom", None) is not None:
            gen = gen.gi_yieldfrom
        frame = getattr(gen, "gi_frame", None)
        at = f"{gen.gi_code.co_name}:{frame.f_lineno}" if frame is not None else "(its last piece)"
        return f"{key} {at}"


def settle(window, meter: StepMeter, start: float, quiet_s: float, limit_s: float = 60.0) -> None:
    """Run the window until the worker is idle and no gap was over BUSY_GAP_MS for ``quiet_s``."""
    deadline = start + limit_s
    while time.perf_counter() < deadline:
        pause(50)
        now = time.perf_counter()
        if now - start < quiet_s or window.worker.busy():
            continue
        recent = [g for g in meter.since(now - quiet_s) if g[1] > BUSY_GAP_MS]
        if not recent:
            return


def press(window, key) -> None:
    """The key as a teacher presses it: to whatever holds the keyboard."""
    QtTest.QTest.keyClick(QtWidgets.QApplication.focusWidget() or window, key)


def walk(
    app, window, meter: StepMeter, quiet_s: float, first: int = 0, last: int | None = None
) -> list[dict]:
    rows = []
    last = len(STEPS) - 1 if last is None else last
    plan = [(QtCore.Qt.Key.Key_Right, i + 1) for i in range(first, last)]
    plan += [(QtCore.Qt.Key.Key_Left, i - 1) for i in range(last, first, -1)]
    for key, to in plan:
        was = window.state.lesson_step
        meter.mark()
        start = time.perf_counter()
        press(window, key)
        settle(window, meter, start, quiet_s)
        if window.state.lesson_step != to:
            raise RuntimeError(
                f"step {was + 1} → {to + 1} expected, the lesson is at {window.state.lesson_step + 1}"
            )
        gaps = meter.since(start)
        longest = max(gaps, key=lambda g: g[1])
        rows.append(
            dict(
                step=f"{was + 1}→{to + 1}",
                id=STEPS[to].id,
                wall=longest[1],
                its_cpu=longest[2],
                cpu=max(g[2] for g in gaps),
                over=sum(g[1] > GOAL_MS or g[2] > GOAL_MS for g in gaps),
                profile=meter.worst,
            )
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1024x768")
    parser.add_argument("--quiet", type=float, default=1.0, help="seconds without a busy gap: settled")
    parser.add_argument("--worst", type=int, default=10)
    parser.add_argument("--all", action="store_true", help="print every step")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--steps", default="", help="A-B: walk steps A to B only (1-based)")
    parser.add_argument("--no-pause", action="store_true", help="the look-ahead's pieces without a pause")
    parser.add_argument(
        "--no-draw-ahead", action="store_true", help="hidden tabs drawn when shown, as before"
    )
    parser.add_argument("--no-presentation", action="store_true", help="the lesson as a band, not a column")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.no_pause:  # the comparison: every piece at the next turn, as before
        tab_pieces.HEAVY_MS = float("inf")
    if args.no_draw_ahead:  # the comparison: a stale tab drawn in the key's turn, as before
        TabHost.draw_ahead = lambda self: None
        TabHost._draw_later = lambda self, name: None
    app = configure_app(["bench"])
    window = MainWindow(Engine(), settings=MemorySettings())
    w, h = (int(v) for v in args.size.split("x"))
    window.resize(w, h)
    window.show()
    window.activateWindow()
    wait(lambda: window.trace is not None and plotting_ready())
    if args.no_presentation:
        window.state.show_lesson(True)
    else:
        window.classroom.set_presentation(True, fullscreen=False)
    window.resize(w, h)
    first, last = (int(v) - 1 for v in args.steps.split("-")) if args.steps else (0, len(STEPS) - 1)
    window.state.set_lesson_step(first)
    wait(lambda: warmed() and not window.worker.busy())
    pause(2000)  # the start-up's imports and warm-up done, as before a teacher's first key
    window.classroom.focus_stage()
    load = os.getloadavg()
    meter = StepMeter(args.profile)
    piece_log = PieceLog()
    meter.start()
    started = time.perf_counter()
    rows = walk(app, window, meter, args.quiet, first, last)
    meter.stop()
    end = os.getloadavg()
    worst = sorted(rows, key=lambda r: max(r["wall"], r["cpu"]), reverse=True)
    print(
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start, {end[0]:.2f} {end[1]:.2f} at the end; "
        f"window {args.size}, {'lesson band' if args.no_presentation else 'presentation, lesson column'}; "
        f"{'steps ' + args.steps + '; ' if args.steps else ''}{'no pause; ' if args.no_pause else ''}{'no drawing ahead; ' if args.no_draw_ahead else ''}walk {time.perf_counter() - started:.0f} s{'; PROFILED (numbers inflated)' if args.profile else ''}"
    )
    print("| step | id | longest gap wall ms | GUI CPU in it ms | most GUI CPU of a gap ms | gaps > 50 ms |")
    print("|---|---|---|---|---|---|")
    for r in rows if args.all else worst[: args.worst]:
        print(
            f"| {r['step']} | {r['id']} | {r['wall']:.0f} | {r['its_cpu']:.0f} | {r['cpu']:.0f} | {r['over']} |"
        )
    over = [r for r in rows if r["cpu"] > GOAL_MS]
    print(
        f"\nworst over {len(rows)} step changes: wall {max(r['wall'] for r in rows):.0f} ms, GUI CPU "
        f"{max(r['cpu'] for r in rows):.0f} ms; steps with a gap over {GOAL_MS:.0f} ms of GUI CPU: {len(over)}, "
        f"over {GOAL_MS:.0f} ms wall: {sum(r['wall'] > GOAL_MS for r in rows)}"
    )
    heavy = sorted(piece_log.pieces, reverse=True)[:6]
    print(
        f"look-ahead: {len(piece_log.pieces)} pieces, over 25 ms: {sum(p[0] > 25 for p in piece_log.pieces)}; "
        "heaviest (ms GUI CPU, where the walk stopped after it): "
        + "; ".join(f"{ms:.0f} {where}" for ms, where in heavy)
    )
    if args.profile:
        for r in worst[:5]:
            cpu, text = r["profile"]
            print(f"\n--- {r['step']} ({r['id']}): its worst tick {cpu:.1f} ms GUI CPU (profiled) ---")
            print("\n".join(line for line in text.splitlines()[6:] if line.strip()))
    for state in window.state.labs.values():
        state.stop_training()
    window.worker.shutdown(timeout=30)
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
