"""The engineer trial's API leftovers (issue 23): pictures given as arrays are read by their type
(never clipped silently), and the returned objects' methods refuse with ExplorerError, as the
functions do."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import numpy as np
import pytest

import explorer
from explorer.core.trace import AttentionTrace
from explorer.vision.trace import VisionTrace


@pytest.fixture(scope="module")
def traces():
    return {
        "trace": explorer.trace("the cat sat", weights="random", d_model=16, all_layers=False),
        "translate": explorer.translate("9 May 2018"),
        "vision": explorer.vision(generate=3, model="plain"),
    }


def test_a_uint16_picture_is_scaled_not_clipped_to_white():
    rng = np.random.default_rng(1)
    picture = (rng.random((32, 32, 3)) * 255).astype(np.uint8)
    as_uint16 = picture.astype(np.uint16) * 257  # 255 → 65535: the same picture, 16 bits deep
    as_bool = explorer.vision(picture > 127, model="plain")
    assert explorer.vision(as_uint16, model="plain").image == pytest.approx(
        explorer.vision(picture, model="plain").image, abs=1e-6
    )
    assert set(np.unique(as_bool.image)) <= {0.0, 1.0} and as_bool.image.min() == 0.0


@pytest.mark.parametrize(
    ("picture", "key", "words"),
    [
        (np.full((8, 8, 3), 2.0), "api.picture_range", "from 0 to 1, not 2 to 2"),
        (np.linspace(-0.5, 1, 64).reshape(8, 8), "api.picture_range", "from 0 to 1, not -0.5 to 1"),
        (np.full((8, 8), np.nan, dtype=np.float32), "vision.array_not_finite", "64 of them are NaN"),
        (np.full((8, 8, 3), 128), "api.picture_dtype", "a picture of int64 numbers: give uint8"),
        (np.zeros((8, 8), dtype=np.complex64), "api.picture_dtype", "complex64"),
    ],
)
def test_a_picture_outside_what_its_type_holds_is_refused(picture, key, words):
    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.vision(picture, model="plain")
    assert caught.value.key == key and words in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("name", ["trace", "translate", "vision"])
@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("x.txt", "must end in .json or .npz"),
        ("missing/x.json", "does not exist"),
        (5, "path must be a path"),
    ],
)
def test_save_refuses_with_the_apis_one_error(traces, name, path, words, tmp_path):
    target = path if isinstance(path, int) else tmp_path / path
    with pytest.raises(explorer.ExplorerError) as caught:
        traces[name].save(target)
    assert words in str(caught.value)
    assert list(tmp_path.iterdir()) == []  # no folder made, no file left


def test_a_folder_the_system_will_not_write_in_is_one_line(traces):
    target = Path("/proc/explorer-api-test.json")  # refused even to root
    if not target.parent.is_dir():
        pytest.skip("no /proc here")
    with pytest.raises(explorer.ExplorerError) as caught:
        traces["trace"].save(target)
    assert str(caught.value).startswith(f"cannot write {target}: ")


def test_readers_refuse_with_the_apis_one_error(traces):
    with pytest.raises(explorer.ExplorerError, match="no block 'block9'"):
        traces["vision"].block("block9")
    with pytest.raises(explorer.ExplorerError, match="no 'self' attention"):
        traces["translate"].attention_trace("self")


def test_a_guarded_trace_is_still_its_own_class(traces, tmp_path):
    t = traces["trace"]
    assert isinstance(t, AttentionTrace) and type(t).__name__ == "AttentionTrace"
    assert repr(t).startswith("<AttentionTrace: ")
    for again in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t)):
        assert type(again) is AttentionTrace
        np.testing.assert_array_equal(again.weights, t.weights)
    v = pickle.loads(pickle.dumps(traces["vision"]))
    assert type(v) is VisionTrace and v.prediction == traces["vision"].prediction
    t.save(tmp_path / "t.json")  # the guards pass good calls through
    traces["translate"].save(path=tmp_path / "t.npz")
    assert (tmp_path / "t.json").stat().st_size > 0 and (tmp_path / "t.npz").stat().st_size > 0


def test_save_reads_a_home_path_as_the_shell_does(traces, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path / "..")
    traces["vision"].save("~/v.json")
    assert (tmp_path / "v.json").is_file() and not (tmp_path / ".." / "~").exists()
