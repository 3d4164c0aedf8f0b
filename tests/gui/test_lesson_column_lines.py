"""The lesson column beside the stage shows its step's title and formula whole: every line of
them, at 1024×768 in both languages. Opened as a teacher does (the lesson first, then the
presentation), a two-line formula kept one line's height and a class saw "softmax(W_LM ·".
Each step's explanation reads whole too, without scrolling."""

from __future__ import annotations

import pytest

from explorer.appstate.lesson import STEPS
from explorer.core.config import AttentionConfig

from .helpers import ANIMAL, WAIT_MS
from .test_classroom_walk import settle


def presenting_the_lesson(qtbot, make_window, language: str, questions: bool):
    """A 1024×768 window in ``language`` opened as a teacher does: the lesson first, then F11."""
    w = make_window(AttentionConfig(sentence=ANIMAL, layer=5), size=(1024, 768))
    w.state.set_language(language)
    w.state.predict.set_enabled(questions)
    w.state.show_lesson(True)
    settle(qtbot, w)
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    return w


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_step_s_title_and_formula_keep_all_their_lines(qtbot, make_window, language):
    w = presenting_the_lesson(qtbot, make_window, language, questions=True)
    lesson = w.classroom.lesson
    cut = []
    for i, step in enumerate(STEPS):
        w.state.set_lesson_step(i)
        settle(qtbot, w)
        for label in (lesson.title_label, lesson.formula_label):
            need = label.heightForWidth(label.width())
            if need > label.height() + 1:
                cut.append((i + 1, step.id, label.text(), need, label.height()))
    assert not cut, cut


def test_the_previous_token_step_s_heads_show_the_share_its_words_point_at(qtbot, make_window):
    """Step "decoder.previous" says heads 0 and 1 put ~99 % on the previous token "(prev 99 %
    in the title)": beside the lesson at 1024×768 the grid shortened every title to "head 0"."""
    from tests.gui.projector_check import title_problems

    w = make_window(AttentionConfig(sentence=ANIMAL, layer=5), size=(1024, 768))
    w.state.set_language("zh_CN")
    w.state.show_lesson(True)
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    w.state.set_lesson_step("decoder.previous")
    settle(qtbot, w)
    qtbot.waitUntil(
        lambda: w.heads.canvas.figure is not None and len(w.heads.canvas.panels) == 4, timeout=30_000
    )
    settle(qtbot, w)
    titles = [p.title for p in w.heads.canvas.panels]
    assert [t.startswith(f"头 {h} · 前一 9") for h, t in enumerate(titles)][:2] == [True, True], titles
    assert not title_problems(w), title_problems(w)  # shown whole, not elided


@pytest.mark.parametrize("questions", [False, True], ids=["questions-off", "questions-on"])
@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_step_s_explanation_reads_whole_without_scrolling(qtbot, make_window, language, questions):
    """The teacher never scrolls the column in front of the class (trial 8 F2: step 39's text
    ended mid-line above a scroll bar), with the question buttons shown or not."""
    w = presenting_the_lesson(qtbot, make_window, language, questions=questions)
    lesson = w.classroom.lesson
    hidden = []
    for i, step in enumerate(STEPS):
        w.state.set_lesson_step(i)
        settle(qtbot, w)
        # a long text shrinks to fit once the column is laid out (its notes come with the result)
        qtbot.waitUntil(lambda: not lesson._fit_timer.isActive(), timeout=WAIT_MS)
        settle(qtbot, w)
        bar = lesson.body_scroll.verticalScrollBar()
        if lesson.body_scroll.isVisible() and bar.maximum() > 0:
            hidden.append((i + 1, step.id, bar.maximum()))
    assert not hidden, hidden


def test_the_column_s_title_formula_and_text_never_overlap(qtbot, make_window):
    w = presenting_the_lesson(qtbot, make_window, "zh_CN", questions=False)
    lesson = w.classroom.lesson
    column = [lesson.step_label, lesson.title_label, lesson.formula_label, lesson.body_scroll]
    over = []
    for i, step in enumerate(STEPS):
        w.state.set_lesson_step(i)
        settle(qtbot, w)
        for upper, lower in zip(column, column[1:]):
            if lower.isVisible() and lower.geometry().top() < upper.geometry().bottom() - 1:
                over.append((i + 1, step.id, upper.geometry().getRect(), lower.geometry().getRect()))
    assert not over, over
