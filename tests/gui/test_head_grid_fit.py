"""The All-heads grid keeps the column count it chose while typing: the kept choice must be the
one a fresh search over every count would make, whatever changed between two draws."""

import itertools
import math

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.gui.heatmap import MatrixPanel
from explorer.gui.heatmap.figure import Style
from explorer.gui.views import heads


def grid(tokens, title_digits="1.23", heads_count=12):
    rng = np.random.default_rng(len(tokens))
    return [
        MatrixPanel(
            rng.random((len(tokens), len(tokens))),
            rows=tokens,
            cols=tokens,
            title=f"head {h} · H̄ {title_digits}",
            kind="weights",
        )
        for h in range(heads_count)
    ]


def fresh(panels, size, style):
    full = [p.title for p in panels]
    short = [heads.stages.short_head_title(t) for t in full]
    return heads._best_grid(panels, size, style, full, short, {})


def test_the_kept_choice_is_what_a_fresh_search_chooses(qapp):
    style = Style.make(14)
    short_text = ["the", "cat", "sat"]
    long_text = ["[CLS]", "an", "unusually", "long", "sentence", "about", "attention", "heads", "[SEP]"]
    cases = [
        (short_text, QtCore.QSize(1400, 800)),
        (short_text, QtCore.QSize(600, 700)),  # the room changed
        (long_text, QtCore.QSize(600, 700)),  # the tokens changed
        (short_text, QtCore.QSize(1400, 800)),  # back: the kept choice
        (short_text, QtCore.QSize(300, 900)),
    ]
    chosen = set()
    for tokens, size in cases:
        panels = grid(tokens)
        expected_columns, expected_whole = fresh(grid(tokens), size, style)
        figure = heads.fitted_grid(panels, size, style)
        assert figure.columns == expected_columns
        assert all(p.title.endswith("1.23") == expected_whole for p in figure.panels)
        chosen.add((figure.columns, expected_whole))
    assert len(chosen) > 1  # the cases do choose differently: the key must tell them apart


def test_a_wider_title_is_fitted_again(qapp):
    style, size = Style.make(14), QtCore.QSize(700, 700)
    tokens = ["a", "b", "c", "d"]
    heads.fitted_grid(grid(tokens), size, style)
    wide = grid(tokens, title_digits="1.23 · first token 0.87 · a much longer note")
    figure = heads.fitted_grid(wide, size, style)
    assert (
        figure.columns == fresh(grid(tokens, "1.23 · first token 0.87 · a much longer note"), size, style)[0]
    )


def every_count_laid_out(panels, size, style):
    """The choice by laying the grid out at every column count, whole titles and short (the
    search the bound spares), by fitted_grid's order."""
    full = [p.title for p in panels]
    short = [heads.stages.short_head_title(t) for t in full]
    rect = QtCore.QRectF(0, 0, size.width(), size.height())
    scored = []
    for c in range(1, min(len(panels), heads.MAX_COLUMNS) + 1):
        figure = heads.Figure(panels, columns=c, shared_bar=True, shared_axes=True)
        for p, t in zip(panels, full):
            p.title = t
        whole, coverage, cell = heads._fit(figure, rect, style)
        fits_short = True
        if not whole:
            for p, t in zip(panels, short):
                p.title = t
            fits_short, coverage, cell = heads._fit(figure, rect, style)
        nearest = -abs(c - heads.stages.grid_columns(len(panels)))
        scored.append(((cell >= heads.MIN_CELL_PX, fits_short, coverage, whole, cell, nearest), c))
    (_, _, _, whole, _, _), columns = max(scored)
    return columns, whole


def test_the_bound_on_whole_titles_chooses_as_laying_out_every_count_does(qapp):
    sentence = ["[CLS]", "the", "animal", "didn", "'", "t", "cross", "the", "street", "because", "it"]
    texts = (sentence[:3], sentence, sentence * 3)
    digits = ("1.23", "1.23 · first token 0.87 · prev 0.10 · ind 0.65")
    sizes = (QtCore.QSize(1400, 800), QtCore.QSize(620, 560), QtCore.QSize(300, 900))
    cases = list(itertools.product((4, 12, 14, 16), (12, 20), texts, digits, sizes))[::3]
    chosen = set()
    for count, font_px, tokens, title, size in cases:
        style = Style.make(font_px)
        expected = every_count_laid_out(grid(tokens, title, count), size, style)
        assert fresh(grid(tokens, title, count), size, style) == expected
        chosen.add(expected)
    assert len(chosen) > 6  # the cases choose differently


def test_counts_whose_cells_cannot_win_are_not_laid_out_and_the_choice_is_the_same(qapp, monkeypatch):
    """Laying out every count cost most of a keystroke on this tab: a count whose bound (cells
    at most its share of the room, rows labelled at most a line apart) is below the best score
    found is skipped; what is chosen stays what laying out every count chooses."""
    sentence = ["[CLS]", "the", "animal", "did", "not", "cross", "the", "street", "because", "it", "[SEP]"]
    sizes = (QtCore.QSize(1400, 800), QtCore.QSize(1100, 620), QtCore.QSize(620, 560), QtCore.QSize(300, 900))
    laid_out = {"every": 0, "bound": 0}
    real_fit = heads._fit

    def counted(name):
        def fit(*args):
            laid_out[name] += 1
            return real_fit(*args)

        return fit

    for count, font_px, tokens, size in itertools.product(
        (6, 12, 16), (13, 20), (sentence, sentence * 4), sizes
    ):
        style = Style.make(font_px)
        monkeypatch.setattr(heads, "_fit", counted("every"))
        expected = every_count_laid_out(grid(tokens, "1.23", count), size, style)
        monkeypatch.setattr(heads, "_fit", counted("bound"))
        assert fresh(grid(tokens, "1.23", count), size, style) == expected, (
            count,
            font_px,
            len(tokens),
            size,
        )
    assert laid_out["bound"] < 0.55 * laid_out["every"], laid_out  # the search before laid out 70 %


def test_kept_text_measures_answer_as_qt_does(qapp):
    """Titles are measured through kept answers (heatmap.figure.measures): the same widths,
    elisions and title lines as asking QFontMetricsF each time, one keeper per font."""
    from PySide6 import QtGui

    from explorer.gui.heatmap import figure

    font = QtGui.QFont(Style.make(14).font)
    font.setBold(True)
    kept, qt = figure.measures(font), QtGui.QFontMetricsF(font)
    same = QtGui.QFont(font)
    assert figure.measures(same) is kept
    titles = ["head 3 · H̄ 1.23", "Q = X W_Q  (head 3)  [15×32]", "头 3 · 平均熵 1.23", ""]
    for text in titles:
        assert kept.horizontalAdvance(text) == qt.horizontalAdvance(text)
        for width in (20.0, 57.5, 130.0, 400.0):
            mode = QtCore.Qt.TextElideMode.ElideRight
            assert kept.elidedText(text, mode, width) == qt.elidedText(text, mode, width)
            assert figure.title_lines(text, width, kept) == figure.title_lines(text, width, qt)
            assert kept.horizontalAdvance(text) == qt.horizontalAdvance(text)  # asked again: kept
    assert (kept.height(), kept.ascent()) == (qt.height(), qt.ascent())


# -- issue 23 T3: twelve heads of fifteen tokens at 1024×768 --------------------------------------
def smallest_line(font) -> float:
    """The line of the smallest label font the axes may take (MIN_LABEL_PX)."""
    return min([font.line] + [f.line for f in font.smaller()])


@pytest.mark.parametrize(
    "size,presenting",
    [((1024, 768), False), ((1024, 768), True), ((1400, 900), False), ((1920, 1080), True)],
    ids=["1024x768", "1024x768-presenting", "1400x900", "1920x1080-presenting"],
)
def test_every_token_row_is_labelled_where_the_grid_has_the_room(qtbot, make_window, size, presenting):
    """The README: every token labelled where it fits, else every k-th, the same ones in every
    panel. At 1024×768 the grid of 12 heads (ANIMAL, 15 tokens) labelled 8 rows of 15 (4 when
    presenting beside the lesson): its rows are 10.7 px (7.7 px) high, under the line of the
    smallest label font (11 px, 12.9 px a line), and no column count labels more tokens on
    its worse axis (checked here over every count). Where a row holds a line (1400×900;
    1920×1080 presenting, in a smaller font) all 15 are labelled."""
    from explorer.core.config import AttentionConfig

    from .helpers import ANIMAL, WAIT_MS
    from .test_labs_at_a_projector import present

    window = make_window(AttentionConfig(sentence=ANIMAL, weights="pretrained"), size=size)
    if presenting:
        present(window)
        window.resize(*size)
    window.state.set_tab("heads")
    canvas = window.heads.canvas
    qtbot.waitUntil(lambda: len(canvas.panels) == 12 and canvas.isVisible(), timeout=WAIT_MS)
    qtbot.wait(50)
    QtCore.QCoreApplication.processEvents()
    layout = canvas.current_layout()
    n = canvas.panels[0].shape[0]
    assert n == 15
    font = canvas.style_.labels
    cell = layout.boxes[0].plot.height() / n
    drawn = [b.rows for b in layout.boxes if b.draw_rows]
    assert drawn and all(r.texts == drawn[0].texts and r.indices == drawn[0].indices for r in drawn)
    rows = drawn[0]
    if cell >= smallest_line(font) - 1e-9:
        assert rows.indices == tuple(range(n)), (cell, rows.indices)  # room: every token
    else:
        stride = math.ceil(font.line / cell - 1e-9)
        assert rows.indices == tuple(range(0, n, stride)), (cell, stride, rows.indices)
        # no room: no column count labels more tokens on its worse axis (six columns would label
        # every row of a plot 92 px wide, and one column in three)
        chosen = min(len(rows) / n, len([b for b in layout.boxes if b.draw_cols][0].cols) / n)
        rect = QtCore.QRectF(0, 0, canvas.width(), canvas.height())
        for columns in range(1, 13):
            figure = heads.Figure(canvas.panels, columns=columns, shared_bar=True, shared_axes=True)
            assert heads._fit(figure, rect, canvas.style_)[1] <= round(chosen, 3), columns
