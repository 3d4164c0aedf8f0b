"""Trial 8 F4: at a projector the Language model's Generate grid named its 16 rows in 13 px
labels (trial 6 asked every token named on a short axis, trial 8 no text under 20 px). Now at
1024×768 beside the lesson a short axis names every row at the largest size that fits, never
under PROJECTOR_LABEL_PX; where a row has no room for that, every other row is named and the
page says so under the grid."""

import pytest
from PySide6 import QtWidgets

from explorer.gui.heatmap import labels as axis
from explorer.gui.labs.lm.heads import PROJECTOR_LABEL_PX
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS
from .projector_check import MIN_PX
from .test_lm_tab import SMALL, wait_result, written_by_the_tab


def label_fonts(canvas) -> list[tuple[int, int, int, int]]:
    """(rows, rows named, stride, smallest label px) of each panel laid out."""
    figure_px = canvas.style_.font.pixelSize()
    out = []
    for box in canvas.current_layout().boxes:
        rows = canvas.panels[box.index].shape[0]
        px = [
            figure_px if labels.font is None else labels.font.px
            for labels in (box.rows, box.cols)
            if len(labels)
        ]
        out.append((rows, len(box.rows), box.rows.stride, min(px)))
    return out


def lm_at_a_projector(qtbot, make_window, language: str = "en"):
    """The Language model tab at 1024×768 in presentation, the lesson column open."""
    window = make_window(SMALL, size=(1024, 768))
    window.state.set_language(language)
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.show_lesson(True)
    window.resize(1024, 768)
    window.state.set_tab(Tab.LM)
    view = window.view(Tab.LM)
    wait_result(qtbot, view, 2 * WAIT_MS)
    return window, view


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_generate_grid_names_its_rows_readably_at_a_projector(qtbot, make_window, language):
    assert PROJECTOR_LABEL_PX >= MIN_PX > axis.MIN_LABEL_PX  # the projector's least size, not the window's
    window, view = lm_at_a_projector(qtbot, make_window, language)
    page = view.writer
    seen = set()
    for count in (4, 16):
        written_by_the_tab(qtbot, view, count)
        qtbot.wait(30)
        QtWidgets.QApplication.processEvents()
        shown = label_fonts(page.canvas)
        assert len(shown) == 4, shown  # at a projector: the selected head's layer
        for rows, named, stride, px in shown:
            assert rows == count and px >= PROJECTOR_LABEL_PX, (count, shown)
            assert stride <= 2 and named == -(-rows // stride), (count, shown)  # every row, or every other
        stride = shown[0][2]
        seen.add(stride)
        assert page.rows_note.isVisible() == (stride > 1), (count, page.rows_note.text())
        if stride > 1:
            assert "2" in page.rows_note.text()
            assert page.rows_note.height() <= 1.6 * page.rows_note.fontMetrics().lineSpacing()  # one line
        else:  # every row named, at the figure's own size (the largest that fits)
            assert {px for *_, px in shown} == {page.canvas.style_.font.pixelSize()}
    assert seen == {1, 2}  # both cases met at 1024×768
    window.classroom.set_presentation(False)  # off the projector the window's least size again
    QtWidgets.QApplication.processEvents()
    assert page.canvas.style_.least_label_px == axis.MIN_LABEL_PX


@pytest.mark.parametrize("probe", ["the cat sat", "the cat sat on a"])  # 11 and 16 characters
def test_a_short_probe_s_heads_are_named_readably_at_a_projector(qtbot, make_window, probe):
    window, view = lm_at_a_projector(qtbot, make_window)
    view.task.setCurrentIndex(view.task.findData("text"))
    view.lab.set_probe(probe)
    view.lab.set_page("heads")
    wait_result(qtbot, view)
    qtbot.wait(30)
    QtWidgets.QApplication.processEvents()
    shown = label_fonts(view.heads)
    assert len(shown) == 4 and shown[0][0] == len(probe), shown
    for rows, named, stride, px in shown:
        assert px >= PROJECTOR_LABEL_PX, shown
        if rows <= axis.ALL_LABELLED:
            assert stride <= 2 and named == -(-rows // stride), shown
    assert view.heads_note.isVisible() == (shown[0][2] > 1), (shown, view.heads_note.text())


def test_the_heads_share_one_colour_bar_at_a_projector(qtbot, make_window):
    """Trial 10: beside the lesson at 1024×768 each of a layer's four 48 × 48 maps had a colour
    bar of its own and was drawn four times as tall as wide; they share one (all are 0 … 1)."""
    window, view = lm_at_a_projector(qtbot, make_window)
    view.lab.set_page("heads")
    wait_result(qtbot, view)
    qtbot.wait(30)
    QtWidgets.QApplication.processEvents()
    boxes = view.heads.current_layout().boxes
    assert len(boxes) == 4 and sum(box.bar is not None for box in boxes) <= 1
    for box in boxes:
        assert box.plot.height() / box.plot.width() <= 3.2, box.plot  # was about 4 : 1
