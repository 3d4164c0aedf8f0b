"""Export had no figure of the Language model's Generate page nor of a Why-attention run's
training curves, and the length curve's caption did not say how large the two models are: each
is exported now (PNG and SVG, something drawn), its caption saying what it shows."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.gui.labs.lm.writing import written_text
from explorer.gui.labs.translation.why_attention import CURVE_PAGE, model_names, shipped_run
from explorer.gui.views.registry import Tab

from .helpers import WAIT_MS
from .test_export_lab_tabs import dialog_of, exported
from .test_lm_tab import SMALL, wait_result, written_by_the_tab
from .test_why_attention import LIGHT, wait_shown


@pytest.fixture
def lm(qtbot, make_window):
    window = make_window(SMALL)
    window.state.set_tab(Tab.LM)
    view = window.view(Tab.LM)
    wait_result(qtbot, view, 2 * WAIT_MS)  # the first: the checkpoint read while the labs warm up
    yield window, view
    view.lab.stop_writing()


@pytest.fixture
def page(qtbot, window):
    window.state.set_tab("why_attention")
    view = window.view("why_attention")
    wait_shown(qtbot, view)
    yield window, view
    view.lab.cancel_training()


def caption_of(window, name: str, tmp_path) -> str:
    """The exported SVG's text (its caption is drawn as text)."""
    path = tmp_path / f"{name.replace(':', '-')}-caption.svg"
    assert window.exporter.export_panel(name, path) is None, window.exporter.message
    return path.read_text(encoding="utf-8")


def test_the_generate_page_exports_each_written_token_s_attention_with_the_text(
    qtbot, lm, tmp_path, monkeypatch
):
    window, view = lm
    view.lab.set_page("generate")
    QtWidgets.QApplication.processEvents()
    assert "lm:generate" not in window.exporter.sources()  # nothing written: nothing to draw
    assert dialog_of(qtbot, window).what.currentData() == "window"
    writing = written_by_the_tab(qtbot, view, 6)
    assert len(writing.steps) == 6
    assert dialog_of(qtbot, window).what.currentData() == "lm:generate"  # the page on screen
    exported(qtbot, window, tmp_path, monkeypatch, ["lm:generate"])
    figure = window.exporter.sources()["lm:generate"].make()[0].figure
    assert len(figure.panels) == len(view.writer.canvas.panels)  # every head, as the page draws them
    assert [p.data.shape for p in figure.panels] == [p.data.shape for p in view.writer.canvas.panels]
    text = caption_of(window, "lm:generate", tmp_path)
    for words in ("6 tokens written", "shipped checkpoint", "always the most likely token"):
        assert words in text, words
    assert written_text(writing.generation)[-6:] in text  # what was written, in the caption


def test_the_length_curve_s_caption_gives_both_models_sizes(qtbot, page, tmp_path):
    window, view = page
    text = caption_of(window, "why_attention:length", tmp_path)
    parameters = shipped_run().parameters
    for model, name in model_names().items():
        assert f"{name} ({parameters[model]:,} parameters)" in text, (model, parameters)


def test_a_run_here_exports_its_training_curves_with_a_caption(qtbot, page, tmp_path, monkeypatch):
    window, view = page
    lab = view.lab
    assert "why_attention:training" not in window.exporter.sources()  # no run: no curves
    lab.options = LIGHT
    view.pages.setCurrentIndex(CURVE_PAGE)
    view.training.steps.setValue(10)  # the fewest the page offers
    qtbot.mouseClick(view.training.train_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: lab.run is not None and not lab.run.running, timeout=120_000)
    qtbot.waitUntil(lambda: not view.training.poll_timer.isActive(), timeout=30_000)
    assert lab.run.status == "done" and len(lab.run.losses) == 10
    exported(qtbot, window, tmp_path, monkeypatch, ["why_attention:training"])
    picture = window.exporter.sources()["why_attention:training"].make()[0].figure
    loss, accuracy = picture.plots
    assert list(loss.series[0].ys) == lab.run.losses  # the run's own numbers
    run_points = [s for s in accuracy.series if not s.dashed]
    assert [list(s.ys) for s in run_points] == [
        lab.run.series(f"{m}/long/word_accuracy") for m in model_names()
    ]
    assert any(s.dashed and len(s.ys) for s in accuracy.series)  # the shipped run's beside
    text = caption_of(window, "why_attention:training", tmp_path)
    assert "English → French · trained here: step 10 of 10" in text
    parameters = shipped_run().parameters
    assert all(f"({parameters[m]:,} parameters)" in text for m in model_names())


def test_the_length_curve_exported_is_dashed_where_the_shipped_run_stands_in(qtbot, page, monkeypatch):
    """A run not evaluated yet: the page draws the shipped run's curves dashed under the run's
    title ("dashed: the shipped run"); the export drew them solid under the same words."""
    from explorer.gui.labs.translation import why_attention

    window, view = page
    figure = window.exporter.sources()["why_attention:length"].make()[0].figure
    assert not any(s.dashed for p in figure.plots for s in p.series)  # the shipped weights themselves
    monkeypatch.setattr(why_attention, "stands_in", lambda lab, run: True)
    figure = window.exporter.sources()["why_attention:length"].make()[0].figure
    drawn = [s for p in figure.plots for s in p.series if len(s.ys)]
    assert drawn and all(s.dashed for s in drawn)
