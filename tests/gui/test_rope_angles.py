"""A rotary decoder's rotation, seen: zoomed into Q or K, the Pipeline shows beside them the
angle p·ω_i every position turns each pair of dimensions by, equal to transformers' own rotary
embedding (the angle of its cos and sin); a model without rotation never shows the panel."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer.core.config import AttentionConfig

from .helpers import WAIT_MS
from .test_model_picker import wait_model


@pytest.fixture(scope="module")
def tiny_decoders():
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    from tests.models import tiny_decoders

    return tiny_decoders


def shown(window) -> list[str]:
    pipeline = window.pipeline
    return [pipeline.canvas.panels[i].name for i in pipeline._visible()]


def test_zoomed_into_q_the_rotation_angles_are_transformers(qtbot, make_window, tiny_decoders, tmp_path):
    folder = tiny_decoders.build(tmp_path / "tiny-llama", "llama", rope_theta=500.0)
    window = make_window(
        AttentionConfig(sentence="the animal did not cross the street", model_dir=str(folder))
    )
    wait_model(qtbot, window, "tiny-llama")
    trace = window.trace
    assert "rope_angles" not in shown(window)  # the twelve stages, unzoomed
    window.state.set_stage_zoom(("Q",))
    qtbot.waitUntil(lambda: "rope_angles" in shown(window))
    assert shown(window) == ["Q", "rope_angles"]
    panel = window.pipeline.panel("rope_angles")
    assert panel.title == "p·ω_i mod 2π  [8×4]  ω_i = 500^(−2i/d_k)"

    ref = tiny_decoders.reference(folder)
    n = trace.n_query
    x = torch.zeros(1, n, ref.config.hidden_size)
    with torch.no_grad():
        cos, sin = ref.model.rotary_emb(x, torch.arange(n)[None])
    half = trace.d_k // 2
    expected = torch.atan2(sin[0, :, :half], cos[0, :, :half]).numpy()
    got = np.asarray(panel.data)
    assert got.shape == (n, half) and np.all(got >= -np.pi) and np.all(got < np.pi)
    difference = np.remainder(got - expected + np.pi, 2 * np.pi) - np.pi  # the same angle, mod 2π
    assert np.abs(difference).max() < 1e-4
    assert np.abs(got[:, -1]).max() < np.abs(got[:, 0]).max()  # the last pair turns slowest

    window.state.set_stage_zoom(("K",))
    qtbot.waitUntil(lambda: shown(window) == ["K", "rope_angles"])
    assert "pipeline:rope_angles" in window.exporter.labels()  # the model has them: offered
    assert not window.exporter.picture("pipeline:rope_angles").size.isEmpty()


def test_a_model_without_rotation_keeps_q_alone(qtbot, make_window, tiny_decoders, tmp_path):
    folder = tiny_decoders.build(tmp_path / "tiny-gpt2", "gpt2")
    window = make_window(AttentionConfig(sentence="the animal did not cross", model_dir=str(folder)))
    wait_model(qtbot, window, "tiny-gpt2")
    window.state.set_stage_zoom(("Q",))
    qtbot.waitUntil(lambda: shown(window) == ["Q"])


def cut_titles(window) -> list[str]:
    """The panel titles shown shortened ("…") as the canvas lays them out, in bold (the
    selected panel's): each must read whole in its two lines."""
    from PySide6 import QtGui

    from explorer.gui.heatmap.figure import title_place

    canvas = window.pipeline.canvas
    font = QtGui.QFont(canvas.style_.font)
    font.setBold(True)
    out = []
    for i in window.pipeline._visible():
        panel, box = canvas.panels[i], canvas.box(i)
        if box is None:
            continue
        lines = [text for _, text, _ in title_place(box, panel.title, font)]
        if any(text.endswith("…") for text in lines) or "".join(lines).replace(
            " ", ""
        ) != panel.title.replace(" ", ""):
            out.append(f"{panel.name}: {lines} of {panel.title!r}")
    return out


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_a_rotary_models_titles_read_whole_at_a_projector(
    qtbot, make_window, tiny_decoders, tmp_path, language
):
    """At 1024×768, presentation mode, the lesson column open: Q = RoPE(X·W_Q), the angle's
    formula and every stage's title whole in two lines (they were cut: "Q = RoPE(X·…",
    "…ω_i = 1…"), the base of the angles as large as a real model's."""
    from PySide6 import QtWidgets

    folder = tiny_decoders.build(tmp_path / "tiny-llama", "llama", rope_theta=1000000.0)
    window = make_window(
        AttentionConfig(sentence="the animal did not cross the street", model_dir=str(folder)),
        size=(1024, 768),
    )
    wait_model(qtbot, window, "tiny-llama")
    window.classroom.set_presentation(True, fullscreen=False)
    window.resize(1024, 768)
    window.state.show_lesson(True)
    window.state.set_language(language)
    for zoom in (("Q",), ("K",), ("V",), ("mask",), ("weights",)):
        window.state.set_stage_zoom(zoom)
        qtbot.waitUntil(lambda: not window.worker.busy())
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        if zoom in (("Q",), ("K",)):
            assert "rope_angles" in shown(window)
        assert not cut_titles(window), (language, zoom, cut_titles(window))


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_decoder_steps_titles_read_whole_at_a_projector(qtbot, make_window, language):
    """The lesson's decoder steps on the Pipeline (the bundled language model), at 1024×768
    with the lesson column open: every title whole in its two lines."""
    from PySide6 import QtWidgets

    from explorer.appstate.lesson import STEPS, track_range

    window = make_window(size=(1024, 768))
    window.classroom.set_presentation(True, fullscreen=False)
    window.resize(1024, 768)
    window.state.show_lesson(True)
    window.state.set_language(language)
    steps = [i for i in track_range("decoder") if STEPS[i].tab == "pipeline"]
    assert steps
    for i in steps:
        window.state.set_lesson_step(i)
        model_dir = window.state.config.model_dir
        qtbot.waitUntil(
            lambda folder=model_dir: (
                not window.worker.busy() and folder and window.trace.config.model_dir == folder
            ),
            timeout=WAIT_MS,
        )
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        assert not cut_titles(window), (language, STEPS[i].id, cut_titles(window))


def test_export_offers_the_rotation_only_for_a_rotary_model(qtbot, window):
    """MiniLM has no rotary positions: the export list (in Chinese too) has no rotation
    angles to offer; every other stage is there."""
    from explorer.gui.exporting import ExportDialog

    window.state.set_language("zh_CN")
    labels = window.exporter.labels()
    assert (
        "pipeline:rope_angles" not in labels and "pipeline:weights" in labels and "pipeline:Q_heads" in labels
    )
    dialog = ExportDialog(window.exporter)
    offered = [dialog.what.itemText(i) for i in range(dialog.what.count())]
    assert not any("RoPE" in text or "旋转" in text for text in offered), offered
    dialog.close()
