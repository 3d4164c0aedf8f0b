"""The Language model tab's matrices, built from an LMResult (explorer.appstate.lm_jobs): every
head's attention on the probe, titled with its scores; the two heads that formed (the best
previous-token head of the first layer, the best induction head of the second); one head's
stages as the Pipeline draws them. No widget: the tab and the export share these."""

from __future__ import annotations

import dataclasses

import numpy as np
from PySide6 import QtGui

from explorer.appstate.display import DisplayArrays
from explorer.appstate.lm import Head
from explorer.appstate.lm_jobs import LMResult
from explorer.gui.heatmap import MatrixPanel
from explorer.gui.heatmap.figure import Mark, Style
from explorer.gui.i18n import translate
from explorer.gui.views import stages

NO_DISPLAY = DisplayArrays()  # the lab's matrices are small: drawn cell for cell
OFF_COLOUR = "#888888"
# Trial 6 asked every token named on a short axis, trial 8 no text under 20 px at a projector
# (the size tests/gui/projector_check.py holds every widget's text to): at a projector the
# labels shrink to name every row down to this size, no smaller; where a row has no room for
# it, every other token (or fewer) is named and the page says so.
PROJECTOR_LABEL_PX = 20


def projector_style(style: Style, presenting: bool) -> Style:
    """The figure's style, with labels of PROJECTOR_LABEL_PX at least at a projector."""
    return dataclasses.replace(style, least_label_px=PROJECTOR_LABEL_PX) if presenting else style


def rows_named_every(layout) -> int:
    """Every how many rows the panels laid out name a token (1: every row)."""
    return max((box.rows.stride for box in layout.boxes if box.draw_rows and len(box.rows)), default=1)


def head_name(head: Head) -> str:
    return f"{head[0]}.{head[1]}"


def shown_tokens(tokens: list[str]) -> list[str]:
    """A space or a line break as a visible sign on an axis."""
    return [{" ": "␣", "\n": "↵"}.get(t, t) for t in tokens]


def head_title(result: LMResult, head: Head) -> str:
    layer, index = head
    s = result.scores
    title = translate("LMView", "{head} · prev {prev:.2f} · ind {ind:.2f}").format(
        head=head_name(head), prev=s.previous_token[layer, index], ind=s.induction[layer, index]
    )
    if head in result.request.off:
        title = translate("LMView", "{0} (off)").format(title)
    return title


def weights_panel(result: LMResult, head: Head, title: str | None = None) -> MatrixPanel:
    layer, index = head
    tokens = shown_tokens(result.trace.tokens)
    return MatrixPanel(
        np.asarray(result.trace.layer(layer).weights[index]),
        tokens,
        tokens,
        title=head_title(result, head) if title is None else title,
        kind="weights",
        levels=(0.0, 1.0),
        role="qk",
        name=head_name(head),
    )


def short_title(result: LMResult, head: Head) -> str:
    """The score a head of its layer can have: previous-token in the first, induction later."""
    layer, index = head
    if layer == 0:
        title = translate("LMView", "{head} · prev {score:.2f}")
        score = result.scores.previous_token[layer, index]
    else:
        title = translate("LMView", "{head} · ind {score:.2f}")
        score = result.scores.induction[layer, index]
    off = head in result.request.off
    return title.format(head=("⊘ " if off else "") + head_name(head), score=score)  # ⊘: off, in little room


def all_heads(result: LMResult, short: bool = False) -> list[MatrixPanel]:
    """layers × heads panels of the attention weights, first layer first (``short``: each
    titled with its layer's score only, for a projector)."""
    layers, heads = result.scores.induction.shape
    every = [(layer, h) for layer in range(layers) for h in range(heads)]
    return [weights_panel(result, head, short_title(result, head) if short else None) for head in every]


def head_marks(result: LMResult, selected: Head, accent: str) -> dict[int, Mark]:
    """The selected head framed in the accent, the heads switched off in grey."""
    heads = result.scores.induction.shape[1]
    marks = {layer * heads + h: Mark(QtGui.QColor(OFF_COLOUR), 3) for layer, h in result.request.off}
    marks[selected[0] * heads + selected[1]] = Mark(QtGui.QColor(accent), 4)
    return marks


def best_head(result: LMResult, score: str) -> Head:
    """The head with the highest score: previous-token heads in the first layer, induction
    heads in a later one (the first layer has no earlier layer to read a previous token from)."""
    scores = np.asarray(getattr(result.scores, score))
    layers = [0] if score == "previous_token" else list(range(1, scores.shape[0]))
    layer = max(layers, key=lambda la: scores[la].max())
    return layer, int(scores[layer].argmax())


def formed_heads(result: LMResult) -> list[MatrixPanel]:
    """The best previous-token head and the best induction head, side by side."""
    previous, induction = best_head(result, "previous_token"), best_head(result, "induction")
    s = result.scores
    return [
        weights_panel(
            result,
            previous,
            translate("LMView", "previous-token head {0}: {1:.2f}").format(
                head_name(previous), s.previous_token[previous]
            ),
        ),
        weights_panel(
            result,
            induction,
            translate("LMView", "induction head {0}: {1:.2f}").format(
                head_name(induction), s.induction[induction]
            ),
        ),
    ]


def stage_panels(result: LMResult, head: Head) -> list[MatrixPanel]:
    """Every stage of one head, as the Pipeline draws it."""
    layer, index = head
    panels = stages.pipeline_panels(result.trace.layer(layer), NO_DISPLAY, index)
    for panel in panels:
        if panel.rows is not None:
            panel.rows = shown_tokens(list(panel.rows))
        if panel.cols is not None:
            panel.cols = shown_tokens(list(panel.cols))
    return panels
