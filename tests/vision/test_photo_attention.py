"""Attention between a photo's own patches: the features by hand, the weights by the equation,
and a query finding what resembles it."""

import numpy as np
import pytest
from PIL import Image

from explorer.vision.images import ImageError
from explorer.vision.photo_attention import (
    FEATURES,
    PATCH,
    PHOTO_SIZE,
    load_photo,
    patch_features,
    photo_attention,
)


def _two_reds_and_a_blue() -> np.ndarray:
    """Grey noise with a red square top left, another red square bottom right, a blue one top right."""
    rng = np.random.default_rng(0)
    image = 0.5 + 0.05 * rng.standard_normal((64, 64, 3))
    image[0:16, 0:16] = (0.9, 0.1, 0.1)
    image[48:64, 48:64] = (0.9, 0.1, 0.1)
    image[0:16, 48:64] = (0.1, 0.1, 0.9)
    return np.clip(image, 0, 1).astype(np.float32)


def test_features_are_the_patch_statistics_written_out():
    image = _two_reds_and_a_blue()
    features = patch_features(image, 8)
    assert features.shape == (64, len(FEATURES))
    square = image[8:16, 16:24].astype(np.float64)  # row 1, column 2: patch 10
    brightness = 0.299 * square[..., 0] + 0.587 * square[..., 1] + 0.114 * square[..., 2]
    left_right = np.mean([abs(brightness[i, j + 1] - brightness[i, j]) for i in range(8) for j in range(7)])
    up_down = np.mean([abs(brightness[i + 1, j] - brightness[i, j]) for i in range(7) for j in range(8)])
    expected = [*square.mean(axis=(0, 1)), brightness.std(), left_right, up_down]
    np.testing.assert_allclose(features[10], expected, rtol=1e-6)


def test_weights_are_the_softmax_of_the_scaled_dot_products():
    result = photo_attention(_two_reds_and_a_blue())
    x = result.x.astype(np.float64)
    np.testing.assert_allclose(x.mean(axis=0), 0, atol=1e-6)
    np.testing.assert_allclose(x.std(axis=0), 1, atol=1e-5)
    scaled = x @ x.T / np.sqrt(len(FEATURES))
    expected = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(result.weights, expected, atol=1e-6)
    np.testing.assert_array_equal(result.q, result.x)
    np.testing.assert_array_equal(result.k, result.x)


def test_a_red_patch_looks_for_the_other_red_square():
    result = photo_attention(_two_reds_and_a_blue())
    query = result.patch_at(4, 4)  # inside the red square at the top left
    assert query == 0
    matches = result.matches(query)
    assert matches.shape == (8, 8)
    far_red = matches[6:8, 6:8].mean()  # the other red square, as far away as the picture allows
    blue = matches[0:2, 6:8].mean()
    grey = matches[3:5, 0:5].mean()
    assert far_red > 10 * blue and far_red > 10 * grey


def test_a_flat_picture_attends_uniformly():
    result = photo_attention(np.full((32, 32, 3), 0.3, dtype=np.float32))
    np.testing.assert_allclose(result.weights, 1 / 16)


def test_a_photo_file_is_resized_with_a_notice(tmp_path):
    path = tmp_path / "photo.jpg"
    Image.fromarray((_two_reds_and_a_blue() * 255).astype(np.uint8)).resize((200, 150)).save(path)
    result = load_photo(path)
    assert result.image.shape == (PHOTO_SIZE, PHOTO_SIZE, 3) and result.grid == PHOTO_SIZE // PATCH
    assert any("200×150" in n for n in result.notices)
    bad = tmp_path / "not.png"
    bad.write_bytes(b"no picture here")
    with pytest.raises(ImageError, match="not a"):
        load_photo(bad)


def test_impossible_pictures_are_refused():
    with pytest.raises(ValueError, match="multiple of 8"):
        photo_attention(np.zeros((30, 30, 3)))


def test_the_generated_default_picture_and_its_selected_patch():
    """The Photo page's picture before one is opened (trial 6 T2): drawn in numpy, square,
    in [0, 1], many colours; its selected patch (the house's red wall) finds the wall."""
    from explorer.vision.photo_attention import (
        DEFAULT_PATCH,
        PHOTO_SIZE,
        default_photo,
        default_picture,
    )

    image = default_picture()
    assert image.shape == (PHOTO_SIZE, PHOTO_SIZE, 3) and image.dtype == np.float32
    assert 0.0 <= image.min() and image.max() <= 1.0
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50  # a scene, not a flat square
    np.testing.assert_array_equal(default_picture(), image)  # the same picture every time
    shown = default_photo()
    expected = photo_attention(image)
    np.testing.assert_array_equal(shown.weights, expected.weights)
    row, col = DEFAULT_PATCH
    matches = shown.matches(row * shown.grid + col)
    p = shown.patch
    wall = image[row * p : (row + 1) * p, col * p : (col + 1) * p].reshape(-1, 3)
    assert np.allclose(wall, (0.75, 0.15, 0.12))  # the patch is all wall
    best = np.argsort(matches.ravel())[::-1][:6]  # its six best matches: wall patches too
    for k in best:
        r, c = divmod(int(k), shown.grid)
        block = image[r * p : (r + 1) * p, c * p : (c + 1) * p].reshape(-1, 3)
        assert np.allclose(block, (0.75, 0.15, 0.12)), (r, c)
