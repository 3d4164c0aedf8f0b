"""What the window says when something goes wrong or needs a word: messages, their looks, and
the one-line strip above the tabs that shows them.

The strip keeps its height whether it has something to say or not: a message that comes
and goes while the teacher types never moves the tabs under the mouse. A long message is
cut to the line ("…"); the whole text is in its tooltip, and a click shows it.
"""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

from explorer.core.config import ConfigError
from explorer.finite import NotFinite
from explorer.gui.core_text import error_text, translated
from explorer.gui.elided import ElidedLabel
from explorer.gui.i18n import translate

ERROR_STYLE = "background:#fde2e1; color:#7a1010; border:1px solid #e0a0a0; padding:2px 4px;"
INFO_STYLE = "background:#e3effc; color:#0b3d6e; border:1px solid #a8c8ea; padding:2px 4px;"
NOTICE_STYLE = "background:#fff6d6; color:#5a4500; border:1px solid #e8d48a; padding:2px 4px;"
STRIP_PAD_PX = 8  # the strip's height beyond one line of text: padding and border


def error_message(exc: BaseException) -> str:
    """One line for the user about an error of the worker (never a traceback), in the
    interface language (core errors carry a message key: explorer.gui.core_text)."""
    from explorer.models.loader import ModelError

    if isinstance(exc, (ConfigError, NotFinite)):
        return translate("Messages", "Cannot compute this: {0}").format(error_text(exc))
    if isinstance(exc, ModelError):
        return translate("Messages", "The model could not be used: {0}").format(error_text(exc))
    return translate("Messages", "Unexpected error ({0}): {1}").format(type(exc).__name__, error_text(exc))


class MessageStrip(QtWidgets.QWidget):
    """The banner (errors, progress: first) and the notices of the result, in a row of one
    fixed height (the text tabs keep its room: a banner never moves the tabs)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.banner = ElidedLabel()
        self.notice = ElidedLabel()
        self.notice.setStyleSheet(NOTICE_STYLE)
        for label in (self.banner, self.notice):
            label.setVisible(False)
            layout.addWidget(label, 1)
        self.action = QtWidgets.QPushButton()  # what a notice offers to do (set_action)
        self.action.setVisible(False)
        layout.addWidget(self.action)
        self._on_action = None
        self.error = False  # the banner shows an error (a lab's tab shows the strip only then)
        self.action.clicked.connect(lambda: self._on_action and self._on_action())
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Fixed)
        self.fit_height()

    def fit_height(self, font: QtGui.QFont | None = None) -> None:
        """One line of the window's text, whatever is shown (call when the text size changes)."""
        metrics = QtGui.QFontMetrics(font or self.font())
        self.setFixedHeight(metrics.height() + STRIP_PAD_PX)

    def show_banner(self, text: str, style: str) -> None:
        self.error = style == ERROR_STYLE
        self.banner.setStyleSheet(style)
        self.banner.setText(text)
        self.banner.setVisible(True)
        self.notice.setVisible(False)  # the banner is what needs reading now
        self.action.setVisible(False)

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
        return not self.banner.isHidden() or bool(self.notice.text())

    def _show_notice(self) -> None:
        shown = bool(self.notice.text()) and not self.banner.isVisible()
        self.notice.setVisible(shown)
        self.action.setVisible(shown and self._on_action is not None)


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
