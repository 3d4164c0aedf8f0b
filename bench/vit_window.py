"""The live pair in the window: Train pressed on the Vision Transformer tab, to the end of both runs.

    python bench/vit_window.py [--size 1000] [--steps N] [--page train] [--profile]

Offscreen, a real MainWindow (1024×768) on the ViT tab's Train page: the button is clicked and
the window runs as a class would watch it (the rollout beside the curves follows every
snapshot, computed on the worker). Measured:
  * wall seconds from the click to both runs' end (and to the window's last redraw);
  * each run's training clock, its own wall clock and its training thread's CPU seconds (the
    evaluations and snapshots included);
  * the longest GUI block (a 5 ms timer's longest gap, bench/interaction.py's GapMeter) and the
    GUI thread's CPU within it, the GUI thread's CPU over the whole run, and per slot (the ViT
    view's result and curve redraws, the training page's curves and its progress);
  * the final held-out accuracies (the window's 500 pictures).
Timings are inflated on a shared machine: the load average is printed before and after; the GUI
and training threads' CPU seconds are inflated far less. ``--profile`` adds cProfile's top
functions on the GUI thread (its CPU clock) during the run. Never used for assertions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import torch  # noqa: E402  (before Qt, as in main.py)
from interaction import GapMeter  # noqa: E402
from PySide6 import QtCore  # noqa: E402

import explorer  # noqa: E402,F401  (its thread settings come before torch)
import explorer.appstate.vit as vit_state  # noqa: E402
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402
from explorer.lab import warmed  # noqa: E402  (a person reads the page first: the labs' warm-up has ended)


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def wait(condition, timeout_s: float = 3600.0) -> None:
    """The event loop until ``condition()`` (QEventLoop.exec lets the training threads run)."""
    if condition():
        return
    loop = QtCore.QEventLoop()
    poll = QtCore.QTimer(interval=100)  # its own ticks cost the GUI thread little beside the meter's
    poll.timeout.connect(lambda: condition() and loop.quit())
    QtCore.QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    poll.start()
    loop.exec()
    poll.stop()
    if not condition():
        raise RuntimeError("timed out")


# Each run's training thread: its CPU seconds, measured on that thread around the whole job.
THREAD_CPU: dict[str, float] = {}
_train_member = vit_state._train_pair_member


def _timed_member(model: str, size: int, options, **callbacks):
    start = time.thread_time()
    try:
        return _train_member(model, size, options, **callbacks)
    finally:
        THREAD_CPU[model] = time.thread_time() - start


vit_state._train_pair_member = _timed_member


class SlotClock:
    """The GUI thread's CPU seconds in chosen methods of the window's objects, per method."""

    def __init__(self):
        self.cpu: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.longest: dict[str, float] = defaultdict(float)

    def wrap(self, owner, name: str, label: str) -> None:
        inner = getattr(owner, name)

        def timed(*args, **kwargs):
            start = time.thread_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent = time.thread_time() - start
                self.cpu[label] += spent
                self.calls[label] += 1
                self.longest[label] = max(self.longest[label], spent)

        setattr(owner, name, timed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=vit_state.LIVE_SIZE, choices=vit_state.LIVE_SIZES)
    parser.add_argument("--steps", type=int, default=None, help="the ViT's steps (default: the tab's)")
    parser.add_argument("--page", default="train", choices=vit_state.PAGES, help="the page shown meanwhile")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    before = loadavg()
    from explorer.gui.lab.training import TrainingPage
    from explorer.gui.labs.vision.vit_view import ViTView

    clock = SlotClock()  # on the classes: the window connects its objects' methods when it builds them
    clock.wrap(ViTView, "_on_result", "ViT view: a result drawn")
    clock.wrap(ViTView, "_show_curve", "ViT view: Data page's live curves")
    clock.wrap(ViTView, "_on_lab", "ViT view: a lab event (the above included)")
    clock.wrap(TrainingPage, "draw_curves", "training page: curves' data")
    clock.wrap(TrainingPage, "_draw_next", "training page: a plot drawn")
    clock.wrap(TrainingPage, "show_run", "training page: progress and status")
    clock.wrap(vit_state.ViTState, "poll", "lab: poll (both runs' reports, the events included)")
    app = configure_app(["bench"])
    window = MainWindow(
        Engine(), AttentionConfig(sentence="Thinking Machines", weights="random"), settings=MemorySettings()
    )
    window.resize(1024, 768)
    window.show()
    window.state.set_tab("vit")
    view = window.view("vit")
    lab = view.lab
    lab.set_train_size(args.size)
    lab.set_page("train")
    wait(lambda: view.result is not None and not window.worker.busy() and warmed())
    page = view.train_page
    if args.steps is not None:
        page.steps.setValue(args.steps)
    if args.page != "train":
        lab.set_page(args.page)
    redraws = {"n": 0}
    view.rendered.connect(lambda: redraws.__setitem__("n", redraws["n"] + 1))
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    meter = GapMeter()
    meter.start()
    gui_start = time.thread_time()
    if profile is not None:
        profile.enable()
    started = time.perf_counter()
    page.train_button.click()
    runs = {"vit": lab.run, "cnn": lab.cnn_run}
    wait(lambda: all(r is not None and not r.running for r in runs.values()) and not lab.training)
    ended = time.perf_counter() - started
    wait(lambda: not window.worker.busy())
    QtCore.QCoreApplication.processEvents()
    settled = time.perf_counter() - started
    if profile is not None:
        profile.disable()
    gui_cpu = time.thread_time() - gui_start
    gap = meter.stop()
    after = loadavg()
    lines = [
        f"torch {torch.__version__}, {os.cpu_count()} CPUs; load {before} before, {after} after",
        "",
        f"### Live pair in the window: {args.size:,} pictures, Train clicked on the ViT tab "
        f"({args.page} page shown), one torch thread each",
        "",
        f"click → both runs ended: {ended:.1f} s wall; → last result drawn: {settled:.1f} s; "
        f"longest GUI block {gap:.1f} ms (GUI CPU in it {meter.max_gap_cpu:.1f} ms); GUI CPU over the "
        f"run {gui_cpu:.1f} s; the tab redrew {redraws['n']} times",
        "",
        "| model | steps | status | wall s | training clock s | training thread CPU s | held-out accuracy |",
        "|---|---|---|---|---|---|---|",
    ]
    for model, run in runs.items():
        assert run is not None
        lines.append(
            f"| {model} | {run.step} | {run.status} | {run.wall_s:.1f} | {run.train_s:.1f} | "
            f"{THREAD_CPU.get(model, float('nan')):.1f} | {run.last('accuracy') or float('nan'):.3f} |"
        )
    lines += ["", "| GUI slot | calls | CPU s | longest ms |", "|---|---|---|---|"]
    for label in sorted(clock.cpu, key=lambda k: -clock.cpu[k]):
        lines.append(
            f"| {label} | {clock.calls[label]} | {clock.cpu[label]:.2f} | {1e3 * clock.longest[label]:.1f} |"
        )
    print("\n".join(lines))
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    lab.stop_training()
    window.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
