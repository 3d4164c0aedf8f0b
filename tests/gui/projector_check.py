"""What a projector at 1024×768 asks of the window, as checks a test (and the screenshot
script) can run on any state: no text under 20 px, nothing clipped or squeezed, no figure
texts overlapping or outside their figure, every token labelled where the lesson promises it.

Each check returns a list of problems (empty: fine), each naming the widget or text.
"""

from __future__ import annotations

import re

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.elided import ElidedCombo, ElidedLabel
from explorer.gui.heatmap import MatrixCanvas
from explorer.gui.heatmap.figure import _title_font, text_places, title_place
from explorer.gui.views.tokens import TokenChips

MIN_PX = 20


def name(w: QtWidgets.QWidget) -> str:
    text = ""
    for attr in ("text", "currentText", "windowTitle"):
        value = getattr(w, attr, None)
        if callable(value):
            try:
                text = value()
            except TypeError:
                continue
            if text:
                break
    return f"{type(w).__name__} {w.objectName()!r} {text[:40]!r}"


def shown_widgets(window: QtWidgets.QWidget) -> list[QtWidgets.QWidget]:
    """Widgets on screen: visible, with a size, not scrolled out of their scroll area's view."""
    out = []
    for w in window.findChildren(QtWidgets.QWidget):
        size = QtWidgets.QWidget.size(w)  # (a widget may shadow width(): the controls have a "width" box)
        if not w.isVisible() or size.width() <= 0 or size.height() <= 0 or w.window() is not window:
            continue
        if isinstance(w, (QtWidgets.QMenu, QtWidgets.QRubberBand)):
            continue
        out.append(w)
    return out


def inside_scrolled_content(w: QtWidgets.QWidget) -> bool:
    """Whether w is the content of a scroll area (it may extend past the view: it scrolls)."""
    parent = w.parentWidget()
    while parent is not None:
        if isinstance(parent, QtWidgets.QAbstractScrollArea) and parent.viewport().isAncestorOf(w):
            return True
        parent = parent.parentWidget()
    return False


def font_problems(window) -> list[str]:
    problems = []
    for w in shown_widgets(window):
        px = QtGui.QFontInfo(w.font()).pixelSize()
        if px < MIN_PX:
            problems.append(f"{name(w)}: {px} px text")
        if isinstance(w, MatrixCanvas) and w.style_.font.pixelSize() < MIN_PX:
            problems.append(f"{name(w)}: figure labels of {w.style_.font.pixelSize()} px")
        if isinstance(w, TokenChips) and w.style_.font.pixelSize() < MIN_PX:
            problems.append(f"{name(w)}: chips of {w.style_.font.pixelSize()} px")
    sheet = window.styleSheet()
    if "QToolTip" not in sheet:
        problems.append("tooltips keep the platform's small font")
    return problems


def clip_problems(window) -> list[str]:
    """Widgets partly outside the window, squeezed below their minimum, or cutting their text."""
    problems = []
    frame = window.rect()
    if (
        window.minimumSizeHint().width() > window.width()
        or window.minimumSizeHint().height() > window.height()
    ):
        problems.append(
            f"the window needs {window.minimumSizeHint().toTuple()}, has {window.size().toTuple()}"
        )
    for w in shown_widgets(window):
        if isinstance(w.parent(), QtWidgets.QTabBar):
            continue  # its scroll arrows, which the tab bar itself places and sizes
        width = QtWidgets.QWidget.width(w)
        rect = QtCore.QRect(w.mapTo(window, QtCore.QPoint(0, 0)), QtWidgets.QWidget.size(w))
        scrolled = inside_scrolled_content(w)
        if not scrolled and not frame.contains(rect):
            problems.append(f"{name(w)} at {rect.getRect()} leaves the window {frame.getRect()}")
        policy = w.sizePolicy()
        hint = w.minimumSizeHint()
        ignored = QtWidgets.QSizePolicy.Policy.Ignored
        if (
            hint.isValid()
            and policy.horizontalPolicy() != ignored
            and width + 1 < hint.width()
            # a stack asks room for its hidden pages too; the page on screen is checked itself
            and not isinstance(
                w, (QtWidgets.QAbstractScrollArea, QtWidgets.QTabBar, QtWidgets.QStackedWidget)
            )
        ):
            problems.append(f"{name(w)} squeezed to {width} px wide, needs {hint.width()}")
        if isinstance(w, QtWidgets.QLabel) and not isinstance(w, ElidedLabel) and not w.wordWrap():
            if w.textFormat() != QtCore.Qt.TextFormat.RichText and "<" not in w.text():
                shown = w.text()
                if w.buddy() is not None:  # "&Date" shows "Date", its D underlined
                    shown = shown.replace("&&", "\0").replace("&", "").replace("\0", "&")
                need = w.fontMetrics().horizontalAdvance(shown)
                if need > w.contentsRect().width() + 1:
                    problems.append(f"{name(w)} cuts its text ({need:.0f} px in {w.contentsRect().width()})")
        if isinstance(w, QtWidgets.QLabel) and w.wordWrap() and w.text():
            need = w.heightForWidth(width)
            if need > w.height() + 1:
                problems.append(f"{name(w)} cuts its lines ({need} px tall in {w.height()})")
        if isinstance(w, QtWidgets.QComboBox) and not isinstance(w, ElidedCombo) and w.currentText():
            need = w.fontMetrics().horizontalAdvance(w.currentText())
            if need > width - 30:
                problems.append(f"{name(w)} cuts its item ({need:.0f} px in {width})")
        if isinstance(w, QtWidgets.QAbstractButton) and w.text():
            need = w.fontMetrics().horizontalAdvance(w.text().replace("&", ""))
            if need > width:
                problems.append(f"{name(w)} cuts its text ({need:.0f} px in {width})")
    return problems


def cut_problems(window) -> list[str]:
    """Texts cut off without a word: a widget outside its parent (a button pushed past the
    edge of the lesson column shows half its text, 不会 as 不), scrolled content wider than a
    view that cannot scroll sideways, a button's text wider than the button, an elided
    combo or label (a class cannot read the tooltip that holds the rest)."""
    problems = []
    for w in shown_widgets(window):
        parent = w.parentWidget()
        if parent is not None and not w.isWindow() and not _scrolls(w):
            inside = QtWidgets.QWidget.rect(parent)
            rect = QtWidgets.QWidget.geometry(w)
            if not inside.adjusted(-1, -1, 1, 1).contains(rect) and rect.intersects(inside):
                problems.append(f"{name(w)} at {rect.getRect()} leaves its parent {name(parent)}")
        if isinstance(w, QtWidgets.QScrollArea) and w.widget() is not None:
            off = QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff
            content = QtWidgets.QWidget.width(w.widget())  # (the board has a "width" box)
            view = QtWidgets.QWidget.width(w.viewport())
            if w.horizontalScrollBarPolicy() == off and content > view + 1:
                problems.append(f"{name(w)}: its content is {content} px wide in a {view} px view, cut")
        if isinstance(w, ElidedCombo) and w.currentText() and w.shown_text() != w.currentText():
            problems.append(f"{name(w)} elides its item to {w.shown_text()!r}")
        if isinstance(w, ElidedLabel) and w.text() and w.shown_text() != w.text():
            problems.append(f"{name(w)} elides its text to {w.shown_text()!r}")
        if isinstance(w, QtWidgets.QProgressBar) and w.isTextVisible() and w.text():
            need = w.fontMetrics().horizontalAdvance(w.text())
            if need > w.width() - 8:  # its text wraps and is cut ("0 of 300 / steps")
                problems.append(f"{name(w)} cuts its text {w.text()!r} ({need} px in {w.width()})")
        if isinstance(w, QtWidgets.QLineEdit) and not w.text() and w.placeholderText():
            room = placeholder_room(w)
            need = w.fontMetrics().horizontalAdvance(w.placeholderText())
            if need > room:  # Qt elides it: "留空：自注…"
                problems.append(
                    f"{name(w)} elides its placeholder {w.placeholderText()!r} ({need} px in {room})"
                )
        if isinstance(w, QtWidgets.QLabel) and _read_as_html(w) and TOKEN_TAG.search(w.text()):
            problems.append(f"{name(w)} reads a token as HTML (<s> strikes the text through)")
    return problems


def placeholder_room(edit: QtWidgets.QLineEdit) -> int:
    """The width a line edit draws its placeholder in (its contents, its text margins, and the
    2 px Qt keeps at each side)."""
    option = QtWidgets.QStyleOptionFrame()
    edit.initStyleOption(option)
    contents = edit.style().subElementRect(QtWidgets.QStyle.SubElement.SE_LineEditContents, option, edit)
    margins = edit.textMargins()
    return contents.width() - margins.left() - margins.right() - 4


def sideways_problems(view: QtWidgets.QWidget) -> list[str]:
    """A lab page beside the lesson scrolls sideways: something in it is wider than its column,
    and the status line, a legend and the weights label are cut at the right edge."""
    return [
        f"{name(area)} scrolls sideways: its content {QtWidgets.QWidget.width(area.widget())} px in "
        f"{QtWidgets.QWidget.width(area.viewport())}"
        for area in view.findChildren(QtWidgets.QScrollArea)
        if area.isVisible() and area.widget() is not None and area.horizontalScrollBar().isVisible()
    ]


def question_below_the_fold(window) -> bool:
    """The step's question (its words, the answer after Reveal, its buttons) reaches below the
    lesson column's view as the step opens: the class would need the column's scroll bar."""
    lesson = window.classroom.lesson
    panel, view = lesson.question, lesson.body_scroll.viewport()
    if not panel.isVisible() or not view.isAncestorOf(panel):
        return False
    bottom = panel.mapTo(view, QtCore.QPoint(0, panel.height())).y()
    return bottom > view.height() + 1


TOKEN_TAG = re.compile(r"</?s>|<unk|<pad>|<mask>")  # XLM-R's markers, which Qt reads as tags


def _read_as_html(label: QtWidgets.QLabel) -> bool:
    fmt = label.textFormat()
    if fmt == QtCore.Qt.TextFormat.RichText:
        return True
    return fmt == QtCore.Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(label.text())


def _scrolls(w: QtWidgets.QWidget) -> bool:
    """Whether w is the content of a scroll area's viewport (it may be larger: it scrolls)."""
    parent = w.parentWidget()
    area = parent.parentWidget() if parent is not None else None
    return isinstance(area, QtWidgets.QAbstractScrollArea) and area.viewport() is parent


def figure_problems(window) -> list[str]:
    """In every figure on screen: texts inside the figure, no two overlapping."""
    problems = []
    for canvas in shown_widgets(window):
        if not isinstance(canvas, MatrixCanvas):
            continue
        area = QtCore.QRectF(canvas.rect()).adjusted(-1, -1, 1, 1)
        places = text_places(canvas.current_layout(), canvas.figure, canvas.style_)
        for p in places:
            if not area.contains(p.rect):
                problems.append(
                    f"{p.kind} {p.text!r} at {p.rect.getRect()} leaves its figure {area.getRect()}"
                )
        for i, a in enumerate(places):
            for b in places[i + 1 :]:
                overlap = a.rect.intersected(b.rect)
                if overlap.width() > 0.5 and overlap.height() > 0.5:
                    problems.append(f"{a.kind} {a.text!r} overlaps {b.kind} {b.text!r}")
    for chips in shown_widgets(window):
        if not isinstance(chips, TokenChips):
            continue
        laid = chips.chips()
        for c in laid:
            if c.rect.right() > chips.width() or c.rect.left() < 0:
                problems.append(f"chip {c.token!r} leaves the chips' width")
        for i, a in enumerate(laid):
            for b in laid[i + 1 :]:
                if a.rect.intersects(b.rect):
                    problems.append(f"chips {a.token!r} and {b.token!r} overlap")
    return problems


def title_problems(window) -> list[str]:
    """Every panel title of every figure on screen whole in the lines its panel gives it
    (laid out in the scroll area too): an elided formula ("weights = one-hot(sample(softmax(mas…")
    says nothing, and a class cannot read a tooltip."""
    problems = []
    for canvas in shown_widgets(window):
        if not isinstance(canvas, MatrixCanvas):
            continue
        for box in canvas.current_layout().boxes:
            if not box.title_text or box.title.height() <= 0:
                continue
            font = _title_font(canvas.style_, canvas.figure.marks.get(box.index))
            lines = [text for _, text, _ in title_place(box, box.title_text, font)]
            if "".join(lines).replace(" ", "") != box.title_text.replace(" ", "").replace("\n", ""):
                problems.append(f"title {box.title_text!r} shown as {lines} in {box.title.width():.0f} px")
    return problems


def all_problems(window) -> list[str]:
    return font_problems(window) + clip_problems(window) + figure_problems(window)
