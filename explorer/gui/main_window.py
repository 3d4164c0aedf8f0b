"""The explorer window: the controls on the left, the tabs of the registry on the right, docks.

It assembles the parts and routes one thing: a state change that needs a new trace asks
the worker for it, and the newest trace goes to the visible tab (the others draw it when
shown). Everything a view shows comes from the ExplorerState and that trace; the rooms
around it are explicit collaborators: ``files`` (sessions), ``exporter`` (pictures and
data), ``classroom`` (presentation, themes, language, lesson), ``docks`` and ``tabs``.
"""

from __future__ import annotations

import time

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.display import PreparedTrace, prepare_trace
from explorer.appstate.presets import PRESETS
from explorer.appstate.state import ExplorerState, TraceShape
from explorer.core.config import AttentionConfig
from explorer.gui.app_setup import settle
from explorer.gui.classroom import Classroom, SentenceBar
from explorer.gui.docks.controls import Controls
from explorer.gui.docks.registry import Dock, DockHost
from explorer.gui.early_imports import import_early
from explorer.gui.exporting import Exporter
from explorer.gui.files import SessionFiles
from explorer.gui.first_paint import after_first_paint
from explorer.gui.i18n import translate
from explorer.gui.key_hint import typing_in
from explorer.gui.messages import ERROR_STYLE, INFO_STYLE, MessageStrip, error_message, note_text, notes_of
from explorer.gui.model_picker import Choice, ModelSwitch
from explorer.gui.options import option_label
from explorer.gui.preferences import Preferences
from explorer.gui.tabs import TabHost
from explorer.gui.views.base import SlicedRun, ViewContext, ZoomsMatrix
from explorer.gui.views.registry import Tab
from explorer.gui.worker_bridge import WorkerBridge
from explorer.models import catalogue

BUSY_AFTER_MS = 250
CHANNELS = ("trace", "compare", "overview")  # what Cancel stops


class MainWindow(QtWidgets.QMainWindow):
    rendered = QtCore.Signal()  # a new trace was drawn in the visible tab
    failed = QtCore.Signal(str)  # a request ended in an error (shown in the banner)

    def __init__(
        self, engine, config: AttentionConfig | None = None, synchronous: bool = False, settings=None
    ):
        super().__init__()
        self.engine = engine
        self.state = ExplorerState(config)
        self.prefs = Preferences(settings)
        self.worker = WorkerBridge(synchronous=synchronous, parent=self)
        self.worker.listen("trace", self._on_trace)
        self.prepared: PreparedTrace | None = None
        self.render_ms = 0.0
        self._started = False
        self._synchronous = synchronous
        self._settled = False
        self.slices = SlicedRun(self)  # the drawing in progress (a large trace, in slices)
        self.context = ViewContext(self.state, self.worker, engine, lambda: self.prepared, self.built_view)

        self.controls = Controls(self.state)
        self.controls.invalid.connect(lambda exc: self.show_error(lambda: error_message(exc)))
        self.tabs = TabHost(self.context)
        # the banner and the notices float over the stage: they take no row, never push the tabs
        self.strip = MessageStrip()
        self.strip.float_over(self.tabs, top=lambda: self.tabs.tabBar().geometry().bottom() + 1)
        self.banner, self.notice = self.strip.banner, self.strip.notice
        self._banner_text = None  # makes the banner's text, again on a language switch
        self._notes: list = []  # the result's notices and teaching notes (Messages or texts)
        self._multilingual: bool | None = None  # is the model that reads Chinese there (read once)
        self.sentence_bar = SentenceBar(self.controls)  # presentation mode's inputs, on screen
        self.sentence_bar.setVisible(False)
        self.side = QtWidgets.QScrollArea()
        self.side.setWidgetResizable(True)
        self.side.setWidget(self.controls)
        self.side.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.side.setMinimumWidth(300)
        self.side.setMaximumWidth(380)
        right = QtWidgets.QWidget()
        rl = QtWidgets.QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.setSpacing(2)
        rl.addWidget(self.sentence_bar)
        rl.addWidget(self.tabs, 1)
        splitter = QtWidgets.QSplitter()
        splitter.addWidget(self.side)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([320, 1300])
        self.setCentralWidget(splitter)
        self._status_bar()

        self.docks = DockHost(self, self.context)
        self.files = SessionFiles(self, self.prefs)
        self.exporter = Exporter(self)
        self.classroom = Classroom(self)
        self.models = ModelSwitch(self)  # the model picker's loads and conversions
        self._file_menu()
        self._shortcuts()
        self.state.subscribe(self._on_state, ("config", "tab", "lesson", "heads_off"))
        # the user's theme and language (the classroom applies them)
        self.state.set_theme(self.prefs.theme())
        self.state.set_language(self.prefs.language())
        self.retranslate()

    # -- parts --------------------------------------------------------------------------------------
    def _status_bar(self) -> None:
        """Device, tokens, heads, compute and render time; a busy bar and Cancel."""
        self.status_text = QtWidgets.QLabel()
        self.status_text.setSizePolicy(  # long text never widens the window
            QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred
        )
        self.statusBar().addWidget(self.status_text, 1)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setRange(0, 0)  # busy indicator
        self.progress.setMaximumWidth(160)
        self.progress.setVisible(False)
        self.cancel_button = QtWidgets.QPushButton()
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.cancel_button)
        self._busy_timer = QtCore.QTimer(self, singleShot=True, interval=BUSY_AFTER_MS)
        self._busy_timer.timeout.connect(self._show_busy)
        self._compute_timer = QtCore.QTimer(self, singleShot=True, interval=0)  # coalesce edits
        self._compute_timer.timeout.connect(self.request_trace)

    def _file_menu(self) -> None:
        bar = self.menuBar()
        self.file_menu = QtWidgets.QMenu(self)
        bar.insertMenu(bar.actions()[0], self.file_menu)  # File comes first
        m, f, e = self.file_menu, self.files, self.exporter
        m.addAction(f.open_action)
        m.addMenu(f.recent_menu)
        m.addAction(f.save_action)
        m.addAction(f.save_as_action)
        m.addSeparator()
        m.addAction(e.export_action)
        m.addAction(e.export_window_action)
        m.addAction(e.export_page_action)
        m.addAction(e.copy_action)
        m.addSeparator()
        self.quit_action = m.addAction("")
        self.quit_action.setShortcut(QtGui.QKeySequence("Ctrl+Q"))
        self.quit_action.triggered.connect(self.quit_asking)
        for action in m.actions():  # the keys work while the menu bar is hidden (presentation)
            self.addAction(action)

    def _shortcuts(self) -> None:
        def add(key, slot):
            QtGui.QShortcut(QtGui.QKeySequence(key), self, activated=slot)

        add("Ctrl+L", lambda: self.edit_text("sentence"))
        add("Ctrl+K", lambda: self.edit_text("query"))
        add("Escape", self._escape)
        # 0 … 9 pick a head in keyPressEvent, not as shortcuts: a shortcut takes the key from
        # every widget, and "3e38" typed into a board cell lost its 3

    def keyPressEvent(self, event):
        """A digit no widget used (a table cell, a field, a list takes its own) picks the head
        of that number: heads are titled from 0 everywhere (the panels, the Pipeline's box, the
        lesson's Q₀…Qₕ₋₁), and "2" picked the head titled 1 (trial 8 F23). While a matrix is
        zoomed, 0 still shows it whole (then picks head 0)."""
        key, mods = event.key(), event.modifiers() & ~QtCore.Qt.KeyboardModifier.KeypadModifier
        view = self.tabs.current_view()
        digit = QtCore.Qt.Key.Key_0 <= key <= QtCore.Qt.Key.Key_9
        if digit and mods == QtCore.Qt.KeyboardModifier.NoModifier:
            unzoom = key == QtCore.Qt.Key.Key_0 and self.state.matrix_zoom is not None
            if not (unzoom and isinstance(view, ZoomsMatrix)):
                self._head_key(key - QtCore.Qt.Key.Key_0)
                event.accept()
                return
        if isinstance(view, ZoomsMatrix) and view.zoom_key(key, event.modifiers()):
            event.accept()  # + − 0 and Shift + an arrow no widget used: the zoomed matrix's
            return
        super().keyPressEvent(event)

    def text_field(self, which: str) -> QtWidgets.QLineEdit:
        """The sentence or query field on screen: the presentation bar's or the controls'."""
        if self.sentence_bar.isVisibleTo(self) or self.state.presentation:
            return getattr(self.sentence_bar, which)
        return getattr(self.controls, which)

    def edit_text(self, which: str) -> None:
        """Ctrl+L / Ctrl+K: into the field the class can see, its text selected."""
        field = self.text_field(which)
        field.setFocus(QtCore.Qt.FocusReason.ShortcutFocusReason)
        field.selectAll()

    def _escape(self) -> None:
        """Esc: out of a text field back to the stage (the lesson's keys), else no cell selected."""
        if typing_in(QtWidgets.QApplication.focusWidget()):
            self.classroom.focus_stage()
        else:
            self.state.select_cell(None)

    def _head_key(self, head: int) -> None:
        focus = QtWidgets.QApplication.focusWidget()
        if isinstance(focus, (QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox)):
            return
        heads = self._heads_on_screen()
        if heads is not None and head < heads:
            self.state.select_head(head)

    def _heads_on_screen(self) -> int | None:
        """How many heads the tab on screen titles: the Board's typed matrices have their own
        (a digit past them showed its last head under another number), else the trace's. A
        lab shows its own models' heads: a digit there picked a sentence head out of sight."""
        if self.tabs.is_lab(self.state.tab):
            return None
        if self.state.tab == Tab.BOARD.value:
            board = self.tabs.built(Tab.BOARD)
            return None if board is None or board.trace is None else board.trace.heads
        return None if self.prepared is None else self.prepared.trace.heads

    # -- what the tabs and tests reach -----------------------------------------------------------------
    @property
    def trace(self):
        return None if self.prepared is None else self.prepared.trace

    def view(self, tab: Tab | str):
        """A tab's view, built now if it was not yet."""
        return self.tabs.view(tab)

    def built_view(self, tab: Tab | str):
        """A tab's view if it was built (the export asks without building it)."""
        return self.tabs.built(tab)

    @property
    def pipeline(self):
        return self.view(Tab.PIPELINE)

    @property
    def heads(self):
        return self.view(Tab.HEADS)

    @property
    def overview(self):
        return self.view(Tab.OVERVIEW)

    @property
    def compare(self):
        return self.view(Tab.COMPARE)

    @property
    def worked(self):
        return self.docks.content(Dock.WORKED)

    def apply_preset(self, index: int) -> None:
        self.state.apply_preset(PRESETS[index])

    # -- start-up ---------------------------------------------------------------------------------------
    def showEvent(self, event):
        super().showEvent(event)
        if not self._started:
            self._started = True
            self.files.mark_clean()  # the lesson as it opens: nothing to save yet
            self.tabs.show_tab(self.state.tab)
            # the keys start on the stage, not in the first text field Qt would pick: → steps
            # the lesson from the first key on (a click or Ctrl+L types the sentence)
            self.classroom.focus_stage()
            QtCore.QTimer.singleShot(0, self, self.classroom.focus_stage)  # after Qt's own pick
            if self.state.config.weights == "pretrained":
                self.show_banner(
                    lambda: self.tr("Loading the model… the first result appears in a moment."), INFO_STYLE
                )
            if self._synchronous:
                QtCore.QTimer.singleShot(0, self.request_trace)  # after the window is on screen
            else:  # the model loads after the first paint (its tokenizer holds the lock)
                after_first_paint(self, self.request_trace)
            import_early(self)  # the Vision tab's modules, a turn each: its click imported them all

    # -- the state ------------------------------------------------------------------------------------
    def _on_state(self, event: str, state: ExplorerState) -> None:
        if event == "config":
            self._compute_timer.start()
        elif event == "heads_off":
            self._compute_timer.start()  # the stages come from the forward with those heads off
        elif event == "lesson":
            self.place_inputs()  # the lesson column shows the notes, or no longer
        elif event == "tab":
            self.place_inputs()
            view = self.tabs.show_tab(state.tab)
            if self.worker.busy() and not self._busy_timer.isActive():
                self._show_busy()  # shown already: on a lab tab, no longer; back on a sentence tab, again
            elif self.trace is not None and not self.worker.busy("trace"):
                self.status_text.setText(self._status_line())
            if view.stale and self.prepared is not None:
                self._draw(view)
            view.activated()

    # -- computation ------------------------------------------------------------------------------------
    def request_trace(self) -> None:
        config, engine, decoding = self.state.config, self.engine, self.state.decoding.options
        # On the worker: the trace plus reduced copies of huge matrices; a newer request or
        # Cancel stops an older computation between its steps.
        self.worker.submit(
            "trace",
            lambda should_stop: prepare_trace(engine, config, should_stop, decoding),
            cancellable=True,
        )
        self._busy_timer.start()

    def cancel(self) -> None:
        for channel in CHANNELS:
            self.worker.cancel(channel)
        for view in self.tabs.built_views():
            view.cancelled()
        self._hide_busy()
        self.show_banner(
            lambda: self.tr("Cancelled: the window keeps the last result. Edit anything to compute again."),
            INFO_STYLE,
        )

    @property
    def dropped(self) -> int:
        return self.worker.dropped

    def _show_busy(self) -> None:
        """The sentence model's computation under way, on the tabs that show it: a lab tab's
        status line says the lab runs its own models, and "Computing…" before it was not the lab's."""
        if not self.worker.busy():
            return
        sentence_tab = not self.tabs.is_lab(self.state.tab)
        self.progress.setVisible(sentence_tab)
        self.cancel_button.setVisible(sentence_tab)
        busy = self.tr("Computing…") + "  " if sentence_tab else ""
        self.status_text.setText(busy + self._status_line())

    def _hide_busy(self) -> None:
        self._busy_timer.stop()
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)

    def _on_trace(self, result) -> None:
        if not self.worker.busy():
            self._hide_busy()
        if not result.ok:
            error = result.error
            self.show_error(lambda: error_message(error))
            self.failed.emit(str(error))
            return
        self.prepared = prepared = result.value
        trace, source = prepared.trace, prepared.source
        self.hide_banner()
        self.state.set_shape(
            TraceShape(tuple(source.head_counts), source.default_heads, trace.heads, trace.d_k, source.layers)
        )
        self.state.clamp_to(trace.heads, trace.n_query, trace.n_key)
        self._notes = notes_of(trace)
        self.show_notes()
        for view in self.tabs.built_views():
            view.stale = True
        worked = self.docks.built(Dock.WORKED)
        if worked is not None:
            worked.refresh()
        self._draw(self.tabs.current_view())

    # -- drawing ------------------------------------------------------------------------------------------
    def _draw(self, view) -> None:
        """Draw the trace in a view: at once for a small trace (the keystroke's pixels are on
        screen when this returns), a few panels per event-loop turn for a large one; a newer
        drawing abandons this one."""
        started = time.perf_counter()
        steps = view.draw(self.prepared)
        if self.prepared.display:
            self.slices.start(steps, lambda: self._finish(started))
            return
        self.slices.stop()
        for _ in steps:
            pass
        self._finish(started)

    def _finish(self, started: float) -> None:
        self.render_ms = (time.perf_counter() - started) * 1e3
        if not self.worker.busy("trace"):
            self.status_text.setText(self._status_line())
        if not self._settled:  # the first trace is drawn: the model and the views are loaded
            self._settled = True
            settle()
        self.rendered.emit()
        if self.state.lesson_visible:  # the visible view first, the lesson's next ones later
            self.tabs.draw_ahead()

    def _status_line(self) -> str:
        tab = self.tabs.current_tab()
        if self.tabs.is_lab(tab):  # the sentence's model, layer and heads are not what a lab shows
            return self.tr(
                "{lab}: this lab runs its own models; the sentence tabs show the sentence model's status"
            ).format(lab=self.tabs.title(tab))
        t = self.trace
        if t is None:
            return self.tr("No result yet")
        source = option_label("weights", t.weights_source) + (
            self.tr(" {model} layer {layer}").format(model=t.model_name, layer=t.layer)
            if t.model_name
            else ""
        )
        return self.tr(
            "device {device}  |  tokens {nq}×{nk}  |  {heads} heads × d_k {dk}  |  {source}  |  "
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

    # -- words ------------------------------------------------------------------------------------------
    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """The window's own texts in the interface language (on every language switch)."""
        self.update_title()
        self.tabs.retranslate()
        self.docks.retranslate()
        self.files.retranslate()
        self.exporter.retranslate()
        self.file_menu.setTitle(translate("MainWindow", "&File"))
        self.quit_action.setText(translate("MainWindow", "&Quit"))
        self.show_notes()
        self.strip.retranslate()
        if self._banner_text is not None and not self.banner.isHidden():
            self.banner.setText(self._banner_text())
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Drop the computation in progress and keep the last result"))
        self.status_text.setText(self._status_line() if self.trace is not None else self.tr("Starting…"))

    def update_title(self) -> None:
        name = QtCore.QFileInfo(self.files.path).fileName() if self.files.path else None
        title = self.tr("Attention Explorer")
        self.setWindowTitle(f"{name} — {title}" if name else title)

    def show_banner(self, text, style: str) -> None:
        """A message in the strip over the stage: a text, or a function that makes it (then
        a language switch translates it again)."""
        self._banner_text = text if callable(text) else (lambda: text)
        self.strip.show_banner(self._banner_text(), style)
        self.place_inputs()

    def hide_banner(self) -> None:
        self._banner_text = None
        self.strip.hide_banner()
        self.banner.setText("")  # nothing stale left to read
        self.place_inputs()

    def place_inputs(self) -> None:
        """The sentence bar (presentation mode) and the notices belong to the tabs that read
        the sentence: a lab's tab has its own inputs and messages, and gives up the bar's room
        to its figures; over it the strip shows errors only (one may be a file's). The settings
        column goes with them: beside a lab it showed another sentence's settings (trial 9)."""
        lab = self.state.tab in self.state.labs
        self.sentence_bar.setVisible(self.state.presentation and not lab)
        self.side.setVisible(not self.state.presentation and not lab)
        self.strip.allowed = not lab or self.strip.error
        self.strip.notes_elsewhere = self.state.lesson_visible
        self.strip.update_shown()

    def show_error(self, text) -> None:
        make = text if callable(text) else (lambda: text)
        if self.trace is not None:
            self.show_banner(
                lambda: make() + "  " + self.tr("(The views still show the last good result.)"), ERROR_STYLE
            )
        else:
            self.show_banner(make, ERROR_STYLE)

    def notes_text(self) -> list[str]:
        """The result's notices and teaching notes, in the interface language."""
        return [note_text(note) for note in self._notes]

    def show_notes(self) -> None:
        texts = self.notes_text()
        self.strip.set_notice(self.tr("Note: ") + "  •  ".join(texts) if texts else "")
        keys = {getattr(n, "key", None): n for n in self._notes}
        if "untrained_scoring" in keys:  # the note says a trained model scores this way: one click
            scoring = dict(keys["untrained_scoring"].params)["scoring"]
            self.strip.set_action(self.tr("Show it trained"), lambda: self.show_trained_scoring(scoring))
        elif (
            keys.keys() & {"engine.unknown_tokens", "engine.unknown_tokens_read"}
            and self._multilingual_offered()
        ):
            # characters the English model cannot read: one click to the model that reads them
            self.strip.set_action(
                self.tr("Read it with the multilingual model"),
                lambda: self.models.choose(Choice(catalogue.MULTILINGUAL, None)),
            )
        else:
            self.strip.set_action(None)
        self.place_inputs()
        lesson = self.docks.built(Dock.LESSON) if hasattr(self, "docks") else None
        if lesson is not None:
            lesson.set_notes(texts)

    def _multilingual_offered(self) -> bool:
        """The multilingual model is installed or convertible and not the one shown (the
        status is read once: it looks at files)."""
        if self._multilingual is None:
            self._multilingual = catalogue.status(catalogue.MULTILINGUAL) != "missing"
        config = self.state.config
        return self._multilingual and not (config.model == catalogue.MULTILINGUAL and not config.model_dir)

    def show_trained_scoring(self, scoring: str) -> None:
        """The Translation tab, its shipped model that learned this scoring."""
        self.state.translation.show_scoring(scoring)
        self.state.set_tab(Tab.TRANSLATION)

    # -- preferences ------------------------------------------------------------------------------------
    def restore_geometry(self) -> bool:
        geometry = self.prefs.geometry()
        return bool(geometry is not None and self.restoreGeometry(geometry))

    def save_preferences(self) -> None:
        self.prefs.set_geometry(self.saveGeometry())
        self.prefs.set_theme(self.state.theme)
        self.prefs.set_language(self.state.language)
        self.prefs.sync()

    def resize_within_screen(self, width: int, height: int) -> None:
        """A size for the window that the screen can show: never larger than its free area
        (a 1500×900 window on a 1024×768 projector had its right part off screen)."""
        screen = self.screen() or QtGui.QGuiApplication.primaryScreen()
        room = screen.availableGeometry() if screen is not None else None
        if room is not None:
            frame = self.frameGeometry().size() - self.geometry().size()  # title bar and borders
            width = min(width, room.width() - max(0, frame.width()))
            height = min(height, room.height() - max(0, frame.height()))
        self.resize(width, height)
        if room is not None and not room.contains(self.frameGeometry()):
            self.move(room.topLeft())

    # -- quitting ------------------------------------------------------------------------------------
    def unsaved(self) -> bool:
        """Whether the lesson (inputs, options, selection, steps) differs from the last saved
        or opened session, or from how the window opened."""
        return self.files.changed()

    def ask_to_save(self, opening: bool = False) -> bool:
        """Save / Discard / Cancel when the lesson has unsaved changes; True: go on closing
        (or, ``opening``, replacing the lesson with another session)."""
        if not self.unsaved():
            return True
        box = QtWidgets.QMessageBox(self)
        box.setIcon(QtWidgets.QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Unsaved changes"))
        box.setText(self.tr("The lesson has changes that are not saved in a session file."))
        box.setInformativeText(
            self.tr("Save them before opening another session?")
            if opening
            else self.tr("Save them before quitting?")
        )
        B = QtWidgets.QMessageBox.StandardButton
        box.setStandardButtons(B.Save | B.Discard | B.Cancel)
        box.setDefaultButton(B.Save)
        self.unsaved_box = box  # the tests answer it
        answer = box.exec()
        self.unsaved_box = None
        if answer == B.Save:
            return self.files.save_current()
        return answer == B.Discard

    def quit_asking(self) -> None:
        """File > Quit (Ctrl+Q): asks first when there are unsaved changes."""
        if self.ask_to_save():
            self._asked = True
            self.close()

    def closeEvent(self, event):
        # the window's close button asks too; a close by the program (tests, the shutdown of
        # the application) does not
        if event.spontaneous() and not getattr(self, "_asked", False) and not self.ask_to_save():
            event.ignore()
            return
        self._asked = False
        self.slices.stop()  # a large trace being drawn in slices stops here
        self.save_preferences()
        self.worker.shutdown()
        super().closeEvent(event)
