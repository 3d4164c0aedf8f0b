"""A classroom trial's findings on the labs' training pages (1024×768 and 1920×1080): a fresh
run's curves span its own steps, the why-attention length curve starts at 0."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.gui.lab.curves import Curves, Series, x_limits
from explorer.gui.lab.shipped import shipped_name
from explorer.gui.labs.translation.why_attention import CURVE_PAGE

from .helpers import WAIT_MS

LONG_S = 120_000


def x_range(plot) -> tuple[float, float]:
    """The x range the plot's ViewBox shows."""
    return tuple(plot.plot.getPlotItem().getViewBox().viewRange()[0])


def drawn(qtbot, plot, curves: Curves | None = None) -> tuple[float, float]:
    """The plot made (pyqtgraph imported, the plot on screen) and its newest data drawn."""
    qtbot.waitUntil(lambda: plot.plot is not None, timeout=WAIT_MS)
    plot.draw()
    return x_range(plot)


def test_a_live_run_sets_the_x_axis_a_shipped_line_does_not():
    shipped = Series(shipped_name(), [1.0, 1500.0], [2.0, 0.1], "#888", bounds=False)
    run = Series("loss", [1.0, 2.0], [2.0, 1.9], "#000")
    before = Curves(series=[Series("loss", [], [], "#000"), shipped], x_range=(0.0, 300.0))
    assert x_limits(before) == (0.0, 1500.0)  # before a run the shipped run is shown whole
    live = Curves(series=[run, shipped], x_range=(0.0, 20.0), live=True)
    assert x_limits(live) == (0.0, 20.0)


@pytest.mark.parametrize("steps", [20])
def test_a_short_translation_run_fills_its_plots(qtbot, window, steps):
    window.state.set_tab("translation")
    view = window.view("translation")
    tstate = window.state.translation
    page = view.training
    view.pages.setCurrentIndex(1)
    page.steps.setValue(steps)
    page.start()
    qtbot.waitUntil(lambda: tstate.run is not None and not tstate.run.running, timeout=LONG_S)
    qtbot.waitUntil(lambda: not page.poll_timer.isActive() and not page._due, timeout=WAIT_MS)
    assert tstate.run.status == "done"
    for plot in page.plots:
        lo, hi = drawn(qtbot, plot)
        assert 0.0 <= lo < 1.0 and steps <= hi <= 1.05 * steps, (lo, hi)


def test_the_why_attention_length_curve_starts_at_0(qtbot, window):
    window.state.set_tab("why_attention")
    view = window.view("why_attention")
    view.pages.setCurrentIndex(CURVE_PAGE)
    qtbot.waitUntil(lambda: bool(view.curve.curves.series), timeout=WAIT_MS)
    lo, _ = drawn(qtbot, view.curve)
    assert lo >= 0.0


def test_the_vit_train_page_has_one_setting_of_the_training_pictures(qtbot, make_window):
    """The trial saw two: the shipped models' "Trained on (pictures)" above the page and the
    live pair's "Training pictures for both models" on it."""
    from explorer.appstate.vit import PAGES

    window = make_window(size=(1024, 768))
    window.state.set_tab("vit")
    view = window.view("vit")
    view.pages.setCurrentIndex(PAGES.index("train"))
    qtbot.waitUntil(lambda: view.lab.settings.page == "train", timeout=WAIT_MS)
    pictures = [
        combo
        for combo in view.findChildren(QtWidgets.QComboBox)
        if combo.isVisibleTo(view) and combo.findData(100) >= 0 and combo.findData(1000) >= 0
    ]
    assert pictures == [view.train_size]
    view.pages.setCurrentIndex(PAGES.index("looks"))  # elsewhere the shipped models' size shows
    qtbot.waitUntil(lambda: view.size.isVisibleTo(view), timeout=WAIT_MS)


def test_a_vision_run_says_it_is_starting_at_once(qtbot, make_window):
    """Between Train and the first step the pool of pictures is made: the status line says so
    at the click, and the progress replaces it."""
    from .test_vision_tab import SMALL, page, run_until
    from .test_vision_tab import wait_result as wait_vision

    window = make_window(SMALL, size=(1024, 768))
    window.tabs.choose("vision")
    view = window.view("vision")
    wait_vision(qtbot, view)
    tp = page(window, view, "train")
    tp.steps.setValue(20)
    tp.train_button.click()
    try:
        assert view.vision.run.step == 0
        assert tp.status.text() == "Starting: making the training pictures…"
        run_until(lambda: view.vision.run.step > 0 or not view.vision.run.running, LONG_S)
        assert "making the training pictures" not in tp.status.text()
        run_until(lambda: view.vision.status == "done", LONG_S)
        assert tp.status.text().startswith("Finished. Step 20 of 20")
        # item 1 on the Vision tab too: the run's 20 steps fill both plots' x axes
        for plot in tp.plots:
            lo, hi = drawn(qtbot, plot)
            assert 0.0 <= lo < 1.0 and 20 <= hi <= 21, (lo, hi)
    finally:
        view.vision.stop_training()


@pytest.mark.parametrize("lesson", [False, True])
def test_the_translation_accuracy_plot_is_above_the_fold_at_1024_by_768(qtbot, make_window, lesson):
    """The trial scrolled for the held-out exact match: the training page asked for two plots
    of 220 px one under the other. Both lie inside the page's visible area now."""
    from explorer.appstate.lesson import step_index

    window = make_window(size=(1024, 768))
    window.state.set_tab("translation")
    if lesson:
        window.state.show_lesson(True)
        window.state.set_lesson_step(step_index("translation.learn"))
    view = window.view("translation")
    view.pages.setCurrentIndex(1)
    page = view.training
    area = page.findChild(QtWidgets.QScrollArea)
    viewport = area.viewport()

    def inside() -> bool:
        shown = viewport.rect()
        return page.isVisible() and all(
            shown.contains(QtCore.QRect(plot.mapTo(viewport, QtCore.QPoint(0, 0)), plot.size()))
            for plot in page.plots
        )

    qtbot.waitUntil(lambda: page.isVisible(), timeout=WAIT_MS)
    qtbot.wait(200)  # the layout settles
    accuracy = page.plots[1]
    where = QtCore.QRect(accuracy.mapTo(viewport, QtCore.QPoint(0, 0)), accuracy.size())
    assert inside(), (where, viewport.rect(), lesson)
    assert area.verticalScrollBar().value() == 0 and accuracy.height() >= accuracy.minimumHeight()
