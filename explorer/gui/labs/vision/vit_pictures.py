"""The Vision Transformer tab's pictures, painted with QPainter from numbers the tab was given.

- ``PatchMap``: a picture with one number per patch laid over it as a spotlight (the patches
  with little weight darkened, so the picture's own colours stay readable: a head's weights,
  the CLS token's, the rollout, a photo patch's matches), or the numbers alone as a colour grid
  (a position embedding's similarities); a colour bar beside it says what dark and bright are
  worth; the chosen patch framed; a click says which patch (``patchClicked``). The square
  grows with the room it is given.
- ``HeadBars``: a number per layer and head as bars, a dashed reference line across (the mean
  distance of an evenly spread head); the words above take the lines they need at the width,
  the bars the rest of the height.

They keep no state of the tab's: ``show(...)`` hands them what to paint.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

MAP_COLOUR = QtGui.QColor("#D55E00")  # vermilion: seen over red, blue and grey pictures
MODEL_COLOURS = {"cnn": QtGui.QColor("#0072B2"), "vit": QtGui.QColor("#D55E00")}
MIN_MAP_PX = 150
SPOTLIGHT = 0.85  # the darkening of a patch with no weight
WRAP = QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.TextFlag.TextWordWrap


def bar_label(value: float, percent: bool = False) -> str:
    """Three significant digits (0.0154, 16.2): a label never rounds to the other side of a line.
    ``percent``: the value in % ("2.03" for 0.0203), under 1 % with two decimals ("0.45": a
    bar's width holds four characters, and no such bar is near the 1.54 % line)."""
    if not math.isfinite(value):
        return "-"
    if percent:
        value *= 100
        if value < 1:
            return f"{value:.2f}"
    return f"{value:#.3g}".rstrip(".")


def _font(widget: QtWidgets.QWidget, scale: float = 1.0) -> QtGui.QFont:
    font = QtGui.QFont(widget.font())
    font.setPixelSize(max(9, round(QtGui.QFontInfo(widget.font()).pixelSize() * scale)))
    return font


class PatchMap(QtWidgets.QWidget):
    patchClicked = QtCore.Signal(int)  # reading order on the grid

    def __init__(self, parent=None):
        super().__init__(parent)
        self.image: np.ndarray | None = None  # [H, W, 3] in [0, 1]
        self.values: np.ndarray | None = None  # [g, g]
        self.selected: int | None = None
        self.caption = ""
        self.scale: Callable[[float], str] | None = None  # a value in words, for the colour bar's ends
        self.setMinimumSize(MIN_MAP_PX, MIN_MAP_PX + 24)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)
        self.setCursor(QtCore.Qt.CursorShape.PointingHandCursor)

    def show_map(
        self, image, values, selected: int | None, caption: str, scale: Callable[[float], str] | None = None
    ) -> None:
        """``scale(v)``: a value in words (the colour bar's ends); None: the value with 2 decimals."""
        self.image = None if image is None else np.asarray(image, dtype=np.float32)
        self.values = None if values is None else np.asarray(values, dtype=np.float64)
        self.selected, self.caption, self.scale = selected, caption, scale
        self.setToolTip(caption)
        self.updateGeometry()  # the caption's lines may differ
        self.update()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return max(10, width - self._legend_px()) + self._caption_px(width)

    def _caption_px(self, width: int | None = None) -> int:
        """The caption's wrapped lines at the width (two at the least, so a map keeps its place)."""
        metrics = QtGui.QFontMetrics(_font(self))
        room = QtCore.QRect(0, 0, max(1, self.width() if width is None else width), 10_000)
        lines = metrics.boundingRect(room, int(WRAP), self.caption).height() if self.caption else 0
        return max(lines, 2 * metrics.height()) + 4

    def top(self) -> float:
        """The largest value: the brightest cell, the colour bar's top."""
        if self.values is None or not np.isfinite(self.values).any():
            return 0.0
        return float(np.nanmax(self.values))

    def scale_labels(self) -> tuple[str, str]:
        """The colour bar's ends in words: (no weight, the largest value)."""
        say = self.scale or (lambda v: f"{v:.2f}")
        return say(0.0), say(max(0.0, self.top()))

    def _legend_px(self) -> int:
        """The colour bar and its labels beside the square (none without values)."""
        if self.values is None:
            return 0
        metrics = QtGui.QFontMetrics(_font(self))
        return 6 + self._bar_px() + 6 + max(metrics.horizontalAdvance(t) for t in self.scale_labels()) + 4

    def _bar_px(self) -> int:
        return max(10, QtGui.QFontMetrics(_font(self)).height() // 2)

    def _square(self) -> QtCore.QRect:
        legend = self._legend_px()
        side = max(10, min(self.width() - legend, self.height() - self._caption_px()))
        return QtCore.QRect((self.width() - side - legend) // 2, 0, side, side)

    def colour_bar(self) -> QtCore.QRect | None:
        """Where the colour bar is drawn, right of the square and as tall (None: no values)."""
        if self.values is None:
            return None
        square = self._square()
        return QtCore.QRect(square.right() + 7, square.top(), self._bar_px(), square.height())

    def _cell_colour(self, share: float) -> QtGui.QColor:
        """A cell's paint for its share of the largest value: a spotlight over a picture (what gets
        little weight goes dark), the map's colour alone."""
        if self.image is not None:
            colour = QtGui.QColor(0, 0, 0)
            colour.setAlphaF(SPOTLIGHT * (1 - share) ** 0.7)
        else:
            colour = QtGui.QColor(MAP_COLOUR)
            colour.setAlphaF(0.1 + 0.9 * share)
        return colour

    def text_px(self) -> int:
        """The pixel size of every word and number drawn."""
        return _font(self).pixelSize()

    def grid(self) -> int:
        return 0 if self.values is None else self.values.shape[0]

    def patch_at(self, point: QtCore.QPointF) -> int | None:
        g, square = self.grid(), self._square()
        if not g or not square.contains(point.toPoint()):
            return None
        col = min(g - 1, int((point.x() - square.left()) * g / square.width()))
        row = min(g - 1, int((point.y() - square.top()) * g / square.height()))
        return row * g + col

    def mousePressEvent(self, event):
        patch = self.patch_at(event.position())
        if patch is not None:
            self.patchClicked.emit(patch)

    def paintEvent(self, _event):
        p = QtGui.QPainter(self)
        square = self._square()
        p.fillRect(square, QtGui.QColor("#808080"))
        if self.image is not None:
            pixels = np.ascontiguousarray((np.clip(self.image, 0, 1) * 255).astype(np.uint8))
            h, w, _ = pixels.shape
            picture = QtGui.QImage(pixels.data, w, h, 3 * w, QtGui.QImage.Format.Format_RGB888)
            p.drawImage(square, picture)  # nearest: a pixel stays a pixel
        g = self.grid()
        if g:
            values = self.values
            top = self.top()
            cell = square.width() / g
            for r in range(g):
                for c in range(g):
                    v = values[r, c]
                    share = 0.0 if top <= 0 or not math.isfinite(v) else max(0.0, v / top)
                    p.fillRect(
                        QtCore.QRectF(square.left() + c * cell, square.top() + r * cell, cell, cell),
                        self._cell_colour(share),
                    )
            if self.selected is not None:
                r, c = divmod(self.selected, g)
                pen = QtGui.QPen(QtGui.QColor("#ffffff"), 3)
                p.setPen(pen)
                box = QtCore.QRectF(square.left() + c * cell, square.top() + r * cell, cell, cell)
                p.drawRect(box)
                p.setPen(QtGui.QPen(QtGui.QColor("#000000"), 1))
                p.drawRect(box.adjusted(-2, -2, 2, 2))
        p.setPen(self.palette().color(QtGui.QPalette.ColorRole.WindowText))
        p.setFont(_font(self))
        if g:
            self._paint_colour_bar(p)
        text = QtCore.QRect(0, square.bottom() + 4, self.width(), self._caption_px())
        p.drawText(text, QtCore.Qt.AlignmentFlag.AlignHCenter | QtCore.Qt.TextFlag.TextWordWrap, self.caption)
        p.end()

    def _paint_colour_bar(self, p: QtGui.QPainter) -> None:
        """The cells' paint from no weight (bottom) to the largest value (top), over the grey the
        square shows under a picture, its ends in words."""
        bar = self.colour_bar()
        if bar is None:
            return
        steps = max(2, bar.height() // 4)
        for k in range(steps):
            y0 = bar.top() + bar.height() * k / steps
            band = QtCore.QRectF(bar.left(), y0, bar.width(), bar.height() / steps + 0.5)
            p.fillRect(band, QtGui.QColor("#b0b0b0" if self.image is not None else "#808080"))
            p.fillRect(band, self._cell_colour(1 - (k + 0.5) / steps))
        p.drawRect(bar.adjusted(0, 0, -1, -1))
        low, high = self.scale_labels()
        line = QtGui.QFontMetrics(p.font()).height()
        left = bar.right() + 6
        p.drawText(QtCore.QRect(left, bar.top(), self.width() - left, line), int(WRAP), high)
        p.drawText(QtCore.QRect(left, bar.bottom() - line, self.width() - left, line), int(WRAP), low)


class HeadBars(QtWidgets.QWidget):
    """Bars per layer and head; ``reference`` is a dashed line across with its own label."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.values = np.zeros((0, 0))
        self.reference: float | None = None
        self.title = self.reference_label = self.layer_word = ""
        self.top: float | None = None
        self.digits = 1
        self.percent = False  # the labels in % of the values (shares: "2.03" for 0.0203)
        self.setMinimumSize(220, 160)  # a 2×2 page beside the lesson at 1024×768
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)

    def show_bars(
        self,
        values: np.ndarray,
        title: str,
        layer_word: str,
        reference: float | None = None,
        reference_label: str = "",
        top: float | None = None,
        digits: int = 1,
        percent: bool = False,
    ) -> None:
        self.values = np.asarray(values, dtype=np.float64)
        self.title, self.layer_word = title, layer_word
        self.reference, self.reference_label, self.top, self.digits = reference, reference_label, top, digits
        self.percent = percent
        self.update()

    def text_px(self) -> int:
        """The pixel size of every word and number drawn."""
        return _font(self).pixelSize()

    def _words_px(self, text: str) -> int:
        """The height of ``text`` wrapped at the widget's width (0 for no text)."""
        if not text:
            return 0
        room = QtCore.QRect(0, 0, max(1, self.width()), 10_000)
        return QtGui.QFontMetrics(_font(self)).boundingRect(room, int(WRAP), text).height()

    def _heads(self) -> tuple[int, int]:
        """The title's height and the reference label's, as wrapped at the width."""
        title = self._words_px(self.title)
        return title, self._words_px(self.reference_label) if self.reference is not None else 0

    def _geometry(self) -> tuple[QtCore.QRectF, float, int]:
        """The bars' area, the top of the scale, a line's height: the words above take the lines
        they wrap to, a value's label a line, the heads' and layers' names two lines under it."""
        line = QtGui.QFontMetrics(_font(self)).height()
        title, reference = self._heads()
        above = title + reference + line + 4
        area = QtCore.QRectF(8, above, self.width() - 16, max(1, self.height() - above - 2 * line - 6))
        finite = self.values[np.isfinite(self.values)] if self.values.size else np.zeros(0)
        top = self.top or max([*finite.tolist(), self.reference or 0.0, 1e-9]) * 1.15
        return area, top, line

    def reference_y(self) -> float | None:
        if self.reference is None:
            return None
        area, top, _ = self._geometry()
        return area.bottom() - area.height() * min(1.0, self.reference / top)

    def labels(self) -> list[tuple[str, QtCore.QRectF, QtCore.QRectF, float]]:
        """(text, where it is written, the bar, the value) per bar: 3 significant digits, so no
        label rounds across the dashed line; a label the dashed line would cross sits inside its bar
        (or just above the line where the bar is too short)."""
        layers, heads = self.values.shape if self.values.ndim == 2 else (0, 0)
        if not layers:
            return []
        area, top, line = self._geometry()
        ref_y = self.reference_y()
        group = area.width() / layers
        bar = group / (heads + 0.5)  # half a bar between layers: each label has a bar's pitch
        metrics = QtGui.QFontMetricsF(_font(self))
        out = []
        for layer in range(layers):
            left = area.left() + layer * group + bar / 4
            for head in range(heads):
                v = float(self.values[layer, head])
                text = bar_label(v, self.percent)
                height = 0.0 if not math.isfinite(v) else area.height() * min(1.0, v / top)
                box = QtCore.QRectF(left + head * bar + bar * 0.1, area.bottom() - height, bar * 0.8, height)
                where = QtCore.QRectF(box.center().x() - bar / 2, box.top() - line, bar, line)
                if ref_y is not None and where.top() - 2 <= ref_y <= where.bottom() + 2:
                    inside = metrics.horizontalAdvance(text) <= box.width()  # white on the bar, whole
                    if inside and box.height() >= 2 * line + 8:  # inside the bar, under the line
                        where.moveTop(max(box.top(), ref_y) + 3)
                    else:
                        where.moveBottom(ref_y - 3)
                out.append((text, where, box, v))
        return out

    def paintEvent(self, _event):
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        fg = self.palette().color(QtGui.QPalette.ColorRole.WindowText)
        font = _font(self)
        p.setFont(font)
        line = QtGui.QFontMetrics(font).height()
        p.setPen(fg)
        wrap = int(WRAP)
        title_px, reference_px = self._heads()
        p.drawText(QtCore.QRect(0, 0, self.width(), title_px), wrap, self.title)
        layers, heads = self.values.shape if self.values.ndim == 2 else (0, 0)
        if not layers:
            p.end()
            return
        area, top, line = self._geometry()
        group = area.width() / layers
        labels = self.labels()
        for i, (_text, _where, box, _v) in enumerate(labels):  # every bar before any label over it
            colour = QtGui.QColor(MODEL_COLOURS["vit"])
            colour.setAlphaF(0.45 + 0.55 * (i % heads + 1) / heads)
            p.fillRect(box, colour)
        for i, (text, where, box, _v) in enumerate(labels):
            head = i % heads
            p.setPen(QtGui.QColor("#ffffff") if box.contains(where.center()) else fg)
            p.drawText(where, QtCore.Qt.AlignmentFlag.AlignHCenter, text)
            p.setPen(fg)
            p.drawText(
                QtCore.QRectF(box.left() - 6, area.bottom() + 2, box.width() + 12, line),
                QtCore.Qt.AlignmentFlag.AlignHCenter,
                f"h{head + 1}",
            )
        for layer in range(layers):
            p.drawText(
                QtCore.QRectF(area.left() + layer * group, area.bottom() + line + 2, group, line),
                QtCore.Qt.AlignmentFlag.AlignHCenter,
                f"{self.layer_word} {layer + 1}",
            )
        if self.reference is not None:
            y = area.bottom() - area.height() * min(1.0, self.reference / top)
            pen = QtGui.QPen(fg, 1.5, QtCore.Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.drawLine(QtCore.QPointF(area.left(), y), QtCore.QPointF(area.right(), y))
            p.drawText(QtCore.QRect(0, title_px, self.width(), reference_px), wrap, self.reference_label)
        p.end()
