"""Train from scratch, in the Translation tab: the run's controls, its curves and the scrubber.

The run itself is Qt-free (``explorer.appstate.translation.TrainingRun``, on its own thread);
this panel starts and cancels it through the TranslationState, and a timer on the GUI thread
takes its progress every ``POLL_MS``: however fast the steps come, the window does one
bounded update per tick (the curves' data, the progress bar, and the alignment when a new
snapshot came), never one per step. The curves are drawn with QPainter
(translation_curves.py: a repaint costs well under a millisecond, a pyqtgraph plot's cost five
on this machine, and importing pyqtgraph would block the window for a third of a second the
first time the page is shown); the scrubber moves over the snapshots (one every 10 steps) and the
tab re-translates with the snapshot it points at (on the worker, latest wins).
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.appstate.translation import SEED_RANGE, STEPS_RANGE, TranslationState
from explorer.gui import theme
from explorer.gui.i18n import translate
from explorer.gui.views.translation_curves import CurvePlot
from explorer.gui.views.translation_parts import MODEL_NAMES
from explorer.lab import warm_up

POLL_MS = 100  # the GUI takes the run's progress ten times a second
CURVES_MS = 500  # and redraws the curves twice a second (a plot's repaint is the dearest part)
PLAY_MS = 250  # replaying the snapshots: four a second
LOSS_COLOUR = "#0072B2"
ACCURACY_COLOUR = "#009E73"


class TrainingPanel(QtWidgets.QWidget):
    def __init__(self, state, tstate: TranslationState, parent=None):
        super().__init__(parent)
        self.state, self.tstate = state, tstate
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        # narrow rows: the page fits beside the alignment at 22 px text (it scrolls when short)
        row = QtWidgets.QHBoxLayout()
        self.steps_label = QtWidgets.QLabel()
        self.steps = QtWidgets.QSpinBox()
        self.steps.setRange(*STEPS_RANGE)
        self.steps.setSingleStep(50)
        self.seed_label = QtWidgets.QLabel()
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(*SEED_RANGE)
        self.train_button = QtWidgets.QPushButton()
        self.cancel_button = QtWidgets.QPushButton()
        for w in (self.steps_label, self.steps, self.seed_label, self.seed):
            row.addWidget(w)
        row.addStretch(1)
        layout.addLayout(row)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.train_button)
        row.addWidget(self.cancel_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setTextVisible(True)
        layout.addWidget(self.progress)
        self.status = QtWidgets.QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        weights = QtWidgets.QHBoxLayout()
        self.shipped_button = QtWidgets.QPushButton()
        self.trained_button = QtWidgets.QPushButton()
        self.weights_label = QtWidgets.QLabel()
        self.weights_label.setWordWrap(True)
        weights.addWidget(self.shipped_button)
        weights.addWidget(self.trained_button)
        weights.addStretch(1)
        layout.addLayout(weights)
        layout.addWidget(self.weights_label)
        scrub = QtWidgets.QHBoxLayout()
        self.play_button = QtWidgets.QPushButton()
        self.play_button.setCheckable(True)
        self.scrubber = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.scrubber.setRange(0, 0)
        self.scrubber.setPageStep(5)
        self.snapshot_label = QtWidgets.QLabel()
        scrub.addWidget(self.play_button)
        scrub.addWidget(self.scrubber, 1)
        scrub.addWidget(self.snapshot_label)
        layout.addLayout(scrub)
        curves = QtWidgets.QHBoxLayout()
        self.loss_plot = CurvePlot(LOSS_COLOUR)
        self.accuracy_plot = CurvePlot(ACCURACY_COLOUR, points=True, y_range=(0.0, 1.0))
        self.accuracy_plot.goal = tstate.GOAL.at_least
        for plot in (self.loss_plot, self.accuracy_plot):
            plot.setMinimumHeight(150)
            curves.addWidget(plot, 1)
        layout.addLayout(curves, 1)

        self.poll_timer = QtCore.QTimer(self, interval=POLL_MS)
        self.poll_timer.timeout.connect(self.tstate.poll)
        self.curves_timer = QtCore.QTimer(self, interval=CURVES_MS, singleShot=True)
        self.curves_timer.timeout.connect(self._draw_curves)
        self.play_timer = QtCore.QTimer(self, interval=PLAY_MS)
        self.play_timer.timeout.connect(self._play_step)
        self.train_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.tstate.cancel_training)
        self.shipped_button.clicked.connect(self.tstate.use_shipped)
        self.trained_button.clicked.connect(lambda: self.tstate.use_trained(None))
        self.steps.valueChanged.connect(lambda v: self.tstate.set_training_plan(steps=v))
        self.seed.valueChanged.connect(lambda v: self.tstate.set_training_plan(seed=v))
        self.scrubber.valueChanged.connect(self._on_scrub)
        self.play_button.toggled.connect(self._on_play)
        unsubscribe = tstate.subscribe(self._on_event, ("training", "weights"))
        self.destroyed.connect(lambda *_: unsubscribe())
        self.retranslate()
        self.show_run()

    # -- the curves ----------------------------------------------------------------------------------------
    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        warm_up()  # the first optimiser's imports, before Train is pressed
        self._draw_curves()

    def _draw_curves(self) -> None:
        if not self.isVisible():
            return  # drawn when shown
        run = self.tstate.run
        for plot in (self.loss_plot, self.accuracy_plot):
            plot.x_max = run.steps if run is not None else self.tstate.settings.train_steps
        if run is None:
            self.loss_plot.set_data([], [])
            self.accuracy_plot.set_data([], [])
            return
        self.loss_plot.set_data(np.arange(1, len(run.losses) + 1), run.losses)
        self.accuracy_plot.set_data(run.eval_steps, run.series("exact_match"))

    def curve_data(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """What the curves show: (loss x, loss y, accuracy x, accuracy y), for the tests."""
        return self.loss_plot.x, self.loss_plot.y, self.accuracy_plot.x, self.accuracy_plot.y

    # -- the run ------------------------------------------------------------------------------------------
    def start(self) -> None:
        self.play_button.setChecked(False)
        self.tstate.set_training_plan(self.steps.value(), self.seed.value())
        self.tstate.start_training()

    def _on_event(self, event: str, tstate) -> None:
        if event == "training":
            self.show_run()
        else:
            self._show_weights()

    def show_run(self) -> None:
        """Controls, progress, curves and scrubber from the state and its run."""
        s, run = self.tstate.settings, self.tstate.run
        for box, value in ((self.steps, s.train_steps), (self.seed, s.train_seed)):
            if box.value() != value:
                box.blockSignals(True)
                box.setValue(value)
                box.blockSignals(False)
        running = run is not None and run.running
        if running and not self.poll_timer.isActive():
            self.poll_timer.start()
        elif not running:
            self.poll_timer.stop()
        self.train_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.steps.setEnabled(not running)
        self.seed.setEnabled(not running)
        self.progress.setRange(0, run.steps if run is not None else self.tstate.settings.train_steps)
        self.progress.setValue(run.step if run is not None else 0)
        self.status.setText(self._status_text())
        self._show_weights()
        if not running:
            self.curves_timer.stop()
            self._draw_curves()
        elif not self.curves_timer.isActive():
            self.curves_timer.start()

    def _status_text(self) -> str:
        run = self.tstate.run
        if run is None:
            return translate(
                "Translation",
                "Train {model} from random weights: the loss falls, the held-out accuracy rises, and "
                "the alignment forms as you watch.",
            ).format(model=translate("Translation", MODEL_NAMES[self.tstate.settings.model]))
        parts = [translate("Translation", "Step {step} of {total}").format(step=run.step, total=run.steps)]
        if run.losses and math.isfinite(run.losses[-1]):
            parts.append(translate("Translation", "loss {loss:.3f}").format(loss=run.losses[-1]))
        if run.metrics:
            parts.append(
                translate("Translation", "held-out exact match {pct:.1f} %").format(
                    pct=100 * run.last("exact_match")
                )
            )
        parts.append(translate("Translation", "{s:.1f} s").format(s=run.train_s))
        text = " · ".join(parts)
        if run.goal_s is not None:
            text += "  " + translate("Translation", "(95 % reached at step {step}, after {s:.1f} s)").format(
                step=run.goal_step, s=run.goal_s
            )
        ended = {
            "done": translate("Translation", "Finished."),
            "cancelled": translate("Translation", "Cancelled: the snapshots so far can still be replayed."),
            "failed": translate("Translation", "Training failed: {0}").format(run.error),
        }.get(run.status)
        return f"{ended} {text}" if ended else text

    def _show_weights(self) -> None:
        t, run = self.tstate, self.tstate.run
        has_run = run is not None and bool(run.snapshots)
        self.trained_button.setEnabled(has_run and not (t.weights == "trained" and t.snapshot is None))
        self.shipped_button.setEnabled(t.weights != "shipped")
        if t.weights == "shipped":
            text = translate("Translation", "Weights in use: the shipped checkpoint.")
        else:
            index = t.snapshot_index()
            step = run.snapshots[index].step if index is not None else 0
            text = translate("Translation", "Weights in use: this training run at step {step}.").format(
                step=step
            )
        self.weights_label.setText(text)
        self._update_scrubber()

    def _update_scrubber(self) -> None:
        run = self.tstate.run
        count = len(run.snapshots) if run is not None else 0
        index = self.tstate.snapshot_index()
        self.scrubber.blockSignals(True)
        self.scrubber.setRange(0, max(0, count - 1))
        if index is not None and self.tstate.weights == "trained":
            self.scrubber.setValue(index)
        elif count:
            self.scrubber.setValue(count - 1)
        self.scrubber.blockSignals(False)
        self.scrubber.setEnabled(count > 1)
        self.play_button.setEnabled(count > 1)
        if count and run is not None:
            shown = run.snapshots[self.scrubber.value()].step
            self.snapshot_label.setText(translate("Translation", "step {step}").format(step=shown))
        else:
            self.snapshot_label.setText(translate("Translation", "no snapshots yet"))

    def _on_scrub(self, value: int) -> None:
        run = self.tstate.run
        if run is None or not run.snapshots:
            return
        # the right end follows the newest snapshot while training
        self.tstate.use_trained(None if value >= len(run.snapshots) - 1 else value)

    def _on_play(self, on: bool) -> None:
        if on:
            if self.scrubber.value() >= self.scrubber.maximum():
                self.scrubber.setValue(0)
            self.play_timer.start()
        else:
            self.play_timer.stop()
        self.play_button.setText(
            translate("Translation", "Pause") if on else translate("Translation", "Replay")
        )

    def _play_step(self) -> None:
        if self.scrubber.value() >= self.scrubber.maximum():
            self.play_button.setChecked(False)
            return
        self.scrubber.setValue(self.scrubber.value() + 1)

    # -- looks and words --------------------------------------------------------------------------------------
    def changeEvent(self, event) -> None:  # noqa: N802
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def restyle(self) -> None:
        look = theme.look(self.state)
        t = look.theme
        for plot in (self.loss_plot, self.accuracy_plot):
            plot.set_style(
                look.figure_px, t.plot_fg, t.plot_bg, t.alt_base if t.name == "light" else t.button
            )

    def retranslate(self) -> None:
        self.steps_label.setText(translate("Translation", "Steps"))
        self.steps.setToolTip(
            translate("Translation", "How many optimiser steps (batches of 128 dates) to train for")
        )
        self.seed_label.setText(translate("Translation", "Seed"))
        self.seed.setToolTip(
            translate("Translation", "The same seed gives the same run: the same weights, batches and losses")
        )
        self.train_button.setText(translate("Translation", "Train from scratch"))
        self.train_button.setToolTip(
            translate(
                "Translation",
                "Train the chosen model and scoring from random weights, on one CPU thread; the window stays usable",
            )
        )
        self.cancel_button.setText(translate("Translation", "Cancel"))
        self.cancel_button.setToolTip(
            translate("Translation", "Stop training between two steps; what was learned so far stays")
        )
        self.shipped_button.setText(translate("Translation", "Use the shipped checkpoint"))
        self.shipped_button.setToolTip(
            translate("Translation", "Translate with the trained checkpoint that comes with the explorer")
        )
        self.trained_button.setText(translate("Translation", "Use the trained model"))
        self.trained_button.setToolTip(translate("Translation", "Translate with this run's newest weights"))
        self.play_button.setText(
            translate("Translation", "Pause")
            if self.play_button.isChecked()
            else translate("Translation", "Replay")
        )
        self.play_button.setToolTip(
            translate("Translation", "Replay how the alignment formed, snapshot by snapshot")
        )
        self.scrubber.setToolTip(
            translate(
                "Translation",
                "The training snapshots (one every 10 steps): drag to see the alignment at that moment",
            )
        )
        self.progress.setFormat(translate("Translation", "%v of %m steps"))
        self.loss_plot.set_texts(translate("Translation", "training loss"), translate("Translation", "step"))
        self.accuracy_plot.set_texts(
            translate("Translation", "held-out exact match (dashed: 95 %)"), translate("Translation", "step")
        )
        self.status.setText(self._status_text())
        self._show_weights()
