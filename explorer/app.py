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


def _mark(event: str) -> None:
    """One line on stdout when a start-up milestone is reached (bench/interaction.py times
    its arrival: the process's exit, which waits for the worker, is not the milestone)."""
    if sys.stdout is not None:
        print(event, flush=True)


# An 8K screen is 7680 wide; beyond this Qt cannot make the window's backing store and
# prints thousands of warnings before failing.
MAX_SIDE = 8192


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if not (200 <= w <= MAX_SIDE and 200 <= h <= MAX_SIDE):
            raise ValueError
        return w, h
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size like 1600x900 (from 200x200 to {MAX_SIDE}x{MAX_SIDE})"
        ) from None


def _cell(text: str) -> tuple[int, int]:
    try:
        i, j = (int(v) for v in text.split(","))
        if i < 0 or j < 0:
            raise ValueError
        return i, j
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a cell like 10,2 (row,column from 0)") from None


def _changes(text: str) -> dict:
    out = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if key not in ("scoring", "attention", "mask", "temperature") or not value:
            raise argparse.ArgumentTypeError(f"{part!r}: use scoring=, attention=, mask= or temperature=")
        out[key] = float(value) if key == "temperature" else value
    return out


def _step(text: str) -> str:
    """A lesson step by number or id; which step it is depends on --track (see _lesson_step)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("give a step number (1 = the first) or a step id")
    return text


def _lesson_step(args: argparse.Namespace) -> int | None:
    """--step read in --track: number N is the track's N-th step, as the lesson column counts,
    and an id must be one of the track's."""
    from explorer.appstate.lesson import ALL_TRACKS, find_step
    from explorer.failing import fail

    if args.step is None:
        return None
    try:
        return find_step(args.step, args.track or ALL_TRACKS)
    except ValueError as exc:
        fail(f"--step {exc}")


def build_parser() -> argparse.ArgumentParser:
    from explorer.appstate.lesson import track_ids
    from explorer.appstate.state import LANGUAGES, THEMES  # Qt-free: read before torch and Qt
    from explorer.cli import add_config_arguments
    from explorer.commands import commands_help
    from explorer.failing import Parser
    from explorer.gui.views.registry import TABS, tab_id

    parser = Parser(
        prog="attention-explorer",
        description="The Attention Explorer window: live Q, K, V and every stage.",
        epilog=commands_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_arguments(parser)
    parser.add_argument(
        "--screenshot", metavar="FILE.png", help="render the window for these inputs, save it and exit"
    )
    parser.add_argument(
        "--size",
        type=_size,
        default=None,
        metavar="WxH",
        help="window size (default 1600x900 for --screenshot)",
    )
    parser.add_argument(
        "--presentation",
        action="store_true",
        help="start in presentation mode (full screen unless --size is given)",
    )
    parser.add_argument("--theme", choices=THEMES, default=None, help="light (high contrast) or dark")
    parser.add_argument(
        "--language",
        choices=tuple(LANGUAGES),
        default=None,
        help="interface language: " + ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items()),
    )
    parser.add_argument(
        "--step",
        type=_step,
        default=None,
        metavar="N|ID",
        help="show the lesson at step N of --track (1 = its first) or at the step of this id "
        "(attention.scores)",
    )
    parser.add_argument(
        "--track", choices=track_ids(), default=None, help="walk one track of the lesson (default: all)"
    )
    parser.add_argument(
        "--tab",
        choices=[tab_id(spec.tab) for spec in TABS],
        default=None,
        help="open this tab (compare: the current settings A beside B)",
    )
    parser.add_argument("--head", type=int, default=None, metavar="H", help="select head H")
    parser.add_argument(
        "--select-cell",
        type=_cell,
        default=None,
        metavar="I,J",
        help="select query row I, key column J (shows its worked arithmetic)",
    )
    parser.add_argument(
        "--compare-with",
        type=_changes,
        default=None,
        metavar="KEY=VALUE,…",
        help="B's changes in compare mode, e.g. scoring=cosine or temperature=0.1",
    )
    parser.add_argument(
        "--first-paint-exit",
        action="store_true",
        help="exit 0 right after the window's first paint (start-up benchmarks)",
    )
    parser.add_argument(
        "--first-trace-exit",
        action="store_true",
        help="exit 0 right after the opening trace is drawn (start-up benchmarks)",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="open the window offscreen, compute on the bundled model, check the "
        "numbers and a screenshot; exit 0 or print why not and exit 1",
    )
    parser.add_argument(
        "--self-test-out",
        metavar="DIR",
        default=None,
        help="folder for the self-test screenshot (default: a new temporary folder)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    args.step = _lesson_step(args)
    from explorer.logsetup import install_excepthook, set_gui_reporter, setup_logging

    log = setup_logging()
    install_excepthook()  # uncaught errors go to the log file (and a message box, below)
    log.info("start %s frozen=%s args=%s", sys.executable, bool(getattr(sys, "frozen", False)), argv)
    if args.self_test:
        from explorer.selftest import run_self_test

        return run_self_test(args.self_test_out)
    from explorer.cli import config_from_args
    from explorer.core.config import ConfigError

    try:
        config = config_from_args(args)
    except ConfigError as exc:
        _say(f"error: {exc}")
        return 2
    from explorer.appstate.presets import DEFAULT_PRESET, PRESETS
    from explorer.core.config import AttentionConfig

    first_view = None
    if config == AttentionConfig():  # no option given: open on a meaningful, computed example
        first_view = DEFAULT_PRESET
        config = DEFAULT_PRESET.config(base=config)
    headless = args.screenshot or args.first_paint_exit or args.first_trace_exit
    if (
        headless
        and not os.environ.get("QT_QPA_PLATFORM")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
        and sys.platform.startswith("linux")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    import torch  # noqa: F401  (before Qt: torch >= 2.9 fails on Windows when imported after it)
    from PySide6 import QtCore, QtWidgets

    from explorer.gui.app_setup import configure_app

    app = configure_app([sys.argv[0]])
    if not headless and os.environ.get("QT_QPA_PLATFORM") != "offscreen":

        def report(text: str) -> None:  # an uncaught error, shown rather than lost
            title = QtCore.QCoreApplication.translate("App", "Attention Explorer: unexpected error")
            QtWidgets.QMessageBox.critical(None, title, text)

        set_gui_reporter(report)

    if args.first_paint_exit:

        class FirstPaint(QtCore.QObject):
            def eventFilter(self, obj, event):
                if event.type() == QtCore.QEvent.Type.Paint and not self.done:
                    self.done = True
                    _mark("first-paint")
                    QtCore.QTimer.singleShot(0, app.quit)
                return False

        first_paint = FirstPaint(app)
        first_paint.done = False
        app.installEventFilter(first_paint)

    from explorer.appstate.state import CompareOptions
    from explorer.core.engine import Engine
    from explorer.gui.docks.registry import Dock
    from explorer.gui.main_window import MainWindow

    settings = None
    if headless:  # reproducible: the user's saved theme, language and size neither apply nor change
        from explorer.gui.preferences import MemorySettings

        settings = MemorySettings()
    window = MainWindow(Engine(), config, settings=settings)
    state = window.state
    size = args.size or ((1600, 900) if args.screenshot else None)
    if size:
        window.resize(*size)
    elif window.restore_geometry():  # the size and place of the last run, on this screen
        window.resize_within_screen(window.width(), window.height())
    else:
        window.resize_within_screen(1500, 900)  # never larger than the screen
    if args.theme:
        state.set_theme(args.theme)
    if args.language:
        state.set_language(args.language)
    if args.presentation:
        window.classroom.set_presentation(True, fullscreen=size is None)
    # the example first: a lesson step that sets up its own (a language model's) comes after it
    if first_view is not None:  # the picker names the example on screen
        picker = window.controls.preset
        picker.setCurrentIndex(max(0, picker.findData(PRESETS.index(first_view))))
        if first_view.head is not None:
            state.select_head(first_view.head)
        if first_view.cell is not None:
            state.select_cell(first_view.cell)
    if args.track:
        state.show_lesson(True)
        state.set_lesson_track(args.track)
    if args.step is not None:
        state.show_lesson(True)
        state.set_lesson_step(args.step)
    if args.compare_with is not None:
        state.set_compare(CompareOptions.from_changes(**args.compare_with))
    if args.head is not None:
        state.select_head(args.head)
    if args.select_cell is not None:
        state.select_cell(args.select_cell)
        if not state.presentation:  # presentation mode gives the stage the whole width
            window.docks.set_visible(Dock.WORKED, True)  # its worked arithmetic beside the views
    if args.tab:
        state.set_tab(args.tab)
    outcome = {"code": 0}

    if args.first_trace_exit:

        def trace_failed(message: str) -> None:
            _say(f"error: {message}")
            app.exit(1)

        def trace_drawn() -> None:
            _mark("first-trace")
            QtCore.QTimer.singleShot(0, app.quit)

        window.rendered.connect(trace_drawn, QtCore.Qt.ConnectionType.SingleShotConnection)
        window.failed.connect(trace_failed)

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

        # the shown tab's own drawing (compare and overview compute more than the trace)
        window.view(state.tab).rendered.connect(done, QtCore.Qt.ConnectionType.SingleShotConnection)
        window.failed.connect(failed)
        QtCore.QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, timeout)

    window.show()
    rc = app.exec()
    # Let a running computation finish before the interpreter (and torch) shut down.
    window.worker.shutdown(timeout=30)
    return outcome["code"] or rc
