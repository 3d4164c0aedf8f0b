"""Heads off on a real X server at 1024x768, presentation mode (F11 by xdotool), the lesson open:
MiniLM's All heads with a head switched off (the output-cosine panel), then a decoder's
next-token panel sampling (its rows, its byte labels), one screenshot each.

    Xvfb :64 -screen 0 1024x768x24 &
    DISPLAY=:64 python tests/gui/xvfb_heads_off.py [--language zh_CN] [--shots DIR] [--decoder FOLDER]

Not collected by pytest (it needs the X server): tests/gui/test_encoder_heads_off.py and
test_decoder_heads_off.py are the offscreen checks CI runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ["QT_QPA_PLATFORM"] = "xcb"

import torch  # noqa: E402  (before Qt, as in main.py)

torch.set_num_threads(1)
from PySide6 import QtCore  # noqa: E402

from explorer.core.config import AttentionConfig  # noqa: E402
from explorer.core.engine import Engine  # noqa: E402
from explorer.gui.app_setup import configure_app  # noqa: E402
from explorer.gui.main_window import MainWindow  # noqa: E402
from explorer.gui.views.registry import Tab  # noqa: E402


def settle(app, window, ms: int = 600) -> None:
    deadline = QtCore.QDeadlineTimer(90_000)
    while window.worker.busy() and not deadline.hasExpired():
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)
    end = QtCore.QDeadlineTimer(ms)
    while not end.hasExpired():
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)


def shot(window, path: Path) -> None:
    """The whole screen, as the X server shows it."""
    window.screen().grabWindow(0).save(str(path))
    print(f"wrote {path}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--language", default="zh_CN")
    parser.add_argument("--shots", type=Path, default=Path("."))
    parser.add_argument("--decoder", type=Path, default=None, help="a decoder folder for the second shot")
    args = parser.parse_args()
    if shutil.which("xdotool") is None or not os.environ.get("DISPLAY"):
        print("needs xdotool and an X server (DISPLAY)")
        return 2
    args.shots.mkdir(parents=True, exist_ok=True)
    app = configure_app(["heads-off"])
    window = MainWindow(
        Engine(), AttentionConfig(sentence="The animal didn't cross the street because it was too tired")
    )
    window.show()
    settle(app, window, 1500)
    state = window.state
    state.set_language(args.language)
    state.show_lesson(True)
    window.activateWindow()
    settle(app, window)
    subprocess.run(["xdotool", "key", "F11"], check=True)  # presentation, as a teacher does
    for _ in range(2):  # what a window manager does for full screen (Xvfb has none)
        settle(app, window, 1200)
        window.setGeometry(window.screen().geometry())
    state.update_config(layer=2)
    state.set_tab(Tab.HEADS)
    settle(app, window, 1500)
    state.decoding.set_heads_off({(2, 3), (2, 7)})
    settle(app, window, 2500)
    panel = window.heads.output_cosine
    print(
        f"presentation {state.presentation}; cosine panel shown {panel.isVisible()}, {len(panel.rows())} rows"
    )
    grid = window.heads
    print(
        f"grid {grid.canvas.size().width()}x{grid.canvas.size().height()}, {grid.canvas.figure.columns} columns"
    )
    if os.environ.get("HEADS_OFF_DEBUG"):
        from bench.heads_grid_choice import every_count

        panels = list(grid.canvas.panels)
        print("every count:", every_count(panels, grid.canvas.size(), grid.canvas.style_))
        from explorer.gui.views import heads as hv

        rect = QtCore.QRectF(0, 0, grid.canvas.width(), grid.canvas.height())
        for c in range(1, 13):
            fig = hv.Figure(panels, columns=c, shared_bar=True, shared_axes=True)
            for p in panels:
                p.title = hv.stages.short_head_title(p.title)
            print(c, hv._fit(fig, rect, grid.canvas.style_))
    shot(window, args.shots / f"heads_off_encoder_{args.language}.png")
    if args.decoder is not None:
        state.decoding.set_heads_off(())
        state.update_config(model_dir=str(args.decoder), layer=0, sentence="我爱北京，我")
        settle(app, window, 3000)
        state.decoding.update(decoding="sample", temperature=1.5, top_k=20, seed=3)
        state.set_tab(Tab.PIPELINE)
        settle(app, window, 3000)
        bars = window.pipeline.next_tokens.bars
        print("next tokens:", [row[0] for row in bars.rows])
        shot(window, args.shots / f"next_tokens_sampling_{args.language}.png")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
