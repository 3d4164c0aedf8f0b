"""``configure_app()``: the process-wide Qt settings, made once, by whoever starts the window.

app.py, the self-test and the tests' conftest call it; importing a module changes nothing
global. It sets the application's name and icon, a CJK fallback font (Chinese never
renders as boxes), the light palette, moves Python's cyclic garbage collection onto
the GUI thread, hands the interpreter lock to a waiting thread after 1 ms instead of 5 (see
``SWITCH_INTERVAL_S``), and imports pyqtgraph there before any other thread runs. A tab that plots
with pyqtgraph calls ``configure_pyqtgraph()`` first, and theme changes reach it from then on.
"""

from __future__ import annotations

import gc
import sys

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui import theme as themes

APP_NAME = "Attention Explorer"
# A CJK-capable family last in the fallback list, so Chinese never renders as boxes
# when the default family lacks the glyphs (offscreen and in screenshots too).
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "WenQuanYi Micro Hei",
    "Microsoft YaHei",
    "PingFang SC",
    "Source Han Sans SC",
    "SimHei",
)
GC_INTERVAL_MS = 500
# While a worker runs Python (a tokenizer's table, a model's forward), the GUI thread waits up
# to one switch interval each time it takes the interpreter lock back, and a paint or a layout
# takes it back dozens of times (each Qt call into Python, each file check): with the default
# 5 ms, 20 hand-backs froze the window 100 ms with 1 ms of its own work. A worker loses at
# most a few per cent to the extra switches, and only while the window is busy. The same holds
# beside training threads (a lab run draws its batches in pure Python): with two models training,
# bench/why_attention_window.py --switch-interval counted fewer ticks over 50 ms at 1 ms.
SWITCH_INTERVAL_S = 0.001
_collector: GuiThreadCollector | None = None  # one per process, made by configure_app


class GuiThreadCollector(QtCore.QObject):
    """Python's cyclic garbage collector runs in whichever thread allocates when it triggers:
    on the compute worker it would destroy Qt objects off the GUI thread, which deadlocked
    the window (found by tests/gui/test_monkey.py). Automatic collection is switched off
    and done here, by a timer on the GUI thread, with the interpreter's own thresholds.

    A full collection walks every object of torch, Qt and numpy (about 180,000: 100 ms and
    more, a visible stall): ``freeze()`` moves what exists once the window is up into the
    permanent generation, so later collections walk only what came after."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self.collect)
        self.timer.start(GC_INTERVAL_MS)

    @staticmethod
    def freeze() -> None:
        gc.freeze()

    def collect(self) -> None:
        counts = gc.get_count()
        for generation in (2, 1, 0):  # the oldest generation due first: it collects the younger too
            if counts[generation] > self.thresholds[generation]:
                gc.collect(generation)
                return


def ensure_cjk_fallback() -> None:
    """Let every family fall back to an installed CJK font for Chinese characters."""
    installed = set(QtGui.QFontDatabase.families())
    cjk = [f for f in CJK_FAMILIES if f in installed]
    if not cjk:
        return
    app_font = QtWidgets.QApplication.font()
    for family in {app_font.family(), "Sans Serif", "DejaVu Sans", "Helvetica", "Arial"}:
        missing = [f for f in cjk if f not in QtGui.QFont.substitutes(family)]
        if missing:
            QtGui.QFont.insertSubstitutions(family, missing)
    families = app_font.families() or [app_font.family()]
    if not any(f in families for f in cjk):
        app_font.setFamilies(families + cjk)
        QtWidgets.QApplication.setFont(app_font)


def configure_app(argv: list[str] | None = None) -> QtWidgets.QApplication:
    """The QApplication, configured once (later calls return it unchanged)."""
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(argv or [sys.argv[0]])
    if app.property("explorer-configured"):
        return app
    app.setProperty("explorer-configured", True)
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    app.setApplicationName(APP_NAME)
    from explorer.resources import app_icon_paths

    for icon_file in app_icon_paths():
        icon = QtGui.QIcon(str(icon_file))
        if not icon.isNull():
            app.setWindowIcon(icon)
            break
    ensure_cjk_fallback()
    themes.apply_palette(themes.theme(None))
    import_plotting()
    global _collector
    _collector = GuiThreadCollector(app)  # lives as long as the application
    _collector.freeze()  # the imports' objects (torch, Qt, numpy, pyqtgraph) are never garbage
    return app


def import_plotting() -> None:
    """pyqtgraph, imported on this (the GUI) thread. Its import reads about 600 of Qt's enums,
    and PySide6 makes an enum type the first time it is read: imported on a thread of its own
    while the window painted, a first read on the GUI thread failed now and then ("QStyle has
    no attribute SubControl") and a heatmap's paint crashed once. Made here, before any
    worker thread starts, every enum it reads exists before anyone else reads it."""
    try:
        import pyqtgraph  # noqa: F401
    except ImportError:  # the labs' curves say so when they are drawn
        pass


def gui_collector() -> GuiThreadCollector | None:
    """The application's collector (None before ``configure_app``)."""
    return _collector


def settle() -> None:
    """The window is up and its model loaded: what exists now lives as long as the window."""
    if _collector is not None:
        _collector.freeze()


def hold_collections(on: bool) -> None:
    """Hold (True) or resume (False) the GUI thread's collections, e.g. while a worker imports
    many modules at once (walking their new objects, which live for good, would take the GUI
    thread tens of milliseconds); call ``settle()`` before resuming."""
    if _collector is None:
        return
    if on:
        _collector.timer.stop()
    else:
        _collector.timer.start(GC_INTERVAL_MS)


def configure_pyqtgraph(theme_name: str | None = None) -> None:
    """pyqtgraph's options for plots made from now on (row-major images, the theme's colours)."""
    import pyqtgraph as pg

    t = themes.theme(theme_name)
    pg.setConfigOptions(
        imageAxisOrder="row-major", antialias=False, background=t.plot_bg, foreground=t.plot_fg
    )
