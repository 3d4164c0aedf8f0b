"""The training page every lab shows: the plan of a run, Train and Cancel, its progress, its
curves, the scrubber with Replay, and the shipped checkpoint or the run's weights.

The run and the weights are the lab's state (explorer.appstate.lab.LabState); the page edits
them and redraws from them. A timer on the GUI thread takes the run's progress every
``POLL_MS`` (``LabState.poll``): however fast the steps come, the window does one bounded
update per tick, and the curves are redrawn at most every ``CURVES_MS``: one plot per tick
(and after a run, one per paint), only a plot whose data changed, only on the page in front, and while training in a turn of
the event loop of its own (explorer.gui.lab.pacing: never painted together with a map). The
controls keep their size while a run trains (the status line its most lines, the weights
label its widest text): a plot resized redraws its axes and grid, every plot at once. What differs between
labs (the words of the intro and of the held-out number, the curves a run draws, a widget
beside them) is the lab's ``TrainingContent``.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.appstate.lab import LabState
from explorer.gui import theme
from explorer.gui.core_text import translated
from explorer.gui.flow import FlowLayout
from explorer.gui.i18n import translate
from explorer.gui.lab import pacing, warm
from explorer.gui.lab.curves import CurvePlot, Curves
from explorer.gui.lab.shipped import explains
from explorer.lab import LabRun

POLL_MS = 100  # the GUI takes the run's progress ten times a second
CURVES_MS = 250  # and redraws the curves four times a second at most
PLAY_MS = 250  # replaying the snapshots: four a second
SIDE_BY_SIDE_PX = 620  # from this width two curves sit side by side


class TrainingContent(ABC):
    """What one lab's training page says and draws; a lab subclasses it (its training.py)."""

    steps_range: tuple[int, int] = (10, 5000)
    seed_range: tuple[int, int] = (0, 999_999)
    redraw_on: tuple[str, ...] = ()  # the lab's events that change the intro or the curves (its model)

    @abstractmethod
    def intro(self, lab: LabState) -> str:
        """Before the first run: what training will show."""

    @abstractmethod
    def measure(self, run: LabRun) -> str | None:
        """The newest held-out number in words (None before the first evaluation)."""

    @abstractmethod
    def curves(self, lab: LabState, run: LabRun | None, shown_step: int | None) -> list[Curves]:
        """The plots (the same number every time), their data from the run (None: no run yet)."""

    def steps_tip(self) -> str:
        return translate("LabTraining", "How many optimiser steps to train for")

    def starting(self, run: LabRun) -> str | None:
        """What a started run is doing before its first step, said at once (None: the step
        count and "starting…"); a lab whose run first makes its data says so."""
        return None

    def goal_reached(self, run: LabRun) -> str:
        """When the run first reached the lab's goal (a share, unless the lab words it)."""
        return translate(
            "LabTraining", "({pct:g} % reached at step {step}, after {s:.1f} s of training)"
        ).format(pct=100 * run.goal.at_least, step=run.goal_step, s=run.goal_s)


class TrainingPage(QtWidgets.QWidget):
    started = QtCore.Signal()  # Train was pressed and a run started

    def __init__(
        self,
        state,
        lab: LabState,
        content: TrainingContent,
        side: QtWidgets.QWidget | None = None,
        controls: Sequence[QtWidgets.QWidget] = (),
        parent=None,
    ):
        """``side``: a figure beside the curves (hidden, it leaves them the width);
        ``controls``: a lab's own settings of a run, in the plan's row after the seed."""
        super().__init__(parent)
        self.state, self.lab, self.content, self.side = state, lab, content, side
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        inside = QtWidgets.QWidget()
        outer.addWidget(scrolled(inside))  # it scrolls when its room is short
        layout = QtWidgets.QVBoxLayout(inside)
        layout.setContentsMargins(4, 4, 4, 4)
        row = FlowLayout()  # one line on a wide screen, more beside the lesson on a projector
        self.steps_label, self.seed_label = QtWidgets.QLabel(), QtWidgets.QLabel()
        self.steps, self.seed = QtWidgets.QSpinBox(), QtWidgets.QSpinBox()
        self.steps.setRange(*content.steps_range)
        self.steps.setSingleStep(50)
        self.seed.setRange(*content.seed_range)
        self.steps_label.setBuddy(self.steps)
        self.seed_label.setBuddy(self.seed)
        self.train_button, self.cancel_button = QtWidgets.QPushButton(), QtWidgets.QPushButton()
        self.progress = QtWidgets.QProgressBar()
        # no words on the bar: the status line says "Step 120 of 300", and in a narrow column a
        # squeezed bar wrapped its words out of sight ("0 of 300 / steps")
        self.progress.setTextVisible(False)
        # hidden until a run starts (an empty bar reads as an empty text field); its room is
        # kept, so the click that shows it moves nothing
        keep_room = self.progress.sizePolicy()
        keep_room.setRetainSizeWhenHidden(True)
        self.progress.setSizePolicy(keep_room)
        for w in (
            self.steps_label,
            self.steps,
            self.seed_label,
            self.seed,
            *controls,
            self.train_button,
            self.cancel_button,
        ):
            row.add(w)
        row.add(self.progress, stretch=True)
        layout.addLayout(row)
        self.status = QtWidgets.QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        scrub = FlowLayout()
        self.play_button = QtWidgets.QPushButton()
        self.play_button.setCheckable(True)
        self.scrubber = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.scrubber.setRange(0, 0)
        self.scrubber.setPageStep(5)
        self._lesson_keys()
        self.weights_label = QtWidgets.QLabel()  # the weights in use: the shipped ones, or a snapshot's
        self.shipped_button, self.trained_button = QtWidgets.QPushButton(), QtWidgets.QPushButton()
        for button in (self.shipped_button, self.trained_button):  # pressed: the weights in use
            button.setCheckable(True)
        scrub.add(self.play_button)
        scrub.add(self.scrubber, stretch=True)
        scrub.add(self.weights_label)
        scrub.add(self.shipped_button)
        scrub.add(self.trained_button)
        layout.addLayout(scrub)
        body = QtWidgets.QHBoxLayout()
        self.curves_grid = QtWidgets.QGridLayout()
        style = self._style()
        self.plots = [CurvePlot(style) for _ in content.curves(lab, None, None)]
        for plot in self.plots:
            # asked at their least height: the scroll area makes the page as tall as it asks
            # (its text wraps), and at 220 px each the second plot was below the fold at
            # 1024×768; they grow into any room there is
            plot.hint_height = 0
        body.addLayout(self.curves_grid, 3)
        if side is not None:
            body.addWidget(side, 2)
            side.installEventFilter(self)  # shown or hidden, it takes the curves' width or leaves it
        layout.addLayout(body, 1)
        self.body = body
        self.focused = False  # a projector: the curves and the side in one row, each the body's height
        self._columns = 0
        self._turn = 0  # the plot drawn last
        self._drawn: list[tuple | None] = [None] * len(self.plots)  # what each plot shows (drawn_key)
        self._due: dict[int, tuple] = {}  # plots whose new data is still to be drawn
        self._arrange()

        self.poll_timer = QtCore.QTimer(self, interval=POLL_MS)
        self.poll_timer.timeout.connect(lab.poll)
        self.curves_timer = QtCore.QTimer(self, interval=CURVES_MS, singleShot=True)
        self.curves_timer.timeout.connect(self.draw_curves)
        self.play_timer = QtCore.QTimer(self, interval=PLAY_MS)
        self.play_timer.timeout.connect(self._play_step)
        self.train_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(lab.cancel_training)
        self.shipped_button.clicked.connect(lambda: self._use(lab.use_shipped))
        self.trained_button.clicked.connect(lambda: self._use(lambda: lab.use_trained(None)))
        self.steps.valueChanged.connect(lambda v: lab.set_training_plan(steps=v))
        self.seed.valueChanged.connect(lambda v: lab.set_training_plan(seed=v))
        self.scrubber.valueChanged.connect(self._on_scrub)
        self.play_button.toggled.connect(self._on_play)
        unsubscribe = lab.subscribe(self._on_event, ("training", "weights", *content.redraw_on))
        unsubscribe_lesson = state.subscribe(lambda *_: self._lesson_keys(), ("lesson",))
        self.destroyed.connect(lambda *_: (unsubscribe(), unsubscribe_lesson()))
        self.retranslate()
        self.show_run()

    def _style(self):
        return theme.look(self.state).style()

    def _lesson_keys(self) -> None:
        """With the lesson on, → and ← are the lesson's: a click on the scrubber leaves the keys
        where they were (trial 9: after a click → moved the replay, not the lesson); Tab still
        reaches it. Without the lesson a click gives it the arrows, as any slider."""
        lesson = self.state.lesson_visible
        policy = QtCore.Qt.FocusPolicy.TabFocus if lesson else QtCore.Qt.FocusPolicy.StrongFocus
        if self.scrubber.focusPolicy() != policy:
            self.scrubber.setFocusPolicy(policy)

    # -- the run ---------------------------------------------------------------------------------------
    def start(self) -> None:
        # the labs' warm-up, if the window was never calm long enough to start it: the run
        # waits for it, and the GUI thread's collections are held while its objects arrive
        # (without it the run imported them itself and a collection walked them: 80 ms)
        warm.warm_up_labs()
        self.play_button.setChecked(False)
        self.lab.set_training_plan(self.steps.value(), self.seed.value())
        self.lab.start_training()
        self.started.emit()

    def _on_event(self, event: str, _lab) -> None:
        if event == "training" or event in self.content.redraw_on:
            self.show_run()
        else:
            self._show_weights()

    def show_run(self) -> None:
        """Controls, progress, status, curves and scrubber from the lab's state and its run."""
        lab, run = self.lab, self.lab.run
        steps, seed = lab.plan()
        for box, value in ((self.steps, steps), (self.seed, seed)):
            if box.value() != value:
                box.blockSignals(True)
                box.setValue(value)
                box.blockSignals(False)
        running = lab.training
        if running and not self.poll_timer.isActive():
            self.poll_timer.start()
        elif not running:
            self.poll_timer.stop()
        for w in (self.steps, self.seed, self.train_button):
            w.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        set_progress(
            self.progress, run.steps if run is not None else steps, run.step if run is not None else 0
        )
        self.progress.setVisible(run is not None)
        self._set_status(self.status_text(), running)
        self._show_weights()  # the curves' data too, when the run is not training
        if running and not self.curves_timer.isActive():
            self.curves_timer.start(CURVES_MS)  # the data is drawn at the page's pace, not the run's

    def _set_status(self, text: str, running: bool) -> None:
        """The status line; while a run trains it keeps the most lines it has had, so a line
        more or less never moves the curves (a plot resized redraws its axes and grid)."""
        if text == self.status.text():
            return
        starting = running and self.status.minimumHeight() == 0
        before = self.status.height()
        self.status.setText(text)
        if not running or not self.status.isVisible():  # a hidden label's width is no guide
            self.status.setMinimumHeight(0)
            return
        need = self.status.heightForWidth(self.status.width())
        if starting:  # never less than the intro had (more would resize the plots at the click)
            need = max(need, before)
        if need > self.status.minimumHeight():
            self.status.setMinimumHeight(need)

    def status_text(self) -> str:
        run = self.lab.run
        if run is None:
            intro = self.content.intro(self.lab)
            if explains(self.content.curves(self.lab, None, None)):  # the dashed lines, named
                intro += " " + translate("LabTraining", "Dashed: the shipped run.")
            return intro
        starting = self.content.starting(run) if run.running and run.step == 0 else None
        if starting:  # the first step's report replaces it
            return starting
        if run.waiting:  # the labs' warm-up still imports torch's optimiser: the run starts after it
            return translate("LabTraining", "Getting ready for the first step…")
        parts = [translate("LabTraining", "Step {step} of {total}").format(step=run.step, total=run.steps)]
        if run.device != "cpu":
            parts.append(translate("LabTraining", "on {device}").format(device=run.device.upper()))
        if run.losses and math.isfinite(run.losses[-1]):
            parts.append(translate("LabTraining", "loss {loss:.3f}").format(loss=run.losses[-1]))
        measured = self.content.measure(run)
        if measured:
            parts.append(measured)
        if run.step == 0 and run.running:  # the clock starts at the first step's report: no "0.0 s" meanwhile
            parts.append(translate("LabTraining", "starting…"))
        else:
            parts.append(translate("LabTraining", "{s:.1f} s").format(s=run.wall_s))
        left = run.time_left_s
        if left is not None:
            parts.append(time_left_text(left))
        text = " · ".join(parts)
        if run.goal_step is not None:
            text += "  " + self.content.goal_reached(run)
        ended = {
            "done": translate("LabTraining", "Finished."),
            "cancelled": translate("LabTraining", "Cancelled: the snapshots so far can still be replayed."),
            "failed": translate("LabTraining", "Training failed: {0}").format(
                translated(run.error) if run.error is not None else ""
            ),
        }.get(run.status)
        if run.status == "failed":  # the reason on a line of its own, never run into the progress
            return ended if not run.losses else f"{ended}\n{text}"  # no step: nothing to add
        return f"{ended} {text}" if ended else text

    # -- the curves ------------------------------------------------------------------------------------
    def draw_curves(self) -> None:
        """Every plot's data from the run; of the plots whose data changed, one is drawn now,
        the others at the next ticks (CURVES_MS apart while training, at once after it)."""
        run = self.lab.run
        shown = self.lab.shown_step() if run is not None else None
        for k, (plot, curves) in enumerate(zip(self.plots, run_curves(self.content, self.lab, run, shown))):
            plot.set_curves(curves, draw=False)
            key = drawn_key(curves)
            if key == self._drawn[k]:
                self._due.pop(k, None)
            else:
                self._due[k] = key
        if not self.curves_timer.isActive():  # else the timer draws the next one
            self._draw_next()

    def _draw_next(self) -> None:
        if self._due and self.isVisible():  # a page behind another draws when it is shown
            order = [(self._turn + 1 + i) % len(self.plots) for i in range(len(self.plots))]
            self._turn = next(k for k in order if k in self._due)
            self._drawn[self._turn] = self._due.pop(self._turn)
            plot = self.plots[self._turn]
            if self.lab.training or pacing.pending(
                plot, "curves"
            ):  # in a turn of its own, never with a map's paint
                pacing.later(plot, plot.draw, "curves")
            else:
                plot.draw()
        if self.lab.training:
            self.curves_timer.start(CURVES_MS)
        elif self._due and self.isVisible():
            # the next plot once this one is painted: two drawn in one turn paint together
            self.curves_timer.start(pacing.GAP_MS)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._due and not self.curves_timer.isActive():
            self.curves_timer.start(0)  # what changed while another page was in front

    def curve_data(self, plot: int, series: int = 0):
        """What a plot draws: (x, y) of one of its series (the tests read it)."""
        return self.plots[plot].curves.data(series)

    def set_focus(self, on: bool) -> None:
        """On a projector the curves and the side share one row, each as tall as the body
        (stacked, each would get half of it); the side keeps a square's room."""
        if on != self.focused:
            self.focused = on
            self.body.setStretch(0, 4 if on else 3)
            self.body.setStretch(1, 3 if on else 2)
            self._arrange()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.side and event.type() in (QtCore.QEvent.Type.Show, QtCore.QEvent.Type.Hide):
            self._arrange()
        return super().eventFilter(watched, event)

    def _arrange(self) -> None:
        beside_side = self.side is not None and not self.side.isHidden()
        room = self.width() * (3 / 5 if beside_side else 1)  # the curves' share of the body
        # side by side where there is the width, and in a column taller than wide (beside a
        # figure on a projector), where stacked they would be flat strips
        beside = room >= SIDE_BY_SIDE_PX or self.height() > self.width() or self.focused
        beside = beside or not self._stacked_fit()  # at 1024×768 beside the lesson
        columns = 2 if len(self.plots) > 1 and beside else 1
        if columns == self._columns:
            return
        self._columns = columns
        for k, plot in enumerate(self.plots):
            self.curves_grid.addWidget(plot, k // columns, k % columns)

    def _stacked_fit(self) -> bool:
        """Whether the plots one under another fit the page's height at their least below
        the rows above them (else they sit side by side: none below the fold)."""
        layout = self.curves_grid.parentWidget().layout()
        margins = layout.contentsMargins()
        width = max(1, self.width() - margins.left() - margins.right())
        above = margins.top() + margins.bottom()
        for k in range(layout.count() - 1):  # every row but the body
            item = layout.itemAt(k)
            if item.isEmpty():
                continue
            hint = item.heightForWidth(width) if item.hasHeightForWidth() else item.sizeHint().height()
            above += max(hint, item.minimumSize().height()) + layout.spacing()
        spacing = max(0, self.curves_grid.verticalSpacing())
        stacked = sum(p.minimumHeight() for p in self.plots) + spacing * (len(self.plots) - 1)
        return above + stacked <= self.height()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._arrange()

    # -- the weights and the scrubber ---------------------------------------------------------------------
    def _show_weights(self) -> None:
        lab, run = self.lab, self.lab.run
        has_run = run is not None and bool(run.snapshots)
        # The weights in use show as the pressed button, never as a greyed one: a greyed "Use
        # the trained model" read as unusable after a cancelled run whose snapshots replay.
        # Pressed again while an older snapshot is shown, it goes back to the newest.
        self.trained_button.setEnabled(has_run)
        self.trained_button.setChecked(has_run and lab.weights == "trained")
        self.shipped_button.setChecked(lab.weights == "shipped")
        step = lab.shown_step()
        if step is None:
            text = translate("LabTraining", "in use: the shipped checkpoint")
        else:
            text = translate("LabTraining", "in use: step {step}").format(step=step)
        self.weights_label.setText(text)
        # as wide as the widest of its texts: a run's first snapshot never re-wraps the row
        last = run.steps if run is not None else self.steps.maximum()
        widest = max(
            self.weights_label.fontMetrics().horizontalAdvance(t)
            for t in (
                translate("LabTraining", "in use: the shipped checkpoint"),
                translate("LabTraining", "in use: step {step}").format(step=last),
            )
        )
        self.weights_label.setMinimumWidth(widest + 4)
        self.weights_label.setToolTip(
            translate(
                "LabTraining",
                "The weights the tab computes with: the shipped checkpoint, or a snapshot of this run",
            )
        )
        self._update_scrubber()
        if not lab.training:
            self.draw_curves()  # the marker moves to the snapshot shown

    def _use(self, choose) -> None:
        """A weights button: the lab's choice, then the buttons as the lab says (a press on the
        button already pressed changes nothing, and must not leave it released)."""
        choose()
        self._show_weights()

    def _update_scrubber(self) -> None:
        run = self.lab.run
        count = len(run.snapshots) if run is not None else 0
        index = self.lab.snapshot_index()
        self.scrubber.blockSignals(True)
        self.scrubber.setRange(0, max(0, count - 1))
        if index is not None and self.lab.weights == "trained":
            self.scrubber.setValue(index)
        elif count:
            self.scrubber.setValue(count - 1)
        self.scrubber.blockSignals(False)
        self.scrubber.setEnabled(count > 1)
        self.play_button.setEnabled(count > 1)

    def _on_scrub(self, value: int) -> None:
        run = self.lab.run
        if run is None or not run.snapshots:
            return
        # the right end follows the newest snapshot while training
        self.lab.use_trained(None if value >= len(run.snapshots) - 1 else value)

    def _on_play(self, on: bool) -> None:
        if on:
            if self.scrubber.value() >= self.scrubber.maximum():
                self.scrubber.setValue(0)
            self.play_timer.start()
        else:
            self.play_timer.stop()
        self._play_text()

    def _play_step(self) -> None:
        if self.scrubber.value() >= self.scrubber.maximum():
            self.play_button.setChecked(False)
            return
        self.scrubber.setValue(self.scrubber.value() + 1)

    def _play_text(self) -> None:
        on = self.play_button.isChecked()
        self.play_button.setText(
            translate("LabTraining", "Pause") if on else translate("LabTraining", "Replay")
        )

    # -- looks and words -------------------------------------------------------------------------------------
    def changeEvent(self, event) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def restyle(self, style=None) -> None:
        style = style or self._style()
        for plot in self.plots:
            plot.set_style(style)  # redrawn with its data

    def retranslate(self) -> None:
        self.steps_label.setText(translate("LabTraining", "Steps"))
        self.steps.setToolTip(self.content.steps_tip())
        self.seed_label.setText(translate("LabTraining", "Seed"))
        self.seed.setToolTip(
            translate("LabTraining", "The same seed gives the same run: the same weights, batches and losses")
        )
        self.train_button.setText(translate("LabTraining", "Train from scratch"))
        self.train_button.setToolTip(
            translate(
                "LabTraining",
                "Train the chosen model from random weights, on a thread of its own; the window stays usable",
            )
        )
        self.cancel_button.setText(translate("LabTraining", "Cancel"))
        self.cancel_button.setToolTip(
            translate("LabTraining", "Stop training between two steps; what was learned so far stays")
        )
        self.shipped_button.setText(translate("LabTraining", "Use the shipped checkpoint"))
        self.shipped_button.setToolTip(
            translate("LabTraining", "The trained checkpoint that comes with the explorer")
        )
        self.trained_button.setText(translate("LabTraining", "Use the trained model"))
        self.trained_button.setToolTip(translate("LabTraining", "This run's newest weights"))
        self._play_text()
        self.play_button.setToolTip(translate("LabTraining", "Replay the run, snapshot by snapshot"))
        self.scrubber.setToolTip(
            translate("LabTraining", "The run's snapshots: drag to see the model at that moment of training")
        )
        self.progress.setFormat(translate("LabTraining", "%v of %m steps"))
        self.show_run()


def time_left_text(seconds: float) -> str:
    """The time a run has left in words (about 4 min 05 s left), whole seconds rounded up."""
    minutes, whole = divmod(max(1, math.ceil(seconds)), 60)
    if minutes:
        said = translate("LabTraining", "{m} min {s:02d} s").format(m=minutes, s=whole)
    else:
        said = translate("LabTraining", "{s} s").format(s=whole)
    return translate("LabTraining", "about {time} left").format(time=said)


def set_progress(bar: QtWidgets.QProgressBar, steps: int, step: int) -> None:
    """A progress bar's range and value, painted with the rest of the window: QProgressBar
    repaints itself at once on a new value (a paint of its own every tick of a run)."""
    if bar.maximum() == steps and bar.value() == step:
        return
    bar.setUpdatesEnabled(False)
    bar.setRange(0, steps)
    bar.setValue(step)
    bar.setUpdatesEnabled(True)  # schedules the one paint


def run_curves(
    content: TrainingContent, lab: LabState, run: LabRun | None, shown: int | None
) -> list[Curves]:
    """The lab's plots; with a run (``live``) each x axis spans that run's own steps, the
    shipped run's lines drawn within them (a fresh run of 20 steps was a sliver at the left of
    the shipped run's 1500)."""
    plots = content.curves(lab, run, shown)
    for curves in plots:
        curves.live = run is not None
    return plots


def drawn_key(curves: Curves) -> tuple:
    """Everything a plot draws of ``curves``: equal keys, the same picture."""
    series = tuple(
        (
            s.name,
            s.colour,
            s.width,
            s.dots,
            np.asarray(s.xs, float).tobytes(),
            np.asarray(s.ys, float).tobytes(),
        )
        for s in curves.series
    )
    return (
        curves.title,
        curves.x_label,
        curves.x_range,
        curves.y_range,
        curves.goal,
        curves.marker,
        curves.live,
        series,
    )


def scrolled(page: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    """A widget in a scroll area of its own, resized to the area's width."""
    area = QtWidgets.QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    area.setWidget(page)
    return area
