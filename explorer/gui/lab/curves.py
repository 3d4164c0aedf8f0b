"""Training curves on pyqtgraph: real axes with round ticks, the value under the mouse, autoscale.

``Curves`` (the data of one plot: its series, the x range a run will fill, a fixed or automatic
y range, the goal as a dashed line, the snapshot on screen as a vertical line) is drawn by
``CurvePlot``, the one curve widget of every lab, and painted into a PNG or SVG by
``CurvesPicture`` from the same data. A plot's x axis may be logarithmic (``log_x``: an
accuracy against training-set size) with labelled ticks where the data is (``x_ticks``); a
series may be a line, its points alone (one dot per seed), dashed (a chance level), or hollow
markers (a live run beside the shipped ones). The plot is made once pyqtgraph is imported (on
a thread of its own, explorer.gui.lab.warm), a piece per turn of the event loop: ahead while
its lab is idle (``build_ahead``), or when it is first on screen, one plot at a time; until
then the widget holds its place; a new ``Curves`` only replaces the data of the plot's
items and repaints (a few milliseconds, docs/benchmarks.md). Panning and zooming are off (the class watches a whole run); hovering
shows each series' value at the nearest step.

While a run trains a plot is redrawn a few times a second, on the GUI thread: only the series
whose data changed are given to pyqtgraph again, a long line (a loss every step) is drawn
without antialiasing and thinned to each pixel column's lowest and highest point (the same
picture at the screen's resolution; its first and last points always kept), and the data,
already finite, is not checked again. The hover read-out reads the data itself, every point.
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.heatmap import Style, format_value
from explorer.gui.lab import pacing
from explorer.gui.lab.ticks import fitting_axis
from explorer.gui.lab.warm import plotting_ready, warm_up_when_idle

GOAL_COLOUR = "#D55E00"
MIN_HEIGHT_PX = 170  # readable at 1024×768: a title, ticks, an axis label and a curve between
CHECK_MS = 100
ITEMS_A_PIECE = 5  # the series' items made ahead in a piece (build_ahead)
BUILD_GAP_S = 0.1  # plots are made a piece at a time (see build_ahead), this far apart
TITLE_GAP = "&nbsp; "  # between the title and the legend's entries
LEGEND_PAD_PX = 16  # the plot's margins beside its widest legend entry
# the most a legend may ask for: a longer entry wraps rather than squeeze the plot's neighbours
# (a translation step's plot in a 414 px column beside the lesson asked for 460)
LEGEND_MIN_WIDTH_CAP_PX = 320
Y_AXIS_PAD_PX = 12  # the y axis's ticks and the gap beside its labels
SMOOTH_POINTS = 150  # a line of more points is drawn without antialiasing (a dense line blurs anyway)
_last_built = [0.0]


@dataclass
class Series:
    name: str
    xs: np.ndarray
    ys: np.ndarray
    colour: str
    width: float = 2.0
    dots: bool = False  # mark every point (evaluations are few)
    line: bool = True  # False: the points alone, no line through them
    symbol: str = "o"  # the points' shape, pyqtgraph's names: "o" a disc, "s" a square
    hollow: bool = False  # the points outlined, not filled
    dashed: bool = False
    in_legend: bool = True  # False: a series the title's legend leaves out (dots beside their line)
    # False: a line beside the run (the shipped run's) that widens the x axis only before a run
    # (``Curves.live``): a live run's axis is its own steps, this line drawn within them
    bounds: bool = True

    def legend_mark(self) -> str:
        if not self.line:
            square = self.symbol == "s"
            return ("□" if square else "○") if self.hollow else ("■" if square else "●")
        return "┅" if self.dashed else "━"


@dataclass
class Curves:
    title: str = ""
    x_label: str = ""
    series: list[Series] = field(default_factory=list)
    x_range: tuple[float, float] = (0.0, 1.0)  # the axis reaches at least this far: the curve grows across
    y_range: tuple[float, float] | None = None  # None: from the data
    goal: float | None = None  # a dashed horizontal line (the lab's goal)
    marker: float | None = None  # a vertical line at this x (the snapshot on screen)
    log_x: bool = False  # x on a log10 scale (its values must be positive; others are left out)
    x_ticks: tuple[float, ...] = ()  # labelled x ticks (thousands separated); none: the axis's own
    live: bool = False  # a run of the page's is drawn: only the series that bound it set the x axis

    def view_x(self, xs) -> np.ndarray:
        """x values where the plot draws them: log10 on a log axis."""
        xs = np.asarray(xs, dtype=np.float64)
        if not self.log_x:
            return xs
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(xs > 0, np.log10(np.where(xs > 0, xs, 1.0)), np.nan)

    def data_x(self, x: float) -> float:
        """The x of the data at a point of the plot's x axis."""
        return float(10.0**x) if self.log_x else float(x)

    def data(self, index: int = 0) -> tuple[np.ndarray, np.ndarray]:
        if index >= len(self.series):
            return np.zeros(0), np.zeros(0)
        s = self.series[index]
        return np.asarray(s.xs, dtype=np.float64), np.asarray(s.ys, dtype=np.float64)

    def nearest(self, x: float) -> tuple[float, list[tuple[Series, float]]] | None:
        """The step of the data nearest ``x`` and each series' value there (where it has one)."""
        steps = np.unique(np.concatenate([np.asarray(s.xs, float) for s in self.series] or [np.zeros(0)]))
        if not steps.size or not np.isfinite(x):
            return None
        distance = np.abs(self.view_x(steps) - self.view_x(x))
        if not np.isfinite(distance).any():
            return None
        step = float(steps[np.nanargmin(distance)])
        values = []
        for s in self.series:
            xs = np.asarray(s.xs, float)
            for hit in np.flatnonzero(xs == step):  # one per seed where a series has several
                values.append((s, float(np.asarray(s.ys, float)[hit])))
        return step, values


def y_limits(curves: Curves) -> tuple[float, float]:
    """The y range drawn: the fixed one, else the finite data's from 0, with a margin above."""
    if curves.y_range is not None:
        return curves.y_range
    values = [np.asarray(s.ys, float) for s in curves.series]
    finite = np.concatenate([v[np.isfinite(v)] for v in values] or [np.zeros(0)])
    if not finite.size:
        return 0.0, 1.0
    lo, hi = min(0.0, float(finite.min())), float(finite.max())
    if hi - lo < 1e-9:
        hi = lo + 1.0
    return lo, hi + 0.05 * (hi - lo)


def x_limits(curves: Curves) -> tuple[float, float]:
    """The x range drawn: ``x_range``, widened to the data's (with a live run, only its own)."""
    xs = [np.asarray(s.xs, float) for s in curves.series if len(s.xs) and (s.bounds or not curves.live)]
    top = max([float(x.max()) for x in xs] + [curves.x_range[1], 1.0])
    if curves.log_x:  # from the smallest positive x: a log axis has no 0
        positive = [float(v) for x in xs for v in x if v > 0] + [v for v in curves.x_range if v > 0]
        return min(positive, default=1.0), top
    return curves.x_range[0], top


def padded_x(x: tuple[float, float], log_x: bool = False) -> tuple[float, float]:
    """The x range with a 2 % margin each side, never below 0 on a linear axis that starts at
    0 or above (steps, words: an axis from −1 read as a step −1)."""
    lo, hi = x
    pad = 0.02 * (hi - lo)
    start = lo - pad
    if not log_x and lo >= 0:
        start = max(start, 0.0)
    return start, hi + pad


def title_parts(curves: Curves) -> list[tuple[str, str]]:
    """The title and each legend entry (its mark and name in its colour): (HTML, plain text)."""
    parts = [(html.escape(curves.title), curves.title)] if curves.title else []
    for s in curves.series:
        if s.in_legend:
            shown = f"{s.legend_mark()}&nbsp;{html.escape(s.name)}"
            parts.append(
                (f"<span style='color:{s.colour}'>{shown}</span>", f"{s.legend_mark()}\u00a0{s.name}")
            )
    return parts


def title_html(curves: Curves) -> str:
    """The title and a legend on one line."""
    return TITLE_GAP.join(h for h, _ in title_parts(curves))


def packed(widths: list[float], room: float, gap: float) -> list[list[int]]:
    """Parts of these widths in lines of at most ``room`` (a part wider than it alone on its
    line), in order: where a legend breaks, only ever between two entries (Qt's text layout
    would break a Chinese name between any two of its characters, "留出集准 / 确率")."""
    lines: list[list[int]] = []
    used = 0.0
    for k, w in enumerate(widths):
        if lines and used + gap + w <= room:
            lines[-1].append(k)
            used += gap + w
        else:
            lines.append([k])
            used = w
    return lines


def title_lines(title: str, room: float, width, most: int = 2) -> list[str] | None:
    """``title`` on at most ``most`` lines broken between its words, each at most ``room``
    wide by ``width(text)``; None where it has no spaces (a Chinese title) or will not fit."""
    words = title.split(" ")
    if len(words) < 2:
        return None
    lines = [words[0]]
    for word in words[1:]:
        joined = f"{lines[-1]} {word}"
        if width(joined) <= room:
            lines[-1] = joined
        else:
            lines.append(word)
    if len(lines) > most or any(width(line) > room for line in lines):
        return None
    return lines


def thinned(xs: np.ndarray, ys: np.ndarray, columns: int) -> np.ndarray:
    """Indices of the points that draw the same line at ``columns`` pixel columns: where there
    are more than two points a column, each column's lowest and highest (in x order), the
    first and last point always. ``xs`` ascending."""
    n = len(xs)
    if columns < 1 or n <= 2 * columns:
        return np.arange(n)
    lo, hi = float(xs[0]), float(xs[-1])
    column = np.minimum(((xs - lo) / max(hi - lo, 1e-12) * columns).astype(np.int64), columns - 1)
    order = np.lexsort((ys, column))  # by column, then by value: a column's lowest first
    sorted_columns = column[order]
    starts = np.flatnonzero(np.r_[True, sorted_columns[1:] != sorted_columns[:-1]])
    ends = np.r_[starts[1:], n] - 1
    keep = np.zeros(n, dtype=bool)  # a mask, not np.unique: its first call imports numpy.ma (~30 ms)
    keep[order[starts]] = keep[order[ends]] = keep[[0, n - 1]] = True
    return np.flatnonzero(keep)


class CurvePlot(QtWidgets.QWidget):
    """One plot of a lab's training (see the module docstring)."""

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        self.curves = Curves()
        self.style_ = style
        self.readout = ""  # the hovered step's values, as shown
        self.title_shown = ""  # the title as drawn: cut short with "…" where the plot is narrower
        self.plot = None  # the pyqtgraph PlotWidget, once pyqtgraph is imported
        self._pieces: Iterator[None] | None = None  # the plot's making, under way (build_ahead)
        self._items: list = []
        self._given: list[tuple | None] = []  # what each item was last given (its data and looks)
        self._thinned_for: int | None = None  # the pixel columns a thinned line was drawn for
        self._parts: list[tuple[str, float]] = []  # the title's parts: HTML, width in pixels
        self._gap = 0.0  # between two parts, in pixels
        self._title_px = 0
        self._title_body: str | None = None  # the title's HTML as broken into lines
        self._goal = self._marker = self._text = None
        self._words: tuple | None = None  # the title and axis words drawn
        self._x: tuple[float, float] | None = None  # the ranges set
        self._y: tuple[float, float] | None = None
        self._ticks: tuple[float, ...] = ()  # the x ticks set
        self._y_labels_px = 0  # the y axis's width set
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.waiting = QtWidgets.QLabel("…")
        self.waiting.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.waiting)
        self.setMinimumHeight(MIN_HEIGHT_PX)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)
        self._check = QtCore.QTimer(self, interval=CHECK_MS)
        self._check.timeout.connect(self._build_when_ready)

    hint_height = 220  # the height it asks for (a training page asks for its least: no scrolling)

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(360, max(self.hint_height, self.minimumHeight()))

    # -- data and looks ----------------------------------------------------------------------------
    def set_curves(self, curves: Curves, draw: bool = True) -> None:
        """New data; drawn now, or (``draw`` False) at the next ``draw()``."""
        self.curves = curves
        if draw:
            self.draw()

    def draw(self) -> None:
        if self.plot is not None:
            self._draw()

    def set_style(self, style: Style) -> None:
        self.style_ = style
        self._words = None
        if self.plot is not None:
            self._restyle()
            self._draw()

    def ensure_plot(self) -> None:
        """Make the plot now, importing pyqtgraph on this thread if it must (an export)."""
        self._build()

    # -- building ----------------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        # the labs' warm-up when the window is calm, not now: a lab's tab is shown as it is
        # opened, and the imports beside the first keystrokes there doubled their time (they
        # share the interpreter lock)
        warm_up_when_idle(self)
        if self.plot is None and not self._check.isActive():
            self._check.start()

    def _build_when_ready(self) -> None:
        if self.plot is not None:  # made (ahead, or by the pieces queued at an earlier tick)
            self._check.stop()
            return
        if not plotting_ready() or not self.isVisible():
            return
        if time.perf_counter() - _last_built[0] < BUILD_GAP_S:
            return  # another plot was started a moment ago: this one at a later tick
        self.build_ahead()  # a piece a turn, paced: the widget holds its place meanwhile
        _last_built[0] = time.perf_counter()

    def _build(self) -> None:
        """Make the plot now (the pieces of it not made yet)."""
        for _ in self._pieces_left():
            pass

    def build_ahead(self) -> None:
        """Make the plot while the window is idle, a piece per turn of the event loop (paced
        with the labs' other heavy draws): made whole it cost 45–50 ms, in the turn of the key
        that first showed it (lesson step 34→35). Shown or exported before its last piece,
        the rest is made then."""
        if self.plot is None and plotting_ready() and not pacing.pending(self, "build"):
            pacing.later(self, self._next_piece, "build")

    def _next_piece(self) -> None:
        if next(self._pieces_left(), "made") != "made":
            pacing.later(self, self._next_piece, "build")

    def _pieces_left(self) -> Iterator[None]:
        if self.plot is not None:
            return iter(())
        if self._pieces is None:
            self._pieces = self._build_pieces()
        return self._pieces

    def _build_pieces(self) -> Iterator[None]:
        """The widget, the series' items, then its looks and data: a piece each. ``plot`` is
        set with the last piece (until then the widget holds its place)."""
        import pyqtgraph as pg

        pg.setConfigOptions(antialias=True)
        plot = pg.PlotWidget(enableMenu=False, axisItems={"bottom": fitting_axis()("bottom")})
        item = plot.getPlotItem()
        item.hideButtons()
        item.setMouseEnabled(x=False, y=False)
        item.showGrid(x=True, y=True, alpha=0.25)
        # the axes and their grid painted from a pixmap kept between paints (Qt redraws it when
        # a range changes): a new point moves the curves only, and the axes were most of a repaint
        for axis in item.axes.values():
            axis["item"].setCacheMode(QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        yield
        self._goal = pg.InfiniteLine(angle=0, movable=False)
        self._marker = pg.InfiniteLine(angle=90, movable=False)
        self._text = pg.TextItem(anchor=(0, 0))
        for extra in (self._goal, self._marker):
            item.addItem(extra, ignoreBounds=True)
        self._text.setParentItem(item.getViewBox())
        plot.scene().sigMouseMoved.connect(self._on_mouse)
        item.getViewBox().sigResized.connect(self._pad_y)  # the label room is in pixels
        yield
        for count in range(ITEMS_A_PIECE, len(self.curves.series) + ITEMS_A_PIECE, ITEMS_A_PIECE):
            self._add_items(item, count)  # 2–3 ms each
            yield
        self.plot, self._pieces = plot, None
        self.waiting.hide()
        self.layout().addWidget(plot)
        self._restyle()
        self._draw()

    def _add_items(self, item, count: int) -> None:
        while len(self._items) < count:
            # no dynamic range limit: the points are finite and few, and with one every item
            # recomputes its data on each change of the y range
            line = item.plot()
            line.setDynamicRangeLimit(None)
            self._items.append(line)
            self._given.append(None)

    def _restyle(self) -> None:
        import pyqtgraph as pg

        style = self.style_
        self.plot.setBackground(style.bg)
        item = self.plot.getPlotItem()
        font = QtGui.QFont(style.font)
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setPen(pg.mkPen(style.frame))
            axis.setTextPen(pg.mkPen(style.fg))
            axis.setStyle(tickFont=font, tickTextOffset=4)
        self._y_labels_px = 0
        self._fit_y_axis(item)
        self._goal.setPen(pg.mkPen(GOAL_COLOUR, width=1.5, style=QtCore.Qt.PenStyle.DashLine))
        self._marker.setPen(pg.mkPen(style.accent, width=2))
        self._text.setColor(style.fg)
        self._text.setFont(font)
        self._text.fill = pg.mkBrush(QtGui.QColor(style.bg.red(), style.bg.green(), style.bg.blue(), 210))

    def _draw(self) -> None:
        import pyqtgraph as pg

        c, style = self.curves, self.style_
        item = self.plot.getPlotItem()
        px = style.font.pixelSize()
        words = (title_html(c), c.x_label, style.fg.name(), px)
        if words != self._words:  # a title is laid out as HTML: only when it changes
            self._words = words
            self._fit_legend(item, c, px)
            self._title_body = None
            item.setTitle(words[0], color=words[2], size=f"{px}px")
            self._free_title(item.titleLabel)
            item.setLabel("bottom", c.x_label, color=words[2], **{"font-size": f"{px}px"})
        self._add_items(item, len(c.series))
        columns = int(item.getViewBox().width())
        self._thinned_for = None
        for k, (line, s) in enumerate(zip(self._items, c.series)):
            ys = np.asarray(s.ys, float)
            xs = c.view_x(s.xs)
            keep = np.isfinite(ys) & np.isfinite(xs)
            xs, ys = xs[keep], ys[keep]
            marked = s.dots or not s.line
            if s.line and not marked and len(xs) > 2 * max(columns, 1):
                shown = thinned(xs, ys, columns)
                xs, ys = xs[shown], ys[shown]
                self._thinned_for = columns
            given = (
                xs.tobytes(),
                ys.tobytes(),
                s.colour,
                s.width,
                s.dashed,
                s.line,
                marked,
                s.symbol,
                s.hollow,
            )
            if given != self._given[k]:  # an unchanged series is not handed to pyqtgraph again
                self._given[k] = given
                dash = QtCore.Qt.PenStyle.DashLine if s.dashed else QtCore.Qt.PenStyle.SolidLine
                line.setData(
                    xs,
                    ys,
                    pen=pg.mkPen(s.colour, width=s.width, style=dash) if s.line else None,
                    symbol=s.symbol if marked else None,
                    symbolSize=11 if s.hollow else 7,
                    symbolBrush=None if s.hollow else s.colour,
                    symbolPen=pg.mkPen(s.colour, width=2) if s.hollow else None,
                    antialias=len(xs) <= SMOOTH_POINTS,
                    connect="all",
                    skipFiniteCheck=True,  # the points are the finite ones
                )
            line.setVisible(True)
        for line in self._items[len(c.series) :]:
            line.setVisible(False)
        lo, hi = x_limits(c)
        self._set_ticks(item, c)
        self._set_ranges(item, tuple(c.view_x([lo, hi]).tolist()), y_limits(c), fixed=c.y_range is not None)
        for line, value in ((self._goal, c.goal), (self._marker, c.marker)):
            line.setVisible(value is not None)
            if value is not None:
                line.setValue(value)
        self._text.setVisible(False)
        self.readout = ""

    def _title_metrics(self, px: int) -> QtGui.QFontMetricsF:
        font = QtGui.QFont(self.plot.getPlotItem().titleLabel.item.font())
        font.setPixelSize(px)
        return QtGui.QFontMetricsF(font)

    def _fit_legend(self, item, curves: Curves, px: int) -> None:
        """At least as wide as the widest legend entry beside the y axis: an entry is never
        broken, so a narrower plot would cut it."""
        metrics = self._title_metrics(px)
        self._parts = [(h, metrics.horizontalAdvance(plain) + 2) for h, plain in title_parts(curves)]
        self._gap = metrics.horizontalAdvance("\u00a0 ")
        self._title_px = px
        widest = max((w for _, w in self._parts[1 if curves.title else 0 :]), default=0.0)
        axis = item.getAxis("left").minimumWidth()  # its fixed width (laid out or not)
        need = int(axis + widest + LEGEND_PAD_PX) if widest else 0
        self.setMinimumWidth(min(need, LEGEND_MIN_WIDTH_CAP_PX))

    def _free_title(self, label) -> None:
        """A title asks for no width and wraps onto more lines where the plot is narrower than it
        (two plots beside a figure on a projector, a legend in Chinese): unwrapped, a long one
        would widen the plot's layout past its widget, or be cut at both ends. pyqtgraph's
        LabelItem sets its minimum from its text on every change and resize, and PlotItem gives
        the title row a fixed 30 px: both follow the wrapped text here."""
        if getattr(label, "_freed", False):
            return
        rows = self.plot.getPlotItem().layout
        text = label.item
        centred = text.document().defaultTextOption()
        centred.setAlignment(QtCore.Qt.AlignmentFlag.AlignHCenter)
        text.document().setDefaultTextOption(centred)
        measure = label.updateMin

        def update_min() -> None:
            width = label.rect().width()
            text.setTextWidth(width if width > 40 else -1)  # before its first layout: one line
            if width > 40 and self._parts:
                self._break_title(label, width)
            text.setPos(0, 0)
            measure()
            label.setMinimumWidth(0)
            hints = label._sizeHint  # what the LabelItem answers sizeHint from
            for which in (QtCore.Qt.SizeHint.MinimumSize, QtCore.Qt.SizeHint.PreferredSize):
                hints[which] = (0, hints[which][1])
            height = float(np.ceil(text.boundingRect().height())) if label.isVisible() else 0.0
            if height and abs(label.maximumHeight() - height) > 0.5:
                label.setMaximumHeight(height)
                rows.setRowFixedHeight(0, height)
            label.updateGeometry()

        label.updateMin = update_min
        label._freed = True
        update_min()

    def _break_title(self, label, width: float) -> None:
        """The title's lines broken between its parts where they do not fit ``width``; a title
        wider than the plot on one line, cut short with "…" (the whole of it in the plot's
        tooltip): Qt would break it anywhere, a Chinese one between two characters of a word
        ("留出集准确 / 率")."""
        room = width - 2 * label.item.document().documentMargin()  # the text's own width
        parts = list(self._parts)
        title = self.curves.title
        shown = title
        if title and parts and parts[0][1] > room:
            metrics = self._title_metrics(self._title_px)
            words = title_lines(title, room - 2, metrics.horizontalAdvance)
            if words is not None:  # on lines of whole words: a projector's narrow plot read
                parts[0] = ("<br>".join(html.escape(line) for line in words), room)  # "held-out e…"
            else:
                shown = metrics.elidedText(title, QtCore.Qt.TextElideMode.ElideRight, max(room - 2, 0.0))
                parts[0] = (html.escape(shown), room)
        self.title_shown = shown
        self.setToolTip(title if shown != title else "")
        lines = packed([w for _, w in parts], room, self._gap)
        body = "<br>".join(TITLE_GAP.join(parts[k][0] for k in line) for line in lines)
        if body == self._title_body:
            return
        self._title_body = body
        colour = QtGui.QColor(label.opts.get("color") or "#000000").name(QtGui.QColor.NameFormat.HexArgb)
        label.item.setHtml(f"<span style='color: {colour}; font-size: {self._title_px}px'>{body}</span>")

    def _set_ticks(self, item, c: Curves) -> None:
        ticks = tuple(c.x_ticks)
        if ticks == self._ticks:
            return
        self._ticks = ticks
        labelled = [(float(c.view_x([t])[0]), f"{t:,g}") for t in ticks]
        item.getAxis("bottom").setTicks([labelled] if labelled else None)

    def _set_ranges(self, item, x: tuple[float, float], y: tuple[float, float], fixed: bool) -> None:
        """The axes cover the data; an automatic y range changes only when the data leaves it
        or fills less than half of it (an axis redraws its ticks whenever its range moves)."""
        if x != self._x:
            self._x = x
            item.setXRange(*padded_x(x, self.curves.log_x), padding=0)
        if self._y is not None and not fixed:
            lo, hi = self._y
            if lo <= y[0] and y[1] <= hi and (y[1] - y[0]) >= 0.5 * (hi - lo):
                return
        if y != self._y:
            self._y = y
            item.setYRange(*y, padding=self._y_padding(item))
            self._fit_y_axis(item)

    def _fit_y_axis(self, item) -> None:
        """The y axis as wide as its widest label (and the tick gap): the x axis and the title
        get the rest (beside a figure at 1024×768 a fixed "0.000" took a fifth of the plot)."""
        axis = item.getAxis("left")
        metrics = QtGui.QFontMetricsF(self.style_.font)
        lo, hi = item.getViewBox().viewRange()[1] if self._y is not None else (0.0, 1.0)
        height = max(item.getViewBox().height(), MIN_HEIGHT_PX / 2)
        texts = ["0.0"]
        for spacing, values in axis.tickValues(lo, hi, height)[:3]:
            texts += axis.tickStrings(values, 1.0, spacing)
        px = int(np.ceil(max(metrics.horizontalAdvance(t) for t in texts))) + Y_AXIS_PAD_PX
        if px != self._y_labels_px:
            self._y_labels_px = px
            axis.setWidth(px)

    def _pad_y(self, *_) -> None:
        item = self.plot.getPlotItem()
        if self._y is not None:
            item.setYRange(*self._y, padding=self._y_padding(item))
            self._fit_y_axis(item)
        if self._thinned_for is not None and int(item.getViewBox().width()) != self._thinned_for:
            self._draw()  # a thinned line again for its new width

    def _y_padding(self, item) -> float:
        """Room for half a tick label beyond each end of the y range: a gridded pyqtgraph axis
        drops a label that would reach past its plot (a loss's 0, a share's 1)."""
        half = 0.6 * QtGui.QFontMetricsF(self.style_.font).height()
        height = item.getViewBox().height()
        if height <= 4 * half:  # not laid out yet, or tiny: a guess for a plot of MIN_HEIGHT_PX
            height = MIN_HEIGHT_PX - 3 * half
        return max(0.02, min(0.25, half / (height - 2 * half)))

    # -- hovering ----------------------------------------------------------------------------------
    def _on_mouse(self, position) -> None:
        box = self.plot.getPlotItem().getViewBox()
        if not box.sceneBoundingRect().contains(position):
            self._text.setVisible(False)
            self.readout = ""
            return
        self.show_value_at(self.curves.data_x(box.mapSceneToView(position).x()))

    def show_value_at(self, x: float) -> str:
        """Each series' value at the step nearest ``x`` (the data's x), written in the plot's corner."""
        found = self.curves.nearest(x)
        if found is None or not found[1]:
            self.readout = ""
        else:
            step, values = found
            lines = [f"{self.curves.x_label} {step:,g}".strip()]
            lines += [f"{s.name}: {format_value(v)}" for s, v in values]
            self.readout = "\n".join(lines)
        if self._text is not None:
            self._text.setText(self.readout)
            self._text.setVisible(bool(self.readout))
        return self.readout

    # -- painting elsewhere ------------------------------------------------------------------------
    def paint_into(self, painter: QtGui.QPainter, rect: QtCore.QRectF) -> None:
        """The plot as it is, into any painter (a PNG, an SVG), at ``rect``'s size."""
        self.ensure_plot()
        item = self.plot.getPlotItem()
        item.setGeometry(QtCore.QRectF(0, 0, rect.width(), rect.height()))
        painter.fillRect(rect, self.style_.bg)
        self.plot.scene().render(painter, rect, QtCore.QRectF(0, 0, rect.width(), rect.height()))


class CurvesPicture:
    """Several plots side by side (``columns`` a row), painted from their data for the Exporter."""

    def __init__(self, plots: list[Curves], style: Style, columns: int = 2):
        self.plots, self.style, self.columns = plots, style, max(1, columns)

    def paint(self, painter: QtGui.QPainter, rect: QtCore.QRectF, style: Style | None = None) -> None:
        style = style or self.style
        rows = -(-len(self.plots) // self.columns)
        w, h = rect.width() / self.columns, rect.height() / max(1, rows)
        for k, curves in enumerate(self.plots):
            plot = CurvePlot(style)
            plot.ensure_plot()
            plot.set_curves(curves)
            cell = QtCore.QRectF(
                rect.left() + (k % self.columns) * w, rect.top() + (k // self.columns) * h, w, h
            )
            plot.paint_into(painter, cell)
            plot.deleteLater()
