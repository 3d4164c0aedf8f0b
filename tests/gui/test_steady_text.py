"""SteadyText refits its label when it shows: a label of a hidden box asks no one when its
text changes, and the Translation step's sentence showed 52 of its 78 px (the keys walk)."""

from __future__ import annotations

from PySide6 import QtWidgets

from explorer.gui.lab.stages import SteadyText


def test_a_text_set_while_hidden_shows_all_its_lines(qtbot):
    page = QtWidgets.QWidget()
    layout = QtWidgets.QVBoxLayout(page)
    box = SteadyText()
    layout.addWidget(box)
    qtbot.addWidget(page)
    page.resize(200, 400)
    box.label.setText("one line")
    page.show()
    qtbot.waitExposed(page)
    short = box.label.height()
    page.hide()
    box.label.setText("a sentence long enough to wrap over several lines at two hundred pixels " * 2)
    page.show()
    qtbot.waitExposed(page)
    QtWidgets.QApplication.processEvents()
    need = box.label.heightForWidth(box.width())
    assert need > short and box.label.height() == need and box.height() == need
