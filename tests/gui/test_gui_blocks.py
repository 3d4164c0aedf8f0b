"""No block over 50 ms on the GUI thread (issue 23): a plot made ahead a piece a turn, the
Vision training page arranged out of sight, the Language model pages drawn when in front."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.gui.lab import pacing
from explorer.gui.lab.curves import CurvePlot, Curves, Series
from explorer.gui.lab.warm import plotting_ready

from .test_lab_parts import loss_curves, style
from .test_labs_at_a_projector import present

WAIT_MS = 60_000


def many_series() -> Curves:
    """More series than one piece makes (ITEMS_A_PIECE)."""
    xs = np.arange(1.0, 51.0)
    return Curves(
        title="Loss",
        x_label="step",
        series=[Series(f"s{k}", xs, np.sin(xs / (k + 1)), "#0072B2", dots=k % 2 == 0) for k in range(12)],
        x_range=(0.0, 60.0),
        goal=0.5,
        marker=20.0,
    )


def drawn(plot: CurvePlot) -> list[tuple[list[float], list[float]]]:
    return [
        tuple(np.asarray(d, float).tolist() for d in line.getData())
        for line in plot._items
        if line.isVisible()
    ]


def test_a_plot_made_ahead_is_made_a_piece_a_turn_and_draws_what_one_made_at_once_draws(qtbot, monkeypatch):
    qtbot.waitUntil(plotting_ready, timeout=WAIT_MS)
    whole, ahead = CurvePlot(style()), CurvePlot(style())
    for plot in (whole, ahead):
        qtbot.addWidget(plot)
        plot.resize(500, 300)
        plot.set_curves(many_series(), draw=False)
    whole.ensure_plot()
    turns = []
    real = CurvePlot._next_piece

    def counted(self):
        turns.append(pacing._pacer[0].timer.isActive())  # each in a turn of the pacer's own
        real(self)

    monkeypatch.setattr(CurvePlot, "_next_piece", counted)
    ahead.build_ahead()
    assert ahead.plot is None and not turns  # nothing made in the caller's turn
    qtbot.waitUntil(lambda: ahead.plot is not None, timeout=WAIT_MS)
    assert len(turns) >= 5 and not any(turns)  # the widget, its lines, the items (3 pieces), looks and data
    assert drawn(ahead) == drawn(whole) and len(drawn(ahead)) == 12
    # the same x range (the y range's padding follows the plot's laid-out height)
    assert ahead.plot.getPlotItem().viewRange()[0] == whole.plot.getPlotItem().viewRange()[0]
    assert ahead._y == whole._y and ahead.curves is not whole.curves
    assert ahead.waiting.isHidden() and ahead.plot.parent() is ahead


def test_a_plot_shown_or_exported_before_its_last_piece_is_made_then_with_its_data(qtbot):
    qtbot.waitUntil(plotting_ready, timeout=WAIT_MS)
    plot = CurvePlot(style())
    qtbot.addWidget(plot)
    plot.resize(500, 300)
    plot.set_curves(loss_curves(), draw=False)
    plot.build_ahead()
    pacing._pacer[0].timer.stop()
    pacing._pacer[0]._run()  # one piece made
    assert plot.plot is None and plot._pieces is not None
    plot.ensure_plot()  # an export, or the plot shown
    assert plot.plot is not None and plot._pieces is None
    held_out = plot._items[1].getData()
    np.testing.assert_array_equal(held_out[0], [100.0, 300.0])
    plot.set_curves(many_series())  # and later data replaces it, the items added
    assert len(drawn(plot)) == 12
    qtbot.waitUntil(lambda: not pacing.pending(plot, "build"), timeout=WAIT_MS)
    assert plot.plot.parent() is plot and plot.layout().count() == 2  # made once, not twice


class Resizes(QtCore.QObject):
    """Counts the resize events of the widgets it watches."""

    def __init__(self, widgets, when=lambda: True):
        super().__init__()
        self.when = when  # counted only while this holds
        self.count = 0
        self.sizes: list = []
        for widget in widgets:
            widget.installEventFilter(self)

    def eventFilter(self, watched, event):
        if event.type() == QtCore.QEvent.Type.Resize and self.when():
            self.count += 1
            self.sizes.append((event.oldSize().toTuple(), event.size().toTuple()))
        return False


def settle(qtbot, window, done=lambda: True):
    qtbot.waitUntil(lambda: done() and not window.worker.busy(), timeout=WAIT_MS)
    qtbot.wait(50)
    QtWidgets.QApplication.processEvents()


def test_the_vision_training_step_re_grids_nothing_in_the_key_that_brings_it(qtbot, window):
    """29→30 showed the page at its old size, then laid it out, then arranged it (each plot
    resized and painted three times in the key's turn, 70 ms); 31→30 arranged it anew. Now it
    is arranged and laid out ahead, out of sight, where the training step shows it."""
    from explorer.appstate.lesson import step_index

    present(window)
    view = window.view("vision")
    window.state.set_lesson_step("vision.residual")
    plots = view.train_page.plots
    settle(
        qtbot,
        window,
        lambda: (
            view.trace is not None
            and all(p.plot is not None for p in plots)
            and not pacing.pending(view.train_page, "ahead")
        ),
    )
    assert not view.train_page.isVisible() and view.train_page.focused  # arranged for the next step
    made = [p.plot for p in plots]
    resizes = Resizes([p.plot for p in plots])
    window.state.step_lesson(+1)
    assert window.state.lesson_step == step_index("vision.train")
    settle(qtbot, window)
    assert view.train_page.isVisible() and view.controls.isHidden()
    assert resizes.count == 0, resizes.sizes  # laid out ahead where the step shows it: only painted
    shown = [(p.plot.size(), p.curves.title) for p in plots]
    window.state.step_lesson(+1)  # the Language model's first step: the tab goes out of sight
    settle(qtbot, window)
    assert window.state.tab == "lm" and view.train_page.focused and view.controls.isHidden()
    resizes.count = 0
    window.state.step_lesson(-1)
    settle(qtbot, window)
    assert window.state.tab == "vision" and view.train_page.isVisible()
    assert resizes.count == 0  # laid out as it was: nothing re-gridded
    assert [p.plot for p in plots] == made  # the same plots, with what they drew
    assert [(p.plot.size(), p.curves.title) for p in plots] == shown
    window.state.step_lesson(-1)  # the step before: the controls come back
    settle(qtbot, window)
    assert not view.controls.isHidden() and view.train_page.focused


def test_the_training_page_opened_by_hand_off_a_training_step_shows_its_controls(qtbot, window):
    present(window)
    view = window.view("vision")
    window.state.set_lesson_step("vision.residual")
    settle(qtbot, window, lambda: view.trace is not None)
    view.vision.set_page("train")  # the teacher clicks Train on a step about another page
    settle(qtbot, window)
    assert view.train_page.isVisible() and not view.controls.isHidden() and not view.train_page.focused


def test_the_language_model_training_page_is_laid_out_before_the_key_that_shows_it(qtbot, window):
    """34→35 laid the page out at its old size, then at its own (the plots resized and painted
    twice in the key's turn); 36→35 laid it out again in the key's turn."""
    from explorer.appstate.lesson import step_index

    present(window)
    view = window.view("lm")
    window.state.set_lesson_step("lm.induction")
    plots = view.train_page.plots

    def ready():
        return (
            view.result is not None
            and all(p.plot is not None for p in plots)
            and not pacing.pending(view.train_page, "ahead")
        )

    settle(qtbot, window, ready)
    assert not view.train_page.isVisible()
    resizes = Resizes([p.plot for p in plots])
    made = [p.plot for p in plots]
    window.state.step_lesson(+1)
    assert window.state.lesson_step == step_index("lm.phase_change")
    settle(qtbot, window)
    assert view.train_page.isVisible() and resizes.count == 0
    window.state.step_lesson(+1)  # the heads switched off: a longer summary
    settle(qtbot, window, lambda: view.result is not None and view.result.ablated is not None)
    settle(qtbot, window, lambda: not pacing.pending(view.train_page, "ahead"))
    # the key shows the page as laid out ahead; the heads' result, in a turn of its own later,
    # may take the summary's second line away
    before_result = Resizes([p.plot for p in plots], lambda: view.result.ablated is not None)
    window.state.step_lesson(-1)
    settle(qtbot, window, lambda: view.result is not None and view.result.ablated is None)
    assert view.train_page.isVisible() and before_result.count == 0, before_result.sizes
    assert [p.plot for p in plots] == made and all(p.plot.isVisible() for p in plots)
    assert [p.curves.title for p in plots] == [
        c.title for c in view.train_page.content.curves(view.lab, None, None)
    ]
