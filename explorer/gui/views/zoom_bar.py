"""The zoomed matrix's line in a tab's bar: which cells it shows, and the whole matrix again.

Hidden while the whole matrix is shown. The zoom is ``state.matrix_zoom`` (shared by the
Pipeline's and the Compare tab's (query, key) panels); this bar only shows it and resets it.
The ranges of cells are short enough to be shown whole beside the button at 1024 px (the
matrix's size is in the tooltip): a line cut to "…" would hide the numbers.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.appstate.matrix_zoom import Region, clamp
from explorer.gui.heatmap.figure import zoom_caption


class ZoomBar(QtWidgets.QWidget):
    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.caption = QtWidgets.QLabel()
        self.whole = QtWidgets.QToolButton()
        self.whole.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.whole.clicked.connect(lambda: self.state.set_matrix_zoom(None))
        layout.addWidget(self.whole)
        layout.addWidget(self.caption, 1)
        self._shape: tuple[int, int] | None = None  # of the matrix shown (the trace's, not state)
        self.setVisible(False)
        self.retranslate()

    def show_zoom(self, shape: tuple[int, int] | None) -> None:
        """Show the state's zoom for a matrix of this shape (None: no matrix to zoom)."""
        self._shape = shape
        region = None if shape is None else clamp(self.state.matrix_zoom, *shape)
        self.caption.setText("" if region is None else self.short_caption(region))
        self.caption.setToolTip("" if region is None else zoom_caption(region, shape))
        self.setVisible(region is not None)

    def short_caption(self, region: Region) -> str:
        return self.tr("queries {0}–{1}, keys {2}–{3}").format(
            region.top, region.bottom - 1, region.left, region.right - 1
        )

    def retranslate(self) -> None:
        self.whole.setText(self.tr("Whole matrix"))
        self.whole.setToolTip(
            self.tr(
                "Show the whole matrix again (key 0). Ctrl + the wheel zooms into a matrix, "
                "a drag moves it, + and − zoom with the keyboard, Shift + an arrow moves it."
            )
        )
        self.show_zoom(self._shape)

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
