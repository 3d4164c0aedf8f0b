"""The Vision lab's lesson steps as trial 7 met them at a 1024×768 projector (finding N5): the
channel maps' ▲ ▼ marks explained where the class sees them, each pooled map beside a colour
bar of its own, and no control left on screen that does nothing on its step, in both languages.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from PySide6 import QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.gui.labs.vision.figures import round_peak

from .helpers import WAIT_MS, click_cell
from .test_labs_at_a_projector import present, too_small

STAGES = [s.stage for s in STEPS]


def english_left(text: str) -> list[str]:
    """Latin words of a Chinese text, but the formulas' names (s_c, M, T, x)."""
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ("s_c",)]


def plain(rich: str) -> str:
    document = QtGui.QTextDocument()
    document.setHtml(rich)
    return document.toPlainText()


def open_step(qtbot, window, stage: str):
    window.state.set_lesson_step(STAGES.index(stage))
    view = window.view("vision")
    qtbot.waitUntil(
        lambda: (
            view.result is not None
            and not window.worker.busy()
            and view.result.request.model.variant == window.state.vision.variant
        ),
        timeout=WAIT_MS,
    )
    qtbot.wait(30)
    QtWidgets.QApplication.processEvents()
    return view


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_channel_marks_are_explained_beside_them(qtbot, window, language):
    """Each ▲ or ▼ heading a channel's map, on every channel step, is explained on the page."""
    present(window, language)
    for stage in ("vision_squeeze", "vision_excite", "vision_rescale"):
        view = open_step(qtbot, window, stage)
        page = view.channel_page
        legend = plain(page.legend.text())  # rich text: each part in a span kept on one line
        assert page.legend.isVisible(), stage
        headers = page.figure.figure.col_headers or []
        marks = {m for h in headers for m in "▲▼●" if m in h} if page.figure.isVisible() else {"▲", "▼"}
        assert marks and all(m in legend for m in marks), (stage, headers, legend)
        assert "3" in legend, legend  # how many channels each mark stands for
        if language == "zh_CN":
            assert re.search(r"[\u4e00-\u9fff]", legend) and not english_left(legend), legend
        else:
            assert "largest" in legend and "smallest" in legend, legend
        # the legend fits the page's width: not cut, not wider than the tab
        assert page.legend.sizeHint().height() < page.height() / 4, stage


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_each_pooled_map_has_a_colour_bar_of_its_own(qtbot, window, language):
    """On one shared scale the mean map, a few times smaller than the max, looked flat: each
    has its own scale, its own bar beside it, its top just above the map's own peak, and the
    caption says so."""
    present(window, language)
    view = open_step(qtbot, window, "vision_pooled")
    canvas = view.spatial_page.figure
    layout = canvas.current_layout()
    assert layout.bar is None  # no bar shared by the two maps
    boxes = {canvas.panels[b.index].name: b for b in layout.boxes}
    assert set(boxes) == {"pooled_avg", "pooled_max"}
    peaks = {}
    for name, box in boxes.items():
        panel = canvas.panels[box.index]
        peak = float(panel.data.max())
        lo, hi = panel.levels
        assert box.bar is not None and box.bar.left() >= box.plot.right(), name  # beside its map
        assert lo == 0.0 and peak <= hi <= 1.5 * peak, (name, peak, panel.levels)  # its own scale
        peaks[name] = peak
    assert peaks["pooled_avg"] < 0.5 * peaks["pooled_max"]  # on the max's scale it would look flat
    caption = view.spatial_page.caption
    assert caption.isVisible()
    assert f"{peaks['pooled_avg']:.3g}" in caption.text() and f"{peaks['pooled_max']:.3g}" in caption.text()
    if language == "zh_CN":
        assert re.search(r"[\u4e00-\u9fff]", caption.text()) and not english_left(caption.text())
    view = open_step(qtbot, window, "vision_conv")  # the next step shows no pooled map: no caption
    assert not view.spatial_page.caption.isVisible()
    window.state.set_presentation(False)  # off the projector all six panels, the pooled on their own scales
    view = open_step(qtbot, window, "vision_pooled")
    panels = {p.name: p for p in view.spatial_page.figure.panels}
    for name in ("pooled_avg", "pooled_max"):
        assert panels[name].levels == (0.0, round_peak(float(panels[name].data.max()))), name


def test_round_peak_is_just_above_the_value_with_short_labels():
    for value in (0.031, 0.9, 1.0, 1.05, 2.01, 3.07, 7.5, 12.2, 95.0):
        top = round_peak(value)
        assert value <= top <= 1.5 * value, (value, top)
        for label in (top, top / 2):  # the colour bar's top and middle
            assert len(f"{label:.3g}") <= 4, (value, top)
    assert round_peak(0.0) == 1.0 and round_peak(float("nan")) == 1.0


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_residual_steps_channel_box_is_off_where_it_changes_nothing(qtbot, window, language):
    """On a projector the residual step shows the means over all channels: the channel box is
    off there and its tooltip says why; off the projector it picks the lower row's channel."""
    present(window, language)
    view = open_step(qtbot, window, "vision_residual")
    page = view.residual_page
    shown = [page.figure.panels[i] for i in page.figure.figure.shown()]
    assert shown and all("channel" not in p.title and "通道 " not in p.title for p in shown)
    assert page.channel.isVisible() and not page.channel.isEnabled() and not page.channel_label.isEnabled()
    tip = page.channel.toolTip()
    assert page.channel_label.toolTip() == tip
    if language == "zh_CN":
        assert re.search(r"[\u4e00-\u9fff]", tip) and not english_left(tip), tip
    else:
        assert "Not used on this step" in tip and "means over all channels" in tip, tip
    before = [np.asarray(p.data).copy() for p in shown]
    page.channel.setValue(page.channel.value() + 1)  # it would change nothing on screen
    qtbot.waitUntil(lambda: not window.worker.busy(), timeout=WAIT_MS)
    QtWidgets.QApplication.processEvents()
    after = [page.figure.panels[i].data for i in page.figure.figure.shown()]
    assert all(np.array_equal(a, b) for a, b in zip(after, before))
    window.state.set_presentation(False)
    view = open_step(qtbot, window, "vision_residual")
    assert page.channel.isEnabled() and len(page.figure.figure.shown()) == 6
    assert "Not used" not in page.channel.toolTip() and page.channel.toolTip()


@pytest.mark.parametrize("language", ["zh_CN"])
def test_a_click_the_step_asks_for_shows_its_arithmetic_on_a_projector(qtbot, window, language):
    """The excite step says "click a bar to see one channel's numbers", the convolution step
    "click a position to see its window": on a projector the arithmetic waited for the
    Arithmetic button, so the click changed nothing in sight. It shows now; the next step
    opens with its maps alone again."""
    from PySide6 import QtCore

    present(window, language)
    view = open_step(qtbot, window, "vision_excite")
    page = view.channel_page
    assert not page.worked.isVisible() and view.worked_button.isVisible()
    key = page.bars.bars.keys[5]
    qtbot.mouseClick(page.bars, QtCore.Qt.MouseButton.LeftButton, pos=page.bars.bar_centre(key))
    QtWidgets.QApplication.processEvents()
    assert view.vision.channel == key and page.worked.isVisible() and view.worked_button.isChecked()
    assert f"{key}" in page.worked.toPlainText()
    view = open_step(qtbot, window, "vision_conv")
    spatial = view.spatial_page
    assert not spatial.worked.isVisible() and not view.worked_button.isChecked()
    click_cell(qtbot, spatial.figure, spatial.figure.figure.shown()[0], 2, 5)
    QtWidgets.QApplication.processEvents()
    assert view.vision.position == (2, 5) and spatial.worked.isVisible()
    view.worked_button.click()  # the button still hides it
    assert not spatial.worked.isVisible()
    assert too_small(view) == []


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_marked_weight_bar_is_labelled_with_its_channel(qtbot, window, language):
    """The three largest weights sit in adjacent columns ~20 px wide: the third's channel
    number was dropped ("2 6" under three blue bars). Each marked bar's label is drawn now,
    none overlapping another on its line, all inside the chart."""
    present(window, language)
    view = open_step(qtbot, window, "vision_excite")
    chart = view.channel_page.bars
    drawn = chart.column_labels()
    assert {key for key, *_ in drawn} == chart.bars.labelled, (drawn, chart.bars.labelled)
    metrics = chart._metrics()
    spans: dict[float, list[tuple[float, float]]] = {}
    for _key, at, label in drawn:
        spans.setdefault(at.y(), []).append((at.x(), at.x() + metrics.horizontalAdvance(label)))
        assert at.y() + metrics.descent() <= chart.height() and at.x() >= 0, (label, at)
    for line in spans.values():
        line.sort()
        assert all(a[1] < b[0] for a, b in zip(line, line[1:])), line
