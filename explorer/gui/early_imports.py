"""``import_early(window)``: the Vision tab's modules imported before anyone opens it, on the GUI
thread, one module per turn of the event loop, starting a moment after the window's first paint.

Opening the Vision tab imported its 18 modules inside the click's turn: 33 ms of the GUI
thread's CPU with their bytecode cached, 80 ms compiled from source (loaded machine), of a
90–130 ms block. Imported here, a turn is never longer than one module's import (0.3–12 ms),
and input between turns is handled at once. On the GUI thread, not a thread of its own: a Qt
module imported on another thread makes PySide6's enum types there, and a first read on the
GUI thread then failed now and then (explorer.gui.app_setup.import_plotting).
"""

from __future__ import annotations

import importlib
import sys

from PySide6 import QtCore, QtWidgets

from explorer.gui.first_paint import after_first_paint

# what explorer.gui.labs.vision.view imports that the window has not, leaves first (a name that
# went stale costs only its turn: its import then comes with the next one's, or with the tab's)
MODULES = (
    "explorer.vision.flat",
    "explorer.vision.trace",
    "explorer.vision.worked",
    "explorer.appstate.vision_jobs",
    "explorer.gui.lab.pacing",
    "explorer.gui.lab.ticks",
    "explorer.gui.lab.curves",
    "explorer.gui.lab.training",
    "explorer.gui.labs.vision.bars",
    "explorer.gui.labs.vision.drawing",
    "explorer.gui.labs.vision.figures",
    "explorer.gui.labs.vision.pages",
    "explorer.gui.labs.vision.picture_dialog",
    "explorer.gui.labs.vision.training",
    "explorer.gui.labs.vision.worked",
    "explorer.gui.labs.vision.view",
)
AFTER_PAINT_MS = 100  # the first paint's siblings and the model's load start first


class _Importer(QtCore.QObject):
    def __init__(self, parent: QtCore.QObject, names: tuple[str, ...]):
        super().__init__(parent)
        self.names = list(names)
        self.turns = 0  # imports made, one per timer turn
        self.timer = QtCore.QTimer(self, interval=0)  # fires once the pending events are handled
        self.timer.timeout.connect(self._next)

    def start(self) -> None:
        QtCore.QTimer.singleShot(AFTER_PAINT_MS, self, self.timer.start)

    def _next(self) -> None:
        while self.names and self.names[0] in sys.modules:
            self.names.pop(0)
        if not self.names:
            self.timer.stop()
            return
        name = self.names.pop(0)
        self.turns += 1
        try:
            importlib.import_module(name)
        except Exception:  # the tab's own import says what is wrong when it is opened
            self.names.clear()


def import_early(window: QtWidgets.QWidget, names: tuple[str, ...] = MODULES) -> _Importer:
    """Import ``names`` one per turn of the event loop, from shortly after ``window``'s first paint."""
    importer = _Importer(window, names)
    after_first_paint(window, importer.start)
    return importer
