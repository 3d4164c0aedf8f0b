"""What a keystroke costs on the Translation tab: the pages below the score keep their size
while a date is typed (a resize redrew the training curves twice a keystroke), and the
score box still fits its text once the typing pauses."""

from __future__ import annotations

from PySide6 import QtCore

from explorer.gui.labs.translation.view import SCORE_SHRINK_MS, TRAIN_PAGE

from .helpers import WAIT_MS
from .test_translation_tab import tab, wait_translation  # noqa: F401  (the fixture)

LONG, SHORT = "9 mai 2018", "9 mai 201"  # a date's score and misses; half a date's notice


class Resizes(QtCore.QObject):
    def __init__(self, widget):
        super().__init__(widget)
        self.seen = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Resize:
            self.seen += 1
        return False


def type_into(qtbot, view, text: str) -> None:
    view.source_edit.setText(text)
    wait_translation(qtbot, view, source=text)


def fitted_height(view) -> int:
    """The score box's height for the text on screen, as _fit_score sizes it."""
    line = view.score_label.fontMetrics().lineSpacing()
    view.score_label.setMinimumHeight(0)
    need = view.score_label.heightForWidth(max(50, view.score_scroll.viewport().width()))
    view.score_label.setMinimumHeight(need)
    return max(line, min(need, 3 * line)) + 2


def fitted_and_laid_out(view) -> bool:
    """The score box fits its text and the pages below have followed it. The box takes its
    height at once, the pages theirs in a later layout pass: counting resizes before that pass
    counted the pass too (CI, stop 39: a 12 px resize and its undoing)."""
    below = view.score_scroll.geometry().bottom() + 1 + view.pages.parentWidget().layout().spacing()
    return view.score_scroll.height() == fitted_height(view) and view.pages.y() == below


def test_typing_keeps_the_pages_size_and_the_score_box_fits_after(qtbot, tab):  # noqa: F811
    window, view = tab
    window.resize(1280, 900)  # as wide as the bench's tab beside the settings column: two lines or three
    window.state.translation.set_model("transformer")
    view.pages.setCurrentIndex(TRAIN_PAGE)
    type_into(qtbot, view, LONG)
    qtbot.waitUntil(lambda: fitted_and_laid_out(view), timeout=WAIT_MS)
    tall = view.score_scroll.height()
    type_into(qtbot, view, SHORT)
    qtbot.waitUntil(lambda: fitted_and_laid_out(view), timeout=WAIT_MS)
    short = view.score_scroll.height()
    assert short < tall  # the texts need different heights (else this would test nothing)
    pages = Resizes(view.pages)
    # typing: a keystroke every few tens of milliseconds. Each keystroke here waits for its
    # translation, which on a loaded machine took longer than the pause that shrinks the box
    # (half the runs failed): the pause is held off while typing, then given back
    view._shrink.setInterval(10 * 60_000)
    for text in (LONG, SHORT) * 3:
        type_into(qtbot, view, text)
        qtbot.wait(10)
        assert view.score_scroll.height() == tall, text
    assert pages.seen <= 1  # grown once (to the longer text), never shrunk while typing
    assert view._shrink.isActive()  # the last, shorter text asked for the pause
    view._shrink.setInterval(SCORE_SHRINK_MS)  # restarts it: the pause from now
    # the pause: the box fits the text on screen, not the longest typed before it
    qtbot.waitUntil(lambda: view.score_scroll.height() == short, timeout=WAIT_MS)
