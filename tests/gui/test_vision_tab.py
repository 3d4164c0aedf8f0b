"""The Vision tab driven as a teacher would: pictures, models, clicks, compare, training, words, files.

Every number the tab shows is checked against a computation made here: run_model on the
shipped model (or on a training snapshot via model_at), and the papers' equations for one
channel's weight and one position's score, re-done in numpy and torch from the trace's maps
and weights.
"""

import importlib
import json
import re
import sys
import threading
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from PIL import Image
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS
from explorer.appstate.vision import PAGES, render_drawing
from explorer.core.config import AttentionConfig
from explorer.gui import app_setup
from explorer.gui.lab.warm import warming
from explorer.gui.labs.vision import figures as vf
from explorer.gui.messages import ERROR_STYLE
from explorer.gui.views.registry import TABS, Tab
from explorer.lab import warmed
from explorer.vision.checkpoints import load_shipped
from explorer.vision.images import load_image
from explorer.vision.shapes import CLASS_NAMES, generate
from explorer.vision.trace import run_model
from explorer.vision.train import model_at
from explorer.vision.worked import work_channel, work_position

from .helpers import WAIT_MS, click_cell, pixels
from .projector_check import all_problems

warm_up_module = importlib.import_module("explorer.lab.warm_up")  # explorer.lab.warm_up is its function
SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)


@pytest.fixture
def vision(qtbot, make_window):
    """A window on the Vision tab (opened by a click on its tab), its first picture drawn."""
    window = make_window(SMALL, size=(1400, 900))
    window.tabs.choose(Tab.VISION)
    view = window.view(Tab.VISION)
    wait_result(qtbot, view)
    yield window, view
    view.vision.stop_training()


def wait_result(qtbot, view, **expected):
    """Until the tab shows a result for its current settings (and, optionally, these)."""

    def done():
        assert view.result is not None and not view.context.worker.busy("vision")
        request = view.result.request
        assert request.picture == view.vision.picture
        assert request.model == view.model_choice()
        for key, value in expected.items():
            assert getattr(view.result.trace, key) == value

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return view.result.trace


def run_until(condition, timeout_ms: int = WAIT_MS) -> None:
    """Run the event loop until ``condition()``: QEventLoop.exec lets the training thread run,
    where qtbot.waitUntil's qWait keeps the interpreter lock between its checks."""
    loop = QtCore.QEventLoop()
    poll = QtCore.QTimer(interval=5)
    poll.timeout.connect(lambda: condition() and loop.quit())
    QtCore.QTimer.singleShot(timeout_ms, loop.quit)
    if not condition():
        poll.start()
        loop.exec()
        poll.stop()
    assert condition(), "timed out"


def reference(variant: str, seed: int):
    p = generate(seed)
    model, _ = load_shipped(variant)
    return run_model(model, p.image, object_mask=p.mask, label=p.label)


def page(window, view, name: str):
    """Open a page of the tab by a click on its tab bar."""
    bar = view.pages.tabBar()
    centre = QtCore.QPointF(bar.tabRect(PAGES.index(name)).center())
    event = QtGui.QMouseEvent(
        QtCore.QEvent.Type.MouseButtonPress,
        centre,
        bar.mapToGlobal(centre),
        QtCore.Qt.MouseButton.LeftButton,
        QtCore.Qt.MouseButton.LeftButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(bar, event)
    assert view.vision.page == name
    return view.page_widgets[name]


def test_the_first_picture_and_a_new_seed(qtbot, vision):
    window, view = vision
    trace = view.result.trace
    ref = reference("cbam", 7)
    np.testing.assert_array_equal(trace.probabilities, ref.probabilities)
    p = view.picture_page
    # the picture, its map (block3's M_s) and the probabilities on screen are the trace's
    np.testing.assert_array_equal(p.picture.panels[0].background, vf.picture_u8(ref.image))
    np.testing.assert_array_equal(p.overlay.panels[0].data, ref.stage("spatial_map", "block3"))
    np.testing.assert_array_equal(p.probabilities.bars.values, ref.probabilities)
    assert CLASS_NAMES[ref.prediction] in view.summary.text()
    # type a seed
    view.seed.selectAll()
    qtbot.keyClicks(view.seed, "2024")
    qtbot.keyClick(view.seed, QtCore.Qt.Key.Key_Enter)
    wait_result(qtbot, view, source="generate:2024")
    ref = reference("cbam", 2024)
    np.testing.assert_array_equal(view.result.trace.logits, ref.logits)
    np.testing.assert_array_equal(p.overlay.panels[0].data, ref.stage("spatial_map", "block3"))
    # New picture: another seed, shown in the box
    qtbot.mouseClick(view.new_button, QtCore.Qt.MouseButton.LeftButton)
    seed = view.vision.picture.seed
    assert view.seed.value() == seed and view.vision.picture.kind == "generate"
    wait_result(qtbot, view, source=f"generate:{seed}")
    np.testing.assert_array_equal(view.result.trace.image, generate(seed).image)


def test_the_overlay_stretches_the_map_over_the_picture_by_nearest_neighbour(vision):
    window, view = vision
    trace = view.result.trace
    image = view.picture_page.overlay.panels[0].image
    got = pixels(image)  # 32×32: one pixel per picture pixel
    m = trace.stage("spatial_map", "block3")
    up = m.repeat(4, axis=0).repeat(4, axis=1)  # explorer.vision.measure.upsample_nearest's rule
    from explorer.gui.heatmap.colours import SPOTLIGHT_FLOOR

    # a spotlight: the picture's own colour, as bright as the map says (to within the colour
    # table's 256 steps), never a colour of its own
    index = np.clip(np.round(up * 255), 0, 255)
    grey = np.round(255 * (SPOTLIGHT_FLOOR + (1 - SPOTLIGHT_FLOOR) * index / 255))
    picture = vf.picture_u8(trace.image).astype(np.float32)
    expected = np.round(picture * grey[..., None] / 255)
    np.testing.assert_allclose(got.astype(np.float32), expected, atol=1)


@pytest.mark.parametrize("variant", ["plain", "se", "cbam", "residual"])
def test_each_variant_shows_its_own_numbers(qtbot, vision, variant):
    window, view = vision
    view.model.setCurrentIndex(view.model.findData(variant))
    trace = wait_result(qtbot, view, variant=variant)
    ref = reference(variant, 7)
    np.testing.assert_array_equal(trace.logits, ref.logits)
    block = view.vision.block
    assert block == ("block1" if variant == "residual" else "block3")
    np.testing.assert_array_equal(view.picture_page.probabilities.bars.values, ref.probabilities)
    overlay = view.picture_page.overlay.panels[0].data
    if variant in ("cbam", "residual"):
        np.testing.assert_array_equal(overlay, ref.stage("spatial_map", block))
    else:  # no spatial attention: the block's activation, said so in the title
        np.testing.assert_allclose(overlay, ref.stage("output", block).mean(axis=0), rtol=1e-6)
        assert "not attention" in view.picture_page.overlay.panels[0].title
    assert view.channel_page.currentWidget() is (
        view.channel_page.content if variant in ("se", "cbam") else view.channel_page.placeholder
    )
    assert view.spatial_page.currentWidget() is (
        view.spatial_page.content if variant == "cbam" else view.spatial_page.placeholder
    )
    if variant == "residual":
        st = ref.block("block1").stages
        page(window, view, "residual")  # a page behind the others is drawn when it comes to the front
        shown = {p.title: p.data for p in view.residual_page.figure.panels}
        np.testing.assert_array_equal(shown["M(x), mean"], st["spatial_map"])
        np.testing.assert_allclose(shown["(1+M)·T, mean"], st["output"].mean(axis=0), rtol=1e-6)
        # H = (1 + M)·T, element by element, for the channel on screen
        np.testing.assert_allclose(
            shown["(1+M)·T, channel 0"], (1 + st["mask_branch"][0]) * st["trunk"][0], rtol=1e-6
        )


def test_the_channel_page_sorts_the_weights_beside_the_maps_they_scale(qtbot, vision):
    window, view = vision
    view.model.setCurrentIndex(view.model.findData("se"))
    trace = wait_result(qtbot, view, variant="se")
    ch = page(window, view, "channel")
    st = trace.block("block3").stages
    s = st["channel_weights"]
    order = np.argsort(-s.astype(np.float64), kind="stable")
    np.testing.assert_array_equal(ch.bars.bars.values, s[order])
    assert ch.bars.bars.keys == [int(c) for c in order]
    assert np.all(np.diff(ch.bars.bars.values) <= 0)
    # columns: the three largest and the three smallest weights; rows: X, z, s, s·X
    columns = ch.channels
    assert columns == [int(c) for c in order[:3]] + [int(c) for c in order[-3:]]
    panels = ch.figure.panels
    n = len(columns)
    for k, c in enumerate(columns):
        np.testing.assert_array_equal(panels[k].data, st["features"][c])
        assert panels[n + k].data[0, 0] == st["squeeze"][c]
        assert panels[2 * n + k].data[0, 0] == s[c]
        np.testing.assert_array_equal(panels[3 * n + k].data, st["output"][c])
        np.testing.assert_allclose(st["output"][c], s[c] * st["features"][c], rtol=1e-6)  # rescaled


def independent_excitation(trace, block: str, c: int) -> tuple[float, float]:
    """z_c and s_c from the SE paper's equations, in float64 from the trace's maps and weights."""
    b = trace.block(block)
    x = b.stages["features"].astype(np.float64)
    z = x.mean(axis=(1, 2))
    w1, w2 = (b.params[k].astype(np.float64) for k in ("w1", "w2"))
    s = 1 / (1 + np.exp(-(w2 @ np.maximum(w1 @ z, 0))))
    return z[c], s[c]


def test_a_click_on_a_channel_bar_works_out_its_squeeze_and_excite(qtbot, vision):
    window, view = vision
    view.model.setCurrentIndex(view.model.findData("se"))
    trace = wait_result(qtbot, view, variant="se")
    ch = page(window, view, "channel")
    key = ch.bars.bars.keys[5]  # the sixth-largest weight
    qtbot.mouseClick(ch.bars, QtCore.Qt.MouseButton.LeftButton, pos=ch.bars.bar_centre(key))
    assert view.vision.channel == key
    w = view.channel_work
    assert w.channel == key and w.block == "block3"
    expected = work_channel(trace, "block3", key)
    assert (w.weight, w.logit, w.feature_sum) == (expected.weight, expected.logit, expected.feature_sum)
    z, s = independent_excitation(trace, "block3", key)
    assert abs(w.paths[0].value - z) < 1e-9 and abs(w.weight - s) < 1e-9
    assert abs(w.weight - float(trace.stage("channel_weights", "block3")[key])) < 1e-6
    text = ch.worked.toPlainText()
    for number in (z, s, w.logit, w.feature_sum):
        assert f"{number:.4f}" in text
    assert key in ch.channels  # the chosen channel's maps are shown too
    # a click on a map of the figure chooses that column's channel
    top = ch.channels[0]
    click_cell(qtbot, ch.figure, 0, 0, 0)
    assert view.vision.channel == top


def test_a_click_on_a_position_works_out_its_spatial_score(qtbot, vision):
    window, view = vision
    trace = view.result.trace
    sp = page(window, view, "spatial")
    names = [p.name for p in sp.figure.panels]
    click_cell(qtbot, sp.figure, names.index("spatial_map"), 2, 5)
    assert view.vision.position == (2, 5)
    w = view.position_work
    expected = work_position(trace, "block3", 2, 5)
    assert (w.row, w.col, w.logit, w.score) == (2, 5, expected.logit, expected.score)
    # CBAM's spatial attention from its equations: a k×k convolution over [avg; max], then σ
    st = trace.block("block3").stages
    b = trace.block("block3").params
    pooled = torch.from_numpy(np.stack([st["pooled_avg"], st["pooled_max"]]))[None].double()
    logits = F.conv2d(
        pooled,
        torch.from_numpy(b["spatial_weight"]).double(),
        torch.from_numpy(b["spatial_bias"]).double(),
        padding=3,
    )
    assert abs(w.logit - float(logits[0, 0, 2, 5])) < 1e-9
    assert abs(w.score - float(torch.sigmoid(logits[0, 0, 2, 5]))) < 1e-9
    assert abs(w.score - float(st["spatial_map"][2, 5])) < 1e-6
    text = sp.worked.toPlainText()
    for number in (w.centre_avg, w.centre_max, w.sum_avg, w.sum_max, w.logit, w.score):
        assert f"{number:.4f}" in text
    # the picture page's overlay selects positions too, and every panel shows the selection
    click_cell(qtbot, view.picture_page.overlay, 0, 6, 1)
    assert view.vision.position == (6, 1) and view.position_work.row == 6
    assert sp.figure.figure.selection == (6, 1)


def png(path, array) -> str:
    Image.fromarray(array).save(path)
    return str(path)


def test_load_a_png_good_and_bad(qtbot, vision, tmp_path, monkeypatch):
    window, view = vision
    rng = np.random.default_rng(0)
    good = png(tmp_path / "mine.png", rng.integers(0, 255, (48, 64, 3), dtype=np.uint8))
    chosen = {"path": good}
    monkeypatch.setattr(
        QtWidgets.QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (chosen["path"], ""))
    )
    qtbot.mouseClick(view.load_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.vision.picture.kind == "file", timeout=WAIT_MS)
    trace = wait_result(qtbot, view)
    loaded = load_image(good)
    np.testing.assert_array_equal(trace.image, loaded.pixels)
    model, _ = load_shipped("cbam")
    np.testing.assert_array_equal(trace.logits, run_model(model, loaded.pixels).logits)
    assert view.notice.isVisible() and "64×48" in view.notice.text()  # resized, said so
    assert "mine.png" in view.summary.text()
    # bad files: the loader's one-line message in the banner; the picture stays the good one
    bad_files = {
        "text.png": b"this is not a picture at all",
        "empty.png": b"",
    }
    whole = Path(good).read_bytes()
    bad_files["truncated.png"] = whole[: len(whole) // 2]
    for name, data in bad_files.items():
        path = tmp_path / name
        path.write_bytes(data)
        chosen["path"] = str(path)
        qtbot.mouseClick(view.load_button, QtCore.Qt.MouseButton.LeftButton)
        qtbot.waitUntil(
            lambda name=name: view.banner.styleSheet() == ERROR_STYLE and name in view.banner.text(),
            timeout=WAIT_MS,
        )
        text = view.banner.text()
        assert "\n" not in text and "Traceback" not in text
        try:
            load_image(path)
        except ValueError as exc:
            assert str(exc) in text  # the vision loader's own message
        assert view.vision.picture.path == good
    assert view.result.trace.source == f"image:{good}"


def drag(widget, points) -> None:
    """Press at the first point, move through the rest, release: real mouse events."""

    def send(kind, pos, buttons):
        event = QtGui.QMouseEvent(
            kind,
            QtCore.QPointF(pos),
            widget.mapToGlobal(QtCore.QPointF(pos)),
            QtCore.Qt.MouseButton.LeftButton
            if kind != QtCore.QEvent.Type.MouseMove
            else QtCore.Qt.MouseButton.NoButton,
            buttons,
            QtCore.Qt.KeyboardModifier.NoModifier,
        )
        QtWidgets.QApplication.sendEvent(widget, event)

    left = QtCore.Qt.MouseButton.LeftButton
    send(QtCore.QEvent.Type.MouseButtonPress, points[0], left)
    for p in points[1:]:
        send(QtCore.QEvent.Type.MouseMove, p, left)
    send(QtCore.QEvent.Type.MouseButtonRelease, points[-1], QtCore.Qt.MouseButton.NoButton)


def test_draw_a_shape_and_the_model_reads_the_drawing(qtbot, vision):
    window, view = vision
    qtbot.mouseClick(view.draw_button, QtCore.Qt.MouseButton.LeftButton)
    assert view.vision.picture.kind == "draw"
    p = view.picture_page
    assert p.left.currentIndex() == 1
    p.background.setCurrentIndex(p.background.findData("plain"))
    p.colour.setCurrentIndex(p.colour.findData("blue"))
    p.brush.setValue(3.0)
    canvas = p.canvas
    ring = [canvas.point_of(16 + 7 * np.sin(a), 16 + 7 * np.cos(a)) for a in np.linspace(0, 2 * np.pi, 40)]
    drag(canvas, ring)
    assert len(view.vision.picture.strokes) == 1
    stroke = view.vision.picture.strokes[0]
    assert stroke.colour == "blue" and stroke.radius == 3.0
    trace = wait_result(qtbot, view)
    np.testing.assert_array_equal(trace.image, render_drawing(view.vision.picture))
    model, _ = load_shipped("cbam")
    np.testing.assert_array_equal(trace.logits, run_model(model, trace.image).logits)
    # the canvas shows the drawing: the stroke's pixels in blue
    shown = np.frombuffer(canvas.image.constBits(), np.uint8).reshape(32, 32, 3)
    np.testing.assert_array_equal(shown, vf.picture_u8(render_drawing(view.vision.picture)))
    drag(canvas, [canvas.point_of(5, 5)])  # a dot
    assert len(view.vision.picture.strokes) == 2
    qtbot.mouseClick(p.undo, QtCore.Qt.MouseButton.LeftButton)
    assert view.vision.picture.strokes == (stroke,)
    qtbot.mouseClick(p.clear, QtCore.Qt.MouseButton.LeftButton)
    assert view.vision.picture.strokes == ()
    qtbot.mouseClick(view.draw_button, QtCore.Qt.MouseButton.LeftButton)  # back to the generated picture
    assert view.vision.picture.kind == "generate"


def test_compare_shows_plain_se_and_cbam_on_the_same_picture(qtbot, vision):
    window, view = vision
    cp = page(window, view, "compare")
    qtbot.waitUntil(lambda: view.compared is not None and len(cp.figure.panels) == 3, timeout=WAIT_MS)
    for i, variant in enumerate(("plain", "se", "cbam")):
        ref = reference(variant, 7)
        np.testing.assert_array_equal(cp.charts[i].bars.values, ref.probabilities)
        if variant == "cbam":
            expected = ref.stage("spatial_map", "block3")
        else:  # an activation map, on the attention maps' 0..1 (the title says it is divided)
            activation = ref.stage("output", "block3").mean(axis=0)
            expected = activation / activation.max()
            assert "÷ its max" in cp.figure.panels[i].title
        np.testing.assert_allclose(cp.figure.panels[i].data, expected, rtol=1e-6)
        assert cp.figure.panels[i].levels == (0.0, 1.0)  # one colour scale, one colour bar
    assert cp.figure.figure.shared_bar
    # a new picture: compare follows
    view.seed.setValue(31)
    qtbot.waitUntil(lambda: view.compared is not None and view.compared.picture.seed == 31, timeout=WAIT_MS)
    np.testing.assert_array_equal(cp.charts[2].bars.values, reference("cbam", 31).probabilities)


def test_training_live_cancel_and_the_scrubber(qtbot, vision, tmp_path):
    window, view = vision
    tp = page(window, view, "train")
    view.vision.options = replace(
        view.vision.options, pool_size=512, eval_size=100
    )  # lighter than the window's
    tp.steps.setValue(200)  # cancelled long before its end
    tp.seed.setValue(3)
    assert (view.vision.train_steps, view.vision.train_seed) == (200, 3)
    qtbot.mouseClick(tp.train_button, QtCore.Qt.MouseButton.LeftButton)
    assert (
        view.vision.status == "running" and not tp.train_button.isEnabled() and tp.cancel_button.isEnabled()
    )
    run = view.vision.run
    assert run.device == ("cuda" if torch.cuda.is_available() else "cpu")  # CUDA when present
    run_until(lambda: run.step >= 12 and len(run.snapshots) >= 1)
    # the maps follow the newest snapshot, computed on the worker with that snapshot's weights
    run_until(lambda: view.result.request.model.step is not None)
    qtbot.mouseClick(tp.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    run_until(lambda: view.vision.status == "cancelled")
    assert run.status == "cancelled" and run.step < 200 and tp.train_button.isEnabled()
    assert run.snapshots[0].step == 0  # the untrained model is the first snapshot
    assert len(run.losses) == run.step and tp.progress.value() == run.step
    np.testing.assert_array_equal(tp.plots[0].curves.series[0].ys, run.losses)
    # scrub to the untrained model: the maps are model_at's for that snapshot
    tp.scrubber.setValue(0)
    assert view.vision.snapshot == 0 and not view.vision.follow
    trace = wait_result(qtbot, view)
    p = generate(7)
    ref = run_model(model_at(run.spec, run.snapshots[0]), p.image)
    np.testing.assert_array_equal(trace.logits, ref.logits)
    np.testing.assert_array_equal(view.watched.panels[0].data, ref.stage("spatial_map", "block3"))
    page(window, view, "picture")  # drawn when it comes to the front
    np.testing.assert_array_equal(
        view.picture_page.overlay.panels[0].data, ref.stage("spatial_map", "block3")
    )
    assert "step 0" in view.summary.text()
    page(window, view, "train")
    # a whole run: it finishes, the last snapshot is the trained model
    tp.steps.setValue(40)
    qtbot.mouseClick(tp.train_button, QtCore.Qt.MouseButton.LeftButton)
    run = view.vision.run
    run_until(lambda: view.vision.status == "done", 60_000)
    assert run.status == "done" and run.step == 40 and run.snapshots[-1].step == 40
    collector = app_setup.gui_collector()
    run_until(lambda: not warming())
    assert warmed() and collector.timer.isActive()  # held while warming, then resumed
    assert len(run.series("accuracy")) == len(run.eval_steps) == 2  # steps 20 and 40
    np.testing.assert_array_equal(tp.plots[1].curves.series[0].ys, run.series("accuracy"))
    assert view.vision.shown_step() == 40 and tp.scrubber.value() == tp.scrubber.maximum()
    trace = wait_result(qtbot, view)
    np.testing.assert_array_equal(
        trace.logits, run_model(model_at(run.spec, run.snapshots[-1]), p.image).logits
    )
    # its curves export, drawn from the run's data
    assert "vision:training" in window.exporter.labels()
    assert window.exporter.export_panel("vision:training", tmp_path / "curves.svg") is None
    assert "held-out accuracy" in (tmp_path / "curves.svg").read_text(encoding="utf-8")
    # back to the shipped checkpoint
    qtbot.mouseClick(tp.shipped_button, QtCore.Qt.MouseButton.LeftButton)
    trace = wait_result(qtbot, view)
    np.testing.assert_array_equal(trace.logits, reference("cbam", 7).logits)


class Imports:
    """Which thread imported which module (a finder first on sys.meta_path that finds nothing)."""

    def __init__(self):
        self.seen: list[tuple[str, str]] = []

    def find_spec(self, name, path=None, target=None):
        self.seen.append((threading.current_thread().name, name))
        return None

    def __enter__(self):
        sys.meta_path.insert(0, self)
        return self

    def __exit__(self, *_):
        sys.meta_path.remove(self)


def test_the_training_page_names_the_model_picked_before_a_run(qtbot, vision):
    """Trial 9: with 残差注意力 picked the page still said "Train CBAM from scratch" (and drew CBAM's
    shipped curves dashed)."""
    from explorer.gui.labs.vision.figures import variant_label

    window, view = vision
    tp = page(window, view, "train")
    for variant in ("residual", "se", "cbam"):
        view.model.setCurrentIndex(view.model.findData(variant))
        assert view.vision.variant == variant
        assert variant_label(variant) in tp.status.text(), (variant, tp.status.text())


def waits_for_warm_up(run) -> bool:
    """The run's thread is inside explorer.lab.warm_up.wait_for_warm_up (its job not begun)."""
    thread = next(t for t in threading.enumerate() if t.name == f"explorer-lab-run-{run.id}")
    frame = sys._current_frames().get(thread.ident)
    names = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return "wait_for_warm_up" in names and getattr(run.job, "func", run.job).__name__ not in names


@pytest.fixture
def slow_warm_up(monkeypatch):
    """A labs' warm-up of this process that lasts until ``release.set()``."""
    monkeypatch.setattr(warm_up_module, "_started", threading.Event())
    monkeypatch.setattr(warm_up_module, "_done", threading.Event())
    release = threading.Event()
    assert warm_up_module.warm_up(lambda: release.wait(60))
    yield release
    release.set()
    warm_up_module._done.wait(60)


def test_train_pressed_during_the_warm_up_starts_the_run_after_it(qtbot, vision, slow_warm_up):
    window, view = vision
    tp = page(window, view, "train")
    view.vision.options = replace(view.vision.options, pool_size=256, eval_size=50)
    tp.steps.setValue(20)
    with Imports() as imports:
        qtbot.mouseClick(tp.train_button, QtCore.Qt.MouseButton.LeftButton)
        run = view.vision.run
        # the click is taken: the run has started and says it is starting (the lab's own words:
        # after the warm-up it makes its pictures, and no event comes between the two) …
        assert run.status == "running" and run.waiting
        assert not tp.train_button.isEnabled() and tp.cancel_button.isEnabled()
        assert tp.status.text() == "Starting: making the training pictures…"
        loop = QtCore.QEventLoop()  # the window's turns for a while: the run's thread could go
        QtCore.QTimer.singleShot(600, loop.quit)
        loop.exec()
        assert run.step == 0 and run.waiting and waits_for_warm_up(run)  # … its thread waits
    assert not [name for thread, name in imports.seen if thread == "MainThread" and "torch" in name]
    slow_warm_up.set()  # the warm-up ends: the run starts by itself
    run_until(lambda: view.vision.status == "done", 60_000)
    assert run.step == 20 and not run.waiting and "Finished." in tp.status.text()


def test_cancel_while_the_run_waits_for_the_warm_up(qtbot, vision, slow_warm_up):
    window, view = vision
    tp = page(window, view, "train")
    qtbot.mouseClick(tp.train_button, QtCore.Qt.MouseButton.LeftButton)
    run = view.vision.run
    assert run.waiting
    run_until(lambda: waits_for_warm_up(run))
    qtbot.mouseClick(tp.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    run_until(lambda: view.vision.status == "cancelled")
    assert run.step == 0 and not run.snapshots and tp.train_button.isEnabled()


def test_the_chinese_interface(qtbot, vision):
    window, view = vision
    window.state.set_language("zh_CN")
    assert view.pages.tabText(0) != "Picture" and view.new_button.text() != "New picture"
    labels = view.picture_page.probabilities.bars.labels
    assert all(not any(c.isascii() and c.isalpha() for c in label) for label in labels), labels
    title = [s.title for s in TABS if s.tab == Tab.VISION][0]
    assert window.tabs.title(Tab.VISION) != title
    window.state.set_language("en")
    assert view.pages.tabText(0) == "Picture" and labels != view.picture_page.probabilities.bars.labels


def test_export_every_vision_figure(qtbot, vision, tmp_path):
    window, view = vision
    x = window.exporter
    names = [n for n in x.labels() if n.startswith("vision")]
    every = {
        "vision",
        "vision:channel",
        "vision:spatial",
        "vision:residual",
        "vision:compare",
    }
    assert set(names) == every  # whatever the model: one without that attention exports the one with it
    for name in every:
        stem = name.replace(":", "_")
        message = x.export_panel(name, tmp_path / f"{stem}.png")
        assert message is None, message
        image = QtGui.QImage(str(tmp_path / f"{stem}.png"))
        assert not image.isNull() and image.width() > 200 and image.height() > 100
        assert x.export_panel(name, tmp_path / f"{stem}.svg") is None, x.message
        root = ET.parse(tmp_path / f"{stem}.svg").getroot()
        assert root.tag.endswith("svg") and len(list(root.iter())) > 5
    svg = (tmp_path / "vision.svg").read_text(encoding="utf-8")
    assert "red circle" in svg  # the probabilities' class names, as text
    residual = (tmp_path / "vision_residual.svg").read_text(encoding="utf-8")
    assert "The shipped residual attention model on the same picture: CBAM has none" in residual
    assert "The shipped" not in (tmp_path / "vision_spatial.svg").read_text(encoding="utf-8")  # CBAM's own
    # the training curves: offered once a run has taken a step (the training test exports them)
    assert "vision:training" not in x.labels()
    window.state.vision.set_variant("residual")  # the list stays; the spatial stages are CBAM's
    assert {n for n in x.labels() if n.startswith("vision")} == every
    assert x.export_panel("vision:spatial", tmp_path / "s.svg") is None, x.message
    spatial = (tmp_path / "s.svg").read_text(encoding="utf-8")
    assert "The shipped CBAM model on the same picture: residual attention has none" in spatial


def test_export_before_the_tab_was_ever_opened(qtbot, make_window, tmp_path):
    window = make_window(SMALL, size=(1000, 700))
    window.state.vision.set_variant("residual")
    assert window.tabs.built(Tab.VISION) is None
    assert window.exporter.export_panel("vision:residual", tmp_path / "r.png") is None
    assert window.exporter.export_panel("vision:spatial", tmp_path / "s.png") is None  # CBAM's, captioned
    assert QtGui.QImage(str(tmp_path / "s.png")).width() > 200
    assert window.tabs.built(Tab.VISION) is None


def test_a_session_keeps_the_tab(qtbot, vision, tmp_path):
    window, view = vision
    v = view.vision
    view.model.setCurrentIndex(view.model.findData("se"))
    view.block.setCurrentIndex(view.block.findData("block2"))
    qtbot.mouseClick(view.draw_button, QtCore.Qt.MouseButton.LeftButton)
    drag(
        view.picture_page.canvas,
        [view.picture_page.canvas.point_of(8, 8), view.picture_page.canvas.point_of(20, 9)],
    )
    v.select_channel(4)
    v.select_position((1, 2))
    page(window, view, "channel")
    saved = v.settings
    path = tmp_path / "lesson.aexp.json"
    assert window.files.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["vision"]["variant"] == "se"
    # change everything, then open the file again
    view.model.setCurrentIndex(view.model.findData("cbam"))
    view.seed.setValue(99)
    page(window, view, "picture")
    assert v.settings != saved
    assert window.files.open(path)
    assert v.settings == saved
    assert view.model.currentData() == "se" and view.block.currentData() == "block2"
    assert view.pages.currentIndex() == PAGES.index("channel") and view.draw_button.isChecked()
    trace = wait_result(qtbot, view, variant="se")
    np.testing.assert_array_equal(trace.image, render_drawing(saved.picture))
    assert view.channel_work.channel == 4 and view.channel_work.block == "block2"


def test_the_lesson_walks_the_vision_steps(qtbot, vision):
    window, view = vision
    window.state.show_lesson(True)
    stages = [s.stage for s in STEPS]
    window.state.set_lesson_step(stages.index("vision_pooled"))
    assert window.state.tab == "vision" and view.vision.page == "spatial" and view.vision.variant == "cbam"
    wait_result(qtbot, view, variant="cbam")
    sp = view.spatial_page
    framed = {sp.figure.panels[i].name for i in sp.figure.figure.marks}
    assert framed == {"pooled_avg", "pooled_max"}
    window.state.set_lesson_step(stages.index("vision_excite"))
    assert view.vision.page == "channel" and view.vision.variant == "cbam"  # CBAM weighs channels too
    window.state.set_lesson_step(stages.index("vision_residual"))
    assert view.vision.page == "residual" and view.vision.variant == "residual"
    window.state.set_lesson_step(stages.index("vision_train"))
    assert view.vision.page == "train"
    # hiding and showing the lesson again stays on the step's own tab
    window.state.show_lesson(False)
    window.state.set_tab("pipeline")
    window.state.show_lesson(True)
    assert window.state.tab == "vision"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_presentation_at_1024x768_keeps_every_text_at_20px_or_more(qtbot, make_window, theme):
    window = make_window(SMALL, size=(1024, 768))
    window.state.set_theme(theme)
    window.classroom.set_presentation(True, fullscreen=False)
    window.resize(1024, 768)
    window.state.set_tab("vision")
    view = window.view(Tab.VISION)
    wait_result(qtbot, view)
    for name in PAGES:
        view.vision.set_page(name)
        qtbot.waitUntil(lambda name=name: view.pages.currentWidget() is view.page_widgets[name])
        QtWidgets.QApplication.processEvents()
        assert window.width() <= 1024 and window.height() <= 768
        assert view.minimumSizeHint().width() <= view.width(), name  # nothing forced wider than the window
        for w in [view] + view.findChildren(QtWidgets.QWidget):
            if not w.isVisible():
                continue
            style = getattr(w, "style_", None)
            if style is not None:  # figures, bar charts and curves paint with the view's style
                assert style.font.pixelSize() >= 20, (name, type(w).__name__)
            assert QtGui.QFontInfo(w.font()).pixelSize() >= 20, (name, type(w).__name__, w.objectName())
    assert view.context.style().bg.name() == ("#121212" if theme == "dark" else "#ffffff")


@pytest.mark.parametrize(
    "size, zoom, language",
    [((1024, 768), 0, "en"), ((1024, 768), 2, "zh_CN"), ((1024, 768), 2, "en"), ((1280, 720), 0, "en")],
)
def test_every_page_fits_the_projector(qtbot, make_window, size, zoom, language):
    """Presentation mode with the lesson column open (A+ twice too): the Vision tab never
    widens the window (its pages sit in one stacked widget, whose minimum is the largest
    page's) and adds no squeezed, clipped or overlapping text to what the Pipeline tab has."""
    window = make_window(SMALL, size=size)
    window.state.set_language(language)
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.set_text_zoom(zoom)
    window.state.show_lesson(True)
    window.resize(*size)
    QtWidgets.QApplication.processEvents()
    before = set(all_problems(window))  # the rest of the window's, not this tab's
    window.state.set_tab("vision")
    view = window.view(Tab.VISION)
    wait_result(qtbot, view)
    for name in PAGES:
        view.vision.set_page(name)
        qtbot.waitUntil(lambda name=name: view.pages.currentWidget() is view.page_widgets[name])
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        assert window.size() == QtCore.QSize(*size), name
        assert view.minimumSizeHint().width() <= view.width(), name
        bar = view.pages.tabBar()
        assert bar.sizeHint().width() <= bar.width() or zoom, name  # every page's title in sight
        assert not set(all_problems(window)) - before, (name, set(all_problems(window)) - before)
    window.state.set_tab("pipeline")
    QtWidgets.QApplication.processEvents()
    assert window.size() == QtCore.QSize(*size)  # the built Vision tab widens no other tab
    assert window.minimumSizeHint().width() <= size[0]


def test_the_loaders_notices_and_errors_in_chinese(qtbot, vision, tmp_path, monkeypatch):
    """A grey 64×64 picture and a truncated one, loaded in zh_CN: no English but the file names."""
    window, view = vision
    window.state.set_language("zh_CN")
    grey = png(tmp_path / "grey.png", np.random.default_rng(4).integers(0, 255, (64, 64), dtype=np.uint8))
    whole = Path(grey).read_bytes()
    cut = tmp_path / "cut.png"
    cut.write_bytes(whole[: len(whole) // 2])
    chosen = {"path": grey}
    monkeypatch.setattr(
        QtWidgets.QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (chosen["path"], ""))
    )

    def english_left(text: str) -> list[str]:
        return re.findall(r"[A-Za-z]+", text.replace(str(tmp_path), " ").replace("grey.png", " "))

    qtbot.mouseClick(view.load_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.vision.picture.kind == "file", timeout=WAIT_MS)
    wait_result(qtbot, view)
    notice = view.notice.text()
    assert view.notice.isVisible() and "64×64" in notice and "32×32" in notice, notice
    assert english_left(notice) == [] and re.search(r"[\u4e00-\u9fff]", notice), notice

    chosen["path"] = str(cut)
    qtbot.mouseClick(view.load_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: view.banner.styleSheet() == ERROR_STYLE and "cut.png" in view.banner.text(), timeout=WAIT_MS
    )
    banner = view.banner.text().replace("cut.png", " ")
    assert english_left(banner) == [] and re.search(r"[\u4e00-\u9fff]", banner), banner
    assert view.vision.picture.path == grey  # the good picture stays
    window.state.set_language("en")


def test_the_channel_weight_has_the_lesson_formulas_name_in_both_blocks():
    """The rescale step's formula writes s_c; the channel figure's rows name the weight the
    same for SE and for CBAM (CBAM's said M_c beside it)."""
    import re

    from explorer.appstate.lesson import STEPS, step_index
    from explorer.gui.labs.vision.figures import channel_rows

    formula = STEPS[step_index("vision.rescale")].formula
    weight = re.search(r"(\w+_c) ·", formula).group(1)
    for attention in ("se", "cbam"):
        rows = dict(channel_rows(attention))
        assert rows["s"] == weight and rows["rescaled"].startswith(weight), (attention, rows)
