"""The first switch to the multilingual model, and typing with it: one command, offscreen, one table.

    python bench/first_switch.py [--keystrokes 40] [--runs 3]

(bench/model_switch.py measures the switches and start-up against another checkout.)

Measures, on the machine it runs on:
  * loading multilingual-e5's tokenizer.json (122,612 Unigram pieces) on a worker thread:
    ``tokenizers.Tokenizer.from_file`` against the piece table (explorer/models/unigram_table.py)
    parsed from the file (its first load) and read from its copy in the data folder (a temporary
    one here, made by the parse: the window's switches below read the copy),
    the load's time and the longest the main thread waited to run meanwhile (the window's
    thread, in the application: it waits for the interpreter lock);
  * the window: switching from MiniLM to the multilingual model the first time (a fresh engine,
    the window shown half a second first), until its first trace is drawn, and the longest the GUI thread was blocked (a 5 ms timer),
    with the piece table and with tokenizers' own load, at the window's switch interval (1 ms)
    and at Python's default (5 ms);
  * the lock's convoy behind it: 20 hand-backs of the interpreter lock (a paint's calls into Qt
    and file checks) while another thread runs Python, at each switch interval;
  * keystroke → picture on the text tabs (Pipeline, All heads) with each bundled model,
    median and 95th percentile (bench/interaction.py's measure).
Timings are wall clock: run it on an idle machine (the load average is printed). Never used
for assertions.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402  (before Qt, as in main.py)
from PySide6 import QtCore  # noqa: E402

from bench.interaction import GapMeter, close_window, keystrokes, open_window, wait_rendered  # noqa: E402
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.views.registry import Tab  # noqa: E402
from explorer.lab.warm_up import started as warm_up_started  # noqa: E402
from explorer.lab.warm_up import warmed  # noqa: E402
from explorer.logsetup import DATA_DIR_ENV  # noqa: E402
from explorer.models import catalogue, ready, tokenizer, unigram_table  # noqa: E402

SENTENCE = "The animal didn't cross the street because it was too tired "


def worker_load(load) -> tuple[float, float]:
    """(ms the load took on a worker thread, longest ms the main thread waited meanwhile)."""
    done = threading.Event()
    thread = threading.Thread(target=lambda: (load(), done.set()))
    last = started = time.perf_counter()
    longest = 0.0
    thread.start()
    while not done.is_set():
        time.sleep(0.002)
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    thread.join()
    return (time.perf_counter() - started) * 1e3, longest * 1e3


def hand_backs(interval: float, n: int = 20) -> tuple[float, float]:
    """(wall ms, CPU ms) of ``n`` hand-backs of the lock while another thread runs Python."""
    stop, was = threading.Event(), sys.getswitchinterval()
    sys.setswitchinterval(interval)

    def spin() -> None:
        while not stop.is_set():
            pass

    thread = threading.Thread(target=spin)
    thread.start()
    time.sleep(0.02)
    started, cpu = time.perf_counter(), time.thread_time()
    for _ in range(n):
        time.sleep(0)  # releases the lock and takes it back, as each call into Qt does
    took = (time.perf_counter() - started) * 1e3, (time.thread_time() - cpu) * 1e3
    stop.set()
    thread.join()
    sys.setswitchinterval(was)
    return took


def settle(ms: int = 500) -> None:
    """Run the event loop a moment, as a person looks at the window before switching: the first
    picture's layout settles afterwards (the pictures' scroll bar appears, the canvas is resized
    and repainted whole), and the switch measured right after the first picture timed that
    repaint, convoyed behind the load, as the switch's."""
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()


class StallDumps(GapMeter):
    """GapMeter that writes every thread's stack to ``out`` whenever the GUI thread misses
    ``miss_s`` (faulthandler's own thread, re-armed at every tick: it needs no interpreter
    lock to look), each gap's length after it and the threads' names at the end."""

    def __init__(self, out, miss_s: float = 0.04):
        super().__init__()
        self.out, self.miss_s = out, miss_s

    def start(self) -> None:
        super().start()
        faulthandler.dump_traceback_later(self.miss_s, repeat=False, file=self.out)

    def _tick(self) -> None:
        gap = time.perf_counter() - self.last
        if gap > self.miss_s:
            self.out.write(f"\n=== the GUI thread missed {gap * 1e3:.1f} ms (the dump above)\n")
        super()._tick()
        faulthandler.dump_traceback_later(self.miss_s, repeat=False, file=self.out)

    def stop(self) -> float:
        faulthandler.cancel_dump_traceback_later()
        longest = super().stop()
        names = {f"0x{t.ident:016x}": t.name for t in threading.enumerate() if t.ident}
        self.out.write("\nthreads: " + ", ".join(f"{k} {v}" for k, v in names.items()) + "\n")
        self.out.flush()
        return longest


def first_switch(app, table: bool, stalls=None) -> tuple[float, float, float, bool]:
    """(ms from the switch to the multilingual model's first picture, longest GUI block in ms,
    the GUI thread's own CPU ms within that block: far below the block, it was waiting;
    whether the labs' warm-up imports were under way meanwhile: the window starts them once,
    after 1.5 s calm, and a third thread running Python lengthens every wait for the lock)."""
    real = tokenizer.read_large_unigram
    if not table:  # tokenizers' own load, as before the piece table
        tokenizer.read_large_unigram = lambda path, large=0: None
    try:
        engine = Engine()  # nothing loaded yet: the first switch
        window = open_window(engine, AttentionConfig(sentence=SENTENCE))
        settle()
        meter = StallDumps(stalls) if stalls is not None else GapMeter()
        meter.start()
        started = time.perf_counter()
        warming = warm_up_started() and not warmed()
        window.state.update_config(model=catalogue.MULTILINGUAL)
        while window.trace is None or window.trace.model_name != "multilingual-e5-small":
            wait_rendered(window)
        took = (time.perf_counter() - started) * 1e3
        longest = meter.stop()
        warming = warming or (warm_up_started() and not warmed())
        close_window(app, window)
        return took, longest, meter.max_gap_cpu, warming
    finally:
        tokenizer.read_large_unigram = real


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keystrokes", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--stalls",
        type=Path,
        help="write every thread's stack at each GUI miss of 40 ms of the switches here",
    )
    args = parser.parse_args()
    stalls = args.stalls.open("w") if args.stalls else None
    torch.set_num_threads(1)
    folder = ready.ready_dir(catalogue.MULTILINGUAL)
    if folder is None:
        print("the multilingual model is not installed (./dev installs and converts it)")
        return 1
    started_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    app = configure_app(["bench"])
    os.environ[DATA_DIR_ENV] = tempfile.mkdtemp(prefix="first-switch-")  # the window's copy made once, below
    path = folder / "tokenizer.json"
    from tokenizers import Tokenizer

    rows = []

    def parsed() -> None:  # the first load of the file: no copy of its table in the data folder yet
        kept = os.environ[DATA_DIR_ENV]
        os.environ[DATA_DIR_ENV] = tempfile.mkdtemp(prefix="first-switch-parse-")
        unigram_table.read_large_unigram(path)
        os.environ[DATA_DIR_ENV] = kept

    unigram_table.read_large_unigram(path)  # the copy the later loads read

    for name, load in (
        ("tokenizers' Tokenizer.from_file", lambda: Tokenizer.from_file(str(path))),
        ("the piece table parsed (the file's first load: read_large_unigram)", parsed),
        (
            "the piece table from its copy in the data folder (every later load)",
            lambda: unigram_table.read_large_unigram(path),
        ),
    ):
        runs = [worker_load(load) for _ in range(args.runs)]
        rows.append(
            (f"load the tokenizer: {name}", f"{statistics.median(r[0] for r in runs):.0f} ms",
             f"{max(r[1] for r in runs):.0f} ms")
        )  # fmt: skip
    window_interval = sys.getswitchinterval()  # configure_app's
    for interval in (0.005, window_interval):
        runs = [hand_backs(interval) for _ in range(args.runs)]
        rows.append(
            (f"20 hand-backs of the lock beside a Python thread, switch interval {interval * 1e3:g} ms",
             f"{statistics.median(r[0] for r in runs):.1f} ms", f"(CPU {max(r[1] for r in runs):.1f} ms)")
        )  # fmt: skip
    for table, interval in ((False, window_interval), (True, 0.005), (True, window_interval)):
        sys.setswitchinterval(interval)
        runs = [first_switch(app, table, stalls) for _ in range(args.runs)]
        how = "piece table" if table else "tokenizers' load"
        worst = max(runs, key=lambda r: r[1])
        rows.append(
            (f"window: first switch to multilingual ({how}, switch interval {interval * 1e3:g} ms)",
             f"{statistics.median(r[0] for r in runs):.0f} ms",
             f"{worst[1]:.0f} ms (GUI CPU {worst[2]:.0f} ms){' beside the warm-up' if worst[3] else ''}")
        )  # fmt: skip
    sys.setswitchinterval(window_interval)
    engine = Engine()
    for model in (catalogue.DEFAULT_MODEL, catalogue.MULTILINGUAL):
        for tab in (Tab.PIPELINE, Tab.HEADS):
            k = keystrokes(app, engine, AttentionConfig(sentence=SENTENCE, model=model), tab, args.keystrokes)
            rows.append((f"keystroke → picture, {model}, {tab.value} ({k['tokens']} tokens)",
                         f"median {k['median']:.0f} ms", f"p95 {k['p95']:.0f} ms"))  # fmt: skip
    print(
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (at the end; {started_load} at the start), {os.cpu_count()} CPUs\n"
    )
    print("| what | time | longest wait of the GUI thread / p95 |\n|---|---:|---:|")
    for what, took, worst in rows:
        print(f"| {what} | {took} | {worst} |")
    print("\ngoals: no GUI block over 50 ms on the switch; keystroke → picture p95 ≤ 33 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
