"""Qt's own texts that its Chinese catalogue (Qt 6.11's qtbase_zh_CN) lacks, translated in ours.

Qt's file dialog labels changed their source texts ("&Look in:", "Files of &type:") and its
catalogue still translates the old ones, so a Chinese file dialog showed two English labels.
Listed here for pyside6-lupdate, under Qt's own context; our catalogue answers when Qt's has
nothing (explorer.gui.i18n installs both).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

QT_TEXTS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)
