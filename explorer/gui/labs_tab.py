"""The Labs tab: every lab's page behind one tab of the tab bar, picked in a row of buttons.

Eleven tabs did not fit a projector's 1024 px beside the lesson: their titles were cut to one
character and the last ones hid behind arrows. The labs share one tab; its row of buttons
never cuts a title: the whole titles when they fit one line, else the labs' short names
("ViT", the whole title in the tooltip), and a second line only when even those do not fit.
A line of buttons costs the lab's figures its height: at a projector's 768 px a second one
took the labels off the Translation tab's matrices. The row is buttons, not a second tab
bar: each lab's page has tabs of its own.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.gui.flow import FlowLayout
from explorer.gui.lab.warm import warm_up_when_idle

# the chosen lab in the highlight colour: it reads from the back of a room, in either theme
CHOICE_STYLE = (
    "QToolButton { padding: 0px 6px; border: 1px solid palette(mid); border-radius: 3px;"
    " background: palette(button); color: palette(button-text); }\n"
    "QToolButton:checked { background: palette(highlight); color: palette(highlighted-text);"
    " border-color: palette(highlight); }\n"
)


class CurrentPageStack(QtWidgets.QStackedWidget):
    """A stack as large as the page on show needs (Qt's asks for the largest of all its pages:
    one tall lab made every lab scroll)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.currentChanged.connect(lambda _: self.updateGeometry())

    def sizeHint(self) -> QtCore.QSize:
        page = self.currentWidget()
        return super().sizeHint() if page is None else page.sizeHint()

    def minimumSizeHint(self) -> QtCore.QSize:
        page = self.currentWidget()
        return super().minimumSizeHint() if page is None else page.minimumSizeHint()


class LabsPage(QtWidgets.QWidget):
    """The labs' pages, one shown, and the row of buttons that picks it."""

    chosen = QtCore.Signal(int)  # a click picked the lab of this index

    def __init__(self, pages: list[QtWidgets.QWidget], parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.row = QtWidgets.QWidget()
        self.row.setStyleSheet(CHOICE_STYLE)
        flow = FlowLayout(self.row, spacing=2)
        flow.setContentsMargins(2, 2, 2, 2)
        self.group = QtWidgets.QButtonGroup(self)
        self.buttons: list[QtWidgets.QToolButton] = []
        self.stack = CurrentPageStack()
        for i, page in enumerate(pages):
            button = QtWidgets.QToolButton()
            button.setCheckable(True)
            button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # the keys stay with the stage
            self.group.addButton(button, i)
            self.buttons.append(button)
            flow.add(button)
            self.stack.addWidget(page)
        if self.buttons:
            self.buttons[0].setChecked(True)
        self.group.idClicked.connect(self._on_click)
        self._titles: list[tuple[str, str]] = []  # each lab's (whole title, short name)
        self.flow = flow
        layout.addWidget(self.row)
        layout.addWidget(self.stack, 1)
        warm_up_when_idle(self)  # before anyone opens a lab: Train then starts at once

    def current(self) -> int:
        return self.stack.currentIndex()

    def select(self, index: int) -> None:
        """Show that lab's page (what the state says: no signal)."""
        self.buttons[index].setChecked(True)
        self.stack.setCurrentIndex(index)

    def _on_click(self, index: int) -> None:
        self.stack.setCurrentIndex(index)
        self.chosen.emit(index)

    def set_titles(self, titles: list[tuple[str, str, str]]) -> None:
        """Each button's (whole title, short name or "", tooltip)."""
        self._titles = [(title, short or title) for title, short, _ in titles]
        for button, (title, _, tip) in zip(self.buttons, titles, strict=True):
            button.setToolTip(title + "\n" + tip)
        self._fit()

    def short(self) -> bool:
        """The buttons show the labs' short names (the whole titles need more than one line)."""
        return any(b.text() != whole for b, (whole, _) in zip(self.buttons, self._titles))

    def _fit(self) -> None:
        """The whole titles if one line holds them, else the short names."""
        if not self.buttons or not self._titles:
            return
        room = self.row.contentsRect().width() - sum(self.flow.getContentsMargins()[::2])
        whole = self._line_width([t for t, _ in self._titles])
        for button, (title, short) in zip(self.buttons, self._titles):
            text = title if whole <= room else short
            if button.text() != text:
                button.setText(text)

    def _line_width(self, texts: list[str]) -> int:
        """What one line of buttons with these texts needs."""
        button = self.buttons[0]
        frame = button.sizeHint().width() - button.fontMetrics().horizontalAdvance(button.text())
        metrics = button.fontMetrics()
        return sum(metrics.horizontalAdvance(t) + frame for t in texts) + self.flow.spacing() * (
            len(texts) - 1
        )

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.StyleChange):
            self._fit()
