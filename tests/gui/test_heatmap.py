"""The lean heatmap: labels that read, colours and legend from one table, masks, values,
hover and clicks, and pictures painted from data without a widget."""

import numpy as np
import pytest
from PySide6 import QtCore, QtGui

from explorer.gui.heatmap import (
    Figure,
    MatrixCanvas,
    MatrixPanel,
    Style,
    cell_value_text,
    colour_map_for,
    format_value,
    render_image,
    render_svg,
    symmetric_levels,
)
from explorer.gui.heatmap import labels as axis
from explorer.gui.heatmap.colours import colour_indices
from explorer.gui.heatmap.figure import layout_figure

from .helpers import click_cell, hover_cell, pixels

TOKENS = "[CLS] the animal didn ' t cross the street because it was too tired [SEP]".split()


def weights(n: int, seed: int = 0) -> np.ndarray:
    w = np.random.default_rng(seed).random((n, n)).astype(np.float32)
    return w / w.sum(axis=1, keepdims=True)


def canvas_with(qtbot, figure: Figure, size=(1000, 700)) -> MatrixCanvas:
    canvas = MatrixCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(*size)
    canvas.set_figure(figure)
    canvas.show()
    qtbot.waitExposed(canvas)
    return canvas


def test_every_token_is_labelled_where_it_fits_and_heads_label_the_same_tokens(qtbot):
    panels = [
        MatrixPanel(weights(15, h), TOKENS, TOKENS, title=f"head {h}", kind="weights", role="qk")
        for h in range(12)
    ]
    canvas = canvas_with(qtbot, Figure(panels, columns=4, shared_bar=True), size=(1600, 900))
    boxes = canvas.current_layout().boxes
    for box in boxes:  # room enough: every row and every column carries its token
        assert box.rows.indices == tuple(range(15)) and box.cols.indices == tuple(range(15))
        assert list(box.rows.texts) == TOKENS
    # a smaller canvas: not every label fits, and all heads label the same tokens
    canvas.resize(700, 420)
    boxes = canvas.current_layout().boxes
    assert boxes[0].rows.stride > 1
    assert len({(b.rows.indices, b.cols.indices) for b in boxes}) == 1
    assert {b.plot.size().toTuple() for b in boxes} == {boxes[0].plot.size().toTuple()}


def test_labels_never_overlap_and_long_tokens_are_elided(qtbot):
    font = axis.LabelFont(QtGui.QFont())
    long = ["a-very-long-token-indeed-and-more", "k1", "k2"] + [f"w{i}" for i in range(200)]
    rows = axis.token_rows(font, long, cell_px=3.0)
    spacing = rows.stride * 3.0
    assert spacing >= font.line  # a line apart at least
    assert rows.texts[0].endswith("…") and font.width(rows.texts[0]) <= font.max_label + 0.5
    cols = axis.token_columns(font, long, cell_px=3.0)
    assert cols.rotated and cols.stride * 3.0 >= font.line
    wide = axis.token_columns(font, ["a", "b", "c"], cell_px=60.0)
    assert not wide.rotated and wide.indices == (0, 1, 2)  # horizontal only when all fit
    # single characters (a date's 年, 月, ␣) stay upright where not all fit, a label apart
    chars = list("2018年5月9日星期三")
    narrow = axis.token_columns(font, chars, cell_px=font.width("年"))  # no room for the gap
    assert not narrow.rotated and narrow.stride == 2 and narrow.texts[:3] == ("2", "1", "年")
    numbered = axis.numbered(font, 384, cell_px=1.0, vertical=False)
    assert (
        numbered.indices[:3] == (0, numbered.stride, 2 * numbered.stride)
        and numbered.stride in axis.ROUND_STEPS
    )


def test_labels_stay_clear_of_the_title_and_of_each_other(qtbot):
    panel = MatrixPanel(
        weights(15), TOKENS, TOKENS, title="weights = softmax(masked)  [15×15]", kind="weights"
    )
    style = Style.make(13)
    layout = layout_figure(QtCore.QRectF(0, 0, 300, 260), Figure([panel]), style)
    box = layout.boxes[0]
    font = style.labels
    cell_h = box.plot.height() / 15
    tops = [box.plot.top() + (i + 0.5) * cell_h - font.line / 2 for i in box.rows.indices]
    assert all(b - a >= font.line - 1e-6 for a, b in zip(tops, tops[1:]))
    assert box.title.bottom() <= box.plot.top() - font.line / 2 + 1e-6  # room for the first label


def test_colour_bar_uses_the_cells_table_and_levels(qtbot):
    data = np.array([[-2.0, 0.0, 2.0], [1.0, -1.0, 0.5]], np.float32)
    panel = MatrixPanel(data, ["q0", "q1"], ["k0", "k1", "k2"], title="scores", kind="diverging")
    assert panel.levels == (-2.0, 2.0) and symmetric_levels(np.array([1.3])) == (-1.5, 1.5)
    canvas = canvas_with(qtbot, Figure([panel]), size=(500, 400))
    image = pixels(canvas.grab().toImage())
    box = canvas.current_layout().boxes[0]
    cmap = colour_map_for("diverging")
    for (r, c), value in np.ndenumerate(data):
        centre = canvas.cell_centre(0, r, c)
        cell = tuple(image[int(centre.y()), int(centre.x())])
        assert cell == cmap.rgb((value + 2.0) / 4.0)  # the cell: the table at the value
        frac = (value + 2.0) / 4.0
        y = int(box.bar.bottom() - frac * box.bar.height())
        y = min(max(y, int(box.bar.top()) + 1), int(box.bar.bottom()) - 1)
        bar = image[y, int(box.bar.center().x())].astype(int)
        assert np.abs(bar - np.array(cell)).max() <= 12  # the legend: the same table and levels


def test_masked_cells_are_hatched_and_values_printed_on_the_visible_ones(qtbot):
    data = weights(6)
    hidden = ~np.tril(np.ones((6, 6), bool))
    panel = MatrixPanel(data, TOKENS[:6], TOKENS[:6], kind="weights", hidden=hidden, role="qk")
    canvas = canvas_with(qtbot, Figure([panel]), size=(600, 600))
    image = pixels(canvas.grab().toImage())
    box = canvas.current_layout().boxes[0]
    cw = box.plot.width() / 6
    x0, y0 = int(box.plot.left() + 4 * cw + 2), int(box.plot.top() + 2)  # row 0, column 4: hidden
    block = image[y0 : y0 + int(cw) - 4, x0 : x0 + int(cw) - 4].reshape(-1, 3)
    colours = {tuple(p) for p in block}
    assert len(colours) >= 2  # the grey fill and the darker hatching
    assert all(abs(int(c[0]) - int(c[1])) < 10 and abs(int(c[1]) - int(c[2])) < 10 for c in colours)  # grey
    before = image.copy()
    canvas.set_show_values(True)
    after = pixels(canvas.grab().toImage())
    centre = canvas.cell_centre(0, 2, 1)
    around = (
        slice(int(centre.y()) - 5, int(centre.y()) + 5),
        slice(int(centre.x()) - 12, int(centre.x()) + 12),
    )
    assert not np.array_equal(before[around], after[around])  # digits drawn on the visible cell
    hidden_cell = canvas.cell_centre(0, 0, 4)
    around = (
        slice(int(hidden_cell.y()) - 5, int(hidden_cell.y()) + 5),
        slice(int(hidden_cell.x()) - 12, int(hidden_cell.x()) + 12),
    )
    assert np.array_equal(before[around], after[around])  # a masked cell stays hatched: no "0" on it
    assert cell_value_text(0.0712, unit=True) == ".07" and cell_value_text(-0.25) == "-0.25"


def test_hover_reads_the_exact_value_and_click_reports_the_cell(qtbot):
    data = np.array([[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]], np.float32)
    panel = MatrixPanel(data, ["q0", "q1"], ["k0", "k1", "k2"], title="w", kind="weights", role="qk")
    canvas = canvas_with(qtbot, Figure([panel]), size=(400, 300))
    seen = []
    canvas.hovered.connect(lambda *a: seen.append(a))
    hover_cell(qtbot, canvas, 0, 1, 2)
    assert seen[-1] == (0, 1, 2)
    assert panel.cell_text(1, 2) == f"q1, k2: {format_value(np.float32(0.4))}" == "q1, k2: 0.4"
    with qtbot.waitSignal(canvas.clicked) as blocker:
        click_cell(qtbot, canvas, 0, 0, 2)
    assert blocker.args == [0, 0, 2]
    assert panel.selection_of(0, 2) == (0, 2)


def test_reduced_pictures_map_clicks_to_the_full_matrix(qtbot):
    full = np.arange(600 * 600, dtype=np.float32).reshape(600, 600)
    picture = full[::3, ::3]
    panel = MatrixPanel(full, None, None, picture=picture, kind="diverging", role="qk")
    assert panel.reduced and not panel.values_printable
    canvas = canvas_with(qtbot, Figure([panel]), size=(500, 500))
    box = canvas.current_layout().boxes[0]
    hit = canvas.cell_at(QtCore.QPointF(box.plot.right() - 0.5, box.plot.bottom() - 0.5))
    assert hit == (0, 599, 599)


def test_pictures_are_painted_from_data_without_a_widget(tmp_path):
    panels = [
        MatrixPanel(weights(15, h), TOKENS, TOKENS, title=f"head {h}", kind="weights") for h in range(4)
    ]
    figure = Figure(panels, columns=2, shared_bar=True)
    image = render_image(figure, Style.make(12), QtCore.QSize(600, 500), scale=2)
    assert (image.width(), image.height()) == (1200, 1000)
    assert len(np.unique(pixels(image).reshape(-1, 3), axis=0)) > 50
    path = tmp_path / "figure.svg"
    render_svg(figure, Style.make(12), QtCore.QSize(600, 500), str(path), "test")
    text = path.read_text(encoding="utf-8")
    assert "<svg" in text and "animal" in text  # labels are text in the SVG


def test_an_image_with_an_attention_overlay(qtbot):
    rgb = np.zeros((32, 32, 3), np.uint8)
    rgb[..., 0] = 255  # a red picture
    attention = np.zeros((4, 4), np.float32)
    attention[1, 2] = 1.0
    panel = MatrixPanel(attention, None, None, kind="weights", background=rgb, overlay_alpha=0.5)
    image = pixels(panel.image)
    assert image.shape == (32, 32, 3)
    assert tuple(image[0, 0]) != tuple(image[12, 20])  # the attended block differs
    assert image[0, 0, 0] > 100  # the picture shows through


@pytest.mark.parametrize("levels", [(0.0, 1.0), (-3.0, 3.0)])
def test_colour_indices_map_the_levels_to_the_table_ends(levels):
    lo, hi = levels
    values = np.array([lo, (lo + hi) / 2, hi, np.nan, np.inf, -np.inf], np.float32)
    idx = colour_indices(values, levels)
    assert idx[0] == 0 and idx[2] == 255 and idx[1] in (127, 128)
    assert idx[4] == 255 and idx[5] == 0
