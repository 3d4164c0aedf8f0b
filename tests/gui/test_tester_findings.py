"""What a tester found using the window for real (Xvfb), each as the test that would have caught it."""

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lines import LinesOptions
from explorer.appstate.vision import Picture
from explorer.core.config import AttentionConfig
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS

B = QtWidgets.QMessageBox.StandardButton


@pytest.fixture
def small(make_window):
    return make_window(AttentionConfig(sentence="a b c", weights="random"))


def asked_when_quitting(qtbot, w) -> bool:
    """Press Ctrl+Q; True when the unsaved-changes question showed (answered Cancel: the
    window stays)."""
    asked = []

    def cancel():
        box = getattr(w, "unsaved_box", None)
        if box is None or not box.isVisible():
            if w.isVisible() and not asked:
                QtCore.QTimer.singleShot(10, cancel)
            return
        asked.append(True)
        box.button(B.Cancel).click()

    QtCore.QTimer.singleShot(0, cancel)
    w.quit_action.trigger()
    assert w.isVisible() == bool(asked)
    return bool(asked)


# -- 1. every setting a session saves counts as a change -----------------------------------------------------


def test_typing_a_source_and_picking_a_model_on_the_translation_tab_asks_before_quitting(
    qtbot, small, tmp_path
):
    """The tester opened a session, typed a date on the Translation tab and picked Luong:
    Ctrl+Q quit without asking, and both were lost."""
    w = small
    path = tmp_path / "lesson.aexp.json"
    assert w.files.save(path) and w.files.open(path)
    w.state.set_tab(Tab.TRANSLATION)
    view = w.view(Tab.TRANSLATION)
    qtbot.waitUntil(lambda: view.isVisible(), timeout=WAIT_MS)
    assert not w.unsaved()  # only looking: nothing to lose
    view.source_edit.clear()
    qtbot.keyClicks(view.source_edit, "9.5.18")
    assert w.state.translation.settings.source == "9.5.18"
    assert asked_when_quitting(qtbot, w)
    w.files.save(path)
    assert not w.unsaved()
    view.model_box.setCurrentIndex(view.model_box.findData("luong"))
    assert w.state.translation.settings.model == "luong"
    assert asked_when_quitting(qtbot, w)


CHANGES = {
    "translation source": lambda s: s.translation.set_source("9.5.18"),
    "translation model": lambda s: s.translation.set_model("luong"),
    "translation attention": lambda s: s.translation.set_attention("hard"),
    "translation layer": lambda s: (s.translation.set_model("transformer"), s.translation.set_layer(0)),
    "translation view": lambda s: s.translation.set_view("lines"),
    "translation training": lambda s: s.translation.set_training_options(steps=77, seed=3),
    "vision model": lambda s: s.vision.set_variant("se"),
    "vision picture": lambda s: s.vision.set_picture(Picture(seed=11)),
    "vision brush": lambda s: s.vision.set_brush("blue", 4.0),
    "vision training": lambda s: s.vision.set_training_plan(77, 3),
    "board": lambda s: s.board.set_board(s.board.board.with_tied(not s.board.board.tied)),
    "lines": lambda s: s.lines.set_options(LinesOptions(pipeline=True)),
    "questions": lambda s: s.predict.set_enabled(True),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_every_setting_a_session_keeps_asks_before_quitting(qtbot, small, change):
    w = small
    saved = w.files.current()
    assert not w.unsaved()
    CHANGES[change](w.state)
    assert w.files.current() != saved  # the change is one a session file keeps
    assert asked_when_quitting(qtbot, w)


def test_looking_around_the_tabs_is_no_change(qtbot, small):
    """Browsing (selections, pages, tabs) quits without a question, on every tab."""
    w = small
    for tab in (Tab.TRANSLATION, Tab.VISION, Tab.BOARD):
        w.state.set_tab(tab)
        qtbot.wait(50)
    w.state.translation.select((0, 0))
    w.state.vision.set_page("channel")
    w.state.vision.select_channel(1)
    qtbot.wait(50)
    assert not w.unsaved()
    assert not asked_when_quitting(qtbot, w)
