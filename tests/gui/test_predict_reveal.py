"""Predict, then reveal: the lesson's questions, the class's guess, the real numbers beside it.

The answers are checked against the trace (and the trace against an independent softmax);
the window is driven as a teacher would: the Questions box, a click on the veiled weights or
on a token of the lines view, the choice buttons, Reveal, and the arrow keys.
"""

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.appstate.lesson import STEPS, step_index
from explorer.appstate.predict import NO, YES, answer, query_row
from explorer.appstate.state import ExplorerState
from explorer.core.board import Board, board_trace
from explorer.core.config import AttentionConfig
from explorer.gui import i18n
from explorer.gui.views.predict import ANSWER_COLOUR, GUESS_COLOUR, VeiledPanel

from .helpers import ANIMAL, click_cell, hover_cell, wait_trace

# the attention track's steps that ask (other tracks show the same stages without a question)
STEP = {stage: step_index(f"attention.{stage}") for stage in ("weights", "scaled", "head_outputs")}
KEY_QUESTION = STEPS[STEP["weights"]].question
SCALE_QUESTION = STEPS[STEP["scaled"]].question
HARD_QUESTION = STEPS[STEP["head_outputs"]].question
# MiniLM layer 5, head 11: the row of "it" puts 0.65 of its weight on "animal" (the preset's note)
IT_ANIMAL = AttentionConfig(sentence=ANIMAL, layer=5)
IT, ANIMAL_KEY, STREET = 10, 2, 8


# -- the answers, from the trace --------------------------------------------------------------------


def test_the_lesson_asks_three_questions_of_both_kinds():
    assert KEY_QUESTION.kind == "key" and KEY_QUESTION.answer == "heaviest_key"
    assert SCALE_QUESTION.kind == HARD_QUESTION.kind == "choice"
    assert SCALE_QUESTION.choices == HARD_QUESTION.choices == ("Yes", "No")
    assert all("{query}" in q.prompt for q in (KEY_QUESTION, SCALE_QUESTION, HARD_QUESTION))


def test_the_query_is_the_named_word_else_the_selected_row_else_the_first_word():
    assert query_row(KEY_QUESTION, ["[CLS]", "the", "animal", "it", "[SEP]"]) == 3
    assert query_row(KEY_QUESTION, ["[CLS]", "这", "只", "它", "[SEP]"]) == 3
    assert query_row(KEY_QUESTION, ["<s>", "▁It", "</s>"]) == 1  # word-piece marks and case do not matter
    assert query_row(KEY_QUESTION, ["[CLS]", "thinking", "machines", "[SEP]"], selected_row=2) == 2
    assert query_row(KEY_QUESTION, ["[CLS]", "thinking", "machines", "[SEP]"]) == 1


def test_the_heaviest_key_is_the_traces_and_a_tie_counts_as_right(engine):
    t = engine.trace(
        AttentionConfig(sentence="the cat sat on the mat", weights="random", d_model=16, heads=2)
    )
    for head in range(2):
        for row in range(t.n_query):
            found = answer(KEY_QUESTION, t, head, row)
            assert found.right == int(np.argmax(t.weights[head, row]))
            np.testing.assert_array_equal(found.numbers["weights"], t.weights[head, row].astype(np.float64))
            assert found.is_right(found.right) and not found.is_right(None)
    tie = board_trace(Board(("a", "b"), x=((1.0,), (1.0,))), AttentionConfig())
    found = answer(KEY_QUESTION, tie, 0, 0)
    assert found.right == 0 and found.is_right(1)  # both keys weigh 0.5: either guess is right


def test_scaling_never_changes_the_winner():
    board = Board(("a", "b", "c"), x=((1, 0), (2, 1), (0, 3)))
    for scale, tau in (("sqrt", 1.0), ("temperature", 0.05), ("temperature", 20.0), ("none", 1.0)):
        t = board_trace(board, AttentionConfig(scale=scale, temperature=tau))
        for row in range(3):
            found = answer(SCALE_QUESTION, t, 0, row)
            assert found.right == NO
            assert found.numbers["raw_key"] == found.numbers["scaled_key"] == int(np.argmax(t.scores[0, row]))
            assert found.numbers["scaled"] == pytest.approx(found.numbers["raw"] / t.scale_divisor, rel=1e-6)


def test_hard_attention_changes_a_blended_row_but_not_a_one_hot_one():
    board = Board(("a", "b", "c"), x=((1, 0), (2, 1), (0, 3)))
    soft = board_trace(board, AttentionConfig())
    found = answer(HARD_QUESTION, soft, 0, 0)
    v = soft.V[0].astype(np.float64)
    np.testing.assert_allclose(
        found.numbers["soft"], soft.head_outputs[0, 0], atol=1e-6
    )  # the trace's own row
    np.testing.assert_array_equal(found.numbers["hard"], v[int(np.argmax(soft.scaled[0, 0]))])
    hard = board_trace(board, AttentionConfig(attention="hard"))
    np.testing.assert_array_equal(found.numbers["hard"], hard.head_outputs[0, 0])  # the core's hard row
    assert found.right == YES and found.numbers["change"] > 0.1
    # a tiny τ makes the softmax one-hot in float64 too: hard attention changes nothing
    sharp = board_trace(board, AttentionConfig(scale="temperature", temperature=0.01))
    assert answer(HARD_QUESTION, sharp, 0, 2).right == NO


def test_a_row_that_sees_no_key_has_no_answer():
    t = board_trace(Board(("a", "b"), x=((1,), (2,))), AttentionConfig(mask="valid:0"))
    for question in (KEY_QUESTION, SCALE_QUESTION, HARD_QUESTION):
        assert answer(question, t, 0, 0).right is None


# -- the state of the guess -------------------------------------------------------------------------


def test_a_guess_lives_for_one_step_and_one_input():
    s = ExplorerState()
    events = []
    s.subscribe(lambda event, _: events.append(event), ("predict",))
    s.show_lesson(True)
    s.set_lesson_step(STEP["weights"])
    assert s.predict.question() is None  # questions are asked only when the teacher wants them
    s.predict.set_enabled(True)
    assert s.predict.question() is KEY_QUESTION and s.predict.pending()
    s.predict.ask(10)
    s.predict.guess_key(6)
    s.predict.reveal()
    assert (s.predict.row, s.predict.key, s.predict.revealed) == (10, 6, True) and not s.predict.pending()
    s.predict.guess_key(2)
    assert s.predict.key == 6  # after the reveal the guess stands
    s.set_lesson_step(STEP["weights"] + 1)
    assert (s.predict.row, s.predict.key, s.predict.revealed) == (None, None, False)
    s.set_lesson_step(STEP["weights"])
    assert s.predict.key is None and s.predict.pending()  # back again: a fresh question
    s.predict.guess_key(3)
    s.update_config(sentence="a new sentence")
    assert s.predict.key is None  # new inputs: the guess is about something else
    s.show_lesson(False)
    assert s.predict.question() is None and not s.predict.pending()
    assert events.count("predict") >= 6


# -- in the window -----------------------------------------------------------------------------------


@pytest.fixture
def lesson_window(qtbot, make_window):
    w = make_window(IT_ANIMAL, size=(1400, 900))
    wait_trace(qtbot, w, layer=5)
    w.state.select_head(11)
    w.state.show_lesson(True)
    w.state.set_lesson_step(STEP["weights"])
    return w


def weights_index(w) -> int:
    return w.pipeline.names.index("weights")


def test_guess_by_a_click_then_reveal_shows_both_numbers(qtbot, lesson_window):
    w = lesson_window
    t = w.trace
    lesson = w.classroom.lesson
    panel = lesson.question
    assert not panel.isVisible()
    qtbot.mouseClick(panel.toggle, QtCore.Qt.MouseButton.LeftButton)
    assert w.state.predict.enabled and panel.isVisible()
    assert "'it'" in panel.text() and w.state.predict.row == IT
    # the weights wait for the reveal: hatched, no value printed, nothing on hover
    canvas = w.pipeline.canvas
    veiled = canvas.panels[weights_index(w)]
    assert isinstance(veiled, VeiledPanel) and not veiled.values_printable
    hover_cell(qtbot, canvas, weights_index(w), IT, ANIMAL_KEY)
    assert w.pipeline.hover_label.text().endswith(": ?")
    assert w.state.selected_cell is None  # nothing selected gives the answer away
    # the class says "street": a click anywhere in its column
    click_cell(qtbot, canvas, weights_index(w), 3, STREET)
    assert w.state.predict.key == STREET and w.state.selected_cell == (IT, STREET)
    assert "street" in panel.text()
    frames = canvas.figure.outlines[weights_index(w)]
    assert [(o.row, o.col, o.colour.name()) for o in frames] == [(IT, STREET, GUESS_COLOUR.lower())]
    qtbot.mouseClick(panel.reveal_button, QtCore.Qt.MouseButton.LeftButton)
    assert w.state.predict.revealed and not panel.reveal_button.isEnabled()
    shown = canvas.panels[weights_index(w)]
    assert not isinstance(shown, VeiledPanel)
    np.testing.assert_array_equal(shown.data, t.weights[11])
    right = int(np.argmax(t.weights[11, IT]))
    assert right == ANIMAL_KEY
    frames = canvas.figure.outlines[weights_index(w)]
    assert [(o.row, o.col) for o in frames] == [(IT, STREET), (IT, ANIMAL_KEY)]
    assert frames[1].colour.name() == ANSWER_COLOUR.lower()
    text = panel.text()
    assert f"{t.weights[11, IT, STREET]:.2f}" in text and f"{t.weights[11, IT, ANIMAL_KEY]:.2f}" in text
    assert "animal" in text and "Not this time." in text
    # a click after the reveal is a selection, not a new guess
    click_cell(qtbot, canvas, weights_index(w), IT, 4)
    assert w.state.predict.key == STREET


def test_a_token_of_the_lines_view_is_a_guess_too(qtbot, lesson_window):
    w = lesson_window
    w.state.predict.set_enabled(True)
    qtbot.mouseClick(w.pipeline.lines_box, QtCore.Qt.MouseButton.LeftButton)
    lines = w.pipeline.lines_box.view
    qtbot.waitUntil(lines.isVisible)
    assert lines.picture.veiled  # tokens only: the lines wait for the reveal
    qtbot.mouseClick(lines, QtCore.Qt.MouseButton.LeftButton, pos=lines.token_point("bottom", ANIMAL_KEY))
    assert w.state.predict.key == ANIMAL_KEY and w.state.selected_cell == (IT, ANIMAL_KEY)
    assert lines.picture.key_marks == ((ANIMAL_KEY, GUESS_COLOUR),)
    w.state.predict.reveal()
    assert not lines.picture.veiled
    assert lines.picture.key_marks == ((ANIMAL_KEY, GUESS_COLOUR), (ANIMAL_KEY, ANSWER_COLOUR))
    assert "Right!" in w.classroom.lesson.question.text()


def test_stepping_forgets_the_guess_and_veils_again(qtbot, lesson_window):
    w = lesson_window
    w.state.predict.set_enabled(True)
    click_cell(qtbot, w.pipeline.canvas, weights_index(w), IT, STREET)
    w.state.predict.reveal()
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Right)
    assert w.state.lesson_step == STEP["weights"] + 1 and w.state.predict.key is None
    assert w.state.predict.question() is HARD_QUESTION  # the next step asks its own
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Left)
    assert w.state.lesson_step == STEP["weights"]
    assert (w.state.predict.key, w.state.predict.revealed) == (None, False)
    assert isinstance(w.pipeline.canvas.panels[weights_index(w)], VeiledPanel)
    assert weights_index(w) not in w.pipeline.canvas.figure.outlines  # no guess framed


def test_a_choice_question_answers_with_the_numbers(qtbot, lesson_window):
    w = lesson_window
    w.state.predict.set_enabled(True)
    w.state.set_lesson_step(STEP["head_outputs"])
    panel = w.classroom.lesson.question
    assert [b.text() for b in panel.choice_buttons] == ["Yes", "No"]
    assert isinstance(w.pipeline.canvas.panels[w.pipeline.names.index("head_output")], VeiledPanel)
    qtbot.mouseClick(panel.choice_buttons[NO], QtCore.Qt.MouseButton.LeftButton)
    assert w.state.predict.choice == NO and panel.choice_buttons[NO].isChecked()
    qtbot.mouseClick(panel.reveal_button, QtCore.Qt.MouseButton.LeftButton)
    found = answer(HARD_QUESTION, w.trace, 11, IT)
    assert found.right == YES
    text = panel.text()
    assert f"{found.numbers['change']:.2f}" in text and "Not this time." in text
    assert f"{found.numbers['soft'][0]:.2f}" in text and f"{found.numbers['hard'][0]:.2f}" in text
    assert not any(b.isEnabled() for b in panel.choice_buttons)


def test_the_scaling_question_veils_the_weights_that_would_answer_it(qtbot, lesson_window):
    """Trial 9: at step 6 the softmax weights beside the veiled scaled scores named the winner."""
    w = lesson_window
    w.state.predict.set_enabled(True)
    w.state.set_lesson_step(STEP["scaled"])
    names = w.pipeline.names
    panels = w.pipeline.canvas.panels
    assert isinstance(panels[names.index("scaled")], VeiledPanel)
    assert isinstance(panels[names.index("weights")], VeiledPanel)
    assert not isinstance(panels[names.index("scores")], VeiledPanel)  # where the question starts
    w.state.predict.guess_choice(NO)
    w.state.predict.reveal()
    panels = w.pipeline.canvas.panels
    assert not any(isinstance(panels[names.index(n)], VeiledPanel) for n in ("scaled", "weights"))


def test_the_questions_in_chinese(qtbot, make_window):
    w = make_window(
        AttentionConfig(sentence="这只动物没有过马路，因为它太累了。", weights="random", d_model=16, heads=2)
    )
    w.state.set_language("zh_CN")
    try:
        w.state.show_lesson(True)
        w.state.set_lesson_step(STEP["weights"])
        panel = w.classroom.lesson.question
        qtbot.mouseClick(panel.toggle, QtCore.Qt.MouseButton.LeftButton)
        assert panel.toggle.text() == "提问" and panel.reveal_button.text() == "揭晓"
        it = w.trace.tokens_query.index("它")
        assert w.state.predict.row == it and "它" in panel.text()
        assert not any(word in panel.text() for word in ("Which", "Predict", "Click"))
        click_cell(qtbot, w.pipeline.canvas, weights_index(w), 0, 2)
        qtbot.mouseClick(panel.reveal_button, QtCore.Qt.MouseButton.LeftButton)
        text = panel.text()
        right = int(np.argmax(w.trace.weights[0, it]))
        assert w.trace.tokens_key[right] in text and f"{w.trace.weights[0, it, right]:.2f}" in text
        assert "The most" not in text and "权重" in text
    finally:
        i18n.set_language("en")


def test_the_heaviest_key_question_veils_the_scores_that_would_answer_it(qtbot, lesson_window):
    """Trial 10: at step 8 in the ordinary window every stage shows, and the query's row of the
    scores above the veiled weights named the heaviest key (softmax keeps their order)."""
    w = lesson_window
    w.state.predict.set_enabled(True)
    w.state.set_lesson_step(STEP["weights"])
    names = w.pipeline.names
    panels = w.pipeline.canvas.panels
    before = [n for n in ("scores", "scaled", "mask", "weights") if n in names]
    assert {"scores", "weights"} <= set(before)
    assert all(isinstance(panels[names.index(n)], VeiledPanel) for n in before), before
    assert not isinstance(panels[names.index("Q")], VeiledPanel)  # what the class predicts from stays
    w.state.predict.guess_key(2)
    w.state.predict.reveal()
    panels = w.pipeline.canvas.panels
    assert not any(isinstance(panels[names.index(n)], VeiledPanel) for n in before)
