"""The computation's notices and errors in the interface language.

The core speaks English through ``explorer.messages.Message`` (a key, params, and the English
text). Each template is written once, in ``explorer/messages.py`` or a lab's own ``messages.py``,
as a literal ``pyside6-lupdate`` extracts (context ``CoreMessages``, the key as its
disambiguation); ``translated`` looks it up in the installed catalogue and fills in the params.

What the window calls:

* ``translated(trace.notices[i])`` / ``translated(source_info.problem)`` / a device reason:
  any Message (or plain text, which comes back as it is);
* ``error_text(exc)``: the text of a ConfigError, ModelError, CatalogueError or any other
  exception, translated when it carries a Message.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.messages import CONTEXT, TEMPLATES, Message, message_of


def template(key: str) -> str:
    """The template of ``key`` in the interface language (English when not translated)."""
    return QCoreApplication.translate(CONTEXT, TEMPLATES[key], key)


def translated(message: str | None) -> str:
    """A Message in the interface language, params filled in (numbers as Python writes them,
    whatever the locale); plain text comes back unchanged, None as ""."""
    if message is None:
        return ""
    if isinstance(message, Message):
        return message.render(template)
    return str(message)


def error_text(exc: BaseException) -> str:
    """One line about ``exc`` in the interface language (its Message when it carries one)."""
    return translated(message_of(exc))
