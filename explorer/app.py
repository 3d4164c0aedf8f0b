"""Start the window: ``python main.py [trace options] [--screenshot FILE.png --size WxH]``.

The window appears first; the model loads on the worker thread after it is shown.
"""

from __future__ import annotations

import argparse
import os
import sys

SCREENSHOT_TIMEOUT_MS = 120_000


def _say(message: str) -> None:
    if sys.stderr is not None:  # windowed builds have no stderr
        print(message, file=sys.stderr)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 200 or h < 200:
            raise ValueError
        return w, h
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1600x900 (at least 200x200)")


def build_parser() -> argparse.ArgumentParser:
    from explorer.cli import Parser, add_config_arguments

    parser = Parser(prog="attention-explorer",
                     description="The Attention Explorer window: live Q, K, V and every stage.")
    add_config_arguments(parser)
    parser.add_argument("--screenshot", metavar="FILE.png",
                        help="render the window for these inputs, save it and exit")
    parser.add_argument("--size", type=_size, default=None, metavar="WxH",
                        help="window size (default 1600x900 for --screenshot)")
    parser.add_argument("--first-paint-exit", action="store_true",
                        help="exit 0 right after the window's first paint (start-up benchmarks)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    from explorer.cli import config_from_args
    from explorer.core.config import ConfigError

    try:
        config = config_from_args(args)
    except ConfigError as exc:
        _say(f"error: {exc}")
        return 2
    if not any(a == "--sentence" or a.startswith("--sentence=") for a in argv):
        from explorer.presets import DEFAULT_PRESET
        config = config.with_(sentence=DEFAULT_PRESET.changes["sentence"])  # a meaningful first view
    headless = args.screenshot or args.first_paint_exit
    if headless and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY") \
            and not os.environ.get("WAYLAND_DISPLAY") and sys.platform.startswith("linux"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    import torch  # noqa: F401  (before Qt: torch >= 2.9 fails on Windows when imported after it)
    from PySide6 import QtCore, QtGui, QtWidgets

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([sys.argv[0]])
    app.setApplicationName("Attention Explorer")

    if args.first_paint_exit:
        class FirstPaint(QtCore.QObject):
            def eventFilter(self, obj, event):  # noqa: N802
                if event.type() == QtCore.QEvent.Type.Paint:
                    QtCore.QTimer.singleShot(0, app.quit)
                return False
        first_paint = FirstPaint(app)
        app.installEventFilter(first_paint)

    from explorer.core.engine import Engine
    from explorer.gui.main_window import MainWindow

    window = MainWindow(Engine(), config)
    size = args.size or ((1600, 900) if args.screenshot else None)
    if size:
        window.resize(*size)
    else:
        window.resize(1500, 900)
    outcome = {"code": 0}

    if args.screenshot:
        def save() -> None:
            window.repaint()
            pixmap = window.grab()
            if pixmap.isNull() or not pixmap.save(args.screenshot):
                _say(f"error: cannot write the screenshot {args.screenshot}")
                outcome["code"] = 1
            app.quit()

        def done() -> None:
            QtCore.QTimer.singleShot(100, save)  # let the last paint events run

        def failed(message: str) -> None:
            _say(f"error: {message}")
            outcome["code"] = 1
            app.quit()

        def timeout() -> None:
            _say("error: the computation did not finish in time")
            outcome["code"] = 1
            app.quit()

        window.rendered.connect(done, QtCore.Qt.ConnectionType.SingleShotConnection)
        window.failed.connect(failed)
        QtCore.QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, timeout)

    window.show()
    rc = app.exec()
    # Let a running computation finish before the interpreter (and torch) shut down.
    window.bridge.executor.shutdown(timeout=30)
    return outcome["code"] or rc
