"""The Vision Transformer tab driven as a teacher would: a picture, a clicked patch, the maps, the
heads, the data experiment, a live pair trained in the window, a photograph, the lesson.

Every number the tab shows is checked against a computation made here: run_vit_model and
run_model on the shipped curve checkpoints (or on the live pair's snapshots via model_at),
the photograph's attention re-done with photo_attention, the shipped experiment's file.
"""

import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STEPS, step_index
from explorer.appstate.session import apply_session, load_session, save_session, session_of
from explorer.appstate.vit import PAGES, ViTSettings
from explorer.core.config import AttentionConfig
from explorer.gui.lab import warm
from explorer.gui.messages import ERROR_STYLE
from explorer.lab.warm_up import warmed
from explorer.vision.checkpoints import load_curve
from explorer.vision.data_curve import shipped_result
from explorer.vision.measure import mass_share
from explorer.vision.photo_attention import load_photo
from explorer.vision.shapes import generate
from explorer.vision.trace import run_model
from explorer.vision.train import model_at
from explorer.vision.vit_measures import uniform_distance
from explorer.vision.vit_trace import run_vit_model

from .helpers import WAIT_MS, pixels
from .projector_check import all_problems
from .test_vision_tab import run_until

SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)


@pytest.fixture
def vit(qtbot, make_window):
    window = make_window(SMALL, size=(1400, 900))
    window.state.set_tab("vit")
    view = window.view("vit")
    wait_result(qtbot, view)
    yield window, view
    view.lab.stop_training()


def wait_result(qtbot, view):
    from explorer.appstate.vit_jobs import request_of

    def done():
        assert view.result is not None and view.result.request == request_of(view.lab)
        assert not view.context.worker.busy("vit")

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return view.result


def click_patch(qtbot, canvas, patch: int) -> None:
    g = canvas.grid()
    square = canvas._square()
    row, col = divmod(patch, g)
    point = QtCore.QPoint(
        int(square.left() + (col + 0.5) * square.width() / g),
        int(square.top() + (row + 0.5) * square.height() / g),
    )
    qtbot.mouseClick(canvas, QtCore.Qt.MouseButton.LeftButton, pos=point)


def test_the_maps_are_the_shipped_models_and_a_click_picks_a_patch(qtbot, vit):
    window, view = vit
    lab = view.lab
    picture = generate(lab.settings.seed)
    model = load_curve("vit", lab.settings.size)[0]
    expected = run_vit_model(model, picture.image, object_mask=picture.mask, label=picture.label)
    np.testing.assert_allclose(view.vit_map.values, expected.arrays["rollout_cls"], rtol=1e-6)
    cnn = run_model(load_curve("cnn", lab.settings.size)[0], picture.image)
    np.testing.assert_allclose(view.cnn_map.values, cnn.stage("spatial_map", "block3"), rtol=1e-6)
    share = mass_share(cnn.stage("spatial_map", "block3")[None], picture.mask[None])[0]
    text = view.shares.text()
    assert f"rollout {100 * expected.object_share['rollout']:.0f}\u00a0%" in text
    assert f"CBAM's spatial map {100 * share:.0f}\u00a0%" in text
    assert "this ViT map" not in text  # the rollout shown is said once, as the rollout
    # a teacher clicks patch (5, 2) in layer 1, head 3: that patch's row of that head's weights
    view.layer.setCurrentIndex(0)
    view.head.setCurrentIndex(2)
    click_patch(qtbot, view.vit_map, 4 * 8 + 1)
    assert (lab.settings.map, lab.settings.patch, lab.settings.layer, lab.settings.head) == (
        "patch",
        33,
        0,
        2,
    )
    row = expected.stage("weights", "layer1")[2, 1 + 33]
    np.testing.assert_allclose(view.vit_map.values, row[1:].reshape(8, 8), rtol=1e-6)
    assert view.vit_map.selected == 33 and f"({100 * row[0]:.0f}\u00a0% on CLS)" in view.vit_map.caption
    here = (row[1:] * expected.arrays["patch_object"].ravel()).sum() / row[1:].sum()
    assert f"this ViT map {100 * here:.0f}\u00a0%" in view.shares.text()
    assert view.layer.isEnabled() and view.head.isEnabled()
    view.map.setCurrentIndex(1)  # the CLS token's
    np.testing.assert_allclose(view.vit_map.values, expected.arrays["cls_attention"][0, 2], rtol=1e-6)
    # the heads page: this picture's distances and self shares, the position embeddings
    view.pages.setCurrentIndex(PAGES.index("heads"))
    np.testing.assert_allclose(view.distance_bars.values, expected.arrays["mean_distance"])
    assert view.distance_bars.reference == pytest.approx(uniform_distance(model.config))
    np.testing.assert_allclose(view.self_bars.values, expected.arrays["self_share"])
    similarity = expected.arrays["position_similarity"][33].reshape(8, 8)
    np.testing.assert_allclose(view.position_map.values, (similarity + 1) / 2)
    # another size: the models trained on 1,000 pictures
    view.size.setCurrentIndex(view.size.findData(1000))
    result = wait_result(qtbot, view)
    again = run_vit_model(load_curve("vit", 1000)[0], picture.image)
    np.testing.assert_array_equal(result.vit.arrays["logits"], again.arrays["logits"])
    assert "1,000 pictures" in view.summary.text()


def test_the_data_page_is_the_shipped_experiment(qtbot, vit):
    window, view = vit
    view.pages.setCurrentIndex(PAGES.index("data"))
    result = shipped_result()
    plot = view.data_plot
    curves = plot.curves
    assert curves.log_x and curves.x_ticks == tuple(float(n) for n in result.sizes())
    series = {s.name: s for s in curves.series}
    qtbot.waitUntil(lambda: plot.plot is not None, timeout=WAIT_MS)
    for model, name in (("cnn", "CNN (CBAM, 3 blocks)"), ("vit", "ViT (2 layers, 4 heads)")):
        line, dots = series[name], series[f"{name}, each seed"]
        means = [float(np.mean(result.accuracies(model, n))) for n in result.sizes()]
        np.testing.assert_allclose(line.ys, means)
        every = [(n, a) for n in result.sizes() for a in result.accuracies(model, n)]
        assert len(every) == len(result.sizes()) * len(result.seeds())  # a dot per seed and size
        assert list(zip(dots.xs, dots.ys)) == every and not dots.line
        # on screen: the dots at log10 of the sizes
        xs, ys = plot._items[curves.series.index(dots)].getData()
        np.testing.assert_allclose(xs, np.log10([n for n, _ in every]))
        np.testing.assert_allclose(ys, [a for _, a in every])
    chance = series["chance (8 classes)"]
    assert chance.dashed and set(chance.ys) == {1 / 8}
    # hovering over 1,000 pictures reads out every seed of both models there
    readout = plot.show_value_at(1100.0).splitlines()
    assert readout[0] == "training pictures (log scale) 1,000"
    assert len(readout) == 1 + 2 + 2 * len(result.seeds())
    caption = view.caption.text()
    assert "The CNN stays ahead" in caption or "level or ahead" in caption
    for n, gap in result.gaps().items():
        assert f"{n:,}: {gap:+.0f}" in caption
    assert "dots: each seed (" + ", ".join(map(str, result.seeds())) + ")" in caption


def test_the_live_pair_trains_both_models_and_the_maps_follow(qtbot, vit):
    window, view = vit
    lab = view.lab
    lab.options = replace(lab.options, eval_every=5, eval_size=40, snapshot_every=5)
    view.pages.setCurrentIndex(PAGES.index("train"))
    view.train_size.setCurrentIndex(view.train_size.findData(100))
    page = view.train_page
    page.steps.setValue(10)
    qtbot.mouseClick(page.train_button, QtCore.Qt.MouseButton.LeftButton)
    run_until(lambda: lab.status == "done" and lab.cnn_run.status == "done", 120_000)
    vit_run, cnn_run = lab.run, lab.cnn_run
    assert vit_run.step == cnn_run.step == 10 and len(cnn_run.losses) == 10
    # the ViT, whose evaluation costs 8 of its steps, is measured half as often (and after the last)
    assert (vit_run.eval_steps, cnn_run.eval_steps) == ([10], [5, 10])
    from explorer.appstate.vit_jobs import request_of

    assert lab.follow and request_of(lab).step == 10  # the maps follow the run: its last snapshot
    run_until(lambda: view.result is not None and view.result.request == request_of(lab))
    result = view.result
    last = vit_run.snapshots[-1]
    picture = generate(lab.settings.seed)
    expected = run_vit_model(model_at(vit_run.spec, last), picture.image)
    np.testing.assert_allclose(result.vit.arrays["rollout_cls"], expected.arrays["rollout_cls"], rtol=1e-6)
    assert result.cnn is not None and "step 10" in view.summary.text()
    # both curves on the plot, the live squares on the data page
    curves = page.content.curves(lab, vit_run, None)
    live = [s for s in curves[1].series if not s.dashed]  # the dashed: the shipped vit-100's run
    assert [len(s.xs) for s in live] == [len(vit_run.eval_steps), len(cnn_run.eval_steps)]
    view.pages.setCurrentIndex(PAGES.index("data"))
    squares = {s.name: s for s in view.data_plot.curves.series if s.hollow}
    assert set(squares) == {"CNN (CBAM, 3 blocks), live run", "ViT (2 layers, 4 heads), live run"}
    cnn_square = squares["CNN (CBAM, 3 blocks), live run"]
    assert (list(cnn_square.xs), list(cnn_square.ys)) == ([100.0], [cnn_run.last("accuracy")])
    assert "Squares: the live run" in view.caption.text()


def test_the_clock_says_starting_until_the_first_step(qtbot, vit):
    """Trial F18: between Train and the pair's first step (~5 s) the status line said "0.0 s"."""
    window, view = vit
    lab = view.lab
    view.pages.setCurrentIndex(PAGES.index("train"))
    view.train_size.setCurrentIndex(view.train_size.findData(100))
    page = view.train_page
    page.steps.setValue(10)
    warm.warm_up_labs()  # as in a window open a while: the run starts at once, its first step later
    run_until(warmed, 120_000)
    qtbot.mouseClick(page.train_button, QtCore.Qt.MouseButton.LeftButton)
    seen = []  # (step, the status line) until the first step
    run_until(lambda: seen.append((lab.run.step, page.status.text())) or lab.run.step > 0, 120_000)
    page.show_run()  # the first step's line
    seen.append((lab.run.step, page.status.text()))
    wall = lab.run.wall_s
    lab.cancel_training()
    before = [text for step, text in seen if step == 0 and "Step 0" in text]
    assert before and all("0.0 s" not in t and "starting…" in t for t in before), sorted(set(seen))
    step, after = seen[-1]
    assert step > 0 and "starting…" not in after and f"{wall:.1f} s" in after, after


def test_a_photo_through_the_models_and_by_its_own_patches(qtbot, vit, tmp_path, monkeypatch):
    window, view = vit
    rng = np.random.default_rng(3)
    picture = (rng.random((90, 120, 3)) * 255).astype(np.uint8)
    picture[20:60, 30:70] = (250, 20, 20)
    Image.fromarray(picture).save(tmp_path / "photo.png")
    asked = []  # the dialog the Photo page's button opens: the vision tabs' shared one

    def dialog(parent, title, start, filters):
        asked.append((title, start, filters))
        return str(tmp_path / "photo.png"), ""

    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName", staticmethod(dialog))
    view.pages.setCurrentIndex(PAGES.index("photo"))
    qtbot.mouseClick(view.photo_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.photo is not None, timeout=WAIT_MS)
    assert asked[0][0] == "Open a photo" and "*.jpg" in asked[0][2]
    assert Path(asked[0][1]).is_absolute()
    view.pages.setCurrentIndex(PAGES.index("looks"))
    qtbot.mouseClick(view.load_button, QtCore.Qt.MouseButton.LeftButton)  # the same from the top row
    assert Path(asked[1][1]) == tmp_path  # the folder the photo came from, remembered
    wait_result(qtbot, view)
    assert "resized" in view.notice.text() and "never from photographs" in view.notice.text()
    assert "no known object" in view.shares.text()
    view.pages.setCurrentIndex(PAGES.index("photo"))
    expected = load_photo(tmp_path / "photo.png")
    click_patch(qtbot, view.photo_map, 5 * expected.grid + 6)
    np.testing.assert_allclose(view.photo_map.values, expected.matches(5 * expected.grid + 6), rtol=1e-6)
    (tmp_path / "bad.png").write_bytes(b"not a picture")
    view.load_file(str(tmp_path / "bad.png"))
    qtbot.waitUntil(
        lambda: view.banner.isVisible() and view.banner.styleSheet() == ERROR_STYLE, timeout=WAIT_MS
    )
    assert "cannot be used" in view.banner.text()


def test_the_lesson_track_and_a_session(qtbot, vit, make_window, tmp_path):
    window, view = vit
    window.state.show_lesson(True)
    window.state.set_lesson_step(step_index("vit.rollout"))
    assert window.state.tab == "vit" and view.lab.settings.map == "rollout"
    window.state.set_lesson_step(step_index("vit.data"))
    assert view.pages.currentIndex() == PAGES.index("data")
    assert [s.id for s in STEPS if s.tab == "vit"] == [
        "vit.patches", "vit.patch", "vit.rollout", "vit.heads", "vit.data", "vit.photo"
    ]  # fmt: skip
    view.seed.setValue(123)
    view.size.setCurrentIndex(view.size.findData(100))
    save_session(tmp_path / "s.json", session_of(window.state))
    other = make_window(SMALL)
    apply_session(other.state, load_session(tmp_path / "s.json"))
    assert other.state.labs["vit"].settings == view.lab.settings
    with pytest.raises(ValueError, match="size 5"):
        ViTSettings.from_dict({"size": 5})


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_page_fits_the_projector(qtbot, make_window, language):
    window = make_window(SMALL, size=(1024, 768))
    window.state.set_language(language)
    window.classroom.set_presentation(True, fullscreen=False)
    window.state.show_lesson(True)
    window.resize(1024, 768)
    QtWidgets.QApplication.processEvents()
    before = set(all_problems(window))
    window.state.set_tab("vit")
    view = window.view("vit")
    wait_result(qtbot, view)
    for name in PAGES:
        view.lab.set_page(name)
        qtbot.waitUntil(lambda name=name: view.pages.currentWidget() is view.page_widgets[name])
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        assert window.width() <= 1024
        problems = [p for p in all_problems(window) if p not in before]
        assert not problems, (name, problems)
    view.lab.stop_training()


def svg_words(path) -> str:
    """The text of an SVG, without its white space (a wrapped caption is split at spaces)."""
    root = ET.parse(path).getroot()
    return "".join("".join(t.itertext()) for t in root.iter() if t.tag.endswith("text")).replace(" ", "")


def test_export_every_vit_figure_with_its_caption(qtbot, vit, tmp_path):
    window, view = vit
    x = window.exporter
    every = {"vit:looks", "vit:heads", "vit:data"}
    assert {n for n in x.labels() if n.startswith("vit:")} == every  # no photo yet, no run
    for name in every:
        stem = name.replace(":", "_")
        assert x.export_panel(name, tmp_path / f"{stem}.png") is None, x.message
        image = QtGui.QImage(str(tmp_path / f"{stem}.png"))
        assert not image.isNull() and image.width() > 500 and image.height() > 300
        assert len(np.unique(pixels(image).reshape(-1, 3), axis=0)) > 20  # drawn, not a blank page
        assert x.export_panel(name, tmp_path / f"{stem}.svg") is None, x.message
    looks = svg_words(tmp_path / "vit_looks.svg")
    for text in (view.summary.text(), view.shares.text(), view.vit_map.caption, view.cnn_map.caption):
        assert text.replace(" ", "") in looks, text  # the tab's own words, the numbers the tab shows
    heads = svg_words(tmp_path / "vit_heads.svg")
    assert view.distance_bars.title.replace(" ", "") in heads and "h4" in heads
    view.pages.setCurrentIndex(PAGES.index("heads"))
    for said in (view.heads_text.text(), view.distance_bars.toolTip()):  # the page's words and numbers
        assert said and said.replace(" ", "") in heads, said
    data = svg_words(tmp_path / "vit_data.svg")
    result = shipped_result()
    assert "1,000" in data and "10,000" in data  # the log axis' ticks
    for n, gap in result.gaps().items():
        assert f"{n:,}:{gap:+.0f}" in data  # the caption's lead per size
    # a photo: its own patches export too
    rng = np.random.default_rng(5)
    Image.fromarray((rng.random((40, 40, 3)) * 255).astype(np.uint8)).save(tmp_path / "p.png")
    view.load_file(str(tmp_path / "p.png"))
    qtbot.waitUntil(lambda: view.photo is not None, timeout=WAIT_MS)
    assert x.export_panel("vit:photo", tmp_path / "photo.svg") is None, x.message
    assert "photo'sownnumbers" in svg_words(tmp_path / "photo.svg")


def test_export_the_vit_figures_before_the_tab_was_ever_opened(qtbot, make_window, tmp_path):
    window = make_window(SMALL, size=(1000, 700))
    assert window.tabs.built("vit") is None
    for name in ("vit:looks", "vit:data"):
        assert window.exporter.export_panel(name, tmp_path / "f.png") is None, window.exporter.message
        assert QtGui.QImage(str(tmp_path / "f.png")).width() > 500
    assert "vit:photo" not in window.exporter.labels()
    assert window.tabs.built("vit") is None


def test_the_photo_page_opens_on_the_generated_picture_with_a_patch_selected(qtbot, vit):
    """Trial 6 T2: lesson step "click a patch" showed a flat grey square; before a photo is
    opened the page shows the generated picture, its house's wall selected, with its map."""
    from explorer.vision.photo_attention import DEFAULT_PATCH, default_photo

    window, view = vit
    assert view.photo is None
    view.pages.setCurrentIndex(PAGES.index("photo"))
    qtbot.waitUntil(lambda: view.photo is not None, timeout=WAIT_MS)
    expected = default_photo()
    row, col = DEFAULT_PATCH
    patch = row * expected.grid + col
    np.testing.assert_array_equal(view.photo_map.image, expected.image)
    np.testing.assert_allclose(view.photo_map.values, expected.matches(patch), rtol=1e-6)
    assert view.photo_map.selected == patch
    assert "resembles it" in view.photo_map.caption
    click_patch(qtbot, view.photo_map, 3)  # a click picks another patch of the same picture
    np.testing.assert_allclose(view.photo_map.values, expected.matches(3), rtol=1e-6)


def test_the_lesson_step_on_the_photo_page_shows_the_generated_picture(qtbot, make_window):
    """The lesson (or a session) sets the page through the lab's state, with the page tabs'
    signals held: the step still opens on the generated picture, not the grey square."""
    from explorer.appstate.lesson import step_index

    window = make_window(SMALL, size=(1400, 900))
    window.state.show_lesson(True)
    window.state.set_lesson_step(step_index("vit.photo"))
    view = window.view("vit")
    assert PAGES[view.pages.currentIndex()] == "photo"
    qtbot.waitUntil(lambda: view.photo is not None, timeout=WAIT_MS)
    assert view.photo_map.image is not None and view.photo_map.values is not None
    view.lab.stop_training()
