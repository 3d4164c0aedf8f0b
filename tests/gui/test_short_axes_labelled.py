"""Every row and column of a short axis (up to 16 tokens) is labelled, at a 1024×768 projector
in presentation mode with the lesson open, in both languages (trial 6 T3): the All-heads grid
of "qwertzuiqwertz" labelled 7 of its 14 tokens ("q e t u q e t"), and the translation lab's
alignment map 5 of its 10 source characters ("9 m i 2 1"). Where the figure's font is too large
for the cells, the labels take a smaller one, never below MIN_LABEL_PX, and never overlap.
"""

from __future__ import annotations

import html

import pytest
from PySide6 import QtGui, QtWidgets

from explorer.appstate.bundled_decoders import REPEATED
from explorer.appstate.lesson import STEPS
from explorer.gui.heatmap import MatrixCanvas
from explorer.gui.heatmap import labels as axis
from explorer.gui.heatmap.figure import Style, text_places

from .helpers import WAIT_MS, wait_trace
from .test_labs_at_a_projector import present, translation_steps


def unlabelled(canvas: MatrixCanvas) -> list:
    """(panel, axis, labelled, cells) of every short axis of the canvas not labelled whole:
    a shared axis is labelled beside its grid's first column (rows) or under its last row."""
    figure = canvas.figure
    layout = canvas.current_layout()
    out = []
    for box in layout.boxes:
        panel = canvas.panels[box.index]
        n_rows, n_cols = panel.shape
        if (
            (box.draw_rows or not figure.shared_axes)
            and panel.rows is not None
            and n_rows <= axis.ALL_LABELLED
        ):
            if len(box.rows) < n_rows:
                out.append((panel.name or panel.title, "rows", len(box.rows), n_rows))
        if (
            (box.draw_cols or not figure.shared_axes)
            and panel.cols is not None
            and n_cols <= axis.ALL_LABELLED
        ):
            if len(box.cols) < n_cols:
                out.append((panel.name or panel.title, "cols", len(box.cols), n_cols))
    return out


def overlapping(canvas: MatrixCanvas) -> list:
    """Axis labels of one panel that overlap a neighbour on their axis."""
    places = text_places(canvas.current_layout(), canvas.figure, canvas.style_)
    out = []
    for kind in ("row", "col"):
        mine = [p for p in places if p.kind == kind]
        for a, b in zip(mine, mine[1:]):
            if a.panel == b.panel and a.rect.adjusted(0.5, 0.5, -0.5, -0.5).intersects(b.rect):
                out.append((a.text, b.text))
    return out


def label_px(canvas: MatrixCanvas) -> list[int]:
    layout = canvas.current_layout()
    return [
        lab.font_or(canvas.style_.labels).px
        for box in layout.boxes
        for lab in (box.rows, box.cols)
        if len(lab)
    ]


def test_a_short_axis_at_a_large_font_is_labelled_whole_in_a_smaller_one(qapp):
    font = Style.make(22).labels  # presentation mode's at 1024×768
    tokens = list(REPEATED)
    cell = 15.0  # narrower than the 22 px font's line
    assert font.line > cell
    rows = axis.token_rows(font, tokens, cell)
    assert rows.indices == tuple(range(14)) and rows.texts == tuple(tokens)
    assert rows.font is not None and rows.font.line <= cell and rows.font.px >= axis.MIN_LABEL_PX
    cols = axis.token_columns(font, tokens, cell)
    assert cols.indices == tuple(range(14)) and cols.font is not None
    words = ["[CLS]", "the", "animal", "did", "not", "cross", "the", "street", "[SEP]"]
    cols = axis.token_columns(font, words, cell)  # rotated, a smaller line apart
    assert cols.indices == tuple(range(9)) and cols.rotated and cols.font.line <= cell
    # a long axis keeps the figure's font and labels every stride-th token
    long = axis.token_rows(font, tokens * 2, cell)
    assert long.font is None and long.stride == 2
    # cells too small for the smallest legible font: every other one, as before
    tiny = axis.token_rows(font, tokens, 6.0)
    assert tiny.font is None and tiny.stride > 1


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_head_grid_of_fourteen_tokens_labels_every_row_and_column(qtbot, window, language):
    present(window, language)
    grid = window.heads
    for step in ("decoder.previous", "decoder.induction", "decoder.ablate"):
        window.state.set_lesson_step(step)
        wait_trace(qtbot, window, sentence=REPEATED)
        qtbot.waitUntil(
            lambda: grid.prepared is window.prepared and len(grid.canvas.panels) > 0, timeout=WAIT_MS
        )
        qtbot.wait(30)
        QtWidgets.QApplication.processEvents()
        canvas = grid.canvas
        assert canvas.isVisible() and canvas.panels[0].shape == (14, 14), step
        layout = canvas.current_layout()
        drawn_rows = [b.rows.texts for b in layout.boxes if b.draw_rows and len(b.rows)]
        drawn_cols = [b.cols.texts for b in layout.boxes if b.draw_cols and len(b.cols)]
        assert drawn_rows and all(t == tuple(REPEATED) for t in drawn_rows), (step, drawn_rows)
        assert drawn_cols and all(t == tuple(REPEATED) for t in drawn_cols), (step, drawn_cols)
        assert not unlabelled(canvas), (step, unlabelled(canvas))
        assert not overlapping(canvas), (step, overlapping(canvas))
        assert min(label_px(canvas)) >= axis.MIN_LABEL_PX


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_translation_step_labels_every_short_column_too(qtbot, window, language):
    for k, view in translation_steps(qtbot, window, language):
        for canvas in view.findChildren(MatrixCanvas):
            if canvas.isVisible() and canvas.panels:
                assert not unlabelled(canvas), (STEPS[k].id, unlabelled(canvas))
                assert not overlapping(canvas), (STEPS[k].id, overlapping(canvas))


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_local_windows_label_every_source_word_over_its_own_column(qtbot, window, language):
    """The Global vs local canvases' source words drifted right, each pushed past the one
    before ("a b c d e" over the first five columns, "f g h" beyond the grid)."""
    from .test_local_window_tab import wait_compared

    present(window, language)
    window.state.set_lesson_step("local.width")
    view = window.view("local")
    wait_compared(qtbot, view)
    QtWidgets.QApplication.processEvents()
    for canvas in (view.global_canvas, view.local_canvas):
        grid, cw, _ = canvas._layout()
        labels = canvas.column_labels(grid, cw)
        words = canvas.trace.source_tokens
        assert [text for _, text in labels] == list(words), (language, labels)  # 8 words: every one
        for s, (rect, _) in enumerate(labels):
            assert abs(rect.center().x() - (grid.left() + (s + 0.5) * cw)) < 1.0, (s, rect, grid, cw)
        assert all(a.right() <= b.left() for (a, _), (b, _) in zip(labels, labels[1:]))


# -- the labs' training curves (issue 23) --------------------------------------------------------
def x_labels(plot):
    """The bottom axis's labels as pyqtgraph draws them: (rect, text), and the axis's rect."""

    axis = plot.plot.getPlotItem().getAxis("bottom")
    image = QtGui.QImage(8, 8, QtGui.QImage.Format.Format_ARGB32)
    painter = QtGui.QPainter(image)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _, text in texts], axis.mapRectFromParent(axis.geometry())


def open_training(window, where: str) -> None:
    from explorer.gui.labs.translation.view import TRAIN_PAGE
    from explorer.gui.views.registry import Tab

    if where in ("vision.train", "local.train"):  # the lesson's training steps
        window.state.set_lesson_step(where)
    elif where == "translation":
        window.state.set_tab("translation")
        window.view("translation").pages.setCurrentIndex(TRAIN_PAGE)
    else:
        tab = {"lm": Tab.LM, "vit": Tab.VIT}[where]
        window.tabs.choose(tab)
        window.view(tab).lab.set_page("train")


# the pages whose plots have the room for three labels at 1024×768 beside the lesson (the
# translation lab's two plots share a third of the tab with its figure: 0 and 1000 of 0–1500)
THREE_LABELS = ("vision.train", "local.train", "lm", "vit")


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_training_plot_labels_its_steps_and_keeps_its_title_on_one_line(qtbot, window, language):
    """Issue 23: beside the lesson at 1024×768 the vision lab's plots labelled one step, "500"
    (pyqtgraph dropped 0 and 1000 at the axis's ends), and a title broke inside a word
    ("留出集准确 / 率")."""
    from explorer.gui.lab.curves import CurvePlot

    present(window, language)
    for where in (*THREE_LABELS, "translation"):
        open_training(window, where)

        def built():
            shown = [p for p in window.findChildren(CurvePlot) if p.isVisible()]
            assert shown and all(p.plot is not None for p in shown)

        qtbot.waitUntil(built, timeout=WAIT_MS)
        qtbot.wait(30)
        QtWidgets.QApplication.processEvents()
        for plot in [p for p in window.findChildren(CurvePlot) if p.isVisible()]:
            what = (where, plot.curves.title)
            labels, bounds = x_labels(plot)
            # two plots side by side (a page too short to stack them above the fold) share the width
            page = plot.parentWidget()
            while page is not None and not hasattr(page, "curves_grid"):
                page = page.parentWidget()
            beside = page is not None and page._columns == 2
            least = 3 if where in THREE_LABELS and not beside else 2
            assert len(labels) >= least, (what, [t for _, t in labels])
            for rect, _ in labels:
                assert bounds.left() - 0.5 <= rect.left() and rect.right() <= bounds.right() + 0.5, what
            for (a, _), (b, _) in zip(labels, labels[1:]):
                assert a.right() < b.left(), (what, [t for _, t in labels])
            # the title whole on one line or on two of whole words, or cut with "…" on one line
            # and whole in the tooltip
            title, shown = plot.curves.title, plot.title_shown
            body_lines = plot._title_body.split("<br>")
            starts = [" ".join(body_lines[:k]) for k in (1, 2)]
            assert any(s.startswith(html.escape(shown)) for s in starts), (what, body_lines)
            if shown != title:
                assert shown.endswith("…") and title.startswith(shown[:-1]), what
                assert plot.toolTip() == title, what
            else:
                assert plot.toolTip() == "", what
            label = plot.plot.getPlotItem().titleLabel.item
            line = plot._title_metrics(plot._title_px).height()
            lines = len(plot._title_body.split("<br>"))
            assert label.boundingRect().height() < (lines + 0.9) * line + 10, what  # no line broken


def test_the_x_axis_takes_the_closest_spacing_whose_labels_fit():
    from explorer.gui.lab.ticks import fitting_spacing, placed

    def widths(values, spacing):  # 12.4 px a digit: presentation mode's 22 px font
        return [12.4 * len(f"{v:g}") for v in values]

    # 0–800 steps in 140 px: 0, 400, 800 (main's axis: 500 and 1000, the ends dropped: "500")
    assert fitting_spacing(-16.0, 816.0, 140.0, widths, 9.3) == 400.0
    assert fitting_spacing(-16.0, 816.0, 600.0, widths, 9.3) == 100.0
    assert fitting_spacing(-0.02, 1.02, 300.0, widths, 9.3) == 0.2
    assert fitting_spacing(-30.0, 1530.0, 40.0, widths, 9.3) is None  # not two labels
    # a label at an end moves inside the axis, the others stay centred on their ticks
    assert placed([2.0, 70.0, 138.0], [12.4, 37.2, 37.2], 140.0) == [
        (0.0, 12.4),
        (51.4, 88.6),
        (102.8, 140.0),
    ]
