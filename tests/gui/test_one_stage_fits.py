"""Trial 8 (tester, Xvfb at 1024x768, Chinese, presentation mode): after "Show: every stage"
then "Show: tokens", every single stage shown afterwards kept the every-stage height: the map
filled a scroll area about four times the pane's height, 4 of the 15 rows in view."""

from PySide6 import QtWidgets

from explorer.appstate.presets import DEFAULT_PRESET
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS


def settle(qtbot, w):
    qtbot.waitUntil(lambda: not w.worker.busy(), timeout=WAIT_MS)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()


def test_one_stage_fits_the_pane_after_every_stage_then_tokens(qtbot, make_window):
    w = make_window(DEFAULT_PRESET.config(), size=(1024, 768))
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    w.state.set_tab(Tab.PIPELINE)
    view = w.view(Tab.PIPELINE)
    settle(qtbot, w)
    w.state.set_stage_zoom(("mask",))
    settle(qtbot, w)
    fits = view.scroll.viewport().height()
    assert view.canvas.height() <= fits + 2  # one stage straight away: it fits (it always did)
    for zoom in (None, ("tokens",), ("mask",)):  # the Show: picker, as the teacher used it
        w.state.set_stage_zoom(zoom)
        settle(qtbot, w)
    assert view.canvas.height() <= view.scroll.viewport().height() + 2, (
        view.canvas.height(),
        view.scroll.viewport().height(),
    )
