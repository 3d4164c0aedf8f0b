"""Teaching notes: where a picture could mislead a class, which short note goes with it.

Qt-free: this module decides which notes apply to a trace; the window words them in the
interface language (explorer.gui.messages.note_text).

- A causal or window mask on a layer of a bidirectional pretrained model (an encoder; a
  decoder's own mask is causal): the hidden states
  entering the layer were computed by earlier layers that saw every token, the future
  included, so masking this one layer does not make the model a decoder.
- Additive or general scoring on a pretrained layer: its W₁, W₂, v (or W) are seeded, never
  trained with the model, so the weights show the formula, not what the model learned;
  trained ones are in the Translation tab (a model trained with that scoring).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from explorer.core.trace import AttentionTrace
from explorer.messages import Message

MASKS_THAT_HIDE_CONTEXT = ("causal", "window")
UNTRAINED_SCORINGS = ("additive", "general")


@dataclass(frozen=True)
class Note:
    key: str  # what the note says (explorer.gui.messages words each key)
    params: dict[str, Any] = field(default_factory=dict)
    replaces: str = ""  # the prefix of core notice keys this note says better


def teaching_notes(trace: AttentionTrace) -> list[Note]:
    """The notes for what ``trace`` (an AttentionTrace) shows."""
    config, notes = trace.config, list[Note]()
    if trace.weights_source != "pretrained":
        return notes
    mask = config.mask_spec.kind
    # A model trained causally (a decoder) sees only earlier tokens in every layer: its causal
    # mask hides nothing it knew; any other mask carries the engine's own notice.
    if mask in MASKS_THAT_HIDE_CONTEXT and not getattr(trace, "causal", False):
        layer = trace.layer or 0
        if layer > 0:
            notes.append(Note("mask_after_context", {"mask": mask, "layer": layer, "last": layer - 1}))
        else:
            notes.append(Note("mask_untrained", {"mask": mask}))
    if config.scoring in UNTRAINED_SCORINGS and trace.untrained:
        notes.append(Note("untrained_scoring", {"scoring": config.scoring}, replaces="engine.untrained_"))
    return notes


def notes_and_notices(trace: AttentionTrace) -> list[Note | Message]:
    """The trace's notices (Messages), less those a teaching note replaces, then the notes."""
    notes = teaching_notes(trace)
    replaced = tuple(n.replaces for n in notes if n.replaces)
    kept = [m for m in trace.notices if not (replaced and str(getattr(m, "key", "")).startswith(replaced))]
    return kept + notes
