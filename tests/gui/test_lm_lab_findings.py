"""Trial 8's walk of the language-model lab at 1024×768 on a projector, in Chinese: the training
page's legends name exactly the lines drawn (colour and dash), the goal's dashed line too, and
"dashed: the shipped run" stays while its lines do; the lesson's words about the slider are
true before a run; the figures' labels are as large as the window's; a clicked cell's read-out
is never cut."""

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS, step_index
from explorer.core.config import AttentionConfig
from explorer.gui.i18n import translate
from explorer.gui.lab.curves import GOAL_COLOUR, packed
from explorer.gui.views.registry import Tab
from explorer.lm.train import LMSpec

from .helpers import WAIT_MS
from .test_lm_tab import wait_result

SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)


class InductionRun:
    """What the training page reads of an induction run whose phase change came at step 200."""

    spec = LMSpec("induction")
    steps, eval_steps = 600, [100, 200, 300]
    losses = [3.0] * 300
    metrics = [
        {"first_half_loss": 4.0, "repeated_half_loss": r, "best_previous_token": 0.4, "best_induction": 0.6}
        for r in (3.9, 1.0, 0.3)
    ]

    def series(self, name):
        return [m.get(name, 0.5) for m in self.metrics]

    def last(self, name):
        return self.series(name)[-1]


def projector(make_window, qtbot, language: str):
    window = make_window(SMALL, size=(1024, 768))
    window.state.set_language(language)
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.show_lesson(True)
    window.resize(1024, 768)
    window.state.set_lesson_step("lm.phase_change")
    view = window.view(Tab.LM)
    wait_result(qtbot, view, 2 * WAIT_MS)  # the labs warm up first
    page = view.train_page
    qtbot.waitUntil(lambda: all(p.plot is not None for p in page.plots), timeout=WAIT_MS)
    return window, view, page


def drawn_lines(plot) -> set[tuple[str, bool]]:
    """(colour, dashed) of every line the plot draws: its items with data, the goal's line."""
    lines = set()
    for item in plot._items:
        xs, _ = item.getData()
        pen = item.opts["pen"]
        if item.isVisible() and xs is not None and len(xs) and pen is not None:
            lines.add((QtGui.QPen(pen).color().name().lower(), pen.style() == QtCore.Qt.PenStyle.DashLine))
    if plot._goal.isVisible():
        lines.add((plot._goal.pen.color().name().lower(), True))
    return lines


def legend(curves) -> set[tuple[str, bool]]:
    return {(s.colour.lower(), s.dashed) for s in curves.series if s.in_legend}


def legend_lines(plot, curves) -> int:
    """How many lines the title and legend take in the plot's title's own width."""
    label = plot.plot.getPlotItem().titleLabel
    room = label.rect().width() - 2 * label.item.document().documentMargin()
    widths = [w for _, w in plot._parts]
    return len(packed(widths, room, plot._gap))


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_training_legends_name_exactly_the_lines_drawn(qtbot, make_window, language):
    """Before a run the shipped run's dashed lines are what the legends name (on main: the
    run's solid lines, empty, in the legend; the dashed ones and the goal's 0.5 line not);
    after a run its solid lines, the status line naming the dashed ones, every legend in two
    lines (on main the loss's took three: its axis lost ticks)."""
    window, view, page = projector(make_window, qtbot, language)
    assert view.lab.run is None
    for plot in page.plots:
        qtbot.waitUntil(lambda plot=plot: bool(drawn_lines(plot)), timeout=WAIT_MS)
        assert legend(plot.curves) == drawn_lines(plot), plot.curves.title
        assert legend_lines(plot, plot.curves) <= 2, plot.curves.title
    assert (GOAL_COLOUR.lower(), True) in legend(page.plots[1].curves)  # the 0.5 line, named
    dashed = translate("LabTraining", "Dashed: the shipped run.").rstrip(".。")
    assert dashed in page.status.text()

    run = InductionRun()
    for plot, curves in zip(page.plots, page.content.curves(view.lab, run, 200)):
        plot.set_curves(curves)
        QtWidgets.QApplication.processEvents()
        solid = {line for line in drawn_lines(plot) if not line[1]}
        named = legend(curves)
        assert named <= drawn_lines(plot), curves.title  # every entry a line drawn
        assert solid <= named, curves.title  # every solid line named
        assert legend_lines(plot, curves) <= 2, curves.title
    assert dashed in page.content.measure(run)  # the status line, while the dashed lines show


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_phase_change_step_says_the_slider_replays_a_run_once_trained(qtbot, make_window, language):
    """Before a run Replay and its slider are off (the shipped run keeps no snapshots): the
    step's words say to train first (on main: "Drag the slider to replay…" as the step opens)."""
    window, view, page = projector(make_window, qtbot, language)
    assert view.lab.run is None
    assert not page.scrubber.isEnabled() and not page.play_button.isEnabled()
    step = STEPS[step_index("lm.phase_change")]
    words = translate("Lesson", step.explanation)
    english = step.explanation
    assert "Once your run has trained, drag the slider" in english
    assert "Drag the slider" not in english
    if language == "zh_CN":
        assert words != english and "训练好之后" in words and "快照" in words


def wrapped_lines(label: QtWidgets.QLabel) -> list[str]:
    """A word-wrapped label's lines as Qt breaks them at its width."""
    layout = QtGui.QTextLayout(label.text(), label.font())
    option = QtGui.QTextOption()
    option.setWrapMode(QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(label.contentsRect().width())
        lines.append(label.text()[line.textStart() : line.textStart() + line.textLength()])
    layout.endLayout()
    return lines


def test_the_next_tokens_share_keeps_its_number_and_percent_sign_together(qtbot, make_window):
    """Step 52 on a projector in Chinese: "这 10 个合计占 70.1 % 的概率" wrapped as "70.1 / %"
    on main (a plain space between them); the share and its sign share a line."""
    window = make_window(SMALL, size=(1024, 768))
    window.state.set_language("zh_CN")
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.show_lesson(True)
    window.resize(1024, 768)
    window.state.set_lesson_step("decoder.induction")
    view = window.view("heads")
    panel = view.next_tokens
    qtbot.waitUntil(lambda: panel.answer is not None and "%" in panel.mass.text(), timeout=4 * WAIT_MS)
    QtWidgets.QApplication.processEvents()
    text = panel.mass.text()
    assert " %" not in text, text  # no plain space before a % sign: no break there
    lines = wrapped_lines(panel.mass)
    assert len(lines) > 1 and not any(line.lstrip().startswith("%") for line in lines), lines
