"""The labs as a class met them at a 1024×768 projector, in presentation mode with the lesson
column open: figures large enough to read from the back, every row labelled, nothing of the
sentence's on their tabs, and the Translation tab saying what the date grammar knows of the
text beside the answer (not a date, two readings, unknown characters), a legend for its marks,
an old answer greyed out under an error, single characters upright on both panels.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.gui.heatmap import MatrixCanvas
from explorer.gui.heatmap.figure import text_places
from explorer.gui.lab.curves import CurvePlot
from explorer.gui.labs.vision.bars import BarChart

from .helpers import WAIT_MS

MIN_SHARE = 0.4  # of the tab's height, for every figure a lab step shows
ALL_LABELLED = 16  # rows up to this many carry every label
ALL_POSITIONS = 8  # a Vision map's positions up to this many carry every label


def present(window, language="en"):
    window.state.set_language(language)
    window.resize(1024, 768)
    window.classroom.set_presentation(True, fullscreen=False)
    window.resize(1024, 768)
    window.state.show_lesson(True)
    QtWidgets.QApplication.processEvents()


def settle(qtbot, window, view):
    qtbot.waitUntil(lambda: view.trace is not None and not window.worker.busy(), timeout=WAIT_MS)
    qtbot.wait(30)  # the splitter's halves, set after the layout
    QtWidgets.QApplication.processEvents()


def figures(view):
    """(what, plot height, rows to label, labelled rows) of every figure shown on the tab. A
    shared axis labels every panel of its grid row. A Vision map's rows are positions, not
    tokens: counted only where the map draws its axes, up to ALL_POSITIONS rows."""
    positions = view.TAB == "vision"
    out = []
    for canvas in view.findChildren(MatrixCanvas):
        if not canvas.isVisible():
            continue
        figure = canvas.figure
        for box in canvas.current_layout().boxes:
            panel = canvas.panels[box.index]
            labelled = len(box.rows) if box.draw_rows or figure.shared_axes else 0
            rows = panel.shape[0]
            if positions and (not figure.axes or rows > ALL_POSITIONS):
                rows = 0
            out.append((panel.name or panel.title, box.plot.height(), rows, labelled))
    for plot in view.findChildren(CurvePlot):
        if plot.isVisible():
            out.append(("curve " + plot.curves.x_label, plot.height(), 0, 0))
    for chart in view.findChildren(BarChart):
        if chart.isVisible():
            out.append(("bars", chart.height(), 0, 0))
    return out


def cut_titles(view) -> list[str]:
    """Titles and headers inside the tab's figures that do not fit (drawn elided)."""
    out = []
    for canvas in view.findChildren(MatrixCanvas):
        if canvas.isVisible():
            for place in text_places(canvas.current_layout(), canvas.figure, canvas.style_):
                if place.kind in ("title", "header") and place.text.endswith("…"):
                    out.append(place.text)
    return out


def too_small(view) -> list:
    stage = view.height()
    return [
        (what, round(h), round(MIN_SHARE * stage), rows, labelled)
        for what, h, rows, labelled in figures(view)
        if h < MIN_SHARE * stage or (rows <= ALL_LABELLED and labelled < rows)
    ]


# -- the sentence bar --------------------------------------------------------------------------------
def test_the_lab_tabs_give_the_sentence_bar_to_their_figures(qtbot, window):
    present(window)
    window.state.show_lesson(False)  # the note floats over the stage, not in the lesson column
    assert window.sentence_bar.isVisible()
    window.strip.set_notice("Note: a note of the sentence's result")
    assert window.strip.isVisible()
    for tab in ("translation", "vision"):
        window.state.set_tab(tab)
        QtWidgets.QApplication.processEvents()
        # the sentence's notes are not the lab's: over a lab only an error shows
        assert not window.sentence_bar.isVisible() and not window.strip.isVisible(), tab
        window.show_error("cannot read that file")  # an error still shows, on any tab
        assert window.strip.isVisible() and window.banner.isVisible()
        window.hide_banner()
        assert not window.strip.isVisible()
    window.state.set_tab("pipeline")
    assert window.sentence_bar.isVisible() and window.strip.isVisible()  # the note again
    window.show_error("cannot read that file")
    assert window.strip.isVisible() and window.banner.isVisible()


def test_the_lab_tabs_give_the_settings_column_to_their_figures(qtbot, window):
    """Trial 9: beside a lab the sentence's settings column read "句子: The animal…" next to
    "Jane visits Africa", and took 320 of the stage's 1024 px; it comes back on the sentence's tabs."""
    window.state.show_lesson(True)
    assert window.side.isVisible()
    for tab in window.state.labs:
        window.state.set_tab(tab)
        QtWidgets.QApplication.processEvents()
        assert not window.side.isVisible(), tab
    window.state.set_tab("pipeline")
    QtWidgets.QApplication.processEvents()
    assert window.side.isVisible()
    present(window)
    assert not window.side.isVisible()  # presentation keeps the sentence in its bar instead


# -- figures readable from the back --------------------------------------------------------------------
TRANSLATION_STEPS = [k for k, s in enumerate(STEPS) if s.tab == "translation"]


def translation_steps(qtbot, window, language):
    """Every Translation lesson step at the projector in ``language``, drawn: (step, the tab's view)."""
    present(window, language)
    view = None
    for k in TRANSLATION_STEPS:
        window.state.set_lesson_step(k)
        view = view or window.view("translation")
        settle(qtbot, window, view)
        yield k, view


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_translation_step_draws_its_figures_large_with_every_row_labelled(qtbot, window, language):
    for k, view in translation_steps(qtbot, window, language):
        shown = figures(view)
        assert shown, STEPS[k].id
        assert not too_small(view), (STEPS[k].id, view.height(), too_small(view))
        assert not cut_titles(view), (STEPS[k].id, cut_titles(view))


VISION_STEPS = [k for k, s in enumerate(STEPS) if s.tab == "vision"]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_vision_step_shows_only_its_panels_large_with_whole_titles(qtbot, window, language):
    """Channel maps were 7 % of the tab, spatial maps 15 %, the picture and the curves a
    quarter, titles cut ("M_s 叠在图片上（block…"): on a projector a step shows the panels it
    names alone, the arithmetic on demand."""
    from explorer.appstate.lesson_vision import SHOWS
    from explorer.gui.lab.warm import plotting_ready

    present(window, language)
    view = window.view("vision")
    qtbot.waitUntil(plotting_ready, timeout=WAIT_MS)  # the curves' import, before the walk
    for k in VISION_STEPS:
        window.state.set_lesson_step(k)
        shows = SHOWS[STEPS[k].stage]
        qtbot.waitUntil(
            lambda: (
                view.result is not None
                and not window.worker.busy()
                and view.result.request.model.variant == window.state.vision.variant
            ),
            timeout=WAIT_MS,
        )
        qtbot.wait(30)
        QtWidgets.QApplication.processEvents()
        where = (language, STEPS[k].id, view.height())
        shown = figures(view)
        assert shown, where
        assert not too_small(view), (where, too_small(view))
        assert not cut_titles(view), (where, cut_titles(view))
        names = {what for what, *_ in shown if not what.startswith(("curve", "bars"))}
        assert names <= set(shows.projected()), (where, names)
        worked = {"channel": view.channel_page.worked, "spatial": view.spatial_page.worked}.get(shows.page)
        if worked is not None:  # the arithmetic on demand
            assert not worked.isVisible() and view.worked_button.isVisible(), where
            view.worked_button.click()
            assert worked.isVisible(), where
            view.worked_button.click()
    window.state.set_presentation(False)  # off the projector every panel is back
    QtWidgets.QApplication.processEvents()
    assert len(view.train_page.plots) == 2 and view.controls.isVisible()
    window.state.set_lesson_step(VISION_STEPS[1])
    qtbot.waitUntil(lambda: not window.worker.busy(), timeout=WAIT_MS)
    QtWidgets.QApplication.processEvents()
    assert len(view.channel_page.figure.figure.panels) > 10 and view.channel_page.worked.isVisible()


# -- what the date grammar knows, beside the answer ---------------------------------------------------------
@pytest.fixture
def translation(qtbot, window):
    window.state.set_tab("translation")
    view = window.view("translation")
    settle(qtbot, window, view)
    return window, view


def type_date(qtbot, window, view, text):
    view.source_edit.setText(text)
    qtbot.waitUntil(lambda: view.trace is not None and view.trace.source == text.strip(), timeout=WAIT_MS)
    settle(qtbot, window, view)
    return view.score_label.text()


def test_a_text_no_format_writes_says_so_beside_the_answer(qtbot, translation):
    window, view = translation
    said = type_date(qtbot, window, view, "hello world")
    assert "Not a date in any format the models were trained on" in said
    # first, where the few lines of the box on a projector show it, before why there is no score
    assert said.index("Not a date") < said.index("No alignment score")
    said = type_date(qtbot, window, view, "9 May 2018 😀🎉")
    assert "without the unknown characters it reads 2018-05-09" in said
    assert "U+1F600" in said and "U+1F389" in said  # named, where a font has no glyph for them
    said = type_date(qtbot, window, view, "9 May 2018")
    assert "Not a date" not in said and "Ambiguous" not in said


def test_a_date_that_reads_two_ways_says_both_in_both_languages(qtbot, translation):
    window, view = translation
    said = type_date(qtbot, window, view, "09/05/2018")
    assert "Ambiguous: 2018-09-05 (month first, as the models were trained) or 2018-05-09 (day first)" in said
    said = type_date(qtbot, window, view, "13/05/2018")
    assert "read day first it is 2018-05-13" in said
    window.state.set_language("zh_CN")
    said = type_date(qtbot, window, view, "09/05/2018")
    assert "有歧义：2018-09-05（月在前" in said and "2018-05-09（日在前）" in said
    assert "✓ 看向本字段" in view.legend.text() and view.legend.isVisible()


def test_the_year_digits_one_character_right_are_explained_where_it_happens(qtbot, translation):
    window, view = translation
    said = type_date(qtbot, window, view, "9 mai 2018")  # Bahdanau, additive: "2" looks at "0"
    assert "“2”: the weight is one character right; the encoder reads both ways" in said
    assert "✓" in view.legend.text() and "red" in view.legend.text()


def test_an_old_answer_under_an_error_is_greyed_and_named(qtbot, translation):
    window, view = translation
    view.source_edit.setText("")
    qtbot.waitUntil(lambda: "Type a date" in view.message_text, timeout=WAIT_MS)
    assert "The answer below is still the one for “9 mai 2018”." in view.message_text
    assert not view.strip.isEnabled() and not view.alignment.isEnabled() and view.stale_answer
    view.source_edit.setText("9 mai 2018")
    qtbot.waitUntil(lambda: not view.message.isVisible(), timeout=WAIT_MS)
    assert view.strip.isEnabled() and view.alignment.isEnabled() and not view.stale_answer


def test_single_characters_stand_upright_in_both_panels(qtbot, translation):
    window, view = translation
    present(window, "zh_CN")
    window.state.set_tab("translation")  # the lesson opened on its first step
    type_date(qtbot, window, view, "2018年5月9日星期三")
    for canvas in (view.alignment, view.stages):
        for box in canvas.current_layout().boxes:
            if canvas.panels[box.index].cols is not None and len(box.cols):
                assert not box.cols.rotated, canvas.panels[box.index].name


# -- the Vision tab: what its maps say ------------------------------------------------------------------------
@pytest.fixture
def vision(qtbot, window):
    window.state.set_tab("vision")
    view = window.view("vision")
    qtbot.waitUntil(lambda: view.result is not None and not window.worker.busy(), timeout=WAIT_MS)
    yield window, view
    view.vision.stop_training()


def wait_vision(qtbot, window, view, **settings):
    def done():
        assert view.result is not None and not window.worker.busy()
        assert view.result.request.picture == view.vision.picture
        assert view.result.request.model == view.model_choice()

    qtbot.waitUntil(done, timeout=WAIT_MS)
    QtWidgets.QApplication.processEvents()
    return view.result.trace


def test_the_overlay_lights_the_picture_and_adds_no_colour_of_its_own(qtbot, vision):
    """A yellow distractor must not look attended: over the picture the map only darkens, so
    every pixel keeps its own hue (each channel scaled by the same factor, never raised)."""
    window, view = vision
    trace = wait_vision(qtbot, window, view)
    from .helpers import pixels

    drawn = pixels(view.picture_page.overlay.panels[0].image).astype(np.float64)
    picture = np.clip(np.round(trace.image * 255), 0, 255)
    assert (drawn <= picture + 1).all()  # nothing brighter than the picture, no colour added
    factor = drawn.sum(axis=-1) / np.maximum(picture.sum(axis=-1), 1)
    assert np.abs(drawn - factor[..., None] * picture).max() <= 1.5  # one factor on red, green, blue
    assert view.picture_page.overlay.panels[0].colours.name == "spotlight"


def test_se_weights_that_are_all_about_one_say_so_and_name_the_block_that_shows_more(qtbot, vision):
    window, view = vision
    view.vision.set_variant("se")
    view.vision.set_block("block3")
    view.vision.set_page("channel")
    wait_vision(qtbot, window, view)
    title = view.channel_page.bars.bars.title
    assert "every channel kept alike" in title and "block2 shows more" in title
    view.vision.set_block("block2")
    wait_vision(qtbot, window, view)
    assert "alike" not in view.channel_page.bars.bars.title


def test_cbam_map_that_is_faint_after_drawing_says_how_faint(qtbot, vision):
    from explorer.appstate.vision import Picture, Stroke

    window, view = vision
    drawing = Picture(kind="draw", seed=7, strokes=(Stroke("blue", 2.0, ((5.0, 20.0), (12.0, 26.0))),))
    view.vision.set_picture(drawing)
    wait_vision(qtbot, window, view)
    title = view.picture_page.overlay.panels[0].title
    assert "almost nothing passes" in title and "at most 0.0" in title


@pytest.mark.parametrize("language", ["zh_CN"])
def test_the_training_curves_beside_the_alignment_keep_their_axes_on_screen(qtbot, window, language):
    """Two curves side by side in the column beside the alignment: a long title must not
    widen a plot's layout past its widget (the x axis's end went off the page)."""
    present(window, language)
    window.state.set_lesson_step(next(k for k, s in enumerate(STEPS) if s.id == "translation.learn"))
    view = window.view("translation")
    settle(qtbot, window, view)
    plots = view.training.plots
    qtbot.waitUntil(lambda: all(p.plot is not None for p in plots), timeout=WAIT_MS)
    QtWidgets.QApplication.processEvents()
    for p in plots:
        drawn = p.plot.getPlotItem().sceneBoundingRect().width()
        assert drawn <= p.plot.width() + 1, (p.curves.x_label, drawn, p.plot.width())
    assert not too_small(view), too_small(view)
