"""Lesson step "Patches as tokens": the picture cut into its patch grid, each patch numbered, and
beside it the encoder's input z₀, one row per token (CLS on top, then patch 1 … 64 in reading
order): the patch's own pixels flattened into a line, then its token (E·p + P) as a colour row.

Painted with QPainter from numbers the tab hands it (``show_tokens``); it keeps no state of the
tab's. Every word and number is drawn at the widget's font (a projector's 20 px at the least).
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.labs.vision.vit_pictures import MAP_COLOUR, MIN_MAP_PX, WRAP, _font

NEGATIVE = QtGui.QColor("#0072B2")  # blue below zero, vermilion above: the maps' colour
LABEL_EVERY = 8  # a row label per picture row: patch 8, 16, … (the last column's: "1" would touch "CLS")


class PatchTokens(QtWidgets.QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.image: np.ndarray | None = None  # [H, W, 3] in [0, 1]
        self.tokens: np.ndarray | None = None  # [1 + patches, d], CLS first
        self.patch = 4
        self.caption = ""
        self.headers = ("", "")  # above the pixel lines, above the tokens
        self.setMinimumSize(2 * MIN_MAP_PX, MIN_MAP_PX + 24)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)

    def show_tokens(self, image, tokens, patch: int, caption: str, headers: tuple[str, str]) -> None:
        self.image = None if image is None else np.asarray(image, dtype=np.float32)
        self.tokens = None if tokens is None else np.asarray(tokens, dtype=np.float64)
        self.patch, self.caption, self.headers = int(patch), caption, headers
        self.setToolTip(caption)
        self.update()

    def text_px(self) -> int:
        return _font(self).pixelSize()

    def grid(self) -> int:
        return 0 if self.image is None else self.image.shape[0] // self.patch

    def patch_names(self) -> list[str]:
        """The labels the picture's cells carry, in reading order (1-based, as the rows')."""
        return [str(k + 1) for k in range(self.grid() ** 2)]

    def row_labels(self) -> list[tuple[int, str]]:
        """(row of z₀, label): CLS, then a patch every LABEL_EVERY rows."""
        n = self.grid() ** 2
        return [(0, "CLS")] + [(k, str(k)) for k in range(LABEL_EVERY, n + 1, LABEL_EVERY)]

    def _caption_px(self) -> int:
        metrics = QtGui.QFontMetrics(_font(self))
        room = QtCore.QRect(0, 0, max(1, self.width()), 10_000)
        lines = metrics.boundingRect(room, int(WRAP), self.caption).height() if self.caption else 0
        return max(lines, 2 * metrics.height()) + 4

    def layout_rects(self) -> tuple[QtCore.QRect, QtCore.QRect, QtCore.QRect]:
        """The picture's square, the pixel lines' block, the tokens' block (all as tall)."""
        metrics = QtGui.QFontMetrics(_font(self))
        header = metrics.height() + 4
        label = metrics.horizontalAdvance("CLS") + 8
        side = max(10, min(self.height() - self._caption_px() - header, int(self.width() * 0.45)))
        left = max(0, (self.width() - 2 * side - label - 16) // 2)
        square = QtCore.QRect(left, header, side, side)
        rest = self.width() - square.right() - 12 - label
        pixels = QtCore.QRect(square.right() + 12 + label, header, max(10, rest // 3), side)
        tokens = QtCore.QRect(pixels.right() + 8, header, max(10, rest - pixels.width() - 8), side)
        return square, pixels, tokens

    def paintEvent(self, _event):
        if self.image is None or self.tokens is None:
            return
        p = QtGui.QPainter(self)
        p.setFont(_font(self))
        ink = self.palette().color(QtGui.QPalette.ColorRole.WindowText)
        square, pixel_box, token_box = self.layout_rects()
        g, size = self.grid(), self.patch
        image = np.clip(self.image, 0, 1)
        pixels = np.ascontiguousarray((image * 255).astype(np.uint8))
        h, w, _ = pixels.shape
        picture = QtGui.QImage(pixels.data, w, h, 3 * w, QtGui.QImage.Format.Format_RGB888)
        p.drawImage(square, picture)
        # the grid and each patch's number
        cell = square.width() / g
        p.setPen(QtGui.QPen(QtGui.QColor("#ffffff"), 1))
        for k in range(g + 1):
            x, y = square.left() + k * cell, square.top() + k * cell
            p.drawLine(QtCore.QPointF(x, square.top()), QtCore.QPointF(x, square.bottom()))
            p.drawLine(QtCore.QPointF(square.left(), y), QtCore.QPointF(square.right(), y))
        names = self.patch_names()
        small = _font(self)
        p.setFont(small)
        for k, text in enumerate(names):
            r, c = divmod(k, g)
            box = QtCore.QRectF(square.left() + c * cell, square.top() + r * cell, cell, cell)
            p.setPen(QtGui.QColor("#000000"))
            p.drawText(box.translated(1, 1), QtCore.Qt.AlignmentFlag.AlignCenter, text)
            p.setPen(QtGui.QColor("#ffffff"))
            p.drawText(box, QtCore.Qt.AlignmentFlag.AlignCenter, text)
        # z₀'s rows: each patch's pixels in a line, then its token
        tokens = self.tokens
        rows = tokens.shape[0]
        pitch = pixel_box.height() / rows
        lines = image.reshape(g, size, g, size, 3).transpose(0, 2, 1, 3, 4).reshape(g * g, size * size, 3)
        pw = pixel_box.width() / lines.shape[1]
        for k in range(lines.shape[0]):
            y = pixel_box.top() + (1 + k) * pitch
            for j in range(lines.shape[1]):
                colour = QtGui.QColor.fromRgbF(*(float(v) for v in lines[k, j]))
                p.fillRect(QtCore.QRectF(pixel_box.left() + j * pw, y, pw + 0.5, pitch + 0.5), colour)
        top = float(np.abs(tokens).max()) or 1.0
        tw = token_box.width() / tokens.shape[1]
        for r in range(rows):
            y = token_box.top() + r * pitch
            for j in range(tokens.shape[1]):
                v = tokens[r, j] / top
                colour = QtGui.QColor(MAP_COLOUR if v >= 0 else NEGATIVE)
                colour.setAlphaF(min(1.0, abs(v)) ** 0.7)
                box = QtCore.QRectF(token_box.left() + j * tw, y, tw + 0.5, pitch + 0.5)
                p.fillRect(box, QtGui.QColor("#ffffff"))
                p.fillRect(box, colour)
        p.setPen(ink)
        p.drawRect(pixel_box.adjusted(0, 0, -1, -1))
        p.drawRect(token_box.adjusted(0, 0, -1, -1))
        metrics = QtGui.QFontMetrics(p.font())
        for r, text in self.row_labels():
            y = pixel_box.top() + (r + 0.5) * pitch
            y_text = min(
                max(y, pixel_box.top() + metrics.height() / 2), pixel_box.bottom() - metrics.height() / 2
            )
            box = QtCore.QRectF(
                square.right() + 4,
                y_text - metrics.height() / 2,
                pixel_box.left() - square.right() - 8,
                metrics.height(),
            )
            p.drawText(box, QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter, text)
            p.drawLine(QtCore.QPointF(pixel_box.left() - 3, y), QtCore.QPointF(pixel_box.left(), y))
        left_head, right_head = self.headers
        head = metrics.height()
        p.drawText(
            QtCore.QRect(square.left(), 0, square.width(), head),
            int(QtCore.Qt.AlignmentFlag.AlignHCenter),
            left_head,
        )
        p.drawText(
            QtCore.QRect(pixel_box.left(), 0, token_box.right() - pixel_box.left(), head),
            int(QtCore.Qt.AlignmentFlag.AlignHCenter),
            right_head,
        )
        text = QtCore.QRect(0, square.bottom() + 4, self.width(), self._caption_px())
        p.drawText(text, QtCore.Qt.AlignmentFlag.AlignHCenter | QtCore.Qt.TextFlag.TextWordWrap, self.caption)
        p.end()
