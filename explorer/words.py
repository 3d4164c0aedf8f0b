"""The marker of window texts kept in data: ``QT_TRANSLATE_NOOP("Context", "text")`` gives the
text back unchanged and shows ``pyside6-lupdate`` a text to translate; the window translates
it when it shows it (``translate("Context", text)``).

Qt-free and dependency-free: the app state's lesson, presets and board, and the tab registry
(read before Qt starts) mark their texts with it. Messages from Qt-free code are keyed
templates instead (``explorer.messages``).
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate looks for
    return text
