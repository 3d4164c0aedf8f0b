"""Reading a picture for the vision models safely: one message for each way a file can be bad.

``load_image(path)`` → LoadedImage (pixels [size, size, 3] float32 in [0, 1], notices), or an
ImageError whose text is one line for the user:

- not a file, unreadable, over MAX_FILE_BYTES, or not a PNG / JPEG / BMP / GIF → refused;
- 0 pixels wide or high → refused;
- more than MAX_PIXELS pixels → refused from the header alone, before any pixel is decoded
  (a small file can declare 10,000 × 10,000 pixels and expand to gigabytes: a decompression
  bomb); Pillow's own bomb warning is turned into the same refusal;
- truncated or damaged pixel data → refused (Pillow is never told to accept truncated files).

Pictures that are merely unusual are converted, each with a notice, never refused: grey-scale
(one channel copied to R, G and B; 16-bit grey scaled from 0-65535), transparency (RGBA, grey
with alpha, palettes with a transparent colour: composited on white), palettes and CMYK (to
RGB), animations (the first frame), and any size (resized to the model's input with a box
filter: each output pixel averages the input pixels it covers; a non-square picture is
stretched). ``to_rgb`` applies the same conversions to an array (e.g. a drawn canvas), and
refuses one holding NaN or infinities (no colour stands for them).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from explorer import reading
from explorer.finite import count_non_finite
from explorer.messages import Message, MessageError
from explorer.vision.shapes import IMAGE_SIZE

FORMATS = ("PNG", "JPEG", "BMP", "GIF")
MAX_PIXELS = 25_000_000  # 5,000 × 5,000: every photo camera's, not a bomb's
MAX_FILE_BYTES = 100 * 1024 * 1024


class ImageError(MessageError, ValueError):
    """A user-facing, one-line message about a picture that cannot be used (a ``vision.*`` key)."""


@dataclass
class LoadedImage:
    pixels: np.ndarray  # [size, size, 3] float32 in [0, 1]
    original_size: tuple[int, int]  # (width, height) in the file
    original_mode: str  # Pillow's mode in the file: RGB, RGBA, L, P, I;16, ...
    notices: list[Message] = field(default_factory=list)


def photo_caveat() -> Message:
    """Said beside a trained model's output on a loaded picture: the models know only generated shapes."""
    return Message.of("vision.trained_on_shapes")


def load_image(path: str | Path, size: int = IMAGE_SIZE) -> LoadedImage:
    path = reading.user_path(path, "--image", ImageError)  # "": no picture, not the current folder
    if not reading.present(path, ImageError):  # a loop, a folder on the way that cannot be read: said so
        raise ImageError.of("vision.no_file", path=str(path))
    if not path.is_file():
        raise ImageError.of("vision.not_a_file", path=str(path))
    try:
        n_bytes = path.stat().st_size
    except OSError as exc:
        raise ImageError.of("vision.unreadable", path=str(path), reason=exc.strerror or str(exc)) from None
    if n_bytes == 0:
        raise ImageError.of("vision.empty_file", path=str(path))
    if n_bytes > MAX_FILE_BYTES:
        raise ImageError.of(
            "vision.file_too_large", path=str(path), megabytes=n_bytes / 2**20, limit=MAX_FILE_BYTES // 2**20
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            picture = Image.open(path, formats=FORMATS)
        except UnidentifiedImageError:
            declared = declared_size(path)
            if declared is not None and 0 in declared:
                raise _empty(path, *declared) from None
            raise ImageError.of(
                "vision.not_an_image", path=str(path), formats=", ".join(FORMATS[:-1]), last=FORMATS[-1]
            ) from None
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            declared = declared_size(path)
            if declared is not None:
                raise _too_large(path, *declared) from None
            raise ImageError.of("vision.bomb", path=str(path)) from None
        except PermissionError as exc:
            raise ImageError.of(
                "vision.unreadable", path=str(path), reason=exc.strerror or str(exc)
            ) from None
        except (OSError, SyntaxError, ValueError, EOFError) as exc:
            raise ImageError.of("vision.damaged_header", path=str(path), reason=_reason(exc)) from None
        with picture:
            width, height = picture.size
            if width < 1 or height < 1:
                raise _empty(path, width, height)
            if width * height > MAX_PIXELS:
                raise _too_large(path, width, height)
            notices = []
            frames = getattr(picture, "n_frames", 1)
            if frames > 1:
                notices.append(Message.of("vision.animation", frames=frames))
            try:
                picture.load()
                mode = picture.mode
                array = _array_of(picture)
            except (OSError, SyntaxError, ValueError, EOFError) as exc:
                reason = _reason(exc)
                if reason.startswith("image file is truncated"):  # Pillow's words for a file cut short
                    raise ImageError.of("vision.truncated", path=str(path)) from None
                raise ImageError.of("vision.damaged_data", path=str(path), reason=reason) from None
    rgb, converted = to_rgb(array)
    resized, resize_notice = resize(rgb, size)
    notices += converted + ([resize_notice] if resize_notice else [])
    return LoadedImage(resized, (width, height), mode, notices)


def _empty(path: Path, width: int, height: int) -> ImageError:
    return ImageError.of("vision.no_pixels", path=str(path), width=width, height=height)


def _too_large(path: Path, width: int, height: int) -> ImageError:
    return ImageError.of(
        "vision.too_many_pixels", path=str(path), width=width, height=height, limit=MAX_PIXELS
    )


def declared_size(path: Path) -> tuple[int, int] | None:
    """(width, height) as a PNG, GIF or BMP header declares it, read from the first bytes only.

    For messages about files Pillow refuses before saying their size (0×0, bombs)."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
    except OSError:
        return None
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR" and len(head) >= 24:
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        return int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")
    if head.startswith(b"BM") and len(head) >= 26:
        width = int.from_bytes(head[18:22], "little", signed=True)
        height = int.from_bytes(head[22:26], "little", signed=True)
        return abs(width), abs(height)
    return None


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _array_of(picture: Image.Image) -> np.ndarray:
    """Pixels as float in [0, 1]: [H, W] grey, [H, W, 2] grey + alpha, [H, W, 3] RGB or [H, W, 4] RGBA."""
    mode = picture.mode
    if mode in ("I;16", "I;16L", "I;16B", "I;16N", "I"):
        return np.clip(np.asarray(picture, dtype=np.float64) / 65535.0, 0.0, 1.0)
    if mode == "F":
        return np.clip(np.asarray(picture, dtype=np.float64), 0.0, 1.0)
    if mode == "1":
        return np.asarray(picture, dtype=np.float64)
    if mode == "P":
        picture = picture.convert("RGBA" if "transparency" in picture.info else "RGB")
    elif mode not in ("L", "LA", "RGB", "RGBA"):
        has_alpha = "A" in mode or "a" in mode or "transparency" in picture.info
        picture = picture.convert("RGBA" if has_alpha else "RGB")
    return np.asarray(picture, dtype=np.float64) / 255.0


def to_rgb(array: np.ndarray) -> tuple[np.ndarray, list[Message]]:
    """[H, W], [H, W, 1|2|3|4] in [0, 1] (or uint8) → [H, W, 3] float32, and what was converted."""
    a = np.asarray(array)
    if a.dtype == np.uint8:
        a = a / 255.0
    if a.dtype.kind not in "biuf":  # complex numbers, text, objects: no picture
        raise ImageError.of("vision.array_shape", shape=f"{'×'.join(map(str, a.shape))} {a.dtype}")
    a = a.astype(np.float64)
    bad = count_non_finite(a)
    if bad:  # no colour stands for NaN: a black (or clipped) picture would be classified confidently
        raise ImageError.of("vision.array_not_finite", count=bad)
    if a.ndim == 2:
        a = a[:, :, None]
    if a.ndim != 3 or a.shape[2] not in (1, 2, 3, 4) or a.shape[0] < 1 or a.shape[1] < 1:
        raise ImageError.of("vision.array_shape", shape="×".join(map(str, a.shape)))
    a = np.clip(a, 0.0, 1.0)
    notices = []
    colour, alpha = (a[:, :, :-1], a[:, :, -1:]) if a.shape[2] in (2, 4) else (a, None)
    if colour.shape[2] == 1:
        colour = np.repeat(colour, 3, axis=2)
        notices.append(Message.of("vision.grey"))
    if alpha is not None:
        if (alpha < 1).any():
            notices.append(Message.of("vision.transparency"))
        colour = colour * alpha + (1.0 - alpha)
    return colour.astype(np.float32), notices


def resize(rgb: np.ndarray, size: int) -> tuple[np.ndarray, Message | None]:
    """[H, W, 3] → [size, size, 3] with a box filter; the notice says what changed (None: nothing)."""
    height, width = rgb.shape[:2]
    if (height, width) == (size, size):
        return rgb.astype(np.float32), None
    channels = [
        np.asarray(
            Image.fromarray(rgb[:, :, c].astype(np.float32)).resize((size, size), Image.Resampling.BOX)
        )
        for c in range(3)
    ]
    out = np.clip(np.stack(channels, axis=2), 0.0, 1.0).astype(np.float32)
    key = "vision.resized" if width == height else "vision.resized_stretched"
    return out, Message.of(key, width=width, height=height, size=size)
