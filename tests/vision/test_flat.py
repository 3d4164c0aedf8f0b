"""Attention that says next to nothing: the shipped SE model's block3 weights all about 1, a
CBAM map faint everywhere on a drawing; the block whose channel weights differ most."""

import numpy as np

from explorer.appstate.vision import Picture, Stroke, render_drawing
from explorer.vision import flat
from explorer.vision.checkpoints import load_shipped
from explorer.vision.shapes import generate
from explorer.vision.trace import run_model


def test_the_rules_on_made_up_numbers():
    assert flat.is_flat(np.array([0.97, 0.99, 1.0])) and not flat.is_flat(np.array([0.2, 0.9]))
    assert flat.weight_range(np.array([0.5, 0.25, 0.75])) == (0.25, 0.75)
    assert flat.is_faint(np.full((8, 8), 0.05)) and not flat.is_faint(np.eye(8))


def test_the_shipped_se_block3_keeps_every_channel_alike_and_block2_does_not():
    model, _ = load_shipped("se")
    trace = run_model(model, generate(7).image)
    weights = {b.name: b.stages["channel_weights"] for b in trace.blocks}
    assert flat.is_flat(weights["block3"]) and not flat.is_flat(weights["block2"])
    spreads = {name: float(w.max() - w.min()) for name, w in weights.items()}
    assert flat.liveliest_block(trace) == max(spreads, key=spreads.get) == "block2"


def test_cbam_block3_on_a_drawing_is_faint_where_on_its_picture_it_is_not():
    model, _ = load_shipped("cbam")
    on_picture = run_model(model, generate(7).image).stage("spatial_map", "block3")
    drawing = Picture(kind="draw", seed=7, strokes=(Stroke("blue", 2.0, ((5.0, 20.0), (12.0, 26.0))),))
    drawn = run_model(model, render_drawing(drawing)).stage("spatial_map", "block3")
    assert not flat.is_faint(on_picture) and flat.is_faint(drawn)
    assert float(drawn.max()) < flat.FAINT_PEAK
