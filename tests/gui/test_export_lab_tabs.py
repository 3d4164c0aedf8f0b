"""Ctrl+E from a lab (trial 6 T14): the dialog listed no entry for Why attention or Global vs
local, and opened on "All stages of the current trace (data)" — the Pipeline's trace — whatever
tab was on screen. Now both tabs export what they show (Why attention's accuracy against length
whether or not anything was trained here), and the dialog opens on the figure of the tab on
screen (the Pipeline still on its data)."""

from __future__ import annotations

from types import SimpleNamespace

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


# Trial 8 F16: the preset followed the tab, never its page (the LM's training page offered every
# head's attention, Vision's six pages the picture). The page on screen -> the dialog's preset;
# a page with no figure yet (Generate before a token is written; a training page before a run)
# -> the window.
LAB_PAGES = {
    "lm": {"train": "lm:training", "heads": "lm:heads", "stages": "lm:stages", "generate": "window"},
    "vision": {
        "picture": "vision",
        "channel": "vision:channel",
        "spatial": "vision:spatial",
        "residual": "vision:residual",
        "compare": "vision:compare",
        "train": "vision:training",
    },
    "vit": {
        "looks": "vit:looks",
        "heads": "vit:heads",
        "data": "vit:data",
        "train": "vit:training",
        "photo": "vit:photo",
    },
}
TRAINING = {"lm:training", "vision:training", "vit:training", "local:training"}


def assert_preset(qtbot, window, lab, name: str, where) -> None:
    """The dialog opens on ``name``; a training page's curves once its run took a step (none
    before: the window), checked both ways (a stand-in run: the preset reads only its losses)."""
    if name not in TRAINING:
        assert dialog_of(qtbot, window).what.currentData() == name, where
        return
    run = lab.run
    try:
        lab.run = None
        assert dialog_of(qtbot, window).what.currentData() == "window", where
        lab.run = SimpleNamespace(losses=[1.0])
        assert dialog_of(qtbot, window).what.currentData() == name, where
    finally:
        lab.run = run


def test_the_dialog_opens_on_the_figure_of_the_lab_page_on_screen(qtbot, window):
    for tab, pages in LAB_PAGES.items():
        window.state.set_tab(tab)
        QtWidgets.QApplication.processEvents()
        lab = window.state.vision if tab == "vision" else window.state.labs[tab]
        for page, name in pages.items():
            lab.set_page(page)
            QtWidgets.QApplication.processEvents()
            view = window.view(tab)
            assert view.pages.currentIndex() == view.pages.indexOf(view.page_widgets[page])
            if name == "vit:photo":
                qtbot.waitUntil(lambda v=view: v.photo is not None, timeout=WAIT_MS)
            assert_preset(qtbot, window, lab, name, (tab, page))
    for tab, figures in {
        "why_attention": ("why_attention:maps", "why_attention:length"),
        "local": ("local:windows", "local:training"),
    }.items():
        window.state.set_tab(tab)
        QtWidgets.QApplication.processEvents()
        for index, name in enumerate(figures):
            window.view(tab).pages.setCurrentIndex(index)
            QtWidgets.QApplication.processEvents()
            assert_preset(qtbot, window, window.state.labs[tab], name, (tab, index))


def test_the_pipeline_dialog_opens_on_the_stage_shown(qtbot, window):
    """Trial 8 F11: "All stages (data)" + CSV whatever stage "Show:" showed."""
    for zoom, name in (
        (("weights",), "pipeline:weights"),
        (("Q", "K", "V"), "pipeline:Q"),  # a lesson step's several stages: the first
        (("tokens",), "window"),  # the token chips: no figure of their own
        (None, "data"),  # every stage: the trace's data, as before
    ):
        window.state.set_stage_zoom(zoom)
        QtWidgets.QApplication.processEvents()
        dialog = dialog_of(qtbot, window)
        assert dialog.what.currentData() == name, zoom
        assert dialog.format.currentData() == ("csv" if name == "data" else "png"), zoom


def test_the_translation_dialog_opens_on_the_alignment_as_drawn(qtbot, window):
    window.state.set_tab("translation")
    view = window.view("translation")
    qtbot.waitUntil(lambda: view.trace is not None and not window.worker.busy(), timeout=WAIT_MS)
    window.state.translation.set_view("lines")
    QtWidgets.QApplication.processEvents()
    assert dialog_of(qtbot, window).what.currentData() == "translation:lines"


def test_every_stage_exports_at_its_own_size_in_presentation_mode(qtbot, make_window, tmp_path):
    """Trial 8 F10: "every stage of the head" took the canvas's size, in presentation mode at
    1024 × 768 twelve maps of 16 × 75 px, their titles elided; now the export's own size."""
    from PySide6 import QtCore

    from explorer.core.config import AttentionConfig
    from explorer.gui.heatmap.figure import layout_figure

    from .helpers import ANIMAL

    window = make_window(AttentionConfig(sentence=ANIMAL), size=(1024, 768))
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.set_stage_zoom(None)  # every stage on screen, at the projector's type
    QtWidgets.QApplication.processEvents()
    for size in ((1024, 768), (1400, 360)):  # presented, then a window stretched wide and low
        window.resize(*size)
        QtWidgets.QApplication.processEvents()
        figure, at = window.exporter.sources()["pipeline"].make()
        boxes = layout_figure(
            QtCore.QRectF(0, 0, at.width(), at.height()), figure, window.context.style()
        ).boxes
        assert len(boxes) == 12
        assert min(b.plot.width() for b in boxes) >= 200 and min(b.plot.height() for b in boxes) >= 150, size
        path = tmp_path / "pipeline.png"
        assert window.exporter.export_panel("pipeline", path) is None
        image = QtGui.QImage(str(path))
        assert image.width() >= 3000 and image.height() >= 1700, size  # 1600 × 900 at twice the scale
    window.classroom.set_presentation(False)


def test_why_attention_and_global_vs_local_exports_say_what_they_show(qtbot, window, tmp_path):
    """Trial 8 F12/F13: no caption, where the Pipeline's say model, layer, head and text."""
    window.state.set_tab("why_attention")
    wait_shown(qtbot, window.view("why_attention"))
    window.state.set_tab("local")
    wait_compared(qtbot, window.view("local"))
    why, local = window.state.labs["why_attention"].settings, window.state.labs["local"].settings
    for name, words in (
        (
            "why_attention:maps",
            (
                "English → French · shipped weights",
                f"“{why.sentence}”",
                "of the words look at their source word",
            ),
        ),
        ("why_attention:length", ("English → French · per-word accuracy · shipped",)),
        ("local:windows", ("each letter twice (monotonic)", f"“{local.source}”", "global: a a b b")),
    ):
        path = tmp_path / f"{name.replace(':', '-')}.svg"
        assert window.exporter.export_panel(name, path) is None
        text = path.read_text(encoding="utf-8")
        for word in words:
            assert word in text, (name, word)


def test_a_translation_caption_names_its_weights_in_the_interface_s_language(window):
    """Trial 8 F24: a Chinese caption said "shipped bahdanau-additive" (the command's label)."""
    from explorer.gui.labs.translation.export import caption
    from explorer.seq2seq.translate import translate

    trace = translate("9 mai 2018", "bahdanau", "additive")
    assert trace.checkpoint == "shipped bahdanau-additive"
    window.state.set_language("zh_CN")
    try:
        said = caption(trace)
        assert "随附的检查点" in said and "shipped" not in said, said
        trace.checkpoint = "training step 40"
        assert "训练第 40 步" in caption(trace)
    finally:
        window.state.set_language("en")
    assert "the shipped checkpoint" in caption(translate("9 mai 2018", "bahdanau", "additive"))
