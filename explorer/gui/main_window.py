"""The explorer window: controls on the left, the pipeline / all heads / overview on the right.

Data flows one way: controls edit the ExplorerState, a state change asks the worker for
a trace, and the newest trace is drawn. The window computes nothing itself.
"""

from __future__ import annotations

import time

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.display import DisplayArrays, prepare_trace, reduce_for_display
from explorer.appstate.presets import PRESETS
from explorer.appstate.state import ExplorerState
from explorer.appstate.worker import Result
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.trace import AttentionTrace
from explorer.gui.bridge import ComputeBridge
from explorer.gui.controls import Controls
from explorer.gui.head_grid import HeadGrid
from explorer.gui.lesson_tools import LessonToolsMixin
from explorer.gui.overview import ModelOverview
from explorer.gui.pipeline_view import PipelineView

BUSY_AFTER_MS = 250
TAB_PIPELINE, TAB_HEADS, TAB_OVERVIEW = 0, 1, 2
ERROR_STYLE = "background:#fde2e1; color:#7a1010; border:1px solid #e0a0a0; padding:4px;"
INFO_STYLE = "background:#e3effc; color:#0b3d6e; border:1px solid #a8c8ea; padding:4px;"
NOTICE_STYLE = "background:#fff6d6; color:#5a4500; border:1px solid #e8d48a; padding:3px;"


def paint_now(view) -> None:
    """Paint a GraphicsLayoutWidget once, now: lay out, then let the scene paint its dirty items.

    A bare ``viewport().repaint()`` leaves the scene's queued dirty-item pass and layout
    requests behind, and they cost a second full paint a moment later. The scene's own
    pass (``_q_processDirtyItems``) paints the dirty region synchronously.
    """
    ci = getattr(view, "ci", None)
    if ci is not None:
        for item in getattr(ci, "items", {}):
            inner = getattr(item, "layout", None)
            if isinstance(inner, QtWidgets.QGraphicsLayout):
                inner.activate()
        ci.layout.activate()
    scene = view.scene()
    if scene is not None and hasattr(scene, "prepareForPaint"):
        scene.prepareForPaint()  # pyqtgraph's ViewBoxes apply new ranges now, not mid-paint
    if scene is None or not QtCore.QMetaObject.invokeMethod(
        scene, "_q_processDirtyItems", QtCore.Qt.ConnectionType.DirectConnection
    ):
        view.viewport().repaint()


OVERVIEW_LIMIT = 128  # cells a side of an overview thumbnail
SLICE_S = 0.012  # a large trace's panels are set for this long, then painted, per event-loop turn
_GUI_GC = None


def collect_garbage_on_the_gui_thread() -> None:
    """Python's cyclic garbage collector runs in whichever thread allocates when it triggers:
    on the compute worker it would destroy Qt objects (a rebuilt head grid's heatmaps) off the
    GUI thread, which deadlocked the window (found by tests/gui/test_monkey.py). Collection
    is switched off and done by a timer on the GUI thread instead (pyqtgraph's recipe)."""
    global _GUI_GC
    if _GUI_GC is None:
        from pyqtgraph.util.garbage_collector import GarbageCollector

        _GUI_GC = GarbageCollector(interval=0.5)


def block_labels(tokens: list[str], blocks: int) -> list[str]:
    """Names of the token blocks of a reduced matrix: "first … last" of each block."""
    step = -(-len(tokens) // blocks)
    return [
        f"{tokens[i * step]} … {tokens[min(len(tokens), (i + 1) * step) - 1]} (max)" for i in range(blocks)
    ]


def error_message(exc: BaseException) -> str:
    from explorer.models.loader import ModelError

    if isinstance(exc, ConfigError):
        return f"Cannot compute this: {exc}"
    if isinstance(exc, ModelError):
        return f"The model could not be used: {exc}"
    return f"Unexpected error ({type(exc).__name__}): {exc}"


class MainWindow(LessonToolsMixin, QtWidgets.QMainWindow):
    rendered = QtCore.Signal()  # a trace was drawn
    failed = QtCore.Signal(str)  # a request ended in an error (shown in the banner)
    overviewRendered = QtCore.Signal()

    def __init__(
        self, engine, config: AttentionConfig | None = None, synchronous: bool = False, settings=None
    ):
        super().__init__()
        self.setWindowTitle("Attention Explorer")
        self.engine = engine
        self.state = ExplorerState(config)
        collect_garbage_on_the_gui_thread()
        self.bridge = ComputeBridge(synchronous=synchronous, parent=self)
        self.bridge.resultReady.connect(self._on_result)
        self.trace: AttentionTrace | None = None
        self.display = DisplayArrays()
        self.source_info = None
        self.render_ms = 0.0
        self.dropped = 0
        self._started = False
        self._stale = {TAB_PIPELINE: True, TAB_HEADS: True}
        self._slicing = None  # the large trace being drawn in slices, if any
        self._overview_for: AttentionConfig | None = None
        self._overview_wanted: AttentionConfig | None = None

        self.controls = Controls()
        self.pipeline = PipelineView()
        self.heads = HeadGrid()
        self.overview = ModelOverview()
        self.tabs = QtWidgets.QTabWidget()
        self.tabs.addTab(self.pipeline, "Pipeline (one head)")
        self.tabs.addTab(self.heads, "All heads")
        self.tabs.addTab(self.overview, "Model overview")
        self.tabs.setTabToolTip(
            0,
            "Every stage of the selected head, in order: X, Q, K, V, scores, "
            "scaled, mask, weights, head output, concat, output",
        )
        self.tabs.setTabToolTip(1, "One stage for every head; click a head to select it")
        self.tabs.setTabToolTip(2, "Attention weights of every layer and head; click one to open it")

        self.banner = QtWidgets.QLabel()
        self.banner.setWordWrap(True)
        self.banner.setVisible(False)
        self.notice = QtWidgets.QLabel()
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(NOTICE_STYLE)
        self.notice.setVisible(False)

        side = QtWidgets.QScrollArea()
        side.setWidgetResizable(True)
        side.setWidget(self.controls)
        side.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        side.setMinimumWidth(300)
        side.setMaximumWidth(380)
        right = QtWidgets.QWidget()
        rl = QtWidgets.QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.banner)
        rl.addWidget(self.notice)
        rl.addWidget(self.tabs, 1)
        splitter = QtWidgets.QSplitter()
        splitter.addWidget(side)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([320, 1300])
        self.setCentralWidget(splitter)

        # status bar: device, tokens, heads, compute ms, render ms; busy bar and Cancel
        self.status_text = QtWidgets.QLabel("Starting…")
        self.status_text.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Ignored,  # long text never widens
            QtWidgets.QSizePolicy.Policy.Preferred,
        )  # the window
        self.statusBar().addWidget(self.status_text, 1)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setRange(0, 0)  # busy indicator
        self.progress.setMaximumWidth(160)
        self.progress.setVisible(False)
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setToolTip("Drop the computation in progress and keep the last result")
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.cancel_button)
        self._busy_timer = QtCore.QTimer(self, singleShot=True, interval=BUSY_AFTER_MS)
        self._busy_timer.timeout.connect(self._show_busy)
        self._compute_timer = QtCore.QTimer(self, singleShot=True, interval=0)  # coalesce edits
        self._compute_timer.timeout.connect(self.request_trace)

        self.controls.show_config(self.state.config)
        self.controls.edited.connect(self._on_controls)
        self.controls.presetChosen.connect(self.apply_preset)
        self.state.subscribe(self._on_state)
        self.pipeline.cellSelected.connect(self._select_cell)
        self.pipeline.headSelected.connect(self.state.select_head)
        self.heads.cellSelected.connect(self._select_cell)
        self.heads.headSelected.connect(self.state.select_head)
        self.heads.stageChanged.connect(self.state.set_grid_stage)
        self.overview.openRequested.connect(self.open_layer_head)
        self.tabs.currentChanged.connect(self._on_tab)
        self._shortcuts()
        from explorer.gui.presentation import Classroom

        self.classroom = Classroom(self)  # View and Help menus, presentation mode, lesson, language
        self._init_lesson_tools(settings)  # worked arithmetic, compare, File menu, sessions, export

    # -- start-up -----------------------------------------------------------------
    def showEvent(self, event):  # noqa: N802
        super().showEvent(event)
        if not self._started:
            self._started = True
            if self.state.config.weights == "pretrained":
                self.show_banner("Loading the model… the first result appears in a moment.", INFO_STYLE)
            QtCore.QTimer.singleShot(0, self.request_trace)  # after the window is on screen

    def _shortcuts(self) -> None:
        def add(key, slot):
            QtGui.QShortcut(QtGui.QKeySequence(key), self, activated=slot)

        add("Ctrl+L", lambda: (self.controls.sentence.setFocus(), self.controls.sentence.selectAll()))
        add("Ctrl+K", lambda: (self.controls.query.setFocus(), self.controls.query.selectAll()))
        add("Ctrl+Q", self.close)
        add("Escape", lambda: self.state.select_cell(None))
        for n in range(1, 10):
            add(str(n), lambda n=n: self._head_key(n - 1))

    def _head_key(self, head: int) -> None:
        focus = QtWidgets.QApplication.focusWidget()
        if isinstance(focus, (QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox)):
            return
        if self.trace is not None and head < self.trace.heads:
            self.state.select_head(head)

    # -- edits --------------------------------------------------------------------------
    def _on_controls(self) -> None:
        try:
            config = self.controls.read_config(self.state.config)
        except ConfigError as exc:
            self.show_error(error_message(exc))
            return
        self.state.set_config(config)

    def apply_preset(self, index: int) -> None:
        preset = PRESETS[index]
        self.state.select_cell(None)
        self.state.set_config(preset.config(base=self.state.config))
        if preset.head is not None:
            self.state.select_head(preset.head)
        if preset.cell is not None:
            self.state.select_cell(preset.cell)

    def open_layer_head(self, layer: int, head: int) -> None:
        if layer != self.state.config.layer:
            try:
                self.state.update_config(layer=layer)
            except ConfigError as exc:
                self.show_error(error_message(exc))
                return
        self.state.select_head(head)
        self.tabs.setCurrentIndex(TAB_PIPELINE)

    def _select_cell(self, i: int, j: int) -> None:
        old = self.state.selected_cell or (0, 0)
        self.state.select_cell((i if i >= 0 else old[0], j if j >= 0 else old[1]))

    def _on_state(self, event: str, state: ExplorerState) -> None:
        if event == "config":
            self.controls.show_config(state.config)
            self._compute_timer.start()
            if self.tabs.currentIndex() == TAB_OVERVIEW:
                self.overview.set_selected(state.config.layer, state.selected_head)
        elif self.trace is None:
            return
        elif event == "head":
            self.pipeline.show_trace(self.trace, state.selected_head, state.selected_cell, self.display)
            self.heads.set_head(state.selected_head)
            self.overview.set_selected(state.config.layer, state.selected_head)
        elif event == "cell":
            self.pipeline.set_selection(state.selected_cell)
            self.heads.set_selection(state.selected_cell)
        elif event == "stage":
            self._stale[TAB_HEADS] = True
            self._render_visible()

    # -- computation ------------------------------------------------------------------------
    def request_trace(self) -> None:
        config, engine = self.state.config, self.engine
        # On the worker: the trace plus reduced copies of huge matrices; a newer
        # request or Cancel stops an older computation between its steps.
        self.bridge.submit(
            "trace", lambda should_stop: prepare_trace(engine, config, should_stop), cancellable=True
        )
        self._busy_timer.start()
        if self.tabs.currentIndex() == TAB_OVERVIEW:
            self.request_overview()

    def request_overview(self) -> None:
        config, engine = self.state.config, self.engine
        key = config.with_(layer=0)
        if self._overview_for == key or self._overview_wanted == key:
            return
        self._overview_wanted = key
        self.overview.show_message("Computing every layer and head…")
        # thumbnails are a hundred pixels wide: huge weights are block-reduced on the worker
        self.bridge.submit(
            "overview",
            lambda should_stop: (
                key,
                reduce_for_display(engine.layer_weights(config, should_stop), OVERVIEW_LIMIT, "max"),
            ),
            cancellable=True,
        )

    def cancel(self) -> None:
        self.bridge.cancel("trace")
        self.bridge.cancel("overview")
        self._overview_wanted = None
        self._hide_busy()
        self.show_banner(
            "Cancelled: the window keeps the last result. Edit anything to compute again.", INFO_STYLE
        )

    def _show_busy(self) -> None:
        if self.bridge.busy():
            self.progress.setVisible(True)
            self.cancel_button.setVisible(True)
            self.status_text.setText("Computing…  " + self._status_line())

    def _hide_busy(self) -> None:
        self._busy_timer.stop()
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)

    def _on_result(self, result: Result) -> None:
        if not self.bridge.is_current(result):
            self.dropped += 1  # an outdated or cancelled request: drop it
            return
        if not self.bridge.busy():
            self._hide_busy()
        if result.channel == "compare":
            self._on_compare_result(result)
            return
        if result.channel == "overview":
            self._on_overview(result)
            return
        if not result.ok:
            self.show_error(error_message(result.error))
            self.failed.emit(str(result.error))
            return
        prepared = result.value
        trace, info = prepared.trace, prepared.source
        self.trace, self.source_info, self.display = trace, info, prepared.display
        self.banner.setVisible(False)
        self.controls.set_source(info.head_counts, info.default_heads, trace.heads, info.layers)
        self.state.clamp_to(trace.heads, trace.n_query, trace.n_key)
        self._stale = {TAB_PIPELINE: True, TAB_HEADS: True}
        self.notice.setText("Note: " + "  •  ".join(trace.notices) if trace.notices else "")
        self.notice.setVisible(bool(trace.notices))
        self._render_visible()
        self._tools_on_trace()
        pending = getattr(self, "_overview_pending", None)
        if pending is not None:
            self._on_overview(pending)

    def _on_overview(self, result: Result) -> None:
        if result.ok and self.trace is None:
            # the first trace is still on its way: its tokens and model name label the thumbnails
            self._overview_pending = result
            return
        self._overview_pending = None
        self._overview_wanted = None
        if not result.ok:
            self.overview.show_message(error_message(result.error))
            return
        key, weights = result.value
        current = self.state.config.with_(layer=0)
        if key != current:  # the sentence changed meanwhile
            if self.tabs.currentIndex() == TAB_OVERVIEW:
                self.request_overview()
            return
        self._overview_for = key
        tq, tk = (self.trace.tokens_query, self.trace.tokens_key) if self.trace else ([], [])
        if weights.shape[2:] != (len(tq), len(tk)):
            if len(tq) > weights.shape[2] and len(tk) > weights.shape[3]:  # reduced: name each block
                tq, tk = block_labels(tq, weights.shape[2]), block_labels(tk, weights.shape[3])
            else:
                tq, tk = [str(i) for i in range(weights.shape[2])], [str(j) for j in range(weights.shape[3])]
        name = self.trace.model_name if self.trace is not None else None
        self.overview.show_weights(weights, tq, tk, name, (self.state.config.layer, self.state.selected_head))
        self.overviewRendered.emit()

    # -- drawing ----------------------------------------------------------------------------------
    def _on_tab(self, index: int) -> None:
        if index == TAB_OVERVIEW:
            self.request_overview()
        else:
            self._render_visible()

    def _render_visible(self) -> None:
        """Draw the trace in the visible tab only; the others are drawn when shown."""
        if self.trace is None:
            return
        index = self.tabs.currentIndex()
        if not self._stale.get(index, False):
            return
        started = time.perf_counter()
        s = self.state
        view = steps = None
        if index == TAB_PIPELINE:
            view = self.pipeline.graphics
            steps = self.pipeline.show_trace_steps(self.trace, s.selected_head, s.selected_cell, self.display)
        elif index == TAB_HEADS:
            view = self.heads.graphics
            steps = self.heads.show_trace_steps(
                self.trace, s.grid_stage, s.selected_head, s.selected_cell, self.display
            )
        self._stale[index] = False
        self._slicing = None
        if steps is not None and self.display:
            self._draw_in_slices(view, steps, started)  # a large trace: never block the GUI long
            return
        if steps is not None:
            for _ in steps:
                pass
            paint_now(view)  # one synchronous paint: the keystroke's pixels are on screen now
        self._finish_render(started)

    def _draw_in_slices(self, view, steps, started: float) -> None:
        """Draw a large trace a few panels per event-loop turn (SLICE_S of updates, then a
        paint), so that typing, Cancel and the busy bar stay live; a newer drawing abandons
        this one."""
        token = self._slicing = object()

        def step() -> None:
            if self._slicing is not token:
                return
            until = time.perf_counter() + SLICE_S  # panels until the slice's budget is spent
            try:
                while True:
                    next(steps)
                    if time.perf_counter() >= until:
                        break
            except StopIteration:
                paint_now(view)
                self._slicing = None
                self._finish_render(started)
                return
            paint_now(view)
            # not 0: queued input and timers run between slices; with the window as context,
            # a closed and deleted window drops the pending slice
            QtCore.QTimer.singleShot(2, self, step)

        step()

    def _finish_render(self, started: float) -> None:
        self.render_ms = (time.perf_counter() - started) * 1e3
        self.status_text.setText(self._status_line())
        self.rendered.emit()

    def _status_line(self) -> str:
        t = self.trace
        if t is None:
            return self.tr("No result yet")
        source = t.weights_source + (
            self.tr(" {model} layer {layer}").format(model=t.model_name, layer=t.layer)
            if t.model_name
            else ""
        )
        return self.tr(
            "device {device}  |  tokens {nq}×{nk}  |  {heads} heads of {dk}  |  {source}  |  "
            "compute {compute} ms  |  render {render} ms"
        ).format(
            device=t.device,
            nq=t.n_query,
            nk=t.n_key,
            heads=t.heads,
            dk=t.d_k,
            source=source,
            compute=f"{t.compute_ms:.1f}",
            render=f"{self.render_ms:.1f}",
        )

    def retranslate(self) -> None:
        """The window's own texts in the interface language (called on every language switch)."""
        self.setWindowTitle(self.tr("Attention Explorer"))
        titles = {
            self.pipeline: (
                self.tr("Pipeline (one head)"),
                self.tr(
                    "Every stage of the selected head, in order: X, Q, K, V, scores, "
                    "scaled, mask, weights, head output, concat, output"
                ),
            ),
            self.heads: (
                self.tr("All heads"),
                self.tr("One stage for every head; click a head to select it"),
            ),
            self.overview: (
                self.tr("Model overview"),
                self.tr("Attention weights of every layer and head; click one to open it"),
            ),
        }
        for widget, (title, tip) in titles.items():
            index = self.tabs.indexOf(widget)
            if index >= 0:
                self.tabs.setTabText(index, title)
                if tip:
                    self.tabs.setTabToolTip(index, tip)
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Drop the computation in progress and keep the last result"))
        for view in (self.pipeline, self.heads, self.overview):
            if hasattr(view, "retranslate"):
                view.retranslate()
        if self.trace is not None:
            self.status_text.setText(self._status_line())
        self.retranslate_lesson_tools()  # File menu, worked arithmetic, Compare

    def show_banner(self, text: str, style: str) -> None:
        self.banner.setStyleSheet(style)
        self.banner.setText(text)
        self.banner.setVisible(True)

    def show_error(self, text: str) -> None:
        if self.trace is not None:
            text += "  (The views still show the last good result.)"
        self.show_banner(text, ERROR_STYLE)

    def closeEvent(self, event):  # noqa: N802
        self._slicing = None  # a large trace being drawn in slices stops here
        self.save_preferences()
        self.bridge.shutdown()
        super().closeEvent(event)
