"""A lab's page of stage panels: the Pipeline's own panels (explorer.gui.views.stages) of one
attention of the lab's model, with a sentence above them saying which step they show.

The lab builds the panels (``stages.pipeline_panels`` on the ``AttentionTrace`` its trace
gives for one kind, layer and head) and hands them over with the selection and the lesson's
frames; the page lays them out two or four a row and scrolls, and in presentation mode shows
only the panels the lesson points at (or the weights), as large as the page. Clicks and
hovers come out of ``canvas`` (a MatrixCanvas) as the Pipeline's do.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

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


class SteadyText(QtWidgets.QWidget):
    """A wrapped label (``label``) in a box of its own, as tall as its lines: a new text of as
    many lines re-lays out nothing else. A label's new text asks its parent's layout, and
    every layout above it up to the window, to lay out again (QWidget.updateGeometry); on a
    lab's tab that relaid and repainted the whole window at every keystroke (10 ms of the GUI
    thread). Here the box, which has no layout, takes that request and refits its label; it
    asks the layouts above only when the number of lines changes."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.label = QtWidgets.QLabel(self)
        self.label.setWordWrap(True)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
        self._fit()

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(0, self.height())

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(0, self.height())

    def event(self, event) -> bool:
        if event.type() in (QtCore.QEvent.Type.LayoutRequest, QtCore.QEvent.Type.FontChange):
            self._fit()
        return super().event(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def showEvent(self, event) -> None:
        # a label of a hidden box asks no one when its text or font changes (Qt posts the
        # layout request to a visible parent only): its lines were cut when the page showed
        super().showEvent(event)
        self._fit()

    def _fit(self) -> None:
        width = max(50, self.width())
        height = self.label.heightForWidth(width) if self.label.text() else 0
        if height < 0:
            height = self.label.sizeHint().height()
        self.label.setGeometry(0, 0, width, height)
        if height != self.height() or self.minimumHeight() != self.maximumHeight():
            self.setFixedHeight(height)


class StagePanels(QtWidgets.QWidget):
    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.wanted: tuple[str, ...] = ()  # the panels presentation mode shows (empty: the weights)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.sentence_box = SteadyText()  # a new sentence of as many lines lays out nothing else
        self.sentence = self.sentence_box.label
        self.canvas = MatrixCanvas(style=theme.look(state).style())
        self.scroll = QtWidgets.QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.scroll.setWidget(self.canvas)
        # the rest of the page, whatever the panels' hint: the sentence keeps its lines
        self.scroll.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Ignored
        )
        layout.addWidget(self.sentence_box)
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
