"""Trial 8 F19: the All-heads hover line at a 1024×768 projector cut off the value hovered (its
end held the head's scores, and a cut line loses its end): the value comes first, whole in
both languages, the rest of the line cut after it."""

import numpy as np
import pytest
from PySide6 import QtWidgets

from explorer.core.config import AttentionConfig
from explorer.gui.views.registry import Tab

from .helpers import ANIMAL, WAIT_MS, hover_cell


@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("presenting", [False, True])
def test_the_value_hovered_in_the_head_grid_is_whole_at_1024x768(qtbot, make_window, language, presenting):
    window = make_window(AttentionConfig(sentence=ANIMAL), size=(1024, 768))
    window.state.set_language(language)
    if presenting:
        window.classroom.set_presentation(True, fullscreen=False)
        window.state.show_lesson(True)
    window.resize(1024, 768)
    window.state.set_tab(Tab.HEADS)
    grid = window.heads
    qtbot.waitUntil(lambda: len(grid.panels) == window.trace.heads and not grid.stale, timeout=WAIT_MS)
    QtWidgets.QApplication.processEvents()
    head = window.trace.heads - 1
    rows, cols = grid.panels[head].shape
    r, c = rows - 1, cols - 2  # the longest tokens of the line's row and column names
    hover_cell(qtbot, grid.canvas, head, r, c)
    value = str(np.float32(window.trace.weights[head, r, c]))
    label = grid.hover_label
    qtbot.waitUntil(lambda: value in label.text(), timeout=WAIT_MS)
    shown = label.shown_text()
    assert shown.startswith(value), (label.width(), shown, label.text())
    assert label.text().startswith(value)  # and the tooltip holds the whole line
