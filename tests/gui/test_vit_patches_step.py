"""Lesson step "Patches as tokens" shows its own stage (trial 9, finding 7: it showed step 44's
map of one patch's attention): the picture cut into its numbered patch grid and z₀, one row per
token, in the maps' place; step 44 shows the maps again. At 1024×768 with the lesson column open,
in both languages: nothing scrolls and the figure takes ≥ 40 % of the page's height."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.appstate.lesson import STEPS

from .projector_check import MIN_PX, font_problems
from .test_classroom_walk import settle
from .test_vit_projector import MIN_SHARE, presenting, scrolling
from .test_vit_tab import wait_result

PATCHES = next(k for k, s in enumerate(STEPS) if s.id == "vit.patches")
PATCH = next(k for k, s in enumerate(STEPS) if s.id == "vit.patch")


def shown_at(qtbot, w, step):
    view = w.view("vit")
    w.state.set_lesson_step(step)
    wait_result(qtbot, view)
    settle(qtbot, w)
    return view, w.grab().toImage()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_patches_step_shows_the_patches_as_tokens(qtbot, make_window, language):
    w = presenting(qtbot, make_window, language, (1024, 768))
    view, patches_image = shown_at(qtbot, w, PATCHES)
    tokens = view.tokens_view
    assert tokens.isVisible() and not view.vit_map.isVisible() and not view.cnn_map.isVisible()
    assert tokens.patch_names() == [str(k + 1) for k in range(64)]  # every patch named on the grid
    assert ("CLS" in dict(tokens.row_labels()).values()) and tokens.tokens.shape == (65, 32)
    np.testing.assert_array_equal(tokens.tokens, view.result.vit.arrays["tokens"])
    square, pixels, rows = tokens.layout_rects()
    assert square.right() < pixels.left() < rows.left() and rows.right() <= tokens.width()
    assert tokens.height() >= MIN_SHARE * view.pages.height(), (tokens.height(), view.pages.height())
    assert square.height() >= 0.3 * view.pages.height()
    assert tokens.text_px() >= MIN_PX and not font_problems(w)
    assert not scrolling(view)
    view, patch_image = shown_at(qtbot, w, PATCH)
    assert view.vit_map.isVisible() and view.cnn_map.isVisible() and not view.tokens_view.isVisible()
    assert not scrolling(view)
    assert patches_image != patch_image
    view.lab.stop_training()


def test_the_maps_come_back_when_the_lesson_closes_on_the_patches_step(qtbot, make_window):
    w = presenting(qtbot, make_window, "en", (1024, 768))
    view, _ = shown_at(qtbot, w, PATCHES)
    assert view.tokens_view.isVisible()
    w.state.show_lesson(False)  # the lab explored by hand: its own maps and choosers
    settle(qtbot, w)
    assert view.vit_map.isVisible() and view.map.isVisible() and not view.tokens_view.isVisible()
    view.lab.stop_training()
