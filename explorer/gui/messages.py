"""What the window says when something goes wrong or needs a word: messages and banner looks."""

from __future__ import annotations

from explorer.core.config import ConfigError
from explorer.gui.i18n import translate

ERROR_STYLE = "background:#fde2e1; color:#7a1010; border:1px solid #e0a0a0; padding:4px;"
INFO_STYLE = "background:#e3effc; color:#0b3d6e; border:1px solid #a8c8ea; padding:4px;"
NOTICE_STYLE = "background:#fff6d6; color:#5a4500; border:1px solid #e8d48a; padding:3px;"


def error_message(exc: BaseException) -> str:
    """One line for the user about an error of the worker (never a traceback)."""
    from explorer.models.loader import ModelError

    if isinstance(exc, ConfigError):
        return translate("Messages", "Cannot compute this: {0}").format(exc)
    if isinstance(exc, ModelError):
        return translate("Messages", "The model could not be used: {0}").format(exc)
    return translate("Messages", "Unexpected error ({0}): {1}").format(type(exc).__name__, exc)
