"""Picture files for the tests: good ones made with Pillow, bad ones written byte by byte."""

import struct
import zlib

import numpy as np
from PIL import Image


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares width × height RGB pixels but carries almost no pixel data."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def write_bad_pictures(folder):
    """name → path of every kind of bad file the vision command must refuse."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    good = folder / "good.png"
    Image.fromarray(rng.integers(0, 256, (40, 40, 3), dtype=np.uint8)).save(good)
    data = good.read_bytes()
    files = {
        "text": (b"this is not a picture\n", "not a PNG, JPEG, BMP or GIF image"),
        "empty": (b"", "empty"),
        "zero": (png_header_only(0, 0), "0×0 pixels"),
        "huge": (png_header_only(10_000, 10_000), "10,000×10,000 pixels is too large"),
        "large": (png_header_only(6_000, 6_000), "6,000×6,000 pixels is too large"),
        "truncated": (data[: len(data) // 2], "truncated or damaged"),
        "broken_header": (data[:20], "damaged"),
    }
    out = {}
    for name, (content, message) in files.items():
        path = folder / f"{name}.png"
        path.write_bytes(content)
        out[name] = (path, message)
    return out


def write_unusual_pictures(folder):
    """Valid pictures that need converting: grey, 16-bit grey, RGBA, palette with transparency, big."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(1)
    paths = {}
    grey = rng.integers(0, 256, (32, 32), dtype=np.uint8)
    Image.fromarray(grey, mode="L").save(folder / "grey.png")
    paths["grey"] = folder / "grey.png"
    Image.fromarray(grey.astype(np.uint16) * 257).save(folder / "grey16.png")
    paths["grey16"] = folder / "grey16.png"
    rgba = rng.integers(0, 256, (32, 32, 4), dtype=np.uint8)
    Image.fromarray(rgba, mode="RGBA").save(folder / "rgba.png")
    paths["rgba"] = folder / "rgba.png"
    palette = Image.fromarray(rng.integers(0, 4, (32, 32), dtype=np.uint8), mode="P")
    palette.putpalette([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9] + [0] * 756)
    palette.info["transparency"] = 3
    palette.save(folder / "palette.png", transparency=3)
    paths["palette"] = folder / "palette.png"
    Image.fromarray(rng.integers(0, 256, (300, 200, 3), dtype=np.uint8)).save(folder / "big.png")
    paths["big"] = folder / "big.png"
    return paths
