"""What the window says when something goes wrong or needs a word: messages, their looks, and
the strip that shows them, floating over the stage.

The strip takes no row of the window: a message that comes and goes while the teacher types
never moves the tabs under the mouse, and no empty row is kept for one that might come. An
error floats over the top of the stage, where it is seen; a note of the result over its
bottom edge, where the panels' titles are not (and not at all while the lesson column shows
the notes, unless it offers an action). A long message wraps (a path breaks at its
separators, a sentence between words or Chinese characters), whole; its × hides it until
the next message.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.core.config import ConfigError
from explorer.finite import NotFinite
from explorer.gui.core_text import error_text, translated
from explorer.gui.i18n import translate
from explorer.messages import MessageError

ERROR_STYLE = "background:#fde2e1; color:#7a1010; border:1px solid #e0a0a0; padding:2px 4px;"
INFO_STYLE = "background:#e3effc; color:#0b3d6e; border:1px solid #a8c8ea; padding:2px 4px;"
NOTICE_STYLE = "background:#fff6d6; color:#5a4500; border:1px solid #e8d48a; padding:2px 4px;"


def error_message(exc: BaseException) -> str:
    """One line for the user about an error of the worker (never a traceback), in the
    interface language (core errors carry a message key: explorer.gui.core_text)."""
    from explorer.models.loader import ModelError

    if isinstance(exc, (ConfigError, NotFinite)):
        return translate("Messages", "Cannot compute this: {0}").format(error_text(exc))
    if isinstance(exc, ModelError):
        return translate("Messages", "The model could not be used: {0}").format(error_text(exc))
    if isinstance(exc, MessageError):  # a lab's own word on its input (LMError, ...): expected, not a bug
        return translate("Messages", "Cannot compute this: {0}").format(error_text(exc))
    return translate("Messages", "Unexpected error ({0}): {1}").format(type(exc).__name__, error_text(exc))


# Where a long word may break: after a path's separators and a name's joints, so a file's path
# wraps instead of running off the strip (a zero-width space shows nothing).
_BREAK_AFTER = str.maketrans({c: c + "\u200b" for c in "/\\_.,;:=-"})
STRIP_MARGIN_PX = 6  # between the strip and the stage's edges


class WrappedLabel(QtWidgets.QLabel):
    """A label that wraps to its width and shows the whole text: ``text()`` is the text as
    given, without the break marks it is shown with."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._full = ""
        self.setWordWrap(True)
        self.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)

    def text(self) -> str:
        return self._full

    def setText(self, text: str) -> None:
        self._full = text or ""
        super().setText(self._full.translate(_BREAK_AFTER))


class MessageStrip(QtWidgets.QFrame):
    """The banner (errors, progress: first) and the notices of the result, over the stage
    (float_over): the height its wrapped text needs, shown only while it has something to say."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("messageStrip")
        self.setAutoFillBackground(True)
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.banner = WrappedLabel()
        self.notice = WrappedLabel()
        self.notice.setStyleSheet(NOTICE_STYLE)
        for label in (self.banner, self.notice):
            label.setVisible(False)
            layout.addWidget(label, 1)
        self.action = QtWidgets.QPushButton()  # what a notice offers to do (set_action)
        self.action.setVisible(False)
        layout.addWidget(self.action, 0, QtCore.Qt.AlignmentFlag.AlignTop)
        self.close_button = QtWidgets.QToolButton()
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        self.close_button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # the keys stay with the stage
        self.close_button.clicked.connect(self.dismiss)
        layout.addWidget(self.close_button, 0, QtCore.Qt.AlignmentFlag.AlignTop)
        self._on_action = None
        self._host: QtWidgets.QWidget | None = None
        self._top = lambda: 0
        self._dismissed: str | None = None  # the message the × hid (a new one shows again)
        self.allowed = True  # the window's say: False on a tab that shows errors only
        self.notes_elsewhere = False  # the lesson column shows the notes: no second copy here
        self.error = False  # the banner shows an error (a lab's tab shows the strip only then)
        self.action.clicked.connect(lambda: self._on_action and self._on_action())
        self.setVisible(False)
        self.retranslate()

    def retranslate(self) -> None:
        self.close_button.setToolTip(translate("Messages", "Hide this message"))

    def float_over(self, host: QtWidgets.QWidget, top=lambda: 0) -> None:
        """Float over ``host`` from ``top()`` px down (e.g. under a tab bar), across its width."""
        self._host, self._top = host, top
        self.setParent(host)
        host.installEventFilter(self)
        self.update_shown()

    def eventFilter(self, obj, event):
        if obj is self._host and event.type() in (
            QtCore.QEvent.Type.Resize,
            QtCore.QEvent.Type.LayoutRequest,
        ):
            self.place()
        return False

    def place(self) -> None:
        """Across the host, as tall as the wrapped text needs (at most half the host)."""
        if self._host is None or not self.isVisible():
            return
        width = max(50, self._host.width() - 2 * STRIP_MARGIN_PX)
        layout = self.layout()
        layout.activate()
        height = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else -1
        if height <= 0:
            height = self.sizeHint().height()
        height = min(height, max(40, self._host.height() // 2))
        if self.banner.isHidden():  # a note: over the bottom edge, off the panels' titles
            y = self._host.height() - height - STRIP_MARGIN_PX // 2
        else:
            y = self._top() + STRIP_MARGIN_PX // 2
        self.setGeometry(STRIP_MARGIN_PX, y, width, height)
        self.raise_()

    def fit_height(self, font: QtGui.QFont | None = None) -> None:
        """The text size changed: the wrapped text needs another height."""
        QtCore.QTimer.singleShot(0, self.place)

    def message(self) -> str:
        """What the strip says now (the banner first), '' for nothing."""
        if not self.banner.isHidden():
            return self.banner.text()
        return self.notice.text()

    def show_banner(self, text: str, style: str) -> None:
        self.error = style == ERROR_STYLE
        self.banner.setStyleSheet(style)
        self.banner.setText(text)
        self.banner.setVisible(True)
        self.notice.setVisible(False)  # the banner is what needs reading now
        self.action.setVisible(False)
        self.update_shown()

    def hide_banner(self) -> None:
        self.error = False
        self.banner.setVisible(False)
        self._show_notice()

    def set_notice(self, text: str) -> None:
        self.notice.setText(text)
        self._show_notice()

    def set_action(self, text: str | None, on_click=None) -> None:
        """A button beside the notice (None: none), e.g. to open the tab a note points to."""
        self._on_action = on_click if text else None
        self.action.setText(text or "")
        self._show_notice()

    def has_message(self) -> bool:
        """A banner or a notice to read."""
        return bool(self.message())

    def dismiss(self) -> None:
        """The ×: hide this message; the next one shows."""
        self._dismissed = self.message()
        self.update_shown()

    def update_shown(self) -> None:
        message = self.message()
        if message != self._dismissed:
            self._dismissed = None
        repeated = self.banner.isHidden() and self.notes_elsewhere and self._on_action is None
        shown = bool(message) and self.allowed and self._dismissed is None and not repeated
        if shown != self.isVisible():
            self.setVisible(shown)
        self.place()

    def _show_notice(self) -> None:
        shown = bool(self.notice.text()) and self.banner.isHidden()
        self.notice.setVisible(shown)
        self.action.setVisible(shown and self._on_action is not None)
        self.update_shown()


# -- notices and teaching notes --------------------------------------------------------------------
def notes_of(trace) -> list:
    """The result's notices and teaching notes (explorer.appstate.teaching), to be worded."""
    from explorer.appstate.teaching import notes_and_notices

    return notes_and_notices(trace)


def note_text(note) -> str:
    """A core notice (a Message) or a teaching note in the interface language."""
    from explorer.appstate.teaching import Note
    from explorer.gui.options import option_label

    if not isinstance(note, Note):
        return translated(note)
    p = dict(note.params)
    if "mask" in p:
        p["mask"] = option_label("mask", p["mask"])
    if "scoring" in p:
        p["scoring"] = option_label("scoring", p["scoring"])
    if note.key == "mask_after_context":
        text = translate(
            "TeachingNotes",
            "The {mask} mask acts in layer {layer} only: this model reads both ways, and its "
            "layers 0–{last} already mixed every token, later ones too, into X.",
        )
    elif note.key == "mask_untrained":
        text = translate(
            "TeachingNotes",
            "This model learned without a {mask} mask: the weights show its layer under a mask "
            "it was never trained with.",
        )
    elif note.key == "untrained_scoring":
        text = translate(
            "TeachingNotes",
            "{scoring} scoring uses seeded, untrained parameters here: the pretrained model never "
            "learned them, so the weights show the formula, not the model. The Translation tab "
            "has a model trained with it.",
        )
    else:
        return note.key
    return text.format(**p)
