"""The lean heatmap: matrix panels painted with QPainter, one drawing path for every view.

- ``MatrixPanel``: one matrix with its token axes, colours, title, masked cells (no widget);
- ``Figure``: panels in a grid, with selection, frames, shared or per-panel colour bars;
- ``MatrixCanvas``: the widget that shows a figure (hover, click, double-click);
- ``render_image`` / ``render_svg``: the same figure painted off-screen, for export;
- ``Style``: the font and colours (``Style.make(font_px, fg, bg, accent)``).
"""

from explorer.gui.heatmap.canvas import MatrixCanvas, render_image, render_svg
from explorer.gui.heatmap.colours import colour_map_for, symmetric_levels
from explorer.gui.heatmap.figure import Figure, Mark, Style
from explorer.gui.heatmap.panel import MatrixPanel, cell_value_text, format_value

__all__ = [
    "Figure",
    "Mark",
    "MatrixCanvas",
    "MatrixPanel",
    "Style",
    "cell_value_text",
    "colour_map_for",
    "format_value",
    "render_image",
    "render_svg",
    "symmetric_levels",
]
