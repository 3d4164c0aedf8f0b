"""The file dialog both vision tabs open a picture with: in the folder the window's dialogs last
used (its preferences), which it then remembers."""

from __future__ import annotations

from PySide6 import QtWidgets

from explorer.gui.i18n import translate
from explorer.gui.preferences import default_folder


def ask_for_picture(widget: QtWidgets.QWidget, title: str) -> str:
    """The picture file the user chose, or "" (cancelled)."""
    prefs = getattr(widget.window(), "prefs", None)  # the window's: where its dialogs last opened
    path, _ = QtWidgets.QFileDialog.getOpenFileName(
        widget,
        title,
        prefs.dialog_folder() if prefs is not None else default_folder(),
        translate("VisionView", "Pictures (*.png *.jpg *.jpeg *.bmp *.gif);;All files (*)"),
    )
    if prefs is not None:
        prefs.remember_dialog(path)
    return path
