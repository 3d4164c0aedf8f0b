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
            dock.visibilityChanged.connect(lambda on, d=spec.dock: on and self.content(d))
            self._docks[spec.dock] = dock
            if spec.shortcut:
                action = dock.toggleViewAction()
                action.setShortcut(QtGui.QKeySequence(spec.shortcut))
                window.addAction(action)  # the key works while the menu bar is hidden
                self._actions[spec.dock] = action
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
