"""Reading pictures: conversions are exact and announced; every bad file is one message."""

import numpy as np
import pytest
from PIL import Image

from explorer.vision.images import ImageError, load_image, resize, to_rgb
from tests.vision.pictures import write_bad_pictures, write_unusual_pictures


def test_a_plain_rgb_picture_of_the_right_size_is_read_as_is(tmp_path):
    pixels = np.random.default_rng(2).integers(0, 256, (32, 32, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(tmp_path / "p.png")
    loaded = load_image(tmp_path / "p.png")
    np.testing.assert_array_equal(loaded.pixels, (pixels / 255.0).astype(np.float32))
    assert loaded.notices == [] and loaded.original_mode == "RGB"


def test_unusual_pictures_are_converted_with_notices(tmp_path):
    paths = write_unusual_pictures(tmp_path)
    grey = load_image(paths["grey"])
    source = np.asarray(Image.open(paths["grey"]), dtype=np.float32) / 255
    for c in range(3):
        np.testing.assert_allclose(grey.pixels[:, :, c], source, atol=1e-7)
    assert any("grey-scale" in n for n in grey.notices)

    grey16 = load_image(paths["grey16"])
    np.testing.assert_allclose(grey16.pixels[:, :, 0], source, atol=1e-6)

    rgba = load_image(paths["rgba"])
    raw = np.asarray(Image.open(paths["rgba"]), dtype=np.float64) / 255
    white = raw[:, :, :3] * raw[:, :, 3:] + (1 - raw[:, :, 3:])  # composited on white
    np.testing.assert_allclose(rgba.pixels, white, atol=1e-6)
    assert any("transparency" in n for n in rgba.notices)

    palette = load_image(paths["palette"])
    index = np.asarray(Image.open(paths["palette"]))
    assert np.all(palette.pixels[index == 3] == 1.0)  # the transparent colour became white
    np.testing.assert_allclose(palette.pixels[index == 0], [[1.0, 0.0, 0.0]] * int((index == 0).sum()))

    big = load_image(paths["big"])
    assert big.pixels.shape == (32, 32, 3) and big.original_size == (200, 300)
    assert any("resized from 200×300 to 32×32" in n and "stretched" in n for n in big.notices)


def test_box_resize_averages_the_pixels_each_output_pixel_covers():
    rgb = np.random.default_rng(3).random((64, 64, 3)).astype(np.float32)
    out, notice = resize(rgb, 32)
    np.testing.assert_allclose(out, rgb.reshape(32, 2, 32, 2, 3).mean(axis=(1, 3)), atol=1e-5)
    assert "64×64" in notice
    assert resize(rgb[:32, :32], 32)[1] is None


def test_to_rgb_takes_drawn_arrays():
    rgb, notices = to_rgb(np.full((4, 4), 128, dtype=np.uint8))
    assert rgb.shape == (4, 4, 3) and notices
    rgba = np.zeros((2, 2, 4))
    rgb, notices = to_rgb(rgba)  # fully transparent black → white
    assert np.all(rgb == 1.0)
    with pytest.raises(ImageError, match="H×W"):
        to_rgb(np.zeros((2, 2, 5)))


def test_every_bad_file_is_one_message(tmp_path):
    for name, (path, message) in write_bad_pictures(tmp_path).items():
        with pytest.raises(ImageError, match=message.replace("(", r"\(")) as caught:
            load_image(path)
        assert "\n" not in str(caught.value), name
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "absent.png")
    with pytest.raises(ImageError, match="not a file"):
        load_image(tmp_path)
