"""The shipped runs' training histories (explorer.lab.history): every file read, its numbers
finite, its shape the run's own (a loss a step, a value of each metric at each evaluation),
and a file written and read back the same."""

import math
import re
from pathlib import Path

import pytest

from explorer.lab.history import History, history_path, read_history, shipped_history, write_history
from explorer.resources import resource_path

SHIPPED = sorted(resource_path().rglob("*.history.json"))
# the checkpoints whose lab draws the shipped run's curves (explorer.gui.lab.shipped)
DRAWN = (
    [resource_path("vision", f"{v}.safetensors") for v in ("cbam", "se", "plain", "residual")]
    + [resource_path("lm", t, "model.safetensors") for t in ("induction", "text")]
    + [
        resource_path("seq2seq", p, "model.safetensors")
        for p in ("bahdanau-additive", "luong-general", "transformer-scaled-dot")
    ]
    + [resource_path("vision", "curve", "vit-100.safetensors")]  # the ViT vs CNN page, on 100 pictures
)


def test_every_drawn_checkpoint_has_its_history_beside_it():
    assert {history_path(w) for w in DRAWN} <= set(SHIPPED)
    for weights in DRAWN:
        assert weights.is_file() and shipped_history(weights) is not None, weights


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(resource_path())))
def test_a_shipped_history_reads_and_its_values_are_finite(path: Path):
    h = read_history(path)
    assert h.command.startswith("python -m explorer ")
    # a loss for every step the command trained (the data experiment's: --steps-vit, --steps-cnn)
    assert re.search(rf"--steps(-vit|-cnn)? {h.steps}\b", h.command), h.command
    assert h.steps > 0 and all(math.isfinite(v) for v in h.losses)
    assert list(h.eval_steps) == sorted(set(h.eval_steps)) and 0 < h.eval_steps[-1] <= h.steps
    assert h.metrics
    for name, values in h.metrics.items():
        assert len(values) == len(h.eval_steps), name
        assert all(math.isfinite(v) for v in values), name
    assert 0.0 <= h.weights_apart < 0.05  # how far its re-run's weights were from the shipped ones
    assert path.stat().st_size < 40_000


def test_a_history_written_reads_back_the_same(tmp_path):
    weights = tmp_path / "m.safetensors"
    h = History("python -m explorer x", (2.5, 1.25, float("nan")), (2,), {"acc": (0.5,)}, 0.0)
    assert write_history(weights, h) == tmp_path / "m.history.json"
    back = read_history(tmp_path / "m.history.json")
    assert back.losses[:2] == (2.5, 1.25) and math.isnan(back.losses[2])
    assert (back.eval_steps, back.metrics, back.command) == ((2,), {"acc": (0.5,)}, h.command)
    assert shipped_history(weights) == back
    assert shipped_history(tmp_path / "none.safetensors") is None
