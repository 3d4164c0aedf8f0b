"""A rotary decoder's rotation, seen: zoomed into Q or K, the Pipeline shows beside them the
angle p·ω_i every position turns each pair of dimensions by, equal to transformers' own rotary
embedding (the angle of its cos and sin); a model without rotation never shows the panel."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer.core.config import AttentionConfig

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
    assert panel.title.startswith("angle p·ω_i (radians, mod 2π),  ω_i = 500^(−2i/d_k)")

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


def test_a_model_without_rotation_keeps_q_alone(qtbot, make_window, tiny_decoders, tmp_path):
    folder = tiny_decoders.build(tmp_path / "tiny-gpt2", "gpt2")
    window = make_window(AttentionConfig(sentence="the animal did not cross", model_dir=str(folder)))
    wait_model(qtbot, window, "tiny-gpt2")
    window.state.set_stage_zoom(("Q",))
    qtbot.waitUntil(lambda: shown(window) == ["Q"])
