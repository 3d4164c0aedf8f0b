"""The window's docks, in one place, and the host that builds each the first time it is shown.

Adding a dock is a module here with a widget class taking the ``ViewContext``, one ``Dock``
member and one ``DockSpec`` line below. A dock with a ``shortcut`` gets a toggle in the
View menu; the others are shown by whoever owns them (the lesson: the classroom, from the
ExplorerState's ``lesson_visible``).
"""

from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.i18n import translate

Area = QtCore.Qt.DockWidgetArea
NARROW_PX = 1280  # below this width the worked arithmetic beside the lesson band opens narrow
WORKED_SHARE = 0.2  # of the window's width (its panel's minimum, 220 px, at 1024)


class Dock(str, enum.Enum):
    WORKED = "worked"
    LESSON = "lesson"


@dataclass(frozen=True)
class DockSpec:
    dock: Dock
    title: str  # English source text, shown through translate("Docks", …)
    area: Area
    content: str  # "module:Class" of its widget, imported when the dock is first shown
    shortcut: str | None = None  # a View-menu toggle with this key
    tooltip: str = ""
    title_bar: bool = True


DOCKS: tuple[DockSpec, ...] = (
    DockSpec(
        Dock.WORKED,
        QtCore.QT_TRANSLATE_NOOP("Docks", "Worked arithmetic"),
        Area.RightDockWidgetArea,
        "explorer.gui.docks.worked:WorkedPanel",
        shortcut="Ctrl+Shift+W",
        tooltip=QtCore.QT_TRANSLATE_NOOP("Docks", "Show the actual numbers behind the selected cell"),
    ),
    DockSpec(
        Dock.LESSON,
        QtCore.QT_TRANSLATE_NOOP("Docks", "Lesson"),
        Area.TopDockWidgetArea,
        "explorer.gui.docks.lesson:LessonPanel",
        title_bar=False,
    ),
)


class DockHost:
    """One QDockWidget per spec, empty until first shown (hidden docks cost nothing)."""

    def __init__(self, window: QtWidgets.QMainWindow, context):
        self.window, self.context = window, context
        self._docks: dict[Dock, QtWidgets.QDockWidget] = {}
        self._content: dict[Dock, QtWidgets.QWidget] = {}
        self._actions: dict[Dock, QtGui.QAction] = {}
        for spec in DOCKS:
            dock = QtWidgets.QDockWidget(window)
            dock.setObjectName(f"{spec.dock.value}Dock")
            if not spec.title_bar:
                dock.setTitleBarWidget(QtWidgets.QWidget(dock))
                dock.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
            window.addDockWidget(spec.area, dock)
            dock.setVisible(False)
            dock.visibilityChanged.connect(lambda on, d=spec.dock: on and self._shown(d))
            self._docks[spec.dock] = dock
            if spec.shortcut:
                action = dock.toggleViewAction()
                action.setShortcut(QtGui.QKeySequence(spec.shortcut))
                window.addAction(action)  # the key works while the menu bar is hidden
                self._actions[spec.dock] = action
        unsubscribe = context.state.subscribe(self._on_state, ("lesson", "presentation"))
        window.destroyed.connect(lambda *_: unsubscribe())
        self.retranslate()

    def widget(self, dock: Dock) -> QtWidgets.QDockWidget:
        return self._docks[dock]

    def action(self, dock: Dock) -> QtGui.QAction:
        return self._actions[dock]

    def menu_actions(self) -> list[QtGui.QAction]:
        return list(self._actions.values())

    def built(self, dock: Dock) -> QtWidgets.QWidget | None:
        return self._content.get(dock)

    def content(self, dock: Dock) -> QtWidgets.QWidget:
        """The dock's widget, built now if it was not yet."""
        widget = self._content.get(dock)
        if widget is None:
            spec = next(s for s in DOCKS if s.dock == dock)
            module, cls = spec.content.split(":")
            widget = getattr(importlib.import_module(module), cls)(self.context)
            self._content[dock] = widget
            self._docks[dock].setWidget(widget)
        return widget

    # -- the worked arithmetic beside the lesson -----------------------------------------------------
    def _shown(self, dock: Dock) -> None:
        self.content(dock)
        if dock == Dock.WORKED:  # once the window has laid the dock out (the lesson may move first)
            QtCore.QTimer.singleShot(0, self.window, self.fit_worked)

    def _on_state(self, event: str, state) -> None:
        if event == "lesson" and self._beside_lesson():
            self._docks[Dock.LESSON].raise_()  # a new step: its words in front, the arithmetic a tab away
        elif event == "presentation" and not self._docks[Dock.WORKED].isHidden():
            QtCore.QTimer.singleShot(0, self.window, self.fit_worked)

    def _beside_lesson(self) -> bool:
        """The worked arithmetic is a tab of the lesson's column (see fit_worked)."""
        worked, lesson = self._docks[Dock.WORKED], self._docks[Dock.LESSON]
        return not worked.isHidden() and worked in self.window.tabifiedDockWidgets(lesson)

    def fit_worked(self) -> None:
        """Room for the worked arithmetic beside the lesson (trial 9, step 17 at 1024×768): in the
        lesson's column (presentation mode) it is a tab of its own, the column's whole height
        (stacked under the lesson it got a 60 px strip); beside the lesson band on a small
        window it opens narrow (WORKED_SHARE of the width), so the lab keeps its figures
        side by side instead of one squeezed above the other."""
        w, worked, lesson = self.window, self._docks[Dock.WORKED], self._docks[Dock.LESSON]
        if worked.isHidden() or lesson.isHidden():
            return
        if w.dockWidgetArea(lesson) == w.dockWidgetArea(worked):  # the lesson's column
            if worked not in w.tabifiedDockWidgets(lesson):
                w.tabifyDockWidget(lesson, worked)
            worked.raise_()
        elif w.width() < NARROW_PX:
            w.resizeDocks([worked], [max(worked.minimumSizeHint().width(), int(WORKED_SHARE * w.width()))],
                          QtCore.Qt.Orientation.Horizontal)  # fmt: skip

    def set_visible(self, dock: Dock, on: bool) -> None:
        if on:
            self.content(dock)
        self._docks[dock].setVisible(on)

    def retranslate(self) -> None:
        for spec in DOCKS:
            title = translate("Docks", spec.title)
            self._docks[spec.dock].setWindowTitle(title)
            action = self._actions.get(spec.dock)
            if action is not None:
                action.setText(title)
                action.setStatusTip(translate("Docks", spec.tooltip))
