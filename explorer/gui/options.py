"""The configuration's choices as the window names them (the config keeps the English
identifiers, ``explorer.core.config``; the window shows these words in its language)."""

from __future__ import annotations

from PySide6 import QtCore

from explorer.gui.i18n import translate

OPTION_LABELS = {
    ("scoring", "dot"): QtCore.QT_TRANSLATE_NOOP("Options", "dot"),
    ("scoring", "cosine"): QtCore.QT_TRANSLATE_NOOP("Options", "cosine"),
    ("scoring", "additive"): QtCore.QT_TRANSLATE_NOOP("Options", "additive"),
    ("scoring", "general"): QtCore.QT_TRANSLATE_NOOP("Options", "general"),
    ("attention", "soft"): QtCore.QT_TRANSLATE_NOOP("Options", "soft"),
    ("attention", "hard"): QtCore.QT_TRANSLATE_NOOP("Options", "hard"),
    ("attention", "sample"): QtCore.QT_TRANSLATE_NOOP("Options", "sample"),
    ("mask", "model"): QtCore.QT_TRANSLATE_NOOP("Options", "the model's own"),
    ("mask", "none"): QtCore.QT_TRANSLATE_NOOP("Options", "none"),
    ("mask", "causal"): QtCore.QT_TRANSLATE_NOOP("Options", "causal"),
    ("mask", "window"): QtCore.QT_TRANSLATE_NOOP("Options", "window"),
    ("mask", "valid"): QtCore.QT_TRANSLATE_NOOP("Options", "valid length"),
    ("weights", "pretrained"): QtCore.QT_TRANSLATE_NOOP("Options", "pretrained"),
    ("weights", "random"): QtCore.QT_TRANSLATE_NOOP("Options", "random"),
    ("weights", "identity"): QtCore.QT_TRANSLATE_NOOP("Options", "identity"),
}


def option_label(kind: str, value: str) -> str:
    """An option's value in the interface language ("dot", "causal", …); a mask with a size
    keeps it ("window:2" -> "window 2")."""
    name, _, size = str(value).partition(":")
    text = OPTION_LABELS.get((kind, name))
    label = translate("Options", text) if text else name
    return f"{label} {size}" if size else label
