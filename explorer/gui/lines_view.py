"""The lines view: queries on one row, keys on another, a line as thick as each weight.

Read from the back of a classroom, a line between "it" and "animal" says more than a cell
in a heatmap. One head draws in one colour; several heads overlay, each in its own
colour-blind-safe colour. Hovering or selecting a token brings its lines forward and fades
the rest. The same widget serves the Pipeline (tokens × tokens) and the Translation tab
(output characters above, source characters below).

The geometry (where each token sits, which lines exist and how thick) is computed by plain
functions, so tests check numbers, and painting only draws what they return.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6 import QtCore, QtGui, QtSvg, QtWidgets

# Okabe–Ito: distinguishable with every common colour-vision deficiency.
HEAD_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
MIN_WEIGHT = 0.02  # lighter lines are drawn only for the focused token: they are clutter otherwise
MAX_LINE_PX = 14.0
MAX_LINES_PER_ROW = 12  # long inputs: a row's heaviest lines say what it attends to
FADED_ALPHA = 0.12


@dataclass(frozen=True)
class Segment:
    """One line: from query ``row`` on the top row to key ``col`` on the bottom row."""

    head: int
    row: int
    col: int
    weight: float
    width_px: float


def token_centres(count: int, left: float, right: float) -> np.ndarray:
    """Equal slots across [left, right], a token at the centre of each."""
    if count <= 0:
        return np.zeros(0)
    slot = (right - left) / count
    return left + slot * (np.arange(count) + 0.5)


def segments(
    weights: np.ndarray, focus_row: int | None = None, focus_col: int | None = None
) -> list[Segment]:
    """The lines to draw for weights [heads, n_top, n_bottom], lightest first (heaviest on top).

    A line's width is proportional to its weight (MAX_LINE_PX at weight 1). Lines under
    MIN_WEIGHT are left out, and a row keeps at most MAX_LINES_PER_ROW lines per head, except
    for a focused token, whose lines all show.
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim == 2:
        w = w[None]
    w = np.where(np.isfinite(w), w, 0.0)
    keep = w >= MIN_WEIGHT
    if w.shape[2] > MAX_LINES_PER_ROW:  # only each row's heaviest lines
        kth = np.partition(w, -MAX_LINES_PER_ROW, axis=2)[:, :, -MAX_LINES_PER_ROW][:, :, None]
        keep &= w >= kth
    if focus_row is not None and 0 <= focus_row < w.shape[1]:
        keep[:, focus_row, :] = w[:, focus_row, :] > 0
    if focus_col is not None and 0 <= focus_col < w.shape[2]:
        keep[:, :, focus_col] = w[:, :, focus_col] > 0
    heads, rows, cols = np.nonzero(keep)
    values = w[heads, rows, cols]
    order = np.argsort(values, kind="stable")
    widths = np.maximum(0.75, MAX_LINE_PX * np.minimum(values, 1.0))
    return [
        Segment(int(heads[k]), int(rows[k]), int(cols[k]), float(values[k]), float(widths[k])) for k in order
    ]


def elide(text: str, metrics: QtGui.QFontMetricsF, width: float) -> str:
    return metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideRight, max(width, 8.0))


class LinesView(QtWidgets.QWidget):
    """Two rows of tokens joined by weighted lines. Signals the (row, col) a user clicks."""

    cellClicked = QtCore.Signal(int, int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setMinimumSize(240, 160)
        self._top: list[str] = []
        self._bottom: list[str] = []
        self._weights = np.zeros((1, 0, 0))
        self._heads: list[int] = [0]
        self._selected: tuple[int, int] | None = None
        self._hover: tuple[str, int] | None = None  # ("top" | "bottom", index)
        self._font_px = 0
        self._fg = QtGui.QColor("#000000")
        self._bg = QtGui.QColor("#ffffff")
        self._title = ""
        self._captions = ("", "")

    # -- data and style --------------------------------------------------------
    def set_data(
        self,
        top_tokens: list[str],
        bottom_tokens: list[str],
        weights: np.ndarray,
        heads: list[int] | None = None,
        title: str = "",
        captions: tuple[str, str] = ("", ""),
    ) -> None:
        """weights: [n_top, n_bottom] for one head or [heads, n_top, n_bottom] overlaid;
        ``heads`` names the heads drawn (their colours follow the head number)."""
        w = np.asarray(weights, dtype=np.float32)
        if w.ndim == 2:
            w = w[None]
        if w.shape[1:] != (len(top_tokens), len(bottom_tokens)):
            raise ValueError(
                f"weights {w.shape} do not match {len(top_tokens)} × {len(bottom_tokens)} tokens"
            )
        self._top, self._bottom, self._weights = list(top_tokens), list(bottom_tokens), w
        self._heads = list(heads) if heads is not None else list(range(w.shape[0]))
        self._title, self._captions = title, captions
        if self._selected is not None and not (
            self._selected[0] < len(self._top) and self._selected[1] < len(self._bottom)
        ):
            self._selected = None
        self.update()

    def set_selection(self, cell: tuple[int, int] | None) -> None:
        self._selected = cell
        self.update()

    def set_style(self, font_px: int = 0, foreground: str = "#000000", background: str = "#ffffff") -> None:
        self._font_px, self._fg, self._bg = font_px, QtGui.QColor(foreground), QtGui.QColor(background)
        self.update()

    # -- geometry ----------------------------------------------------------------
    def _font(self) -> QtGui.QFont:
        font = QtGui.QFont(self.font())
        if self._font_px:
            font.setPixelSize(self._font_px)
        return font

    def _layout(self, width: float, height: float) -> dict:
        metrics = QtGui.QFontMetricsF(self._font())
        line_h = metrics.height()
        margin = 8.0
        top_title = line_h * 1.4 if self._title else 0.0
        caption_w = max((metrics.horizontalAdvance(c) for c in self._captions if c), default=0.0)
        left = margin + (caption_w + margin if caption_w else 0.0)
        right = width - margin
        y_top = margin + top_title + line_h  # baseline band of the top tokens
        y_bottom = height - margin - line_h * 0.3
        return {
            "metrics": metrics,
            "line_h": line_h,
            "left": left,
            "right": right,
            "x_top": token_centres(len(self._top), left, right),
            "x_bottom": token_centres(len(self._bottom), left, right),
            "y_top_text": y_top,
            "y_bottom_text": y_bottom,
            "y_top_line": y_top + line_h * 0.35,
            "y_bottom_line": y_bottom - line_h * 1.05,
        }

    def _focus(self) -> tuple[int | None, int | None]:
        if self._hover is not None:
            side, index = self._hover
            return (index, None) if side == "top" else (None, index)
        if self._selected is not None:
            return self._selected[0], None
        return None, None

    # -- painting ---------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        painter = QtGui.QPainter(self)
        self.paint_into(painter, self.width(), self.height())
        painter.end()

    def paint_into(self, painter: QtGui.QPainter, width: float, height: float) -> None:
        """Draw the whole view at any size: the screen, an image or an SVG use this."""
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        painter.fillRect(QtCore.QRectF(0, 0, width, height), self._bg)
        painter.setFont(self._font())
        geo = self._layout(width, height)
        metrics: QtGui.QFontMetricsF = geo["metrics"]
        focus_row, focus_col = self._focus()
        if self._title:
            painter.setPen(self._fg)
            painter.drawText(QtCore.QPointF(8.0, 8.0 + metrics.ascent()), self._title)
        focused = focus_row is not None or focus_col is not None
        for seg in segments(self._weights, focus_row, focus_col):
            colour = QtGui.QColor(HEAD_COLOURS[self._heads[seg.head] % len(HEAD_COLOURS)])
            mine = seg.row == focus_row or seg.col == focus_col
            colour.setAlphaF(1.0 if mine else (FADED_ALPHA if focused else min(1.0, 0.25 + seg.weight)))
            pen = QtGui.QPen(colour, seg.width_px)
            pen.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawLine(
                QtCore.QPointF(geo["x_top"][seg.row], geo["y_top_line"]),
                QtCore.QPointF(geo["x_bottom"][seg.col], geo["y_bottom_line"]),
            )
        key = self._selected[1] if self._selected is not None and focus_col is None else focus_col
        self._draw_tokens(painter, geo, self._top, geo["x_top"], geo["y_top_text"], focus_row)
        self._draw_tokens(painter, geo, self._bottom, geo["x_bottom"], geo["y_bottom_text"], key)
        painter.setPen(self._fg)
        for caption, y in zip(self._captions, (geo["y_top_text"], geo["y_bottom_text"])):
            if caption:
                painter.drawText(QtCore.QPointF(8.0, y), caption)

    def _draw_tokens(self, painter, geo, tokens, xs, baseline, focus) -> None:
        metrics: QtGui.QFontMetricsF = geo["metrics"]
        slot = (geo["right"] - geo["left"]) / max(1, len(tokens))
        bold = QtGui.QFont(painter.font())
        bold.setBold(True)
        for index, (token, x) in enumerate(zip(tokens, xs)):
            text = elide(token, metrics, slot - 2)
            painter.setFont(bold if index == focus else self._font())
            painter.setPen(self._fg)
            w = QtGui.QFontMetricsF(painter.font()).horizontalAdvance(text)
            painter.drawText(QtCore.QPointF(x - w / 2, baseline), text)
        painter.setFont(self._font())

    # -- hit testing and events ----------------------------------------------------
    def token_at(self, pos: QtCore.QPointF) -> tuple[str, int] | None:
        geo = self._layout(self.width(), self.height())
        band = geo["line_h"]
        for side, xs, y in (
            ("top", geo["x_top"], geo["y_top_text"]),
            ("bottom", geo["x_bottom"], geo["y_bottom_text"]),
        ):
            if len(xs) and abs(pos.y() - (y - band * 0.35)) <= band * 0.75:
                slot = (geo["right"] - geo["left"]) / len(xs)
                index = int((pos.x() - geo["left"]) // slot)
                if 0 <= index < len(xs):
                    return side, index
        return None

    def token_point(self, side: str, index: int) -> QtCore.QPoint:
        """Where a token's label sits on screen (tests click here)."""
        geo = self._layout(self.width(), self.height())
        xs = geo["x_top"] if side == "top" else geo["x_bottom"]
        y = geo["y_top_text"] if side == "top" else geo["y_bottom_text"]
        return QtCore.QPoint(int(xs[index]), int(y - geo["line_h"] * 0.35))

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        hit = self.token_at(event.position())
        if hit != self._hover:
            self._hover = hit
            self.setToolTip(self._tooltip(hit))
            self.update()

    def leaveEvent(self, event) -> None:  # noqa: N802
        if self._hover is not None:
            self._hover = None
            self.update()

    def mousePressEvent(self, event) -> None:  # noqa: N802
        hit = self.token_at(event.position())
        if hit is None or self._weights.shape[1] == 0 or self._weights.shape[2] == 0:
            return
        side, index = hit
        summed = self._weights.sum(axis=0)
        if side == "top":  # a query: select its heaviest key
            cell = (index, int(np.argmax(summed[index])))
        else:  # a key: select the query that looks at it most
            cell = (int(np.argmax(summed[:, index])), index)
        self._selected = cell
        self.update()
        self.cellClicked.emit(*cell)

    def _tooltip(self, hit: tuple[str, int] | None) -> str:
        if hit is None:
            return ""
        side, index = hit
        w = self._weights.sum(axis=0) / max(1, self._weights.shape[0])
        if side == "top":
            row = w[index]
            order = np.argsort(row)[::-1][:3]
            parts = [f"{self._bottom[j]} {row[j]:.2f}" for j in order]
            return f"{self._top[index]} → " + ", ".join(parts)
        col = w[:, index]
        order = np.argsort(col)[::-1][:3]
        return f"{self._bottom[index]} ← " + ", ".join(f"{self._top[i]} {col[i]:.2f}" for i in order)

    # -- export -------------------------------------------------------------------
    def render_image(self, width: int | None = None, height: int | None = None) -> QtGui.QImage:
        width, height = width or max(self.width(), 240), height or max(self.height(), 160)
        image = QtGui.QImage(width, height, QtGui.QImage.Format.Format_ARGB32)
        painter = QtGui.QPainter(image)
        self.paint_into(painter, width, height)
        painter.end()
        return image

    def save_svg(self, path: str, width: int | None = None, height: int | None = None) -> None:
        """Vector lines and text: sharp at any size on a slide."""
        width, height = width or max(self.width(), 240), height or max(self.height(), 160)
        generator = QtSvg.QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(QtCore.QSize(width, height))
        generator.setViewBox(QtCore.QRect(0, 0, width, height))
        painter = QtGui.QPainter(generator)
        self.paint_into(painter, width, height)
        painter.end()
