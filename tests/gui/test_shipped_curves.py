"""Trial 6 T4: a lab's training page draws the shipped run's measured curves before any run
of its own (the lesson's "watch the curve" steps), named as the shipped run, each plot's y
axis covering them (the language model's loss is ~4.5 nats: no 0–1 axis)."""

import numpy as np
import pytest
from PySide6 import QtWidgets

from explorer.core.config import AttentionConfig
from explorer.gui.lab.curves import y_limits
from explorer.gui.lab.shipped import shipped_name
from explorer.gui.labs.translation.view import TRAIN_PAGE
from explorer.gui.views.registry import Tab
from explorer.lab.history import read_history
from explorer.resources import resource_path

from .helpers import WAIT_MS

SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)


def open_page(window, lab: str):
    """The lab's training page, shown, and the history its shipped checkpoint came with."""
    if lab == "vision":
        window.tabs.choose(Tab.VISION)
        view = window.view(Tab.VISION)
        view.vision.set_page("train")
        page = view.page_widgets["train"]
        history = read_history(resource_path("vision", f"{view.vision.variant}.history.json"))
        return page, history, "accuracy"
    if lab == "lm":
        window.tabs.choose(Tab.LM)
        view = window.view(Tab.LM)
        view.lab.set_page("train")
        history = read_history(resource_path("lm", view.lab.task, "model.history.json"))
        return view.train_page, history, "best_induction"
    window.state.set_tab("translation")
    view = window.view("translation")
    view.pages.setCurrentIndex(TRAIN_PAGE)
    s = window.state.translation.settings
    history = read_history(resource_path("seq2seq", f"{s.model}-{s.scoring}", "model.history.json"))
    return view.training, history, "exact_match"


def shipped_series(curves, ys):
    """The plot's shipped-run line with these values (named as the shipped run, dashed)."""
    found = [
        s
        for s in curves.series
        if s.name.startswith(shipped_name()) and np.array_equal(np.asarray(s.ys, float), ys)
    ]
    assert len(found) == 1 and found[0].dashed, [s.name for s in curves.series]
    return np.asarray(found[0].xs, float), np.asarray(found[0].ys, float)


@pytest.mark.parametrize("lab", ["vision", "lm", "translation"])
def test_the_training_page_draws_the_shipped_run_before_any_run(qtbot, make_window, lab):
    window = make_window(SMALL, size=(1400, 900))
    page, history, metric = open_page(window, lab)
    qtbot.waitUntil(page.isVisible, timeout=WAIT_MS)
    assert page.lab.run is None  # nothing trained: the page's curves are the shipped run's
    loss, measure = page.plots[0].curves, page.plots[1].curves
    xs, ys = shipped_series(loss, np.asarray(history.losses))
    np.testing.assert_array_equal(xs, np.arange(1, history.steps + 1))
    xs, ys = shipped_series(measure, np.asarray(history.series(metric)))
    np.testing.assert_array_equal(xs, history.eval_steps)
    assert "Dashed: the shipped run." in page.status.text()
    # every value on screen inside its axis, the loss's well above 1 where it is in nats
    for plot in page.plots:
        values = np.concatenate([np.asarray(s.ys, float) for s in plot.curves.series])
        lo, hi = y_limits(plot.curves)
        assert lo <= values.min() and values.max() <= hi
        qtbot.waitUntil(lambda plot=plot: plot.plot is not None, timeout=2 * WAIT_MS)
        QtWidgets.QApplication.processEvents()
        shown_lo, shown_hi = plot.plot.getPlotItem().getViewBox().viewRange()[1]
        assert shown_lo <= values.min() and values.max() <= shown_hi, (plot.curves.title, values.max())
    assert y_limits(loss)[1] >= max(history.losses)
