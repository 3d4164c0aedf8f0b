"""The data experiment's figure as a PNG, drawn with Pillow (no Qt): held-out accuracy against
training-set size, one curve per model (the mean over seeds; each seed a dot), chance marked,
and the caption underneath. Plain and readable: large type, two colours that differ in
lightness as well as hue, values written beside the points."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from explorer.atomic import atomic_write
from explorer.vision.data_curve import CurveResult

WIDTH, HEIGHT = 1200, 960
PLOT = (130, 90, 1140, 600)  # left, top, right, bottom of the axes
COLOURS = {"cnn": (0, 90, 181), "vit": (230, 120, 0)}  # dark blue, orange
NAMES = {"cnn": "CNN (CBAM)", "vit": "Vision Transformer"}
INK, GRID, PAPER = (20, 20, 20), (215, 215, 215), (255, 255, 255)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def draw_curve(result: CurveResult, classes: int = 8) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = PLOT
    sizes = result.sizes()
    lo, hi = math.log10(sizes[0]), math.log10(sizes[-1])
    pad = 0.12 * (hi - lo or 1.0)

    def x_of(size: int) -> float:
        return left + (math.log10(size) - lo + pad) / (hi - lo + 2 * pad) * (right - left)

    def y_of(accuracy: float) -> float:
        return bottom - accuracy * (bottom - top)

    draw.text((left, 28), "Held-out accuracy against training-set size", fill=INK, font=_font(34))
    for tenth in range(11):
        y = y_of(tenth / 10)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        if tenth % 2 == 0:
            draw.text((left - 14, y), f"{tenth * 10}%", fill=INK, font=_font(24), anchor="rm")
    chance = 1 / classes
    for dash in range(left, right, 16):
        draw.line([(dash, y_of(chance)), (dash + 8, y_of(chance))], fill=(120, 120, 120), width=2)
    draw.text(
        (right - 6, y_of(chance) - 6),
        f"chance (1 in {classes})",
        fill=(90, 90, 90),
        font=_font(22),
        anchor="rb",
    )
    draw.rectangle([left, top, right, bottom], outline=INK, width=2)
    for size in sizes:
        draw.line([(x_of(size), bottom), (x_of(size), bottom + 8)], fill=INK, width=2)
        draw.text((x_of(size), bottom + 14), f"{size:,}", fill=INK, font=_font(26), anchor="ma")
    draw.text(
        ((left + right) / 2, bottom + 50),
        "training pictures (log scale)",
        fill=INK,
        font=_font(26),
        anchor="ma",
    )

    for index, model in enumerate(("cnn", "vit")):
        colour = COLOURS[model]
        points = [(x_of(n), y_of(result.mean_accuracy(model, n))) for n in sizes if result.of(model, n)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=5)
        for n in sizes:
            for run in result.of(model, n):
                x, y = x_of(n) + (run.seed - 1) * 9, y_of(run.accuracy)
                draw.ellipse([x - 4, y - 4, x + 4, y + 4], outline=colour, width=2)
        for (x, y), n in zip(points, [n for n in sizes if result.of(model, n)]):
            draw.ellipse([x - 9, y - 9, x + 9, y + 9], fill=colour)
            below = model == "vit"
            draw.text((x + 16, y + (14 if below else -14)), f"{100 * result.mean_accuracy(model, n):.0f}%",
                      fill=colour, font=_font(26), anchor="lt" if below else "lb")  # fmt: skip
        ly = top + 24 + 38 * index
        draw.line([(left + 24, ly), (left + 74, ly)], fill=colour, width=5)
        draw.ellipse([left + 40, ly - 9, left + 58, ly + 9], fill=colour)
        seeds = len(result.seeds())
        label = f"{NAMES[model]}: " + (
            "one seed" if seeds == 1 else f"mean of {seeds} seeds (dots: each seed)"
        )
        draw.text((left + 88, ly), label, fill=INK, font=_font(24), anchor="lm")

    caption = textwrap.wrap(str(result.caption()), width=88)
    for number, line in enumerate(caption):
        draw.text((left - 60, bottom + 100 + 32 * number), line, fill=INK, font=_font(24))
    return image


def save_curve_png(result: CurveResult, path: str | Path) -> None:
    image = draw_curve(result)
    atomic_write(Path(path), lambda f: image.save(f, format="PNG"), "wb")
