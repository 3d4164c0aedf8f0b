"""The Vision Transformer lesson steps at a projector, as a class reads them: at 1024×768 and
1920×1080 with the lesson column open, in both languages, no page scrolls (steps 46 and 47
did), every figure takes at least 40 % of the room under the lab's controls and grows with the
window (the bars were ~25 px tall at 1920×1080, the position map 320 px wide at most), every
map has a colour bar, no word or number is under the projector's 20 px, and no bar's label
runs into its neighbour's."""

from __future__ import annotations

import pytest
from PySide6 import QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.core.config import AttentionConfig
from explorer.gui.labs.vision.vit_pictures import HeadBars, PatchMap, _font
from explorer.gui.labs.vision.vit_tokens import PatchTokens

from .projector_check import MIN_PX, font_problems
from .test_classroom_walk import settle
from .test_vit_tab import wait_result

SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)
VIT_STEPS = [k for k, s in enumerate(STEPS) if s.tab == "vit"]
MIN_SHARE = 0.4  # of the pages' height (the room under the picture's controls)


def presenting(qtbot, make_window, language, size):
    w = make_window(SMALL, size=size)
    w.state.set_language(language)
    w.state.show_lesson(True)
    settle(qtbot, w)
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(*size)
    return w


def scrolling(view) -> list[str]:
    """Scroll areas on the shown page whose content is taller than their view."""
    page = view.pages.currentWidget()
    areas = [page] if isinstance(page, QtWidgets.QScrollArea) else []
    areas += page.findChildren(QtWidgets.QScrollArea)
    return [
        f"{type(a.widget()).__name__}: {a.verticalScrollBar().maximum()} px hidden"
        for a in areas
        if a.isVisible() and a.verticalScrollBar().maximum() > 0
    ]


def overlapping_labels(bars: HeadBars) -> list[str]:
    """Bar labels written into their neighbour's (the text's own width, not its box)."""
    metrics = QtGui.QFontMetricsF(_font(bars))
    placed = []
    for text, where, _box, _v in bars.labels():
        half = metrics.horizontalAdvance(text) / 2
        placed.append((where.center().x() - half, where.center().x() + half, where.top(), text))
    out = []
    for a in placed:
        for b in placed:
            if a is not b and abs(a[2] - b[2]) < metrics.height() and a[0] < b[0] < a[1]:
                out.append(f"{a[3]} runs into {b[3]}")
    return out


def shown_figures(view):
    page = view.pages.currentWidget()
    return [w for kind in (PatchMap, HeadBars, PatchTokens) for w in page.findChildren(kind) if w.isVisible()]


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)])
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_vit_step_reads_whole_at_the_projector(qtbot, make_window, language, size):
    w = presenting(qtbot, make_window, language, size)
    w.state.set_lesson_step(VIT_STEPS[0])
    view = w.view("vit")
    bar_heights = {}
    for k in VIT_STEPS:
        w.state.set_lesson_step(k)
        wait_result(qtbot, view)
        qtbot.waitUntil(lambda: view.pages.currentWidget() is view.page_widgets[view.lab.settings.page])
        settle(qtbot, w)
        if view.lab.settings.page == "photo":
            qtbot.waitUntil(lambda: view.photo is not None, timeout=30_000)
            settle(qtbot, w)
        where = (language, size, k + 1, STEPS[k].id)
        assert not scrolling(view), (where, scrolling(view))
        assert not font_problems(w), (where, font_problems(w))
        room = view.pages.height()
        figures = shown_figures(view)
        if view.lab.settings.page == "data":  # no picture on it: its row gives the plot the height
            figures = [view.data_plot]
            assert not view.picture_row.isVisible() and not view.summary.isVisible(), where
            assert view.data_plot.height() >= MIN_SHARE * view.height(), (where, view.data_plot.height())
        assert figures, where
        for f in figures:
            assert f.height() >= MIN_SHARE * room, (where, type(f).__name__, f.height(), room)
            if isinstance(f, (PatchMap, HeadBars, PatchTokens)):
                assert f.text_px() >= MIN_PX, (where, type(f).__name__, f.text_px())
            if isinstance(f, PatchMap) and f.values is not None:
                bar = f.colour_bar()
                assert bar is not None and bar.height() >= 0.9 * f._square().height(), where
                assert bar.right() < f.width(), where  # beside the square, inside the figure
                # the square itself, not only its widget (the position map shares a quarter of the page)
                assert f._square().height() >= 0.2 * room, (where, f._square().height(), room)
                low, high = f.scale_labels()
                assert low and high and low != high, (where, low, high)
            if isinstance(f, HeadBars):
                assert not overlapping_labels(f), (where, overlapping_labels(f))
                area, _top, line = f._geometry()
                bar_heights[f.title] = area.height()
                assert area.height() >= 3 * line, (where, f.title, area.height())  # bars, not slivers
    if size == (1920, 1080):
        for title, height in bar_heights.items():
            assert height >= 0.12 * w.height(), (title, height)  # they grew with the window (~25 px before)
    view.lab.stop_training()
