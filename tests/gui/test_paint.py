"""Painting: a large grid of labelled plots (catches Qt upgrades that break pyqtgraph),
the heatmap's labels and masks, and value labels drawn in one pass."""

import numpy as np

from explorer.core.config import AttentionConfig
from explorer.gui.main_window import TAB_HEADS
from explorer.gui.old_heatmap import Heatmap, ValueLabels, format_value, short_label

from .conftest import WAIT_MS


def test_head_grid_paints_48_labelled_plots(qtbot, make_window):
    sentence = "a long enough sentence so that every plot carries several token tick labels here"
    window = make_window(AttentionConfig(sentence=sentence, heads=48), size=(1600, 900))
    window.tabs.setCurrentIndex(TAB_HEADS)
    grid = window.heads
    qtbot.waitUntil(lambda: len(grid.maps) == 48 and grid.trace is window.trace, timeout=WAIT_MS)
    assert all(hm.row_ticks and hm.col_ticks for hm in grid.maps)
    image = grid.graphics.grab().toImage()  # paints every axis with its custom ticks
    assert image.width() > 500
    pixels = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    assert len(np.unique(pixels)) > 10  # something was drawn, not a blank widget


def test_heatmap_labels_levels_and_mask(qtbot):
    import pyqtgraph as pg

    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    widget.resize(400, 400)
    hm = Heatmap(widget.ci, 0, 0)
    data = np.array([[0.5, -2.0, np.inf], [1.0, 0.0, -1.0]], np.float32)
    hidden = np.array([[False, False, True], [False, False, False]])
    hm.set_matrix(
        data,
        ["q0", "q1"],
        ["a-very-long-token", "k1", "k2"],
        title="scores [2×3]",
        kind="diverging",
        hidden=hidden,
    )
    widget.show()
    assert hm.levels == (-2.0, 2.0)  # centred at 0, rounded up to 2 digits
    assert hm.image.levels.tolist() == [-2.0, 2.0]
    assert hm.overlay.isVisible()
    assert short_label("a-very-long-token") == "a-very-lo…"
    assert (0, "a-very-lo…") in hm.col_ticks
    assert hm.cell_text(0, 1) == "q0, k1: -2.0"
    assert format_value(np.float32(0.1)) == "0.1"
    hm.set_show_values(True)
    assert isinstance(hm.values, ValueLabels) and hm.values._data is not None
    widget.grab()  # values painted in one pass, no per-cell items
    assert sum(isinstance(i, pg.TextItem) for i in hm.plot.items) == 0
