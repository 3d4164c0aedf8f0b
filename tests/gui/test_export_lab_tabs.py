"""Ctrl+E from a lab (trial 6 T14): the dialog listed no entry for Why attention or Global vs
local, and opened on "All stages of the current trace (data)" — the Pipeline's trace — whatever
tab was on screen. Now both tabs export what they show (Why attention's accuracy against length
whether or not anything was trained here), and the dialog opens on the figure of the tab on
screen (the Pipeline still on its data)."""

from __future__ import annotations

import numpy as np
from PySide6 import QtGui, QtWidgets

from explorer.gui.exporting import ExportDialog

from .helpers import WAIT_MS
from .test_local_window_tab import wait_compared
from .test_why_attention import wait_shown


def dialog_of(qtbot, window) -> ExportDialog:
    dialog = ExportDialog(window.exporter)
    qtbot.addWidget(dialog)
    return dialog


def exported(qtbot, window, tmp_path, monkeypatch, names):
    warnings = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "warning", lambda *a, **k: warnings.append(a[2]))
    dialog = dialog_of(qtbot, window)
    for name in names:
        dialog.what.setCurrentIndex(dialog.what.findData(name))
        for fmt in ("png", "svg"):
            dialog.format.setCurrentIndex(dialog.format.findData(fmt))
            path = tmp_path / f"{name.replace(':', '-')}.{fmt}"
            dialog.path.setText(str(path))
            dialog.export_button.click()
            assert not warnings, (name, warnings)
            assert path.stat().st_size > 1000, (name, fmt)
        image = QtGui.QImage(str(tmp_path / f"{name.replace(':', '-')}.png"))
        assert image.width() > 400
        pixels = np.array(
            [image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)]
        )
        assert len(set(pixels.tolist())) > 8, name  # something drawn, not a blank page


def test_why_attention_exports_its_maps_and_its_length_curve_and_opens_on_them(
    qtbot, window, tmp_path, monkeypatch
):
    window.state.set_tab("why_attention")
    wait_shown(qtbot, window.view("why_attention"))
    dialog = dialog_of(qtbot, window)
    names = [dialog.what.itemData(i) for i in range(dialog.what.count())]
    assert {"why_attention:maps", "why_attention:length"} <= set(names)
    assert dialog.what.currentData() == "why_attention:maps"  # the tab on screen, not the trace's data
    exported(qtbot, window, tmp_path, monkeypatch, ["why_attention:maps", "why_attention:length"])


def test_global_vs_local_exports_its_windows_and_opens_on_them(qtbot, window, tmp_path, monkeypatch):
    window.state.set_tab("local")
    wait_compared(qtbot, window.view("local"))
    dialog = dialog_of(qtbot, window)
    assert dialog.what.currentData() == "local:windows"
    exported(qtbot, window, tmp_path, monkeypatch, ["local:windows"])


def test_the_dialog_opens_on_the_tab_on_screen(qtbot, window):
    assert dialog_of(qtbot, window).what.currentData() == "data"  # the Pipeline: its trace
    window.state.set_tab("translation")
    view = window.view("translation")
    qtbot.waitUntil(lambda: view.trace is not None and not window.worker.busy(), timeout=WAIT_MS)
    assert dialog_of(qtbot, window).what.currentData() == "translation:alignment"
    window.state.set_tab("heads")
    QtWidgets.QApplication.processEvents()
    assert dialog_of(qtbot, window).what.currentData() == "heads"
