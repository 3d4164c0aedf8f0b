"""The Vision tab's pages: each shows one part of a VisionTrace and reports what the user clicks.

The pages hold widgets only: the tab (explorer/gui/labs/vision/view.py) gives them the trace and
the selection to show, and listens to their signals; every number they show is the trace's
(or explorer.vision.worked's, which reads the trace).
"""

from __future__ import annotations

import html
import sys

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.vision import BRUSH_RANGE, DRAW_COLOURS
from explorer.gui.core_text import error_text
from explorer.gui.heatmap import Figure, Style
from explorer.gui.i18n import translate
from explorer.gui.labs.vision import figures as vf
from explorer.gui.labs.vision.bars import BarChart, Bars, decimals, percent
from explorer.gui.labs.vision.drawing import DrawCanvas, qcolour
from explorer.gui.labs.vision.figures import SquareCanvas
from explorer.gui.messages import error_message
from explorer.vision.trace import VisionTrace

TOP = QtGui.QColor("#4477aa")  # the largest channel weights, the predicted class
BOTTOM = QtGui.QColor("#ee6677")  # the smallest channel weights


def picture_error(exc: BaseException) -> str:
    """One line for a picture that cannot be used (the loader's own message), or any other error."""
    images = sys.modules.get("explorer.vision.images")  # only a read file can have raised its error
    if images is not None and isinstance(exc, images.ImageError):
        return translate("VisionView", "This picture cannot be used: {0}").format(error_text(exc))
    return error_message(exc)


def probability_bars(trace: VisionTrace, title: str = "") -> Bars:
    """The probabilities of every class, in class order; the prediction coloured, the true class bold."""
    names = [vf.class_label(n) for n in trace.class_names]
    if trace.label is not None:
        names[trace.label] += " ✓"
    return Bars(
        values=trace.probabilities,
        labels=names,
        keys=list(range(len(names))),
        title=title,
        colours={trace.prediction: TOP},
        bold={trace.label} if trace.label is not None else set(),
        text=percent,
    )


def channel_bars(trace: VisionTrace, block: str, selected: int | None, title: str) -> Bars:
    weights = trace.block(block).stages["channel_weights"]
    order = vf.sorted_channels(weights)
    shown = vf.shown_channels(weights, selected)
    colours = {s.channel: TOP if s.role == "top" else BOTTOM for s in shown if s.role != "selected"}
    return Bars(
        values=weights[order],
        labels=[str(int(c)) for c in order],
        keys=[int(c) for c in order],
        title=title,
        horizontal=False,
        colours=colours,
        labelled={s.channel for s in shown},
        selected=selected,
        text=decimals,
    )


def flat_note(trace: VisionTrace, block: str) -> str:
    """What weights that are all about the same mean, and the block whose weights differ most."""
    weights = trace.block(block).stages["channel_weights"]
    if not vf.flat.is_flat(weights):
        return ""
    lo, hi = vf.flat.weight_range(weights)
    note = translate("VisionView", ": all {lo:.2f}–{hi:.2f}, every channel kept alike").format(lo=lo, hi=hi)
    other = vf.flat.liveliest_block(trace)
    if other is not None and other != block:
        note += translate("VisionView", "; {0} shows more").format(other)
    return note


def channel_legend(selected: bool, shown: int) -> str:
    """What the channel maps' marks (▲ ▼ ●) and the bars' colours stand for; ``selected``:
    a chosen channel is shown beside the top and bottom ones."""
    edge = (shown - int(selected)) // 2
    parts = [
        translate("VisionView", "▲ among the {0} largest weights s_c (blue bars)").format(edge),
        translate("VisionView", "▼ among the {0} smallest (red bars)").format(edge),
    ]
    if selected:
        parts.append(translate("VisionView", "● the channel you chose"))
    # rich text: each part kept whole on its line (Chinese breaks between any two characters)
    return "&nbsp; ·&nbsp; ".join(f"<span style='white-space:nowrap'>{html.escape(p)}</span>" for p in parts)


class Placeholder(QtWidgets.QWidget):
    """What a page says when the model or block has nothing of its kind, and a way out."""

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        self.label = QtWidgets.QLabel()
        self.label.setWordWrap(True)
        self.label.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.button = QtWidgets.QPushButton()
        layout.addStretch(1)
        layout.addWidget(self.label)
        layout.addWidget(self.button, 0, QtCore.Qt.AlignmentFlag.AlignCenter)
        layout.addStretch(1)


class WorkedSplitter(QtWidgets.QSplitter):
    """The figures beside the worked arithmetic on a wide tab, above it on a narrow one (a
    projector at 1024×768 leaves the tab ~700 px: side by side, both would be too small to read)."""

    WIDE_CHARS = 45  # the tab's width, in font sizes, from which the two sit side by side

    def __init__(self, parent=None):
        super().__init__(QtCore.Qt.Orientation.Horizontal, parent)
        self.setChildrenCollapsible(False)

    def resizeEvent(self, event):
        wide = event.size().width() >= self.WIDE_CHARS * QtGui.QFontInfo(self.font()).pixelSize()
        orientation = QtCore.Qt.Orientation.Horizontal if wide else QtCore.Qt.Orientation.Vertical
        if orientation != self.orientation():
            self.setOrientation(orientation)
        super().resizeEvent(event)


class StackedPage(QtWidgets.QStackedWidget):
    """A page with content, or a placeholder when there is nothing of its kind to show."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.content = QtWidgets.QWidget()
        self.placeholder = Placeholder()
        self.addWidget(self.content)
        self.addWidget(self.placeholder)

    def show_content(self, on: bool) -> None:
        self.setCurrentWidget(self.content if on else self.placeholder)


def worked_browser() -> QtWidgets.QTextBrowser:
    view = QtWidgets.QTextBrowser()
    view.setOpenLinks(False)
    view.setMinimumWidth(160)
    return view


# -- the picture ---------------------------------------------------------------------------------------
class PicturePage(QtWidgets.QWidget):
    positionClicked = QtCore.Signal(int, int)
    strokeDrawn = QtCore.Signal(object)
    brushChanged = QtCore.Signal(str, float)
    backgroundChanged = QtCore.Signal(str)
    undoClicked = QtCore.Signal()
    clearClicked = QtCore.Signal()

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.left = QtWidgets.QStackedWidget()
        self.picture = SquareCanvas(style=style)
        self.left.addWidget(self.picture)
        draw_box = QtWidgets.QWidget()
        dl = QtWidgets.QVBoxLayout(draw_box)
        dl.setContentsMargins(0, 0, 0, 0)
        tools = QtWidgets.QGridLayout()
        self.colour = QtWidgets.QComboBox()
        for name in DRAW_COLOURS:
            swatch = QtGui.QPixmap(14, 14)
            swatch.fill(qcolour(name))
            self.colour.addItem(QtGui.QIcon(swatch), "", name)
        self.brush = QtWidgets.QDoubleSpinBox()
        self.brush.setRange(*BRUSH_RANGE)
        self.brush.setSingleStep(0.5)
        self.brush.setDecimals(1)
        self.background = QtWidgets.QComboBox()
        self.background.addItem("", "picture")
        self.background.addItem("", "plain")
        self.undo = QtWidgets.QPushButton()
        self.clear = QtWidgets.QPushButton()
        tools.addWidget(self.colour, 0, 0)
        tools.addWidget(self.brush, 0, 1)
        tools.addWidget(self.background, 1, 0, 1, 2)
        tools.addWidget(self.undo, 2, 0)
        tools.addWidget(self.clear, 2, 1)
        dl.addLayout(tools)
        self.canvas = DrawCanvas()
        dl.addWidget(self.canvas, 1)
        self.left.addWidget(draw_box)
        self.overlay = SquareCanvas(style=style)
        self.probabilities = BarChart(style)
        layout.addWidget(self.left, 2)
        layout.addWidget(self.overlay, 3)  # its title, axes and colour bar need the room
        layout.addWidget(self.probabilities, 3)  # a class name, its bar and its percentage
        self.row = layout
        self.overlay.clicked.connect(lambda _i, r, c: self.positionClicked.emit(r, c))
        self.canvas.strokeFinished.connect(self.strokeDrawn)
        self.colour.currentIndexChanged.connect(self._brush)
        self.brush.valueChanged.connect(self._brush)
        self.background.currentIndexChanged.connect(
            lambda _: self.backgroundChanged.emit(self.background.currentData())
        )
        self.undo.clicked.connect(self.undoClicked)
        self.clear.clicked.connect(self.clearClicked)

    def _brush(self, *_) -> None:
        self.brushChanged.emit(self.colour.currentData(), float(self.brush.value()))

    def set_drawing(self, on: bool) -> None:
        self.left.setCurrentIndex(1 if on else 0)

    def show_tools(self, colour: str, radius: float, background: str) -> None:
        for w in (self.colour, self.brush, self.background):
            w.blockSignals(True)
        self.colour.setCurrentIndex(max(0, self.colour.findData(colour)))
        self.brush.setValue(radius)
        self.background.setCurrentIndex(max(0, self.background.findData(background)))
        for w in (self.colour, self.brush, self.background):
            w.blockSignals(False)
        self.canvas.set_brush(colour, radius)

    def show_trace(self, trace: VisionTrace, block: str, position, accent: str, marks=(), focus=None) -> None:
        """``focus`` (a projector): the picture and its map alone, as large as the page (the
        prediction stays in the tab's summary line)."""
        self.probabilities.setVisible(focus is None)
        for k, stretch in enumerate((4, 5, 0) if focus is not None else (2, 3, 3)):
            self.row.setStretch(k, stretch)
        self.picture.show_panel(vf.picture_panel(trace), bars=False, axes=False)
        overlay = vf.overlay_panel(trace, block)
        mark = {0: vf.Mark(QtGui.QColor(accent), 4)} if "overlay" in marks else {}
        self.overlay.set_figure(Figure([overlay], selection=position, marks=mark))
        self.probabilities.set_bars(probability_bars(trace, translate("VisionView", "probabilities")))

    def restyle(self, style: Style) -> None:
        for canvas in (self.picture, self.overlay):
            canvas.set_style(style)
        self.probabilities.set_style(style)

    def retranslate(self) -> None:
        names = {
            "red": translate("VisionClasses", "red"),
            "blue": translate("VisionClasses", "blue"),
            "yellow": translate("VisionView", "yellow"),
            "cyan": translate("VisionView", "cyan"),
            "green": translate("VisionView", "green"),
        }
        for i in range(self.colour.count()):
            self.colour.setItemText(i, names.get(self.colour.itemData(i), self.colour.itemData(i)))
        self.colour.setToolTip(translate("VisionView", "The brush's colour"))
        self.brush.setPrefix(translate("VisionView", "brush "))
        self.brush.setSuffix(" px")
        self.brush.setToolTip(translate("VisionView", "The brush's radius, in pixels of the 32×32 picture"))
        self.background.setItemText(0, translate("VisionView", "on the picture"))
        self.background.setItemText(1, translate("VisionView", "on plain grey"))
        self.background.setToolTip(translate("VisionView", "What the drawing is painted on"))
        self.undo.setText(translate("VisionView", "Undo stroke"))
        self.clear.setText(translate("VisionView", "Clear drawing"))


# -- channel attention ----------------------------------------------------------------------------------
class ChannelPage(StackedPage):
    channelClicked = QtCore.Signal(int)

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        self.bars = BarChart(style)
        self.figure = SquareCanvas(style=style)
        self.worked = worked_browser()
        top = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        top.addWidget(self.bars)
        top.addWidget(self.figure)
        top.setStretchFactor(0, 2)
        top.setStretchFactor(1, 3)
        split = WorkedSplitter()
        split.addWidget(top)
        split.addWidget(self.worked)
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 2)
        # what the maps' ▲ ▼ ● and the bars' colours mean (trial 7: no student could say)
        self.legend = QtWidgets.QLabel()
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(QtCore.Qt.TextFormat.RichText)
        layout = QtWidgets.QVBoxLayout(self.content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split, 1)
        layout.addWidget(self.legend)
        self.splitter = split
        self.bars.clicked.connect(self.channelClicked)
        self.figure.clicked.connect(self._on_figure_click)
        self.channels: list[int] = []  # the figure's columns

    def _on_figure_click(self, index: int, _r: int, _c: int) -> None:
        if self.channels:
            self.channelClicked.emit(self.channels[index % len(self.channels)])

    def show_trace(self, trace, block, channel, html_text, accent, marks=(), focus=None) -> None:
        """``focus`` (a projector): the weights' bars alone for the weights (s), else the maps it
        names of two channels (explorer.gui.labs.vision.figures.channel_figure)."""
        title = translate("VisionView", "weights, sorted ({0})").format(block)
        bars = channel_bars(trace, block, channel, title + flat_note(trace, block))
        if "s" in marks:
            bars.colours = dict.fromkeys(bars.keys, QtGui.QColor(accent)) | bars.colours
        weights_alone = focus is not None and set(focus) <= {"s"}
        self.bars.setVisible(focus is None or weights_alone)
        self.figure.setVisible(not weights_alone)
        self.bars.set_bars(bars)
        figure = vf.channel_figure(trace, block, channel, marks, accent, focus)
        shown = vf.shown_channels(trace.block(block).stages["channel_weights"], channel)
        self.channels = [s.channel for s in (vf.focus_channels(shown) if focus is not None else shown)]
        self.figure.set_figure(figure)
        self.worked.setHtml(html_text)
        self.legend.setText(channel_legend(any(s.role == "selected" for s in shown), len(shown)))

    def restyle(self, style: Style) -> None:
        self.bars.set_style(style)
        self.figure.set_style(style)


# -- spatial attention ----------------------------------------------------------------------------------
class SpatialPage(StackedPage):
    positionClicked = QtCore.Signal(int, int)

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        self.figure = SquareCanvas(style=style)
        self.worked = worked_browser()
        split = WorkedSplitter()
        split.addWidget(self.figure)
        split.addWidget(self.worked)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.splitter = split
        self.caption = QtWidgets.QLabel()  # why the pooled maps have a colour bar each
        self.caption.setWordWrap(True)
        layout = QtWidgets.QVBoxLayout(self.content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split, 1)
        layout.addWidget(self.caption)
        self.figure.clicked.connect(lambda _i, r, c: self.positionClicked.emit(r, c))

    def show_trace(self, trace, block, position, html_text, accent, marks=(), focus=None) -> None:
        figure = vf.spatial_figure(trace, block, position, marks, accent)
        self.figure.set_figure(figure if focus is None else vf.focused(figure, focus))
        self.worked.setHtml(html_text)
        pooled = focus is None or bool({"pooled_avg", "pooled_max"} & set(focus))
        self.caption.setText(vf.pooled_caption(trace, block))
        self.caption.setVisible(pooled)

    def restyle(self, style: Style) -> None:
        self.figure.set_style(style)


# -- residual attention ---------------------------------------------------------------------------------
class ResidualPage(StackedPage):
    channelChanged = QtCore.Signal(int)

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self.content)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QtWidgets.QHBoxLayout()
        self.channel_label = QtWidgets.QLabel()
        self.channel = QtWidgets.QSpinBox()
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)
        row.addWidget(self.channel_label)
        row.addWidget(self.channel)
        row.addWidget(self.note, 1)
        layout.addLayout(row)
        self.figure = SquareCanvas(style=style)
        layout.addWidget(self.figure, 1)
        self.channel.valueChanged.connect(self.channelChanged)

    def show_trace(self, trace, channel, accent, marks=(), focus=None) -> None:
        block = vf.residual_block(trace)
        n = trace.block(block).stages["trunk"].shape[0]
        self.channel.blockSignals(True)
        self.channel.setRange(0, n - 1)
        self.channel.setValue(min(channel, n - 1))
        self.channel.blockSignals(False)
        self.note.setVisible(focus is None)  # on a projector the lesson column says it
        figure = vf.residual_figure(trace, self.channel.value(), marks, accent, one_scale=focus is not None)
        if focus is not None:
            figure = vf.focused(figure, focus)
        # a projector's step shows the means over all channels: the box would change nothing
        # on screen (trial 7), so it is off and says why
        used = vf.shows_one_channel(figure)
        for w in (self.channel_label, self.channel):
            w.setEnabled(used)
        tip = (
            translate("VisionView", "The channel whose trunk, mask and product the lower row shows")
            if used
            else translate(
                "VisionView",
                "Not used on this step: its maps are means over all channels. Outside presentation "
                "mode the page also shows one channel's maps.",
            )
        )
        for w in (self.channel_label, self.channel):
            w.setToolTip(tip)  # a disabled widget still shows its tooltip
        self.figure.set_figure(figure)

    def restyle(self, style: Style) -> None:
        self.figure.set_style(style)

    def retranslate(self) -> None:
        self.channel_label.setText(translate("VisionView", "Channel"))
        self.note.setText(
            translate("VisionView", "H = (1 + M(x))·T(x): attention can only add to the trunk's features.")
        )


# -- the variants side by side --------------------------------------------------------------------------
class ComparePage(QtWidgets.QWidget):
    positionClicked = QtCore.Signal(int, int)

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)
        layout.addWidget(self.note)
        self.figure = SquareCanvas(style=style)
        layout.addWidget(self.figure, 3)
        row = QtWidgets.QHBoxLayout()
        self.charts = [BarChart(style) for _ in range(3)]
        for chart in self.charts:
            row.addWidget(chart)
        layout.addLayout(row, 2)
        self.figure.clicked.connect(lambda _i, r, c: self.positionClicked.emit(r, c))

    def show_traces(self, traces: dict[str, VisionTrace], block: str, position) -> None:
        figure = vf.compare_figure(traces, block)
        figure.selection = position
        self.figure.set_figure(figure)
        for chart, (variant, trace) in zip(self.charts, traces.items()):
            chart.set_bars(probability_bars(trace, vf.variant_label(variant)))

    def clear(self) -> None:
        self.figure.set_figure(Figure())
        for chart in self.charts:
            chart.set_bars(None)

    def restyle(self, style: Style) -> None:
        self.figure.set_style(style)
        for chart in self.charts:
            chart.set_style(style)


# -- training ----------------------------------------------------------------------------------------------
