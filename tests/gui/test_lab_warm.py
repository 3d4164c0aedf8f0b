"""The labs' warm-up starts once a lab's page is on show and the window has been calm a moment;
input or a busy window puts it off, and a window that never shows a lab never makes it."""

import importlib
import threading

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.gui.lab import warm
from explorer.gui.labs_tab import LabsPage

warm_up_module = importlib.import_module("explorer.lab.warm_up")  # explorer.lab.warm_up is its function


@pytest.fixture
def fresh(monkeypatch):
    """A process whose labs' warm-up has not started; ``starts`` records warm_up_labs' calls."""
    monkeypatch.setattr(warm_up_module, "_started", threading.Event())
    monkeypatch.setattr(warm_up_module, "_done", threading.Event())
    monkeypatch.setattr(warm, "CALM_MS", 300)
    monkeypatch.setattr(warm, "_watchers", [])
    starts: list[float] = []
    monkeypatch.setattr(warm, "warm_up_labs", lambda: (starts.append(1), warm_up_module._started.set()))
    return starts


def turns(ms: int) -> None:
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(ms, loop.quit)
    loop.exec()


def test_the_warm_up_starts_when_the_window_is_calm(qtbot, fresh):
    window = QtWidgets.QWidget()
    qtbot.addWidget(window)
    LabsPage([], parent=window)
    turns(600)
    assert fresh == []  # a window never shown is not idle
    window.show()
    qtbot.waitUntil(lambda: fresh == [1], timeout=5000)
    turns(400)
    assert fresh == [1]  # once


def test_a_window_that_never_shows_a_lab_never_warms_up(qtbot, fresh):
    """The warm-up costs every process ~140 MB (torch._dynamo's imports): it waits until a lab's
    page is on show. Before, a calm window started it whatever tab was open."""
    tabs = QtWidgets.QTabWidget()
    qtbot.addWidget(tabs)
    tabs.addTab(QtWidgets.QLabel("text"), "text")
    labs = LabsPage([QtWidgets.QLabel("lab")])
    tabs.addTab(labs, "labs")
    tabs.show()
    qtbot.waitExposed(tabs)
    turns(900)  # three times the calm, the labs' tab never opened
    assert fresh == [] and not labs.isVisible()
    assert not warm._watchers[0].timer.isActive()  # nothing ticks while no lab is on show
    tabs.setCurrentIndex(1)  # the labs' tab opened: it starts once the window is calm
    qtbot.waitUntil(lambda: fresh == [1], timeout=5000)


def test_the_window_warms_up_when_a_lab_is_opened(qtbot, fresh, window):
    """The real window: calm on its text tabs for three times the calm, no warm-up; the
    Translation lab opened (as a lesson's lab step opens it), it starts."""
    assert window.state.tab not in window.state.labs
    turns(900)
    window.state.set_tab("pipeline")
    turns(900)
    assert fresh == []
    window.state.set_tab("translation")
    qtbot.waitUntil(lambda: fresh == [1], timeout=10_000)


def test_the_lesson_s_step_before_a_lab_warms_it_up_ahead(qtbot, fresh, window):
    """The lesson builds the next step's lab page ahead while the class is on the step before:
    the calm is counted from then, so Train on the lab's step does not wait 3 s for the warm-up."""
    from explorer.appstate.lesson import STEPS

    first_lab = next(i for i, step in enumerate(STEPS) if step.tab in window.state.labs)
    window.state.show_lesson(True)
    window.state.set_lesson_step(first_lab - 1)
    assert window.state.tab not in window.state.labs
    qtbot.waitUntil(lambda: fresh == [1], timeout=15_000)
    assert window.state.tab not in window.state.labs  # still on the step before


def test_leaving_the_labs_tab_puts_the_warm_up_off(qtbot, fresh):
    tabs = QtWidgets.QTabWidget()
    qtbot.addWidget(tabs)
    tabs.addTab(QtWidgets.QLabel("text"), "text")
    tabs.addTab(LabsPage([QtWidgets.QLabel("lab")]), "labs")
    tabs.show()
    for _ in range(4):  # the labs' tab on show 0.2 s at a time: never 0.3 s
        tabs.setCurrentIndex(1)
        turns(200)
        tabs.setCurrentIndex(0)
        turns(400)
        assert fresh == []
    tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: fresh == [1], timeout=5000)


def test_input_puts_the_warm_up_off(qtbot, fresh):
    window = QtWidgets.QWidget()
    qtbot.addWidget(window)
    LabsPage([], parent=window)
    window.show()
    for _ in range(8):  # a key every 100 ms for 0.8 s: never 300 ms calm
        qtbot.keyClick(window, "a")
        turns(100)
        assert fresh == []
    qtbot.waitUntil(lambda: fresh == [1], timeout=5000)


def test_a_warm_up_started_elsewhere_is_not_started_again(qtbot, fresh):
    window = QtWidgets.QWidget()
    qtbot.addWidget(window)
    LabsPage([], parent=window)
    warm_up_module._started.set()  # a lab's tab was built first
    window.show()
    turns(700)
    assert fresh == []


def test_a_labs_curves_built_while_typing_wait_for_the_calm(qtbot, fresh):
    """A lab's tab is built as it is opened, and its curves started the warm-up at once: its
    imports then shared the interpreter lock with the first keystrokes on the tab (their time
    doubled, blocks of 90 ms). They wait for the window's calm, as the start-up's do."""
    from explorer.gui.heatmap import Style
    from explorer.gui.lab.curves import CurvePlot

    window = QtWidgets.QWidget()
    qtbot.addWidget(window)
    window.show()
    for _ in range(3):  # one watcher for the window: each sees every event while it waits
        CurvePlot(Style.make(13), parent=window).show()
    assert len(warm._watchers) == 1
    for _ in range(6):  # typing: a key every 100 ms
        qtbot.keyClick(window, "a")
        turns(100)
        assert fresh == []
    qtbot.waitUntil(lambda: fresh == [1], timeout=5000)


def test_train_pressed_before_the_calm_starts_the_warm_up(qtbot, fresh, window, monkeypatch):
    """The warm-up waits for the calm; a Train pressed before it (a user who kept typing or
    moving the mouse) starts it, and the run waits for it: without, the run imported torch's
    optimiser modules itself and a GUI-thread collection walked their objects (80 ms)."""
    monkeypatch.setattr(warm, "CALM_MS", 10**9)
    window.state.set_tab("translation")
    view = window.view("translation")
    page = view.training
    page.steps.setValue(10)
    assert fresh == []
    qtbot.mouseClick(page.train_button, QtCore.Qt.MouseButton.LeftButton)
    assert fresh == [1]
    window.state.translation.cancel_training()
    qtbot.waitUntil(lambda: not window.state.translation.training, timeout=60_000)
