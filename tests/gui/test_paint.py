"""Painting large grids: the head grid with 48 labelled heads, and pyqtgraph's plots (the tabs
that plot curves use it), which some Qt releases broke (shared/notes/measured-facts.md)."""

import numpy as np

from explorer.core.config import AttentionConfig
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS, pixels


def test_head_grid_paints_48_labelled_heads(qtbot, make_window):
    sentence = "a long enough sentence so that every plot carries several token tick labels here"
    window = make_window(AttentionConfig(sentence=sentence, heads=48), size=(1600, 900))
    window.state.set_tab(Tab.HEADS)
    grid = window.heads
    qtbot.waitUntil(lambda: len(grid.panels) == 48 and grid.prepared is window.prepared, timeout=WAIT_MS)
    boxes = grid.canvas.current_layout().boxes
    assert len(boxes) == 48 and all(len(b.rows) and len(b.cols) for b in boxes)
    assert len({(b.rows.indices, b.cols.indices) for b in boxes}) == 1  # the same tokens in every head
    image = grid.canvas.grab().toImage()
    assert image.width() > 500
    assert len(np.unique(pixels(image).reshape(-1, 3), axis=0)) > 10  # drawn, not a blank widget


def test_pyqtgraph_paints_a_grid_of_labelled_plots(qtbot):
    from explorer.gui.app_setup import configure_pyqtgraph

    configure_pyqtgraph("light")
    import pyqtgraph as pg

    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    widget.resize(1600, 900)
    for k in range(48):
        plot = widget.addPlot(row=k // 8, col=k % 8)
        plot.plot(np.arange(10), np.random.default_rng(k).random(10))
        plot.getAxis("bottom").setTicks([[(i, f"t{i}") for i in range(10)]])
    image = widget.grab().toImage()  # paints every axis with its custom ticks
    assert len(np.unique(pixels(image).reshape(-1, 3), axis=0)) > 10
