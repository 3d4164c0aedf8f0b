"""Presentation mode on a projector: every lesson step and every tab, in both languages, at
1024×768 (and the wide and full-HD projectors): no text under 20 px, nothing clipped or
squeezed, no figure texts overlapping or outside their figure, every token of a 16-token
sentence labelled on both axes of the weights slide, and the window never larger than the
screen. The walk reads the tab registry and the lesson's STEPS: a tab or a step added later
is walked too.
"""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.core.config import AttentionConfig
from explorer.gui.views.registry import TABS
from explorer.gui.views.stages import STAGE_PANELS

from .helpers import ANIMAL, WAIT_MS
from .projector_check import all_problems

SIXTEEN = ANIMAL + " today"  # 16 tokens with [CLS] and [SEP]
ALL_LABELLED = 16  # a zoomed matrix of up to this many tokens labels every one


def settle(qtbot, w) -> None:
    """The computations done and drawn, and the layouts their texts changed (a label whose
    new text is laid out on the next pass is not cut)."""
    qtbot.waitUntil(lambda: not w.worker.busy(), timeout=WAIT_MS)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)


def labelled_everywhere(w) -> list[str]:
    """The weights slide: every token on both axes of every panel of the zoomed stage."""
    p = w.pipeline
    problems = []
    if w.state.tab != "pipeline":  # the zoom a step sets is the pipeline's, drawn only there
        return problems
    for name in p.zoom or ():
        if name not in p.names or name not in ("scores", "scaled", "mask", "weights"):
            continue
        box = p.canvas.box(p.index(name))
        n_q, n_k = w.trace.n_query, w.trace.n_key
        if max(n_q, n_k) > ALL_LABELLED:  # the lesson's rule: every row labelled up to 16
            continue
        if box is None or box.rows.indices != tuple(range(n_q)) or box.cols.indices != tuple(range(n_k)):
            problems.append(f"{name}: not every token labelled")
    if p.zoom == ("tokens",):
        shown = [chip.token for chip in p.chips.chips()]
        if shown != w.trace.tokens_key:
            problems.append(f"chips {shown} are not the tokens {w.trace.tokens_key}")
    return problems


@pytest.fixture
def projector(make_window):
    w = make_window(AttentionConfig(sentence=SIXTEEN, layer=5), size=(1024, 768))
    w.state.select_head(11)
    w.state.select_cell((10, 2))
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    return w


def test_every_step_and_every_tab_in_both_languages_fits_1024x768(qtbot, projector):
    w = projector
    seen = []
    for language in ("en", "zh_CN"):
        w.state.set_language(language)
        for i, step in enumerate(STEPS):
            w.state.set_lesson_step(i)
            settle(qtbot, w)
            assert w.state.tab == step.tab
            if step.tab == "pipeline":  # the lesson zooms into its stage
                assert w.pipeline.zoom == STAGE_PANELS[step.stage]
            problems = all_problems(w) + labelled_everywhere(w)
            assert not problems, (language, f"step {i + 1} {step.stage}", problems)
            seen.append((language, step.stage))
        for spec in TABS:
            w.state.set_tab(spec.tab.value)
            settle(qtbot, w)
            problems = all_problems(w)
            assert not problems, (language, f"tab {spec.tab.value}", problems)
            seen.append((language, spec.tab.value))
            assert w.size() == QtCore.QSize(1024, 768)
    assert len(seen) == 2 * (len(STEPS) + len(TABS))


@pytest.mark.parametrize(
    "size",
    [
        (1280, 720),
        (1920, 1080),
    ],
)
def test_other_projectors(qtbot, projector, size):
    w = projector
    w.resize(*size)
    w.state.set_lesson_step(next(i for i, s in enumerate(STEPS) if s.stage == "weights"))
    settle(qtbot, w)
    assert not all_problems(w) + labelled_everywhere(w)
    for spec in TABS:
        w.state.set_tab(spec.tab.value)
        settle(qtbot, w)
        assert not all_problems(w), spec.tab.value
    assert w.size() == QtCore.QSize(*size)


def test_the_check_finds_what_it_looks_for(qtbot, make_window):
    """The same checks on the ordinary window at 1024×768 find its small text and its
    rotated labels' stride; they are not vacuous."""
    w = make_window(AttentionConfig(sentence=SIXTEEN), size=(1024, 768))
    settle(qtbot, w)
    problems = all_problems(w)
    assert any("px text" in p for p in problems)
    w.state.set_stage_zoom(("weights",))
    w.pipeline.canvas.setFixedHeight(200)  # too short for 16 labels a line apart
    settle(qtbot, w)
    assert labelled_everywhere(w)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_notes_and_banners_fit_the_projector_too(qtbot, projector, language):
    """A teaching note and an error in presentation mode: the notes whole in the lesson
    column (not a second time over the stage), the error whole over the stage, nothing
    clipped; without the lesson column the note floats over the stage, whole."""
    from .helpers import wait_trace

    w = projector
    w.state.set_language(language)
    w.state.set_lesson_step(next(i for i, s in enumerate(STEPS) if s.stage == "mask"))
    w.state.update_config(mask="causal")
    wait_trace(qtbot, w, mask="causal")
    settle(qtbot, w)
    assert w.classroom.lesson.notes_label.isVisible() and not w.strip.isVisible()
    assert not all_problems(w)
    w.state.set_lesson_step(next(i for i, s in enumerate(STEPS) if s.id == "lm.phase_change"))
    settle(qtbot, w)  # a lab's step: the sentence's notes would speak of another text
    assert w.state.tab == "lm" and not w.classroom.lesson.notes_label.isVisible()
    w.state.set_lesson_step(next(i for i, s in enumerate(STEPS) if s.stage == "mask"))
    settle(qtbot, w)
    assert w.classroom.lesson.notes_label.isVisible()
    w.state.show_lesson(False)
    settle(qtbot, w)
    assert w.notice.isVisible() and w.notice.heightForWidth(w.notice.width()) <= w.notice.height()
    assert not all_problems(w)
    w.state.show_lesson(True)
    w.sentence_bar.sentence.setText("")
    w.sentence_bar.sentence.textEdited.emit("")
    qtbot.waitUntil(w.banner.isVisible, timeout=WAIT_MS)
    assert not all_problems(w)
    assert w.size() == QtCore.QSize(1024, 768)
