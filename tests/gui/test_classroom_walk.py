"""The lesson as a teacher gives it at a 1024×768 projector, presentation mode, the lesson
column open: → from the first step to the last, in English and in Chinese, with Questions on
(each question answered with a click, as a class does) and off. At every step:

- the keyboard stays with the stage: the focus is in no text field the user did not click
  (a question's buttons went away with the step and Qt handed the focus to the Sentence
  field, its text selected: the next → moved the cursor and one key replaced the sentence);
- every button and label shows its whole text: nothing outside its parent, nothing cut by a
  view that cannot scroll sideways, nothing elided, no token read as HTML (the projector
  checks of projector_check.py, besides);
- the pipeline shows the stage the step names, and no two steps the same picture (the split
  into heads showed the projection's); on a lab's tab no "Show:" naming a pipeline stage.

The walk reads STEPS: a step added later is walked too.
"""

from __future__ import annotations

import hashlib

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import STEPS, model_markers, step_index
from explorer.core.config import AttentionConfig
from explorer.gui.i18n import translate
from explorer.gui.main_window import typing_in
from explorer.gui.views.stages import STAGE_PANELS

from .helpers import ANIMAL, WAIT_MS, click_cell
from .projector_check import (
    all_problems,
    cut_problems,
    question_below_the_fold,
    sideways_problems,
    title_problems,
)
from .test_labs_at_a_projector import too_small

SIXTEEN = ANIMAL + " today"
# the steps that show a lab's training page (the shared explorer.gui.lab.training page)
TRAINING_STEPS = ("translation.learn", "vision.train", "lm.phase_change", "local.train")
TEXT_FIELDS = (QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox, QtWidgets.QTextEdit, QtWidgets.QPlainTextEdit)


def settle(qtbot, w) -> None:
    qtbot.waitUntil(lambda: not w.worker.busy(), timeout=WAIT_MS)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
        # the layouts a model or tab switch asked for, before a check measures them
        QtWidgets.QApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)


def press(qtbot, w, key) -> None:
    """A key as the teacher presses it: to whatever holds the keyboard."""
    qtbot.keyClick(QtWidgets.QApplication.focusWidget() or w, key)
    QtWidgets.QApplication.processEvents()


def focus_problem(w) -> list[str]:
    focus = QtWidgets.QApplication.focusWidget()
    if isinstance(focus, TEXT_FIELDS) or isinstance(focus.parentWidget() if focus else None, TEXT_FIELDS):
        return [f"the keyboard is in {type(focus).__name__} {getattr(focus, 'text', lambda: '')()!r}"]
    return []


def answer(qtbot, w) -> None:
    """The class answers the step's question with a click, as it does in a lesson."""
    panel = w.classroom.lesson.question
    question = w.state.predict.question()
    if question is None:
        return
    if question.kind == "choice":
        qtbot.mouseClick(panel.choice_buttons[-1], QtCore.Qt.MouseButton.LeftButton)
    else:  # click a key in the weights, then Reveal
        p = w.pipeline
        click_cell(qtbot, p.canvas, p.index("weights"), 10, 2)
        qtbot.mouseClick(panel.reveal_button, QtCore.Qt.MouseButton.LeftButton)
    QtWidgets.QApplication.processEvents()


def picture(w) -> str:
    """What the pipeline shows, as a hash of its pixels."""
    p = w.pipeline
    shown = p.chips if w.pipeline.showing_tokens else p.canvas
    image = shown.grab().toImage()
    return hashlib.sha1(bytes(image.constBits())).hexdigest()


def shown_panels(w) -> tuple[str, ...]:
    p = w.pipeline
    if p.showing_tokens:
        return ("tokens",)
    return tuple(p.canvas.panels[i].name for i in p.canvas.figure.shown())


@pytest.fixture
def projector(make_window, qtbot):
    w = make_window(AttentionConfig(sentence=SIXTEEN, layer=5), size=(1024, 768))
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    w.activateWindow()
    settle(qtbot, w)
    return w


def walk(qtbot, w, language: str, questions: bool) -> dict[int, str]:
    """→ through every step; the problems of each, and the pipeline's picture of each."""
    s = w.state
    s.set_language(language)
    s.predict.set_enabled(questions)
    s.set_lesson_step(0)
    w.classroom.focus_stage()
    settle(qtbot, w)
    pictures: dict[int, str] = {}
    for i, step in enumerate(STEPS):
        where = (language, "questions" if questions else "no questions", f"step {i + 1} {step.id}")
        assert s.lesson_step == i, where
        assert s.tab == step.tab, where
        if step.tab == "pipeline":
            assert shown_panels(w) == STAGE_PANELS[step.stage], where
            pictures[i] = picture(w)
        else:  # "Show:" names the pipeline's stages: not on a lab's tab (it said "W_O projection")
            assert not w.classroom.zoom_combo.isVisible(), where
            if step.tab in s.labs:  # readable from the back: 40 %
                assert not too_small(w.tabs.current_view()), (where, too_small(w.tabs.current_view()))
            if step.tab in s.labs:  # a page wider than its column is cut at the right edge
                assert not sideways_problems(w.tabs.current_view()), (
                    where,
                    sideways_problems(w.tabs.current_view()),
                )
        problems = focus_problem(w) + cut_problems(w) + all_problems(w) + title_problems(w)
        assert not problems, (where, problems)
        if questions:
            assert not question_below_the_fold(w), (where, "the question needs the lesson's scroll bar")
            answer(qtbot, w)
            assert not focus_problem(w) + cut_problems(w), where  # the answer whole, Reveal on screen
            assert not question_below_the_fold(w), (where, "the answer needs the lesson's scroll bar")
        press(qtbot, w, QtCore.Qt.Key.Key_Right)
        settle(qtbot, w)
    return pictures


def test_the_lesson_walked_with_keys_at_1024x768(qtbot, projector):
    w = projector
    for language, questions in (("zh_CN", True), ("en", False), ("en", True), ("zh_CN", False)):
        pictures = walk(qtbot, w, language, questions)
        same = [STEPS[i].id for i in pictures if list(pictures.values()).count(pictures[i]) > 1]
        assert not same, (language, questions, "two steps, one picture", same)
        assert w.state.lesson_step == len(STEPS) - 1  # → at the last step stays there
    assert pictures  # the pipeline's steps were seen


def lab_fields(view) -> list[QtWidgets.QWidget]:
    """Where a teacher clicks to type on a lab's tab: its text fields, the fields of its combo
    boxes one types in and of its number boxes."""
    kinds = (QtWidgets.QLineEdit, QtWidgets.QTextEdit, QtWidgets.QPlainTextEdit)
    return [f for f in view.findChildren(QtWidgets.QWidget) if isinstance(f, kinds) and f.isVisible()]


def test_esc_in_any_lab_field_gives_the_keys_back_to_the_lesson(qtbot, projector):
    """Why attention: a click in the sentence box, Esc, → moved the text cursor, not the lesson
    (the Global vs local box let go of the keyboard on Esc): every lab's every field lets go."""
    w = projector
    s = w.state
    labs = [step for i, step in enumerate(STEPS) if step.tab in s.labs and STEPS[i - 1].tab != step.tab]
    assert {step.tab for step in labs} >= {"translation", "why_attention", "local", "vision", "lm", "vit"}
    clicked = []
    for step in labs:
        index = STEPS.index(step)
        s.set_lesson_step(index)
        settle(qtbot, w)
        if step.tab == "translation":  # beside the lesson its pickers are folded into one line
            w.tabs.current_view().controls.set_open(True)
        fields = lab_fields(w.tabs.current_view())
        for field in fields:
            s.set_lesson_step(index)
            settle(qtbot, w)
            qtbot.mouseClick(
                field, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(4, field.height() // 2)
            )
            where = (step.tab, step.id, type(field.parentWidget()).__name__, type(field).__name__)
            assert typing_in(QtWidgets.QApplication.focusWidget()), where  # the click: keys to the field
            assert w.classroom.key_hint.isVisible(), where  # and a line under it says Esc gives them back
            press(qtbot, w, QtCore.Qt.Key.Key_Escape)
            assert not focus_problem(w) and not typing_in(QtWidgets.QApplication.focusWidget()), where
            assert not w.classroom.key_hint.isVisible(), where
            press(qtbot, w, QtCore.Qt.Key.Key_Right)
            assert s.lesson_step == index + 1, where
            clicked.append(where)
    assert {where[0] for where in clicked} >= {"translation", "why_attention", "local", "lm"}, clicked


def test_a_step_shows_its_example_whatever_was_typed_before(qtbot, projector):
    """Letters typed for one step of the local track (outside the task's alphabet: <unk>
    everywhere) were what the track's first step, a staircase, showed."""
    w = projector
    width = step_index("local.width")
    w.state.set_lesson_step(width)
    settle(qtbot, w)
    view = w.tabs.current_view()
    example = view.source_edit.text()
    qtbot.mouseClick(view.source_edit, QtCore.Qt.MouseButton.LeftButton)
    view.source_edit.selectAll()
    qtbot.keyClicks(view.source_edit, "Q Q Q")
    press(qtbot, w, QtCore.Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: view.compared.local.source_tokens[0] == "<unk>", timeout=WAIT_MS)
    for _ in range(width - step_index("local.global")):
        press(qtbot, w, QtCore.Qt.Key.Key_Left)
    assert w.state.lesson_step_id == "local.global"
    qtbot.waitUntil(
        lambda: view.compared_request is not None and view.compared_request.source == example, timeout=WAIT_MS
    )
    assert view.source_edit.text() == example and "<unk>" not in view.compared.local.source_tokens


def test_an_answer_then_the_next_step_keeps_the_keyboard(qtbot, projector):
    """The trial, exactly: step 9, Questions on, click 不会, →: the lesson steps, the keyboard
    stays with the stage, the sentence is untouched by the next keys."""
    w = projector
    w.state.set_language("zh_CN")
    w.state.predict.set_enabled(True)
    weighted_sum = step_index("attention.head_outputs")
    w.state.set_lesson_step(weighted_sum)
    settle(qtbot, w)
    panel = w.classroom.lesson.question
    no = next(b for b in panel.choice_buttons if b.text() == "不会")
    qtbot.mouseClick(no, QtCore.Qt.MouseButton.LeftButton)
    assert QtWidgets.QApplication.focusWidget() is no
    press(qtbot, w, QtCore.Qt.Key.Key_Right)
    assert w.state.lesson_step == weighted_sum + 1 and not focus_problem(w)
    press(qtbot, w, QtCore.Qt.Key.Key_Right)
    press(qtbot, w, QtCore.Qt.Key.Key_X)
    assert w.state.lesson_step == weighted_sum + 2
    assert w.sentence_bar.sentence.text() == w.controls.sentence.text() == SIXTEEN
    # a click into the field is the teacher's choice: the keys then type
    qtbot.mouseClick(w.sentence_bar.sentence, QtCore.Qt.MouseButton.LeftButton)
    assert QtWidgets.QApplication.focusWidget() is w.sentence_bar.sentence


def test_an_answer_then_the_next_step_never_hands_the_focus_to_a_text_field(qtbot, projector):
    """Trial 7 N3: the keys stayed with the stage, but on the way Qt handed the focus to the
    Sentence field as the answer's button hid (QPushButton -> QLineEdit) and the classroom
    bounced it back: any field that acts on focus-in would act. Every question step, its
    question answered with a click, then →: no focus change ever lands in a text field."""
    w = projector
    w.state.set_language("zh_CN")
    w.state.predict.set_enabled(True)
    landed: list[tuple[str, str, str]] = []

    def record(old, new) -> None:
        if isinstance(new, TEXT_FIELDS) or isinstance(new.parentWidget() if new else None, TEXT_FIELDS):
            landed.append((w.state.lesson_step_id, type(old).__name__, type(new).__name__))

    app = QtWidgets.QApplication.instance()
    app.focusChanged.connect(record)
    try:
        asked = 0
        for index, step in enumerate(STEPS[:-1]):
            if step.tab != "pipeline":
                continue
            w.state.set_lesson_step(index)
            w.classroom.focus_stage()
            settle(qtbot, w)
            if w.state.predict.question() is None:
                continue
            answer(qtbot, w)
            asked += 1
            press(qtbot, w, QtCore.Qt.Key.Key_Right)
            settle(qtbot, w)
            assert w.state.lesson_step == index + 1, step.id
    finally:
        app.focusChanged.disconnect(record)
    assert asked >= 3  # the walk met questions of both kinds
    assert not landed, landed


def test_training_keeps_the_keyboard_with_the_stage(qtbot, projector):
    """Translation → Train from scratch → Train: the button disables itself while the model
    learns, and Qt handed the keyboard to the next widget of the tab chain."""
    w = projector
    learn = step_index("translation.learn")
    w.state.set_lesson_step(learn)
    settle(qtbot, w)
    tstate = w.state.translation
    tstate.set_training_plan(steps=30, seed=0)
    QtWidgets.QApplication.processEvents()
    train = translate("LabTraining", "Train from scratch")
    (button,) = [b for b in w.findChildren(QtWidgets.QPushButton) if b.text() == train and b.isVisible()]
    qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton)
    try:
        assert tstate.training and not button.isEnabled()
        assert not focus_problem(w)
        press(qtbot, w, QtCore.Qt.Key.Key_Left)
        assert w.state.lesson_step == learn - 1 and not focus_problem(w)
    finally:
        tstate.cancel_training()
        qtbot.waitUntil(lambda: not tstate.run.running, timeout=120_000)


def test_the_tokens_step_names_the_markers_of_the_model_on_screen(qtbot, projector):
    """Step 1 said [CLS] and [SEP] while the multilingual model showed <s> and </s>."""
    w = projector
    w.state.set_lesson_step(0)
    settle(qtbot, w)
    text = w.classroom.lesson.explanation_label.text()
    assert "[CLS]" in text and "[SEP]" in text and "[UNK]" in text
    w.state.update_config(model="multilingual")
    qtbot.waitUntil(lambda: w.trace.tokens_key[0] == "<s>", timeout=120_000)
    settle(qtbot, w)
    text = w.classroom.lesson.explanation_label.text()
    assert "<s>" in text and "</s>" in text and "<unk>" in text and "[CLS]" not in text
    assert not cut_problems(w)  # <s> shown as text, not as the HTML tag that strikes through
    w.state.update_config(model="minilm", weights="random")
    qtbot.waitUntil(lambda: w.trace.tokens_key[0] != "<s>", timeout=WAIT_MS)
    settle(qtbot, w)
    assert model_markers(w.trace.tokens_key) is None
    assert "<s>" not in w.classroom.lesson.explanation_label.text()
    assert "[CLS]" not in w.classroom.lesson.explanation_label.text()


def test_the_split_into_heads_frames_every_head_of_q(qtbot, projector):
    """Step 4 shows Q's columns cut into the heads, the selected head's framed: its own
    picture, which step 3 (Q, K and V of one head) is not."""
    w = projector
    heads_step = step_index("attention.heads")
    w.state.set_lesson_step(heads_step)
    w.state.select_head(3)
    settle(qtbot, w)
    p, t = w.pipeline, w.trace
    panel = p.canvas.panels[p.index("Q_heads")]
    assert panel.shape == (t.n_query, t.heads * t.d_k)
    for head in (0, 3, t.heads - 1):  # head h owns columns h·d_k … (h+1)·d_k − 1
        assert panel.data[5, head * t.d_k + 7] == t.Q[head, 5, 7]
    bands = p.canvas.figure.outlines[p.index("Q_heads")]
    assert sorted(b.col for b in bands) == [h * t.d_k for h in range(t.heads)]
    assert all(b.cols == t.d_k and b.rows == t.n_query for b in bands)
    (selected,) = [b for b in bands if b.col == 3 * t.d_k]
    assert all(selected.width > b.width for b in bands if b is not selected)


def test_the_multilingual_model_on_screen_speaks_its_own_tokens(qtbot, projector):
    """Its pieces without the raw "▁" ("_Think", a lone "_" that a rotated axis drew as a
    stroke), its unknown token named as it writes it (<unk>, not [UNK]) in the notice and
    the lesson, in both languages."""
    w = projector
    w.state.set_lesson_step(0)
    w.state.update_config(model="multilingual", sentence="Thinking Machines 思考 😀")
    qtbot.waitUntil(lambda: w.trace.tokens_key[0] == "<s>", timeout=120_000)
    settle(qtbot, w)
    t = w.trace
    assert "␣Think" in t.tokens_key  # a word start as one quiet mark
    shown = [chip.token for chip in w.pipeline.chips.chips()]
    assert "␣Think" in shown and not any("▁" in token for token in shown)
    w.state.set_lesson_step(step_index("attention.weights"))
    settle(qtbot, w)
    weights = w.pipeline.canvas.panels[w.pipeline.index("weights")]
    assert not any("▁" in label for label in [*weights.rows, *weights.cols])
    w.state.set_lesson_step(0)
    settle(qtbot, w)
    for language in ("en", "zh_CN"):
        w.state.set_language(language)
        settle(qtbot, w)
        for text in (w.notice.text(), w.classroom.lesson.notes_label.text()):
            assert "<unk>" in text and "<unk:😀>" in text and "[UNK]" not in text, text


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_every_stage_title_whole_beside_the_lesson(qtbot, projector, language):
    """Show: every stage, the lesson open, at 1024×768 in presentation mode: each panel's
    formula whole on screen for every attention, scoring, scaling and mask the controls
    offer (the sampled weights' title read "weights = one-hot(sample(softmax(mas…")."""
    w = projector
    s = w.state
    s.set_language(language)
    s.set_lesson_step(step_index("attention.scores"))
    settle(qtbot, w)
    for attention, (scoring, scale), mask in (
        ("soft", ("dot", "sqrt"), "none"),
        ("sample", ("additive", "temperature"), "causal"),
        ("hard", ("general", "none"), "window:3"),
        ("sample", ("cosine", "sqrt"), "none"),
    ):
        s.update_config(attention=attention, scoring=scoring, scale=scale, mask=mask)
        w.classroom._on_zoom_combo(0)  # Show: every stage
        settle(qtbot, w)
        assert s.stage_zoom is None and len(shown_panels(w)) > 8, shown_panels(w)
        for zoom in (0, 1):
            s.set_text_zoom(zoom)
            settle(qtbot, w)
            assert not title_problems(w), (language, attention, scoring, mask, zoom, title_problems(w))


def test_right_on_the_clicked_tab_bar_with_the_lesson_closed_is_the_lesson_s_key(qtbot, projector):
    """The shortcut sheet says → is "Next stage": with the lesson column closed and the tab bar
    holding the keyboard (a tab just clicked), → opens the lesson where the class left it
    rather than moving to the tab on the right (the tab bar's own arrow keys); the next →
    steps it. Ctrl+PgDown is the key for the next tab."""
    w = projector
    s = w.state
    s.set_lesson_step(step_index("attention.scores"))
    s.show_lesson(False)
    settle(qtbot, w)
    bar = w.tabs.tabBar()
    heads = next(i for i in range(bar.count()) if w.tabs.tabText(i) == w.tabs.title("heads"))
    qtbot.mouseClick(bar, QtCore.Qt.MouseButton.LeftButton, pos=bar.tabRect(heads).center())
    assert s.tab == "heads" and QtWidgets.QApplication.focusWidget() is bar
    press(qtbot, w, QtCore.Qt.Key.Key_Right)
    assert s.lesson_visible and s.lesson_step == step_index("attention.scores")
    assert s.tab == STEPS[s.lesson_step].tab  # the step's own tab, not the one right of All heads
    press(qtbot, w, QtCore.Qt.Key.Key_Right)
    assert s.lesson_step == step_index("attention.scores") + 1 and not focus_problem(w)
    s.show_lesson(False)
    settle(qtbot, w)
    press(qtbot, w, QtCore.Qt.Key.Key_Left)  # ← likewise opens it, without stepping back
    assert s.lesson_visible and s.lesson_step == step_index("attention.scores") + 1


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_training_pages_fit_their_column_at_both_text_sizes(qtbot, projector, language):
    """The shared training page beside the lesson at A and A+: nothing wider than its column
    (it scrolled sideways, the status line, the second legend and the weights label cut at
    the right edge); at A nothing cut anywhere and its figures take two fifths of the stage."""
    w = projector
    w.state.set_language(language)
    for zoom in (0, 1):
        w.state.set_text_zoom(zoom)
        for step_id in TRAINING_STEPS:
            w.state.set_lesson_step(step_index(step_id))
            settle(qtbot, w)
            qtbot.wait(30)
            view = w.tabs.current_view()
            where = (language, zoom, step_id)
            assert not sideways_problems(view), (where, sideways_problems(view))
            if zoom == 0:
                assert not cut_problems(w), (where, cut_problems(w))
                assert not too_small(view), (where, too_small(view))
    w.state.set_text_zoom(0)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_training_steps_figures_take_two_fifths_of_the_stage(qtbot, projector, language):
    w = projector
    w.state.set_language(language)
    small = {}
    for step_id in (*TRAINING_STEPS, "translation.length_curve"):
        w.state.set_lesson_step(step_index(step_id))
        settle(qtbot, w)
        qtbot.wait(30)
        small[step_id] = too_small(w.tabs.current_view())
    assert not any(small.values()), small


def test_the_split_into_heads_is_its_own_picture_in_the_ordinary_window(qtbot, make_window):
    """Trial 10: in the ordinary window (every stage on show, the step's framed) step 4 framed
    Q alone, the picture of step 3: its Q of every head is shown only zoomed. The step zooms
    into it, and the steps beside it show every stage again."""
    w = make_window(AttentionConfig(sentence=ANIMAL), size=(1400, 900))
    w.state.show_lesson(True)
    heads_step = step_index("attention.heads")
    w.state.set_lesson_step(heads_step - 1)
    qtbot.waitUntil(lambda: not w.worker.busy(), timeout=WAIT_MS)
    assert w.state.stage_zoom is None
    assert w.pipeline.index("Q_heads") not in w.pipeline.canvas.figure.shown()
    w.state.set_lesson_step(heads_step)
    qtbot.waitUntil(lambda: not w.worker.busy(), timeout=WAIT_MS)
    assert w.state.stage_zoom == STAGE_PANELS["heads"]
    qtbot.waitUntil(lambda: w.pipeline.index("Q_heads") in w.pipeline.canvas.figure.shown(), timeout=WAIT_MS)
    w.state.set_lesson_step(heads_step + 1)
    assert w.state.stage_zoom is None  # every stage again, the next one framed
    w.state.set_lesson_step(heads_step)
    w.state.set_stage_zoom(("scores",))  # one the teacher chose ...
    w.state.set_lesson_step(heads_step + 1)
    assert w.state.stage_zoom == STAGE_PANELS["scores"]  # ... follows the lesson as before


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_a_field_with_the_keys_says_under_it_that_esc_gives_them_back(qtbot, projector, language):
    """Trial 10: on a projector the status bar is hidden, and nothing on screen said how to get
    the keys back from the sentence; → then moved the text cursor, not the lesson."""
    w = projector
    s = w.state
    s.set_language(language)
    s.show_lesson(True)
    settle(qtbot, w)
    hint = w.classroom.key_hint
    assert not hint.isVisible()
    field = w.sentence_bar.sentence
    qtbot.mouseClick(field, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(4, field.height() // 2))
    assert hint.isVisible() and "Esc" in hint.text()
    where, box = hint.geometry(), QtCore.QRect(field.mapTo(w, QtCore.QPoint(0, 0)), field.size())
    assert w.rect().contains(where) and not where.intersects(box)  # whole, beside the field
    assert hint.width() >= hint.sizeHint().width() or hint.wordWrap()  # its whole text
    s.show_lesson(False)  # on a projector without the lesson, the keys go back to the stage
    assert hint.isVisible() and "0 … 9" in hint.text()
    s.show_lesson(True)
    press(qtbot, w, QtCore.Qt.Key.Key_Escape)
    assert not hint.isVisible() and not typing_in(QtWidgets.QApplication.focusWidget())
