"""File → Export an interactive page: the window's trace, every layer computed on the worker,
written as one HTML file in the window's language, opening on the selected head."""

from __future__ import annotations

import json
import re

from explorer.core.config import AttentionConfig
from tests.gui.helpers import ANIMAL, WAIT_MS


def page_data(path) -> dict:
    text = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="[^"]+">(.*?)</script>', text, re.S)[1])


def test_the_file_menu_writes_the_page_in_the_windows_language(make_window, qtbot, tmp_path):
    window = make_window(AttentionConfig(sentence=ANIMAL, layer=4))
    assert window.exporter.export_page_action in window.file_menu.actions()
    window.state.select_head(11)
    window.state.set_language("zh_CN")
    assert window.exporter.export_page_action.text() == "导出交互网页（HTML）…"
    out = tmp_path / "animal.html"
    assert window.exporter.export_page(out) is None
    qtbot.waitUntil(lambda: out.exists() and "animal.html" in window.exporter.message, timeout=WAIT_MS)
    data = page_data(out)
    assert data["language"] == "zh_CN" and data["open"] == {"layer": 4, "head": 11, "query": None}
    (attention,) = data["attentions"]
    assert attention["layers"] == list(range(6)) and attention["shape"] == [6, 12, 15, 15]
    assert attention["tokens_key"] == window.prepared.trace.tokens_key


def test_a_failed_page_is_a_message_not_a_crash(window, qtbot, tmp_path):
    window.exporter.export_page(tmp_path / "page.txt")
    qtbot.waitUntil(lambda: "must end in .html or .htm" in window.exporter.message, timeout=WAIT_MS)
    assert list(tmp_path.iterdir()) == []


def test_the_export_dialog_offers_the_page(window, qtbot, tmp_path):
    from explorer.gui.exporting import ExportDialog

    dialog = ExportDialog(window.exporter)
    qtbot.addWidget(dialog)
    dialog.what.setCurrentIndex(dialog.what.findData("page"))
    assert [dialog.format.itemData(i) for i in range(dialog.format.count())] == ["html"]
    assert not dialog.copy_button.isEnabled()
    dialog.path.setText(str(tmp_path / "dialog.html"))
    dialog._export()
    qtbot.waitUntil(lambda: (tmp_path / "dialog.html").exists(), timeout=WAIT_MS)


def test_a_name_left_from_a_figure_becomes_an_html_file(window, qtbot, tmp_path):
    """The path field keeps what the last export wrote; a page is never written as figure.png."""
    from explorer.gui.exporting import ExportDialog

    dialog = ExportDialog(window.exporter)
    qtbot.addWidget(dialog)
    dialog.what.setCurrentIndex(dialog.what.findData("page"))
    dialog.path.setText(str(tmp_path / "figure.png"))
    dialog._export()
    qtbot.waitUntil(lambda: (tmp_path / "figure.html").exists(), timeout=WAIT_MS)
    assert not (tmp_path / "figure.png").exists()
    assert dialog.path.text().endswith("figure.html")


def test_a_file_name_for_the_data_folder_writes_nothing_and_says_so(window, qtbot, tmp_path, monkeypatch):
    """Trial 8 F11: x.png with CSV made a folder "x.png/" of 90 CSV files, silently."""
    from PySide6 import QtWidgets

    from explorer.gui.exporting import ExportDialog

    warnings = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "warning", lambda *a, **k: warnings.append(a[2]))
    dialog = ExportDialog(window.exporter)
    qtbot.addWidget(dialog)
    dialog.what.setCurrentIndex(dialog.what.findData("data"))
    for fmt, name in (("csv", "x.png"), ("npy", "stages.json"), ("csv", "stages.csv")):
        dialog.format.setCurrentIndex(dialog.format.findData(fmt))
        dialog.path.setText(str(tmp_path / name))
        dialog._export()
        assert list(tmp_path.iterdir()) == [], (fmt, name)
        assert len(warnings) == 1 and name in warnings[0] and "Nothing was written" in warnings[0]
        warnings.clear()
    dialog.format.setCurrentIndex(dialog.format.findData("csv"))
    dialog.path.setText(str(tmp_path / "stages"))  # a folder's name: written
    dialog._export()
    assert not warnings and len(list((tmp_path / "stages").glob("*.csv"))) > 10
