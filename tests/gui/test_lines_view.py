"""The lines view: which lines exist, how thick, what a click selects, and export; and the
lines as a stage view of the Pipeline's weights and of the All-heads tab."""

import numpy as np
import pytest
from PySide6 import QtCore, QtGui

from explorer.appstate.lines import LinesOptions
from explorer.core.config import AttentionConfig
from explorer.gui import theme
from explorer.gui.lines_view import (
    MAX_LINE_PX,
    MIN_WEIGHT,
    LinesPicture,
    LinesView,
    label_stride,
    line_colour,
    segments,
    token_centres,
)
from explorer.gui.views.registry import Tab


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


def test_long_names_take_two_staggered_rows_and_stay_clickable(qtbot):
    v = LinesView()
    qtbot.addWidget(v)
    v.resize(300, 220)
    v.show()
    words = ["international", "cooperation", "between", "universities", "matters"]
    w = np.eye(5) * 0.9 + 0.02
    v.set_data(words, words, w / w.sum(axis=1, keepdims=True))
    geo = v.geometry_now()
    assert geo.y_top[0] != geo.y_top[1] and geo.y_top[0] == geo.y_top[2]  # two rows of names
    assert geo.y_bottom[0] != geo.y_bottom[1]
    for index in range(5):
        assert v.token_at(QtCore.QPointF(v.token_point("bottom", index))) == ("bottom", index)
        assert v.token_at(QtCore.QPointF(v.token_point("top", index))) == ("top", index)


def test_overlaid_heads_get_a_legend_and_their_own_colours(qtbot):
    # heads 0 and 9 would share a colour if it followed the head number (8 colours)
    v = LinesView()
    qtbot.addWidget(v)
    v.resize(700, 300)
    pic = LinesPicture.of(
        ["a", "b"], ["a", "b"], np.full((3, 2, 2), 0.5), [0, 4, 9], legend=("h0", "h4", "h9")
    )
    v.set_picture(pic)
    assert v.geometry_now().legend_y is not None
    image = v.render_image(700, 300)
    bottom = int(v.geometry_now().legend_y)
    colours = {
        QtGui.QColor(image.pixel(x, y)).name() for x in range(0, 700) for y in range(bottom - 20, bottom)
    }
    assert {line_colour(0).name(), line_colour(1).name(), line_colour(2).name()} <= colours  # three, not two


# -- as a stage view: the pipeline's weights and the All-heads tab -----------------------------------

SMALL = AttentionConfig(sentence="the cat sat on the mat", weights="random", d_model=32, heads=4)


@pytest.fixture
def small_window(make_window):
    return make_window(SMALL, size=(1400, 900))


def test_the_pipelines_weights_as_lines(qtbot, small_window):
    w = small_window
    t = w.trace
    box = w.pipeline.lines_box
    assert not box.isChecked() and not box.view.isVisible()
    qtbot.mouseClick(box, QtCore.Qt.MouseButton.LeftButton)
    assert w.state.lines.options.pipeline
    lines = box.view
    qtbot.waitUntil(lines.isVisible)
    slot = w.pipeline.canvas.box(w.pipeline.names.index("weights")).slot.toAlignedRect()
    assert lines.geometry() == slot  # in the weights' place
    np.testing.assert_array_equal(lines.picture.weights[0], t.weights[0])
    assert lines.picture.top == tuple(t.tokens_query) and lines.picture.bottom == tuple(t.tokens_key)
    # a click on a query selects its heaviest key, everywhere
    qtbot.mouseClick(lines, QtCore.Qt.MouseButton.LeftButton, pos=lines.token_point("top", 2))
    expected = (2, int(np.argmax(t.weights[0, 2])))
    assert w.state.selected_cell == expected and w.pipeline.canvas.figure.selection == expected
    # a click on the heatmaps selects in the lines too; the head follows the state
    w.state.select_cell((1, 3))
    assert lines.picture.selected == (1, 3)
    w.state.select_head(2)
    np.testing.assert_array_equal(lines.picture.weights[0], t.weights[2])
    # the stage zoom keeps it in the weights' place; another stage alone hides it
    w.state.set_stage_zoom(("weights",))
    qtbot.waitUntil(
        lambda: (
            lines.geometry() == w.pipeline.canvas.box(w.pipeline.names.index("weights")).slot.toAlignedRect()
        )
    )
    w.state.set_stage_zoom(("scores",))
    assert not lines.isVisible()
    w.state.set_stage_zoom(None)
    qtbot.mouseClick(box, QtCore.Qt.MouseButton.LeftButton)
    assert not w.state.lines.options.pipeline and not lines.isVisible()


def test_the_lines_use_the_looks_fonts(qtbot, small_window):
    w = small_window
    w.state.lines.set_pipeline(True)
    lines = w.pipeline.lines_box.view
    assert lines._font().pixelSize() == theme.look(w.state).figure_px
    w.classroom.set_presentation(True, fullscreen=False)
    w.state.set_stage_zoom(("weights",))
    # presentation text grows with the window (22 px at 1024×768), never under 20 px
    assert lines._font().pixelSize() == theme.look(w.state).figure_px >= 20
    w.state.set_theme("dark")
    assert lines._bg.name() == theme.PALETTES["dark"].plot_bg


def test_all_heads_overlaid_as_lines_or_a_few(qtbot, small_window):
    w = small_window
    t = w.trace
    heads = w.view(Tab.HEADS)
    w.state.set_tab("heads")
    qtbot.mouseClick(heads.lines_box.box, QtCore.Qt.MouseButton.LeftButton)
    assert w.state.lines.options.heads
    lines = heads.lines_box.view
    assert lines.isVisible() and not heads.canvas.isVisible()
    np.testing.assert_array_equal(lines.picture.weights, t.weights)
    assert lines.picture.heads == (0, 1, 2, 3) and lines.picture.legend == (
        "head 0",
        "head 1",
        "head 2",
        "head 3",
    )
    heads.lines_box._fill_menu()
    actions = [a for a in heads.lines_box.menu.actions() if a.isCheckable()]
    assert [a.text() for a in actions] == ["head 0", "head 1", "head 2", "head 3"] and all(
        a.isChecked() for a in actions
    )
    actions[1].trigger()  # leave head 1 out
    actions[3].trigger()  # and head 3
    assert w.state.lines.options.head_subset == (0, 2)
    np.testing.assert_array_equal(lines.picture.weights, t.weights[[0, 2]])
    assert lines.picture.heads == (0, 2)
    qtbot.mouseClick(lines, QtCore.Qt.MouseButton.LeftButton, pos=lines.token_point("bottom", 1))
    summed = t.weights[[0, 2]].sum(axis=0)
    assert w.state.selected_cell == (int(np.argmax(summed[:, 1])), 1)
    qtbot.mouseClick(heads.lines_box.box, QtCore.Qt.MouseButton.LeftButton)
    assert heads.canvas.isVisible() and not lines.isVisible()


def test_lines_are_saved_with_the_session_and_exported(qtbot, small_window, tmp_path):
    w = small_window
    w.state.lines.set_pipeline(True)
    w.state.lines.set_heads(True)
    w.state.lines.set_head_subset((1, 2))
    path = tmp_path / "lines.aexp.json"
    assert w.files.save(path)
    w.state.lines.set_options(LinesOptions())
    assert w.files.open(path)
    assert w.state.lines.options == LinesOptions(True, True, (1, 2))
    assert w.pipeline.lines_box.isChecked()
    x = w.exporter
    for name in ("pipeline:weights:lines", "heads:lines"):
        stem = name.replace(":", "_")
        assert x.export_panel(name, tmp_path / f"{stem}.png") is None, x.message
        image = QtGui.QImage(str(tmp_path / f"{stem}.png"))
        assert image.width() == 2 * 1200  # exported pictures are twice their size, for slides
        assert (
            len(
                {
                    image.pixel(x_, y)
                    for x_ in range(0, image.width(), 23)
                    for y in range(0, image.height(), 23)
                }
            )
            > 5
        )
        assert x.export_panel(name, tmp_path / f"{stem}.svg") is None, x.message
        text = (tmp_path / f"{stem}.svg").read_text(encoding="utf-8")
        assert "<svg" in text and "cat" in text and "mat" in text  # the tokens, as text
    assert "head 1" in (tmp_path / "heads_lines.svg").read_text(encoding="utf-8")  # the legend


def test_a_long_input_names_every_kth_token(qtbot):
    v = LinesView()
    qtbot.addWidget(v)
    v.resize(600, 240)
    n = 300
    w = np.full((n, n), 1.0 / n)
    w[:, 7] += 0.5
    v.set_data([f"t{i}" for i in range(n)], [f"t{i}" for i in range(n)], w / w.sum(axis=1, keepdims=True))
    metrics = QtGui.QFontMetricsF(v._font())
    stride = label_stride(n, v.geometry_now().right - v.geometry_now().left, metrics)
    assert stride > 1 and label_stride(4, 500, metrics) == 1
    assert len(segments(v.picture.weights)) <= 100  # one line a row at most, of 300 rows: a budget
    image = v.render_image(600, 240)
    assert not image.isNull()
