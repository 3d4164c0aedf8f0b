"""The zoomed region of a large matrix: its arithmetic, its pictures, the state and sessions."""

import json

import numpy as np
import pytest

from explorer.appstate import matrix_zoom as mz
from explorer.appstate.display import Difference, reduce_blocks, reduce_for_display, region_picture
from explorer.appstate.matrix_zoom import Region
from explorer.appstate.session import SessionError, apply_session, session_from_dict, session_of
from explorer.appstate.state import ExplorerState


def test_zooming_keeps_the_cell_under_the_point_and_stays_inside_the_matrix():
    n_rows, n_cols = 2048, 1000
    region = None
    for _ in range(12):  # zoom in about a point a third down, a fifth across
        before = mz.shown(region, n_rows, n_cols)
        cell = (before.top + int(before.rows / 3), before.left + int(before.cols / 5))
        region = mz.zoom(region, n_rows, n_cols, mz.WHEEL_STEP, (1 / 3, 1 / 5))
        after = mz.shown(region, n_rows, n_cols)
        assert after.rows < before.rows or after.rows == mz.MIN_SIDE
        # the cell a third down and a fifth across is (within a cell) the same one
        assert abs(after.top + after.rows / 3 - cell[0]) <= 1.5
        assert abs(after.left + after.cols / 5 - cell[1]) <= 1.5
        assert 0 <= after.top < after.bottom <= n_rows and 0 <= after.left < after.right <= n_cols
    for _ in range(40):  # never smaller than MIN_SIDE cells a side
        region = mz.zoom(region, n_rows, n_cols, 2.0)
    assert region.rows == region.cols == mz.MIN_SIDE
    for _ in range(80):  # back out: the whole matrix is None
        region = mz.zoom(region, n_rows, n_cols, 1 / mz.WHEEL_STEP, (0.9, 0.1))
    assert region is None


def test_panning_moves_by_whole_cells_and_stops_at_the_edges():
    region = Region(100, 200, 300, 350)
    assert mz.pan(region, 1000, 1000, 10.4, -20.6) == Region(110, 210, 279, 329)
    assert mz.pan(region, 1000, 1000, -500, 5000) == Region(0, 100, 950, 1000)
    assert mz.pan(None, 1000, 1000, 10, 10) is None  # the whole matrix does not move
    assert mz.pan_step(region, 1000, 1000, 1, 0) == Region(125, 225, 300, 350)
    assert mz.pan_step(region, 1000, 1000, 0, -1) == Region(100, 200, 288, 338)


def test_a_region_follows_a_new_input_as_far_as_the_matrix_reaches():
    region = Region(1500, 1800, 100, 400)
    assert mz.clamp(region, 2048, 2048) == region
    assert mz.clamp(region, 1000, 2048) == Region(700, 1000, 100, 400)  # shorter: moved in
    assert mz.clamp(region, 200, 300) is None  # the whole of a small matrix
    assert mz.shown(None, 5, 7) == Region(0, 5, 0, 7)
    with pytest.raises(ValueError):
        Region(5, 5, 0, 1)
    with pytest.raises(ValueError):
        Region(-1, 5, 0, 1)
    with pytest.raises(ValueError):
        Region.from_list([0, 1, 2])


def test_the_keys_zoom_about_the_selected_cell_while_it_is_in_view():
    region = mz.zoom_about_cell(None, 1000, 1000, 2.0, (900, 100))
    assert region.contains(900, 100) and region.rows == 500
    assert region.top + region.rows * 0.9 == pytest.approx(900.5, abs=1)
    outside = mz.zoom_about_cell(Region(0, 100, 0, 100), 1000, 1000, 2.0, (900, 900))
    assert outside == Region(25, 75, 25, 75)  # a cell out of view: the middle


def test_blocks_are_aligned_and_as_small_as_the_screen_allows():
    region = Region(1001, 1301, 905, 1205)  # 300 × 300 cells
    b = mz.blocks_for(region, 2048, 2048, px_rows=600, px_cols=800)
    assert b.exact and (b.row0, b.col0, b.rows, b.cols) == (1001, 905, 300, 300)
    b = mz.blocks_for(region, 2048, 2048, px_rows=100, px_cols=140)
    assert (b.fr, b.fc) == (3, 3) and b.row0 % 3 == 0 and b.col0 % 3 == 0
    assert b.row0 <= region.top and b.row0 + b.rows * b.fr >= region.bottom
    x, y, w, h = b.source(region)
    assert (x, y, w, h) == ((905 - b.col0) / 3, (1001 - b.row0) / 3, 100, 100)
    edge = mz.blocks_for(Region(0, 2048, 0, 2047), 2048, 2047, 600, 600)  # not whole blocks
    assert edge.row0 == 0 and edge.rows == -(-2048 // edge.fr) and edge.cols == -(-2047 // edge.fc)


def test_a_region_picture_is_the_cells_themselves_or_their_blocks():
    rng = np.random.default_rng(3)
    data = rng.standard_normal((700, 500)).astype(np.float32)
    region = Region(123, 223, 77, 157)
    exact = region_picture(data, mz.blocks_for(region, 700, 500, 400, 400), "maxabs")
    np.testing.assert_array_equal(exact, data[123:223, 77:157])
    blocks = mz.blocks_for(region, 700, 500, 30, 30)
    picture = region_picture(data, blocks, "maxabs")
    part = data[
        blocks.row0 : blocks.row0 + blocks.rows * blocks.fr,
        blocks.col0 : blocks.col0 + blocks.cols * blocks.fc,
    ]
    for r in range(blocks.rows):  # written out: the value of largest magnitude of each block
        for c in range(blocks.cols):
            block = part[r * blocks.fr : (r + 1) * blocks.fr, c * blocks.fc : (c + 1) * blocks.fc]
            assert picture[r, c] == block.flat[np.abs(block).argmax()]
    # the same reduction as the whole matrix's picture, for the whole matrix
    np.testing.assert_array_equal(reduce_blocks(data, 3, 2, "max"), reduce_for_display(data, 250, "max"))
    # a lazy difference reads only the region
    a, b = data, data * 2
    lazy = region_picture(Difference(b, a), mz.blocks_for(region, 700, 500, 400, 400), "maxabs")
    np.testing.assert_array_equal(lazy, (b - a)[123:223, 77:157])


def test_the_zoom_is_state_and_a_session_keeps_it():
    state = ExplorerState()
    seen = []
    state.subscribe(lambda event, _: seen.append(event), ("matrix_zoom",))
    state.set_matrix_zoom(Region(10, 50, 20, 60))
    assert seen == ["matrix_zoom"] and state.matrix_zoom == Region(10, 50, 20, 60)
    with pytest.raises(ValueError):
        state.set_matrix_zoom((10, 50, 20, 60))
    state.clamp_to(heads=1, n_query=30, n_key=100)  # a shorter input: the view moves inside it
    assert state.matrix_zoom == Region(0, 30, 20, 60)
    data = session_of(state)
    again = ExplorerState()
    apply_session(again, session_from_dict(json.loads(data.to_json())))
    assert again.matrix_zoom == Region(0, 30, 20, 60)
    raw = json.loads(data.to_json())
    for bad in ([5, 5, 0, 1], [0, 1, 2], "all", [0, 1.5, 0, 2], [True, 2, 0, 1]):
        raw["matrix_zoom"] = bad
        with pytest.raises(SessionError, match="matrix_zoom"):
            session_from_dict(raw)
    raw["matrix_zoom"] = None
    assert session_from_dict(raw).matrix_zoom is None
    del raw["matrix_zoom"]  # files written before it open with the whole matrix
    assert session_from_dict(raw).matrix_zoom is None
