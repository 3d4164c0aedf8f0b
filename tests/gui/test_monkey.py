"""A GUI monkey: thousands of random user actions with a fixed seed.

Typing (in the controls and in presentation mode's sentence bar), pasting, clicking cells
and heads, every control, tabs and window sizes (a 1024×768 projector among them), exporting
any figure and now and then every stage at once (on screen or not, through the Export
dialog too), the language, presentation mode, the lesson's keys while typing, zoom keys
and buttons, the shortcut sheet; no exception
(pytest-qt fails the test on one raised in a Qt callback), no Qt warning, no "Unexpected
error" banner, and bounded memory. ``EXPLORER_SOAK=20000`` runs a longer soak;
``EXPLORER_MONKEY_SEED`` picks another seed.
"""

from __future__ import annotations

import contextlib
import os
import random

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.state import PANEL_NAMES
from explorer.core.config import AttentionConfig
from explorer.gui.views.registry import TABS

from .helpers import WAIT_MS, click_cell

ACTIONS = int(os.environ.get("EXPLORER_SOAK", "2000"))
SEED = int(os.environ.get("EXPLORER_MONKEY_SEED", "20240606"))
IGNORED_MESSAGES = ("This plugin does not support propagateSizeHints()",)
UNEXPECTED = ("Unexpected error", "意外错误")
TEXTS = [
    "The animal didn't cross the street because it was too tired",
    "Thinking Machines",
    "a",
    "Jane visits Africa in September",
    "😀 emoji 🚀",
    "שלום עולם",
    "注意力机制",
    " ".join(f"w{i}" for i in range(120)),
    "tab\tand\x07bell",
    "x" * 300,
    "   ",
    "",
]
CHARS = "abcdefghijklmnopqrstuvwxyz  ,.!?'éß字😀0123456789"


def rss_mb() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.fixture
def qt_messages():
    """Every Qt warning, critical or fatal message while the test runs."""
    seen: list[str] = []

    def handler(kind, context, message):
        if (
            kind != QtCore.QtMsgType.QtDebugMsg
            and kind != QtCore.QtMsgType.QtInfoMsg
            and not any(m in message for m in IGNORED_MESSAGES)
        ):
            seen.append(f"{kind.name}: {message}")

    previous = QtCore.qInstallMessageHandler(handler)
    yield seen
    QtCore.qInstallMessageHandler(previous)


class Monkey:
    def __init__(self, qtbot, window, rng: random.Random, folder):
        self.qtbot, self.w, self.rng, self.folder = qtbot, window, rng, folder
        c = window.controls
        self.combos = [c.scoring, c.scale, c.attention, c.mask, c.source, c.device, c.heads]
        self.spins = [(c.seed, 0, 50), (c.mask_size, 0, 20), (c.layer, 0, 5), (c.width, 1, 96)]
        self.actions = [
            (12, self.type_char),
            (4, self.backspace),
            (3, self.paste),
            (6, self.click_cell),
            (3, self.click_head),
            (2, self.head_key),
            (8, self.combo),
            (5, self.spin),
            (3, self.tau),
            (3, self.tab),
            (2, self.resize),
            (1, self.values),
            (2, self.stage),
            (1, self.preset),
            (1, self.escape),
            (2, self.wait_idle),
            (1, self.export),
            (1, self.language),
            (1, self.presentation),
            (1, self.zoom),
            (1, self.lesson),
            (2, self.bar_typing),
            (2, self.step_keys),
            (1, self.zoom_keys),
            (1, self.shortcut_sheet),
            (1, self.projector),
        ]
        self.every_stage_at = {ACTIONS // 3, 2 * ACTIONS // 3}  # every figure exported, twice
        self.weights = [w for w, _ in self.actions]

    def step(self, n: int = -1) -> str:
        action = self.rng.choices(self.actions, self.weights)[0][1]
        if n in self.every_stage_at:
            action = self.export_every_stage
        action()
        QtWidgets.QApplication.processEvents()
        return action.__name__

    # -- the actions ---------------------------------------------------------------
    def field(self):
        c = self.w.controls
        return c.sentence if self.rng.random() < 0.8 else c.query

    def type_char(self):
        field, ch = self.field(), self.rng.choice(CHARS)
        if ch.isascii():
            self.qtbot.keyClicks(field, ch)
            return
        # QTest types ASCII only (it aborts on other characters): send what a keyboard or
        # an input method would, a key event carrying the text.
        for kind in (QtCore.QEvent.Type.KeyPress, QtCore.QEvent.Type.KeyRelease):
            event = QtGui.QKeyEvent(kind, 0, QtCore.Qt.KeyboardModifier.NoModifier, ch)
            QtWidgets.QApplication.sendEvent(field, event)

    def backspace(self):
        self.qtbot.keyClick(self.field(), QtCore.Qt.Key.Key_Backspace)

    def paste(self):
        field = self.field()
        text = self.rng.choice(TEXTS)
        if field is self.w.controls.query and len(text) > 80:
            text = ""
        field.setText(text)

    def click_cell(self):
        view = self.w.tabs.current_view()
        canvas = getattr(view, "canvas", None)
        if canvas is None:
            return
        boxes = canvas.current_layout().boxes
        if not boxes:
            return
        box = self.rng.choice(boxes)
        rows, cols = canvas.panels[box.index].shape
        click_cell(self.qtbot, canvas, box.index, self.rng.randrange(rows), self.rng.randrange(cols))

    def click_head(self):
        if self.w.trace is not None:
            self.w.state.select_head(self.rng.randrange(self.w.trace.heads))

    def head_key(self):
        self.w.tabs.setFocus()
        self.qtbot.keyClick(self.w.tabs, getattr(QtCore.Qt.Key, f"Key_{self.rng.randint(1, 9)}"))

    def combo(self):
        combo = self.rng.choice(self.combos)
        model = combo.model()
        choices = [
            i
            for i in range(combo.count())
            if combo.itemData(i) != "open"
            and (not hasattr(model, "item") or model.item(i) is None or model.item(i).isEnabled())
        ]
        if not choices:
            return
        index = self.rng.choice(choices)
        combo.setCurrentIndex(index)
        if combo is self.w.controls.heads:
            combo.activated.emit(index)

    def spin(self):
        spin, lo, hi = self.rng.choice(self.spins)
        spin.setValue(self.rng.randint(lo, min(hi, spin.maximum())))

    def tau(self):
        slider = self.w.controls.tau
        slider.setValue(self.rng.randint(slider.minimum(), slider.maximum()))

    def tab(self):
        tab = self.rng.choice(TABS).tab
        if tab == "overview" and self.rng.random() < 0.7:  # the overview computes every layer: now and then
            tab = TABS[0].tab
        if self.rng.random() < 0.5:
            self.w.tabs.choose(tab)  # a click on the tab bar (and on a lab's button)
        else:
            self.w.state.set_tab(tab.value)

    def resize(self):
        self.w.resize(self.rng.randint(700, 1700), self.rng.randint(500, 1000))

    def values(self):
        self.w.pipeline.values_box.toggle()

    def stage(self):
        combo = self.w.heads.stage_combo
        combo.setCurrentIndex(self.rng.randrange(combo.count()))

    def preset(self):
        from explorer.appstate.presets import PRESETS

        self.w.apply_preset(self.rng.randrange(len(PRESETS)))

    def escape(self):
        self.w.state.select_cell(None)

    def export(self):
        """Any figure, on screen or not, as PNG or SVG (the overview and compare only now and
        then: they compute on the spot when their tab never did)."""
        names = [n for n in self.w.exporter.labels() if not n.startswith(("overview", "compare"))]
        if self.rng.random() < 0.15:
            names = ["overview", "compare", "compare:diff"]
        name = self.rng.choice(names)
        path = self.folder / f"export.{self.rng.choice(['png', 'svg'])}"
        message = self.w.exporter.export_panel(name, path)
        if message is not None:  # a refusal names the reason (no result yet, B impossible)
            assert not any(u in message for u in UNEXPECTED), message
        else:
            assert path.stat().st_size > 0

    def language(self):
        self.w.state.set_language(self.rng.choice(["en", "zh_CN"]))

    def presentation(self):
        self.w.classroom.set_presentation(not self.w.state.presentation, fullscreen=False)

    def zoom(self):
        c = self.w.classroom
        action = self.rng.choice([c.act_zoom_in, c.act_zoom_out, c.act_zoom_reset, None])
        if action is not None:
            action.trigger()
        else:
            self.w.state.set_stage_zoom(self.rng.choice([None, (self.rng.choice(PANEL_NAMES),)]))

    def lesson(self):
        s = self.w.state
        if self.rng.random() < 0.3:
            s.show_lesson(not s.lesson_visible)
        else:
            self.w.classroom.act_next.trigger() if self.rng.random() < 0.6 else self.w.classroom.act_prev.trigger()

    def export_every_stage(self):
        """Every figure of the pipeline and the grid, one after another, whichever tab and
        stage are on screen; one of them through the Ctrl+E dialog, as the teacher did."""
        from explorer.gui.exporting import ExportDialog

        self.wait_idle()
        names = [n for n in self.w.exporter.labels() if not n.startswith(("overview", "compare"))]
        for name in names:
            path = self.folder / f"every-{name.replace(':', '-')}.png"
            message = self.w.exporter.export_panel(name, path)
            if message is not None:
                assert not any(u in message for u in UNEXPECTED), message
            else:
                assert path.stat().st_size > 0, name
        dialog = ExportDialog(self.w.exporter)
        dialog.what.setCurrentIndex(dialog.what.findData(self.rng.choice(names)))
        dialog.format.setCurrentIndex(dialog.format.findData("png"))
        dialog.path.setText(str(self.folder / "dialog.png"))
        original = QtWidgets.QMessageBox.warning
        QtWidgets.QMessageBox.warning = lambda *a, **k: None  # a refusal answers in a box
        try:
            dialog.export_button.click()
        finally:
            QtWidgets.QMessageBox.warning = original
            dialog.deleteLater()

    def bar_typing(self):
        """Ctrl+L in presentation mode (the sentence bar) or not (the controls), then keys."""
        self.w.activateWindow()
        self.qtbot.keyClick(self.w.tabs, QtCore.Qt.Key.Key_L, QtCore.Qt.KeyboardModifier.ControlModifier)
        field = QtWidgets.QApplication.focusWidget()
        if not isinstance(field, QtWidgets.QLineEdit):
            return
        for _ in range(self.rng.randint(1, 4)):
            ch = self.rng.choice("abc xyz,.")
            self.qtbot.keyClicks(field, ch)
        if self.rng.random() < 0.5:
            self.qtbot.keyClick(field, QtCore.Qt.Key.Key_Return)

    def step_keys(self):
        """→ / ← wherever the focus is (a text field at its end steps the lesson)."""
        focus = QtWidgets.QApplication.focusWidget() or self.w.tabs
        key = self.rng.choice([QtCore.Qt.Key.Key_Right, QtCore.Qt.Key.Key_Left, QtCore.Qt.Key.Key_End])
        self.qtbot.keyClick(focus, key)

    def zoom_keys(self):
        key = self.rng.choice([QtCore.Qt.Key.Key_Equal, QtCore.Qt.Key.Key_Minus, QtCore.Qt.Key.Key_0])
        self.qtbot.keyClick(self.w.tabs, key, QtCore.Qt.KeyboardModifier.ControlModifier)

    def shortcut_sheet(self):
        self.w.classroom.act_shortcuts.trigger()
        sheet = self.w.classroom.sheet
        assert sheet is not None and sheet.keys()
        sheet.close()

    def projector(self):
        """The projector's size: the window's layout must stay inside it."""
        size = self.rng.choice([(1024, 768), (1280, 720)])
        self.w.resize(*size)
        QtWidgets.QApplication.processEvents()

        def fits() -> bool:
            hint = self.w.minimumSizeHint()
            return self.w.state.text_zoom > 2 or (hint.width() <= size[0] and hint.height() <= size[1])

        if not fits():  # a relayout still on its way (a font just changed): give it a moment
            QtWidgets.QApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)
            with contextlib.suppress(Exception):
                self.qtbot.waitUntil(fits, timeout=1000)
        hint = self.w.minimumSizeHint()
        if not fits():
            wide = sorted(
                (
                    (QtWidgets.QWidget.minimumSizeHint(w).width(), type(w).__name__, w.objectName())
                    for w in self.w.findChildren(QtWidgets.QWidget)
                    if w.isVisible()
                ),
                reverse=True,
            )[:8]
            pages = {  # a hidden tab's page widens the window too (a stacked widget takes the largest)
                self.w.tabs.tabText(i): self.w.tabs.widget(i).minimumSizeHint().width()
                for i in range(self.w.tabs.count())
            }
            widest = max(
                range(self.w.tabs.count()), key=lambda i: self.w.tabs.widget(i).minimumSizeHint().width()
            )
            inside = sorted(
                (
                    w.minimumSizeHint().width(),
                    type(w).__name__,
                    w.objectName(),
                    getattr(w, "text", lambda: "")(),
                )
                for w in self.w.tabs.widget(widest).findChildren(QtWidgets.QWidget)
                if not w.isHidden()
            )[-10:]
            tall = sorted(
                (w.minimumSizeHint().height(), type(w).__name__, getattr(w, "text", lambda: "")()[:30])
                for w in self.w.findChildren(QtWidgets.QWidget)
                if w.isVisible()
            )[-8:]
            bar = self.w.pipeline.layout().itemAt(0).layout()
            bar_items = [
                (
                    type(bar.itemAt(i).widget()).__name__,
                    bar.itemAt(i).minimumSize().width(),
                    bar.itemAt(i).isEmpty(),
                )
                for i in range(bar.count())
            ]
            pytest.fail(
                f"the window needs {hint.toTuple()} at {size}: {wide}, pages {pages} {inside}, "
                f"pipeline bar {bar.minimumSize().width()} {bar_items} spacing {bar.spacing()}, "
                f"presentation {self.w.state.presentation}, zoom {self.w.state.text_zoom}, "
                f"tab {self.w.state.tab}, lesson step {self.w.state.lesson_step}, tallest {tall}"
            )

    def wait_idle(self):
        self.qtbot.waitUntil(lambda: not self.w.worker.busy(), timeout=WAIT_MS)


def test_monkey(qtbot, make_window, qt_messages, tmp_path):
    window = make_window(
        AttentionConfig(sentence="The animal didn't cross the street", weights="random"), size=(1300, 850)
    )
    rng = random.Random(SEED)
    monkey = Monkey(qtbot, window, rng, tmp_path)
    rss: dict[int, float] = {}
    done: dict[str, int] = {}
    for n in range(ACTIONS):
        name = monkey.step(n)
        done[name] = done.get(name, 0) + 1
        if n % 25 == 24:  # let the worker catch up now and then: renders really happen
            monkey.wait_idle()
        if any(u in window.banner.text() for u in UNEXPECTED) and window.banner.isVisible():
            pytest.fail(f"action {n} ({name}): {window.banner.text()}")
        if (n + 1) % max(1, ACTIONS // 4) == 0:
            rss[n + 1] = rss_mb()
        assert not qt_messages, f"action {n} ({name}): {qt_messages}"
    monkey.wait_idle()
    QtWidgets.QApplication.processEvents()
    assert window.isVisible()
    assert {a.__name__ for _, a in monkey.actions} <= set(done), done  # every kind of action ran
    assert done.get("export_every_stage") == 2
    # Caches fill in the first half (hidden states of 16 texts, a model per folder, the
    # allocators' pools, head grids of up to 96 heads); after that memory must level off.
    marks = sorted(rss)
    half, end = rss[marks[len(marks) // 2 - 1]], rss[marks[-1]]
    trajectory = ", ".join(f"{k}: {v:.0f} MB" for k, v in sorted(rss.items()))
    assert end - half < 250, f"resident memory still grows in the second half: {trajectory}"
    assert end - rss[marks[0]] < 800, f"resident memory grew too much: {trajectory}"
    assert not qt_messages, qt_messages
    # still alive: a plain edit computes and draws
    window.state.update_config(
        sentence="still alive",
        query="",
        weights="random",
        heads=None,
        mask="none",
        d_model=64,
        model_dir=None,
        device="cpu",
    )
    qtbot.waitUntil(
        lambda: window.trace is not None and window.trace.config.sentence == "still alive", timeout=WAIT_MS
    )
