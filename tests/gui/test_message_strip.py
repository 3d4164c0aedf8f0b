"""The window's messages float over the stage at a 1024×768 projector: an error over its top,
whole (wrapped, a file's path broken at its separators), in Chinese too; a note of the result
over its bottom edge, and not at all while the lesson column shows the notes. No row is kept
for them: the tabs sit right under the sentence bar and never move when a message comes."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.core.config import AttentionConfig

from .helpers import ANIMAL, WAIT_MS

BROKEN = (
    "/home/teacher/models/my-bert-base-uncased/model.safetensors 无法读取或已损坏"
    "（Error while deserializing header: header too small）；请重新下载"
)


@pytest.fixture
def projector(make_window, qtbot):
    w = make_window(AttentionConfig(sentence=ANIMAL), size=(1024, 768))
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    w.state.show_lesson(True)
    w.state.set_language("zh_CN")
    qtbot.waitUntil(lambda: not w.worker.busy(), timeout=WAIT_MS)
    settle()
    return w


def settle() -> None:
    QtWidgets.QApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)
    QtWidgets.QApplication.processEvents()


def top_of(widget, w) -> int:
    return widget.mapTo(w, QtCore.QPoint()).y()


def whole(label) -> bool:
    """Every wrapped line of the label inside it."""
    return label.heightForWidth(label.width()) <= label.height()


def test_an_error_floats_whole_over_the_stage_and_the_tabs_stay_put(projector):
    w = projector
    bar = w.sentence_bar
    tabs_top = top_of(w.tabs, w)
    assert tabs_top - (top_of(bar, w) + bar.height()) <= 4  # no empty row between them
    w.show_error(BROKEN)
    settle()
    strip, banner = w.strip, w.banner
    assert strip.isVisible() and banner.isVisible() and top_of(w.tabs, w) == tabs_top
    assert strip.parent() is w.tabs  # in no layout: it takes no row
    assert top_of(strip, w) >= tabs_top + w.tabs.tabBar().height()  # under the tab bar, over the stage
    assert strip.geometry().right() < w.tabs.width()
    assert banner.text().startswith(BROKEN) and whole(banner), (banner.height(), banner.width())
    assert banner.heightForWidth(banner.width()) > banner.fontMetrics().height() * 1.5  # it wrapped
    strip.close_button.click()  # ×: gone until the next message
    assert not strip.isVisible() and top_of(w.tabs, w) == tabs_top
    w.show_error("另一个错误")
    assert strip.isVisible() and banner.text().startswith("另一个错误")
    w.hide_banner()
    assert not strip.isVisible() and top_of(w.tabs, w) == tabs_top


def test_a_note_floats_over_the_bottom_edge_unless_the_lesson_shows_it(projector):
    w = projector
    strip = w.strip
    w.strip.set_notice("注意：这是一条关于结果的说明，它很长，长到需要换行才能整段显示出来，" * 2)
    settle()
    assert not strip.isVisible()  # the lesson column has the notes
    w.state.show_lesson(False)
    settle()
    assert strip.isVisible() and w.notice.isVisible() and whole(w.notice)
    stage = w.tabs.currentWidget()
    bottom = stage.mapTo(w.tabs, QtCore.QPoint(0, stage.height())).y()
    assert strip.geometry().bottom() <= bottom and strip.geometry().top() > w.tabs.height() // 2
    w.show_error("出错了")  # an error goes on top, over the note
    settle()
    assert w.banner.isVisible() and not w.notice.isVisible()
    assert strip.geometry().top() < w.tabs.height() // 2
    w.hide_banner()
    assert w.notice.isVisible() and strip.geometry().top() > w.tabs.height() // 2
