"""The Vision tab's benchmark: how long the GUI thread is ever blocked, and training in the window.

    python bench/vision_tab.py [--steps 400] [--variant cbam] [--pictures 30] [--markdown [FILE]]

Offscreen, in a real MainWindow. A 5 ms QTimer on the GUI thread records the longest gap
between its ticks (bench/interaction.py's GapMeter) while the tab:
  * opens and draws its first picture;
  * gets new pictures (seeds typed one after another, each drawn), a loaded PNG, a drawing;
  * switches models and pages (every page drawn), clicks channels and positions;
  * trains a model from scratch (the window's own settings: 4,096 training pictures, 500
    held-out every 20 steps, one torch thread), with the maps following every snapshot:
    seconds from Start to the first held-out accuracy ≥ 95 % arriving in the window, and to
    the end of the run;
  * is scrubbed across every snapshot of that run (each redrawn with model_at on the worker):
    milliseconds from the slider's move to the maps on screen.
Wall-clock numbers: run it on an idle machine (the load average is printed). Never used for
assertions.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
import torch  # noqa: E402  (before Qt, as in main.py)
from interaction import GapMeter, percentile  # noqa: E402
from PIL import Image  # noqa: E402
from PySide6 import QtCore  # noqa: E402

import explorer  # noqa: E402,F401  (its thread settings come before torch)
from explorer.appstate.vision import PAGES, Stroke  # noqa: E402
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402
from explorer.gui.views.registry import Tab  # noqa: E402


def wait(condition, timeout_s: float = 300.0) -> None:
    """Run the event loop until ``condition()``. QEventLoop.exec lets other threads run while it
    waits; QTest.qWait keeps the interpreter lock and starved the training thread a hundredfold."""
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


def pause(ms: int) -> None:
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()


def settled(view) -> bool:
    r = view.result
    return (
        r is not None
        and not view.context.worker.busy("vision")
        and r.request.picture == view.vision.picture
        and r.request.model == view.model_choice()
    )


class Collections:
    """The longest pause of Python's cyclic garbage collector (it runs on the GUI thread)."""

    def __init__(self):
        self.longest = 0.0
        self._start = 0.0
        gc.callbacks.append(self._on)

    def _on(self, phase, info) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.longest = max(self.longest, (time.perf_counter() - self._start) * 1e3)

    def take(self) -> float:
        longest, self.longest = self.longest, 0.0
        return longest


COLLECTIONS = Collections()


def measure(name: str, rows: list, action, view, done=None) -> None:
    COLLECTIONS.take()
    meter = GapMeter()
    meter.start()
    started = time.perf_counter()
    action()
    wait(done or (lambda: settled(view)))
    total = (time.perf_counter() - started) * 1e3
    pause(30)
    gap = meter.stop()
    rows.append((name, f"{total:.0f}", f"{gap:.1f}", f"{meter.max_gap_cpu:.1f}", f"{COLLECTIONS.take():.1f}"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--variant", default="cbam")
    parser.add_argument("--pictures", type=int, default=30, help="seeds typed one after another")
    parser.add_argument("--markdown", nargs="?", const="-", default=None)
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the training run's three worst ticks (slower)"
    )
    args = parser.parse_args()
    load = os.getloadavg()
    app = configure_app(["bench"])
    window = MainWindow(
        Engine(), AttentionConfig(sentence="Thinking Machines", weights="random"), settings=MemorySettings()
    )
    window.resize(1600, 900)
    window.show()
    pause(500)
    rows: list = []
    state = window.state
    view = None

    def open_tab():
        nonlocal view
        state.set_tab(Tab.VISION)
        view = window.view(Tab.VISION)

    COLLECTIONS.take()
    meter = GapMeter()
    meter.start()
    started = time.perf_counter()
    open_tab()
    wait(lambda: settled(view))
    rows.append(
        (
            "open the tab (build + first picture)",
            f"{(time.perf_counter() - started) * 1e3:.0f}",
            f"{meter.stop():.1f}",
            f"{meter.max_gap_cpu:.1f}",
            f"{COLLECTIONS.take():.1f}",
        )
    )
    v = view.vision

    def seeds():
        for k in range(args.pictures):
            view.seed.setValue(1000 + k)
            wait(lambda: settled(view))

    measure(f"{args.pictures} new pictures, each drawn", rows, seeds, view)
    folder = Path(tempfile.mkdtemp())
    png = folder / "photo.png"
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (1200, 1600, 3), dtype=np.uint8)).save(png)
    measure(
        "load a 1600×1200 PNG",
        rows,
        lambda: view.load_file(str(png)),
        view,
        lambda: settled(view) and v.picture.kind == "file",
    )
    measure(
        "draw a stroke",
        rows,
        lambda: v.add_stroke(Stroke("red", 2.5, tuple((10 + i * 0.3, 8 + i * 0.4) for i in range(60)))),
        view,
    )
    measure(
        "switch model (4 variants)",
        rows,
        lambda: [
            (v.set_variant(m), wait(lambda: settled(view))) for m in ("plain", "se", "residual", "cbam")
        ],
        view,
    )
    v.generate(7)
    wait(lambda: settled(view))

    def pages():
        for page in PAGES:
            v.set_page(page)
            pause(20)  # painted
        wait(lambda: view.compared is not None)

    measure("every page shown (compare computes 3 models)", rows, pages, view)
    v.set_page("channel")
    pause(100)  # the page is on screen
    measure("click a channel (the first: its page's first layouts)", rows, lambda: v.select_channel(5), view)
    measure(
        "click 20 more channels, one every 60 ms",
        rows,
        lambda: [(v.select_channel(c), pause(60)) for c in range(20)],
        view,
    )
    v.set_page("spatial")
    pause(100)
    measure("click a position (the first)", rows, lambda: v.select_position((4, 4)), view)
    measure(
        "click 20 more positions, one every 60 ms",
        rows,
        lambda: [(v.select_position((c % 8, c // 3 % 8)), pause(60)) for c in range(20)],
        view,
    )

    # training in the window
    v.set_variant(args.variant)
    v.set_page("train")
    v.set_training_plan(args.steps, 0)
    wait(lambda: settled(view))
    pause(500)  # the page on screen a moment, as a person sees it before pressing Train
    COLLECTIONS.take()
    redraws = {"n": 0}
    view.rendered.connect(lambda: redraws.__setitem__("n", redraws["n"] + 1))
    from lab_tick_cpu import TickMeter

    ticks = TickMeter(profile=args.profile)
    meter = GapMeter()
    meter.start()
    ticks.start()
    started = time.perf_counter()
    view.start_training()
    run = view.vision.run
    wait(lambda: run.status != "running", timeout_s=1800)
    total = time.perf_counter() - started
    wait(lambda: settled(view))
    gap = meter.stop()
    ticks.stop()
    worst = sorted(zip(ticks.gaps, ticks.windows), key=lambda g: -g[0][1])[:5]
    print(
        "worst training ticks (GUI CPU ms / wall ms at s after Train): "
        + ", ".join(f"{cpu:.1f} / {ms:.0f} at {w[0] - started:.2f} s" for (ms, cpu), w in worst)
    )
    for cpu, text in ticks.worst:
        print(f"\n--- a training tick of {cpu:.1f} ms GUI CPU (profiled) ---")
        print("\n".join(line for line in text.splitlines()[6:] if line.strip()))
    rows.append(
        (
            f"train {args.variant} {args.steps} steps (maps follow the snapshots)",
            f"{total * 1e3:.0f}",
            f"{gap:.1f}",
            f"{meter.max_gap_cpu:.1f}",
            f"{COLLECTIONS.take():.1f}",
        )
    )
    training = dict(
        goal=run.goal_wall_s,
        total=total,
        accuracy=run.last("accuracy") or float("nan"),
        ms_step=run.train_s / max(1, run.step) * 1e3,
        redraws=redraws["n"],
        snapshots=len(run.snapshots),
        worst_cpu=max(c for _, c in ticks.gaps),
    )

    # scrubbing
    COLLECTIONS.take()
    latencies = []
    meter = GapMeter()
    meter.start()
    for index in range(len(run.snapshots)):
        t0 = time.perf_counter()
        view.train_page.scrubber.setValue(index)
        wait(lambda: settled(view))
        latencies.append((time.perf_counter() - t0) * 1e3)
    gap = meter.stop()
    rows.append(
        (
            f"scrub {len(latencies)} snapshots (model_at + maps)",
            f"{sum(latencies):.0f}",
            f"{gap:.1f}",
            f"{meter.max_gap_cpu:.1f}",
            f"{COLLECTIONS.take():.1f}",
        )
    )
    window.close()

    lines = [
        f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; torch {torch.__version__}; "
        f"{os.cpu_count()} CPUs",
        "",
        "| action | wall ms | longest GUI block ms | GUI CPU in it ms | longest gc pause ms |",
        "|---|---|---|---|---|",
        *[f"| {' | '.join(row)} |" for row in rows],
        "",
        f"training {args.variant} in the window, {args.steps} steps, 1 torch thread: "
        + (f"≥ 95 % held-out after {training['goal']:.1f} s" if training["goal"] else "95 % not reached")
        + f"; run {training['total']:.1f} s; {training['ms_step']:.0f} ms/step; final held-out accuracy "
        f"{training['accuracy']:.3f} (500 pictures); {training['snapshots']} snapshots; the tab redrew "
        f"{training['redraws']} times during the run; its worst tick {training['worst_cpu']:.1f} ms GUI CPU"
        + (" (PROFILED: inflated)" if args.profile else ""),
        f"scrubber: slider → maps on screen median {statistics.median(latencies):.1f} ms, "
        f"p95 {percentile(latencies, 0.95):.1f} ms",
    ]
    text = "\n".join(lines)
    if args.markdown and args.markdown != "-":
        Path(args.markdown).write_text(text + "\n", encoding="utf-8")
    print(text)
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
