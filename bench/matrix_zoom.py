"""Zooming into a large attention matrix: pyqtgraph against the lean painter, one table.

    python bench/matrix_zoom.py [--sizes 2048,4096] [--keys-tokens 512] [--steps 24] [--starts 5]
                                [--no-window] [--keys-only] [--markdown [FILE]]

Measures, offscreen, on the machine it runs on:
  * import: a fresh process importing PySide6.QtWidgets, then the same with pyqtgraph
    (interleaved runs; the difference is what pyqtgraph costs the thread that imports it);
  * pyqtgraph: an ImageItem of the whole n × n weights in a ViewBox (900 × 700 px, the
    cividis table, levels 0..1): setImage and the first paint; a zoom step (the view
    scaled 1/1.25 about a point) and a pan step, each with its repaint; with and without
    autoDownsample; the process's memory growth per image;
  * the lean painter: a MatrixCanvas of the same matrix (its 256-px reduced picture, a
    causal mask): the first paint; a Ctrl+wheel step and a drag step, each event plus its
    repaint on the GUI thread; the thread's time to compute a zoomed region's picture at
    each zoom; a burst of wheel notches and a drag at 60 events a second, with the longest
    the GUI thread was blocked (a 5 ms timer's largest gap) and the time from the last
    event to the exact picture on screen;
  * the window (not with --no-window): the Pipeline tab with an n-token random trace, every
    stage shown (four zoomed (query, key) panels) and the weights stage alone: the longest
    GUI block during a wheel burst and a drag;
  * the keys (``--keys-tokens``, 512 by default; ``--keys-only`` measures only this): the
    Pipeline tab at 1024 × 768 with every stage shown, its canvas's repaint whole and zoomed,
    and for each key of a sequence (+ + + Shift+→ Shift+↓ − 0 sent to the window, as the
    keyboard would), the time from the key to its picture painted: the zoom in the state, every
    (query, key) panel drawn from the exact cells of its region.
Timings are wall clock: the load average is printed with the table. Never used for assertions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
import torch  # noqa: E402  (before Qt, as in main.py)
from interaction import GapMeter, close_window, machine, open_window, rss_mb, wait_rendered  # noqa: E402
from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402

from explorer.appstate import matrix_zoom as mz  # noqa: E402
from explorer.appstate.display import reduce_for_display  # noqa: E402
from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.heatmap import Figure, MatrixCanvas, MatrixPanel  # noqa: E402
from explorer.gui.heatmap.colours import colour_map_for  # noqa: E402
from explorer.gui.heatmap.zoom import View, region_arrays  # noqa: E402

SIZE = (900, 700)
EVENT_MS = 16  # a wheel notch or a mouse move every 16 ms: 60 a second


def ms(seconds: float) -> float:
    return seconds * 1e3


def summary(times: list[float], cpu: list[float] | None = None) -> str:
    text = f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms"
    if cpu:
        text += f" (GUI-thread CPU median {statistics.median(cpu):.1f}, max {max(cpu):.1f})"
    return text


class Clock:
    """Wall and thread-CPU milliseconds of a block (CPU: what the GUI thread itself spent,
    which a loaded machine inflates far less than the wall clock)."""

    def __init__(self, wall: list[float], cpu: list[float]):
        self.wall, self.cpu = wall, cpu

    def __enter__(self):
        self.started, self.cpu0 = time.perf_counter(), time.thread_time()

    def __exit__(self, *_):
        self.wall.append(ms(time.perf_counter() - self.started))
        self.cpu.append(ms(time.thread_time() - self.cpu0))


def weights(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    mask = np.tril(np.ones((n, n), bool))
    w = np.where(mask, rng.random((n, n), dtype=np.float32), 0).astype(np.float32)
    return w, mask


# -- import ----------------------------------------------------------------------------------------
def import_cost(runs: int) -> tuple[list[float], list[float]]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")

    def once(code: str) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
        return ms(time.perf_counter() - started)

    qt, both = [], []
    for _ in range(runs):
        qt.append(once("import PySide6.QtWidgets"))
        both.append(once("import PySide6.QtWidgets, pyqtgraph"))
    return qt, both


# -- pyqtgraph ---------------------------------------------------------------------------------------
def pyqtgraph_zoom(app, n: int, steps: int, auto: bool) -> dict:
    import pyqtgraph as pg

    pg.setConfigOptions(imageAxisOrder="row-major")
    cmap = colour_map_for("weights")
    lut = np.stack([(cmap.argb >> s) & 0xFF for s in (16, 8, 0)], -1).astype(np.uint8)
    w, _ = weights(n)
    win = pg.GraphicsLayoutWidget()
    win.resize(*SIZE)
    box = win.addViewBox()
    box.invertY(True)
    box.setMenuEnabled(False)
    item = pg.ImageItem(autoDownsample=auto)
    box.addItem(item)
    win.show()
    app.processEvents()
    rss = rss_mb()
    started = time.perf_counter()
    item.setImage(w, levels=(0, 1), lut=lut)
    box.autoRange(padding=0)
    win.viewport().repaint()
    first = ms(time.perf_counter() - started)
    grown = rss_mb() - rss
    zooms, pans, zoom_cpu, pan_cpu = [], [], [], []
    centre = QtCore.QPointF(n * 0.6, n * 0.3)
    for _ in range(steps):
        with Clock(zooms, zoom_cpu):
            box.scaleBy((1 / mz.WHEEL_STEP, 1 / mz.WHEEL_STEP), center=centre)
            win.viewport().repaint()
    for _ in range(steps):
        with Clock(pans, pan_cpu):
            box.translateBy((n / 400, n / 400))
            win.viewport().repaint()
    win.close()
    win.deleteLater()
    app.processEvents()
    return dict(first=first, zooms=zooms, pans=pans, zoom_cpu=zoom_cpu, pan_cpu=pan_cpu, memory=grown)


# -- the lean painter ---------------------------------------------------------------------------------
def lean_canvas(n: int) -> tuple[MatrixCanvas, MatrixPanel]:
    w, mask = weights(n)
    tokens = [f"t{i}" for i in range(n)]
    panel = MatrixPanel(
        w,
        tokens,
        tokens,
        title="weights",
        kind="weights",
        role="qk",
        picture=reduce_for_display(w, 256, "max"),
        hidden=reduce_for_display(~mask, 256, "all"),
        visible=mask,
    )
    canvas = MatrixCanvas()
    canvas.resize(*SIZE)
    canvas.set_figure(Figure([panel], zoomable=True))
    canvas.show()
    return canvas, panel


def wheel(canvas, pos: QtCore.QPointF, notches: float) -> None:
    event = QtGui.QWheelEvent(
        pos,
        canvas.mapToGlobal(pos),
        QtCore.QPoint(),
        QtCore.QPoint(0, int(120 * notches)),
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.KeyboardModifier.ControlModifier,
        QtCore.Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QtWidgets.QApplication.sendEvent(canvas, event)


def mouse(canvas, kind, pos: QtCore.QPointF, down: bool = True) -> None:
    left = QtCore.Qt.MouseButton.LeftButton
    button = left if kind != QtCore.QEvent.Type.MouseMove else QtCore.Qt.MouseButton.NoButton
    buttons = left if down else QtCore.Qt.MouseButton.NoButton
    event = QtGui.QMouseEvent(
        kind, pos, canvas.mapToGlobal(pos), button, buttons, QtCore.Qt.KeyboardModifier.NoModifier
    )
    QtWidgets.QApplication.sendEvent(canvas, event)


def shown_exactly(app, canvas, panel, timeout_s: float = 60) -> float:
    """ms until the picture of the region on screen is computed and painted."""
    started = time.perf_counter()
    index = canvas.panels.index(panel)
    while time.perf_counter() - started < timeout_s:
        canvas.repaint()
        latest = canvas.pictures.latest(panel)
        if latest is not None and latest.view.region == canvas.box(index).region:
            return ms(time.perf_counter() - started)
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5)
    return float("nan")


def lean_steps(app, n: int, steps: int) -> dict:
    canvas, panel = lean_canvas(n)
    app.processEvents()
    started = time.perf_counter()
    canvas.repaint()
    first = ms(time.perf_counter() - started)
    plot = canvas.box(0).plot
    at = QtCore.QPointF(plot.left() + plot.width() * 0.6, plot.top() + plot.height() * 0.3)
    zooms, zoom_cpu, pans, pan_cpu = [], [], [], []
    for _ in range(steps):
        with Clock(zooms, zoom_cpu):
            wheel(canvas, at, 1)
            canvas.repaint()
    for _ in range(steps - steps // 3):  # back out to a region of a few hundred cells
        wheel(canvas, at, -1)
    shown_exactly(app, canvas, panel)
    region = canvas.figure.zoom
    start = plot.center()
    mouse(canvas, QtCore.QEvent.Type.MouseButtonPress, start)
    for k in range(1, steps + 1):
        with Clock(pans, pan_cpu):
            mouse(canvas, QtCore.QEvent.Type.MouseMove, start + QtCore.QPointF(-6 * k, 4 * k))
            canvas.repaint()
    mouse(canvas, QtCore.QEvent.Type.MouseButtonRelease, start + QtCore.QPointF(-6 * steps, 4 * steps), False)
    canvas.close()
    canvas.deleteLater()
    app.processEvents()
    return dict(first=first, zooms=zooms, pans=pans, zoom_cpu=zoom_cpu, pan_cpu=pan_cpu, region=region)


def thread_pictures(n: int) -> list[tuple[int, float]]:
    """(cells a side, ms) of one zoomed picture, computed as the thread computes it."""
    canvas, panel = lean_canvas(n)
    plot = canvas.box(0).plot
    out = []
    for factor in (1.25, 2, 4, 8, 16, 32):
        region = mz.zoom(None, n, n, factor, (0.3, 0.6))
        view = View(region, int(plot.width()), int(plot.height()))
        started = time.perf_counter()
        region_arrays(panel, view)
        out.append((region.rows, ms(time.perf_counter() - started)))
    canvas.deleteLater()
    return out


def timed_events(app, events) -> None:
    """Run each callable one event-period apart, the event loop running in between."""
    for send in events:
        send()
        due = time.perf_counter() + EVENT_MS / 1e3
        while time.perf_counter() < due:
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 2)


def bursts(app, canvas, panel, index: int, notches: int = 24, moves: int = 60) -> dict:
    """The longest GUI block over a wheel burst and over a drag, and the wait after each."""
    box = canvas.box(index)
    plot = box.plot
    at = QtCore.QPointF(plot.left() + plot.width() * 0.6, plot.top() + plot.height() * 0.3)
    meter = GapMeter()
    meter.start()
    timed_events(app, [lambda: wheel(canvas, at, 1)] * notches)
    wheel_block = meter.stop()
    wheel_cpu = meter.max_gap_cpu
    wheel_wait = shown_exactly(app, canvas, panel)
    for _ in range(notches // 2):  # a region of some thousands of cells a side, for the drag
        wheel(canvas, at, -1)
    shown_exactly(app, canvas, panel)
    start = plot.center()
    T = QtCore.QEvent.Type
    steps = [lambda: mouse(canvas, T.MouseButtonPress, start)]
    steps += [
        (lambda k=k: mouse(canvas, T.MouseMove, start + QtCore.QPointF(-4 * k, 3 * k))) for k in range(moves)
    ]
    steps.append(
        lambda: mouse(canvas, T.MouseButtonRelease, start + QtCore.QPointF(-4 * moves, 3 * moves), False)
    )
    meter.start()
    timed_events(app, steps)
    drag_block = meter.stop()
    drag_cpu = meter.max_gap_cpu
    drag_wait = shown_exactly(app, canvas, panel)
    canvas.request_zoom(None)
    return dict(
        wheel=wheel_block, wheel_cpu=wheel_cpu, wheel_wait=wheel_wait,
        drag=drag_block, drag_cpu=drag_cpu, drag_wait=drag_wait,
    )  # fmt: skip


def lean_bursts(app, n: int) -> dict:
    canvas, panel = lean_canvas(n)
    app.processEvents()
    out = bursts(app, canvas, panel, 0)
    canvas.close()
    canvas.deleteLater()
    app.processEvents()
    return out


def window_bursts(app, engine, n: int) -> list[tuple[str, dict]]:
    words = " ".join(f"w{i}" for i in range(n))
    config = AttentionConfig(
        sentence=words, weights="random", heads=1, d_model=16, mask="causal", max_tokens=n
    )
    window = open_window(engine, config)
    while window.trace is None or window.trace.n_key != n:
        wait_rendered(window, timeout_s=600)
    out = []
    p = window.pipeline
    for label, zoom in (("every stage", None), ("the weights stage alone", ("weights",))):
        window.state.set_stage_zoom(zoom)
        window.state.set_matrix_zoom(None)
        for _ in range(20):
            app.processEvents()
        index = p.index("weights")
        p.scroll.ensureVisible(0, int(p.canvas.box(index).plot.bottom()))
        out.append((label, bursts(app, p.canvas, p.canvas.panels[index], index)))
    close_window(app, window)
    return out


KEYS = (  # the keyboard's zoom, as a user would press it
    ("+", QtCore.Qt.Key.Key_Plus, QtCore.Qt.KeyboardModifier.NoModifier),
    ("+", QtCore.Qt.Key.Key_Plus, QtCore.Qt.KeyboardModifier.NoModifier),
    ("+", QtCore.Qt.Key.Key_Plus, QtCore.Qt.KeyboardModifier.NoModifier),
    ("Shift+→", QtCore.Qt.Key.Key_Right, QtCore.Qt.KeyboardModifier.ShiftModifier),
    ("Shift+↓", QtCore.Qt.Key.Key_Down, QtCore.Qt.KeyboardModifier.ShiftModifier),
    ("−", QtCore.Qt.Key.Key_Minus, QtCore.Qt.KeyboardModifier.NoModifier),
    ("0", QtCore.Qt.Key.Key_0, QtCore.Qt.KeyboardModifier.NoModifier),
)


def press(widget, key, mods) -> None:
    """A key press and release sent to a widget (unused keys travel up to the window)."""
    T = QtCore.QEvent.Type
    for kind in (T.KeyPress, T.KeyRelease):
        QtWidgets.QApplication.sendEvent(widget, QtGui.QKeyEvent(kind, key, mods))


def keys_to_picture(app, engine, n: int, repaints: int = 10, timeout_s: float = 60) -> dict:
    """The Pipeline tab at 1024 × 768 with an ``n``-token trace: repaints whole and zoomed,
    and each zoom key's time until its picture is on screen."""
    words = " ".join(f"w{i}" for i in range(n))
    config = AttentionConfig(
        sentence=words, weights="random", heads=4, d_model=64, mask="causal", max_tokens=n
    )
    window = open_window(engine, config)
    window.resize(1024, 768)
    while window.trace is None or window.trace.n_key != n:
        wait_rendered(window, timeout_s=600)
    for _ in range(20):
        app.processEvents()
    pipeline = window.pipeline
    canvas = pipeline.canvas
    pipeline.scroll.ensureVisible(0, int(canvas.box(pipeline.index("weights")).plot.bottom()))
    window.state.select_cell((n * 3 // 5, n // 4))

    def repaint_ms() -> tuple[list[float], list[float]]:
        wall, cpu = [], []
        canvas.repaint()  # the first paint of a new look is not a repaint
        for _ in range(repaints):
            with Clock(wall, cpu):
                canvas.repaint()
        return wall, cpu

    def exact() -> bool:  # every zoomed panel on screen drawn from its cells (others are not painted)
        seen = QtCore.QRectF(canvas.visibleRegion().boundingRect())
        for i, panel in enumerate(canvas.panels):
            box = canvas.box(i)
            if box.region is None or not box.slot.intersects(seen):
                continue
            latest = canvas.pictures.latest(panel)
            if latest is None or latest.view.region != box.region:
                return False
        return True

    whole = repaint_ms()
    steps = []
    for label, key, mods in KEYS:
        wall, cpu = [], []
        with Clock(wall, cpu):
            before = window.state.matrix_zoom
            press(window.tabs, key, mods)
            wanted = window.state.matrix_zoom
            canvas.repaint()
        started = time.perf_counter()
        while not (canvas.figure.zoom == wanted and exact()) and time.perf_counter() - started < timeout_s:
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5)
            canvas.repaint()
        changed = "" if wanted != before else " (no change)"
        side = "whole" if wanted is None else f"{wanted.rows}×{wanted.cols}"
        steps.append((f"{label} → {side}{changed}", wall[0] + ms(time.perf_counter() - started), cpu[0]))
    press(window.tabs, QtCore.Qt.Key.Key_Plus, QtCore.Qt.KeyboardModifier.NoModifier)
    press(window.tabs, QtCore.Qt.Key.Key_Plus, QtCore.Qt.KeyboardModifier.NoModifier)
    zoomed, region = repaint_ms(), window.state.matrix_zoom
    close_window(app, window)
    return dict(whole=whole, zoomed=zoomed, steps=steps, region=region)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2048,4096")
    parser.add_argument("--keys-tokens", type=int, default=512, help="tokens of the keys' window (0: none)")
    parser.add_argument("--keys-only", action="store_true", help="measure only the keys' window")
    parser.add_argument("--steps", type=int, default=24)
    parser.add_argument("--starts", type=int, default=5, help="import runs of each kind")
    parser.add_argument("--no-window", action="store_true", help="skip the window's Pipeline tab")
    parser.add_argument("--markdown", nargs="?", const="-", metavar="FILE")
    args = parser.parse_args()
    torch.set_num_threads(1)
    app = configure_app()
    sizes = [int(v) for v in args.sizes.split(",") if v.strip()]
    described = machine()
    rows: list[tuple[str, str]] = []

    def add(what: str, measured: str) -> None:
        rows.append((what, measured))
        print(f"  {what}: {measured}", file=sys.stderr, flush=True)

    print(f"measuring on {described}", file=sys.stderr, flush=True)
    if args.keys_tokens > 0:
        n = args.keys_tokens
        r = keys_to_picture(app, Engine(), n)
        where = f"window 1024×768, Pipeline, every stage, {n} tokens"
        add(f"{where}: canvas repaint, whole matrices", summary(*r["whole"]))
        add(
            f"{where}: canvas repaint, zoomed to {r['region'].rows}×{r['region'].cols}", summary(*r["zoomed"])
        )
        for label, wait, cpu in r["steps"]:
            add(f"{where}: key {label}, to its exact picture on screen", f"{wait:.0f} ms (GUI CPU {cpu:.0f})")
    if args.keys_only:
        sizes = []
    qt, both = ([], []) if args.keys_only else import_cost(args.starts)
    if qt:
        add(
            f"fresh process: import PySide6.QtWidgets / + pyqtgraph ({args.starts} runs)",
            f"median {statistics.median(qt):.0f} / {statistics.median(both):.0f} ms: pyqtgraph "
            f"+{statistics.median(both) - statistics.median(qt):.0f} ms",
        )
    for n in sizes:
        for auto in (False, True):
            r = pyqtgraph_zoom(app, n, args.steps, auto)
            label = f"pyqtgraph ImageItem {n}², autoDownsample {'on' if auto else 'off'}"
            add(f"{label}: setImage + first paint", f"{r['first']:.0f} ms (memory +{r['memory']:.0f} MB)")
            add(f"{label}: zoom step + repaint", summary(r["zooms"], r["zoom_cpu"]))
            add(f"{label}: pan step + repaint", summary(r["pans"], r["pan_cpu"]))
        r = lean_steps(app, n, args.steps)
        add(f"lean painter {n}²: first paint (the 256-px picture)", f"{r['first']:.1f} ms")
        add(f"lean painter {n}²: Ctrl+wheel step + repaint", summary(r["zooms"], r["zoom_cpu"]))
        add(f"lean painter {n}²: drag step + repaint", summary(r["pans"], r["pan_cpu"]))
        pictures = ", ".join(f"{side}: {t:.0f}" for side, t in thread_pictures(n))
        add(f"lean painter {n}²: a zoomed picture on its thread, ms by cells a side", pictures)
        b = lean_bursts(app, n)
        add(
            f"lean painter {n}²: {24} wheel notches at 60/s: longest GUI block, then exact picture",
            f"{b['wheel']:.0f} ms (GUI CPU {b['wheel_cpu']:.0f}), {b['wheel_wait']:.0f} ms",
        )
        add(
            f"lean painter {n}²: a 60-move drag at 60/s: longest GUI block, then exact picture",
            f"{b['drag']:.0f} ms (GUI CPU {b['drag_cpu']:.0f}), {b['drag_wait']:.0f} ms",
        )
    if not args.no_window and sizes:
        engine = Engine()
        for n in sizes:
            for label, b in window_bursts(app, engine, n):
                add(
                    f"window, Pipeline, {n} tokens, {label}: wheel burst / drag, longest GUI block",
                    f"{b['wheel']:.0f} / {b['drag']:.0f} ms (GUI CPU {b['wheel_cpu']:.0f} / {b['drag_cpu']:.0f});"
                    f" exact after {b['wheel_wait']:.0f} / {b['drag_wait']:.0f} ms",
                )
    load = os.getloadavg()[0]
    lines = [
        f"Machine: {described}; at the end {load:.2f} (1-minute load averages).",
        "",
        "| measurement | result |",
        "|---|---|",
    ]
    lines += [f"| {what} | {measured} |" for what, measured in rows]
    text = "\n".join(lines) + "\n"
    if args.markdown and args.markdown != "-":
        Path(args.markdown).write_text(text, encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
