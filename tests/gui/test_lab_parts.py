"""The window parts every lab shares: the one curve plot (pyqtgraph) and its export, and the
tree holding one training-run class and one curve plot."""

from __future__ import annotations

import ast
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtGui, QtSvg

import explorer
from explorer.gui.heatmap import format_value
from explorer.gui.lab.curves import CurvePlot, Curves, CurvesPicture, Series, x_limits, y_limits
from explorer.gui.lab.warm import plotting_ready

from .helpers import pixels

BLUE = "#0072B2"


def style():
    from explorer.gui.heatmap import Style

    return Style.make(20)


def loss_curves() -> Curves:
    xs = np.arange(1, 301)
    ys = 2.5 * np.exp(-xs / 80) + 0.05
    evals = np.array([100.0, 200.0, 300.0])
    return Curves(
        title="",
        x_label="step",
        series=[
            Series("training loss", xs, ys, BLUE),
            Series("held-out", evals, np.array([0.5, np.nan, 0.2]), "#009E73", dots=True),
        ],
        x_range=(0.0, 400.0),
        goal=1.0,
        marker=200.0,
    )


def test_the_plot_draws_its_data_with_round_ticks_and_reads_out_the_value_under_the_mouse(qtbot):
    plot = CurvePlot(style())
    qtbot.addWidget(plot)
    plot.resize(600, 320)
    plot.ensure_plot()
    assert plotting_ready() and plot.plot is not None
    plot.set_curves(loss_curves())
    item = plot.plot.getPlotItem()
    (x0, x1), (y0, y1) = item.viewRange()
    assert x0 <= 0 and x1 >= 400 and x_limits(plot.curves) == (0.0, 400.0)  # the run's whole length
    assert y0 <= 0 and y1 >= 2.5 * math.exp(-1 / 80) + 0.05  # autoscaled around the data, from 0
    lo, hi = y_limits(plot.curves)
    assert lo == 0.0 and hi > float(np.max(plot.curves.series[0].ys))
    for name, (a, b) in (("bottom", (x0, x1)), ("left", (y0, y1))):
        for spacing, values in item.getAxis(name).tickValues(a, b, 500):
            mantissa = spacing / 10 ** math.floor(math.log10(spacing))
            assert round(mantissa, 6) in (1, 2, 2.5, 4, 5), (name, spacing)  # ticks.SPACINGS
            assert all(abs(v / spacing - round(v / spacing)) < 1e-6 for v in values)
    # the held-out series' NaN is left out, not drawn as a gap at 0
    held_out = plot._items[1].getData()
    np.testing.assert_array_equal(held_out[0], [100.0, 300.0])
    # hovering: every series' value at the nearest step that has one
    ys = plot.curves.series[0].ys
    assert plot.show_value_at(198.6).splitlines() == ["step 199", f"training loss: {format_value(ys[198])}"]
    assert plot.show_value_at(300.4).splitlines() == [
        "step 300",
        f"training loss: {format_value(ys[299])}",
        "held-out: 0.2",
    ]
    assert plot.readout == plot._text.toPlainText() and plot._text.isVisible()
    # the line is on screen, in its colour
    image = plot.grab().toImage()
    rgb = pixels(image)
    blue = (np.abs(rgb.astype(int) - [0x00, 0x72, 0xB2]).sum(axis=2) < 60).sum()
    assert blue > 100


def test_a_log_axis_with_labelled_ticks_dots_alone_hollow_squares_and_a_dashed_line(qtbot):
    sizes = np.array([100.0, 1000.0, 10000.0])
    curves = Curves(
        title="accuracy",
        x_label="pictures",
        series=[
            Series("mean", sizes, np.array([0.3, 0.6, 0.9]), BLUE),
            Series(
                "each seed",
                np.repeat(sizes, 2),
                np.array([0.2, 0.4, 0.5, 0.7, 0.85, 0.95]),
                BLUE,
                line=False,
                in_legend=False,
            ),
            Series(
                "live", np.array([1000.0]), np.array([0.5]), "#D55E00", line=False, symbol="s", hollow=True
            ),
            Series("chance", np.array([50.0, 20000.0]), np.array([0.125, 0.125]), "#777777", dashed=True),
            Series("not on a log axis", np.array([0.0, -5.0]), np.array([0.5, 0.5]), BLUE, line=False),
        ],
        x_range=(50.0, 20000.0),
        y_range=(0.0, 1.0),
        log_x=True,
        x_ticks=(100.0, 1000.0, 10000.0),
    )
    plot = CurvePlot(style())
    qtbot.addWidget(plot)
    plot.resize(600, 320)
    plot.ensure_plot()
    plot.set_curves(curves)
    item = plot.plot.getPlotItem()
    (x0, x1), _ = item.viewRange()
    assert x0 <= math.log10(50) and x1 >= math.log10(20000) and x1 < 5  # log10 units, the margins shown
    ticks = item.getAxis("bottom")._tickLevels[0]
    assert [(round(v, 9), label) for v, label in ticks] == [(2.0, "100"), (3.0, "1,000"), (4.0, "10,000")]
    dots = plot._items[1]
    np.testing.assert_allclose(dots.getData()[0], np.log10(np.repeat(sizes, 2)))
    assert dots.opts["pen"] is None and dots.opts["symbol"] == "o"
    square = plot._items[2]
    assert square.opts["symbol"] == "s" and square.opts["symbolBrush"] is None
    assert plot._items[3].opts["pen"].style() == QtCore.Qt.PenStyle.DashLine
    nowhere = plot._items[4].getData()[0]
    assert nowhere is None or len(nowhere) == 0  # zero and negative x have no place on a log axis
    # the legend leaves the seeds' dots out; marks say which is a line, a square, a dashed line
    legend = item.titleLabel.text
    assert all(
        f"{mark}&nbsp;{name}" in legend for mark, name in (("━", "mean"), ("□", "live"), ("┅", "chance"))
    )
    assert "each seed" not in legend
    # hovering: the mouse's x is log10 of the data's; every seed's value at the nearest size
    assert plot.show_value_at(10**3.1).splitlines() == [
        "pictures 1,000",
        "mean: 0.6",
        "each seed: 0.5",
        "each seed: 0.7",
        "live: 0.5",
    ]
    assert curves.data_x(3.0) == 1000.0 and plot.show_value_at(7000.0).startswith("pictures 10,000")


def test_a_legend_wider_than_its_plot_wraps_instead_of_being_cut(qtbot):
    names = ["a first long series name", "the second long series name", "and a third one as long"]
    xs = np.arange(5.0)
    colours = [BLUE, "#D55E00", "#009E73"]
    curves = Curves(
        title="a title", x_label="step", series=[Series(n, xs, xs, c) for n, c in zip(names, colours)]
    )
    plot = CurvePlot(style())
    qtbot.addWidget(plot)
    plot.resize(600, 320)
    plot.show()
    plot.ensure_plot()
    plot.set_curves(curves)
    label = plot.plot.getPlotItem().titleLabel
    qtbot.waitUntil(lambda: label.rect().width() > 0)
    one_line = label.maximumHeight()
    plot.resize(260, 320)  # narrower than the legend: it wraps onto more lines, none cut
    qtbot.waitUntil(lambda: label.maximumHeight() > 1.5 * one_line)
    text = label.item
    qtbot.waitUntil(lambda: text.boundingRect().height() <= label.rect().height() + 1)  # laid out: all seen
    assert text.textWidth() == label.rect().width() <= plot.width()
    assert plot.plot.getPlotItem().layout.rowMinimumHeight(0) == label.maximumHeight()
    plot.resize(900, 320)  # wide again: back to one line
    qtbot.waitUntil(lambda: label.maximumHeight() < 1.5 * one_line)


def test_the_same_plots_paint_into_a_png_and_an_svg(qtbot, tmp_path):
    picture = CurvesPicture([loss_curves(), loss_curves()], style(), columns=2)
    image = QtGui.QImage(1000, 400, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    picture.paint(painter, QtCore.QRectF(0, 0, 1000, 400))
    painter.end()
    rgb = pixels(image)
    left, right = rgb[:, :500], rgb[:, 500:]
    for half in (left, right):
        assert (np.abs(half.astype(int) - [0x00, 0x72, 0xB2]).sum(axis=2) < 60).sum() > 100
    generator = QtSvg.QSvgGenerator()
    generator.setFileName(str(tmp_path / "curves.svg"))
    generator.setSize(QtCore.QSize(1000, 400))
    painter = QtGui.QPainter(generator)
    picture.paint(painter, QtCore.QRectF(0, 0, 1000, 400))
    painter.end()
    root = ET.parse(tmp_path / "curves.svg").getroot()
    texts = "".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert "training loss" in texts and "step" in texts  # the legend and the axis as text


def classes(root: Path):
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                yield path.relative_to(root.parent).as_posix(), node


def test_one_training_run_class_and_one_curve_plot_in_the_whole_tree():
    root = Path(explorer.__file__).parent
    runs, plots = [], []
    for path, node in classes(root):
        methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        if {"start", "cancel"} <= methods or node.name.endswith(("Trainer", "TrainingRun")):
            runs.append(f"{path}:{node.name}")
        widget = any(ast.unparse(base).endswith("QWidget") for base in node.bases)
        if widget and ("Curve" in node.name or "Plot" in node.name):
            plots.append(f"{path}:{node.name}")
    assert runs == ["explorer/lab/run.py:LabRun"]
    assert plots == ["explorer/gui/lab/curves.py:CurvePlot"]


def test_a_narrow_plot_spaces_its_step_labels_so_that_they_do_not_run_together(qtbot):
    """Two curves beside the alignment on a projector: 0 100 200 300 400 in 20 px type in a
    150 px axis read "100200"; the major ticks are spaced to their labels' width."""
    from explorer.gui.lab.ticks import fitted_levels, next_step

    assert [next_step(s) for s in (1.0, 2.0, 5.0, 100.0, 0.2)] == [2.0, 5.0, 10.0, 200.0, 0.5]
    assert fitted_levels([(100.0, 0.0), (50.0, 0.0)], 400.0, 150.0, 50.0) == [(200.0, 0.0), (100.0, 0.0)]
    assert fitted_levels([(100.0, 0.0), (50.0, 0.0)], 400.0, 600.0, 50.0) == [(100.0, 0.0), (50.0, 0.0)]
    plot = CurvePlot(style())
    qtbot.addWidget(plot)
    plot.resize(220, 320)
    plot.show()
    plot.ensure_plot()
    plot.set_curves(loss_curves())
    QtCore.QCoreApplication.processEvents()
    axis = plot.plot.getPlotItem().getAxis("bottom")
    (x0, x1), size = axis.range, axis.geometry().width()
    levels = axis.tickValues(x0, x1, size)
    spacing, values = levels[0]
    metrics = QtGui.QFontMetricsF(style().font)
    widest = max(metrics.horizontalAdvance(t) for t in axis.tickStrings(values, 1.0, spacing))
    gap = metrics.horizontalAdvance("0")  # labels apart, not touching
    assert len(values) >= 2 and spacing * size / (x1 - x0) >= widest + gap, (spacing, size, widest)


def drawn_labels(axis) -> list[str]:
    """The tick labels a pyqtgraph axis paints (it leaves out those that would leave the plot)."""
    image = QtGui.QImage(10, 10, QtGui.QImage.Format.Format_RGB32)
    painter = QtGui.QPainter(image)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _, _, text in texts]


def test_the_y_axis_leaves_room_to_label_both_its_ends(qtbot):
    """A loss starts at 0 and a share ends at 1: their labels sit at the plot's edges, where a
    gridded axis drops a label that reaches past the plot, unless the range leaves it room."""
    for size in ((600, 320), (360, 180)):
        for curves, ends in (
            (loss_curves(), ["0"]),
            (
                Curves(series=[Series("share", [10.0, 20.0], [0.37, 0.51], BLUE)], y_range=(0.0, 1.0)),
                ["0", "1"],
            ),
        ):
            plot = CurvePlot(style())
            qtbot.addWidget(plot)
            plot.resize(*size)
            plot.show()
            plot.ensure_plot()
            plot.set_curves(curves)
            QtCore.QCoreApplication.processEvents()
            labels = [
                t.rstrip("0").rstrip(".") or "0"
                for t in drawn_labels(plot.plot.getPlotItem().getAxis("left"))
            ]
            assert all(end in labels for end in ends), (size, labels)


def test_a_plot_title_too_wide_breaks_between_its_words():
    """Trial 10 (1024×768 beside the lesson): "held-out e…" over the accuracy plot; a title of
    words goes on two lines of whole words, one without spaces (Chinese) is left to the "…"."""
    from explorer.gui.lab.curves import title_lines

    width = len  # a character a pixel
    assert title_lines("held-out exact match", 15, width) == ["held-out exact", "match"]
    assert title_lines("held-out exact match", 30, width) == ["held-out exact match"]
    assert title_lines("留出集完全匹配率", 4, width) is None
    assert title_lines("a b c d e f", 3, width) is None  # more than two lines: cut instead
    assert title_lines("antidisestablishment x", 10, width) is None  # a word wider than the room
