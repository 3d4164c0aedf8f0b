"""The lines view: queries on one row, keys on another, a line as thick as each weight.

Read from the back of a classroom, a line between "it" and "animal" says more than a cell
in a heatmap. One head draws in one colour; several heads overlay, each in its own
colour-blind-safe colour, with a legend. Hovering or selecting a token brings its lines
forward and fades the rest. The same picture serves the Pipeline's weights stage, the
All-heads tab (heads overlaid) and the Translation tab (output characters above, source
characters below).

The geometry (where each token sits, which lines exist and how thick) is computed by plain
functions, so tests check numbers; ``paint_lines`` draws a ``LinesPicture`` with any painter
(the widget, a PNG, an SVG), and ``LinesFigure`` is that picture as the Export dialog's
figures draw it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from PySide6 import QtCore, QtGui, QtSvg, QtWidgets

# Okabe–Ito: distinguishable with every common colour-vision deficiency.
HEAD_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
MIN_WEIGHT = 0.02  # lighter lines are drawn only for the focused token: they are clutter otherwise
MAX_LINE_PX = 14.0
MAX_LINES_PER_ROW = 12  # long inputs: a row's heaviest lines say what it attends to
# Antialiased wide lines cost about 0.2 ms each to paint on a 2-core CPU: beyond this many
# (many heads overlaid), only the heaviest are drawn, besides every line of a focused token.
MAX_SEGMENTS = 90
MAX_FOCUS_SEGMENTS = 40  # a focused token's lines: all of one head's, the heaviest of many heads
FADED_ALPHA = 0.12
MARGIN_PX = 8.0
MARK_PX = 3.0  # the frame around a marked key token (a guess, an answer)
CAPTION_SHARE = 0.12  # "queries" / "keys" at the left only where they leave the tokens room


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
    MIN_WEIGHT are left out, a row keeps at most MAX_LINES_PER_ROW lines per head and the
    whole picture about the MAX_SEGMENTS heaviest (one head: and each row's heaviest); a
    focused token shows all its lines (of many heads, the MAX_FOCUS_SEGMENTS heaviest).
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim == 2:
        w = w[None]
    w = np.where(np.isfinite(w), w, 0.0)
    keep = w >= MIN_WEIGHT
    if w.shape[2] > MAX_LINES_PER_ROW:  # only each row's heaviest lines
        kth = np.partition(w, -MAX_LINES_PER_ROW, axis=2)[:, :, -MAX_LINES_PER_ROW][:, :, None]
        keep &= w >= kth
    if keep.sum() > MAX_SEGMENTS:  # long inputs, many heads: the heaviest lines of them all
        heaviest = _heaviest(np.where(keep, w, 0.0), MAX_SEGMENTS)
        if w.shape[0] == 1 and w.shape[1] <= MAX_SEGMENTS:  # one head: each row's heaviest too
            best = np.zeros_like(keep)
            best[0, np.arange(w.shape[1]), w[0].argmax(axis=1)] = True
            heaviest |= best
        keep &= heaviest
    focus = np.zeros_like(keep)
    if focus_row is not None and 0 <= focus_row < w.shape[1]:
        focus[:, focus_row, :] = w[:, focus_row, :] > 0
    if focus_col is not None and 0 <= focus_col < w.shape[2]:
        focus[:, :, focus_col] = w[:, :, focus_col] > 0
    if focus.sum() > MAX_FOCUS_SEGMENTS:
        focus &= _heaviest(np.where(focus, w, 0.0), MAX_FOCUS_SEGMENTS)
    keep |= focus
    heads, rows, cols = np.nonzero(keep)
    values = w[heads, rows, cols]
    order = np.argsort(values, kind="stable")
    widths = np.maximum(0.75, MAX_LINE_PX * np.minimum(values, 1.0))
    return [
        Segment(int(heads[k]), int(rows[k]), int(cols[k]), float(values[k]), float(widths[k])) for k in order
    ]


def _heaviest(w: np.ndarray, count: int) -> np.ndarray:
    """A mask of exactly ``count`` of the largest entries (ties broken by position)."""
    flat = w.ravel()
    chosen = np.zeros(flat.shape, dtype=bool)
    chosen[np.argpartition(-flat, count - 1, kind="introselect")[:count]] = True
    return chosen.reshape(w.shape) & (w > 0)


def elide(text: str, metrics: QtGui.QFontMetricsF, width: float) -> str:
    return metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideRight, max(width, 8.0))


def line_colour(layer: int) -> QtGui.QColor:
    """The colour of the ``layer``-th head drawn (not of head number ``layer``): a few heads
    overlaid never share a colour; past eight, the colours come back dashed (``line_dashes``)."""
    return QtGui.QColor(HEAD_COLOURS[layer % len(HEAD_COLOURS)])


def line_dashes(layer: int) -> QtCore.Qt.PenStyle:
    styles = (QtCore.Qt.PenStyle.SolidLine, QtCore.Qt.PenStyle.DashLine, QtCore.Qt.PenStyle.DotLine)
    return styles[(layer // len(HEAD_COLOURS)) % len(styles)]


@dataclass(frozen=True, eq=False)  # compared by identity: it holds an array
class LinesPicture:
    """What the lines view shows: tokens, weights [heads, n_top, n_bottom] and marks."""

    top: tuple[str, ...] = ()
    bottom: tuple[str, ...] = ()
    weights: np.ndarray = field(default_factory=lambda: np.zeros((1, 0, 0), np.float32))
    heads: tuple[int, ...] = (0,)  # the head number of each layer of weights
    title: str = ""
    captions: tuple[str, str] = ("", "")
    selected: tuple[int, int] | None = None  # (query, key)
    key_marks: tuple[tuple[int, str], ...] = ()  # (key, colour): a frame around the key's name
    legend: tuple[str, ...] = ()  # one label per head layer, drawn when several are overlaid
    veiled: bool = False  # tokens only, no lines: the class predicts before the reveal
    frame: str | None = None  # a frame round the whole view (the lesson's stage), in this colour

    @staticmethod
    def of(top, bottom, weights, heads=None, **options) -> LinesPicture:
        w = np.asarray(weights, dtype=np.float32)
        if w.ndim == 2:
            w = w[None]
        if w.ndim != 3 or w.shape[1:] != (len(top), len(bottom)):
            raise ValueError(f"weights {w.shape} do not match {len(top)} × {len(bottom)} tokens")
        heads = tuple(heads) if heads is not None else tuple(range(w.shape[0]))
        if len(heads) != w.shape[0]:
            raise ValueError(f"{len(heads)} head numbers for {w.shape[0]} layers of weights")
        return LinesPicture(tuple(top), tuple(bottom), w, heads, **options)


@dataclass(frozen=True)
class Geometry:
    """Where everything of a picture goes in a (width × height) area."""

    line_h: float
    left: float
    right: float
    x_top: np.ndarray
    x_bottom: np.ndarray
    y_top: np.ndarray  # each top token's baseline (staggered when names are long)
    y_bottom: np.ndarray
    y_top_line: float  # where the lines start and end
    y_bottom_line: float
    title_y: float
    legend_y: float | None


def _staggered(texts, metrics: QtGui.QFontMetricsF, slot: float) -> bool:
    """Names too wide for their slot go on two staggered rows (each then has two slots)."""
    return len(texts) > 1 and any(metrics.horizontalAdvance(t) > slot - 4 for t in texts)


def captions_width(pic: LinesPicture, metrics: QtGui.QFontMetricsF, width: float) -> float:
    """The room the row captions take at the left: none when they would crowd the tokens."""
    wanted = max((metrics.horizontalAdvance(c) for c in pic.captions if c), default=0.0)
    return wanted if wanted <= width * CAPTION_SHARE else 0.0


def layout_lines(pic: LinesPicture, font: QtGui.QFont, width: float, height: float) -> Geometry:
    metrics = QtGui.QFontMetricsF(font)
    line_h = metrics.height()
    caption_w = captions_width(pic, metrics, width)
    left = MARGIN_PX + (caption_w + MARGIN_PX if caption_w else 0.0)
    right = width - MARGIN_PX
    title_h = line_h * 1.3 if pic.title else 0.0
    legend_h = line_h * 1.3 if len(pic.legend) > 1 else 0.0
    x_top = token_centres(len(pic.top), left, right)
    x_bottom = token_centres(len(pic.bottom), left, right)
    stagger_top = _staggered(pic.top, metrics, (right - left) / max(1, len(pic.top)))
    stagger_bottom = _staggered(pic.bottom, metrics, (right - left) / max(1, len(pic.bottom)))
    first_top = MARGIN_PX + title_h + line_h * (2.0 if stagger_top else 1.0) - metrics.descent()
    y_top = np.full(len(pic.top), first_top)
    if stagger_top:
        y_top[1::2] -= line_h  # odd names one line further from the lines
    last_bottom = height - MARGIN_PX - legend_h - metrics.descent() - (line_h if stagger_bottom else 0.0)
    y_bottom = np.full(len(pic.bottom), last_bottom)
    if stagger_bottom:
        y_bottom[1::2] += line_h
    return Geometry(
        line_h=line_h,
        left=left,
        right=right,
        x_top=x_top,
        x_bottom=x_bottom,
        y_top=y_top,
        y_bottom=y_bottom,
        y_top_line=first_top + metrics.descent() + line_h * 0.25,
        y_bottom_line=last_bottom - metrics.ascent() - line_h * 0.25,
        title_y=MARGIN_PX + metrics.ascent(),
        legend_y=(height - MARGIN_PX - metrics.descent()) if legend_h else None,
    )


def _focus(pic: LinesPicture, hover: tuple[str, int] | None) -> tuple[int | None, int | None]:
    if hover is not None:
        side, index = hover
        return (index, None) if side == "top" else (None, index)
    if pic.selected is not None:
        return pic.selected[0], None
    return None, None


def paint_lines(
    painter: QtGui.QPainter,
    rect: QtCore.QRectF,
    pic: LinesPicture,
    font: QtGui.QFont,
    fg: QtGui.QColor,
    bg: QtGui.QColor,
    hover: tuple[str, int] | None = None,
) -> Geometry:
    """Draw the whole picture into ``rect``: the screen, an image and an SVG all use this."""
    painter.save()
    painter.translate(rect.topLeft())
    width, height = rect.width(), rect.height()
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    painter.fillRect(QtCore.QRectF(0, 0, width, height), bg)
    painter.setFont(font)
    geo = layout_lines(pic, font, width, height)
    metrics = QtGui.QFontMetricsF(font)
    focus_row, focus_col = _focus(pic, hover)
    if pic.title:
        painter.setPen(fg)
        painter.drawText(
            QtCore.QPointF(MARGIN_PX, geo.title_y), elide(pic.title, metrics, width - 2 * MARGIN_PX)
        )
    if not pic.veiled:
        focused = focus_row is not None or focus_col is not None
        for seg in segments(pic.weights, focus_row, focus_col):
            colour = line_colour(seg.head)
            mine = seg.row == focus_row or seg.col == focus_col
            faded = focused and not mine
            colour.setAlphaF(1.0 if mine else (FADED_ALPHA if faded else min(1.0, 0.25 + seg.weight)))
            # the faint lines behind a focused token need no antialiasing: ten times cheaper
            painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, not faded)
            pen = QtGui.QPen(colour, seg.width_px, line_dashes(seg.head))
            pen.setCapStyle(QtCore.Qt.PenCapStyle.FlatCap)  # round caps cost Qt's rasteriser twice the time
            painter.setPen(pen)
            painter.drawLine(
                QtCore.QPointF(geo.x_top[seg.row], geo.y_top_line),
                QtCore.QPointF(geo.x_bottom[seg.col], geo.y_bottom_line),
            )
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    key = pic.selected[1] if pic.selected is not None and focus_col is None else focus_col
    _draw_tokens(painter, font, fg, geo, pic.top, geo.x_top, geo.y_top, focus_row, {})
    _draw_tokens(painter, font, fg, geo, pic.bottom, geo.x_bottom, geo.y_bottom, key, dict(pic.key_marks))
    painter.setPen(fg)
    painter.setFont(font)
    for caption, ys in zip(pic.captions, (geo.y_top, geo.y_bottom)):
        if caption and len(ys) and geo.left > MARGIN_PX:
            painter.drawText(QtCore.QPointF(MARGIN_PX, float(ys[0])), caption)
    if geo.legend_y is not None:
        _draw_legend(painter, metrics, fg, pic, geo)
    if pic.frame:
        painter.setPen(QtGui.QPen(QtGui.QColor(pic.frame), 4))
        painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
        painter.drawRect(QtCore.QRectF(2, 2, width - 4, height - 4))
    painter.restore()
    return geo


def label_stride(count: int, width: float, metrics: QtGui.QFontMetricsF) -> int:
    """Every how many tokens a name is written: names narrower than three letters say nothing,
    so a long input names every k-th token (the focused and marked ones always)."""
    staggered_slot = 2 * width / max(1, count)
    return max(1, int(np.ceil(3 * metrics.averageCharWidth() / max(staggered_slot, 1e-6))))


def _draw_tokens(painter, font, fg, geo: Geometry, tokens, xs, ys, focus, marks: dict) -> None:
    metrics = QtGui.QFontMetricsF(font)
    staggered = len(ys) > 1 and ys[0] != ys[1]
    stride = label_stride(len(tokens), geo.right - geo.left, metrics)
    slot = (geo.right - geo.left) / max(1, len(tokens)) * (2 if staggered else 1) * stride
    bold = QtGui.QFont(font)
    bold.setBold(True)
    for index, (token, x, y) in enumerate(zip(tokens, xs, ys)):
        if index % stride and index != focus and index not in marks:
            continue
        painter.setFont(bold if index == focus else font)
        m = QtGui.QFontMetricsF(painter.font())
        text = elide(token, m, slot - 4)
        w = m.horizontalAdvance(text)
        if index in marks:
            painter.setPen(QtGui.QPen(QtGui.QColor(marks[index]), MARK_PX))
            painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            box = QtCore.QRectF(x - w / 2 - 4, y - metrics.ascent() - 2, w + 8, metrics.height() + 4)
            painter.drawRoundedRect(box, 4, 4)
        painter.setPen(fg)
        painter.drawText(QtCore.QPointF(x - w / 2, float(y)), text)
    painter.setFont(font)


def _draw_legend(painter, metrics: QtGui.QFontMetricsF, fg, pic: LinesPicture, geo: Geometry) -> None:
    """A short line in each overlaid head's colour and dashes, and its name, as many as fit."""
    x, y = geo.left, geo.legend_y
    swatch = metrics.ascent() * 1.6
    for layer, label in enumerate(pic.legend):
        needed = swatch + 4 + metrics.horizontalAdvance(label) + 16
        if x + needed > geo.right + MARGIN_PX:
            break
        pen = QtGui.QPen(line_colour(layer), max(3.0, metrics.ascent() / 4), line_dashes(layer))
        painter.setPen(pen)
        middle = y - metrics.ascent() / 2
        painter.drawLine(QtCore.QPointF(x, middle), QtCore.QPointF(x + swatch, middle))
        painter.setPen(fg)
        painter.drawText(QtCore.QPointF(x + swatch + 4, y), label)
        x += needed


def token_hit(pic: LinesPicture, geo: Geometry, pos: QtCore.QPointF) -> tuple[str, int] | None:
    """The token ("top" or "bottom", index) under a point of the picture, if any."""
    band = geo.line_h
    for side, xs, ys in (("top", geo.x_top, geo.y_top), ("bottom", geo.x_bottom, geo.y_bottom)):
        if not len(xs):
            continue
        slot = (geo.right - geo.left) / len(xs)
        index = int((pos.x() - geo.left) // slot)
        for candidate in (index, index - 1, index + 1):  # a staggered name spans two slots
            if 0 <= candidate < len(xs):
                near_x = abs(pos.x() - xs[candidate]) <= slot * (1.0 if ys[0] != ys[-1] else 0.5)
                near_y = abs(pos.y() - (ys[candidate] - band * 0.35)) <= band * 0.6
                if near_x and near_y:
                    return side, candidate
    return None


def cell_of_click(pic: LinesPicture, side: str, index: int) -> tuple[int, int] | None:
    """A click on a token as a (query, key) cell: a query selects its heaviest key, a key the
    query that looks at it most (summed over the heads drawn)."""
    if pic.weights.shape[1] == 0 or pic.weights.shape[2] == 0:
        return None
    summed = pic.weights.sum(axis=0)
    if side == "top":
        return index, int(np.argmax(summed[index]))
    return int(np.argmax(summed[:, index])), index


class LinesView(QtWidgets.QWidget):
    """Two rows of tokens joined by weighted lines. Signals the (row, col) a user clicks."""

    cellClicked = QtCore.Signal(int, int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setMinimumSize(240, 160)
        self.picture = LinesPicture()
        self._hover: tuple[str, int] | None = None  # ("top" | "bottom", index)
        self._font_px = 0
        self._fg = QtGui.QColor("#000000")
        self._bg = QtGui.QColor("#ffffff")
        self._cache: tuple | None = None  # (what was painted, the picture of it)

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
        selected = self.picture.selected
        pic = LinesPicture.of(top_tokens, bottom_tokens, weights, heads, title=title, captions=captions)
        if selected is not None and selected[0] < len(pic.top) and selected[1] < len(pic.bottom):
            pic = replace(pic, selected=selected)
        self.set_picture(pic)

    def set_picture(self, picture: LinesPicture) -> None:
        self.picture = picture
        self.update()

    def set_selection(self, cell: tuple[int, int] | None) -> None:
        if cell is not None and not (cell[0] < len(self.picture.top) and cell[1] < len(self.picture.bottom)):
            cell = None
        if cell != self.picture.selected:
            self.picture = replace(self.picture, selected=cell)
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

    def geometry_now(self) -> Geometry:
        return layout_lines(self.picture, self._font(), self.width(), self.height())

    # -- painting ---------------------------------------------------------------
    def paintEvent(self, event) -> None:
        # the lines cost milliseconds: painted once per picture, size and focus, then reused
        dpr = self.devicePixelRatioF()
        key = (self.size(), dpr, self._hover, self._font_px, self._fg.rgba(), self._bg.rgba())
        if self._cache is None or self._cache[0] is not self.picture or self._cache[1] != key:
            image = QtGui.QImage(
                max(1, round(self.width() * dpr)),
                max(1, round(self.height() * dpr)),
                QtGui.QImage.Format.Format_ARGB32_Premultiplied,
            )
            image.setDevicePixelRatio(dpr)
            p = QtGui.QPainter(image)
            self.paint_into(p, self.width(), self.height())
            p.end()
            self._cache = (self.picture, key, image)
        painter = QtGui.QPainter(self)
        painter.drawImage(0, 0, self._cache[2])
        painter.end()

    def paint_into(self, painter: QtGui.QPainter, width: float, height: float) -> None:
        """Draw the whole view at any size: the screen, an image or an SVG use this."""
        rect = QtCore.QRectF(0, 0, width, height)
        paint_lines(painter, rect, self.picture, self._font(), self._fg, self._bg, self._hover)

    # -- hit testing and events ----------------------------------------------------
    def token_at(self, pos: QtCore.QPointF) -> tuple[str, int] | None:
        return token_hit(self.picture, self.geometry_now(), pos)

    def token_point(self, side: str, index: int) -> QtCore.QPoint:
        """Where a token's label sits on screen (tests click here)."""
        geo = self.geometry_now()
        xs, ys = (geo.x_top, geo.y_top) if side == "top" else (geo.x_bottom, geo.y_bottom)
        return QtCore.QPoint(int(xs[index]), int(ys[index] - geo.line_h * 0.35))

    def mouseMoveEvent(self, event) -> None:
        hit = self.token_at(event.position())
        if hit != self._hover:
            self._hover = hit
            self.setToolTip(self._tooltip(hit))
            self.update()

    def leaveEvent(self, event) -> None:
        if self._hover is not None:
            self._hover = None
            self.update()

    def mousePressEvent(self, event) -> None:
        hit = self.token_at(event.position())
        cell = None if hit is None else cell_of_click(self.picture, *hit)
        if cell is None:
            return
        self.picture = replace(self.picture, selected=cell)
        self.update()
        self.cellClicked.emit(*cell)

    def _tooltip(self, hit: tuple[str, int] | None) -> str:
        pic = self.picture
        if hit is None or pic.veiled:
            return ""
        side, index = hit
        w = pic.weights.sum(axis=0) / max(1, pic.weights.shape[0])
        if side == "top":
            row = w[index]
            order = np.argsort(row)[::-1][:3]
            parts = [f"{pic.bottom[j]} {row[j]:.2f}" for j in order]
            return f"{pic.top[index]} → " + ", ".join(parts)
        col = w[:, index]
        order = np.argsort(col)[::-1][:3]
        return f"{pic.bottom[index]} ← " + ", ".join(f"{pic.top[i]} {col[i]:.2f}" for i in order)

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


@dataclass(frozen=True)
class LinesFigure:
    """A lines picture as the Export dialog draws it: ``paint(painter, rect, style)`` with the
    figure style's font and colours (explorer.gui.heatmap.Style), on screen or not."""

    picture: LinesPicture

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRectF, style) -> None:
        paint_lines(painter, rect, self.picture, style.font, style.fg, style.bg)
