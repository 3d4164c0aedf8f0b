"""A language model in the window: keystroke → Pipeline repainted, and → next-token panel updated.

    python bench/decoder_window.py [--only gpt2|qwen] [--n 30]

Builds a random folder of GPT-2 small's shape (12 layers, 12 heads, 768 wide, 50,257 tokens)
and, with ``--only qwen``, of Qwen2.5-0.5B's (bfloat16, 151,936 tokens), in a temporary folder
deleted after (the builder of bench/decoder_vs_transformers.py), opens it in the window
offscreen at 1024x768, and types into a 16-token sentence (the builder's tokenizer spells most characters alone). Each measured keystroke adds a
character (a text the engine has not cached); a Backspace, not measured, takes it back.
Prints median and p95 of both times, and of the GUI thread's CPU time per keystroke (which
load on the machine inflates little).
"""

from __future__ import annotations

import argparse
import os
import shutil
import string
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # before Qt
from PySide6 import QtCore, QtTest

from bench.decoder_vs_transformers import build, median, p95
from explorer.core.config import AttentionConfig
from explorer.core.engine import Engine
from explorer.gui.app_setup import configure_app
from explorer.gui.main_window import MainWindow

CHARS = string.ascii_lowercase  # more than the engine's cache of texts
SENTENCE = "the animal did "  # about 16 tokens with this tokenizer (most characters alone)


def wait_for(app, done, timeout_s: float = 60.0) -> None:
    """Run the event loop until ``done()``, sleeping between events (a busy loop would count as
    the GUI thread's CPU time); a timer wakes it to look again."""
    until = time.perf_counter() + timeout_s
    wake = QtCore.QTimer(interval=5)
    wake.start()
    try:
        while not done():
            if time.perf_counter() > until:
                raise RuntimeError("not updated within the timeout")
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    finally:
        wake.stop()


def measure(app, folder: Path, n: int) -> dict:
    engine = Engine()
    window = MainWindow(engine, AttentionConfig(sentence=SENTENCE, model_dir=str(folder)))
    window.resize(1024, 768)
    window.show()
    panel = window.pipeline.next_tokens
    wait_for(app, lambda: panel.answer is not None and not window.worker.busy())
    field = window.controls.sentence
    field.setFocus()
    field.end(False)
    pixels, next_tokens, gui_cpu = [], [], []
    for k in range(n):
        drawn: list[float] = []

        def on_drawn(drawn=drawn) -> None:
            drawn.append(time.perf_counter())

        window.rendered.connect(on_drawn)
        started, cpu = time.perf_counter(), time.thread_time()
        QtTest.QTest.keyClicks(field, CHARS[k % len(CHARS)])
        text = field.text()
        wait_for(app, lambda text=text: panel.answer is not None and panel.answer.config.sentence == text)
        next_tokens.append((time.perf_counter() - started) * 1e3)
        wait_for(app, lambda drawn=drawn: bool(drawn))
        pixels.append((drawn[0] - started) * 1e3)
        gui_cpu.append((time.thread_time() - cpu) * 1e3)  # the GUI thread's own work, both updates
        window.rendered.disconnect(on_drawn)
        QtTest.QTest.keyClick(field, QtCore.Qt.Key.Key_Backspace)
        wait_for(app, lambda: panel.answer is not None and panel.answer.config.sentence == field.text())
    trace = window.trace
    window.close()
    return dict(
        tokens=trace.n_query,
        pixels=pixels,
        next_tokens=next_tokens,
        gui_cpu=gui_cpu,
        compute=trace.compute_ms,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("gpt2", "qwen"), default="gpt2")
    parser.add_argument("--n", type=int, default=30)
    args = parser.parse_args()
    app = configure_app()
    root = Path(tempfile.mkdtemp(prefix="decoder-window-"))
    try:
        folder = build(args.only, root / args.only)
        r = measure(app, folder, args.n)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    with open("/proc/loadavg", encoding="ascii") as f:
        load = f.read().split()[:3]
    print(
        f"{args.only} shape, {r['tokens']} tokens, {args.n} keystrokes, 1024x768 offscreen, "
        f"torch threads {torch.get_num_threads()}, {os.cpu_count()} cores, load {' '.join(load)}"
    )
    print(f"{'keystroke →':<28} {'median ms':>10} {'p95 ms':>8}")
    for label, values in (
        ("Pipeline repainted", r["pixels"]),
        ("next-token panel updated", r["next_tokens"]),
        ("GUI CPU (thread time)", r["gui_cpu"]),
    ):
        print(f"{label:<28} {median(values):>10.1f} {p95(values):>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
