"""What the Vision tab exports: its figures as PNG or SVG, drawn from the data.

The figures come from the tab's trace when it has one, else (a tab never opened) from the
state's picture and model, computed now: the user asked for them. The tab registry names
``figures`` here.
"""

from __future__ import annotations

from PySide6 import QtCore

from explorer.appstate.vision_jobs import ModelChoice, VisionRequest, compare, compute
from explorer.gui.i18n import translate
from explorer.gui.views.base import FigureSource, NothingToExport, ViewContext
from explorer.gui.vision import figures as vf
from explorer.gui.vision.pages import picture_error
from explorer.vision.trace import VisionTrace

TAB = "vision"
PICTURE_SIZE = QtCore.QSize(1200, 420)
STAGES_SIZE = QtCore.QSize(1200, 800)
CHANNEL_VARIANTS = ("se", "cbam")  # the models whose blocks reweight channels
SPATIAL_VARIANTS = ("cbam",)  # … and positions


def figures(context: ViewContext) -> dict[str, FigureSource]:
    """The tab's figures, drawn from its trace, or (a tab never opened) computed now for its settings."""
    view = context.view(TAB)
    vision = context.state.vision

    def trace() -> VisionTrace:
        if view is not None and view.trace is not None:
            return view.trace
        try:
            return compute(VisionRequest(vision.picture, ModelChoice(vision.variant))).trace
        except ValueError as exc:  # a picture that cannot be read (ImageError), any bad value
            raise NothingToExport(picture_error(exc)) from None

    def block_of(t: VisionTrace) -> str:
        names = [b.name for b in t.blocks]
        return vision.block if vision.block in names else names[-1]

    def sized(figure, size: QtCore.QSize):
        return figure, vf.square_size(figure, context.style(), size)

    def picture():
        t = trace()
        return sized(vf.export_figure(t, block_of(t), vision.position), PICTURE_SIZE)

    def channel():
        t = trace()
        block = block_of(t)
        if "channel_weights" not in t.block(block).stages:
            raise NothingToExport(translate("VisionView", "This block has no channel attention."))
        return sized(vf.channel_figure(t, block, vision.channel), STAGES_SIZE)

    def spatial():
        t = trace()
        block = block_of(t)
        if "spatial_logits" not in t.block(block).stages:
            raise NothingToExport(translate("VisionView", "This block has no spatial attention."))
        return sized(vf.spatial_figure(t, block, vision.position), STAGES_SIZE)

    def residual():
        t = trace()
        if vf.residual_block(t) is None:
            raise NothingToExport(
                translate("VisionView", "Only the residual-attention model has a mask branch.")
            )
        return sized(vf.residual_figure(t, vision.channel or 0), STAGES_SIZE)

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

    # offer only the stages the chosen model has (the export dialog lists these)
    out = {"vision": FigureSource(translate("VisionView", "Vision: picture, map and probabilities"), picture)}
    if vision.variant in CHANNEL_VARIANTS:
        out["vision:channel"] = FigureSource(
            translate("VisionView", "Vision: channel attention, stage by stage"), channel
        )
    if vision.variant in SPATIAL_VARIANTS:
        out["vision:spatial"] = FigureSource(
            translate("VisionView", "Vision: spatial attention, stage by stage"), spatial
        )
    if vision.variant == "residual":
        out["vision:residual"] = FigureSource(translate("VisionView", "Vision: residual attention"), residual)
    out["vision:compare"] = FigureSource(
        translate("VisionView", "Vision: plain, SE and CBAM side by side"), compared
    )
    return out
