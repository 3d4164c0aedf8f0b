"""One model's alignment with its window drawn on it: a row per word written, a column per
source word, each cell as dark as the weight a_t(s) the step read; for a local model the
window [p_t − D, p_t + D] framed on every row and p_t marked (a diamond, between columns where
p_t is not whole); the true source word of each step dotted. Under it, the selected step's
reading: the softmax inside the window (pale bars), the Gaussian exp(−(s − p_t)² / 2σ²) (the
curve) and their product a_t(s) (dark bars). Click a row to select its step.

The widget draws a WindowTrace (explorer.seq2seq.local_trace) as it is: every number comes
from the trace.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.i18n import translate
from explorer.seq2seq.local_trace import WindowTrace

WEIGHT_COLOUR = "#0072B2"
ALIGN_COLOUR = "#9ecae1"
MAX_CELL = 44  # a short text is not drawn with huge cells
STRIP_LINES = 4  # the selected step's reading: its caption and bars, as tall as this many text lines


class WindowCanvas(QtWidgets.QWidget):
    stepClicked = QtCore.Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.trace: WindowTrace | None = None
        self.title = ""
        self.legend = ""  # what the marks mean: the tooltip away from a cell
        self.selected: int | None = None
        self._cells_image: QtGui.QImage | None = None  # the trace's cells (see _cells)
        self._font_px = 13
        self._fg, self._bg = QtGui.QColor("#000000"), QtGui.QColor("#ffffff")
        self._accent, self._muted = QtGui.QColor("#d55e00"), QtGui.QColor("#888888")
        self.setMinimumSize(260, 220)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)

    # -- what it shows ---------------------------------------------------------------------------
    def set_trace(self, trace: WindowTrace | None, title: str) -> None:
        self.trace, self.title = trace, title
        self._cells_image = None
        self.update()

    def set_selected(self, step: int | None) -> None:
        if step != self.selected:
            self.selected = step
            self.update()

    def set_style(self, font_px: int, fg: str, bg: str, accent: str, muted: str) -> None:
        self._font_px = font_px
        self._fg, self._bg = QtGui.QColor(fg), QtGui.QColor(bg)
        self._accent, self._muted = QtGui.QColor(accent), QtGui.QColor(muted)
        self._cells_image = None
        self.update()

    def selected_step(self) -> int | None:
        if self.trace is None or not self.trace.output_tokens:
            return None
        last = len(self.trace.output_tokens) - 1
        return 0 if self.selected is None else min(self.selected, last)

    # -- where things go -------------------------------------------------------------------------
    def _font(self, scale: float = 1.0, bold: bool = False) -> QtGui.QFont:
        font = QtGui.QFont(self.font())
        font.setPixelSize(max(10, round(self._font_px * scale)))
        font.setBold(bold)
        return font

    def _layout(self) -> tuple[QtCore.QRectF, float, float] | None:
        """(the grid's rectangle, cell width, cell height), or None with nothing to draw."""
        t = self.trace
        if t is None or not t.output_tokens or not t.source_tokens:
            return None
        metrics = QtGui.QFontMetricsF(self._font())
        line = metrics.height()
        label_w = max(metrics.horizontalAdvance(w) for w in t.output_tokens) + 8
        top = QtGui.QFontMetricsF(self._font(1.1, True)).height() + line + 6
        rows, cols = len(t.output_tokens), len(t.source_tokens)
        strip = self._strip_height(line)
        cw = min(MAX_CELL, (self.width() - label_w - 8) / cols)
        ch = min(MAX_CELL, cw * 1.2, (self.height() - top - strip - 10) / rows)
        if cw < 2 or ch < 2:
            return None
        return QtCore.QRectF(label_w, top, cw * cols, ch * rows), cw, ch

    def _strip_height(self, line: float) -> float:
        """The reading under the grid: its caption and bars, less when the canvas is short."""
        return max(2.5 * line, min(STRIP_LINES * line, 0.25 * self.height()))

    def row_at(self, y: float) -> int | None:
        layout = self._layout()
        if layout is None:
            return None
        grid, _, ch = layout
        row = math.floor((y - grid.top()) / ch)
        return row if 0 <= row < len(self.trace.output_tokens) else None

    # -- painting ----------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), self._bg)
        p.setPen(self._fg)
        p.setFont(self._font(1.1, True))
        title_h = QtGui.QFontMetricsF(self._font(1.1, True)).height()
        title = QtGui.QFontMetricsF(self._font(1.1, True)).elidedText(
            self.title, QtCore.Qt.TextElideMode.ElideRight, self.width() - 8
        )
        p.drawText(QtCore.QRectF(4, 2, self.width() - 8, title_h), QtCore.Qt.AlignmentFlag.AlignLeft, title)
        layout = self._layout()
        if layout is None:
            p.end()
            return
        grid, cw, ch = layout
        self._paint_grid(p, grid, cw, ch)
        self._paint_reading(p, grid, cw, ch)
        p.end()

    def _paint_grid(self, p: QtGui.QPainter, grid: QtCore.QRectF, cw: float, ch: float) -> None:
        t = self.trace
        p.drawImage(grid, self._cells())  # one pixel a cell, scaled without smoothing
        p.setFont(self._font())
        metrics = QtGui.QFontMetricsF(self._font())
        line = metrics.height()
        every_row = max(1, math.ceil(line / ch))
        for rect, shown in self.column_labels(grid, cw):  # the source along the top
            p.drawText(rect, QtCore.Qt.AlignmentFlag.AlignCenter, shown)
        selected = self.selected_step()
        for r, word in enumerate(t.output_tokens):
            y = grid.top() + r * ch
            if r % every_row == 0 or r == selected:
                p.setPen(self._accent if r == selected else self._fg)
                label = QtCore.QRectF(0, y + ch / 2 - line / 2, grid.left() - 6, line)
                p.drawText(
                    label, QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter, word
                )
        p.setPen(QtGui.QPen(self._muted, 1))
        p.drawRect(grid)
        if t.true_links is not None:  # the true source word of each step: a small dot
            p.setPen(QtGui.QPen(self._fg, 1.5))  # a ring: seen on a dark cell and on a pale one
            p.setBrush(self._bg)
            radius = max(2.5, min(cw, ch) * 0.13)
            for r, links in enumerate(t.true_links[: len(t.output_tokens)]):
                for s in links:
                    centre = QtCore.QPointF(grid.left() + (s + 0.5) * cw, grid.top() + (r + 0.5) * ch)
                    p.drawEllipse(centre, radius, radius)
        if t.centres is not None:
            self._paint_windows(p, grid, cw, ch)
        if selected is not None:
            p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            p.setPen(QtGui.QPen(self._fg, 2, QtCore.Qt.PenStyle.DashLine))
            p.drawRect(QtCore.QRectF(grid.left(), grid.top() + selected * ch, grid.width(), ch))

    def column_labels(self, grid: QtCore.QRectF, cw: float) -> list[tuple[QtCore.QRectF, str]]:
        """The source words along the top: each centred over its column (they drifted right,
        a little more each, when pushed past the one before), every ``every``-th where
        neighbours would touch, none overlapping and none past the canvas's right edge."""
        t = self.trace
        metrics = QtGui.QFontMetricsF(self._font())
        line = metrics.height()
        widest = max(metrics.horizontalAdvance(w) for w in t.source_tokens) + 4
        every = max(1, math.ceil(widest / cw))  # labels that would touch are thinned out
        out: list[tuple[QtCore.QRectF, str]] = []
        taken = 0.0  # where the last label ends
        for s, word in enumerate(t.source_tokens):
            if s % every:
                continue
            centre = grid.left() + (s + 0.5) * cw
            room = min(every * cw, 2 * (self.width() - centre))  # its columns, inside the canvas
            shown = metrics.elidedText(word, QtCore.Qt.TextElideMode.ElideRight, room)
            w = metrics.horizontalAdvance(shown)
            left = centre - w / 2
            if not shown or left < taken:
                continue
            out.append((QtCore.QRectF(left, grid.top() - line - 2, w, line), shown))
            taken = left + w + 2
        return out

    def _cells(self) -> QtGui.QImage:
        """The weights as an image of one pixel a cell, each as dark as its weight; made once a
        trace and colour (a repaint draws it scaled instead of a rectangle a cell)."""
        t = self.trace
        if self._cells_image is None:
            amount = np.clip(np.nan_to_num(np.asarray(t.alignment, float)), 0.0, 1.0)[..., None]
            bg = np.array(self._bg.getRgb()[:3], float)
            fg = np.array(QtGui.QColor(WEIGHT_COLOUR).getRgb()[:3], float)
            rgb = np.ascontiguousarray(np.round(bg + (fg - bg) * amount).astype(np.uint8))
            rows, cols = rgb.shape[:2]
            image = QtGui.QImage(rgb.data, cols, rows, 3 * cols, QtGui.QImage.Format.Format_RGB888)
            self._cells_image = image.copy()  # the copy owns its pixels
        return self._cells_image

    def _paint_windows(self, p: QtGui.QPainter, grid: QtCore.QRectF, cw: float, ch: float) -> None:
        t = self.trace
        p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
        p.setPen(QtGui.QPen(self._accent, 2))
        frames = [
            QtCore.QRectF(grid.left() + b[0] * cw, grid.top() + r * ch, (b[1] - b[0] + 1) * cw, ch)
            for r, b in enumerate(t.window_bounds)
            if b is not None
        ]
        p.drawRects(frames)
        p.setPen(QtCore.Qt.PenStyle.NoPen)
        p.setBrush(self._accent)
        size = max(3.0, min(cw, ch) * 0.28)
        for r, centre in enumerate(t.centres):
            x = grid.left() + (float(centre) + 0.5) * cw  # p_t is a position: the middle of its column
            if x > grid.right() + size:
                x = grid.right() + size  # past the source: drawn at its edge
            y = grid.top() + (r + 0.5) * ch
            diamond = QtGui.QPolygonF(
                [QtCore.QPointF(x, y - size), QtCore.QPointF(x + size, y), QtCore.QPointF(x, y + size),
                 QtCore.QPointF(x - size, y)]
            )  # fmt: skip
            p.drawPolygon(diamond)

    def _paint_reading(self, p: QtGui.QPainter, grid: QtCore.QRectF, cw: float, ch: float) -> None:
        """The selected step: align (pale), Gaussian (curve), a_t (dark), over the same columns."""
        t, step = self.trace, self.selected_step()
        line = QtGui.QFontMetricsF(self._font()).height()
        top = grid.bottom() + line + 4
        height = self._strip_height(line) - line
        base = top + height
        p.setPen(self._fg)
        p.setFont(self._font())
        caption = QtGui.QFontMetricsF(self._font()).elidedText(
            self._reading_caption(step), QtCore.Qt.TextElideMode.ElideRight, self.width() - 8
        )
        p.drawText(
            QtCore.QRectF(4, grid.bottom() + 2, self.width() - 8, line),
            QtCore.Qt.AlignmentFlag.AlignLeft,
            caption,
        )
        p.setPen(QtGui.QPen(self._muted, 1))
        p.drawLine(QtCore.QPointF(grid.left(), base), QtCore.QPointF(grid.right(), base))
        n = len(t.source_tokens)
        weights = np.asarray(t.alignment[step], float)
        align = None if t.align is None or t.centres is None else np.asarray(t.align[step], float)
        p.setPen(QtCore.Qt.PenStyle.NoPen)
        for s in range(n):
            x = grid.left() + s * cw
            if align is not None:
                p.setBrush(QtGui.QColor(ALIGN_COLOUR))
                h = height * float(np.clip(align[s], 0, 1))
                p.drawRect(QtCore.QRectF(x + cw * 0.1, base - h, cw * 0.8, h))
            p.setBrush(QtGui.QColor(WEIGHT_COLOUR))
            h = height * float(np.clip(weights[s], 0, 1))
            p.drawRect(QtCore.QRectF(x + cw * 0.25, base - h, cw * 0.5, h))
        if t.centres is not None and t.sigma:
            centre, sigma = float(t.centres[step]), float(t.sigma)
            path = QtGui.QPainterPath()
            points = min(200, 8 * n)  # smooth at any width: 8 points a column
            for i in range(0, points + 1):
                s = -0.5 + n * i / points  # the curve over the source, position by position
                x = grid.left() + (s + 0.5) * cw
                y = base - height * math.exp(-((s - centre) ** 2) / (2 * sigma**2))
                path.moveTo(x, y) if i == 0 else path.lineTo(x, y)
            p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            p.setPen(QtGui.QPen(self._accent, 2))
            p.drawPath(path)

    def _reading_caption(self, step: int) -> str:
        t = self.trace
        word = t.output_tokens[step]
        if t.centres is None:
            return translate("LocalWindow", "step {t} “{word}”: the weights over every source word").format(
                t=step, word=word
            )
        return translate(
            "LocalWindow",
            "step {t} “{word}”: p_t = {p:.2f}, σ = {sigma:g}",
        ).format(t=step, word=word, p=float(t.centres[step]), sigma=t.sigma)

    # -- the mouse ---------------------------------------------------------------------------------
    def mousePressEvent(self, event) -> None:
        row = self.row_at(event.position().y())
        if row is not None:
            self.stepClicked.emit(row)

    def mouseMoveEvent(self, event) -> None:
        layout, t = self._layout(), self.trace
        row = self.row_at(event.position().y())
        if layout is None or row is None:
            self.setToolTip(self.legend)
            return
        grid, cw, _ = layout
        s = math.floor((event.position().x() - grid.left()) / cw)
        if not 0 <= s < len(t.source_tokens):
            self.setToolTip(self.legend)
            return
        self.setToolTip(
            translate("LocalWindow", "“{out}” ← “{src}”: a = {w:.3f}").format(
                out=t.output_tokens[row], src=t.source_tokens[s], w=float(t.alignment[row, s])
            )
        )
