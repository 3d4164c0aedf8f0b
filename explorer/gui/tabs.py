"""The tab bar of the registry's tabs, each built the first time it is shown.

The current tab is the ExplorerState's ``tab``: a click on the bar sets the state, and the
state's tab is what the bar shows. Every lab's tab (a tab named like a lab of the labs'
registry) is a page of one Labs tab, picked in its row of buttons (explorer/gui/labs_tab.py):
the bar keeps a handful of tabs whose titles read whole on a projector. A lab is still a tab
by its own name: show_tab("translation"), sessions and lesson steps open the Labs tab on it.
"""

from __future__ import annotations

from collections.abc import Iterator

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.i18n import translate
from explorer.gui.lab.warm import warm_up_ahead
from explorer.gui.labs_tab import LabsPage
from explorer.gui.tab_pieces import Pieces, import_in_pieces
from explorer.gui.views.base import View
from explorer.gui.views.registry import TABS, TabSpec, tab_id
from explorer.words import QT_TRANSLATE_NOOP

AHEAD = 2  # the lesson looks ahead to the steps either side of its own
DRAW = "draw:"  # the key of a tab's drawing ahead among the pieces

LABS_TITLE = QT_TRANSLATE_NOOP("Tabs", "Labs")
LABS_TOOLTIP = QT_TRANSLATE_NOOP(
    "Tabs",
    "Small models trained while you watch: pick a lab in the row of buttons "
    "(Ctrl+PgDown / Ctrl+PgUp: the next or previous lab)",
)


class TabHost(QtWidgets.QTabWidget):
    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.context = context
        self._specs = list(TABS)  # the registry's tabs when the window was made
        self._views: dict[str, View] = {}  # by the tab's name
        self.pieces = Pieces(self)  # views built a piece a turn (ahead of a lesson's step)
        self._ahead: dict[str, None] = {}  # the tabs the lesson last looked ahead to, in order
        self._pages: dict[str, QtWidgets.QWidget] = {}
        labs = set(context.state.labs)  # the labs' registry, as the state was made from it
        self._labs: list[TabSpec] = [s for s in self._specs if tab_id(s.tab) in labs]
        for spec in self._specs:
            page = QtWidgets.QWidget()  # an empty page until the view is built
            layout = QtWidgets.QVBoxLayout(page)
            layout.setContentsMargins(0, 0, 0, 0)
            self._pages[tab_id(spec.tab)] = page
        self.labs_page = LabsPage([self._pages[tab_id(s.tab)] for s in self._labs])
        self.labs_page.chosen.connect(self._on_lab_chosen)
        # the bar: the tabs in the registry's order, the Labs tab where the first lab was
        self._bar: list[TabSpec | None] = []  # None: the Labs tab
        for spec in self._specs:
            if spec not in self._labs:
                self._bar.append(spec)
                self.addTab(self._pages[tab_id(spec.tab)], "")
            elif None not in self._bar:
                self._bar.append(None)
                self.addTab(self.labs_page, "")
        # a title too long for the bar is still shortened (the whole one in its tooltip), and
        # arrows come only when even short ones do not fit: no tab is ever out of reach
        self.tabBar().setElideMode(QtCore.Qt.TextElideMode.ElideRight)
        self.tabBar().setUsesScrollButtons(True)
        self.lab_menu_button = self._lab_menu()
        self.next_lab_action = self._lab_key("Ctrl+PgDown", +1)
        self.previous_lab_action = self._lab_key("Ctrl+PgUp", -1)
        self.retranslate()
        self.currentChanged.connect(self._on_current)
        self._size_by_current()
        unsubscribe = context.state.subscribe(lambda *_: self._show_lab_row(), ["presentation", "lesson"])
        self.destroyed.connect(lambda *_: unsubscribe())
        self._show_lab_row()

    def _show_lab_row(self) -> None:
        """In a lesson on a projector the lesson picks the lab (and Ctrl+PgUp/PgDown still do):
        the row of lab buttons gives its line to the lab's figures."""
        s = self.context.state
        hidden = s.presentation and s.lesson_visible
        self.labs_page.row.setVisible(not hidden)
        self.lab_menu_button.setVisible(hidden and bool(self._labs))  # the mouse's way to a lab

    def _lab_menu(self) -> QtWidgets.QToolButton:
        """A button at the bar's end that lists the labs: it costs the figures no line."""
        button = QtWidgets.QToolButton(self)
        button.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # the keys stay with the stage
        button.setAutoRaise(True)
        menu = QtWidgets.QMenu(button)
        for spec in self._labs:
            action = menu.addAction("")
            action.setCheckable(True)
            action.triggered.connect(lambda _=False, tab=spec.tab: self.context.state.set_tab(tab_id(tab)))
        menu.aboutToShow.connect(self._check_lab_menu)
        button.setMenu(menu)
        self.setCornerWidget(button, QtCore.Qt.Corner.TopRightCorner)
        return button

    def _check_lab_menu(self) -> None:
        current = self.labs_page.current() if self.is_lab(self.current_tab()) else -1
        for i, action in enumerate(self.lab_menu_button.menu().actions()):
            action.setChecked(i == current)

    def _lab_key(self, key: str, delta: int) -> QtGui.QAction:
        action = QtGui.QAction(self)
        action.setShortcut(QtGui.QKeySequence(key))
        action.triggered.connect(lambda: self.step_lab(delta))
        self.addAction(action)  # a window shortcut: it works wherever the keyboard is
        return action

    # -- views -------------------------------------------------------------------------------
    def _spec(self, tab: str) -> TabSpec:
        """The tab of that name (ValueError: this window has no such tab)."""
        name = tab_id(tab)
        for spec in self._specs:
            if tab_id(spec.tab) == name:
                return spec
        raise ValueError(f"no tab named {name!r}")

    def _bar_index(self, spec: TabSpec) -> int:
        return self._bar.index(None if spec in self._labs else spec)

    def view(self, tab: str) -> View:
        """The tab's view, built now if it was not yet."""
        spec = self._spec(tab)
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
        spec = self._bar[self.currentIndex()]
        return (spec or self._labs[self.labs_page.current()]).tab

    def current_view(self) -> View:
        return self.view(self.current_tab())

    def is_lab(self, tab: str) -> bool:
        return any(tab_id(s.tab) == tab_id(tab) for s in self._labs)

    def _pieces(self, name: str) -> Iterator[None]:
        """The view's modules imported one a turn, the view built in a turn of its own, then
        laid out and painted off screen (``_prepaint``)."""
        yield from import_in_pieces(self._spec(name).view.split(":")[0])
        if name not in self._views:
            self.view(name)
            yield
            yield from self._prepaint(name)

    def prepare(self, tab: str) -> None:
        """Build the tab's view ahead, a piece per turn (the window is idle: the lesson's next
        step); a view built but out of sight is laid out at the size it will be shown at and its
        graphics views painted once off screen, one a turn (their pyqtgraph axes were laid out
        and drawn anew in the key's turn when a lab's page came back: 31→30, 81 ms). Then the
        window's trace is drawn in it if it has not been (``draw_ahead``)."""
        name = tab_id(tab)
        if name not in self._pages:
            return
        self._ahead.pop(name, None)
        self._ahead[name] = None
        while len(self._ahead) > AHEAD:
            del self._ahead[next(iter(self._ahead))]
        if self.is_lab(name):  # the lesson goes to a lab next: Train there should not wait
            warm_up_ahead()
        then = lambda: self._draw_later(name)  # noqa: E731
        if name not in self._views:
            self.pieces.start(name, lambda: self._pieces(name), then)
        elif not self._pages[name].isVisible():
            self.pieces.start(name, lambda: self._prepaint(name), then)

    def _prepaint(self, name: str) -> Iterator[None]:
        page = self._pages[name]
        if page.isVisible():
            return
        if self.is_lab(name):  # the Labs tab's page, then the lab's page in its stack
            stack = self.labs_page.stack
            if not self.labs_page.isVisible():
                self.labs_page.setGeometry(self.currentWidget().geometry())
                _resize_now([self.labs_page, stack])
            page.setGeometry(stack.contentsRect())
        else:
            page.setGeometry(self.currentWidget().geometry())
        _resize_now([page, *page.findChildren(QtWidgets.QWidget)])  # parents first
        yield
        for graphics in page.findChildren(QtWidgets.QGraphicsView):
            if page.isVisible():
                return
            graphics.grab()  # its axes laid out and drawn now, not when the page is shown
            yield

    def draw_ahead(self) -> None:
        """The window drew a new trace in the tab on show: the tabs the lesson looks ahead to
        (its last ``prepare``s), built and out of sight, draw it too, a part per later turn
        (51→50: the key drew the whole Pipeline in its own turn, 34 ms profiled). A view drawn
        ahead says ``rendered`` when its drawing ends, out of sight, and the window says
        nothing when it is then shown (nothing was drawn): what waits for the window's
        ``rendered`` waits for a trace (the first one, a keystroke's), never for a tab shown,
        and bench/lesson_steps.py measures the GUI thread's gaps, not that signal."""
        for name in self._ahead:
            if not self.pieces.pending(name):  # that walk draws at its end
                self._draw_later(name)

    def _draw_later(self, name: str) -> None:
        view, prepared = self._views.get(name), self.context.current()
        if view is None or prepared is None or self._pages[name].isVisible():
            return
        if self.is_lab(name):  # a lab draws its own models' results: the window's trace is not its
            return
        if not view.stale and view.prepared is prepared:  # drawn already
            return
        key = DRAW + name
        self.pieces.drop(key)  # an older trace's drawing
        self.pieces.start(key, lambda: self._draw_hidden(view, prepared))

    def _draw_hidden(self, view: View, prepared) -> Iterator[None]:
        """The view's drawing, a part a turn; a newer trace on the way leaves it stale (its
        first part said it was not: a large trace is drawn on screen in slices, turns in which
        this older drawing ran on)."""
        for _ in view.draw(prepared):
            if self.context.current() is not prepared:
                view.stale = True
                return
            yield
        if self.context.current() is not prepared:
            view.stale = True
        yield

    def _finish_drawing(self, name: str) -> None:
        """The tab comes on show: its drawing ahead, if one is under way, ends now (its last
        part puts the pixels on screen)."""
        self.pieces.finish(DRAW + name)

    def show_tab(self, tab: str) -> View:
        """Bring a tab to the front (building its view); the state is not touched."""
        spec = self._spec(tab) if tab_id(tab) in self._pages else self._specs[0]  # an old session
        name = tab_id(spec.tab)
        view = self.view(spec.tab)
        self._finish_drawing(name)
        moved = False
        if spec in self._labs and self.labs_page.current() != self._labs.index(spec):
            self.labs_page.select(self._labs.index(spec))  # first: the bar's switch then says it
            moved = True
        index = self._bar_index(spec)
        if self.currentIndex() != index:
            self.setCurrentIndex(index)  # _on_current says the state's own tab back: no event
            moved = True
        if moved:
            # Qt hands the keyboard to the new page's first field when the old page had it: a
            # lesson step that opens a tab would then type → into the Date field instead of
            # stepping on; the keys stay with the tabs
            focused = QtWidgets.QApplication.focusWidget()
            if focused is not None and self._pages[name].isAncestorOf(focused):
                self.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
        return view

    def choose(self, tab: str) -> None:
        """What a click does: on the tab bar, and for a lab then on its button."""
        spec = self._spec(tab)
        self.setCurrentIndex(self._bar_index(spec))
        if spec in self._labs:
            self.labs_page.buttons[self._labs.index(spec)].click()

    def step_lab(self, delta: int) -> None:
        """The next (+1) or previous (−1) lab, round; from another tab: the Labs tab as left."""
        if not self._labs:
            return
        at = self.labs_page.current()
        if self.is_lab(self.current_tab()):
            at = (at + delta) % len(self._labs)
        self.context.state.set_tab(tab_id(self._labs[at].tab))

    def _on_current(self, index: int) -> None:
        self._size_by_current()
        self.context.state.set_tab(tab_id(self.current_tab()))  # the window reacts to the state

    def _size_by_current(self) -> None:
        """The window is as tall as the tab on show needs: Qt's stack asks for the tallest of
        all its pages, and one tall lab at A+ pushed every tab's window past a projector's
        768 px. A page out of sight is ignored in that sum."""
        for i in range(self.count()):
            page = self.widget(i)
            ignored = QtWidgets.QSizePolicy.Policy.Ignored
            shown = QtWidgets.QSizePolicy.Policy.Preferred
            policy = shown if i == self.currentIndex() else ignored
            page.setSizePolicy(policy, policy)
        self.updateGeometry()

    def _on_lab_chosen(self, index: int) -> None:
        self.context.state.set_tab(tab_id(self._labs[index].tab))

    # -- words -------------------------------------------------------------------------------
    def title(self, tab: str) -> str:
        """The tab's title as the window shows it: on the bar, or on its lab's button."""
        spec = self._spec(tab)
        if spec in self._labs:
            return self.labs_page.buttons[self._labs.index(spec)].text()
        return self.tabText(self._bar_index(spec))

    def retranslate(self) -> None:
        for i, spec in enumerate(self._bar):
            title = translate("Tabs", spec.title if spec else LABS_TITLE)
            self.setTabText(i, title)
            # the whole title first: on a narrow screen the tab shows it cut
            self.setTabToolTip(i, title + "\n" + translate("Tabs", spec.tooltip if spec else LABS_TOOLTIP))
        self.labs_page.set_titles(
            [
                (
                    translate("Tabs", s.title),
                    translate("Tabs", s.short) if s.short else "",
                    translate("Tabs", s.tooltip),
                )
                for s in self._labs
            ]
        )
        for action, spec in zip(self.lab_menu_button.menu().actions(), self._labs, strict=True):
            action.setText(translate("Tabs", spec.title))
        self.lab_menu_button.setText(translate("Tabs", "Labs") + " ▾")
        self.lab_menu_button.setToolTip(
            translate("Tabs", "Open a lab (Ctrl+PgDown / Ctrl+PgUp: the next or previous lab)")
        )
        self.next_lab_action.setText(translate("Tabs", "Next lab"))
        self.previous_lab_action.setText(translate("Tabs", "Previous lab"))


def lay_out_ahead(page: QtWidgets.QWidget, rect: QtCore.QRect) -> Iterator[None]:
    """A page out of sight (a lab's page behind another) laid out now at the place it will be
    shown at, then its graphics views painted once off screen, one a turn: shown, it is only
    painted again (a lab's training page laid out and its plots' axes drawn anew in the key's
    turn that showed it: 34→35)."""
    if page.isVisible():
        return
    page.setGeometry(rect)
    _resize_now([page, *page.findChildren(QtWidgets.QWidget)])  # parents first
    yield
    for graphics in page.findChildren(QtWidgets.QGraphicsView):
        if page.isVisible():
            return
        graphics.grab()
        yield


def _resize_now(widgets: list[QtWidgets.QWidget]) -> None:
    """The resize events Qt keeps for widgets out of sight until they are shown, sent now (in
    order: a parent's layout sizes its children)."""
    pending = QtCore.Qt.WidgetAttribute.WA_PendingResizeEvent
    for widget in widgets:
        if QtWidgets.QWidget.testAttribute(widget, pending) and not QtWidgets.QWidget.isWindow(widget):
            QtWidgets.QWidget.setAttribute(widget, pending, False)
            size = QtWidgets.QWidget.size(widget)  # a view may name a field of its own "size"
            QtWidgets.QApplication.sendEvent(widget, QtGui.QResizeEvent(size, QtCore.QSize()))
