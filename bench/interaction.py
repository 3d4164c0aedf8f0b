"""The interaction benchmark: one command, offscreen, one table.

    python bench/interaction.py [--keystrokes 100] [--updates 1000] [--pastes 512,2048,4096]
                                [--markdown [FILE]]

Measures, on the machine it runs on:
  * keystroke -> every visible view repainted (the window's synchronous paint of the new
    trace), median and 95th percentile, at 13 tokens x 12 heads (pretrained) and 64 tokens
    x 8 heads (random), on the pipeline tab and on the all-heads tab;
  * a pasted long text (512 tokens pretrained, 2,048 and 4,096 words random) in every tab:
    time to the tab's full update, and the longest the GUI thread was blocked meanwhile (a
    5 ms QTimer on the GUI thread records the largest gap between its ticks);
  * staged attention (keeps every stage) / fused scaled_dot_product_attention at 512 tokens;
  * start from source: the bare ``import torch, PySide6.QtWidgets, pyqtgraph``, the first
    painted window (``main.py --first-paint-exit``) and the opening example's trace drawn
    (``main.py --first-trace-exit``), interleaved runs, with the ratios to the bare import;
  * resident memory after start, after the labs' one-time warm-up, and after N updates.
Timings are wall clock: run it on an idle machine (the load average is printed with the
table). ``--markdown`` prints (or writes to FILE) the table as Markdown for
docs/benchmarks.md. Never used for assertions.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import string
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402  (before Qt, as in main.py)
import torch.nn.functional as F  # noqa: E402
from PySide6 import QtCore, QtTest  # noqa: E402

from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.lab.warm import warm_up_labs  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.views.registry import Tab  # noqa: E402
from explorer.lab.warm_up import warmed  # noqa: E402

CHARS = string.ascii_lowercase + string.digits  # 36 texts > the engine's 16-text cache
WORDS12 = "the animal did not cross the street because it was "  # + 1 char: 12 tokens with [CLS], [SEP]
WORDS64 = " ".join(f"w{i}" for i in range(63)) + " "  # + 1 char: 64 words


def rss_mb() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class GapMeter(QtCore.QObject):
    """A timer ticking every 5 ms on the GUI thread; ``max_gap`` is the longest wait between
    ticks, ``max_gap_cpu`` the GUI thread's CPU time within that wait (far less than the
    wait: the thread was preempted or waited for the interpreter lock, it did not compute)."""

    def __init__(self, interval_ms: int = 5):
        super().__init__()
        self.timer = QtCore.QTimer(self)
        self.timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.last = self.last_cpu = 0.0
        self.max_gap = self.max_gap_cpu = 0.0

    def start(self) -> None:
        self.last, self.last_cpu = time.perf_counter(), time.thread_time()
        self.max_gap = self.max_gap_cpu = 0.0
        self.timer.start()

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        gap = (now - self.last) * 1e3
        if gap > self.max_gap:
            self.max_gap, self.max_gap_cpu = gap, (cpu - self.last_cpu) * 1e3
        self.last, self.last_cpu = now, cpu

    def stop(self) -> float:
        self.timer.stop()
        self._tick()
        return self.max_gap


def wait_for(signal, window: MainWindow, timeout_s: float = 120.0) -> None:
    loop = QtCore.QEventLoop()
    signal.connect(loop.quit)
    window.failed.connect(loop.quit)
    timer = QtCore.QTimer(singleShot=True, interval=int(timeout_s * 1000))
    timer.timeout.connect(loop.quit)
    timer.start()
    loop.exec()
    signal.disconnect(loop.quit)
    window.failed.disconnect(loop.quit)
    if not timer.isActive():
        raise RuntimeError("no repaint within the timeout")


def wait_rendered(window: MainWindow, timeout_s: float = 120.0) -> None:
    wait_for(window.rendered, window, timeout_s)


def open_window(engine: Engine, config: AttentionConfig) -> MainWindow:
    window = MainWindow(engine, config)
    window.resize(1600, 900)
    window.show()
    wait_rendered(window)
    return window


def close_window(app, window: MainWindow) -> None:
    window.close()
    window.deleteLater()
    app.processEvents()


def keystrokes(app, engine, config: AttentionConfig, tab: Tab, n: int) -> dict:
    window = open_window(engine, config)
    window.state.set_tab(tab)
    app.processEvents()
    field = window.controls.sentence
    field.setFocus()
    field.end(False)
    for k in range(5):  # warm up: caches, first layout of the tab
        QtTest.QTest.keyClicks(field, CHARS[k])
        wait_rendered(window)
        QtTest.QTest.keyClick(field, QtCore.Qt.Key.Key_Backspace)
        wait_rendered(window)
    wall, cpu, render = [], [], []
    for k in range(n):
        started, cpu0 = time.perf_counter(), time.thread_time()
        QtTest.QTest.keyClicks(field, CHARS[k % len(CHARS)])
        wait_rendered(window)
        wall.append((time.perf_counter() - started) * 1e3)
        cpu.append((time.thread_time() - cpu0) * 1e3)
        render.append(window.render_ms)
        shown = window.trace  # the measured state (the Backspace below restores the text)
        QtTest.QTest.keyClick(field, QtCore.Qt.Key.Key_Backspace)  # restores the text, not measured
        wait_rendered(window)
    t = shown
    close_window(app, window)
    return dict(
        tokens=t.n_key,
        heads=t.heads,
        source=t.weights_source,
        median=statistics.median(wall),
        p95=percentile(wall, 0.95),
        cpu=statistics.median(cpu),
        render=statistics.median(render),
        compute=t.compute_ms,
    )


SENTENCE_TABS = (Tab.PIPELINE, Tab.HEADS, Tab.OVERVIEW, Tab.COMPARE)


def long_input(app, engine, base: AttentionConfig, text: str, tab: Tab = Tab.PIPELINE) -> dict:
    window = open_window(engine, base)
    view = window.view(tab)
    window.state.set_tab(tab)
    if tab in (Tab.OVERVIEW, Tab.COMPARE):  # these compute more than the trace: their first result
        wait_for(view.rendered, window, 300)
    app.processEvents()
    meter = GapMeter()
    meter.start()
    started = time.perf_counter()
    window.controls.sentence.setText(text)  # a paste: one edit
    if tab in (Tab.PIPELINE, Tab.HEADS):
        while window.trace.config.sentence != text:
            wait_rendered(window, timeout_s=300)
    else:
        done = (
            (lambda: view.weights_for is not None and view.weights_for.sentence == text)
            if tab == Tab.OVERVIEW
            else (lambda: view.pair is not None and view.pair.key[0].sentence == text)
        )
        while not done():
            wait_for(view.rendered, window, 300)
        while window.trace.config.sentence != text:  # the trace too (its tokens are counted)
            wait_rendered(window, timeout_s=300)
    total = (time.perf_counter() - started) * 1e3
    QtTest.QTest.qWait(50)  # whatever the GUI still does after the paint counts too
    gap = meter.stop()
    t = window.trace
    result = dict(
        block_cpu=meter.max_gap_cpu,
        tokens=t.n_key,
        heads=t.heads,
        source=t.weights_source,
        total=total,
        block=gap,
        compute=t.compute_ms,
        render=window.render_ms,
    )
    close_window(app, window)
    return result


def staged_over_fused(n: int = 512, heads: int = 8, d_k: int = 64, repeat: int = 20) -> tuple[float, float]:
    from explorer.core.attention import Settings, attend_heads
    from explorer.core.device import threads_for

    q, k, v = (torch.randn(heads, n, d_k) for _ in range(3))
    settings = Settings(heads)

    def median_ms(fn) -> float:
        fn()
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times)

    with torch.inference_mode(), threads_for(heads * n * n * d_k):
        staged = median_ms(lambda: attend_heads(q, k, v, settings))
        fused = median_ms(lambda: F.scaled_dot_product_attention(q, k, v))
    return staged, fused


BARE_IMPORT = "import torch, PySide6.QtWidgets, pyqtgraph"


def until_marked(command: list[str], marker: str, env: dict) -> float:
    """ms from starting ``command`` to the line ``marker`` on its stdout (the process then
    finishes on its own time: the app lets its worker end before it exits)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    elapsed = None
    for line in proc.stdout:
        if line.strip() == marker and elapsed is None:
            elapsed = (time.perf_counter() - started) * 1e3
    proc.wait(timeout=120)
    if elapsed is None:
        raise RuntimeError(f"{' '.join(command)} never printed {marker!r}")
    return elapsed


def start_up(runs: int = 5) -> dict[str, list[float]]:
    """Wall-clock ms from process start to: the bare imports done, the first painted window,
    the opening example's trace drawn; run after run in turn (so the machine's load hits
    all three alike)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    commands = {
        "bare": ([sys.executable, "-c", f"{BARE_IMPORT}; print('imported', flush=True)"], "imported"),
        "paint": ([sys.executable, str(ROOT / "main.py"), "--first-paint-exit"], "first-paint"),
        "trace": ([sys.executable, str(ROOT / "main.py"), "--first-trace-exit"], "first-trace"),
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, marker) in commands.items():
            times[name].append(until_marked(command, marker, env))
    return times


def memory(app, engine, updates: int) -> tuple[float, float, float]:
    window = open_window(engine, AttentionConfig(sentence=WORDS12 + "a"))
    app.processEvents()
    # The labs' one-time warm-up (torch._dynamo's ~830 modules, ~100 MB) starts once the
    # window is calm: made and finished first, so the growth below is the updates' own.
    before_warm_up = rss_mb()
    warm_up_labs()
    while not warmed():
        app.processEvents()
        time.sleep(0.02)
    app.processEvents()
    start = rss_mb()
    for k in range(updates):
        window.state.update_config(sentence=WORDS12 + CHARS[k % len(CHARS)] + CHARS[(k // 36) % 36])
        wait_rendered(window)
        if k % 3 == 2:  # visit the other tab now and then: both views stay in use
            window.state.set_tab(Tab.HEADS if window.state.tab == Tab.PIPELINE else Tab.PIPELINE)
    app.processEvents()
    end = rss_mb()
    close_window(app, window)
    return before_warm_up, start, end


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
        cpu = names[0] if names else cpu
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python "
        f"{platform.python_version()}, torch {torch.__version__}, Qt offscreen; "
        f"load average at start {load:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keystrokes", type=int, default=100)
    parser.add_argument("--updates", type=int, default=1000)
    parser.add_argument(
        "--markdown",
        nargs="?",
        const="-",
        metavar="FILE",
        help="print the table as Markdown (or write it to FILE)",
    )
    parser.add_argument(
        "--pastes", default="512,2048,4096", help="paste sizes in tokens (512 pretrained, the rest random)"
    )
    parser.add_argument("--starts", type=int, default=5, help="start-up runs of each kind")
    parser.add_argument("--memory-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    app = configure_app()
    if args.memory_only:  # in a fresh process: nothing else has grown the heap
        print("MEMORY {:.1f} {:.1f} {:.1f}".format(*memory(app, Engine(), args.updates)))
        return 0
    described = machine()
    engine = Engine()
    rows: list[tuple[str, str, str, bool | None]] = []  # what, measured, goal, met

    def add(what: str, measured: str, goal: str = "", met: bool | None = None) -> None:
        rows.append((what, measured, goal, met))
        print(f"  {what}: {measured}", file=sys.stderr, flush=True)

    print(f"measuring on {described}", file=sys.stderr, flush=True)
    cases = [
        ("pretrained", AttentionConfig(sentence=WORDS12), 33.0),
        ("random", AttentionConfig(sentence=WORDS64, weights="random", d_model=64), 50.0),
    ]
    tab_names = {
        Tab.PIPELINE: "pipeline",
        Tab.HEADS: "all heads",
        Tab.OVERVIEW: "overview",
        Tab.COMPARE: "compare",
    }
    for label, config, goal in cases:
        for tab in (Tab.PIPELINE, Tab.HEADS):
            r = keystrokes(app, engine, config, tab, args.keystrokes)
            add(
                f"keystroke → pixels, {r['tokens']} tokens × {r['heads']} heads {label}, {tab_names[tab]} tab "
                f"({args.keystrokes} keys)",
                f"median {r['median']:.1f} ms, p95 {r['p95']:.1f} ms (GUI-thread CPU {r['cpu']:.1f} ms, "
                f"render {r['render']:.1f} ms, compute {r['compute']:.1f} ms)",
                f"p95 ≤ {goal:.0f} ms",
                r["p95"] <= goal,
            )
    for size in (int(v) for v in args.pastes.split(",") if v.strip()):
        if size <= 512:
            label, base, text, goal = (
                "pretrained",
                AttentionConfig(sentence="a"),
                " ".join(["word"] * (size - 2)),
                250.0,
            )
        else:
            label, base, text, goal = (
                "random",
                AttentionConfig(sentence="a", weights="random"),
                " ".join(f"w{i}" for i in range(size)),
                None,
            )
        for tab in SENTENCE_TABS:  # the tabs that show the sentence (the labs have inputs of their own)
            r = long_input(app, engine, base, text, tab)
            if tab in (Tab.PIPELINE, Tab.HEADS):
                add(
                    f"paste {r['tokens']} tokens × {r['heads']} heads {label}, {tab_names[tab]} tab: full update",
                    f"{r['total']:.0f} ms (compute {r['compute']:.0f}, render {r['render']:.0f})",
                    "≤ 250 ms" if goal else "",
                    (r["total"] <= goal) if goal else None,
                )
            else:
                add(
                    f"paste {r['tokens']} tokens {label}, {tab_names[tab]} tab: its own result shown",
                    f"{r['total']:.0f} ms",
                )
            add(
                f"paste {r['tokens']} tokens {label}, {tab_names[tab]} tab: longest GUI block",
                f"{r['block']:.0f} ms (GUI-thread CPU in it {r['block_cpu']:.0f} ms)",
                "≤ 50 ms",
                r["block"] <= 50,
            )
    staged, fused = staged_over_fused()
    add(
        "staged / fused SDPA at 512 tokens (8 heads, d_k 64)",
        f"{staged / fused:.2f} ({staged:.1f} ms / {fused:.1f} ms)",
        "≤ 1.5",
        staged / fused <= 1.5,
    )
    starts = start_up(args.starts)
    bare = statistics.median(starts["bare"])

    def runs(name: str) -> str:
        return ", ".join(f"{t / 1e3:.2f}" for t in starts[name])

    add(f"bare `{BARE_IMPORT}` ({args.starts} runs)", f"median {bare / 1e3:.2f} s (runs {runs('bare')})")
    for name, what, limit in (
        ("paint", "first painted window", 1.2),
        ("trace", "opening example's trace drawn", 1.5),
    ):
        median = statistics.median(starts[name])
        add(
            f"start from source to the {what} ({args.starts} runs)",
            f"median {median / 1e3:.2f} s = {median / bare:.2f} × bare (runs {runs(name)})",
            f"≤ {limit} × bare",
            median <= limit * bare,
        )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(
        [sys.executable, __file__, "--memory-only", "--updates", str(args.updates)],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    ).stdout
    opened, before, after = (float(v) for v in out.split("MEMORY", 1)[1].split())
    add("resident memory after start", f"{opened:.0f} MB")
    add(
        "resident memory after the labs' warm-up (once per process)",
        f"{before:.0f} MB ({before - opened:+.0f} MB)",
    )
    add(
        f"resident memory after {args.updates} updates",
        f"{after:.0f} MB (growth {after - before:+.0f} MB)",
        "growth < 50 MB",
        after - before < 50,
    )

    def verdict(met):
        return "" if met is None else ("met" if met else "MISSED")

    load_end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    described += f", at the end {load_end:.2f}"
    if args.markdown:
        lines = [f"Machine: {described}.", "", "| measurement | result | goal | |", "|---|---|---|---|"]
        lines += [f"| {w} | {m} | {g} | {verdict(met)} |" for w, m, g, met in rows]
        text = "\n".join(lines) + "\n"
        if args.markdown == "-":
            print(text)
        else:
            Path(args.markdown).write_text(text, encoding="utf-8")
            print(f"wrote {args.markdown}")
    else:
        print(f"\nAttention Explorer interaction benchmark — {described}")
        width = max(len(w) for w, *_ in rows)
        for w, m, g, met in rows:
            print(f"{w:<{width}}  {m}  {('[' + g + ': ' + verdict(met) + ']') if g else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
