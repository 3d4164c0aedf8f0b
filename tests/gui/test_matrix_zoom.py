"""Zooming into a large attention matrix: every cell of the region as it is, hover and clicks
on the right (query, key) at every zoom, the labels of the cells shown, pan, reset, export."""

from dataclasses import replace

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate import matrix_zoom as mz
from explorer.appstate.display import reduce_for_display
from explorer.appstate.matrix_zoom import Region
from explorer.core.config import AttentionConfig
from explorer.gui.heatmap import Figure, MatrixCanvas, MatrixPanel, colour_map_for, format_value, render_image
from explorer.gui.heatmap.colours import colour_indices
from explorer.gui.heatmap.figure import layout_figure, paint_figure, text_places
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS, click_cell, hover_cell, pixels, wait_trace
from .projector_check import all_problems

N = 2048
WORDS = " ".join(f"w{i}" for i in range(N))
CTRL = QtCore.Qt.KeyboardModifier.ControlModifier
NONE = QtCore.Qt.KeyboardModifier.NoModifier
LEFT = QtCore.Qt.MouseButton.LeftButton


def wheel(canvas, pos: QtCore.QPointF, notches: float, mods=CTRL) -> None:
    event = QtGui.QWheelEvent(
        pos,
        canvas.mapToGlobal(pos),
        QtCore.QPoint(),
        QtCore.QPoint(0, int(120 * notches)),
        QtCore.Qt.MouseButton.NoButton,
        mods,
        QtCore.Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QtWidgets.QApplication.sendEvent(canvas, event)


def mouse(canvas, kind, pos: QtCore.QPointF, button=LEFT, buttons=LEFT) -> None:
    event = QtGui.QMouseEvent(kind, pos, canvas.mapToGlobal(pos), button, buttons, NONE)
    QtWidgets.QApplication.sendEvent(canvas, event)


def drag(canvas, start: QtCore.QPointF, end: QtCore.QPointF) -> None:
    T = QtCore.QEvent.Type
    mouse(canvas, T.MouseButtonPress, start)
    for k in range(1, 5):
        mouse(canvas, T.MouseMove, start + (end - start) * (k / 4), QtCore.Qt.MouseButton.NoButton)
    mouse(canvas, T.MouseButtonRelease, end, LEFT, QtCore.Qt.MouseButton.NoButton)


def settled(qtbot, canvas, panel) -> None:
    """Until the zoomed picture of the region on screen is computed and painted."""

    def ready():
        box = canvas.box(canvas.panels.index(panel))
        assert box.region is not None
        canvas.repaint()  # asks for the picture of the region shown
        latest = canvas.pictures.latest(panel)
        assert latest is not None and latest.view.region == box.region

    qtbot.waitUntil(ready, timeout=WAIT_MS)


def table_rgb(kind: str, levels, value) -> tuple[int, int, int]:
    """The colour the table gives a value (the cells' own lookup, written for one value)."""
    v = int(colour_map_for(kind).argb[colour_indices(np.array([value], np.float32), levels)[0]])
    return (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF


def colour(canvas, image, index, r, c):
    centre = canvas.cell_centre(index, r, c)
    return tuple(int(v) for v in image[int(centre.y()), int(centre.x())])


def test_zoomed_weights_of_2048_tokens_show_each_cell_and_map_hover_and_clicks(qtbot, make_window):
    config = AttentionConfig(
        sentence=WORDS, weights="random", heads=1, d_model=16, mask="causal", max_tokens=N
    )
    w = make_window(config, size=(1400, 900))
    trace = wait_trace(qtbot, w, sentence=WORDS)
    assert trace.n_query == trace.n_key == N
    w.state.set_stage_zoom(("weights",))  # the one stage, large
    p = w.pipeline
    canvas, index = p.canvas, p.index("weights")
    qtbot.waitUntil(lambda: canvas.height() <= p.scroll.viewport().height())
    panel = canvas.panels[index]
    assert panel.reduced and not p.zoom_bar.isVisible()
    weights = trace.weights[0]

    # Ctrl + the wheel over cell (1500, 700): about it, until each cell has pixels of its own
    target = (1500, 700)
    for _ in range(12):
        wheel(canvas, canvas.cell_centre(index, *target), 1)
    region = w.state.matrix_zoom
    box = canvas.box(index)
    assert region is not None and region.contains(*target)
    assert region.rows <= box.plot.height() and region.cols <= box.plot.width()
    assert p.zoom_bar.isVisible() and f"of {N}" in p.zoom_bar.caption.toolTip()
    caption = p.zoom_bar.caption
    assert (
        caption.text() == f"queries {region.top}–{region.bottom - 1}, keys {region.left}–{region.right - 1}"
    )
    assert caption.width() >= caption.fontMetrics().horizontalAdvance(caption.text())  # shown whole
    settled(qtbot, canvas, panel)
    image = pixels(canvas.grab().toImage())
    differs = 0
    for r in range(region.top + 1, region.bottom, 7):
        for c in range(region.left, min(region.right, r + 1), 5):  # visible keys (causal)
            assert colour(canvas, image, index, r, c) == table_rgb("weights", (0.0, 1.0), weights[r, c]), (
                r,
                c,
            )
            block = weights[r // 8 * 8 : r // 8 * 8 + 8, c // 8 * 8 : c // 8 * 8 + 8]
            differs += table_rgb("weights", (0.0, 1.0), block.max()) != table_rgb(
                "weights", (0.0, 1.0), weights[r, c]
            )
    assert differs > 20  # the cells themselves, not the maxima of blocks
    # the whole matrix's picture at the same point was a block's maximum
    assert canvas.pictures.latest(panel).blocks.exact

    # hover and click name the cell under the mouse, exactly
    for r, c in ((region.top, region.left), (region.bottom - 1, region.left + 3), target):
        hover_cell(qtbot, canvas, index, r, c)
        text = p.hover_label.text()
        assert f"{trace.tokens_query[r]}, {trace.tokens_key[c]}: " in text
        assert text.endswith(format_value(weights[r, c])), (text, r, c)
        click_cell(qtbot, canvas, index, r, c)
        assert w.state.selected_cell == (r, c)

    # a drag moves the view with the mouse and selects nothing
    before, selected = w.state.matrix_zoom, w.state.selected_cell
    assert canvas.box(index).plot == box.plot  # the zoom bar and the hover line move no plot
    start = box.plot.center()
    end = start + QtCore.QPointF(-120, 60)
    drag(canvas, start, end)
    expected = mz.pan(
        before, N, N, -60 * before.rows / box.plot.height(), 120 * before.cols / box.plot.width()
    )
    assert w.state.matrix_zoom == expected != before and w.state.selected_cell == selected
    settled(qtbot, canvas, panel)
    image = pixels(canvas.grab().toImage())
    region = w.state.matrix_zoom
    r, c = region.bottom - 2, region.left + 2
    assert colour(canvas, image, index, r, c) == table_rgb("weights", (0.0, 1.0), weights[r, c])

    # keys: Shift + → moves a quarter of the view, − zooms out, 0 shows the whole matrix
    canvas.setFocus()
    qtbot.keyClick(canvas, QtCore.Qt.Key.Key_Right, QtCore.Qt.KeyboardModifier.ShiftModifier)
    assert w.state.matrix_zoom == mz.pan_step(region, N, N, 0, 1)
    qtbot.keyClick(canvas, QtCore.Qt.Key.Key_Minus)
    assert w.state.matrix_zoom.rows == pytest.approx(region.rows * 2, abs=1)
    qtbot.keyClick(canvas, QtCore.Qt.Key.Key_0)
    assert w.state.matrix_zoom is None and canvas.box(index).region is None
    assert not p.zoom_bar.isVisible()
    # the bar's button does the same; + zooms about the selected cell
    qtbot.keyClick(canvas, QtCore.Qt.Key.Key_Plus)
    assert w.state.matrix_zoom.contains(*w.state.selected_cell) and w.state.matrix_zoom.rows == N // 2
    p.zoom_bar.whole.click()
    assert w.state.matrix_zoom is None


def test_export_of_a_zoomed_stage_shows_its_region_and_says_which(qtbot, make_window):
    n = 600
    words = " ".join(f"w{i}" for i in range(n))
    config = AttentionConfig(sentence=words, weights="random", heads=1, d_model=16, max_tokens=n)
    w = make_window(config, size=(1400, 900))
    trace = wait_trace(qtbot, w, sentence=words)
    region = Region(100, 140, 300, 340)
    w.state.set_matrix_zoom(region)
    figure, size = w.exporter.sources()["pipeline:weights"].make()
    assert figure.zoom == region
    image = render_image(figure, w.context.style(), size, scale=1)
    layout = layout_figure(QtCore.QRectF(0, 0, size.width(), size.height()), figure, w.context.style())
    box = layout.boxes[0]
    assert "queries 100–139 of 600, keys 300–339 of 600" in box.title_text
    shown = pixels(image)
    for r, c in ((100, 300), (139, 339), (120, 333)):
        centre = box.cell_rect(figure.panels[0].shape, r, c).center()
        drawn = tuple(int(v) for v in shown[int(centre.y()), int(centre.x())])
        assert drawn == table_rgb("weights", (0.0, 1.0), trace.weights[0, r, c])
    assert [t.text for t in text_places(layout, figure, w.context.style()) if t.kind == "row"][
        0
    ] == trace.tokens_query[100]


def random_panel(n: int, kind: str = "weights", seed: int = 0, causal: bool = True) -> MatrixPanel:
    rng = np.random.default_rng(seed)
    data = rng.random((n, n), dtype=np.float32)
    mask = np.tril(np.ones((n, n), bool)) if causal else np.ones((n, n), bool)
    data = np.where(mask, data, 0).astype(np.float32)
    tokens = [f"token{i}" for i in range(n)]
    picture = reduce_for_display(data, 256, "max")
    hidden = reduce_for_display(~mask, 256, "all") if n > 256 else ~mask
    return MatrixPanel(
        data,
        tokens,
        tokens,
        title="weights",
        kind=kind,
        role="qk",
        picture=None if picture is data else picture,
        hidden=hidden,
        visible=mask,
    )


@pytest.mark.parametrize("n", [120, 2048])
def test_hover_and_clicks_name_the_drawn_cell_at_every_zoom(qtbot, n):
    panel = random_panel(n, seed=n)
    canvas = MatrixCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(900, 700)
    canvas.set_figure(Figure([panel], zoomable=True))
    canvas.show()
    qtbot.waitExposed(canvas)
    clicks = []
    canvas.clicked.connect(lambda i, r, c: clicks.append((r, c)))
    rng = np.random.default_rng(1)
    for step in range(9):
        plot = canvas.box(0).plot
        at = QtCore.QPointF(plot.left() + plot.width() * 0.6, plot.top() + plot.height() * 0.3)
        wheel(canvas, at, 1 if step < 7 else -1)
        region = mz.shown(canvas.figure.zoom, n, n)
        box = canvas.box(0)
        if panel.reduced:
            settled(qtbot, canvas, panel)
        image = pixels(canvas.grab().toImage())
        exact = region.rows <= box.plot.height() and region.cols <= box.plot.width()
        for _ in range(40):  # the mouse at a pixel: the cell it names is the cell drawn there
            x = int(box.plot.left() + rng.integers(0, int(box.plot.width())))
            y = int(box.plot.top() + rng.integers(0, int(box.plot.height())))
            hit = canvas.cell_at(QtCore.QPointF(x, y))
            assert hit is not None and region.contains(hit[1], hit[2])
            _, r, c = hit
            assert box.cell_rect(panel.shape, r, c).contains(QtCore.QPointF(x, y))
            if exact and c <= r:  # every cell has pixels of its own: its colour is its value
                assert tuple(int(v) for v in image[y, x]) == table_rgb(
                    "weights", (0.0, 1.0), panel.data[r, c]
                )
        point = canvas.cell_centre(0, region.top + 1, region.left + 2).toPoint()
        qtbot.mouseClick(canvas, LEFT, pos=point)
        assert clicks[-1] == canvas.cell_at(QtCore.QPointF(point))[1:]  # the cell under the mouse
        if exact:  # cells of a pixel or more: the one aimed at
            assert clicks[-1] == (region.top + 1, region.left + 2)


def test_labels_appear_when_zoomed_in_and_never_overlap(qtbot):
    panel = random_panel(N)
    canvas = MatrixCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(1000, 760)
    canvas.set_figure(Figure([panel], zoomable=True))
    canvas.show()
    qtbot.waitExposed(canvas)
    whole = canvas.box(0)
    assert whole.rows.stride > 1 and whole.cols.stride > 1  # 2,048 tokens: every k-th

    def check(region: Region | None) -> tuple:
        canvas.set_zoom(region)
        box = canvas.box(0)
        places = text_places(canvas.current_layout(), canvas.figure, canvas.style_)
        area = QtCore.QRectF(canvas.rect()).adjusted(-1, -1, 1, 1)
        for i, a in enumerate(places):
            assert area.contains(a.rect), a
            for b in places[i + 1 :]:
                overlap = a.rect.intersected(b.rect)
                assert overlap.width() <= 0.5 or overlap.height() <= 0.5, (a, b)
        rows = [t.text for t in places if t.kind == "row"]
        cols = [t.text for t in places if t.kind == "col"]
        assert box.plot == whole.plot  # zooming never moves the plot
        return box, rows, cols

    box, rows, cols = check(Region(1000, 1020, 500, 520))  # 20 cells a side: every one
    assert rows == [f"token{i}" for i in range(1000, 1020)]
    assert cols == [f"token{i}" for i in range(500, 520)]
    box, rows, cols = check(Region(1000, 1010, 500, 510))  # cells wide enough: the labels lie flat
    assert cols == [f"token{i}" for i in range(500, 510)] and not box.cols.rotated
    box, rows, cols = check(Region(1000, 1100, 500, 600))  # 100 a side: every k-th, the same k
    assert 1 < box.rows.stride < whole.rows.stride and all(i % box.rows.stride == 0 for i in box.rows.indices)
    assert rows == [f"token{i}" for i in box.rows.indices] and box.cols.rotated
    panned, _, _ = check(Region(1003, 1103, 500, 600))  # panning labels the same tokens
    assert set(panned.rows.indices) >= {i for i in box.rows.indices if i >= 1003}
    check(None)
    # long tokens stay inside the room of the labels (elided)
    panel.rows = panel.cols = [f"a-very-long-token-number-{i}" for i in range(N)]
    canvas.set_figure(Figure([panel], zoomable=True))
    whole = canvas.box(0)
    box, rows, cols = check(Region(0, 12, 0, 12))
    assert len(rows) == 12 and all(t.endswith("…") for t in rows + cols)


def test_the_difference_map_zooms_to_the_exact_b_minus_a(qtbot, make_window):
    n = 300  # over the display limit: the pair is drawn from reduced pictures
    words = " ".join(f"w{i}" for i in range(n))
    w = make_window(AttentionConfig(sentence=words, weights="random", heads=1, d_model=16, max_tokens=n))
    wait_trace(qtbot, w, sentence=words)
    w.state.set_tab(Tab.COMPARE)
    view = w.view(Tab.COMPARE)
    qtbot.waitUntil(lambda: view.pair is not None and view.pair.key[0].sentence == words, timeout=WAIT_MS)
    canvas = view.canvas
    diff = canvas.panels[2]
    assert diff.reduced
    for _ in range(8):
        wheel(canvas, canvas.cell_centre(2, 150, 120), 1)
    region = w.state.matrix_zoom
    assert region is not None and canvas.box(0).region == region  # A, B and B − A alike
    settled(qtbot, canvas, diff)
    image = pixels(canvas.grab().toImage())
    a, b = view.pair.a.weights[0], view.pair.b.weights[0]
    for r, c in ((region.top, region.left), (150, 120), (region.bottom - 1, region.right - 1)):
        assert colour(canvas, image, 2, r, c) == table_rgb("diverging", diff.levels, b[r, c] - a[r, c])
    w.state.set_tab(Tab.PIPELINE)  # the same region in the pipeline's (query, key) stages
    qtbot.waitUntil(lambda: w.pipeline.canvas.box(w.pipeline.index("weights")).region == region)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_zoom_keys_leave_the_text_size_alone_and_the_zoomed_slide_reads_at_1024(qtbot, make_window, language):
    n = 300
    words = " ".join(f"w{i}" for i in range(n))
    w = make_window(AttentionConfig(sentence=words, weights="random", heads=1, d_model=16, max_tokens=n))
    wait_trace(qtbot, w, sentence=words)
    w.state.set_language(language)
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    w.state.set_stage_zoom(("weights",))
    w.state.select_cell((200, 50))
    w.classroom.focus_stage()
    QtWidgets.QApplication.processEvents()
    text_zoom = w.state.text_zoom
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Plus)  # no widget takes it: the matrix zooms
    assert w.state.matrix_zoom is not None and w.state.matrix_zoom.contains(200, 50)
    assert w.state.text_zoom == text_zoom
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Plus)
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Plus)
    qtbot.waitUntil(lambda: not w.worker.busy(), timeout=WAIT_MS)
    QtWidgets.QApplication.processEvents()
    assert all_problems(w) == []  # labels, the zoom bar and its button readable, nothing over another
    assert w.pipeline.zoom_bar.isVisible() and w.size() == QtCore.QSize(1024, 768)
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_0)
    assert w.state.matrix_zoom is None and w.state.text_zoom == text_zoom
    sheet = w.classroom.show_shortcuts()  # F1 names the matrix's keys
    keys = sheet.keys()
    assert any("Ctrl" in k and ("wheel" in k or "滚轮" in k) for k in keys)
    sheet.close()


def test_a_zoom_repaints_only_the_query_key_panels_and_leaves_the_rest_as_it_was(qtbot, make_window):
    """After a zoom the canvas repaints only the (query, key) panels' slots: painting just
    them over the picture of the old zoom gives the picture of the new one, pixel for pixel
    (nothing of another panel lies in their slots, nothing of theirs outside them)."""
    n = 300
    words = " ".join(f"w{i}" for i in range(n))
    config = AttentionConfig(
        sentence=words, weights="random", heads=1, d_model=16, mask="causal", max_tokens=n
    )
    w = make_window(config)
    wait_trace(qtbot, w, sentence=words)
    canvas = w.pipeline.canvas
    style, rect = canvas.style_, QtCore.QRectF(canvas.rect())

    def paint(zoom, image: QtGui.QImage, area: QtCore.QRect | None = None) -> QtGui.QImage:
        painter = QtGui.QPainter(image)
        if area is not None:
            painter.setClipRect(area)  # as Qt clips a paint event to its rectangle
        exposed = None if area is None else QtCore.QRectF(area)
        paint_figure(painter, rect, replace(canvas.figure, zoom=zoom), style, exposed=exposed)
        painter.end()
        return image

    def blank() -> QtGui.QImage:
        image = QtGui.QImage(canvas.size(), QtGui.QImage.Format.Format_RGB32)
        image.fill(style.bg)
        return image

    before, after = Region(100, 140, 30, 70), Region(200, 260, 150, 190)
    canvas.set_zoom(after)
    area = canvas.zoomed_area()
    assert sum(p.role == "qk" for p in canvas.panels) == 4 and len(canvas.panels) > 4
    assert 0 < area.height() < canvas.height()  # the other rows are not repainted
    whole = pixels(paint(after, blank()))
    old = paint(before, blank())
    assert not np.array_equal(pixels(old), whole)
    np.testing.assert_array_equal(pixels(paint(after, old, area)), whole)
