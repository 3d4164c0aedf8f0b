"""The lines view: which lines exist, how thick, what a click selects, and export."""

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.gui.lines_view import MAX_LINE_PX, MIN_WEIGHT, LinesView, segments, token_centres


def test_token_centres_split_the_width_evenly():
    assert token_centres(4, 0, 400).tolist() == [50, 150, 250, 350]
    assert token_centres(0, 0, 400).size == 0


def test_segments_are_as_thick_as_their_weights_and_light_ones_are_dropped():
    w = np.array([[0.7, 0.29, 0.01], [0.0, 0.5, 0.5]])
    lines = segments(w)
    assert [(s.row, s.col) for s in lines] == [(0, 1), (1, 1), (1, 2), (0, 0)]  # lightest first
    for s in lines:
        assert s.width_px == pytest.approx(MAX_LINE_PX * s.weight)
        assert s.weight >= MIN_WEIGHT
    # Focusing a token shows all its lines, light ones included, and no zero-weight line.
    focused = segments(w, focus_row=0)
    assert (0, 2) in {(s.row, s.col) for s in focused}
    assert (1, 0) not in {(s.row, s.col) for s in segments(w, focus_col=0)}


def test_segments_overlay_heads_and_keep_each_rows_heaviest_lines():
    rng = np.random.default_rng(0)
    w = rng.dirichlet(np.ones(40), size=(3, 5))  # 3 heads, 5 queries, 40 keys
    lines = segments(w)
    assert {s.head for s in lines} == {0, 1, 2}
    for h in range(3):
        for i in range(5):
            mine = [s for s in lines if s.head == h and s.row == i]
            assert len(mine) <= 12
            heaviest = sorted(w[h, i], reverse=True)[: len(mine)]
            assert sorted((s.weight for s in mine), reverse=True) == pytest.approx(heaviest)


def test_nan_and_inf_draw_nothing():
    assert segments(np.array([[np.nan, np.inf, 0.5]])) == [segments(np.array([[0, 0, 0.5]]))[0]]


@pytest.fixture
def view(qtbot):
    v = LinesView()
    qtbot.addWidget(v)
    v.resize(600, 260)
    v.show()
    top = ["the", "animal", "it", "tired"]
    bottom = ["the", "animal", "it", "tired"]
    w = np.array(
        [[0.7, 0.1, 0.1, 0.1], [0.1, 0.6, 0.2, 0.1], [0.05, 0.8, 0.1, 0.05], [0.25, 0.25, 0.25, 0.25]]
    )
    v.set_data(top, bottom, w, title="layer 5, head 11", captions=("query", "key"))
    return v


def test_clicking_a_query_selects_its_heaviest_key(qtbot, view):
    with qtbot.waitSignal(view.cellClicked) as signal:
        qtbot.mouseClick(view, QtCore.Qt.MouseButton.LeftButton, pos=view.token_point("top", 2))
    assert signal.args == [2, 1]  # "it" looks at "animal"
    with qtbot.waitSignal(view.cellClicked) as signal:
        qtbot.mouseClick(view, QtCore.Qt.MouseButton.LeftButton, pos=view.token_point("bottom", 0))
    assert signal.args == [0, 0]  # the query that looks at "the" most


def test_mismatched_weights_are_refused(view):
    with pytest.raises(ValueError):
        view.set_data(["a"], ["b", "c"], np.ones((2, 2)))


def test_export_draws_lines_and_writes_svg(view, tmp_path):
    image = view.render_image(800, 300)
    assert image.width() == 800
    pixels = {image.pixel(x, y) for x in range(0, 800, 7) for y in range(60, 240, 7)}
    assert len(pixels) > 5  # lines in several colours and alphas, not a blank background
    view.save_svg(str(tmp_path / "lines.svg"), 800, 300)
    text = (tmp_path / "lines.svg").read_text(encoding="utf-8")
    assert "<svg" in text and text.count("<polyline") + text.count("<path") + text.count("<line") >= 4
