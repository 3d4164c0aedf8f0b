"""The Vision tab's Qt-free state: its settings, its events, drawings as strokes, sessions, jobs."""

import json

import numpy as np
import pytest
import torch

from explorer.appstate.session import apply_session, load_session, save_session, session_of
from explorer.appstate.state import ExplorerState
from explorer.appstate.vision import (
    DRAW_COLOURS,
    PLAIN_BACKGROUND,
    Picture,
    Stroke,
    VisionSettings,
    VisionState,
    render_drawing,
    stroke_mask,
)
from explorer.appstate.vision_jobs import ModelChoice, VisionRequest, compare, compute, make_picture
from explorer.training import snapshot_of
from explorer.vision.checkpoints import load_shipped
from explorer.vision.models import VARIANTS, VisionConfig, build_model
from explorer.vision.shapes import generate
from explorer.vision.trace import run_model


def capsule_reference(points, radius, size=32):
    """Pixels within ``radius`` of the polyline, by dense sampling along it (an independent check)."""
    rows, cols = np.mgrid[0:size, 0:size] + 0.5
    hit = np.zeros((size, size), dtype=bool)
    pts = np.asarray(points, dtype=float)
    pairs = zip(pts[:-1], pts[1:]) if len(pts) > 1 else [(pts[0], pts[0])]
    for a, b in pairs:
        for t in np.linspace(0.0, 1.0, 400):
            q = a + (b - a) * t
            hit |= (rows - q[0]) ** 2 + (cols - q[1]) ** 2 <= radius * radius
    return hit


@pytest.mark.parametrize(
    "points, radius",
    [
        (((5.0, 5.0),), 2.0),
        (((3.2, 4.1), (20.7, 27.3)), 1.5),
        (((0.0, 31.9), (16.0, 16.0), (31.5, 0.5)), 3.0),
    ],
)
def test_a_stroke_paints_the_pixels_within_its_radius(points, radius):
    got = stroke_mask(Stroke("blue", radius, points))
    ref = capsule_reference(points, radius)
    # sampling can only miss pixels right at the edge: compare away from it
    rows, cols = np.mgrid[0:32, 0:32] + 0.5
    pts = np.asarray(points)
    d = np.min([np.hypot(rows - p[0], cols - p[1]) for p in pts], axis=0)
    assert (got | ~ref).all()  # every sampled pixel is painted
    assert got.sum() - ref.sum() <= 2 and (got[d < radius - 0.05] == 1).all()


def test_a_drawing_is_its_background_then_its_strokes_in_order():
    red = Stroke("red", 2.0, ((10.0, 10.0), (10.0, 20.0)))
    yellow = Stroke("yellow", 1.0, ((10.0, 15.0), (20.0, 15.0)))
    on_picture = render_drawing(Picture("draw", 11, strokes=(red, yellow)))
    base = generate(11).image
    expected = base.copy()
    expected[stroke_mask(red)] = DRAW_COLOURS["red"]
    expected[stroke_mask(yellow)] = DRAW_COLOURS["yellow"]  # painted last: on top
    np.testing.assert_array_equal(on_picture, expected)
    plain = render_drawing(Picture("draw", 11, background="plain", strokes=(red,)))
    untouched = ~stroke_mask(red)
    np.testing.assert_allclose(plain[untouched], np.broadcast_to(PLAIN_BACKGROUND, plain[untouched].shape))


@pytest.mark.parametrize(
    "bad",
    [
        dict(variant="vgg"),
        dict(block="layer3"),
        dict(page="nowhere"),
        dict(channel=-1),
        dict(position=(1,)),
        dict(brush=99.0),
        dict(train_steps=0),
        dict(draw_colour="purple"),
    ],
)
def test_impossible_settings_are_refused(bad):
    with pytest.raises(ValueError):
        VisionSettings(**bad)


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"surprise": 1},
        {"picture": {"kind": "file"}},  # a file needs its path
        {"picture": {"kind": "draw", "strokes": [{"colour": "red", "radius": 2, "points": [["a", 1]]}]}},
        {"picture": {"kind": "draw", "strokes": [{"colour": "red", "radius": 2, "points": [[1e9, 1]]}]}},
        {"picture": {"seed": -3}},
        {"position": "3,4"},
    ],
)
def test_a_damaged_session_entry_is_a_value_error(data):
    with pytest.raises((ValueError, TypeError)):
        VisionSettings.from_dict(data)


def test_setters_notify_their_events_and_keep_the_selection_sensible():
    v = VisionState()
    events = []
    v.subscribe(lambda event, _s: events.append(event))
    v.select_position((2, 3))
    v.set_variant("residual")
    assert v.block == "block1" and v.position is None  # the residual block, a fresh position
    v.select_position((1, 1))
    v.generate(99)
    assert v.picture.seed == 99 and v.position is None  # another picture
    v.add_stroke(Stroke("red", 2.0, ((1.0, 1.0),)))
    assert v.picture.kind == "draw" and len(v.picture.strokes) == 1
    v.undo_stroke()
    assert v.picture.strokes == ()
    v.set_page("compare")
    assert v.compare
    assert events == ["position", "model", "position", "picture", "position", "picture", "picture", "page"]
    with pytest.raises(ValueError):
        v.subscribe(lambda *_: None, ("nonsense",))


def test_sessions_keep_the_vision_settings(tmp_path):
    state = ExplorerState()
    v = state.vision
    v.set_variant("se")
    v.set_block("block2")
    v.add_stroke(Stroke("cyan", 1.5, ((4.0, 4.0), (9.5, 12.25))))
    v.set_background("plain")
    v.select_channel(5)
    v.select_position((3, 6))
    v.set_page("channel")
    v.set_brush("blue", 3.0)
    v.set_training_plan(250, 4)
    path = tmp_path / "s.aexp.json"
    save_session(path, session_of(state))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["vision"]["picture"]["strokes"][0]["points"] == [[4.0, 4.0], [9.5, 12.25]]
    fresh = ExplorerState()
    apply_session(fresh, load_session(path))
    assert fresh.vision.settings == v.settings
    # an older file without the key opens with the defaults
    del data["vision"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_session(path).vision == VisionSettings()


def test_a_request_computes_what_run_model_computes():
    picture = Picture("generate", 1234)
    threads = torch.get_num_threads()
    result = compute(VisionRequest(picture, ModelChoice("cbam")))
    assert torch.get_num_threads() == threads  # one thread for the job, then the caller's again
    p = generate(1234)
    model, _ = load_shipped("cbam")
    reference = run_model(model, p.image, object_mask=p.mask, label=p.label)
    np.testing.assert_array_equal(result.trace.probabilities, reference.probabilities)
    np.testing.assert_array_equal(
        result.trace.stage("spatial_map", "block3"), reference.stage("spatial_map", "block3")
    )
    assert result.trace.label == p.label and result.trace.source == "generate:1234"


def test_a_snapshot_request_uses_the_snapshot_weights():
    config = VisionConfig(variant="se")
    model = build_model(config, seed=3)
    snap = snapshot_of(model, 0)
    picture = Picture("draw", 5, strokes=(Stroke("red", 3.0, ((16.0, 16.0),)),))
    result = compute(VisionRequest(picture, ModelChoice("se", run=1, step=0, config=config, snapshot=snap)))
    reference = run_model(model, make_picture(picture).pixels)
    np.testing.assert_array_equal(result.trace.logits, reference.logits)


def test_compare_runs_every_shipped_variant_on_the_same_picture():
    result = compare(Picture("generate", 8), ("plain", "se", "cbam"))
    assert list(result.traces) == ["plain", "se", "cbam"]
    for variant, trace in result.traces.items():
        assert trace.variant == variant
        np.testing.assert_array_equal(trace.image, generate(8).image)
    assert set(VARIANTS) >= set(result.traces)
