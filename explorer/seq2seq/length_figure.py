"""The length figure as a PNG, drawn with Pillow (no Qt, so the command runs anywhere; ASCII
texts only: Pillow's built-in font has no ≤ or —).

Two panels, per-word accuracy and exact match against sentence length, one line per model
(its parameter count in the legend), the ≤ SHORT and ≥ LONG regions shaded; the numbers
themselves ride along in the PNG as a text chunk ``length-curve`` (the result's JSON).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin

from explorer.atomic import atomic_write
from explorer.seq2seq.length_curve import LONG, SHORT
from explorer.seq2seq.length_result import LengthResult

SIZE = (1280, 640)
COLOURS = [(213, 94, 0), (0, 114, 178), (0, 158, 115), (204, 121, 167), (86, 180, 233)]  # Okabe–Ito
INK, GRID, SHADE = (30, 30, 30), (215, 215, 215), (244, 244, 236)
MARKER = 5


def _font(size: int):
    return ImageFont.load_default(size=size)


def draw_length_figure(result: LengthResult, step: int | None = None) -> Image.Image:
    """The figure at the last evaluation (or at ``step``, one of the evaluations)."""
    curves = result.final if step is None else dict(result.evaluations)[step]
    shown_step = result.evaluations[-1][0] if step is None else step
    image = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(image)
    title, small = _font(26), _font(18)
    draw.text(
        (40, 18), f"Accuracy against sentence length: {result.task}, step {shown_step}", fill=INK, font=title
    )
    longest = max(max(c.lengths) for c in curves.values() if c.lengths)
    x_max = max(10, int(-(-longest // 10) * 10))
    panels = (("per-word accuracy", "word_accuracy"), ("exact match", "exact_match"))
    width = (SIZE[0] - 120) // 2
    for p, (label, field) in enumerate(panels):
        box = (70 + p * (width + 40), 80, 70 + p * (width + 40) + width - 40, SIZE[1] - 150)
        _panel(draw, box, x_max, label, small)
        for m, curve in enumerate(curves.values()):
            points = [_at(box, x_max, x, y) for x, y in zip(curve.lengths, getattr(curve, field))]
            colour = COLOURS[m % len(COLOURS)]
            if len(points) > 1:
                draw.line(points, fill=colour, width=4)
            for x, y in points:
                draw.ellipse((x - MARKER, y - MARKER, x + MARKER, y + MARKER), fill=colour)
    legend_y = SIZE[1] - 90
    for m, name in enumerate(curves):
        colour = COLOURS[m % len(COLOURS)]
        x = 70 + m * 600
        draw.line((x, legend_y + 11, x + 40, legend_y + 11), fill=colour, width=5)
        params = result.parameters.get(name, 0)
        seconds = result.cpu_seconds.get(name)
        text = f"{name}: {params:,} parameters" + (f", {seconds:.0f} CPU s" if seconds is not None else "")
        draw.text((x + 52, legend_y), text, fill=INK, font=small)
    draw.text(
        (70, SIZE[1] - 48),
        f"held-out sentences; shaded: <= {SHORT} and >= {LONG} words; {result.steps} steps, seed {result.seed}",
        fill=INK,
        font=small,
    )
    return image


def _at(box, x_max: float, x: float, y: float) -> tuple[float, float]:
    left, top, right, bottom = box
    return left + (right - left) * x / x_max, bottom - (bottom - top) * y


def _panel(draw: ImageDraw.ImageDraw, box, x_max: int, label: str, font) -> None:
    left, top, right, bottom = box
    short_right = _at(box, x_max, SHORT, 0)[0]
    long_left = _at(box, x_max, LONG, 0)[0]
    draw.rectangle((left, top, short_right, bottom), fill=SHADE)
    draw.rectangle((long_left, top, right, bottom), fill=SHADE)
    for tenth in range(0, 11, 2):
        y = _at(box, x_max, 0, tenth / 10)[1]
        draw.line((left, y, right, y), fill=GRID, width=1)
        draw.text((left - 8, y), f"{tenth / 10:.1f}", fill=INK, font=font, anchor="rm")
    for x_value in range(0, x_max + 1, 10):
        x = _at(box, x_max, x_value, 0)[0]
        draw.line((x, bottom, x, bottom + 6), fill=INK, width=2)
        draw.text((x, bottom + 10), str(x_value), fill=INK, font=font, anchor="mt")
    draw.rectangle(box, outline=INK, width=2)
    draw.text(((left + right) / 2, top - 8), label, fill=INK, font=font, anchor="mb")
    draw.text(((left + right) / 2, bottom + 34), "source words", fill=INK, font=font, anchor="mt")


def save_length_png(result: LengthResult, path: str | Path, step: int | None = None) -> None:
    """The figure, with the result's numbers in a ``length-curve`` text chunk."""
    info = PngImagePlugin.PngInfo()
    info.add_itxt("length-curve", json.dumps(result.to_dict(), ensure_ascii=False))
    buffer = io.BytesIO()
    draw_length_figure(result, step).save(buffer, format="PNG", pnginfo=info)
    atomic_write(Path(path), lambda f: f.write(buffer.getvalue()), "wb")
