"""A lab's page of stage panels: the Pipeline's own panels (explorer.gui.views.stages) of one
attention of the lab's model, with a sentence above them saying which step they show.

The lab builds the panels (``stages.pipeline_panels`` on the ``AttentionTrace`` its trace
gives for one kind, layer and head) and hands them over with the selection and the lesson's
frames; the page lays them out two or four a row and scrolls, and in presentation mode shows
only the panels the lesson points at (or the weights), as large as the page. Clicks and
hovers come out of ``canvas`` (a MatrixCanvas) as the Pipeline's do.
"""

from __future__ import annotations

from PySide6 import QtWidgets

from explorer.gui import theme
from explorer.gui.heatmap import Figure, MatrixCanvas
from explorer.gui.heatmap.figure import Mark

WIDE_PX = 900  # from this width four panels a row


def wrapping() -> QtWidgets.QSizePolicy:
    """For a wrapped label: any width (never what widens the window), as tall as its lines
    need there (a new policy would drop the label's height-for-width and cut its last line)."""
    policy = QtWidgets.QSizePolicy(
        QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred
    )
    policy.setHeightForWidth(True)
    return policy


class StagePanels(QtWidgets.QWidget):
    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.wanted: tuple[str, ...] = ()  # the panels presentation mode shows (empty: the weights)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.sentence = QtWidgets.QLabel()
        self.sentence.setWordWrap(True)
        self.sentence.setSizePolicy(wrapping())
        self.canvas = MatrixCanvas(style=theme.look(state).style())
        self.scroll = QtWidgets.QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.scroll.setWidget(self.canvas)
        # the rest of the page, whatever the panels' hint: the sentence keeps its lines
        self.scroll.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Ignored
        )
        layout.addWidget(self.sentence)
        layout.addWidget(self.scroll, 1)

    @property
    def panels(self):
        return self.canvas.panels

    def show_panels(self, panels, selection=None, marks: dict[int, Mark] | None = None) -> None:
        self.canvas.set_figure(Figure(panels, selection=selection, marks=marks or {}))
        self.lay_out()

    def set_selection(self, cell) -> None:
        self.canvas.set_selection(cell)

    def set_marks(self, marks: dict[int, Mark]) -> None:
        self.canvas.set_marks(marks)

    def point_at(self, names: tuple[str, ...]) -> None:
        """The panels presentation mode keeps (the lesson's); empty: the weights."""
        if names != self.wanted:
            self.wanted = names
            if self.panels:
                self.lay_out()

    def lay_out(self) -> None:
        """Every stage, two or four a row; in presentation mode only the wanted ones, as large
        as the page (no scrolling on a projector)."""
        panels = self.canvas.panels
        visible = None
        presenting = self.state.presentation
        if presenting:
            wanted = self.wanted or ("weights",)
            visible = [i for i, p in enumerate(panels) if p.name in wanted] or None
        n = len(visible) if visible is not None else len(panels)
        wide = self.width() >= WIDE_PX and not presenting
        columns = max(1, min(n, 4 if wide else 2))
        self.canvas.set_visible(visible, columns)
        if presenting:
            self.canvas.setMinimumHeight(0)
        else:
            rows = -(-n // columns)
            self.canvas.setMinimumHeight(rows * max(190, round(theme.look(self.state).figure_px * 14)))
        self.canvas.update()

    def restyle(self) -> None:
        self.canvas.set_style(theme.look(self.state).style())
        if self.panels:
            self.lay_out()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.panels:
            self.lay_out()
