"""What keeps a lab's tick short while it trains: a long line thinned to the screen's columns,
series handed to pyqtgraph only when they changed, heavy draws one per turn of the event loop,
the progress bar painted with the window, a flow row's height remembered; and a legend that
breaks only between its entries (a Chinese name stays whole)."""

from __future__ import annotations

import numpy as np
import shiboken6
from PySide6 import QtCore, QtWidgets

from explorer.gui.flow import FlowLayout
from explorer.gui.heatmap import Style, format_value
from explorer.gui.lab import pacing
from explorer.gui.lab.curves import CurvePlot, Curves, Series, packed, thinned, title_parts
from explorer.gui.lab.training import set_progress


def test_a_thinned_line_keeps_each_columns_lowest_and_highest_and_both_ends():
    rng = np.random.default_rng(0)
    xs = np.arange(1.0, 5001.0)
    ys = rng.normal(size=xs.size)
    kept = thinned(xs, ys, 400)
    assert len(kept) <= 2 * 400 + 2 and kept[0] == 0 and kept[-1] == len(xs) - 1
    assert np.all(np.diff(kept) > 0)  # in x order
    column = np.minimum(((xs - 1) / 4999 * 400).astype(int), 399)
    for c in (0, 17, 399):  # every column's extremes are drawn: the same picture
        inside = np.flatnonzero(column == c)
        assert ys[inside].max() in ys[kept] and ys[inside].min() in ys[kept]
    assert np.array_equal(thinned(xs[:600], ys[:600], 400), np.arange(600))  # few points: all


def test_a_legend_breaks_only_between_its_parts():
    assert packed([50, 50, 50], 120, 10) == [[0, 1], [2]]
    assert packed([150, 40], 120, 10) == [[0], [1]]  # a part wider than the room: alone
    assert packed([], 100, 10) == []


def loss_run(steps: int, evals: int) -> Curves:
    xs = np.arange(1, steps + 1)
    held = np.arange(1, evals + 1) * 25.0
    return Curves(
        x_label="step",
        series=[
            Series("training", xs, 2 * np.exp(-xs / 900) + 0.1 * np.sin(xs), "#0072B2", 1.0),
            Series("held out", held, np.exp(-held / 900), "#009E73", dots=True),
        ],
        x_range=(0.0, 5000.0),
    )


def test_a_long_line_is_thinned_unsmoothed_and_unchanged_series_are_not_given_again(qtbot):
    plot = CurvePlot(Style.make(20))
    qtbot.addWidget(plot)
    plot.resize(500, 300)
    plot.show()
    plot.ensure_plot()
    plot.set_curves(loss_run(4000, 10))
    qtbot.waitUntil(lambda: plot.plot.getPlotItem().getViewBox().width() > 100)
    plot.set_curves(loss_run(4000, 10))
    line, dots = plot._items
    xs, ys = line.getData()
    columns = int(plot.plot.getPlotItem().getViewBox().width())
    assert len(xs) <= 2 * columns + 2 and xs[0] == 1 and xs[-1] == 4000  # the last point drawn
    assert line.opts["antialias"] is False and dots.opts["antialias"] is True
    # a new y range redraws the axes only: no item recomputes its data for a range limit
    assert line.opts["dynamicRangeLimit"] is None and dots.opts["dynamicRangeLimit"] is None
    given = []
    for item in plot._items:
        item.setData = lambda *a, _given=given, **k: _given.append(a)
    plot.set_curves(loss_run(4001, 10))  # a new loss; the held-out dots as they were
    assert len(given) == 1
    # the hover read-out reads the data, every point (4000 - 1 was thinned away or not)
    ys_all = plot.curves.series[0].ys
    assert plot.show_value_at(3999.2).splitlines()[1] == f"training: {format_value(ys_all[3998])}"


def test_a_narrow_chinese_legend_keeps_each_entry_on_one_line(qtbot):
    names = ["训练损失", "留出集损失"]
    curves = Curves(
        x_label="步",
        series=[Series(n, np.arange(5.0), np.arange(5.0), c) for n, c in zip(names, ("#0072B2", "#D55E00"))],
    )
    plot = CurvePlot(Style.make(22))
    qtbot.addWidget(plot)
    plot.resize(120, 300)
    plot.show()
    plot.ensure_plot()
    plot.set_curves(curves)
    widest = max(w for _, w in plot._parts)
    assert plot.minimumWidth() >= widest  # never narrower than an entry: it would be cut
    label = plot.plot.getPlotItem().titleLabel
    document = label.item.document()
    entries = [t.replace("\u00a0", " ") for _, t in title_parts(curves)]

    def lines() -> list[str]:  # the legend's own line breaks
        return document.toPlainText().replace("\u2028", "\n").replace("\u00a0", " ").split("\n")

    qtbot.waitUntil(lambda: lines() == entries)  # too narrow for both: one entry a line, each whole
    assert document.firstBlock().layout().lineCount() == len(entries)  # Qt broke none inside


def test_heavy_draws_run_one_per_turn_and_the_newest_replaces_a_queued_one(qtbot):
    ran: list[str] = []
    waiting: list[bool] = []  # while b drew, a's draw was still queued: one draw per turn
    a, b = QtCore.QObject(), QtCore.QObject()

    def draw_b() -> None:
        ran.append("b")
        waiting.append(pacing.pending(a, "x"))

    pacing.later(a, lambda: ran.append("a old"), "x")
    pacing.later(b, draw_b, "x")
    pacing.later(a, lambda: ran.append("a new"), "x")  # replaces a's older draw
    assert pacing.pending(a, "x") and ran == []
    qtbot.waitUntil(lambda: len(ran) == 2)  # in the order queued (a's newest went to the end)
    assert ran == ["b", "a new"] and waiting == [True] and not pacing.pending(a, "x")
    gone = QtWidgets.QWidget()
    pacing.later(gone, lambda: ran.append("gone"))
    shiboken6.delete(gone)  # before its turn came
    qtbot.wait(50)
    assert "gone" not in ran  # a deleted owner's draw is dropped


def test_the_progress_bar_shows_the_step_without_a_paint_of_its_own(qtbot):
    bar = QtWidgets.QProgressBar()
    qtbot.addWidget(bar)
    bar.show()
    set_progress(bar, 600, 125)
    assert (bar.maximum(), bar.value()) == (600, 125) and bar.updatesEnabled()


def test_a_flow_rows_height_follows_its_items_sizes(qtbot):
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    flow = FlowLayout(host)
    labels = [QtWidgets.QLabel("word") for _ in range(4)]
    for label in labels:
        flow.add(label)
    one = flow.heightForWidth(400)
    assert flow.heightForWidth(400) == one  # asked again: the same
    labels[0].setText("a much longer text that takes a whole line of the row by itself")
    assert flow.heightForWidth(400) > one  # an item grew: the row wraps, taller
