"""The Vision tab's matrix figures, built from a VisionTrace: the tab and the export share them.

Every panel holds the trace's own arrays (hover and clicks read them); nothing is computed
here but means over channels (said in the titles) and the choice of channels to show. A map
over the picture is drawn by the heatmap's background mode: the map stretched over the 32×32
picture by nearest neighbour, so each cell of an 8×8 map covers a 4×4 block of pixels, as
explorer.vision.measure.upsample_nearest says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6 import QtCore, QtGui

from explorer.gui import theme
from explorer.gui.heatmap import Figure, Mark, MatrixCanvas, MatrixPanel, Style
from explorer.gui.heatmap.figure import layout_figure
from explorer.gui.i18n import translate
from explorer.vision import flat
from explorer.vision.trace import VisionTrace

ACCENT = theme.SELECTED  # the frame of the lesson's panels (the view passes its theme's accent)
EDGE = 3  # the top and bottom channels the channel page shows
COLOURS = ("red", "blue")
SHAPES = ("circle", "square", "triangle", "cross")
WORDS = {  # the class names' words, for the translation catalogue
    "red": QtCore.QT_TRANSLATE_NOOP("VisionClasses", "red"),
    "blue": QtCore.QT_TRANSLATE_NOOP("VisionClasses", "blue"),
    "circle": QtCore.QT_TRANSLATE_NOOP("VisionClasses", "circle"),
    "square": QtCore.QT_TRANSLATE_NOOP("VisionClasses", "square"),
    "triangle": QtCore.QT_TRANSLATE_NOOP("VisionClasses", "triangle"),
    "cross": QtCore.QT_TRANSLATE_NOOP("VisionClasses", "cross"),
}


def class_label(name: str) -> str:
    """A class name ("red circle") in the interface language."""
    colour, _, shape = name.partition(" ")
    if colour in WORDS and shape in WORDS:
        return (
            translate("VisionClasses", "{colour} {shape}")
            .replace("{colour}", translate("VisionClasses", WORDS[colour]))
            .replace("{shape}", translate("VisionClasses", WORDS[shape]))
        )
    return name


def variant_label(variant: str) -> str:
    return {
        "plain": translate("VisionView", "plain CNN"),
        "se": "SE",
        "cbam": "CBAM",
        "residual": translate("VisionView", "residual attention"),
    }.get(variant, variant)


def picture_u8(image: np.ndarray) -> np.ndarray:
    return np.clip(np.round(np.asarray(image) * 255), 0, 255).astype(np.uint8)


def picture_panel(trace: VisionTrace, title: str | None = None) -> MatrixPanel:
    """The picture alone (a matrix of zeros drawn fully transparent over it)."""
    size = trace.image.shape[0]
    return MatrixPanel(
        np.zeros((size, size), dtype=np.float32),
        title=translate("VisionView", "picture (32×32)") if title is None else title,
        kind="weights",
        background=picture_u8(trace.image),
        overlay_alpha=0.0,
        name="picture",
    )


@dataclass(frozen=True)
class AttentionMap:
    data: np.ndarray  # [h, w]
    attention: bool  # False: an activation map of a model without spatial attention
    title: str


def attention_map(trace: VisionTrace, block: str) -> AttentionMap:
    """The block's spatial map (CBAM: M_s; residual: M(x) averaged over channels), or, for a
    block without one, the channel mean of its output: an activation map, not attention."""
    b = trace.block(block)
    if "spatial_map" in b.stages:
        if b.attention == "cbam":
            title = translate("VisionView", "M_s over the picture ({0})").format(block)
        else:
            title = translate("VisionView", "mean of M(x) over the picture ({0})").format(block)
        return AttentionMap(b.stages["spatial_map"], True, title)
    title = translate("VisionView", "activation, not attention ({0})").format(block)
    return AttentionMap(b.stages["output"].mean(axis=0), False, title)


def faint_note(data: np.ndarray) -> str:
    """What a spatial map below flat.FAINT_PEAK everywhere means (else nothing)."""
    if not flat.is_faint(data):
        return ""
    return translate("VisionView", "at most {0:.2f} everywhere: almost nothing passes").format(
        float(np.max(data))
    )


def overlay_panel(
    trace: VisionTrace, block: str, title: str | None = None, shared_scale: bool = False
) -> MatrixPanel:
    """The block's map lighting the picture. An activation map (no attention) is drawn on its
    own 0..max, or with ``shared_scale`` divided by its max, so it shares the 0..1 of the
    attention maps beside it (the title says so)."""
    m = attention_map(trace, block)
    data, heading = m.data, m.title if title is None else title
    peak = max(float(m.data.max()), 1e-6)
    levels = (0.0, 1.0) if m.attention or shared_scale else (0.0, peak)
    if shared_scale and not m.attention:
        data = m.data / peak
        heading += " " + translate("VisionView", "÷ its max {0:.2f}").format(peak)
    note = faint_note(m.data) if m.attention else ""
    if note:
        heading += " — " + note
    return MatrixPanel(
        data,
        title=heading,
        kind="spotlight",  # the picture lit by the map: no colour that a shape could have
        levels=levels,
        background=picture_u8(trace.image),
        role="qk",
        name="overlay",
    )


def picture_figure(trace: VisionTrace, block: str, position) -> Figure:
    return Figure([picture_panel(trace), overlay_panel(trace, block)], columns=2, selection=position)


# -- channel attention -------------------------------------------------------------------------------
@dataclass(frozen=True)
class ShownChannel:
    channel: int
    rank: int  # 0 = the largest weight
    role: str  # "top", "bottom" or "selected"


def sorted_channels(weights: np.ndarray) -> np.ndarray:
    """Channel indices from the largest weight to the smallest (ties: the lower index first)."""
    return np.argsort(-np.asarray(weights, dtype=np.float64), kind="stable")


def shown_channels(weights: np.ndarray, selected: int | None, edge: int = EDGE) -> list[ShownChannel]:
    order = sorted_channels(weights)
    rank = {int(c): r for r, c in enumerate(order)}
    edge = min(edge, len(order) // 2)
    shown = [ShownChannel(int(c), rank[int(c)], "top") for c in order[:edge]]
    shown += [ShownChannel(int(c), rank[int(c)], "bottom") for c in order[len(order) - edge :]]
    if selected is not None and 0 <= selected < len(order) and selected not in {s.channel for s in shown}:
        shown.insert(edge, ShownChannel(selected, rank[selected], "selected"))
    return shown


def channel_rows(attention: str) -> list[tuple[str, str]]:
    """(panel name, row header) of the channel figure, in the order of the computation. The
    channel's weight is s_c in both blocks, as the lesson's formulas write it (CBAM's paper
    calls it M_c: one name on one screen)."""
    if attention == "cbam":
        return [
            ("X", translate("VisionView", "X_c")),
            ("z", translate("VisionView", "avg z_c")),
            ("z_max", translate("VisionView", "max_c")),
            ("s", "s_c"),
            ("rescaled", "s_c·X_c"),
        ]
    return [
        ("X", translate("VisionView", "X_c")),
        ("z", translate("VisionView", "z_c = mean")),
        ("s", "s_c"),
        ("rescaled", "s_c·X_c"),
    ]


LABELLED_POSITIONS = 8  # a focused map with at most this many rows keeps its axes
VALUE_ROWS = ("z", "z_max", "s")  # one number a channel: a cell of its own, or on a projector its header


def channel_figure(
    trace: VisionTrace,
    block: str,
    selected: int | None,
    marks: tuple[str, ...] = (),
    accent: str = ACCENT,
    focus: tuple[str, ...] | None = None,
) -> Figure:
    """Stage by stage for the top and bottom channels (and the selected one): the maps X, the
    squeezed numbers, the weights, and the maps rescaled, all maps on X's colour levels so the
    rescaling shows as fading. ``focus`` (a projector): only the maps it names, of two channels
    (the selected or top one and the bottom one), each headed by the numbers it names."""
    b = trace.block(block)
    st = b.stages
    weights = st["channel_weights"]
    rescaled = st["channel_refined"] if b.attention == "cbam" else st["output"]
    shown = shown_channels(weights, selected)
    rows = channel_rows(b.attention)
    if focus is not None:
        shown = focus_channels(shown)
        headed = [(name, header) for name, header in rows if name in focus and name in VALUE_ROWS]
        rows = [(name, header) for name, header in rows if name in focus and name not in VALUE_ROWS]
    x_max = max(float(st["features"][[s.channel for s in shown]].max()), 1e-6)
    cell = {
        "X": lambda c: (st["features"][c], (0.0, x_max)),
        "z": lambda c: (st["squeeze"][c : c + 1, None], (0.0, x_max)),
        "z_max": lambda c: (st["squeeze_max"][c : c + 1, None], (0.0, x_max)),
        "s": lambda c: (weights[c : c + 1, None], (0.0, 1.0)),
        "rescaled": lambda c: (rescaled[c], (0.0, x_max)),
    }
    panels = []
    for name, _ in rows:
        for s in shown:
            data, levels = cell[name](s.channel)
            panels.append(MatrixPanel(np.asarray(data), kind="weights", levels=levels, name=name))
    mark = {"top": "▲", "bottom": "▼", "selected": "●"}  # the largest weights, the smallest, the chosen
    headers = [f"{mark[s.role]}{s.channel}" for s in shown]  # short: a column is ~50 px on a projector
    if focus is not None:
        headers = [
            "  ".join(
                [h] + [f"{header} = {float(cell[name](s.channel)[0][0, 0]):.2f}" for name, header in headed]
            )
            for h, s in zip(headers, shown)
        ]
    return Figure(
        panels,
        columns=len(shown),
        bars=False,
        axes=focus is not None,  # large enough on a projector for every position's number
        shared_axes=focus is not None,
        col_headers=headers,
        row_headers=[header for _, header in rows],
        show_values=True,
        marks={i: Mark(QtGui.QColor(accent)) for i, p in enumerate(panels) if p.name in marks},
    )


def focus_channels(shown: list[ShownChannel]) -> list[ShownChannel]:
    """Two of the channels shown: the selected one (else the top one) and the bottom one (the
    top one when the selected is the bottom one): two maps fit a projector's width."""
    chosen = next((s for s in shown if s.role == "selected"), shown[0])
    other = next(s for s in reversed(shown) if s.role == "bottom") if chosen.role != "bottom" else shown[0]
    return [chosen, other] if other != chosen else [chosen]


def focused(figure: Figure, names: tuple[str, ...]) -> Figure:
    """The figure with only the first panel of each name laid out, in one row, one colour bar
    when they share their colours and levels, one axis when they share a shape (a projector:
    each as large as the page allows)."""
    visible = []
    for name in names:
        i = next((k for k, p in enumerate(figure.panels) if p.name == name), None)
        if i is not None and i not in visible:
            visible.append(i)
    if not visible:
        return figure
    figure.visible, figure.columns = visible, len(visible)
    shown = [figure.panels[i] for i in visible]
    figure.shared_bar = len({(p.kind, tuple(p.levels)) for p in shown}) == 1 and len(shown) > 1
    figure.shared_axes = len({p.shape for p in shown}) == 1 and len(shown) > 1
    # positions numbered where each gets its label (8×8); a 16×16 map's room goes to its cells
    figure.axes = figure.axes and max(p.shape[0] for p in shown) <= LABELLED_POSITIONS
    return figure


PEAKS = (1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0)  # × a power of ten


def round_peak(value: float) -> float:
    """The top of a colour scale for a map whose largest value is ``value``: the next of
    PEAKS above it, so the bar's three labels (0, the middle, the top) are a few characters
    wide and two bars side by side leave a projector's maps their room."""
    if not value > 0 or not math.isfinite(value):
        return 1.0
    scale = 10.0 ** math.floor(math.log10(value))
    top = next(m for m in PEAKS if m * scale >= value * (1 - 1e-9))
    return float(f"{top * scale:.3g}")


# -- spatial attention --------------------------------------------------------------------------------
def spatial_figure(
    trace: VisionTrace, block: str, position, marks: tuple[str, ...] = (), accent: str = ACCENT
) -> Figure:
    """The block's spatial attention stage by stage. The two pooled maps each have their own
    0..peak and their own colour bar: on the max's scale the mean, a few times smaller, looked
    flat (trial 7), and the convolution weighs each map with its own kernel anyway, so it is
    each map's shape that decides where the model looks (``pooled_caption`` says so)."""
    st = trace.block(block).stages
    k = trace.config.kernel
    out = st["output"].mean(axis=0)
    panels = [
        MatrixPanel(
            st["pooled_avg"],
            title=translate("VisionView", "avg over channels"),
            kind="weights",
            levels=(0.0, round_peak(float(st["pooled_avg"].max()))),
            role="qk",
            name="pooled_avg",
        ),
        MatrixPanel(
            st["pooled_max"],
            title=translate("VisionView", "max over channels"),
            kind="weights",
            levels=(0.0, round_peak(float(st["pooled_max"].max()))),
            role="qk",
            name="pooled_max",
        ),
        MatrixPanel(
            st["spatial_logits"],
            title=translate("VisionView", "{0}×{0} conv + b").format(k),
            role="qk",
            name="spatial_logits",
        ),
        MatrixPanel(st["spatial_map"], title="M_s = σ(·)", kind="weights", role="qk", name="spatial_map"),
        overlay_panel(trace, block, translate("VisionView", "M_s over the picture")),
        MatrixPanel(
            out,
            title=translate("VisionView", "F″ = M_s·F′ (mean)"),
            kind="weights",
            levels=(0.0, max(float(out.max()), 1e-6)),
            role="qk",
            name="output",
        ),
    ]
    return Figure(
        panels,
        columns=3,
        selection=position,
        marks={i: Mark(QtGui.QColor(accent)) for i, p in enumerate(panels) if p.name in marks},
    )


def pooled_caption(trace: VisionTrace, block: str) -> str:
    """Why the two pooled maps have a colour bar each: their scales differ."""
    st = trace.block(block).stages
    return translate(
        "VisionView",
        "Each pooled map has its own colour bar: the mean reaches {0:.3g}, the max {1:.3g}. The "
        "convolution weighs each with its own kernel, so what counts is where each is bright.",
    ).format(float(st["pooled_avg"].max()), float(st["pooled_max"].max()))


# -- residual attention -------------------------------------------------------------------------------
def residual_block(trace: VisionTrace) -> str | None:
    return next((b.name for b in trace.blocks if b.attention == "residual"), None)


def residual_figure(
    trace: VisionTrace,
    channel: int,
    marks: tuple[str, ...] = (),
    accent: str = ACCENT,
    one_scale: bool = False,
) -> Figure:
    """The trunk, the mask and their product, averaged over channels and for one channel.
    ``one_scale`` (a projector: one colour bar leaves the maps the room): T and (1+M)·T
    divided by the largest (1+M)·T, so they share the mask's 0..1 (their titles say so)."""
    st = trace.block(residual_block(trace)).stages
    t, m, h = st["trunk"], st["mask_branch"], st["output"]
    c = min(max(channel, 0), t.shape[0] - 1)
    hi_mean = max(float(h.mean(axis=0).max()), 1e-6)
    hi_c = max(float(h[c].max()), 1e-6)

    def panel(data, title, name, levels):
        if one_scale and name != "mask_branch":
            hi = levels[1]
            data = data / hi
            title += " " + translate("VisionView", "÷ its max {0:.2f}").format(hi)
            levels = (0.0, 1.0)
        return MatrixPanel(data, title=title, kind="weights", levels=levels, role="qk", name=name)

    panels = [
        panel(t.mean(axis=0), translate("VisionView", "T(x), mean"), "trunk", (0.0, hi_mean)),
        panel(st["spatial_map"], translate("VisionView", "M(x), mean"), "mask_branch", (0.0, 1.0)),
        panel(h.mean(axis=0), translate("VisionView", "(1+M)·T, mean"), "output", (0.0, hi_mean)),
        panel(t[c], translate("VisionView", "T(x), channel {0}").format(c), "trunk", (0.0, hi_c)),
        panel(m[c], translate("VisionView", "M(x), channel {0}").format(c), "mask_branch", (0.0, 1.0)),
        panel(h[c], translate("VisionView", "(1+M)·T, channel {0}").format(c), "output", (0.0, hi_c)),
    ]
    return Figure(
        panels,
        columns=3,
        marks={i: Mark(QtGui.QColor(accent)) for i, p in enumerate(panels) if p.name in marks},
    )


RESIDUAL_MEANS = 3  # residual_figure's first row: the means over channels; the second: one channel


def shows_one_channel(figure: Figure) -> bool:
    """Whether a residual figure shows a chosen channel's maps (else only the means)."""
    return any(i >= RESIDUAL_MEANS for i in figure.shown())


# -- the variants side by side, and the probabilities as a strip ----------------------------------------
def probability_panel(trace: VisionTrace, title: str = "") -> MatrixPanel:
    return MatrixPanel(
        trace.probabilities.astype(np.float32)[:, None],
        rows=[class_label(n) for n in trace.class_names],
        cols=["p"],
        title=title,
        kind="weights",
        name="probabilities",
    )


def verdict(trace: VisionTrace) -> str:
    """'SE: red circle 98.1 %' (the variant, its prediction and its probability)."""
    p = float(trace.probabilities[trace.prediction])
    return f"{variant_label(trace.variant)}: {class_label(trace.prediction_name)} {100 * p:.1f} %"


def compare_title(trace: VisionTrace, block: str) -> str:
    """The variant, and what its map is: a spatial map, or an activation map (not attention)."""
    if attention_map(trace, block).attention:
        return variant_label(trace.variant)
    return translate("VisionView", "{0} (activation)").format(variant_label(trace.variant))


def compare_figure(traces: dict[str, VisionTrace], block: str, with_probabilities: bool = False) -> Figure:
    """The variants' maps on one 0..1 scale with one colour bar (an activation map divided by
    its max, and said so), and under them, for the export, their probabilities."""
    panels = [overlay_panel(t, block, compare_title(t, block), shared_scale=True) for t in traces.values()]
    if with_probabilities:
        panels += [probability_panel(t, variant_label(v)) for v, t in traces.items()]
    # one bar for the maps alone (the probabilities have colours of their own)
    return Figure(
        panels, columns=len(traces), show_values=with_probabilities, shared_bar=not with_probabilities
    )


def export_figure(trace: VisionTrace, block: str, position) -> Figure:
    """The picture, its map and the probabilities: the tab's first page as one figure."""
    return Figure(
        [picture_panel(trace), overlay_panel(trace, block), probability_panel(trace, verdict(trace))],
        columns=3,
        selection=position,
        show_values=True,
    )


# -- square plots -----------------------------------------------------------------------------------
def square_rect(rect: QtCore.QRectF, figure: Figure, style: Style) -> QtCore.QRectF:
    """The part of ``rect`` (centred) in which the figure's plots come out square: pictures
    are not stretched. The layout is linear in the slot sizes, so one correction is exact."""
    layout = layout_figure(rect, figure, style)
    if not layout.boxes:
        return rect
    plot = layout.boxes[0].plot
    shown = figure.shown()
    columns = max(1, min(figure.columns, len(shown)))
    rows = math.ceil(len(shown) / columns)
    w, h = rect.width(), rect.height()
    if plot.width() > plot.height():
        w -= (plot.width() - plot.height()) * columns
    else:
        h -= (plot.height() - plot.width()) * rows
    w, h = max(w, 40.0), max(h, 40.0)
    return QtCore.QRectF(rect.left() + (rect.width() - w) / 2, rect.top() + (rect.height() - h) / 2, w, h)


def square_size(figure: Figure, style: Style, size: QtCore.QSize) -> QtCore.QSize:
    return square_rect(QtCore.QRectF(0, 0, size.width(), size.height()), figure, style).size().toSize()


class SquareCanvas(MatrixCanvas):
    """A MatrixCanvas whose plots are square (centred in the widget)."""

    def current_layout(self):
        if self._layout is None:
            inner = square_rect(QtCore.QRectF(self.rect()), self.figure, self.style_)
            self._layout = layout_figure(inner, self.figure, self.style_)
        return self._layout
