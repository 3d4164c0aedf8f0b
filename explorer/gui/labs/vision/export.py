"""What the Vision tab exports: its figures as PNG or SVG, drawn from the data.

The figures come from the tab's trace when it has one, else (a tab never opened) from the
state's picture and model, computed now: the user asked for them. The channel, spatial and
residual stages are offered whatever the chosen model: one without that attention exports the
shipped model that has it, on the same picture (its name is in the figure's title). The
training curves are the lab's run's. The tab registry names ``figures`` here.
"""

from __future__ import annotations

from PySide6 import QtCore

from explorer.appstate.vision_jobs import ModelChoice, VisionRequest, compare, compute
from explorer.gui.i18n import translate
from explorer.gui.lab.export import Captioned, page_figure, training_curves
from explorer.gui.labs.vision import figures as vf
from explorer.gui.labs.vision.pages import picture_error
from explorer.gui.labs.vision.training import VisionTraining
from explorer.gui.views.base import FigureSource, NothingToExport, ViewContext
from explorer.vision.trace import VisionTrace

TAB = "vision"
PICTURE_SIZE = QtCore.QSize(1200, 420)
STAGES_SIZE = QtCore.QSize(1200, 800)
CHANNEL_VARIANTS = ("se", "cbam")  # the models whose blocks reweight channels
SPATIAL_VARIANTS = ("cbam",)  # … and positions
RESIDUAL_VARIANTS = ("residual",)  # … and have a mask branch


def figures(context: ViewContext) -> dict[str, FigureSource]:
    """The tab's figures, drawn from its trace, or (a tab never opened) computed now for its settings."""
    view = context.view(TAB)
    vision = context.state.vision

    def trace(variants: tuple[str, ...] | None = None) -> VisionTrace:
        """The tab's trace, or one computed now; with ``variants``, of a model among them."""
        if variants is not None and vision.variant not in variants:
            choice = ModelChoice(variants[-1])  # the shipped model that has this attention
        elif view is not None and view.trace is not None:
            return view.trace
        else:
            choice = ModelChoice(vision.variant)
        try:
            return compute(VisionRequest(vision.picture, choice)).trace
        except ValueError as exc:  # a picture that cannot be read (ImageError), any bad value
            raise NothingToExport(picture_error(exc)) from None

    def block_of(t: VisionTrace) -> str:
        names = [b.name for b in t.blocks]
        return vision.block if vision.block in names else names[-1]

    def sized(figure, size: QtCore.QSize, t: VisionTrace | None = None):
        """The figure at its size; one of another model than the chosen one says whose it is."""
        size = vf.square_size(figure, context.style(), size)
        variant = t.variant if t is not None else vision.variant
        if t is None or variant == vision.variant:
            return figure, size
        note = translate(
            "VisionView", "The shipped {0} model on the same picture: {1} has none of this attention."
        )
        captioned = Captioned(
            figure, note.format(vf.variant_label(variant), vf.variant_label(vision.variant))
        )
        return captioned, QtCore.QSize(size.width(), size.height() + 3 * context.style().font.pixelSize())

    def picture():
        t = trace()
        return sized(vf.export_figure(t, block_of(t), vision.position), PICTURE_SIZE)

    def channel():
        t = trace(CHANNEL_VARIANTS)
        block = block_of(t)
        if "channel_weights" not in t.block(block).stages:
            raise NothingToExport(translate("VisionView", "This block has no channel attention."))
        return sized(vf.channel_figure(t, block, vision.channel), STAGES_SIZE, t)

    def spatial():
        t = trace(SPATIAL_VARIANTS)
        block = block_of(t)
        if "spatial_logits" not in t.block(block).stages:
            raise NothingToExport(translate("VisionView", "This block has no spatial attention."))
        return sized(vf.spatial_figure(t, block, vision.position), STAGES_SIZE, t)

    def residual():
        t = trace(RESIDUAL_VARIANTS)
        if vf.residual_block(t) is None:
            raise NothingToExport(
                translate("VisionView", "Only the residual-attention model has a mask branch.")
            )
        return sized(vf.residual_figure(t, vision.channel or 0), STAGES_SIZE, t)

    def compared():
        if view is not None and view.compared is not None and view.compared.picture == vision.picture:
            result = view.compared
        else:
            try:
                result = compare(vision.picture)
            except ValueError as exc:  # a picture that cannot be read (ImageError), any bad value
                raise NothingToExport(picture_error(exc)) from None
        t = next(iter(result.traces.values()))
        return sized(
            vf.compare_figure(result.traces, block_of(t), with_probabilities=True), QtCore.QSize(1200, 900)
        )

    return {
        "vision": FigureSource(translate("VisionView", "Vision: picture, map and probabilities"), picture),
        "vision:channel": FigureSource(
            translate("VisionView", "Vision: channel attention, stage by stage"), channel
        ),
        "vision:spatial": FigureSource(
            translate("VisionView", "Vision: spatial attention, stage by stage"), spatial
        ),
        "vision:residual": FigureSource(translate("VisionView", "Vision: residual attention"), residual),
        "vision:compare": FigureSource(
            translate("VisionView", "Vision: plain, SE and CBAM side by side"), compared
        ),
        **{
            f"vision:{name}": source
            for name, source in training_curves(
                context, vision, VisionTraining(), translate("VisionView", "Vision: the training curves")
            ).items()
        },
    }


PAGE_FIGURES = {
    "picture": "vision",
    "channel": "vision:channel",
    "spatial": "vision:spatial",
    "residual": "vision:residual",
    "compare": "vision:compare",
    "train": "vision:training",
}


def shown_figure(context: ViewContext) -> str:
    """The figure of the page on screen (the Export dialog's preset)."""
    return page_figure(PAGE_FIGURES.get(context.state.vision.page), figures(context))
