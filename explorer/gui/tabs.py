"""The tab bar of the registry's tabs, each built the first time it is shown.

The current tab is the ExplorerState's ``tab``: a click on the bar sets the state, and the
state's tab is what the bar shows.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.gui.i18n import translate
from explorer.gui.views.base import View
from explorer.gui.views.registry import TABS, tab_id


class TabHost(QtWidgets.QTabWidget):
    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.context = context
        self._specs = list(TABS)  # the registry's tabs when the window was made
        self._views: dict[str, View] = {}  # by the tab's name
        self._pages: dict[str, QtWidgets.QWidget] = {}
        for spec in self._specs:
            page = QtWidgets.QWidget()  # an empty page until the view is built
            layout = QtWidgets.QVBoxLayout(page)
            layout.setContentsMargins(0, 0, 0, 0)
            self._pages[tab_id(spec.tab)] = page
            self.addTab(page, "")
        # a projector's text size does not fit every title in 1024 px: shorten them first
        # ("Transl…", the whole title in the tooltip); arrows only when even the shortened titles
        # do not fit (eleven tabs in Chinese), so no tab is ever out of reach
        self.tabBar().setElideMode(QtCore.Qt.TextElideMode.ElideRight)
        self.tabBar().setUsesScrollButtons(True)
        self.retranslate()
        self.currentChanged.connect(self._on_current)

    # -- views -------------------------------------------------------------------------------
    def _index(self, tab: str) -> int:
        """Where the tab of that name is (ValueError: this window has no such tab)."""
        name = tab_id(tab)
        for i, spec in enumerate(self._specs):
            if tab_id(spec.tab) == name:
                return i
        raise ValueError(f"no tab named {name!r}")

    def view(self, tab: str) -> View:
        """The tab's view, built now if it was not yet."""
        spec = self._specs[self._index(tab)]
        name = tab_id(spec.tab)
        view = self._views.get(name)
        if view is None:
            view = spec.build(self.context)
            self._views[name] = view
            self._pages[name].layout().addWidget(view)
        return view

    def built(self, tab: str) -> View | None:
        return self._views.get(tab_id(tab))

    def built_views(self) -> list[View]:
        return list(self._views.values())

    def current_tab(self) -> str:
        return self._specs[self.currentIndex()].tab

    def current_view(self) -> View:
        return self.view(self.current_tab())

    def show_tab(self, tab: str) -> View:
        """Bring a tab to the front (building its view); the state is not touched."""
        index = self._index(tab) if tab_id(tab) in self._pages else 0  # an old session, a removed tab
        view = self.view(self._specs[index].tab)
        if self.currentIndex() != index:
            self.setCurrentIndex(index)  # _on_current says the state's own tab back: no event
            # Qt hands the keyboard to the new page's first field when the old page had it: a
            # lesson step that opens a tab would then type → into the Date field instead of
            # stepping on; the keys stay with the tabs
            focused = QtWidgets.QApplication.focusWidget()
            if focused is not None and self.widget(index).isAncestorOf(focused):
                self.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
        return view

    def _on_current(self, index: int) -> None:
        self.context.state.set_tab(tab_id(self._specs[index].tab))  # the window reacts to the state

    def retranslate(self) -> None:
        for i, spec in enumerate(self._specs):
            title = translate("Tabs", spec.title)
            self.setTabText(i, title)
            # the whole title first: on a narrow screen the tab shows it cut
            self.setTabToolTip(i, title + "\n" + translate("Tabs", spec.tooltip))
