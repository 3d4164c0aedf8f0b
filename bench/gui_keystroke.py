"""Time from one keystroke in the sentence field to the visible views repainted, offscreen.

    python bench/gui_keystroke.py [--n 50]

Each measured keystroke types a new character at the end of the sentence (a text the
engine has not cached), then a Backspace (not measured) restores it. Prints median and
worst of n keystrokes per case, with the compute and render share of the last one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import string
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # before Qt
from PySide6 import QtCore, QtTest

from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.gui.app_setup import configure_app
from explorer.gui.main_window import MainWindow
from explorer.gui.views.registry import Tab

CHARS = string.ascii_lowercase + string.digits  # 36 > the engine's 16-text cache


def wait_rendered(app, window, timeout_s: float = 30.0) -> None:
    loop = QtCore.QEventLoop()
    window.rendered.connect(loop.quit)
    timer = QtCore.QTimer(singleShot=True, interval=int(timeout_s * 1000))
    timer.timeout.connect(loop.quit)
    timer.start()
    loop.exec()
    window.rendered.disconnect(loop.quit)
    if not timer.isActive():
        raise RuntimeError("no repaint within the timeout")


def measure(app, engine, config: AttentionConfig, tab: Tab, n: int) -> dict:
    window = MainWindow(engine, config)
    window.resize(1600, 900)
    window.show()
    wait_rendered(app, window)
    window.state.set_tab(tab)
    app.processEvents()
    field = window.controls.sentence
    field.setFocus()
    field.end(False)
    times = []
    for k in range(n):
        started = time.perf_counter()
        QtTest.QTest.keyClicks(field, CHARS[k % len(CHARS)])
        wait_rendered(app, window)
        times.append((time.perf_counter() - started) * 1e3)
        QtTest.QTest.keyClick(field, QtCore.Qt.Key.Key_Backspace)
        wait_rendered(app, window)
    t = window.trace
    result = dict(
        tokens=f"{t.n_query}x{t.n_key}",
        heads=t.heads,
        source=t.weights_source,
        median=statistics.median(times),
        worst=max(times),
        compute=t.compute_ms,
        render=window.render_ms,
    )
    window.close()
    window.deleteLater()
    app.processEvents()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50)
    args = parser.parse_args()
    app = configure_app()
    engine = Engine()
    words12 = "the animal did not cross the street because it was "  # + 1 char = 12 tokens
    words64 = " ".join(f"w{i}" for i in range(63)) + " "  # + 1 char = 64 words
    cases = [
        ("pretrained", AttentionConfig(sentence=words12)),
        ("random", AttentionConfig(sentence=words64, weights="random", d_model=64, heads=8)),
    ]
    rows = []
    for label, config in cases:
        for tab, tab_name in ((Tab.PIPELINE, "pipeline"), (Tab.HEADS, "all heads")):
            r = measure(app, engine, config, tab, args.n)
            rows.append((label, tab_name, r))
    print(
        f"keystroke -> visible views repainted, offscreen, {args.n} keystrokes each "
        f"(torch threads {torch.get_num_threads()}, {os.cpu_count()} cores)"
    )
    print(
        f"{'weights':<11} {'tokens':>7} {'heads':>5} {'view':<10} {'median ms':>10} {'worst ms':>9} "
        f"{'compute ms':>11} {'render ms':>10}"
    )
    for label, tab_name, r in rows:
        print(
            f"{label:<11} {r['tokens']:>7} {r['heads']:>5} {tab_name:<10} {r['median']:>10.1f} "
            f"{r['worst']:>9.1f} {r['compute']:>11.1f} {r['render']:>10.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
