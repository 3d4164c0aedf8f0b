"""The tab of a lesson's next step is built while the lesson waits on a step (trial 6, T6:
a step into a lab built the lab's view in the key's turn, 100–165 ms of the GUI thread's
CPU); the key then only shows it. The view is built a piece per event-loop turn."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.core.config import AttentionConfig
from explorer.gui.tab_pieces import import_in_pieces, top_level_imports
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS

SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)


def test_the_next_steps_lab_is_built_before_its_key_and_the_key_shows_it(qtbot, make_window):
    w = make_window(SMALL, size=(1024, 768))
    w.classroom.set_presentation(True, fullscreen=False)
    w.state.show_lesson(True)
    first_lab = next(i for i, s in enumerate(STEPS) if s.tab != Tab.PIPELINE)
    lab = STEPS[first_lab].tab
    w.state.set_lesson_step(first_lab - 1)
    assert w.state.tab == Tab.PIPELINE and w.tabs.built(lab) is None
    qtbot.waitUntil(lambda: w.tabs.built(lab) is not None, timeout=WAIT_MS)  # no key pressed
    ahead = w.tabs.built(lab)
    assert not ahead.isVisible()
    w.state.step_lesson(+1)
    assert w.state.tab == lab and w.tabs.built(lab) is ahead and ahead.isVisible()
    assert w.tabs.current_view() is ahead


def test_no_tab_is_built_ahead_without_the_lesson(qtbot, make_window):
    w = make_window(SMALL, size=(1024, 768))
    first_lab = next(i for i, s in enumerate(STEPS) if s.tab != Tab.PIPELINE)
    w.state.set_lesson_step(first_lab - 1)
    w.state.show_lesson(False)
    qtbot.wait(600)
    QtWidgets.QApplication.processEvents()
    assert w.tabs.built(STEPS[first_lab].tab) is None and not w.tabs.pieces.busy()


def test_a_modules_imports_are_read_from_its_source_parents_first():
    found = top_level_imports("explorer.gui.tabs")
    assert found[:2] == ["explorer", "explorer.gui"]
    assert "explorer.gui.tab_pieces" in found and "explorer.gui.views.registry" in found
    assert all(m.startswith("explorer") for m in found)


def test_importing_in_pieces_yields_between_modules():
    # every module already imported: nothing to do, no turn taken
    assert list(import_in_pieces("explorer.gui.tabs")) == []


def test_a_built_lab_out_of_sight_is_laid_out_at_the_new_size_before_its_key(qtbot, make_window):
    """Its pending resize (and its plots' first paint) came in the key's turn: 31→30 into the
    Vision lab's training page, 64–91 ms of GUI CPU."""
    w = make_window(SMALL, size=(1024, 768))
    w.classroom.set_presentation(True, fullscreen=False)
    w.state.show_lesson(True)
    first_lab = next(i for i, s in enumerate(STEPS) if s.tab != Tab.PIPELINE)
    lab = STEPS[first_lab].tab
    w.state.set_lesson_step(first_lab)
    qtbot.waitUntil(lambda: w.tabs.built(lab) is not None and w.tabs.built(lab).isVisible(), timeout=WAIT_MS)
    w.state.set_lesson_step(first_lab - 2)
    before = w.tabs.currentWidget().size()
    w.resize(1180, 860)  # the lab's page, out of sight, keeps its old size
    qtbot.waitUntil(lambda: w.tabs.currentWidget().size() != before, timeout=WAIT_MS)
    page = w.tabs.built(lab).parentWidget()
    w.state.set_lesson_step(first_lab - 1)  # its next step is the lab's

    def laid_out() -> bool:
        return page.width() == w.tabs.labs_page.stack.contentsRect().width() and not any(
            x.testAttribute(QtCore.Qt.WidgetAttribute.WA_PendingResizeEvent)
            for x in [page, *page.findChildren(QtWidgets.QWidget)]
            if x is page or x.isVisibleTo(page)  # what the key shows (a hidden part waits)
        )

    qtbot.waitUntil(lambda: laid_out() and not w.tabs.pieces.busy(), timeout=WAIT_MS)
    assert not page.isVisible()
    w.state.step_lesson(+1)
    assert w.tabs.built(lab).isVisible() and page.width() == w.tabs.labs_page.stack.contentsRect().width()


def test_the_visible_view_is_drawn_first_and_the_lessons_next_tab_on_later_turns(qtbot, make_window):
    """A new trace: the tab on show draws it in the trace's turn; a tab the lesson looks ahead
    to, built and out of sight, draws it a part per later turn, so the key that shows it only
    shows it (51→50 drew the whole Pipeline in the key's turn)."""
    from dataclasses import replace

    w = make_window(SMALL, size=(1024, 768))
    w.state.show_lesson(True)
    heads, pipeline = w.tabs.view(Tab.HEADS), w.tabs.current_view()
    w.tabs.prepare(Tab.HEADS)  # as the lesson's look-ahead does when its next step shows it
    qtbot.waitUntil(lambda: not w.tabs.pieces.busy(), timeout=WAIT_MS)
    log: list[tuple[str, int]] = []

    def logged(name, view):
        draw = view.draw

        def wrapped(prepared):
            for part in draw(prepared):
                log.append((name, w.tabs.pieces.turns))
                yield part
            log.append((name + " done", w.tabs.pieces.turns))

        return wrapped

    pipeline.draw, heads.draw = logged("pipeline", pipeline), logged("heads", heads)
    # what was drawn when the visible view said it was done: the look-ahead's 0 ms timer may
    # run in the same pass of the event loop before waitSignal's loop returns (CI, stop 38)
    at_rendered: list[tuple[list[str], int]] = []
    w.rendered.connect(lambda: at_rendered.append(([n for n, _ in log], w.tabs.pieces.turns)))
    with qtbot.waitSignal(w.rendered, timeout=WAIT_MS):
        w.state.set_config(replace(w.state.config, sentence="Thinking Machines think"))
    names, drawn = at_rendered[0]
    assert names[-1] == "pipeline done" and not any(n.startswith("heads") for n in names)
    qtbot.waitUntil(lambda: not w.tabs.pieces.busy(), timeout=WAIT_MS)
    parts = [turn for n, turn in log if n == "heads"]
    assert parts and parts[0] > drawn  # after the visible view, in the look-ahead's turns
    assert len(set(parts)) == len(parts)  # one part a turn
    assert not heads.isVisible() and not heads.stale
    count = len(log)
    w.state.set_tab(Tab.HEADS)
    assert heads.isVisible() and len(log) == count  # the key only shows it


def test_a_tab_shown_while_its_drawing_ahead_is_under_way_is_drawn_whole_first(qtbot, make_window):
    from dataclasses import replace

    w = make_window(SMALL, size=(1024, 768))
    w.state.show_lesson(True)
    heads = w.tabs.view(Tab.HEADS)
    w.tabs.prepare(Tab.HEADS)
    qtbot.waitUntil(lambda: not w.tabs.pieces.busy(), timeout=WAIT_MS)
    w.tabs.pieces.timer.stop()  # the look-ahead's turns held back: its drawing waits
    with qtbot.waitSignal(w.rendered, timeout=WAIT_MS):
        w.state.set_config(replace(w.state.config, sentence="Thinking Machines think"))
    w.tabs.pieces.timer.stop()
    assert w.tabs.pieces.pending("draw:heads") and heads.stale
    w.tabs.pieces._next()  # one part drawn
    w.state.set_tab(Tab.HEADS)
    assert not w.tabs.pieces.pending("draw:heads")
    assert heads.prepared is w.prepared and len(heads.canvas.panels) == w.trace.heads


def test_a_heavy_piece_is_followed_by_a_pause_a_light_one_is_not(qtbot, monkeypatch):
    """0 ms turns came back to back: a 21 ms piece and a 20 ms one made one 41 ms block."""
    from explorer.gui import tab_pieces

    owner = QtCore.QObject()
    pieces = tab_pieces.Pieces(owner)
    order: list[str] = []

    def walk(name):
        for i in range(3):
            order.append(f"{name}{i}")
            yield

    monkeypatch.setattr(tab_pieces, "HEAVY_MS", -1.0)  # every piece heavy
    pieces.start("a", lambda: walk("a"))
    pieces._next()
    assert order == ["a0"] and pieces.timer.interval() == tab_pieces.PAUSE_MS > 0
    other = QtCore.QTimer(interval=1)
    other.timeout.connect(lambda: order.append("tick"))
    other.start()
    qtbot.waitUntil(lambda: not pieces.busy(), timeout=WAIT_MS)
    other.stop()
    built = [x for x in order if x != "tick"]
    assert built == ["a0", "a1", "a2"]
    assert all(order[i + 1] == "tick" for i, x in enumerate(order[:-1]) if x in ("a0", "a1"))
    monkeypatch.setattr(tab_pieces, "HEAVY_MS", float("inf"))  # none heavy
    pieces.start("b", lambda: walk("b"))
    pieces._next()
    assert order[-1] == "b0" and pieces.timer.interval() == 0
    qtbot.waitUntil(lambda: not pieces.busy(), timeout=WAIT_MS)


def test_a_drawing_ahead_of_an_older_trace_leaves_the_tab_stale(qtbot, make_window):
    """A large trace is drawn on screen in slices: the look-ahead's older drawing could run in
    those turns, say the tab was drawn, and the key then showed the older trace."""
    from dataclasses import replace

    w = make_window(SMALL, size=(1024, 768))
    w.state.show_lesson(True)
    heads = w.tabs.view(Tab.HEADS)
    w.tabs.prepare(Tab.HEADS)
    qtbot.waitUntil(lambda: not w.tabs.pieces.busy(), timeout=WAIT_MS)
    w.tabs.pieces.timer.stop()
    with qtbot.waitSignal(w.rendered, timeout=WAIT_MS):
        w.state.set_config(replace(w.state.config, sentence="Thinking Machines think"))
    w.tabs.pieces.timer.stop()
    w.tabs.pieces._next()  # its first part: the tab says it is drawn
    assert not heads.stale
    w.prepared = replace(w.prepared)  # a newer trace, still being drawn on screen
    qtbot.waitUntil(lambda: not w.tabs.pieces.busy(), timeout=WAIT_MS)
    assert heads.stale  # the key that shows it draws the newest
